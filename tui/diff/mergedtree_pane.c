/* The merged call tree pane (tui/diff/mergedtree_pane.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "tui/diff/diffdata.h"
#include "tui/diff/diffdetail.h"
#include "tui/diff/mergedtree_pane.h"
#include "tui/frame/detail.h"
#include "tui/frame/draw.h"
#include "tui/frame/keymap.h"
#include "tui/frame/text.h"
#include "tui/frame/textview.h"
#include "tui/frame/view.h"

/* Columns besides the name, and their width. */
#define TREE_COLS 8
#define TREE_W 12
/* Columns the names keep before numbers: deep Python stacks need them
 * (with the indent past a quarter of them compressed). */
#define TREE_NAME_MIN 36
/* Levels of the path of the largest change opened at first. */
#define HOT_DEPTH 4

/* Orders of a node's children. */
enum tree_sort { TS_GPU_DELTA, TS_CPU_DELTA, TS_GPU_TEST, TS_GPU_CONTROL, TS__COUNT };

static const char *const sort_names[TS__COUNT] = {"|diff GPU time|", "|diff CPU time|",
                                                  "test GPU time", "control GPU time"};

/* A node and its key in the order being made. */
struct keyed {
    int64_t k;
    uint32_t node;
};

/* One level of a walk over the rows: a sorted group of siblings and the
 * next of it to yield. */
struct level {
    const uint32_t *kids;
    size_t n, next;
};

/* One order of every node's children, sorted group by group when a walk
 * first needs it and kept: sorting again is a walk. Siblings are adjacent
 * ids (difftree.h), so the group whose first node is f sorts in place in
 * kids[f, f + its size). */
struct tree_order {
    uint32_t *kids; /* per id: the sorted siblings of the group starting there */
    uint8_t *done;  /* per id: the group starting there is sorted */
};

struct mt_pane {
    struct diffdata *dd; /* borrowed */
    struct view *ctx;    /* the view the pane was made with (outlives it) */
    int keytab;
    uint8_t *open;  /* per merged node: expanded */
    uint8_t *shown; /* per merged node, while filtered: it or a node below matches */
    uint32_t *vis;  /* per node: the rows of its subtree when it is shown (itself, and
                       the rows below it when open; 0: hidden by the filter) */
    size_t total;   /* rows shown: the roots' vis */
    struct listview lv;
    int sort;                               /* enum tree_sort */
    bool reversed;                          /* smallest first */
    struct tree_order orders[TS__COUNT][2]; /* [sort][reversed], made on first use */
    VEC(struct keyed) keyed;                /* a group being sorted */
    VEC(struct level) walk;                 /* the stack of row_seek / row_next */
    struct strbuf line;
};

static struct mt_pane *mt_of(struct pane *p)
{
    return pane_priv(p, &mergedtree_pane_ops);
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

/* Whether node's name matches pat, each distinct name tried once: memo
 * holds, per side and string id of its trace, 0 (not tried), 1 (no) or 2
 * (yes). A whole tree has far fewer names than nodes. */
struct name_memo {
    uint8_t *m[2];
};

static void memo_init(struct name_memo *nm, const struct difftree *dt)
{
    for (int s = 0; s < 2; s++)
        nm->m[s] = xcalloc(strtab_count(&dt->t[s]->strs) + 1, 1);
}

static void memo_free(struct name_memo *nm)
{
    free(nm->m[0]);
    free(nm->m[1]);
}

static bool name_matches(const struct difftree *dt, struct pattern *pat, struct name_memo *nm,
                         uint32_t node)
{
    const struct difftree_node *nd = &dt->nodes.v[node];
    int s = nd->ev[0] != IDX_NONE ? 0 : 1;
    uint32_t id = trace_ev(dt->t[s], nd->ev[s])->name;
    if (!nm->m[s][id])
        nm->m[s][id] = pattern_match(pat, difftree_name(dt, node)) ? 2 : 1;
    return nm->m[s][id] == 2;
}

/* ------------------------------------------------------------------------ */
/* Rows                                                                     */
/* ------------------------------------------------------------------------ */

static int64_t sort_key(const struct mt_pane *mt, uint32_t node)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    switch (mt->sort) {
    case TS_CPU_DELTA:
        return abs64(difftree_cpu(dt, node, 1) - difftree_cpu(dt, node, 0));
    case TS_GPU_TEST:
        return difftree_gpu_subtree(dt, node, 1);
    case TS_GPU_CONTROL:
        return difftree_gpu_subtree(dt, node, 0);
    default:
        return abs64(difftree_gpu_subtree(dt, node, 1) - difftree_gpu_subtree(dt, node, 0));
    }
}

