/* Unit tests: a trace diff as a document of the explorer
 * (tui/diff/diff_doc.h) on two generated traces of different models,
 * headless: the per-name table's default order (by |diff_duration|) and
 * sort keys, the merged tree's order, expand and collapse, one-side
 * nodes, its rows in pre-order and its search's match counts, 1-5 and Tab through the diff's views,
 * the filter on tables and tree, the detail taking the body and giving it back, and the help. */
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
#include <unistd.h>

#include "core/synth/synth.h"
#include "core/trace/load.h"
#include "core/trace/tree.h"
#include "tui/diff/diff_doc.h"
#include "tui/diff/diffdata.h"
#include "tui/diff/mergedtree_pane.h"
#include "tui/frame/app.h"
#include "tui/frame/script.h"
#include "tui/frame/table_pane.h"
#include "tui/frame/term.h"
#include "tui/trace/tui.h"

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

static void open_doc(struct app *a)
{
    struct trace *x = gen(1, 4, "a.json"), *y = gen(2, 5, "b.json");
    struct tracediff_opts o = {.step = {TRACEDIFF_STEP_FIRST, TRACEDIFF_STEP_FIRST},
                               .keep_events = true};
    char err[256];
    struct tracediff *td = tracediff_new(x, y, &o, err, sizeof(err));
    assert_non_null(td);
    assert_true(term_open_headless(LINES_, COLS_));
    memset(a, 0, sizeof(*a));
    struct tui_opts to = {0};
    diff_doc_open(a, td, &to, true, true);
}

static void close_doc(struct app *a)
{
    app_done(a);
    term_close();
}

static void keys(struct app *a, const char *s)
{
    for (; *s; s++)
        app_key(a, *s);
    app_render(a);
}

/* The screen as text (script_save_display's). */
static char *screen(void)
{
    char path[] = "/tmp/test_tui_diffview.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_true(script_save_display(path));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *buf = xcalloc(1 << 16, 1);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(path);
    return buf;
}

static double cell(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    union cell v = table_cell(t, row, (size_t)c);
    return t->cols[c].kind == COL_INT ? (double)v.i : v.f;
}

static const struct table *shown_table(struct app *a)
{
    const struct table *t;
    size_t row;
    assert_true(table_pane_current_row(a->panes[PANE_TABLE], &t, &row));
    return t;
}

static int64_t gpu_delta(const struct difftree *dt, uint32_t node)
{
    int64_t d = difftree_gpu_subtree(dt, node, 1) - difftree_gpu_subtree(dt, node, 0);
    return d < 0 ? -d : d;
}

/* The per-name table opens by |diff_duration|, largest first; sort-by
 * names a column, S reverses; the changes sort by magnitude. */
static void test_ops_order(void **state)
{
    (void)state;
    struct app a;
    open_doc(&a);
    assert_string_equal(app_table_view(&a), "ops");
    const struct table *t = shown_table(&a);
    assert_true(t->nrows > 10);
    for (size_t r = 1; r < t->nrows; r++)
        assert_true(fabs(cell(t, r - 1, "diff_duration")) >= fabs(cell(t, r, "diff_duration")));
    assert_true(app_table_sort_by(&a, "test_counts"));
    for (size_t r = 1; r < t->nrows; r++)
        assert_true(cell(t, r - 1, "test_counts") >= cell(t, r, "test_counts"));
    assert_false(app_table_sort_by(&a, "no such column"));
    assert_true(app_table_sort_by(&a, "diff_counts"));
    keys(&a, "S");
    for (size_t r = 1; r < t->nrows; r++)
        assert_true(fabs(cell(t, r - 1, "diff_counts")) <= fabs(cell(t, r, "diff_counts")));
    close_doc(&a);
}

/* 2 shows the merged tree, its children by |diff GPU time|; e opens
 * everything below a node, c closes every node; one-side nodes show. */
static void test_tree(void **state)
{
    (void)state;
    struct app a;
    open_doc(&a);
    const struct difftree *dt = diff_doc_data(&a)->ctx.dt;
    keys(&a, "2");
    assert_int_equal(a.v.focus, PANE_TREE);
    uint32_t node, prev = IDX_NONE;
    assert_true(mergedtree_pane_node(a.panes[PANE_TREE], &node));
    assert_int_equal(dt->nodes.v[node].parent, IDX_NONE);
    keys(&a, "e");
    size_t rows = 0;
    bool one_side = false;
    for (int i = 0; i < 400; i++, keys(&a, "j")) {
        assert_true(mergedtree_pane_node(a.panes[PANE_TREE], &node));
        if (node == prev)
            break;
        rows++;
        one_side |= dt->nodes.v[node].ev[0] == IDX_NONE || dt->nodes.v[node].ev[1] == IDX_NONE;
        /* A sibling after a sibling: no larger change. */
        if (prev != IDX_NONE && dt->nodes.v[prev].parent == dt->nodes.v[node].parent)
            assert_true(gpu_delta(dt, prev) >= gpu_delta(dt, node));
        prev = node;
    }
    assert_true(rows > 20);
    assert_true(one_side);
    keys(&a, "c");
    assert_true(mergedtree_pane_node(a.panes[PANE_TREE], &node));
    assert_int_equal(dt->nodes.v[node].parent, IDX_NONE);
    close_doc(&a);
}

/* The rows after expand-all: every node below the root, in pre-order
 * (each row's parent is the open row above it one level up), the other
 * roots after; Left on a leaf goes to its parent; the search counts the
 * matches among the rows and wraps after the last. */
