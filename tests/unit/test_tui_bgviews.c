/* The phases a load reports (core/trace/load.h) and the explorer's views
 * built behind the first screen (tui/trace/bgviews.h). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/analysis/analysis.h"
#include "core/report/tabfmt.h"
#include "core/synth/synth.h"
#include "core/trace/load.h"
#include "tui/frame/app.h"
#include "tui/trace/bgviews.h"
#include "tui/trace/critpath_view.h"
#include "tui/trace/roofline_view.h"
#include "testutil.h"

/* A generated trace with every kind of event the views use. */
static char *gen_trace(size_t *len)
{
    struct synth_opts o = {.seed = 7, .target_events = 20000, .conv = true};
    return synth_to_memory(&o, len, NULL);
}

struct call {
    enum load_phase phase;
    uint64_t done, total, events;
};

struct calls {
    struct call v[4096];
    size_t n;
};

static void record(void *ud, enum load_phase phase, uint64_t done, uint64_t total, uint64_t events)
{
    struct calls *c = ud;
    if (c->n < sizeof(c->v) / sizeof(c->v[0]))
        c->v[c->n++] = (struct call){phase, done, total, events};
}

/* Reading, then indexing, each from its start to done == total, never
 * going back to an earlier phase. */
static void check_phases(unsigned threads)
{
    size_t len;
    char *buf = gen_trace(&len);
    struct calls *c = calloc(1, sizeof(*c));
    struct load_opts o = {.threads = threads, .progress = record, .progress_ud = c};
    struct errinfo err = {0};
    struct trace *t = NULL;
    assert_int_equal(trace_load_mem("gen.json", buf, len, &o, &t, &err), ST_OK);
    assert_true(c->n >= 3);
    assert_int_equal(c->v[0].phase, LOAD_PHASE_READ);
    size_t first_index = c->n;
    for (size_t i = 1; i < c->n; i++) {
        assert_true(c->v[i].phase >= c->v[i - 1].phase);
        if (c->v[i].phase == c->v[i - 1].phase)
            assert_true(c->v[i].done >= c->v[i - 1].done);
        if (c->v[i].phase == LOAD_PHASE_INDEX && first_index == c->n)
            first_index = i;
    }
    assert_true(first_index < c->n);
    /* The read ended with every byte, and every event stored. */
    const struct call *last_read = &c->v[first_index - 1];
    assert_int_equal(last_read->phase, LOAD_PHASE_READ);
    assert_int_equal(last_read->done, len);
    assert_int_equal(last_read->total, len);
    assert_int_equal(last_read->events, t->ev.n);
    /* The index: each step announced in order, then done == total. */
    unsigned steps = (unsigned)c->v[first_index].total;
    assert_true(steps >= 2);
    assert_int_equal(c->n - first_index, steps + 1);
    for (unsigned k = 0; k <= steps; k++) {
        assert_int_equal(c->v[first_index + k].phase, LOAD_PHASE_INDEX);
        assert_int_equal(c->v[first_index + k].done, k);
        assert_int_equal(c->v[first_index + k].total, steps);
    }
    assert_true(t->indexed);
    assert_string_equal(load_phase_name(LOAD_PHASE_INDEX), "indexing");
    trace_free(t);
    errinfo_clear(&err);
    free(c);
    free(buf);
}

static void test_phases_in_order(void **state)
{
    (void)state;
    check_phases(1);
    check_phases(2);
}

/* Without the index, only the read is reported. */
static void test_no_index_reads_only(void **state)
{
    (void)state;
    size_t len;
    char *buf = gen_trace(&len);
    struct calls *c = calloc(1, sizeof(*c));
    struct load_opts o = {.threads = 1, .progress = record, .progress_ud = c, .no_index = true};
    struct errinfo err = {0};
    struct trace *t = NULL;
    assert_int_equal(trace_load_mem("gen.json", buf, len, &o, &t, &err), ST_OK);
    assert_true(c->n >= 1);
    for (size_t i = 0; i < c->n; i++)
        assert_int_equal(c->v[i].phase, LOAD_PHASE_READ);
    trace_free(t);
    free(c);
    free(buf);
}