static bool sort_reversed; /* the order of the sort in progress, for cmp_keyed */

static int cmp_keyed(const void *x, const void *y)
{
    const struct keyed *a = x, *b = y;
    if (a->k != b->k)
        return (a->k > b->k ? -1 : 1) * (sort_reversed ? -1 : 1);
    return (a->node > b->node) - (a->node < b->node);
}

/* The children of the group starting at `first` in the current order:
 * sorted on the first call for this order, then read back. */
static const uint32_t *sorted_group(struct mt_pane *mt, uint32_t first, size_t *count)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    struct tree_order *o = &mt->orders[mt->sort][mt->reversed];
    if (!o->kids) {
        size_t n = dt->nodes.n ? dt->nodes.n : 1;
        o->kids = xmalloc(n * sizeof(*o->kids));
        o->done = xcalloc(n, 1);
    }
    size_t k = 0;
    if (!o->done[first]) {
        mt->keyed.n = 0;
        for (uint32_t c = first; c != IDX_NONE; c = dt->nodes.v[c].next_sibling)
            VEC_PUSH(&mt->keyed, ((struct keyed){sort_key(mt, c), c}));
        sort_reversed = mt->reversed;
        sort_items(mt->keyed.v, mt->keyed.n, sizeof(struct keyed), cmp_keyed);
        for (size_t i = 0; i < mt->keyed.n; i++)
            o->kids[first + i] = mt->keyed.v[i].node;
        o->done[first] = 1;
        k = mt->keyed.n;
    } else {
        for (uint32_t c = first; c != IDX_NONE; c = dt->nodes.v[c].next_sibling)
            k++;
    }
    *count = k;
    return o->kids + first;
}

/* Whether node c's children are rows when c is (open, or any node under a
 * filter). */
static bool expanded(const struct mt_pane *mt, bool filtered, uint32_t c)
{
    return mt->dd->ctx.dt->nodes.v[c].first_child != IDX_NONE && (filtered || mt->open[c]);
}

/* The rows are the roots (sorted), each followed by the nodes below it
 * when it is open (under a filter: every shown node's children), in
 * pre-order. They are not kept: vis counts them per subtree, and a walk
 * (row_seek, row_next) finds the few a screen shows, sorting only the
 * groups it passes through. The walks keep their own stack, not the C
 * stack: a tree nested a million deep must not overflow it.
 *
 * Count the rows again after the open nodes or the filter changed: one
 * pass from the last node to the first, since a node is made after its
 * parent (vis first sums the children, then becomes the subtree's rows). */
static void count_rows(struct mt_pane *mt, struct view *a)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    size_t nn = dt->nodes.n;
    bool filtered = pattern_active(&a->filter);
    if (filtered) {
        struct name_memo nm;
        memo_init(&nm, dt);
        for (size_t i = 0; i < nn; i++)
            mt->shown[i] = name_matches(dt, &a->filter, &nm, (uint32_t)i);
        memo_free(&nm);
        for (size_t i = nn; i-- > 0;)
            if (mt->shown[i] && dt->nodes.v[i].parent != IDX_NONE)
                mt->shown[dt->nodes.v[i].parent] = 1;
    }
    memset(mt->vis, 0, (nn ? nn : 1) * sizeof(*mt->vis));
    mt->total = 0;
    for (size_t i = nn; i-- > 0;) {
        uint32_t below = mt->vis[i];
        mt->vis[i] =
            filtered && !mt->shown[i] ? 0 : 1 + (expanded(mt, filtered, (uint32_t)i) ? below : 0);
        uint32_t par = dt->nodes.v[i].parent;
        if (par != IDX_NONE)
            mt->vis[par] += mt->vis[i];
        else
            mt->total += mt->vis[i];
    }
    mt->lv.n = mt->total;
}

static void push_group(struct mt_pane *mt, uint32_t first)
{
    struct level l = {0};
    l.kids = sorted_group(mt, first, &l.n);
    VEC_PUSH(&mt->walk, l);
}

