/* The explorer's call tree: the visible rows (open, close, open all, hot
 * path), reveal and search. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/calltree.h"
#include "tui/calltree_internal.h"

/* ------------------------------------------------------------------------ */
/* Visible rows                                                             */
/* ------------------------------------------------------------------------ */

static inline bool is_open(const struct tnode *n)
{
    return (n->flags & TNF_EXPANDED) && (n->flags & TNF_MATERIALIZED) && n->nkids;
}

/* Append the visible descendants of n (not n) to out, in display order. */
static void flatten_into(struct calltree *ct, uint32_t n, void *outv)
{
    VEC(uint32_t) *out = outv;
    if (!is_open(&ct->nodes.v[n]))
        return;
    size_t base = ct->stack.n;
    VEC_PUSH(&ct->stack, n);
    VEC_PUSH(&ct->stack, 0);
    while (ct->stack.n > base) {
        uint32_t p = ct->stack.v[ct->stack.n - 2];
        uint32_t i = ct->stack.v[ct->stack.n - 1];
        const struct tnode *pn = &ct->nodes.v[p];
        if (i == pn->nkids) {
            ct->stack.n -= 2;
            continue;
        }
        ct->stack.v[ct->stack.n - 1] = i + 1;
        uint32_t c = pn->first + i;
        VEC_PUSH(out, c);
        if (is_open(&ct->nodes.v[c])) {
            VEC_PUSH(&ct->stack, c);
            VEC_PUSH(&ct->stack, 0);
        }
    }
}

void ct_flatten_all(struct calltree *ct)
{
    ct->rows.n = 0;
    for (uint32_t r = 0; r < ct->nroots; r++) {
        VEC_PUSH(&ct->rows, r);
        flatten_into(ct, r, &ct->rows);
    }
}

size_t calltree_row_of(const struct calltree *ct, uint32_t node)
{
    for (size_t i = 0; i < ct->rows.n; i++)
        if (ct->rows.v[i] == node)
            return i;
    return CT_NOT_FOUND;
}

/* End (exclusive) of the rows below the node at row. */
static size_t subtree_end(const struct calltree *ct, size_t row)
{
    uint32_t d = ct->nodes.v[ct->rows.v[row]].depth;
    size_t end = row + 1;
    while (end < ct->rows.n && ct->nodes.v[ct->rows.v[end]].depth > d)
        end++;
    return end;
}

static void rows_erase(struct calltree *ct, size_t from, size_t to)
{
    memmove(ct->rows.v + from, ct->rows.v + to, (ct->rows.n - to) * sizeof(uint32_t));
    ct->rows.n -= to - from;
}

static void rows_insert_subtree(struct calltree *ct, size_t row)
{
    ct->ins.n = 0;
    flatten_into(ct, ct->rows.v[row], &ct->ins);
    size_t k = ct->ins.n;
    if (k) {
        VEC_RESERVE(&ct->rows, ct->rows.n + k);
        memmove(ct->rows.v + row + 1 + k, ct->rows.v + row + 1,
                (ct->rows.n - row - 1) * sizeof(uint32_t));
        memcpy(ct->rows.v + row + 1, ct->ins.v, k * sizeof(uint32_t));
        ct->rows.n += k;
    }
}

bool calltree_expand(struct calltree *ct, size_t row)
{
    if (row >= ct->rows.n)
        return false;
    uint32_t n = ct->rows.v[row];
    if (ct->nodes.v[n].flags & TNF_EXPANDED)
        return false;
    ct_materialize(ct, n);
    if (!ct->nodes.v[n].nkids)
        return false;
    ct->nodes.v[n].flags |= TNF_EXPANDED;
    rows_insert_subtree(ct, row);
    return true;
}

bool calltree_collapse(struct calltree *ct, size_t row)
{
    if (row >= ct->rows.n)
        return false;
    uint32_t n = ct->rows.v[row];
    if (!(ct->nodes.v[n].flags & TNF_EXPANDED))
        return false;
    rows_erase(ct, row + 1, subtree_end(ct, row));
    ct->nodes.v[n].flags &= (uint8_t)~TNF_EXPANDED;
    return true;
}

bool calltree_toggle(struct calltree *ct, size_t row)
{
    return calltree_collapse(ct, row) || calltree_expand(ct, row);
}

