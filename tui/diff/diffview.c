/* The diff view's state: its tables and merged tree, the rows each shows
 * (filtered and sorted), and the keys (tui/diff/diffview.h). */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/base/display.h"
#include "core/base/sort.h"
#include "core/base/wide.h"
#include "core/base/xalloc.h"
#include "core/report/tabfmt.h"
#include "core/roofline/roofline.h"
#include "tui/diff/diffview.h"
#include "tui/frame/keymap.h"
#include "tui/frame/listview.h"

static const char *const tab_names[DV__TABS] = {"ops", "tree", "lca", "unique-args", "roofline"};
/* The diff report tables behind each flat tab (diffreport.h's registry). */
static const char *const tab_tables[DV__TABS] = {"ops", NULL, "lca", "unique-args", "roofline"};

bool diffview_change_col(const struct table_col *c)
{
    return strncmp(c->name, "diff", 4) == 0 || strstr(c->name, "delta") != NULL;
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

/* Nanoseconds of GPU events in the steps compared, per side (§12.3). */
static void gpu_totals(struct diffview *dv)
{
    for (int k = 0; k < 2; k++) {
        const struct trace *t = dv->td->t[k];
        int64_t sum = 0;
        for (uint32_t i = 0; i < t->ev.n; i++)
            if (dv->td->it[k].side[i] == ITERS_GPU && tracediff_in_step(dv->td, k, i))
                sum = wide_add_sat(sum, trace_ev(t, i)->dur);
        dv->gpu_total[k] = sum;
    }
}

/* Open the path of the largest |Δ GPU time| child from each root's
 * largest child down, `depth` levels: the first screen shows where the
 * change is. */
static void open_hot_path(struct diffview *dv, int depth)
{
    const struct difftree *dt = dv->ctx.dt;
    uint32_t n = dt->first_root;
    for (int d = 0; d < depth && n != IDX_NONE; d++) {
        uint32_t best = IDX_NONE;
        int64_t bestv = -1;
        for (uint32_t c = n; c != IDX_NONE; c = dt->nodes.v[c].next_sibling) {
            int64_t v = abs64(difftree_gpu_subtree(dt, c, 1) - difftree_gpu_subtree(dt, c, 0));
            if (v > bestv) {
                bestv = v;
                best = c;
            }
        }
        if (best == IDX_NONE || dt->nodes.v[best].first_child == IDX_NONE)
            break;
        dv->open[best] = 1;
        n = dt->nodes.v[best].first_child;
    }
}

static void rebuild(struct diffview *dv, int tab);

struct diffview *diffview_new(struct tracediff *td, bool ascii)
{
    assert(td->it[0].side && td->it[1].side); /* opts.keep_events */
    struct diffview *dv = xcalloc(1, sizeof(*dv));
    dv->td = td;
    dv->t[0] = (struct trace *)td->t[0];
    dv->t[1] = (struct trace *)td->t[1];
    dv->ascii = ascii;
    dv->ctx.td = td;
    const char *labels[2] = {td->label[0], td->label[1]};
    dv->ctx.dt = difftree_new(td->t[0], td->t[1], labels);
    for (int s = 0; s < 2; s++)
        gputime_dense(dv->ctx.dt->g[s]);
    size_t n = dv->ctx.dt->nodes.n;
    dv->open = xcalloc(n ? n : 1, 1);
    dv->shown = xcalloc(n ? n : 1, 1);
    for (int i = 0; i < DV__TABS; i++)
        dv->sort_col[i] = -1;
    dv->sort_col[DV_TREE] = DVT_GPU_DELTA;
    gpu_totals(dv);
    open_hot_path(dv, 4);
    rebuild(dv, DV_TREE);
    diffview_show(dv, DV_OPS);
    snprintf(dv->msg, sizeof(dv->msg), "%zu names, %zu merged nodes", td->rows.n, n);
    return dv;
}

void diffview_free(struct diffview *dv)
{
    if (!dv)
        return;
    for (int i = 0; i < DV__TABS; i++) {
        table_free(dv->tab[i]);
        free(dv->rows[i]);
    }
    pattern_clear(&dv->filter);
    sb_free(&dv->detail_text);
    for (int s = 0; s < 2; s++)
        roofline_free(dv->rl[s]);
    difftree_free(dv->ctx.dt);
    for (int s = 0; s < 2; s++)
        analysis_free(dv->ctx.an[s]);
    free(dv->open);
    free(dv->shown);
    tracediff_free(dv->td);
    trace_free(dv->t[0]);
    trace_free(dv->t[1]);
    free(dv);
}

/* ------------------------------------------------------------------------ */
/* Flat tables                                                              */
/* ------------------------------------------------------------------------ */

static const struct diffview *sort_dv; /* sort_items has no context argument */

/* A numeric cell as a double; NaN when empty. */
static double num_cell(const struct table *t, size_t row, size_t col)
{
    union cell v = table_cell(t, row, col);
    if (t->cols[col].kind == COL_INT)
        return v.i == TABLE_NO_INT ? NAN : (double)v.i;
    return v.f;
}

static int cmp_flat(const void *x, const void *y)
{
    const struct diffview *dv = sort_dv;
    const struct table *t = dv->tab[dv->which];
    size_t col = (size_t)dv->sort_col[dv->which];
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    const struct table_col *c = &t->cols[col];
    int r;
    if (c->kind == COL_TEXT) {
        const char *sa = table_cell(t, a, col).s, *sb = table_cell(t, b, col).s;
        if (!sa || !sb)
            return sa ? -1 : sb ? 1 : (a > b) - (a < b);
        r = strcmp(sa, sb);
        if (dv->sort_asc[dv->which])
            r = -r;
    } else {
        double va = num_cell(t, a, col), vb = num_cell(t, b, col);
        if (isnan(va) || isnan(vb))
            return isnan(va) && isnan(vb) ? (a > b) - (a < b) : isnan(va) ? 1 : -1;
        if (diffview_change_col(c)) {
            va = fabs(va);
            vb = fabs(vb);
        }
        r = va > vb ? -1 : va < vb ? 1 : 0;
        if (dv->sort_asc[dv->which])
            r = -r;
    }
    return r ? r : (a > b) - (a < b);
}

static void rebuild_flat(struct diffview *dv, int tab)
{
    const struct table *t = dv->tab[tab];
    size_t namecol = table_name_col(t);
    free(dv->rows[tab]);
    dv->rows[tab] = xmalloc((t->nrows ? t->nrows : 1) * sizeof(uint32_t));
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *s = t->cols[namecol].kind == COL_TEXT ? table_cell(t, r, namecol).s : NULL;
        if (!pattern_active(&dv->filter) || pattern_match(&dv->filter, s ? s : ""))
            dv->rows[tab][n++] = (uint32_t)r;
    }
    dv->nrows[tab] = n;
    if (dv->sort_col[tab] >= 0 && (size_t)dv->sort_col[tab] < t->ncols) {
        int saved = dv->which;
        dv->which = tab;
        sort_dv = dv;
        sort_items(dv->rows[tab], n, sizeof(uint32_t), cmp_flat);
        sort_dv = NULL;
        dv->which = saved;
    }
}