/* Set the walk so that row_next yields row i next (false: no such row). */
static bool row_seek(struct mt_pane *mt, size_t i)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    bool filtered = pattern_active(&mt->ctx->filter);
    mt->walk.n = 0;
    if (i >= mt->total || dt->first_root == IDX_NONE)
        return false;
    push_group(mt, dt->first_root);
    for (;;) {
        struct level *l = &mt->walk.v[mt->walk.n - 1];
        if (l->next == l->n)
            return false; /* vis disagrees with the tree: not reached */
        uint32_t c = l->kids[l->next];
        if (i >= mt->vis[c]) {
            i -= mt->vis[c];
            l->next++;
            continue;
        }
        if (i == 0)
            return true;
        i--;
        l->next++;
        if (!expanded(mt, filtered, c))
            return false;
        push_group(mt, dt->nodes.v[c].first_child);
    }
}

/* The next row of the walk, IDX_NONE after the last. */
static uint32_t row_next(struct mt_pane *mt)
{
    bool filtered = pattern_active(&mt->ctx->filter);
    while (mt->walk.n) {
        struct level *l = &mt->walk.v[mt->walk.n - 1];
        if (l->next == l->n) {
            mt->walk.n--;
            continue;
        }
        uint32_t c = l->kids[l->next++];
        if (!mt->vis[c])
            continue;
        if (expanded(mt, filtered, c))
            push_group(mt, mt->dd->ctx.dt->nodes.v[c].first_child);
        return c;
    }
    return IDX_NONE;
}

/* The node of row i, IDX_NONE past the last. */
static uint32_t row_node(struct mt_pane *mt, size_t i)
{
    return row_seek(mt, i) ? row_next(mt) : IDX_NONE;
}

/* The row of node, or false when it is not shown (a closed or filtered
 * node above it). Walks up: each level adds the rows of the siblings
 * sorted before it, and the parent's own row. */
static bool node_row(struct mt_pane *mt, uint32_t node, size_t *row)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    bool filtered = pattern_active(&mt->ctx->filter);
    if (node >= dt->nodes.n || !mt->vis[node])
        return false;
    for (uint32_t x = dt->nodes.v[node].parent; x != IDX_NONE; x = dt->nodes.v[x].parent)
        if (!mt->vis[x] || !expanded(mt, filtered, x))
            return false;
    size_t at = 0;
    for (uint32_t x = node; x != IDX_NONE; x = dt->nodes.v[x].parent) {
        uint32_t par = dt->nodes.v[x].parent;
        size_t k;
        const uint32_t *kids =
            sorted_group(mt, par == IDX_NONE ? dt->first_root : dt->nodes.v[par].first_child, &k);
        for (size_t j = 0; j < k && kids[j] != x; j++)
            at += mt->vis[kids[j]];
        if (par != IDX_NONE)
            at++;
    }
    *row = at;
    return true;
}

static uint32_t cur_node(struct mt_pane *mt)
{
    return row_node(mt, mt->lv.cur);
}

/* Count the rows again keeping node `keep` under the cursor (IDX_NONE, or
 * not shown: the first row). */
static void rebuild_keep(struct mt_pane *mt, struct view *a, uint32_t keep)
{
    count_rows(mt, a);
    size_t at = 0;
    if (keep == IDX_NONE || !node_row(mt, keep, &at))
        at = 0;
    listview_set(&mt->lv, at);
}

/* Open the path of the largest |diff GPU time| child from the roots
 * down: the first screen shows where the change is. */
static void open_hot_path(struct mt_pane *mt)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    uint32_t n = dt->first_root;
    for (int d = 0; d < HOT_DEPTH && n != IDX_NONE; d++) {
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
        mt->open[best] = 1;
        n = dt->nodes.v[best].first_child;
    }
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

/* Number columns shown at width w (GPU time always; the kernel counts go
 * first, then CPU time) and the name column's width. */
static int shown_cols(int w, size_t *namew)
{
    int shown = (w - TREE_NAME_MIN) / (TREE_W + 2);
    shown = shown > TREE_COLS ? TREE_COLS : shown < 3 ? 3 : shown;
    size_t rest = (size_t)shown * (TREE_W + 2);
    *namew = (size_t)w > rest + 20 ? (size_t)w - rest : 20;
    return shown;
}

/* Microseconds with one decimal (as -t tree's CSV, rounded); "" when the
 * side lacks the node. */