void calltree_expand_all(struct calltree *ct, size_t row)
{
    if (row >= ct->rows.n)
        return;
    uint32_t top = ct->rows.v[row];
    rows_erase(ct, row + 1, subtree_end(ct, row));
    VEC(uint32_t) todo = {0};
    VEC_PUSH(&todo, top);
    while (todo.n) {
        uint32_t n = todo.v[--todo.n];
        ct_materialize(ct, n);
        struct tnode *node = &ct->nodes.v[n];
        if (!node->nkids)
            continue;
        node->flags |= TNF_EXPANDED;
        for (uint32_t k = 0; k < node->nkids; k++)
            VEC_PUSH(&todo, node->first + k);
    }
    VEC_FREE(&todo);
    rows_insert_subtree(ct, row);
}

size_t calltree_collapse_all(struct calltree *ct, size_t row)
{
    uint32_t root = 0;
    if (row < ct->rows.n) {
        root = ct->rows.v[row];
        while (ct->nodes.v[root].parent != IDX_NONE)
            root = ct->nodes.v[root].parent;
    }
    for (size_t i = 0; i < ct->nodes.n; i++)
        ct->nodes.v[i].flags &= (uint8_t)~TNF_EXPANDED;
    ct_flatten_all(ct);
    return root < ct->rows.n ? root : 0;
}

/* Mark the ancestors of n open, then flatten; returns n's row. */
static size_t show_node(struct calltree *ct, uint32_t n)
{
    for (uint32_t p = ct->nodes.v[n].parent; p != IDX_NONE; p = ct->nodes.v[p].parent)
        ct->nodes.v[p].flags |= TNF_EXPANDED;
    ct_flatten_all(ct);
    return calltree_row_of(ct, n);
}

size_t calltree_hot_path(struct calltree *ct, size_t row)
{
    if (row >= ct->rows.n)
        return row;
    uint32_t n = ct->rows.v[row];
    for (;;) {
        ct_materialize(ct, n);
        const struct tnode *node = &ct->nodes.v[n];
        uint32_t first = node->first, nk = node->nkids;
        if (!nk)
            break;
        uint32_t best = IDX_NONE;
        int64_t best_gpu = 0;
        for (uint32_t k = 0; k < nk; k++) {
            int64_t g = calltree_gpu(ct, first + k);
            if (g > best_gpu) {
                best_gpu = g;
                best = first + k;
            }
        }
        if (best == IDX_NONE)
            break;
        ct->nodes.v[n].flags |= TNF_EXPANDED;
        n = best;
    }
    return show_node(ct, n);
}

size_t calltree_parent_row(const struct calltree *ct, size_t row)
{
    if (row >= ct->rows.n)
        return row;
    uint32_t p = ct->nodes.v[ct->rows.v[row]].parent;
    if (p == IDX_NONE)
        return row;
    for (size_t i = row; i-- > 0;)
        if (ct->rows.v[i] == p)
            return i;
    return row;
}

/* ------------------------------------------------------------------------ */
/* Reveal and search                                                        */
/* ------------------------------------------------------------------------ */

/* Child of n standing for event ev (or its group), IDX_NONE if none. */
static uint32_t child_for(struct calltree *ct, uint32_t n, uint32_t ev)
{
    ct_materialize(ct, n);
    const struct tnode *node = &ct->nodes.v[n];
    for (uint32_t k = 0; k < node->nkids; k++) {
        const struct tnode *c = &ct->nodes.v[node->first + k];
        if (c->kind == TN_EVENT && c->ref == ev)
            return node->first + k;
        if (c->kind == TN_GROUP)
            for (uint32_t m = 0; m < c->count; m++)
                if (ct->members.v[c->members + m] == ev)
                    return node->first + k;
    }
    return IDX_NONE;
}

