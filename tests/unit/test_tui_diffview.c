/* Unit tests: the explorer's diff view (tui/diff/diffview.h) on two generated
 * traces of different models: the per-name table's default order and the
 * sort keys, the merged tree's order, expand and collapse, one-side nodes,
 * the name filter on tables and tree, the detail of both sides, and the
 * key list. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/synth/synth.h"
#include "core/trace/load.h"
#include "core/trace/tree.h"
#include "tui/diff/diffdetail.h"
#include "tui/diff/diffview.h"
#include "tui/frame/keymap.h"

#define LINES_ 42
#define COLS_ 140

static struct trace *gen(uint64_t seed, unsigned layers, const char *name)
{
    struct synth_opts o = {.seed = seed, .target_events = 4000, .layers = layers};
    size_t len = 0;
    char *buf = synth_to_memory(&o, &len, NULL);
    assert_non_null(buf);
    struct trace *t = NULL;
    struct errinfo err = {0};
    struct load_opts lo = {.threads = 1};
    assert_int_equal(trace_load_mem(name, buf, len, &lo, &t, &err), ST_OK);
    trace_index(t);
    free(buf);
    return t;
}

static struct diffview *make_view(void)
{
    struct trace *a = gen(1, 4, "a.json"), *b = gen(2, 5, "b.json");
    struct tracediff_opts o = {.step = {TRACEDIFF_STEP_FIRST, TRACEDIFF_STEP_FIRST},
                               .keep_events = true};
    char err[256];
    struct tracediff *td = tracediff_new(a, b, &o, err, sizeof(err));
    assert_non_null(td);
    return diffview_new(td, true);
}

static void key(struct diffview *dv, int k)
{
    assert_int_equal(diffview_key(dv, k, LINES_, COLS_), DIFFVIEW_NONE);
}

static double cell(const struct table *t, uint32_t row, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    union cell v = table_cell(t, row, (size_t)c);
    return t->cols[c].kind == COL_INT ? (double)v.i : v.f;
}

/* Whether node n is below node anc. */
static bool below(const struct difftree *dt, uint32_t n, uint32_t anc)
{
    for (uint32_t p = dt->nodes.v[n].parent; p != IDX_NONE; p = dt->nodes.v[p].parent)
        if (p == anc)
            return true;
    return false;
}

static int64_t gpu_delta(const struct diffview *dv, uint32_t node)
{
    int64_t d =
        difftree_gpu_subtree(dv->ctx.dt, node, 1) - difftree_gpu_subtree(dv->ctx.dt, node, 0);
    return d < 0 ? -d : d;
}

/* The per-name table opens by |diff_duration|, largest first; s steps to
 * the next column, S reverses, sort-by names a column. */
static void test_ops_order(void **state)
{
    struct diffview *dv = make_view();
    assert_int_equal(dv->which, DV_OPS);
    const struct table *t = dv->tab[DV_OPS];
    assert_true(dv->nrows[DV_OPS] == t->nrows && t->nrows > 50);
    for (size_t i = 1; i < dv->nrows[DV_OPS]; i++)
        assert_true(fabs(cell(t, dv->rows[DV_OPS][i - 1], "diff_duration")) >=
                    fabs(cell(t, dv->rows[DV_OPS][i], "diff_duration")));
    key(dv, 'S');
    for (size_t i = 1; i < dv->nrows[DV_OPS]; i++)
        assert_true(fabs(cell(t, dv->rows[DV_OPS][i - 1], "diff_duration")) <=
                    fabs(cell(t, dv->rows[DV_OPS][i], "diff_duration")));
    assert_true(diffview_sort_by(dv, "test_counts"));
    for (size_t i = 1; i < dv->nrows[DV_OPS]; i++)
        assert_true(cell(t, dv->rows[DV_OPS][i - 1], "test_counts") >=
                    cell(t, dv->rows[DV_OPS][i], "test_counts"));
    assert_false(diffview_sort_by(dv, "no such column"));
    /* The next column after diff_duration is the change category. */
    assert_true(diffview_sort_by(dv, "diff_duration"));
    key(dv, 's');
    assert_non_null(strstr(dv->msg, "counts_change_categories"));
    diffview_free(dv);
}

/* Siblings of the tree by |Δ GPU time|, largest first; l/h open and
 * close, e opens the subtree, c closes all. */
static void test_tree(void **state)
{
    struct diffview *dv = make_view();
    key(dv, '2');
    assert_int_equal(dv->which, DV_TREE);
    const struct difftree *dt = dv->ctx.dt;
    size_t n = dv->nrows[DV_TREE];
    assert_true(n > 1);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            uint32_t a = dv->rows[DV_TREE][i], b = dv->rows[DV_TREE][j];
            if (dt->nodes.v[a].parent == dt->nodes.v[b].parent)
                assert_true(gpu_delta(dv, a) >= gpu_delta(dv, b));
        }
    /* Each row's parent is shown above it. */
    for (size_t i = 0; i < n; i++) {
        uint32_t p = dt->nodes.v[dv->rows[DV_TREE][i]].parent;
        bool found = p == IDX_NONE;
        for (size_t j = 0; j < i && !found; j++)
            found = dv->rows[DV_TREE][j] == p;
        assert_true(found);
    }
    /* Close everything: the roots only. */
    key(dv, 'c');
    size_t roots = 0;
    for (uint32_t r = dt->first_root; r != IDX_NONE; r = dt->nodes.v[r].next_sibling)
        roots++;
    assert_int_equal(dv->nrows[DV_TREE], roots);
    /* Open the first root with children, then everything below it. */
    key(dv, 'g');
    while (dt->nodes.v[dv->rows[DV_TREE][dv->cur[DV_TREE]]].first_child == IDX_NONE)
        key(dv, 'j');
    uint32_t node = dv->rows[DV_TREE][dv->cur[DV_TREE]];
    key(dv, 'l');
    size_t kids = 0;
    for (uint32_t c = dt->nodes.v[node].first_child; c != IDX_NONE; c = dt->nodes.v[c].next_sibling)
        kids++;
    assert_int_equal(dv->nrows[DV_TREE], roots + kids);
    key(dv, 'h');
    assert_int_equal(dv->nrows[DV_TREE], roots);
    key(dv, 'e');
    size_t sub = 0;
    for (uint32_t i = 0; i < dt->nodes.n; i++)
        sub += below(dt, i, node);
    assert_int_equal(dv->nrows[DV_TREE], roots + sub);
    /* The tree's sort steps through its orders. */
    key(dv, 's');
    assert_non_null(strstr(dv->msg, "CPU"));
    diffview_free(dv);
}

