/* Unit tests: the trace a summary names (core/job/ranksum_trace.c) is
 * resolved beside the summary and handed out only if it is a regular
 * file; a FIFO is refused without blocking. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/xalloc.h"
#include "core/job/ranksum.h"
#include "core/job/ranksum_trace.h"

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{}", f);
    fclose(f);
}

static void test_resolved_beside_the_summary(void **state)
{
    (void)state;
    char dir[] = "/tmp/torchtop-test-rstrace-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *sub = xasprintf("%s/sums", dir), *trace = xasprintf("%s/sums/rank-0.json", dir);
    char *fifo = xasprintf("%s/sums/fifo.json", dir), *summary = xasprintf("%s/r0.summary", sub);
    assert_int_equal(mkdir(sub, 0700), 0);
    touch(trace);
    assert_int_equal(mkfifo(fifo, 0600), 0);

    /* A relative source is taken beside the summary file. */
    struct ranksum *s = ranksum_new("rank-0.json");
    s->file = xstrdup(summary);
    struct errinfo err = {0};
    char *p = ranksum_trace_path(s, &err);
    assert_non_null(p);
    assert_string_equal(p, trace);
    free(p);

    /* A FIFO is refused at once, named, with its type. */
    free(s->source);
    s->source = xstrdup("fifo.json");
    assert_null(ranksum_trace_path(s, &err));
    assert_int_equal(err.status, ST_IO);
    assert_string_equal(err.file, fifo);
    assert_non_null(strstr(err.msg, "a FIFO"));
    errinfo_clear(&err);

    /* A directory and a missing file are refused too. */
    free(s->source);
    s->source = xstrdup("..");
    assert_null(ranksum_trace_path(s, &err));
    assert_non_null(strstr(err.msg, "a directory"));
    errinfo_clear(&err);
    free(s->source);
    s->source = xstrdup("missing.json");
    assert_null(ranksum_trace_path(s, &err));
    assert_non_null(strstr(err.msg, "cannot open"));
    errinfo_clear(&err);

    /* An absolute source stays as it is. */
    free(s->source);
    s->source = xstrdup(trace);
    p = ranksum_trace_path(s, &err);
    assert_non_null(p);
    assert_string_equal(p, trace);
    free(p);

    /* A rank built from a trace: that trace's path. */
    free(s->file);
    s->file = NULL;
    p = ranksum_trace_path(s, &err);
    assert_non_null(p);
    assert_string_equal(p, trace);
    free(p);
    ranksum_free(s);

    unlink(fifo);
    unlink(trace);
    rmdir(sub);
    rmdir(dir);
    free(sub);
    free(trace);
    free(fifo);
    free(summary);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolved_beside_the_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