static void test_tree_rows_and_search(void **state)
{
    (void)state;
    struct app a;
    open_doc(&a);
    const struct difftree *dt = diff_doc_data(&a)->ctx.dt;
    struct pane *tp = a.panes[PANE_TREE];
    keys(&a, "2ce");
    uint32_t root, node;
    assert_true(mergedtree_pane_node(tp, &root));
    size_t below = 0, roots = 0;
    for (uint32_t i = 0; i < dt->nodes.n; i++) {
        uint32_t r = i;
        while (dt->nodes.v[r].parent != IDX_NONE)
            r = dt->nodes.v[r].parent;
        below += r == root;
        roots += dt->nodes.v[i].parent == IDX_NONE;
    }
    char pos[64], want[64];
    tp->ops->position(tp, &a.v, pos, sizeof(pos));
    snprintf(want, sizeof(want), "1/%zu", below + roots - 1);
    assert_string_equal(pos, want);
    uint32_t path[64];
    uint32_t leaf = IDX_NONE;
    for (size_t i = 0; i < 300 && i < below; i++, keys(&a, "j")) {
        assert_true(mergedtree_pane_node(tp, &node));
        uint32_t d = dt->nodes.v[node].depth;
        assert_true(d < 64);
        assert_int_equal(dt->nodes.v[node].parent, d ? path[d - 1] : IDX_NONE);
        path[d] = node;
        if (d && dt->nodes.v[node].first_child == IDX_NONE && leaf == IDX_NONE) {
            leaf = node;
            keys(&a, "h");
            assert_true(mergedtree_pane_node(tp, &node));
            assert_int_equal(node, dt->nodes.v[leaf].parent);
            /* Back down to the leaf's row. */
            while (mergedtree_pane_node(tp, &node) && node != leaf)
                keys(&a, "j");
        }
    }
    assert_true(leaf != IDX_NONE);
    app_search_set(&a, difftree_name(dt, leaf));
    app_render(&a);
    char *s = screen();
    const char *m = strstr(s, ": match ");
    assert_non_null(m);
    size_t k = 0, total = 0;
    assert_int_equal(sscanf(m, ": match %zu of %zu", &k, &total), 2);
    free(s);
    assert_true(k >= 1 && k <= total);
    for (size_t i = k; i < total; i++)
        keys(&a, "n");
    s = screen();
    m = strstr(s, ": match ");
    assert_non_null(m);
    assert_int_equal(sscanf(m, ": match %zu of", &k), 1);
    assert_int_equal(k, total);
    assert_null(strstr(s, "(wrapped)"));
    free(s);
    keys(&a, "n");
    s = screen();
    assert_non_null(strstr(s, ": match 1 of"));
    assert_non_null(strstr(s, "(wrapped)"));
    free(s);
    close_doc(&a);
}

/* 1-5 and Tab go through the diff's views; Enter gives the detail the
 * body, Esc gives it back. */
static void test_views_and_detail(void **state)
{
    (void)state;
    struct app a;
    open_doc(&a);
    keys(&a, "3");
    assert_int_equal(a.v.focus, PANE_TABLE);
    assert_string_equal(app_table_view(&a), "lca");
    keys(&a, "\t");
    assert_string_equal(app_table_view(&a), "unique-args");
    keys(&a, "\t\t");
    assert_int_equal(a.v.focus, PANE_TIMELINE);
    keys(&a, "\t");
    assert_string_equal(app_table_view(&a), "ops");
    assert_int_equal(a.v.focus, PANE_TABLE);
    keys(&a, "j\n");
    assert_int_equal(a.v.focus, PANE_DETAIL);
    char *s = screen();
    assert_non_null(strstr(s, "Both sides: the events of this name"));
    assert_non_null(strstr(s, "change: count"));
    free(s);
    app_key(&a, KEY_ESC);
    assert_int_equal(a.v.focus, PANE_TABLE);
    close_doc(&a);
}

/* The filter narrows the tables and keeps the tree's matching nodes and
 * their ancestors; the help lists the diff's keys from its key tables. */
static void test_filter_and_help(void **state)
{
    (void)state;
    struct app a;
    open_doc(&a);
    app_filter_set(&a, "=aten::addmm");
    const struct table *t = shown_table(&a);
    char pos[64];
    a.panes[PANE_TABLE]->ops->position(a.panes[PANE_TABLE], &a.v, pos, sizeof(pos));
    assert_string_equal(pos, "1/1");
    (void)t;
    keys(&a, "2");
    const struct difftree *dt = diff_doc_data(&a)->ctx.dt;
    uint32_t node;
    bool seen = false;
    for (int i = 0; i < 200; i++, keys(&a, "j")) {
        assert_true(mergedtree_pane_node(a.panes[PANE_TREE], &node));
        seen |= strcmp(difftree_name(dt, node), "aten::addmm") == 0;
    }
    assert_true(seen);
    app_key(&a, KEY_ESC);
    assert_false(pattern_active(&a.v.filter));
    keys(&a, "?");
    char *s = screen();
    assert_non_null(strstr(s, "torchtop diff keys"));
    assert_non_null(strstr(s, "diff-next"));
    assert_non_null(strstr(s, "expand-all"));
    free(s);
    close_doc(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ops_order),
        cmocka_unit_test(test_tree_rows_and_search),
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_views_and_detail),
        cmocka_unit_test(test_filter_and_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