static void put_us(struct strbuf *line, int64_t ns, bool present)
{
    char buf[40];
    if (present)
        snprintf(buf, sizeof(buf), "%.1f", (double)ns / 1e3);
    else
        buf[0] = '\0';
    sb_printf(line, "  %*s", TREE_W, buf);
}

static void put_cell(struct strbuf *line, const char *s, size_t n, size_t w, bool right, bool ascii)
{
    struct strbuf cell = STRBUF_INIT;
    size_t got = display_fit(&cell, s, n, w, false, ascii);
    if (right)
        for (size_t i = got; i < w; i++)
            sb_putc(line, ' ');
    sb_putn(line, sb_str(&cell), cell.len);
    if (!right)
        for (size_t i = got; i < w; i++)
            sb_putc(line, ' ');
    sb_free(&cell);
}

static void head_line(const struct mt_pane *mt, size_t namew, int shown, bool ascii,
                      struct strbuf *line)
{
    char t[TREE_COLS][TREE_W + 8];
    const char *const *lab = (const char *const *)mt->dd->td->label;
    snprintf(t[0], sizeof(t[0]), "%.*s GPU", 7, lab[0]);
    snprintf(t[1], sizeof(t[1]), "%.*s GPU", 7, lab[1]);
    snprintf(t[2], sizeof(t[2]), "diff GPU");
    snprintf(t[3], sizeof(t[3]), "%.*s CPU", 7, lab[0]);
    snprintf(t[4], sizeof(t[4]), "%.*s CPU", 7, lab[1]);
    snprintf(t[5], sizeof(t[5]), "diff CPU");
    snprintf(t[6], sizeof(t[6]), "%.*s kern", 7, lab[0]);
    snprintf(t[7], sizeof(t[7]), "%.*s kern", 7, lab[1]);
    /* The legend of the marks, shorter where the long one would be cut. */
    const char *name = "name (us; +: test only, -: control only)";
    if (strlen(name) > namew)
        name = "name (us; +/-: test/control only)";
    put_cell(line, name, strlen(name), namew, false, ascii);
    for (int i = 0; i < shown; i++) {
        sb_puts(line, "  ");
        struct strbuf clean = STRBUF_INIT;
        display_sanitize(&clean, t[i], strlen(t[i]));
        put_cell(line, sb_str(&clean), clean.len, TREE_W, true, ascii);
        sb_free(&clean);
    }
}

static uint32_t kernels(const struct difftree *dt, uint32_t node, int side)
{
    uint32_t e = dt->nodes.v[node].ev[side], n = 0;
    if (e != IDX_NONE)
        gputime_subtree_events(dt->g[side], e, &n);
    return n;
}

static void row_line(const struct mt_pane *mt, struct view *a, uint32_t node, size_t namew,
                     int shown, struct strbuf *line)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    const struct difftree_node *nd = &dt->nodes.v[node];
    bool in[2] = {nd->ev[0] != IDX_NONE, nd->ev[1] != IDX_NONE};
    struct strbuf nm = STRBUF_INIT;
    sb_putc(&nm, in[0] && in[1] ? ' ' : in[1] ? '+' : '-');
    /* A quarter of the name column indents; deeper rows say their depth
     * ("·23·") and keep the rest for the name. */
    char deep[32];
    size_t indent =
        textview_deep_indent(nd->depth, nd->depth, namew / 4, 1, a->ascii, deep, sizeof(deep));
    sb_puts(&nm, deep);
    for (size_t i = 0; i < indent; i++)
        sb_putc(&nm, ' ');
    bool kids = nd->first_child != IDX_NONE;
    bool open = kids && (mt->open[node] || pattern_active(&a->filter));
    sb_puts(&nm, !kids ? "  " : open ? a->g->expanded : a->g->collapsed);
    if (kids)
        sb_putc(&nm, ' ');
    const char *name = difftree_name(dt, node);
    display_sanitize(&nm, name, strlen(name));
    put_cell(line, sb_str(&nm), nm.len, namew, false, a->ascii);
    sb_free(&nm);
    size_t numbers = line->len;
    int64_t g[2], c[2];
    for (int s = 0; s < 2; s++) {
        g[s] = difftree_gpu_subtree(dt, node, s);
        c[s] = difftree_cpu(dt, node, s);
    }
    put_us(line, g[0], in[0]);
    put_us(line, g[1], in[1]);
    put_us(line, g[1] - g[0], true);
    put_us(line, c[0], in[0]);
    put_us(line, c[1], in[1]);
    put_us(line, c[1] - c[0], true);
    for (int s = 0; s < 2; s++) {
        char buf[24];
        if (in[s])
            snprintf(buf, sizeof(buf), "%u", kernels(dt, node, s));
        else
            buf[0] = '\0';
        sb_printf(line, "  %*s", TREE_W, buf);
    }
    /* The columns that fit (ASCII digits after the name). */
    if (line->len > numbers + (size_t)shown * (TREE_W + 2))
        line->len = numbers + (size_t)shown * (TREE_W + 2);
}