/* ------------------------------------------------------------------------ */
/* The merged tree                                                          */
/* ------------------------------------------------------------------------ */

static int64_t tree_key(const struct diffview *dv, uint32_t node)
{
    const struct difftree *dt = dv->ctx.dt;
    switch (dv->sort_col[DV_TREE]) {
    case DVT_CPU_DELTA:
        return abs64(difftree_cpu(dt, node, 1) - difftree_cpu(dt, node, 0));
    case DVT_GPU_TEST:
        return difftree_gpu_subtree(dt, node, 1);
    case DVT_GPU_CONTROL:
        return difftree_gpu_subtree(dt, node, 0);
    default:
        return abs64(difftree_gpu_subtree(dt, node, 1) - difftree_gpu_subtree(dt, node, 0));
    }
}

struct keyed {
    int64_t k;
    uint32_t node;
};

static bool sort_reversed; /* the tree's order, for cmp_keyed */

static int cmp_keyed(const void *x, const void *y)
{
    const struct keyed *a = x, *b = y;
    if (a->k != b->k)
        return (a->k > b->k ? -1 : 1) * (sort_reversed ? -1 : 1);
    return (a->node > b->node) - (a->node < b->node);
}

/* Append the children of first (siblings, sorted) and, below each open
 * one, its own; under a filter, only nodes shown and every shown node's
 * children. */
