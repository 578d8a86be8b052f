/* The explorer's call tree: the visible rows, made on demand by the row
 * generator (open, close, open all, close all, hot path), reveal and
 * search. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/trace/capture.h"
#include "tui/trace/calltree.h"
#include "tui/trace/calltree_internal.h"

/* ------------------------------------------------------------------------ */
/* The row generator                                                        */
/* ------------------------------------------------------------------------ */

static inline bool is_open(const struct calltree *ct, uint32_t n)
{
    const struct tnode *node = &ct->nodes.v[n];
    return calltree_is_open(ct, n) && (node->flags & TNF_MATERIALIZED) && node->nkids;
}

static inline bool in_pass_subtree(const struct calltree *ct, bool parent_in, uint32_t n)
{
    return parent_in || (ct->pass_mode != CTP_NONE && n == ct->pass_root);
}

/* Whether the generator descends into c, whose parent's frame is in the
 * pass's subtree when `in`: the pass decides a node the first time it
 * reaches it; afterwards (and outside the pass) the node's flag says. */
static bool gen_open(struct calltree *ct, uint32_t c, bool in)
{
    if (in && ct->pass_mode != CTP_NONE && ct->nodes.v[c].visit != ct->pass) {
        ct->nodes.v[c].visit = ct->pass;
        if (ct_pass_wants(ct, c)) {
            ct_materialize(ct, c);
            if (ct->nodes.v[c].nkids)
                ct_set_open(ct, c, true);
        }
    }
    return is_open(ct, c);
}

/* Make one row; false when there are no more. */
static bool gen_step(struct calltree *ct)
{
    while (ct->gen.n) {
        struct ct_frame *f = &ct->gen.v[ct->gen.n - 1];
        uint32_t first = 0, count = ct->nroots;
        if (f->node != IDX_NONE) {
            first = ct->nodes.v[f->node].first;
            count = ct->nodes.v[f->node].nkids;
        }
        if (f->next >= count) {
            if (f->in_pass && ct->pass_mode != CTP_NONE && f->node == ct->pass_root)
                ct_end_pass(ct);
            ct->gen.n--;
            continue;
        }
        uint32_t c = first + f->next++;
        bool in = f->in_pass;
        VEC_PUSH(&ct->rows, c);
        if (gen_open(ct, c, in))
            VEC_PUSH(&ct->gen, ((struct ct_frame){c, 0, in_pass_subtree(ct, in, c)}));
        return true;
    }
    return false;
}

void ct_restart_rows(struct calltree *ct)
{
    ct->rows.n = 0;
    ct->gen.n = 0;
    bool in = ct->pass_mode != CTP_NONE && ct->pass_root == IDX_NONE;
    VEC_PUSH(&ct->gen, ((struct ct_frame){IDX_NONE, 0, in}));
}

/* Keep rows [0, r] and put the generator right after row r: into the
 * node's children when it is open, else on what follows it. */
static void restart_after(struct calltree *ct, size_t r)
{
    uint32_t n = ct->rows.v[r];
    ct->rows.n = r + 1;
    ct->gen.n = 0;
    size_t base = ct->stack.n;
    for (uint32_t x = n; x != IDX_NONE; x = ct->nodes.v[x].parent)
        VEC_PUSH(&ct->stack, x);
    bool in = ct->pass_mode != CTP_NONE && ct->pass_root == IDX_NONE;
    uint32_t parent = IDX_NONE;
    for (size_t i = ct->stack.n; i-- > base;) {
        uint32_t x = ct->stack.v[i];
        uint32_t first = parent == IDX_NONE ? 0 : ct->nodes.v[parent].first;
        VEC_PUSH(&ct->gen, ((struct ct_frame){parent, x - first + 1, in}));
        in = in_pass_subtree(ct, in, x);
        parent = x;
    }
    ct->stack.n = base;
    if (is_open(ct, n))
        VEC_PUSH(&ct->gen, ((struct ct_frame){n, 0, in}));
}

void calltree_ensure(struct calltree *ct, size_t n)
{
    while (ct->rows.n < n && gen_step(ct))
        ;
}

size_t calltree_generate(struct calltree *ct, size_t budget)
{
    size_t made = 0;
    while (made < budget && gen_step(ct))
        made++;
    return made;
}

void calltree_finish(struct calltree *ct)
{
    while (gen_step(ct))
        ;
}

/* Carry out the pending pass (its rows made). */
static void finish_pass(struct calltree *ct)
{
    while (ct->pass_mode != CTP_NONE && gen_step(ct))
        ;
    ct_end_pass(ct);
}