static void mt_draw(struct pane *p, struct view *a)
{
    struct mt_pane *mt = mt_of(p);
    werase(p->win);
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, " Merged call tree  by %s%s", sort_names[mt->sort],
              mt->reversed ? ", smallest first" : "");
    if (pattern_active(&a->filter))
        sb_printf(&sb, "  filter \"%s\" (%zu rows)", a->filter.text, mt->total);
    attr_t tattr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    draw_fit(p->win, 0, 0, p->r.w, sb_str(&sb), sb.len, false, false, tattr, a->ascii);
    sb_free(&sb);
    size_t namew;
    int shown = shown_cols(p->r.w, &namew);
    sb_clear(&mt->line);
    head_line(mt, namew, shown, a->ascii, &mt->line);
    draw_blank(p->win, 1, 0, p->r.w, color_attr(C_COLHEAD));
    draw_fit(p->win, 1, 0, p->r.w, sb_str(&mt->line), mt->line.len, false, false,
             color_attr(C_COLHEAD), a->ascii);
    mt->lv.height = MAX(1, p->r.h - 2);
    listview_clamp(&mt->lv);
    if (!mt->total) {
        draw_str(p->win, 2, 1, p->r.w - 2,
                 pattern_active(&a->filter) ? "(no node matches the filter)" : "(no nodes)",
                 color_attr(C_DIM), a->ascii);
        return;
    }
    row_seek(mt, mt->lv.top);
    for (int y = 0; y < mt->lv.height; y++) {
        size_t row = mt->lv.top + (size_t)y;
        uint32_t node = row_next(mt);
        if (node == IDX_NONE)
            break;
        sb_clear(&mt->line);
        row_line(mt, a, node, namew, shown, &mt->line);
        bool cur = row == mt->lv.cur;
        bool match = pattern_active(&a->search) &&
                     pattern_match(&a->search, difftree_name(mt->dd->ctx.dt, node));
        attr_t at = cur     ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT)
                    : match ? color_attr(C_MATCH)
                            : A_NORMAL;
        draw_fit(p->win, 2 + y, 0, p->r.w, sb_str(&mt->line), mt->line.len, false, false, at,
                 a->ascii);
    }
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

static void say_sort(struct mt_pane *mt, struct view *a)
{
    view_message(a, "tree sorted by %s%s", sort_names[mt->sort],
                 mt->reversed ? ", smallest first" : "");
}

static unsigned set_sort(struct mt_pane *mt, struct view *a, int sort, bool reversed)
{
    mt->sort = sort;
    mt->reversed = reversed;
    listview_set(&mt->lv, 0);
    say_sort(mt, a);
    return R_HANDLED | R_DIRTY | R_SYNC;
}

/* Item k of the sort menu (opened with the pane as ctx): that order
 * (again: reversed). The app that calls it is opaque here. */
static unsigned sort_menu_item(struct app *app, void *ctx, int item)
{
    struct pane *p = ctx;
    struct mt_pane *mt = mt_of(p);
    if (item < 0 || item >= TS__COUNT)
        return R_NONE;
    p->dirty = true;
    return set_sort(mt, mt->ctx, item, item == mt->sort ? !mt->reversed : false);
}

static void open_sort_menu(struct pane *p, struct pane_request *req)
{
    struct mt_pane *mt = mt_of(p);
    char **items = xcalloc(TS__COUNT, sizeof(char *));
    for (int i = 0; i < TS__COUNT; i++)
        items[i] = xasprintf("%s%s", sort_names[i],
                             i == mt->sort && mt->reversed ? " (smallest first)" : "");
    req->kind = REQ_MENU;
    req->menu.title = "Sort the tree by";
    req->menu.items = items;
    req->menu.n = TS__COUNT;
    req->menu.cur = mt->sort;
    req->menu.pick = sort_menu_item;
    req->menu.ctx = p;
}