static void add_level(struct diffview *dv, uint32_t first, size_t *n)
{
    const struct difftree *dt = dv->ctx.dt;
    bool filtered = pattern_active(&dv->filter);
    size_t cnt = 0;
    for (uint32_t c = first; c != IDX_NONE; c = dt->nodes.v[c].next_sibling)
        cnt++;
    if (!cnt)
        return;
    struct keyed *kids = xmalloc(cnt * sizeof(*kids));
    size_t m = 0;
    for (uint32_t c = first; c != IDX_NONE; c = dt->nodes.v[c].next_sibling)
        if (!filtered || dv->shown[c])
            kids[m++] = (struct keyed){tree_key(dv, c), c};
    sort_reversed = dv->sort_asc[DV_TREE];
    sort_items(kids, m, sizeof(*kids), cmp_keyed);
    for (size_t i = 0; i < m; i++) {
        uint32_t c = kids[i].node;
        dv->rows[DV_TREE][(*n)++] = c;
        if (dt->nodes.v[c].first_child != IDX_NONE && (filtered || dv->open[c]))
            add_level(dv, dt->nodes.v[c].first_child, n);
    }
    free(kids);
}

static void rebuild_tree(struct diffview *dv)
{
    const struct difftree *dt = dv->ctx.dt;
    size_t nn = dt->nodes.n;
    if (pattern_active(&dv->filter)) {
        for (size_t i = 0; i < nn; i++)
            dv->shown[i] = pattern_match(&dv->filter, difftree_name(dt, (uint32_t)i));
        /* A node is made after its parent, so a reverse pass reaches
         * every child before its parent. */
        for (size_t i = nn; i-- > 0;)
            if (dv->shown[i] && dt->nodes.v[i].parent != IDX_NONE)
                dv->shown[dt->nodes.v[i].parent] = 1;
    }
    free(dv->rows[DV_TREE]);
    dv->rows[DV_TREE] = xmalloc((nn ? nn : 1) * sizeof(uint32_t));
    size_t n = 0;
    add_level(dv, dt->first_root, &n);
    dv->nrows[DV_TREE] = n;
}

/* Rebuild a tab's rows, keeping the selected row or node selected. */
static void rebuild(struct diffview *dv, int tab)
{
    uint32_t keep = IDX_NONE;
    if (dv->rows[tab] && dv->cur[tab] < dv->nrows[tab])
        keep = dv->rows[tab][dv->cur[tab]];
    if (tab == DV_TREE)
        rebuild_tree(dv);
    else if (dv->tab[tab])
        rebuild_flat(dv, tab);
    dv->cur[tab] = 0;
    for (size_t i = 0; keep != IDX_NONE && i < dv->nrows[tab]; i++)
        if (dv->rows[tab][i] == keep) {
            dv->cur[tab] = i;
            break;
        }
}

void diffview_show(struct diffview *dv, enum diffview_tab tab)
{
    dv->which = tab;
    if (tab != DV_TREE && !dv->tab[tab]) {
        const struct diffreport_table *r = diffreport_tables;
        while (r->name && strcmp(r->name, tab_tables[tab]) != 0)
            r++;
        struct table_list l = {0};
        if (r->name)
            r->build(&dv->ctx, &l);
        /* A joined report may be several sheets: the first is shown, the
         * others are in `torchtop diff -t`. */
        if (l.items.n) {
            dv->tab[tab] = l.items.v[0];
            l.items.v[0] = NULL;
            for (size_t i = 1; i < l.items.n; i++)
                table_add_note(dv->tab[tab], "also: sheet %s (torchtop diff -t %s)",
                               l.items.v[i]->name, tab_tables[tab]);
        }
        table_list_free(&l);
        if (!dv->tab[tab])
            dv->tab[tab] = table_new(tab_tables[tab], "(empty)", NULL, 0);
        if (tab == DV_OPS) {
            int c = table_col_index(dv->tab[tab], "diff_duration");
            dv->sort_col[tab] = c;
        }
        rebuild(dv, tab);
    }
    snprintf(dv->msg, sizeof(dv->msg), "%s: %zu rows", tab_names[tab], dv->nrows[tab]);
}

