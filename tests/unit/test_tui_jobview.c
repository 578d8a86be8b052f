/* Unit tests: the explorer's job view (tui/jobview.h) on a synthetic
 * 4-rank job: the screen, moving, Tab between the tables, the sort menu
 * and keys, Enter opening the selected rank, base names, horizontal
 * scroll, the help from the key table. */
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
#include "tui/joblanes.h"
#include "tui/jobview.h"
#include "tui/keymap.h"
#include "tui/text.h"

static struct jobview *make_view(void)
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
    return jobview_new(j, true);
}

static char *screen(struct jobview *jv, int *cursor)
{
    struct strbuf sb = STRBUF_INIT;
    jobview_screen(jv, 20, 120, &sb, cursor);
    return sb_steal(&sb);
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

static void test_ranks_and_open(void **state)
{
    (void)state;
    struct jobview *jv = make_view();
    int cur;
    char *s = screen(jv, &cur);
    assert_non_null(strstr(s, "[ranks]"));
    assert_non_null(strstr(s, "4 ranks (numbered by distributedInfo)"));
    /* The row shows the base name, the last line the whole path. */
    char *l = line_of(s, cur);
    assert_non_null(strstr(l, "rank-0.json"));
    assert_null(strstr(l, "job/"));
    free(l);
    l = line_of(s, 19);
    assert_string_equal(l, "rank 0: job/rank-0.json");
    free(l);
    free(s);
    assert_int_equal(jobview_key(jv, KEYF(KEY_DOWN), 10), JOBVIEW_NONE);
    assert_int_equal(jobview_key(jv, 'j', 10), JOBVIEW_NONE);
    s = screen(jv, &cur);
    l = line_of(s, cur);
    assert_non_null(strstr(l, "rank-2.json"));
    free(l);
    free(s);
    assert_int_equal(jobview_key(jv, '\n', 10), JOBVIEW_OPEN);
    assert_string_equal(jobview_open_path(jv), "job/rank-2.json");
    /* Past the end stays on the last row. */
    jobview_key(jv, 'G', 10);
    jobview_key(jv, KEYF(KEY_DOWN), 10);
    assert_string_equal(jobview_open_path(jv), "job/rank-3.json");
    assert_int_equal(jobview_key(jv, 'q', 10), JOBVIEW_QUIT);
    jobview_free(jv);
}

static void test_collectives_and_sort(void **state)
{
    (void)state;
    struct jobview *jv = make_view();
    jobview_key(jv, '\t', 10);
    int cur;
    char *s = screen(jv, &cur);
    assert_non_null(strstr(s, "[collectives]"));
    assert_non_null(strstr(s, "0_0"));
    free(s);
    /* Enter does not open a collective; the ranks table is one Tab away. */
    assert_int_equal(jobview_key(jv, '\n', 10), JOBVIEW_NONE);
    assert_null(jobview_open_path(jv));
    /* Opened sorted by average wait, then skew, latency, bus bandwidth. */
    const struct table *t = jv->tabs[JOBVIEW_COLLECTIVES];
    int c = table_col_index(t, "avg_wait_time");
    for (size_t r = 1; r < t->nrows; r++)
        assert_true(table_cell(t, r - 1, (size_t)c).f >= table_cell(t, r, (size_t)c).f);
    /* s opens the sort menu on the sort column; the next item down is the
     * end skew, Enter sorts by it, largest first. */
    jobview_key(jv, 's', 10);
    assert_true(jv->menu.open);
    s = screen(jv, &cur);
    char *l = line_of(s, cur);
    assert_non_null(strstr(l, "avg wait us (descending)"));
    free(l);
    free(s);
    jobview_key(jv, 'j', 10);
    jobview_key(jv, '\n', 10);
    assert_false(jv->menu.open);
    assert_non_null(strstr(jv->msg, "sorted by end skew us"));
    c = table_col_index(t, "skew in end time");
    for (size_t r = 1; r < t->nrows; r++)
        assert_true(table_cell(t, r - 1, (size_t)c).f >= table_cell(t, r, (size_t)c).f);
    /* A digit picks the column in the menu; Esc closes it unchanged. */
    jobview_key(jv, 's', 10);
    jobview_key(jv, KEY_ESC, 10);
    assert_false(jv->menu.open);
    assert_non_null(strstr(jv->msg, "end skew"));
    jobview_key(jv, 's', 10);
    jobview_key(jv, '1', 10);
    assert_non_null(strstr(jv->msg, "sorted by id"));
    /* S reverses, > the next column. */
    jobview_key(jv, 'S', 10);
    assert_non_null(strstr(jv->msg, "sorted by id v"));
    jobview_key(jv, '>', 10);
    assert_non_null(strstr(jv->msg, "sorted by pg"));
    /* The table's title shows once (the message line says rows). */
    s = screen(jv, &cur);
    const char *title = strstr(s, t->title);
    assert_non_null(title);
    assert_null(strstr(title + 1, t->title));
    free(s);
    jobview_key(jv, '\t', 10);
    s = screen(jv, &cur);
    assert_non_null(strstr(s, "[ranks]"));
    free(s);
    jobview_free(jv);
}

/* Cells of glyph ch in the lane part of a line (after the label). */
static int count_cells(const char *line, char ch)
{
    int n = 0;
    for (const char *p = line + 10; *p && p < line + 10 + 94; p++)
        n += *p == ch;
    return n;
}

/* The collectives screen ends in the selected collective's timeline: a
 * compute and a collectives lane per rank, each rank's wait shaded over
 * as many columns as its wait takes, the straggler arriving last. */
static void test_timeline(void **state)
{
    (void)state;
    struct jobview *jv = make_view();
    jobview_key(jv, '\t', 10);
    jobview_key(jv, 'j', 10);
    int cur;
    char *s = screen(jv, &cur);
    const struct table *t = jv->tabs[JOBVIEW_COLLECTIVES];
    const struct coll_inst *x = &jv->v.colls.insts.v[table_ref(t, 1)];
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
        const struct coll_part *p = &jv->v.colls.parts.v[x->first + k];
        if (p->rank_ix == 1)
            continue;
        const struct rank_coll *c = &jv->job->ranks.v[p->rank_ix]->colls.v[p->coll];
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
    assert_int_equal(joblanes_render(&jv->v, 0, 120, 5, true, &sb, NULL), 5);
    assert_non_null(strstr(sb_str(&sb), "... 2 more ranks"));
    assert_null(strstr(sb_str(&sb), " comp "));
    sb_free(&sb);
    /* A version 1 summary has no compute to draw, and says so. */
    jv->job->ranks.v[2]->busy_gap_ns = -1;
    s = screen(jv, &cur);
    assert_non_null(strstr(s, "version 1 summary"));
    free(s);
    jobview_free(jv);
}

/* Columns scroll sideways to the last one, a "›" (">" in ASCII) at the
 * right edge of the header while more follow; `w` adds the per-rank
 * detail columns. */
static void test_scroll(void **state)
{
    (void)state;
    struct jobview *jv = make_view();
    struct strbuf sb = STRBUF_INIT;
    int cur;
    jobview_screen(jv, 24, 80, &sb, &cur);
    char *head = line_of(sb_str(&sb), 3);
    assert_int_equal(strlen(head), 80);
    assert_int_equal(head[79], '>');
    assert_null(strstr(sb_str(&sb), "mark"));
    free(head);
    for (int i = 0; i < 20; i++)
        jobview_key(jv, ']', 10);
    sb_clear(&sb);
    jobview_screen(jv, 24, 80, &sb, &cur);
    head = line_of(sb_str(&sb), 3);
    /* The first column stays, the last one shows, nothing follows. */
    assert_true(strncmp(head, "rank <", 6) == 0);
    assert_non_null(strstr(head, "mark"));
    assert_null(strstr(head, "  >"));
    free(head);
    /* Left (the arrow) scrolls back one column. */
    jobview_key(jv, KEYF(KEY_LEFT), 10);
    sb_clear(&sb);
    jobview_screen(jv, 24, 80, &sb, &cur);
    head = line_of(sb_str(&sb), 3);
    assert_non_null(strstr(head, "wait %"));
    free(head);
    /* The collectives table with its detail columns: the last is rank 3's. */
    jobview_key(jv, '\t', 10);
    jobview_key(jv, 'w', 10);
    const struct table *t = jv->tabs[JOBVIEW_COLLECTIVES];
    for (size_t i = 0; i < t->ncols; i++)
        jobview_key(jv, ']', 10);
    sb_clear(&sb);
    jobview_screen(jv, 24, 80, &sb, &cur);
    head = line_of(sb_str(&sb), 3);
    const char *last =
        t->cols[t->ncols - 1].title ? t->cols[t->ncols - 1].title : t->cols[t->ncols - 1].name;
    assert_non_null(strstr(head, last));
    free(head);
    sb_free(&sb);
    jobview_free(jv);
}

/* `?` shows the keys of the view's key table; q, Esc or ? closes it. */
static void test_help(void **state)
{
    (void)state;
    struct jobview *jv = make_view();
    assert_int_equal(jobview_key(jv, '?', 10), JOBVIEW_NONE);
    int cur;
    char *s = screen(jv, &cur);
    assert_non_null(strstr(s, "Job view keys"));
    assert_non_null(strstr(s, "sort-menu"));
    assert_non_null(strstr(s, "scroll-right"));
    assert_non_null(strstr(s, "] <Right> l"));
    free(s);
    /* q closes the help, not the view. */
    assert_int_equal(jobview_key(jv, 'q', 10), JOBVIEW_NONE);
    assert_false(jv->help);
    s = screen(jv, &cur);
    assert_non_null(strstr(s, "Ranks side by side"));
    free(s);
    assert_int_equal(jobview_key(jv, 'q', 10), JOBVIEW_QUIT);
    jobview_free(jv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_and_open), cmocka_unit_test(test_collectives_and_sort),
        cmocka_unit_test(test_timeline),       cmocka_unit_test(test_scroll),
        cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