static struct trace *load_gen(void)
{
    size_t len;
    char *buf = gen_trace(&len);
    struct load_opts o = {.threads = 1};
    struct errinfo err = {0};
    struct trace *t = NULL;
    assert_int_equal(trace_load_mem("gen.json", buf, len, &o, &t, &err), ST_OK);
    free(buf);
    return t;
}

/* Every cell of two tables as text, equal. */
static void assert_same_table(const struct table *a, const struct table *b)
{
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->ncols, b->ncols);
    assert_int_equal(a->nrows, b->nrows);
    struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
    for (size_t r = 0; r < a->nrows; r++)
        for (size_t col = 0; col < a->ncols; col++) {
            sb_clear(&x);
            sb_clear(&y);
            tabfmt_cell_text(&x, a, r, col);
            tabfmt_cell_text(&y, b, r, col);
            assert_string_equal(sb_str(&x), sb_str(&y));
        }
    sb_free(&x);
    sb_free(&y);
}

/* The views the worker hands over equal those built on this thread, and
 * the app shows "computing" for each until it has it. */
static void test_background_equals_foreground(void **state)
{
    (void)state;
    struct trace *t = load_gen();
    bool want[APP_NVIEWS];
    for (int i = 0; i < APP_NVIEWS; i++)
        want[i] = i != 0;
    struct app a = {0};
    a.v.ascii = true;
    struct bgviews *bg = bgviews_new(t, NULL, want);
    assert_false(bgviews_pending(bg)); /* not started */
    assert_true(bgviews_install(bg, &a, false));
    for (int i = 1; i < APP_NVIEWS; i++) {
        assert_null(a.views[i]);
        assert_string_equal(a.views_err[i], "computing ... (0 %)");
    }
    assert_null(a.views_err[0]);
    bgviews_start(bg);
    while (bgviews_pending(bg))
        bgviews_install(bg, &a, false);
    assert_int_equal(bgviews_percent(bg), 100);
    struct analysis *an = analysis_new(t);
    for (int i = 1; i < APP_NVIEWS; i++) {
        struct table *tab = NULL;
        struct roofline_view *rlv = NULL;
        char *err = NULL;
        bgviews_build_one(an, NULL, i, &tab, &rlv, &err);
        if (i == APP_VIEW_ROOFLINE) {
            assert_non_null(a.v.rlv);
            assert_non_null(rlv);
            assert_int_equal(roofline_view_count(a.v.rlv), roofline_view_count(rlv));
            for (size_t k = 0; k < roofline_view_count(rlv); k++)
                assert_same_table(roofline_view_table(a.v.rlv, k), roofline_view_table(rlv, k));
        } else if (tab) {
            assert_non_null(a.views[i]);
            assert_same_table(a.views[i], tab);
        } else {
            assert_null(a.views[i]);
            assert_string_equal(a.views_err[i], err);
        }
        assert_true(!err || !a.views_err[i] || strcmp(a.views_err[i], err) == 0);
        table_free(tab);
        roofline_view_free(rlv);
        free(err);
    }
    analysis_free(an);
    for (int i = 0; i < APP_NVIEWS; i++) {
        table_free(a.views[i]);
        free(a.views_err[i]);
    }
    roofline_view_free(a.v.rlv);
    critpath_view_free(a.v.cpv);
    bgviews_free(bg);
    trace_free(t);
}

/* Quitting at once: the worker stops after its current view and nothing
 * leaks (the sanitizer build checks the leaks). */
static void test_stop_early(void **state)
{
    (void)state;
    struct trace *t = load_gen();
    bool want[APP_NVIEWS];
    for (int i = 0; i < APP_NVIEWS; i++)
        want[i] = true;
    struct bgviews *bg = bgviews_new(t, NULL, want);
    bgviews_start(bg);
    bgviews_stop(bg);
    assert_false(bgviews_pending(bg));
    bgviews_free(bg);
    /* Never started: freed alike. */
    bgviews_free(bgviews_new(t, NULL, want));
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases_in_order),
        cmocka_unit_test(test_no_index_reads_only),
        cmocka_unit_test(test_background_equals_foreground),
        cmocka_unit_test(test_stop_early),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