bool diffview_set_filter(struct diffview *dv, const char *text)
{
    char err[200];
    if (!pattern_set(&dv->filter, text ? text : "", err, sizeof(err))) {
        snprintf(dv->msg, sizeof(dv->msg), "filter: %s", err);
        return false;
    }
    for (int i = 0; i < DV__TABS; i++)
        if (i == DV_TREE || dv->tab[i])
            rebuild(dv, i);
    if (pattern_active(&dv->filter))
        snprintf(dv->msg, sizeof(dv->msg), "filter: %zu of the rows match", dv->nrows[dv->which]);
    else
        snprintf(dv->msg, sizeof(dv->msg), "filter cleared");
    return true;
}

static const char *const tree_sort_names[DVT__COUNT] = {"|diff GPU time|", "|diff CPU time|",
                                                        "test GPU time", "control GPU time"};

static void say_sort(struct diffview *dv)
{
    int tab = dv->which;
    const char *what;
    if (tab == DV_TREE)
        what = tree_sort_names[dv->sort_col[tab]];
    else if (dv->sort_col[tab] < 0)
        what = "the table's own order";
    else
        what = dv->tab[tab]->cols[dv->sort_col[tab]].name;
    struct strbuf lab = STRBUF_INIT;
    display_sanitize(&lab, what, strlen(what));
    snprintf(dv->msg, sizeof(dv->msg), "sorted by %s%s", sb_str(&lab),
             dv->sort_asc[tab] ? ", reversed" : "");
    sb_free(&lab);
}

bool diffview_sort_by(struct diffview *dv, const char *col)
{
    const struct table *t = dv->tab[dv->which];
    if (dv->which == DV_TREE || !t)
        return false;
    for (size_t c = 0; c < t->ncols; c++) {
        const char *title = t->cols[c].title ? t->cols[c].title : t->cols[c].name;
        if (strcmp(t->cols[c].name, col) == 0 || strcmp(title, col) == 0) {
            dv->sort_col[dv->which] = (int)c;
            dv->sort_asc[dv->which] = false;
            rebuild(dv, dv->which);
            dv->cur[dv->which] = dv->top[dv->which] = 0;
            say_sort(dv);
            return true;
        }
    }
    return false;
}

/* The next (dir 1) or previous sort column of the shown table: its
 * columns shown in text, or the tree's orders. */
static void sort_step(struct diffview *dv, int dir)
{
    int tab = dv->which;
    if (tab == DV_TREE) {
        dv->sort_col[tab] = (dv->sort_col[tab] + DVT__COUNT + dir) % DVT__COUNT;
    } else {
        const struct table *t = dv->tab[tab];
        if (!t->ncols)
            return;
        int c = dv->sort_col[tab];
        for (size_t i = 0; i < t->ncols; i++) {
            c = (c + (int)t->ncols + dir + (c < 0 && dir < 0)) % (int)t->ncols;
            if (!(t->cols[c].flags & COLF_DETAIL))
                break;
        }
        dv->sort_col[tab] = c;
    }
    dv->sort_asc[tab] = false;
    rebuild(dv, tab);
    dv->cur[tab] = dv->top[tab] = 0;
    say_sort(dv);
}

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */
/* ------------------------------------------------------------------------ */

bool diffview_selected(const struct diffview *dv, uint32_t *row)
{
    int tab = dv->which;
    if (dv->cur[tab] >= dv->nrows[tab])
        return false;
    *row = dv->rows[tab][dv->cur[tab]];
    return true;
}

static void clamp(struct diffview *dv, int rows)
{
    int tab = dv->which;
    struct listview lv = {dv->nrows[tab], dv->cur[tab], dv->top[tab], rows};
    listview_clamp(&lv);
    dv->cur[tab] = lv.cur;
    dv->top[tab] = lv.top;
}