size_t calltree_row_of(struct calltree *ct, uint32_t node)
{
    for (size_t i = 0; i < ct->rows.n; i++)
        if (ct->rows.v[i] == node)
            return i;
    while (gen_step(ct))
        if (ct->rows.v[ct->rows.n - 1] == node)
            return ct->rows.n - 1;
    return CT_NOT_FOUND;
}

/* ------------------------------------------------------------------------ */
/* Open and close                                                           */
/* ------------------------------------------------------------------------ */

bool calltree_expand(struct calltree *ct, size_t row)
{
    calltree_ensure(ct, row + 1);
    if (row >= ct->rows.n)
        return false;
    uint32_t n = ct->rows.v[row];
    if (calltree_is_open(ct, n))
        return false;
    ct_materialize(ct, n);
    if (!ct->nodes.v[n].nkids)
        return false;
    ct_set_open(ct, n, true);
    ct->nodes.v[n].visit = ct->pass;
    restart_after(ct, row);
    return true;
}

/* Whether n is the pending pass's root or one of its ancestors. */
static bool above_pass_root(const struct calltree *ct, uint32_t n)
{
    if (ct->pass_mode == CTP_NONE || ct->pass_root == IDX_NONE)
        return false;
    for (uint32_t x = ct->pass_root; x != IDX_NONE; x = ct->nodes.v[x].parent)
        if (x == n)
            return true;
    return false;
}

bool calltree_collapse(struct calltree *ct, size_t row)
{
    calltree_ensure(ct, row + 1);
    if (row >= ct->rows.n)
        return false;
    uint32_t n = ct->rows.v[row];
    if (!calltree_is_open(ct, n))
        return false;
    /* Closing the node the pass opens below (or an ancestor) ends it. */
    if (above_pass_root(ct, n))
        ct_end_pass(ct);
    ct_set_open(ct, n, false);
    ct->nodes.v[n].visit = ct->pass;
    restart_after(ct, row);
    return true;
}

bool calltree_toggle(struct calltree *ct, size_t row)
{
    return calltree_collapse(ct, row) || calltree_expand(ct, row);
}

void calltree_expand_all(struct calltree *ct, size_t row)
{
    calltree_ensure(ct, row + 1);
    if (row >= ct->rows.n)
        return;
    uint32_t n = ct->rows.v[row];
    finish_pass(ct);
    row = calltree_row_of(ct, n);
    ct_materialize(ct, n);
    if (!ct->nodes.v[n].nkids)
        return;
    ct_start_pass(ct, CTP_ALL, n);
    ct_set_open(ct, n, true);
    ct->nodes.v[n].visit = ct->pass;
    restart_after(ct, row);
}

size_t calltree_collapse_all(struct calltree *ct, size_t row)
{
    calltree_ensure(ct, row + 1);
    uint32_t root = 0;
    if (row < ct->rows.n) {
        root = ct->rows.v[row];
        while (ct->nodes.v[root].parent != IDX_NONE)
            root = ct->nodes.v[root].parent;
    }
    ct_end_pass(ct);
    if (++ct->epoch == 0) {
        /* The epoch wrapped: close every node for real once. */
        for (size_t i = 0; i < ct->nodes.n; i++)
            ct->nodes.v[i].flags &= (uint8_t)~TNF_EXPANDED;
        ct->epoch = 1;
    }
    ct_restart_rows(ct);
    calltree_ensure(ct, ct->nroots);
    return root < ct->rows.n ? root : 0;
}

/* Open the ancestors of n and return n's row. Only the rows after the
 * highest ancestor that was closed are made again. */
static size_t show_node(struct calltree *ct, uint32_t n)
{
    uint32_t top = IDX_NONE;
    for (uint32_t p = ct->nodes.v[n].parent; p != IDX_NONE; p = ct->nodes.v[p].parent) {
        if (!calltree_is_open(ct, p))
            top = p;
    }
    if (top == IDX_NONE)
        return calltree_row_of(ct, n);
    /* `top` is a child of an open node (or a root): it has a row. */
    size_t r = calltree_row_of(ct, top);
    for (uint32_t p = ct->nodes.v[n].parent; p != IDX_NONE; p = ct->nodes.v[p].parent) {
        ct_set_open(ct, p, true);
        ct->nodes.v[p].visit = ct->pass;
    }
    if (r == CT_NOT_FOUND)
        return calltree_row_of(ct, n);
    restart_after(ct, r);
    return calltree_row_of(ct, n);
}