/* Nodes of one side are marked in the first column: '+' test only, '-'
 * control only. */
static void test_one_side_nodes(void **state)
{
    struct diffview *dv = make_view();
    key(dv, '2');
    key(dv, '*');
    const struct difftree *dt = dv->ctx.dt;
    int seen[2] = {0, 0};
    for (int step = 0; step < 4000 && (!seen[0] || !seen[1]); step++) {
        uint32_t node;
        assert_true(diffview_selected(dv, &node));
        const struct difftree_node *nd = &dt->nodes.v[node];
        struct strbuf sb = STRBUF_INIT;
        int cursor;
        diffview_screen(dv, LINES_, COLS_, &sb, &cursor);
        const char *l = sb.s;
        for (int y = 0; y < cursor; y++)
            l = strchr(l, '\n') + 1;
        char mark = nd->ev[0] == IDX_NONE ? '+' : nd->ev[1] == IDX_NONE ? '-' : ' ';
        assert_int_equal(l[0], mark);
        if (mark != ' ')
            seen[mark == '+']++;
        sb_free(&sb);
        if (dv->cur[DV_TREE] + 1 >= dv->nrows[DV_TREE])
            break;
        key(dv, 'j');
    }
    assert_true(seen[0] > 0 && seen[1] > 0);
    diffview_free(dv);
}

/* The filter keeps matching rows in the tables, and in the tree the
 * matching nodes with the nodes above them. */
static void test_filter(void **state)
{
    struct diffview *dv = make_view();
    key(dv, '/');
    for (const char *p = "aten::mm"; *p; p++)
        key(dv, *p);
    key(dv, '\n');
    assert_true(dv->nrows[DV_OPS] > 0 && dv->nrows[DV_OPS] < dv->tab[DV_OPS]->nrows);
    for (size_t i = 0; i < dv->nrows[DV_OPS]; i++)
        assert_non_null(strstr(table_cell(dv->tab[DV_OPS], dv->rows[DV_OPS][i], 0).s, "aten::mm"));
    key(dv, '2');
    const struct difftree *dt = dv->ctx.dt;
    size_t direct = 0;
    for (size_t i = 0; i < dv->nrows[DV_TREE]; i++) {
        uint32_t n = dv->rows[DV_TREE][i];
        if (strstr(difftree_name(dt, n), "aten::mm")) {
            direct++;
            continue;
        }
        bool any = false;
        for (uint32_t j = 0; j < dt->nodes.n && !any; j++)
            any = below(dt, j, n) && strstr(difftree_name(dt, j), "aten::mm") != NULL;
        assert_true(any);
    }
    size_t all = 0;
    for (uint32_t j = 0; j < dt->nodes.n; j++)
        all += strstr(difftree_name(dt, j), "aten::mm") != NULL;
    assert_int_equal(direct, all);
    key(dv, 'F');
    assert_int_equal(dv->nrows[DV_OPS], dv->tab[DV_OPS]->nrows);
    diffview_free(dv);
}

/* Enter shows both sides of the selected name; the key list names the
 * diff's actions. */
static void test_detail_and_help(void **state)
{
    struct diffview *dv = make_view();
    assert_true(diffview_set_filter(dv, "=aten::addmm"));
    key(dv, '\n');
    struct strbuf sb = STRBUF_INIT;
    int cursor;
    diffview_screen(dv, LINES_, COLS_, &sb, &cursor);
    assert_non_null(strstr(sb.s, "detail"));
    assert_non_null(strstr(sb.s, "control: "));
    assert_non_null(strstr(sb.s, "test: "));
    assert_non_null(strstr(sb.s, "shapes x"));
    assert_non_null(strstr(sb.s, "roofline: aten::addmm"));
    sb_free(&sb);
    key(dv, KEY_ESC);
    assert_false(dv->detail);
    key(dv, '?');
    struct strbuf h = STRBUF_INIT;
    diffview_screen(dv, LINES_, COLS_, &h, &cursor);
    assert_non_null(strstr(h.s, "diff-tree"));
    assert_non_null(strstr(h.s, "diff-detail"));
    sb_free(&h);
    key(dv, 'q');
    assert_false(dv->help);
    assert_int_equal(diffview_key(dv, 'q', LINES_, COLS_), DIFFVIEW_QUIT);
    diffview_free(dv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ops_order),       cmocka_unit_test(test_tree),
        cmocka_unit_test(test_one_side_nodes),  cmocka_unit_test(test_filter),
        cmocka_unit_test(test_detail_and_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