/* Tree keys: open, close, go to the parent or the first child. */
static void tree_move(struct diffview *dv, enum action a)
{
    uint32_t node;
    if (dv->which != DV_TREE || !diffview_selected(dv, &node))
        return;
    const struct difftree *dt = dv->ctx.dt;
    const struct difftree_node *nd = &dt->nodes.v[node];
    bool has_kids = nd->first_child != IDX_NONE;
    bool is_open = dv->open[node] || pattern_active(&dv->filter);
    size_t *cur = &dv->cur[DV_TREE];
    switch (a) {
    case A_TOGGLE:
        if (!has_kids)
            return;
        dv->open[node] = !dv->open[node];
        break;
    case A_MOVE_RIGHT:
        if (!has_kids)
            return;
        if (is_open) {
            if (*cur + 1 < dv->nrows[DV_TREE])
                (*cur)++;
            return;
        }
        dv->open[node] = 1;
        break;
    case A_MOVE_LEFT:
        if (has_kids && dv->open[node]) {
            dv->open[node] = 0;
            break;
        }
        for (size_t i = *cur; nd->parent != IDX_NONE && i-- > 0;)
            if (dv->rows[DV_TREE][i] == nd->parent) {
                *cur = i;
                break;
            }
        return;
    case A_EXPAND_ALL: {
        /* A node is made after its parent: one pass forward finds the
         * subtree. */
        uint8_t *in = xcalloc(dt->nodes.n, 1);
        in[node] = dv->open[node] = 1;
        for (uint32_t i = node + 1; i < dt->nodes.n; i++) {
            uint32_t p = dt->nodes.v[i].parent;
            if (p != IDX_NONE && in[p])
                in[i] = dv->open[i] = 1;
        }
        free(in);
        break;
    }
    case A_COLLAPSE_ALL: {
        memset(dv->open, 0, dt->nodes.n ? dt->nodes.n : 1);
        uint32_t root = node;
        while (dt->nodes.v[root].parent != IDX_NONE)
            root = dt->nodes.v[root].parent;
        rebuild(dv, DV_TREE);
        for (size_t i = 0; i < dv->nrows[DV_TREE]; i++)
            if (dv->rows[DV_TREE][i] == root)
                *cur = i;
        return;
    }
    default:
        return;
    }
    rebuild(dv, DV_TREE);
}

