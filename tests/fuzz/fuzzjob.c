/* Helpers shared by the job fuzz targets: a scratch directory the inputs
 * are written into (the job readers take paths), and every cross-rank
 * table of a job in every format. */
#include "config.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/job/job_tables.h"
#include "core/report/tabfmt.h"
#include "tests/fuzz/fuzz.h"

static char *scratch;

/* Remove every file the last input left. */
void fuzz_job_clear(void)
{
    DIR *d = scratch ? opendir(scratch) : NULL;
    if (!d)
        return;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        char *p = xasprintf("%s/%s", scratch, de->d_name);
        unlink(p);
        free(p);
    }
    closedir(d);
}

static void remove_scratch(void)
{
    fuzz_job_clear();
    rmdir(scratch);
}

const char *fuzz_job_dir(void)
{
    if (!scratch) {
        const char *tmp = getenv("TMPDIR");
        char *tmpl = xasprintf("%s/torchtop-fuzz-job.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(tmpl))
            fuzz_fail("cannot make a scratch directory %s", tmpl);
        scratch = tmpl;
        atexit(remove_scratch);
    }
    return scratch;
}

char *fuzz_job_write(const char *name, const void *buf, size_t len)
{
    char *path = xasprintf("%s/%s", fuzz_job_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(buf, 1, len, f) != len) || fclose(f) != 0)
        fuzz_fail("cannot write %s", path);
    return path;
}

void fuzz_job_exercise(const struct job *j)
{
    struct job_view v;
    job_view_init(&v, j);
    struct table_list tables = {0};
    char msg[256];
    if (!job_tables_build(&v, "all", &tables, msg))
        fuzz_fail("the job tables: %s", msg);
    struct strbuf out = STRBUF_INIT, header = STRBUF_INIT;
    job_tables_header_json(&header, &v);
    cJSON *h = cJSON_ParseWithLength(sb_str(&header), header.len);
    if (!h)
        fuzz_fail("the job header is not valid JSON");
    cJSON_Delete(h);
    static const enum tab_format formats[] = {FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MD};
    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        struct tabfmt_opts fo = {.format = formats[f], .all_columns = true};
        sb_clear(&out);
        tabfmt_list(&out, &tables, &fo, formats[f] == FMT_JSON ? sb_str(&header) : NULL);
        if (formats[f] == FMT_JSON) {
            cJSON *doc = cJSON_ParseWithLength(sb_str(&out), out.len);
            if (!doc)
                fuzz_fail("the job's JSON report is not valid JSON");
            cJSON_Delete(doc);
        }
    }
    sb_clear(&out);
    job_tables_header_text(&out, &v);
    sb_free(&out);
    sb_free(&header);
    table_list_free(&tables);
    job_view_done(&v);
}
