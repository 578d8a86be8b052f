/* Fuzz target: a job's inputs, a directory of small traces and rank
 * summaries. The input is up to 4 files separated by "\n--8<--\n"; each
 * file's first byte names it (low 2 bits: the rank in "rank-K"; bit 2:
 * ".summary" rather than ".json"), the rest is its content. The directory
 * is resolved, loaded as one job (traces summarized, summaries read,
 * ranks numbered) and every cross-rank table printed in every format. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/job/job.h"
#include "tests/fuzz/fuzz.h"

#define SEP "\n--8<--\n"
#define MAX_FILES 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    const uint8_t *p = data, *end = data + size;
    size_t sep = strlen(SEP);
    for (int k = 0; k < MAX_FILES && p < end; k++) {
        const uint8_t *next = end;
        for (const uint8_t *q = p; q + sep <= end; q++)
            if (memcmp(q, SEP, sep) == 0) {
                next = q;
                break;
            }
        char name[32];
        snprintf(name, sizeof(name), "rank-%d.%s", *p & 3, *p & 4 ? "summary" : "json");
        /* A later file of the same name replaces an earlier one. */
        free(fuzz_job_write(name, p + 1, next > p ? (size_t)(next - p - 1) : 0));
        p = next + (next < end ? sep : 0);
    }
    const char *dir = fuzz_job_dir();
    struct job_inputs in;
    struct errinfo err = {0};
    if (job_inputs_resolve(&dir, 1, &in, &err) == ST_OK) {
        struct job_load_opts o = {.load = {.threads = 1}};
        struct job *j = NULL;
        if (job_load(&in, &o, &j, &err) == ST_OK)
            fuzz_job_exercise(j);
        job_free(j);
    }
    job_inputs_free(&in);
    errinfo_clear(&err);
    fuzz_job_clear();
    return 0;
}