enum diffview_event diffview_action(struct diffview *dv, enum action a, int lines, int cols)
{
    (void)cols;
    int rows = diffview_table_rows(dv, lines);
    int tab = dv->which;
    size_t *cur = &dv->cur[tab], n = dv->nrows[tab];
    if (dv->help) {
        if (a == A_QUIT || a == A_CANCEL || a == A_HELP || a == A_BACK)
            dv->help = false;
        else if (a == A_MOVE_DOWN || a == A_PAGE_DOWN)
            dv->help_top += a == A_MOVE_DOWN ? 1 : (size_t)rows;
        else if (a == A_MOVE_UP || a == A_PAGE_UP)
            dv->help_top -= dv->help_top < (a == A_MOVE_UP ? 1 : (size_t)rows)
                                ? dv->help_top
                                : (a == A_MOVE_UP ? 1 : (size_t)rows);
        return DIFFVIEW_NONE;
    }
    switch (a) {
    case A_QUIT:
        return DIFFVIEW_QUIT;
    case A_HELP:
        dv->help = true;
        dv->help_top = 0;
        break;
    case A_CANCEL:
        if (dv->detail)
            dv->detail = false;
        else if (pattern_active(&dv->filter))
            diffview_set_filter(dv, NULL);
        break;
    case A_DIFF_OPS:
    case A_DIFF_TREE:
    case A_DIFF_LCA:
    case A_DIFF_ARGS:
    case A_DIFF_ROOFLINE:
        diffview_show(dv, (enum diffview_tab)(DV_OPS + (a - A_DIFF_OPS)));
        break;
    case A_VIEW_NEXT:
    case A_VIEW_PREV:
        diffview_show(
            dv, (enum diffview_tab)((tab + (a == A_VIEW_NEXT ? 1 : DV__TABS - 1)) % DV__TABS));
        break;
    case A_DIFF_DETAIL:
    case A_ACTIVATE:
        dv->detail = !dv->detail;
        break;
    case A_SORT_NEXT:
    case A_SORT_PREV:
        sort_step(dv, a == A_SORT_NEXT ? 1 : -1);
        break;
    case A_SORT_REVERSE:
        if (tab != DV_TREE && dv->sort_col[tab] < 0)
            sort_step(dv, 1);
        dv->sort_asc[tab] = !dv->sort_asc[tab];
        rebuild(dv, tab);
        dv->cur[tab] = dv->top[tab] = 0;
        say_sort(dv);
        break;
    case A_FILTER:
        dv->prompt = true;
        snprintf(dv->input, sizeof(dv->input), "%s", dv->filter.text ? dv->filter.text : "");
        break;
    case A_FILTER_CLEAR:
        diffview_set_filter(dv, NULL);
        break;
    case A_MOVE_DOWN:
        if (*cur + 1 < n)
            (*cur)++;
        break;
    case A_MOVE_UP:
        if (*cur > 0)
            (*cur)--;
        break;
    case A_PAGE_DOWN:
        *cur += (size_t)(rows > 1 ? rows - 1 : 1);
        break;
    case A_PAGE_UP:
        *cur = *cur > (size_t)rows ? *cur - (size_t)rows + 1 : 0;
        break;
    case A_MOVE_FIRST:
        *cur = 0;
        break;
    case A_MOVE_LAST:
        *cur = n ? n - 1 : 0;
        break;
    case A_TOGGLE:
    case A_MOVE_LEFT:
    case A_MOVE_RIGHT:
    case A_EXPAND_ALL:
    case A_COLLAPSE_ALL:
        tree_move(dv, a);
        break;
    default:
        break;
    }
    clamp(dv, diffview_table_rows(dv, lines));
    return DIFFVIEW_NONE;
}

/* Code point cp as UTF-8 into mb (4 bytes at most); its length, 0 when
 * cp is no character. */
static size_t encode_utf8(uint32_t cp, char *mb)
{
    if (cp < 0x80) {
        mb[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        mb[0] = (char)(0xc0 | (cp >> 6));
        mb[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp >= 0xd800 && cp < 0xe000)
        return 0;
    if (cp < 0x10000) {
        mb[0] = (char)(0xe0 | (cp >> 12));
        mb[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        mb[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    if (cp > 0x10ffff)
        return 0;
    mb[0] = (char)(0xf0 | (cp >> 18));
    mb[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    mb[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    mb[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The filter prompt's keys: text, Backspace, Enter applies, Esc leaves. */
static void prompt_key(struct diffview *dv, int key)
{
    size_t len = strlen(dv->input);
    if (key == '\n') {
        dv->prompt = false;
        diffview_set_filter(dv, dv->input);
    } else if (key == KEY_ESC || key == KEY_CTRL('c')) {
        dv->prompt = false;
        snprintf(dv->msg, sizeof(dv->msg), "filter unchanged");
    } else if (key == KEYF(KEY_BACKSPACE) || key == 127 || key == KEY_CTRL('h')) {
        while (len > 0 && ((unsigned char)dv->input[len - 1] & 0xc0) == 0x80)
            len--;
        if (len > 0)
            len--;
        dv->input[len] = '\0';
    } else if (!KEY_IS_FN(key) && key >= 32 && key != 127) {
        char mb[8];
        size_t k = encode_utf8((uint32_t)key, mb);
        if (k && len + k < sizeof(dv->input)) {
            memcpy(dv->input + len, mb, k);
            dv->input[len + k] = '\0';
        }
    }
}

enum diffview_event diffview_key(struct diffview *dv, int key, int lines, int cols)
{
    if (dv->prompt) {
        prompt_key(dv, key);
        clamp(dv, diffview_table_rows(dv, lines));
        return DIFFVIEW_NONE;
    }
    return diffview_action(dv, keymap_lookup(KEYS_DIFF, key), lines, cols);
}
