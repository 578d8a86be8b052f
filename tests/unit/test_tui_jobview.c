/* Unit tests: the job view's lanes of a collective across the ranks
 * (tui/job/joblanes.h) on a synthetic 4-rank job. The job view's keys,
 * tables and ranks opened on top are scripted sessions (tests/ui/jobdoc.sh). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/synth/synth_job.h"
#include "core/trace/load.h"
#include "tui/job/joblanes.h"
#include "core/job/job_tables.h"
#include "core/report/report.h"
#include "tui/frame/keymap.h"
#include "tui/frame/text.h"

static struct job *make_job(void)
{
    struct synth_job_opts o = {.ranks = 4, .straggler = 1, .metadata = true};
    struct ranksum *sums[4];
    for (unsigned r = 0; r < 4; r++) {
        struct strbuf sb = STRBUF_INIT;
        synth_job_rank(&o, r, &sb);
        char name[32];
        snprintf(name, sizeof(name), "job/rank-%u.json", r);
        struct trace *t = NULL;
        struct errinfo err = {0};
        struct load_opts lo = {.threads = 1};
        assert_int_equal(trace_load_mem(name, sb.s, sb.len, &lo, &t, &err), ST_OK);
        sums[r] = ranksum_from_trace(t);
        trace_free(t);
        sb_free(&sb);
    }
    struct job *j;
    struct errinfo err = {0};
    assert_int_equal(job_from_summaries(sums, 4, &j, &err), ST_OK);
    return j;
}

/* The text of screen line y (malloc'd). */
static char *line_of(const char *s, int y)
{
    for (int i = 0; i < y && s; i++) {
        s = strchr(s, '\n');
        s = s ? s + 1 : NULL;
    }
    assert_non_null(s);
    const char *nl = strchr(s, '\n');
    return strndup(s, nl ? (size_t)(nl - s) : strlen(s));
}

/* The lanes of instance inst in lines lines of 120 columns (malloc'd). */
static char *lanes(const struct job_view *v, uint32_t inst, int lines)
{
    struct strbuf sb = STRBUF_INIT;
    joblanes_render(v, inst, 120, lines, true, &sb, NULL);
    return sb_steal(&sb);
}

/* Cells of glyph ch in the lane part of a line (after the label). */
static int count_cells(const char *line, char ch)
{
    int n = 0;
    for (const char *p = line + 10; *p && p < line + 10 + 94; p++)
        n += *p == ch;
    return n;
}

/* The selected collective's lanes: a compute and a collectives lane per
 * rank, each rank's wait shaded over as many columns as its wait takes,
 * the straggler arriving last. */
static void test_timeline(void **state)
{
    (void)state;
    struct job *j = make_job();
    struct job_view v;
    job_view_init(&v, j);
    struct table *t = job_tables_collectives(&v);
    report_sort_table(t, "avg_wait_time");
    char *s = lanes(&v, table_ref(t, 1), 30);
    const struct coll_inst *x = &v.colls.insts.v[table_ref(t, 1)];
    char want[64];
    snprintf(want, sizeof(want), "Collective %s, absolute time", x->id);
    assert_non_null(strstr(s, want));
    const char *at = strstr(s, "\nr1 coll");
    assert_non_null(at);
    char *l1 = line_of(at + 1, 0);
    assert_non_null(strstr(l1, "arrived last"));
    assert_int_equal(count_cells(l1, '-'), 0);
    int prev_cells = -1;
    int64_t prev_wait = -1;
    for (uint32_t k = 0; k < x->count; k++) {
        const struct coll_part *p = &v.colls.parts.v[x->first + k];
        if (p->rank_ix == 1)
            continue;
        const struct rank_coll *c = &j->ranks.v[p->rank_ix]->colls.v[p->coll];
        char key[32], dur[24];
        snprintf(key, sizeof(key), "\nr%u coll", p->rank_ix);
        char *l = line_of(strstr(s, key) + 1, 0);
        text_duration(dur, sizeof(dur), x->latest_start - c->ts, true);
        snprintf(want, sizeof(want), "wait %s", dur);
        assert_non_null(strstr(l, want));
        /* Longer waits shade at least as many columns. */
        int cells = count_cells(l, '-');
        assert_true(cells > 0);
        if (prev_wait >= 0 && x->latest_start - c->ts > prev_wait)
            assert_true(cells >= prev_cells);
        prev_cells = cells;
        prev_wait = x->latest_start - c->ts;
        free(l);
        snprintf(key, sizeof(key), "\nr%u comp", p->rank_ix);
        l = line_of(strstr(s, key) + 1, 0);
        assert_true(count_cells(l, '#') + count_cells(l, ':') + count_cells(l, '.') > 0);
        free(l);
    }
    free(l1);
    free(s);
    /* Few lines: one lane per rank and a count of those left out. */
    struct strbuf sb = STRBUF_INIT;
    assert_int_equal(joblanes_render(&v, 0, 120, 5, true, &sb, NULL), 5);
    assert_non_null(strstr(sb_str(&sb), "... 2 more ranks"));
    assert_null(strstr(sb_str(&sb), " comp "));
    sb_free(&sb);
    /* A version 1 summary has no compute to draw, and says so. */
    j->ranks.v[2]->busy_gap_ns = -1;
    s = lanes(&v, table_ref(t, 1), 30);
    assert_non_null(strstr(s, "version 1 summary"));
    free(s);
    table_free(t);
    job_view_done(&v);
    job_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