size_t calltree_reveal(struct calltree *ct, uint32_t ev)
{
    const struct trace *t = ct->t;
    if (!calltree_is_tree_event(t, ev))
        return CT_NOT_FOUND;
    while (ct->hide_python && t->ev.v[ev].kind == EVK_PYTHON) {
        ev = t->ev.v[ev].parent;
        if (ev == IDX_NONE)
            return CT_NOT_FOUND;
    }
    /* Tree ancestors, bottom-up, then the root. */
    VEC(uint32_t) chain = {0};
    VEC_PUSH(&chain, ev);
    uint8_t root_kind = TN_THREAD;
    uint32_t root_row = IDX_NONE, x = ev;
    for (;;) {
        const struct event *e = &t->ev.v[x];
        uint32_t p;
        if (evk_is_gpu(e->kind)) {
            const struct gpu_info *g = ev_gpu(t, x);
            if (!(e->flags & EVF_LINKED) || !g || g->launch == IDX_NONE) {
                root_kind = TN_UNLINKED;
                root_row = e->row;
                break;
            }
            p = g->launch;
        } else {
            p = e->parent;
            if (p == IDX_NONE) {
                root_row = e->row;
                break;
            }
        }
        x = p;
        if (ct->hide_python && t->ev.v[p].kind == EVK_PYTHON)
            continue;
        VEC_PUSH(&chain, p);
    }
    uint32_t n = IDX_NONE;
    for (uint32_t r = 0; r < ct->nroots; r++)
        if (ct->nodes.v[r].kind == root_kind && ct->nodes.v[r].ref == root_row)
            n = r;
    for (size_t i = chain.n; i-- > 0 && n != IDX_NONE;) {
        uint32_t c = child_for(ct, n, chain.v[i]);
        if (c != IDX_NONE && ct->nodes.v[c].kind == TN_GROUP)
            c = child_for(ct, c, chain.v[i]);
        n = c;
    }
    VEC_FREE(&chain);
    return n == IDX_NONE ? CT_NOT_FOUND : show_node(ct, n);
}

static bool node_matches(struct calltree *ct, uint32_t n, struct pattern *p)
{
    const struct tnode *node = &ct->nodes.v[n];
    if (node->kind == TN_EVENT || node->kind == TN_GROUP) {
        uint32_t id = ct->t->ev.v[node->ref].name;
        return pattern_match_id(p, id, trace_str(ct->t, id), strtab_count(&ct->t->strs));
    }
    struct strbuf sb = STRBUF_INIT;
    calltree_name(ct, n, &sb);
    bool m = pattern_match(p, sb_str(&sb));
    sb_free(&sb);
    return m;
}

static uint32_t last_descendant(struct calltree *ct, uint32_t n)
{
    for (;;) {
        ct_materialize(ct, n);
        const struct tnode *node = &ct->nodes.v[n];
        if (!node->nkids)
            return n;
        n = node->first + node->nkids - 1;
    }
}

static uint32_t next_pre(struct calltree *ct, uint32_t n, bool *wrapped)
{
    ct_materialize(ct, n);
    if (ct->nodes.v[n].nkids)
        return ct->nodes.v[n].first;
    for (;;) {
        const struct tnode *node = &ct->nodes.v[n];
        if (!(node->flags & TNF_LAST))
            return n + 1;
        if (node->parent == IDX_NONE) {
            *wrapped = true;
            return 0;
        }
        n = node->parent;
    }
}

static uint32_t prev_pre(struct calltree *ct, uint32_t n, bool *wrapped)
{
    const struct tnode *node = &ct->nodes.v[n];
    bool first = node->parent == IDX_NONE ? n == 0 : n == ct->nodes.v[node->parent].first;
    if (!first)
        return last_descendant(ct, n - 1);
    if (node->parent != IDX_NONE)
        return node->parent;
    *wrapped = true;
    return last_descendant(ct, ct->nroots - 1);
}

/* Whether any node at all can match: event names (memoized per name) or
 * the roots' labels. Spares a walk of the whole tree when nothing does. */
static bool any_match(struct calltree *ct, struct pattern *p)
{
    const struct trace *t = ct->t;
    for (uint32_t r = 0; r < ct->nroots; r++)
        if (node_matches(ct, r, p))
            return true;
    size_t nstr = strtab_count(&t->strs);
    for (uint32_t i = 0; i < t->ev.n; i++) {
        if (!calltree_is_tree_event(t, i))
            continue;
        uint32_t id = t->ev.v[i].name;
        if (pattern_match_id(p, id, trace_str(t, id), nstr))
            return true;
    }
    return false;
}

size_t calltree_find(struct calltree *ct, size_t row, int dir, struct pattern *p, bool *wrapped)
{
    *wrapped = false;
    if (!ct->nroots || !pattern_active(p) || !any_match(ct, p))
        return CT_NOT_FOUND;
    uint32_t start = row < ct->rows.n ? ct->rows.v[row] : 0;
    uint32_t n = start;
    for (;;) {
        n = dir >= 0 ? next_pre(ct, n, wrapped) : prev_pre(ct, n, wrapped);
        if (node_matches(ct, n, p))
            return show_node(ct, n);
        if (n == start)
            return CT_NOT_FOUND;
    }
}
