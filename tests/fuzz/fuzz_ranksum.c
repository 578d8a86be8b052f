/* Fuzz target: a rank summary file (plain JSON or gzip, told apart by
 * content) read by ranksum_read. One that reads is written back out and
 * read again, and a job of it and a copy of it one rank up gives every
 * cross-rank table in every format. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>

#include "core/job/job.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    char *path = fuzz_job_write("rank-0.summary", data, size);
    struct ranksum *sums[2] = {NULL, NULL};
    struct errinfo err = {0};
    if (ranksum_read(path, &sums[0], &err) == ST_OK &&
        ranksum_read(path, &sums[1], &err) == ST_OK) {
        /* Whatever the writer makes of it: written, then read again (the
         * reader may refuse it: numbers past what it takes). */
        char *out = xasprintf("%s/again.summary", fuzz_job_dir());
        struct ranksum *again = NULL;
        if (ranksum_write(sums[0], out, &err) == ST_OK)
            ranksum_read(out, &again, &err);
        errinfo_clear(&err);
        ranksum_free(again);
        free(out);
        /* A second rank: the same numbers one rank up. */
        sums[0]->name_rank = 0;
        sums[1]->name_rank = 1;
        if (sums[0]->dist_rank >= 0 && sums[0]->dist_rank < INT_MAX)
            sums[1]->dist_rank = sums[0]->dist_rank + 1;
        struct job *j = NULL;
        if (job_from_summaries(sums, 2, &j, &err) == ST_OK)
            fuzz_job_exercise(j);
        job_free(j);
    } else {
        ranksum_free(sums[0]);
    }
    errinfo_clear(&err);
    fuzz_job_clear();
    free(path);
    return 0;
}