/* Open everything below node (a node is made after its parent: one pass
 * forward finds the subtree). */
static void expand_all(struct mt_pane *mt, uint32_t node)
{
    const struct difftree *dt = mt->dd->ctx.dt;
    uint8_t *in = xcalloc(dt->nodes.n, 1);
    in[node] = mt->open[node] = 1;
    for (uint32_t i = node + 1; i < dt->nodes.n; i++) {
        uint32_t par = dt->nodes.v[i].parent;
        if (par != IDX_NONE && in[par])
            in[i] = mt->open[i] = 1;
    }
    free(in);
}

static unsigned mt_action(struct pane *p, struct view *a, enum action act, struct pane_request *req)
{
    struct mt_pane *mt = mt_of(p);
    /* The page is the pane's height now (a relayout since the last draw
     * changes it). */
    mt->lv.height = MAX(1, p->r.h - 2);
    if (listview_action(&mt->lv, act))
        return R_HANDLED | R_DIRTY | R_SYNC;
    uint32_t node = cur_node(mt);
    const struct difftree *dt = mt->dd->ctx.dt;
    const struct difftree_node *nd = node != IDX_NONE ? &dt->nodes.v[node] : NULL;
    bool kids = nd && nd->first_child != IDX_NONE;
    bool is_open = kids && (mt->open[node] || pattern_active(&a->filter));
    switch (act) {
    case A_SORT_MENU:
        open_sort_menu(p, req);
        return R_HANDLED;
    case A_SORT_NEXT:
    case A_SORT_PREV:
        return set_sort(mt, a, (mt->sort + (act == A_SORT_NEXT ? 1 : TS__COUNT - 1)) % TS__COUNT,
                        false);
    case A_SORT_REVERSE:
        return set_sort(mt, a, mt->sort, !mt->reversed);
    case A_TOGGLE:
        if (!kids)
            return R_HANDLED;
        mt->open[node] = !mt->open[node];
        break;
    case A_MOVE_RIGHT:
        if (!kids)
            return R_HANDLED;
        if (is_open)
            return listview_move(&mt->lv, 1) ? R_HANDLED | R_DIRTY | R_SYNC : R_HANDLED;
        mt->open[node] = 1;
        break;
    case A_MOVE_LEFT:
        if (kids && mt->open[node]) {
            mt->open[node] = 0;
            break;
        }
        if (!nd || nd->parent == IDX_NONE) {
            req->kind = REQ_BACK;
            return R_HANDLED;
        }
        size_t at;
        if (node_row(mt, nd->parent, &at))
            listview_set(&mt->lv, at);
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_EXPAND_ALL:
        if (!nd)
            return R_HANDLED;
        expand_all(mt, node);
        break;
    case A_COLLAPSE_ALL: {
        if (!nd)
            return R_HANDLED;
        memset(mt->open, 0, dt->nodes.n ? dt->nodes.n : 1);
        uint32_t root = node;
        while (dt->nodes.v[root].parent != IDX_NONE)
            root = dt->nodes.v[root].parent;
        rebuild_keep(mt, a, root);
        return R_HANDLED | R_DIRTY | R_SYNC;
    }
    default:
        return R_NONE;
    }
    rebuild_keep(mt, a, node);
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static unsigned mt_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                         struct pane_request *req)
{
    struct mt_pane *mt = mt_of(p);
    if (y < 2)
        return R_HANDLED;
    size_t row = mt->lv.top + (size_t)(y - 2);
    if (row >= mt->total)
        return R_HANDLED;
    listview_set(&mt->lv, row);
    if (dbl)
        return mt_action(p, a, A_TOGGLE, req) | R_DIRTY | R_SYNC;
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static void mt_describe(struct pane *p, struct view *a, struct detail_out *d)
{
    struct mt_pane *mt = mt_of(p);
    uint32_t node = cur_node(mt);
    if (node != IDX_NONE)
        diffdetail_node(d, mt->dd, node, a->ascii);
}

/* The next row shown whose name matches (the tree's open rows) after the
 * cursor (dir < 0: before it), wrapping; with the match's rank among the
 * rows that match and their number. One walk over the rows. */
static unsigned mt_search(struct pane *p, struct view *a, int dir, struct pane_request *req)
{
    struct mt_pane *mt = mt_of(p);
    const struct difftree *dt = mt->dd->ctx.dt;
    size_t n = mt->total, cur = mt->lv.cur;
    size_t total = 0, upto = 0, below = 0; /* matches; at rows up to the cursor's; before it */
    size_t first = SIZE_MAX, last = SIZE_MAX, prev = SIZE_MAX, next = SIZE_MAX;
    struct name_memo nm;
    memo_init(&nm, dt);
    row_seek(mt, 0);
    for (size_t i = 0; i < n; i++) {
        uint32_t node = row_next(mt);
        if (node == IDX_NONE)
            break;
        if (!name_matches(dt, &a->search, &nm, node))
            continue;
        total++;
        if (first == SIZE_MAX)
            first = i;
        last = i;
        if (i <= cur)
            upto++;
        if (i < cur) {
            below++;
            prev = i;
        } else if (i > cur && next == SIZE_MAX)
            next = i;
    }
    memo_free(&nm);
    if (!total) {
        view_error(a, "/%s: no match in the rows shown (e opens everything below a node)",
                   a->search.text);
        return R_HANDLED;
    }
    size_t i, rank;
    bool wrapped;
    if (dir >= 0) {
        wrapped = next == SIZE_MAX;
        i = wrapped ? first : next;
        rank = wrapped ? 1 : upto + 1;
    } else {
        wrapped = prev == SIZE_MAX;
        i = wrapped ? last : prev;
        rank = wrapped ? total : below;
    }
    listview_jump(&mt->lv, i);
    view_message(a, "/%s: match %zu of %zu (row %zu of %zu)%s", a->search.text, rank, total, i + 1,
                 n, wrapped ? " (wrapped)" : "");
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static void mt_rebuild(struct pane *p, struct view *a)
{
    struct mt_pane *mt = mt_of(p);
    rebuild_keep(mt, a, cur_node(mt));
}

static void mt_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    struct mt_pane *mt = mt_of(p);
    snprintf(buf, n, "%zu/%zu", mt->total ? mt->lv.cur + 1 : 0, mt->total);
}

static int mt_keytab(struct pane *p, struct view *a)
{
    return mt_of(p)->keytab;
}

static void mt_free(struct pane *p)
{
    struct mt_pane *mt = mt_of(p);
    free(mt->open);
    free(mt->shown);
    for (int i = 0; i < TS__COUNT; i++)
        for (int r = 0; r < 2; r++) {
            free(mt->orders[i][r].kids);
            free(mt->orders[i][r].done);
        }
    free(mt->vis);
    VEC_FREE(&mt->walk);
    VEC_FREE(&mt->keyed);
    sb_free(&mt->line);
    free(mt);
}

const struct pane_ops mergedtree_pane_ops = {
    .name = "merged tree",
    .draw = mt_draw,
    .on_action = mt_action,
    .on_click = mt_click,
    .describe = mt_describe,
    .search = mt_search,
    .rebuild = mt_rebuild,
    .position = mt_position,
    .free = mt_free,
    .keytab = mt_keytab,
};

struct pane *mergedtree_pane_new(struct view *v, struct diffdata *dd, int keytab)
{
    struct mt_pane *mt = xcalloc(1, sizeof(*mt));
    mt->dd = dd;
    mt->ctx = v;
    mt->keytab = keytab;
    size_t n = dd->ctx.dt->nodes.n;
    mt->open = xcalloc(n ? n : 1, 1);
    mt->shown = xcalloc(n ? n : 1, 1);
    /* Every node's GPU time, asked now: gputime then makes them all in one
     * pass and keeps them, and the first sort or expand-all of the whole
     * tree (a key) does not pay for them. */
    for (uint32_t i = 0; i < n; i++)
        for (int s = 0; s < 2; s++)
            difftree_gpu_subtree(dd->ctx.dt, i, s);
    mt->vis = xcalloc(n ? n : 1, sizeof(*mt->vis));
    open_hot_path(mt);
    count_rows(mt, v);
    return pane_new(&mergedtree_pane_ops, PANE_TREE, mt);
}

bool mergedtree_pane_node(struct pane *p, uint32_t *node)
{
    if (!pane_is(p, &mergedtree_pane_ops))
        return false;
    *node = cur_node(mt_of(p));
    return *node != IDX_NONE;
}