size_t calltree_hot_path(struct calltree *ct, size_t row)
{
    calltree_ensure(ct, row + 1);
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
            /* A captured copy's topmost span hangs under its graph launch. */
            if (p == IDX_NONE && t->grafts.n)
                p = capture_graft_launch(t, e->row);
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

/* Whether a match of the search (pattern p) can lie below node n; false
 * lets the walk skip n's subtree without making its nodes. Host spans
 * answer from their range of numbers (as filters do). */
static bool may_match_below(struct calltree *ct, uint32_t n, struct pattern *p)
{
    if (!ct->spos_ok)
        return true;
    const struct tnode *node = &ct->nodes.v[n];
    const struct trace *t = ct->t;
    uint32_t lo, hi, a, b;
    switch (node->kind) {
    case TN_EVENT:
        if (evk_is_gpu(t->ev.v[node->ref].kind))
            return false;
        return !gputime_span_range(ct->gt, node->ref, &lo, &hi) ||
               ct_any_in(ct->spos.v, ct->spos.n, lo, hi);
    case TN_GROUP:
        /* Members share the group's name: GPU members match as it does. */
        if (evk_is_gpu(t->ev.v[node->ref].kind))
            return node_matches(ct, n, p);
        for (uint32_t k = 0; k < node->count; k++) {
            uint32_t m = ct->members.v[node->members + k];
            if (!gputime_span_range(ct->gt, m, &lo, &hi) ||
                ct_any_in(ct->spos.v, ct->spos.n, lo, hi))
                return true;
        }
        return false;
    case TN_THREAD:
        a = ct->tops_first[node->ref];
        b = ct->tops_first[node->ref + 1];
        if (a == b || ct->tops_pre[a] == IDX_NONE ||
            !gputime_span_range(ct->gt, ct->tops[b - 1], &lo, &hi))
            return true;
        return ct_any_in(ct->spos.v, ct->spos.n, ct->tops_pre[a], hi);
    default:
        return true;
    }
}

static uint32_t last_descendant(struct calltree *ct, uint32_t n, struct pattern *p)
{
    for (;;) {
        if (!may_match_below(ct, n, p))
            return n;
        ct_materialize(ct, n);
        const struct tnode *node = &ct->nodes.v[n];
        if (!node->nkids)
            return n;
        n = node->first + node->nkids - 1;
    }
}

/* Number range of a host-span node; false for other nodes. */
static bool node_span(const struct calltree *ct, uint32_t n, uint32_t *lo, uint32_t *hi)
{
    const struct tnode *node = &ct->nodes.v[n];
    if (node->kind == TN_THREAD) {
        uint32_t a = ct->tops_first[node->ref], b = ct->tops_first[node->ref + 1], l2;
        if (a == b || ct->tops_pre[a] == IDX_NONE ||
            !gputime_span_range(ct->gt, ct->tops[b - 1], &l2, hi))
            return false;
        *lo = ct->tops_pre[a];
        return true;
    }
    return node->kind == TN_EVENT && !evk_is_gpu(ct->t->ev.v[node->ref].kind) &&
           gputime_span_range(ct->gt, node->ref, lo, hi);
}

/* Of siblings a..b (host spans, starts going up), the last whose span
 * starts at or before q, a when none does; `fallback` when a span cannot
 * be told. */
static uint32_t last_sibling_by(struct calltree *ct, uint32_t a, uint32_t b, uint32_t q,
                                uint32_t fallback)
{
    uint32_t lo, hi;
    while (a < b) {
        uint32_t m = a + (b - a + 1) / 2;
        if (!node_span(ct, m, &lo, &hi))
            return fallback;
        if (lo <= q)
            a = m;
        else
            b = m - 1;
    }
    return a;
}

/* The sibling from `from` on (children of parent) where the next match of
 * the search can be, skipping siblings that hold none: IDX_NONE when none
 * of them can, `from` itself when that cannot be told. Siblings that are
 * host spans go up in number (not so with groups). */
static uint32_t next_sibling_to_try(struct calltree *ct, uint32_t parent, uint32_t from)
{
    uint32_t plo, phi, lo, hi;
    if (!ct->spos_ok || ct->group || parent == IDX_NONE || !node_span(ct, parent, &plo, &phi) ||
        !node_span(ct, from, &lo, &hi))
        return from;
    size_t i = ct_fpos_lower(ct->spos.v, ct->spos.n, lo);
    if (i >= ct->spos.n || ct->spos.v[i] >= phi)
        return IDX_NONE;
    /* The last sibling starting at or before the match. */
    return last_sibling_by(ct, from, ct->nodes.v[parent].first + ct->nodes.v[parent].nkids - 1,
                           ct->spos.v[i], from);
}

static uint32_t next_pre(struct calltree *ct, uint32_t n, bool *wrapped, struct pattern *p)
{
    if (may_match_below(ct, n, p)) {
        ct_materialize(ct, n);
        if (ct->nodes.v[n].nkids)
            return ct->nodes.v[n].first;
    }
    for (;;) {
        const struct tnode *node = &ct->nodes.v[n];
        if (!(node->flags & TNF_LAST)) {
            uint32_t s = next_sibling_to_try(ct, node->parent, n + 1);
            if (s != IDX_NONE)
                return s;
            /* No match in the siblings left: on to the parent's. */
        }
        if (node->parent == IDX_NONE) {
            *wrapped = true;
            return 0;
        }
        n = node->parent;
    }
}

/* The same backwards: the sibling from `from` down where the previous
 * match can be; IDX_NONE when none of them can. */
static uint32_t prev_sibling_to_try(struct calltree *ct, uint32_t parent, uint32_t from)
{
    uint32_t plo, phi, lo, hi;
    if (!ct->spos_ok || ct->group || parent == IDX_NONE || !node_span(ct, parent, &plo, &phi) ||
        !node_span(ct, from, &lo, &hi))
        return from;
    size_t i = ct_fpos_lower(ct->spos.v, ct->spos.n, hi);
    if (i == 0 || ct->spos.v[i - 1] <= plo)
        return IDX_NONE;
    return last_sibling_by(ct, ct->nodes.v[parent].first, from, ct->spos.v[i - 1], from);
}

static uint32_t prev_pre(struct calltree *ct, uint32_t n, bool *wrapped, struct pattern *p)
{
    const struct tnode *node = &ct->nodes.v[n];
    bool first = node->parent == IDX_NONE ? n == 0 : n == ct->nodes.v[node->parent].first;
    if (!first) {
        uint32_t s = prev_sibling_to_try(ct, node->parent, n - 1);
        if (s != IDX_NONE)
            return last_descendant(ct, s, p);
        /* No match in the siblings before: the parent is next. */
        return node->parent;
    }
    if (node->parent != IDX_NONE)
        return node->parent;
    *wrapped = true;
    return last_descendant(ct, ct->nroots - 1, p);
}

/* Whether any node at all can match: the distinct names of the tree
 * events, or the roots' labels. Spares a walk of the whole tree when
 * nothing does. */
static bool any_match(struct calltree *ct, struct pattern *p)
{
    const struct trace *t = ct->t;
    for (uint32_t r = 0; r < ct->nroots; r++)
        if (node_matches(ct, r, p))
            return true;
    size_t nstr = strtab_count(&t->strs);
    for (uint32_t k = 0; k < ct->nnames; k++) {
        uint32_t id = ct->name_ids[k];
        if (pattern_match_id(p, id, trace_str(t, id), nstr))
            return true;
    }
    return false;
}

size_t calltree_find(struct calltree *ct, size_t row, int dir, struct pattern *p, bool *wrapped)
{
    *wrapped = false;
    ct_filter_ready(ct);
    if (!ct->nroots || !pattern_active(p) || !any_match(ct, p))
        return CT_NOT_FOUND;
    /* The numbers of the pattern's matches, for skipping subtrees that
     * hold none; when most events match, a plain walk finds one soon. */
    if (!ct->spat || strcmp(ct->spat, p->text) != 0) {
        free(ct->spat);
        ct->spat = xstrdup(p->text);
        size_t limit = ct->t->ev.n / 8 + 1024;
        ct->spos_ok = ct_pattern_positions(ct, p, &ct->spos, limit) <= limit;
    }
    uint32_t start = row < ct->rows.n ? ct->rows.v[row] : 0;
    uint32_t n = start;
    int laps = 0;
    for (;;) {
        bool w = false;
        n = dir >= 0 ? next_pre(ct, n, &w, p) : prev_pre(ct, n, &w, p);
        *wrapped |= w;
        if (node_matches(ct, n, p))
            return show_node(ct, n);
        /* The walk may skip over the start (it skips what cannot match):
         * a second time round the tree means there is nothing to find
         * (matches hidden with Python frames, or filtered out). */
        if (n == start || (w && ++laps > 1))
            return CT_NOT_FOUND;
    }
}

bool calltree_match_rank(struct calltree *ct, size_t row, struct pattern *p, size_t *rank,
                         size_t *total)
{
    *rank = *total = 0;
    if (row >= ct->rows.n || !pattern_active(p))
        return false;
    const struct tnode *node = &ct->nodes.v[ct->rows.v[row]];
    if (node->kind != TN_EVENT && node->kind != TN_GROUP)
        return false;
    ct_filter_ready(ct);
    uint32_t pos = ct_event_pos(ct, node->ref);
    if (pos == IDX_NONE)
        return false;
    if (!ct->rpat || strcmp(ct->rpat, p->text) != 0) {
        free(ct->rpat);
        ct->rpat = xstrdup(p->text);
        ct_pattern_positions(ct, p, &ct->rpos, SIZE_MAX);
    }
    size_t lo = 0, hi = ct->rpos.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ct->rpos.v[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    *rank = lo + 1;
    *total = ct->rpos.n;
    return *rank <= *total;
}
