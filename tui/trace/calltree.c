/* The explorer's call tree: nodes and their lazily made children,
 * grouping, Python hiding, rebuilds and open passes. The visible rows,
 * reveal and search are in calltree_rows.c, filters in calltree_filter.c,
 * times in calltree_times.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/trace/devkind.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/trace/capture.h"
#include "tui/trace/calltree.h"
#include "tui/trace/calltree_internal.h"

/* ------------------------------------------------------------------------ */
/* Nodes                                                                    */
/* ------------------------------------------------------------------------ */

static uint32_t node_add(struct calltree *ct, uint8_t kind, uint32_t ref, uint32_t parent,
                         uint32_t depth)
{
    struct tnode *n = VEC_ADD(&ct->nodes);
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->ref = ref;
    n->parent = parent;
    n->first = IDX_NONE;
    n->count = 1;
    n->depth = (uint16_t)MIN(depth, (uint32_t)UINT16_MAX);
    n->cpu = CT_UNKNOWN;
    n->gpu = CT_UNKNOWN;
    return (uint32_t)(ct->nodes.n - 1);
}

void ct_set_open(struct calltree *ct, uint32_t n, bool open)
{
    struct tnode *node = &ct->nodes.v[n];
    if (open) {
        node->flags |= TNF_EXPANDED;
        node->epoch = ct->epoch;
    } else {
        node->flags &= (uint8_t)~TNF_EXPANDED;
    }
}

bool calltree_is_tree_event(const struct trace *t, uint32_t ev)
{
    if (ev >= t->ev.n)
        return false;
    const struct event *e = &t->ev.v[ev];
    return (evk_is_host_span(e->kind) && e->ph == 'X') || evk_is_gpu(e->kind);
}

struct root_key {
    int64_t psort, pid, tsort, tid;
    uint32_t row;
};

static int root_cmp(const void *pa, const void *pb)
{
    const struct root_key *a = pa, *b = pb;
    if (a->psort != b->psort)
        return a->psort < b->psort ? -1 : 1;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    if (a->tsort != b->tsort)
        return a->tsort < b->tsort ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

/* Roots in display order: host threads with spans, then streams with
 * unlinked GPU work. Computed once: O(rows + GPU events). */
static void order_roots(struct calltree *ct)
{
    const struct trace *t = ct->t;
    size_t nr = t->rows.n;
    struct root_key *keys = xmalloc((nr + 1) * sizeof(*keys));
    size_t k = 0;
    for (uint32_t r = 0; r < nr; r++) {
        const struct row *row = &t->rows.v[r];
        /* Rows of captured copies hang under their graph launch. */
        if (row->cls == ROW_HOST && row->first_root != IDX_NONE &&
            (!t->grafts.n || capture_graft_launch(t, r) == IDX_NONE))
            keys[k++] =
                (struct root_key){row->process_sort, row->pid, row->thread_sort, row->tid, r};
    }
    sort_items(keys, k, sizeof(*keys), root_cmp);
    for (size_t i = 0; i < k; i++)
        VEC_PUSH(&ct->all_roots, ((struct ct_root){TN_THREAD, keys[i].row}));

    k = 0;
    for (uint32_t r = 0; r < nr; r++) {
        const struct row *row = &t->rows.v[r];
        if (row->cls != ROW_DEVICE)
            continue;
        bool any = false;
        for (uint32_t j = 0; j < row->nevents && !any; j++)
            any = ct_is_unlinked_gpu(&t->ev.v[row->order[j]]);
        if (any)
            keys[k++] =
                (struct root_key){row->process_sort, row->pid, row->thread_sort, row->tid, r};
    }
    sort_items(keys, k, sizeof(*keys), root_cmp);
    for (size_t i = 0; i < k; i++)
        VEC_PUSH(&ct->all_roots, ((struct ct_root){TN_UNLINKED, keys[i].row}));
    free(keys);
}

/* Drop every node and make the roots (those on a filter path when
 * filtered). The rows start again at the roots. */
static void make_roots(struct calltree *ct)
{
    ct->nodes.n = 0;
    ct->members.n = 0;
    for (size_t i = 0; i < ct->all_roots.n; i++) {
        const struct ct_root *r = &ct->all_roots.v[i];
        if (ct->filtered && !(ct->rowmark[r->row] & CT_MARK_PATH))
            continue;
        node_add(ct, r->kind, r->row, IDX_NONE, 0);
    }
    ct->nroots = (uint32_t)ct->nodes.n;
    if (ct->nroots)
        ct->nodes.v[ct->nroots - 1].flags |= TNF_LAST;
    ct_restart_rows(ct);
}

/* ------------------------------------------------------------------------ */
/* Children                                                                 */
/* ------------------------------------------------------------------------ */

static inline bool is_match_filtered(const struct calltree *ct, uint32_t ev)
{
    return ct->filtered && ct_is_match(ct, ev);
}

static inline bool keep_event(const struct calltree *ct, uint32_t ev, bool in)
{
    return !ct->filtered || in || ct_on_path(ct, ev);
}

static inline void emit(struct calltree *ct, uint32_t ev, bool in)
{
    VEC_PUSH(&ct->kids, ev);
    VEC_PUSH(&ct->kid_in, (uint8_t)in);
}

/* A sibling chain starting at `first`, with Python frames spliced out when
 * hidden. Iterative: Python nesting can be deep. The chain goes up in
 * pre-order numbers, so while filtered one cursor into the matches' numbers
 * answers "a match below?" for each node. */
static void collect_chain(struct calltree *ct, uint32_t first, bool in, size_t *cur)
{
    const struct trace *t = ct->t;
    size_t base = ct->stack.n;
    uint32_t c = first;
    for (;;) {
        while (c == IDX_NONE) {
            if (ct->stack.n == base)
                return;
            ct->stack.n -= 2;
            c = ct->stack.v[ct->stack.n];
            in = ct->stack.v[ct->stack.n + 1] != 0;
        }
        const struct event *e = &t->ev.v[c];
        uint32_t next = e->next_sibling;
        if (!ct_keep_at(ct, c, in, cur)) {
            c = in ? next : ct_next_kept(ct, next, cur);
            continue;
        }
        if (ct->hide_python && e->kind == EVK_PYTHON) {
            VEC_PUSH(&ct->stack, next);
            VEC_PUSH(&ct->stack, (uint32_t)in);
            in = in || (ct->filtered && ct_is_match(ct, c));
            c = e->first_child;
            continue;
        }
        emit(ct, c, in);
        c = next;
    }
}

/* The top-level spans of host row r, from the row's list (a walk of a
 * long sibling chain waits on memory at every step; a list does not);
 * `in`: below a filter match (rows of captured copies under their graph
 * launch). */
static void collect_tops(struct calltree *ct, uint32_t r, bool in)
{
    const struct trace *t = ct->t;
    size_t cur = 0;
    uint32_t lo = ct->tops_first[r], hi = ct->tops_first[r + 1];
    bool plain = (!ct->filtered || in) && !ct->hide_python;
    if (plain) {
        VEC_RESERVE(&ct->kids, ct->kids.n + (hi - lo));
        VEC_RESERVE(&ct->kid_in, ct->kid_in.n + (hi - lo));
    }
    for (uint32_t k = lo; k < hi; k++) {
        uint32_t c = ct->tops[k];
        if (plain) {
            emit(ct, c, in);
            continue;
        }
        /* A top-level span's numbers run to the next one's (a match of its
         * own is among them): no event needs reading to decide. */
        if (ct->filtered && !in) {
            uint32_t from = ct->tops_pre[k], end = k + 1 < hi ? ct->tops_pre[k + 1] : IDX_NONE;
            if (from == IDX_NONE)
                continue;
            if (end == IDX_NONE) {
                uint32_t l2;
                if (!gputime_span_range(ct->gt, c, &l2, &end))
                    continue;
            }
            cur = ct_fpos_from(ct, cur, from);
            if (cur >= ct->fpos.n || ct->fpos.v[cur] >= end)
                continue;
        }
        if (ct->hide_python && t->ev.v[c].kind == EVK_PYTHON)
            collect_chain(ct, t->ev.v[c].first_child, in || is_match_filtered(ct, c), &cur);
        else
            emit(ct, c, in);
    }
}

static void collect_event(struct calltree *ct, uint32_t ev, bool in)
{
    const struct trace *t = ct->t;
    size_t cur = 0;
    collect_chain(ct, t->ev.v[ev].first_child, in, &cur);
    /* A graph launch: the captured copies of its replay (capture.h), in
     * gputime's numbering order, then the GPU work left with it. */
    uint32_t ng = 0;
    const struct capture_graft *gr = t->grafts.n ? capture_grafts(t, ev, &ng) : NULL;
    for (uint32_t k = 0; k < ng; k++)
        collect_tops(ct, gr[k].row, in);
    const struct launch_info *li = ev_launch(t, ev);
    if (!li)
        return;
    for (uint32_t k = 0; k < li->gpu_count; k++) {
        uint32_t g = t->launch_gpu[li->gpu_first + k];
        if (keep_event(ct, g, in))
            emit(ct, g, in);
    }
}

static uint64_t group_key(const struct trace *t, uint32_t ev)
{
    return ((uint64_t)t->ev.v[ev].name << 8) | t->ev.v[ev].kind;
}

static uint8_t child_flags(const struct calltree *ct, uint32_t ev, bool in)
{
    uint8_t f = in ? TNF_INMATCH : 0;
    if (ct->filtered && ct_is_match(ct, ev))
        f |= TNF_MATCH;
    return f;
}

/* Turn ct->kids into child nodes of n, grouping when asked. */
static void make_children(struct calltree *ct, uint32_t n, bool allow_group)
{
    size_t nk = ct->kids.n;
    uint32_t depth = ct->nodes.v[n].depth + 1;
    uint32_t first = (uint32_t)ct->nodes.n;
    if (!allow_group || !ct->group || nk < 2) {
        for (size_t i = 0; i < nk; i++) {
            uint32_t c = node_add(ct, TN_EVENT, ct->kids.v[i], n, depth);
            ct->nodes.v[c].flags |= child_flags(ct, ct->kids.v[i], ct->kid_in.v[i]);
        }
    } else {
        /* grp[i]: index of the first kid with i's key; cnt at that index. */
        uint32_t *grp = xmalloc(nk * sizeof(uint32_t));
        uint32_t *cnt = xcalloc(nk, sizeof(uint32_t));
        if (nk <= 16) {
            for (size_t i = 0; i < nk; i++) {
                uint64_t key = group_key(ct->t, ct->kids.v[i]);
                size_t j = 0;
                while (j < i && group_key(ct->t, ct->kids.v[j]) != key)
                    j++;
                grp[i] = (uint32_t)j;
                cnt[j]++;
            }
        } else {
            struct hmap m;
            hmap_init(&m, nk);
            for (size_t i = 0; i < nk; i++) {
                grp[i] = hmap_put_first(&m, group_key(ct->t, ct->kids.v[i]), (uint32_t)i);
                cnt[grp[i]]++;
            }
            hmap_free(&m);
        }
        /* Member lists: offsets per group, then one fill pass. */
        uint32_t *off = xmalloc(nk * sizeof(uint32_t));
        size_t base = ct->members.n, total = 0;
        for (size_t i = 0; i < nk; i++)
            if (grp[i] == i && cnt[i] > 1) {
                off[i] = (uint32_t)(base + total);
                total += cnt[i];
            }
        VEC_RESERVE(&ct->members, base + total);
        ct->members.n = base + total;
        uint32_t *fill = xcalloc(nk, sizeof(uint32_t));
        for (size_t i = 0; i < nk; i++) {
            uint32_t g = grp[i];
            if (cnt[g] > 1)
                ct->members.v[off[g] + fill[g]++] = ct->kids.v[i];
        }
        for (size_t i = 0; i < nk; i++) {
            if (grp[i] != i)
                continue;
            uint32_t ev = ct->kids.v[i];
            if (cnt[i] == 1) {
                uint32_t c = node_add(ct, TN_EVENT, ev, n, depth);
                ct->nodes.v[c].flags |= child_flags(ct, ev, ct->kid_in.v[i]);
                continue;
            }
            uint32_t c = node_add(ct, TN_GROUP, ev, n, depth);
            struct tnode *gn = &ct->nodes.v[c];
            gn->members = off[i];
            gn->count = cnt[i];
            gn->flags |= ct->kid_in.v[i] ? TNF_INMATCH : 0;
            for (uint32_t k = 0; k < cnt[i] && ct->filtered; k++)
                if (ct_is_match(ct, ct->members.v[off[i] + k]))
                    gn->flags |= TNF_MATCH;
        }
        free(grp);
        free(cnt);
        free(off);
        free(fill);
    }
    struct tnode *pn = &ct->nodes.v[n];
    pn->first = first;
    pn->nkids = (uint32_t)(ct->nodes.n - first);
    pn->flags |= TNF_MATERIALIZED;
    if (pn->nkids)
        ct->nodes.v[ct->nodes.n - 1].flags |= TNF_LAST;
}

void ct_materialize(struct calltree *ct, uint32_t n)
{
    struct tnode *node = &ct->nodes.v[n];
    if (node->flags & TNF_MATERIALIZED)
        return;
    const struct trace *t = ct->t;
    ct->kids.n = 0;
    ct->kid_in.n = 0;
    bool in = (node->flags & (TNF_INMATCH | TNF_MATCH)) != 0;
    switch (node->kind) {
    case TN_THREAD:
        collect_tops(ct, node->ref, false);
        make_children(ct, n, true);
        break;
    case TN_UNLINKED: {
        const struct row *row = &t->rows.v[node->ref];
        for (uint32_t j = 0; j < row->nevents; j++) {
            uint32_t ev = row->order[j];
            if (ct_is_unlinked_gpu(&t->ev.v[ev]) && keep_event(ct, ev, false))
                emit(ct, ev, false);
        }
        make_children(ct, n, true);
        break;
    }
    case TN_EVENT:
        collect_event(ct, node->ref, in);
        make_children(ct, n, true);
        break;
    case TN_GROUP: {
        bool gin = (node->flags & TNF_INMATCH) != 0;
        for (uint32_t k = 0; k < node->count; k++)
            emit(ct, ct->members.v[node->members + k], gin);
        make_children(ct, n, false);
        break;
    }
    }
}

bool calltree_has_children(struct calltree *ct, uint32_t n)
{
    const struct tnode *node = &ct->nodes.v[n];
    if (node->flags & TNF_MATERIALIZED)
        return node->nkids > 0;
    if (node->kind != TN_EVENT)
        return true;
    const struct event *e = &ct->t->ev.v[node->ref];
    if (e->first_child != IDX_NONE)
        return true;
    uint32_t ng = 0;
    if (ct->t->grafts.n && capture_grafts(ct->t, node->ref, &ng))
        return true;
    const struct launch_info *li = ev_launch(ct->t, node->ref);
    return li && li->gpu_count > 0;
}

uint32_t calltree_event(const struct calltree *ct, uint32_t n)
{
    const struct tnode *node = &ct->nodes.v[n];
    return node->kind == TN_EVENT || node->kind == TN_GROUP ? node->ref : IDX_NONE;
}

const uint32_t *calltree_members(const struct calltree *ct, uint32_t n, uint32_t *count)
{
    const struct tnode *node = &ct->nodes.v[n];
    if (node->kind != TN_GROUP) {
        *count = 0;
        return NULL;
    }
    *count = node->count;
    return ct->members.v + node->members;
}

void calltree_name(const struct calltree *ct, uint32_t n, struct strbuf *out)
{
    const struct tnode *node = &ct->nodes.v[n];
    char buf[256];
    switch (node->kind) {
    case TN_THREAD:
        sb_puts(out, trace_row_label(ct->t, node->ref, buf, sizeof(buf)));
        break;
    case TN_UNLINKED:
        sb_printf(out, "unlinked %s work on ", devkind_name(ct->t->device_kind));
        sb_puts(out, trace_row_label(ct->t, node->ref, buf, sizeof(buf)));
        break;
    default: {
        uint32_t id = ct->t->ev.v[node->ref].name;
        sb_putn(out, trace_str(ct->t, id), strtab_len(&ct->t->strs, id));
        break;
    }
    }
}

/* ------------------------------------------------------------------------ */
/* Rebuilds                                                                 */
/* ------------------------------------------------------------------------ */

static uint64_t node_key(const struct tnode *n)
{
    switch (n->kind) {
    case TN_THREAD:
        return (1ULL << 62) | n->ref;
    case TN_UNLINKED:
        return (2ULL << 62) | n->ref;
    case TN_GROUP:
        return (3ULL << 62) | n->ref;
    default:
        return n->ref;
    }
}

/* Keys of the open nodes that are shown (rows complete): what a rebuild
 * opens again. Open nodes under closed ones are not kept, as a rebuild
 * could not reach them anyway. */
void ct_collect_keys(struct calltree *ct, struct hmap *m)
{
    calltree_finish(ct);
    size_t open = 0;
    for (size_t i = 0; i < ct->rows.n; i++)
        open += calltree_is_open(ct, ct->rows.v[i]);
    hmap_init(m, open + 1);
    for (size_t i = 0; i < ct->rows.n; i++)
        if (calltree_is_open(ct, ct->rows.v[i]))
            hmap_put(m, node_key(&ct->nodes.v[ct->rows.v[i]]), 1);
}

void ct_start_pass(struct calltree *ct, enum ct_pass_mode mode, uint32_t root)
{
    ct_end_pass(ct);
    if (++ct->pass == 0) {
        /* The stamp wrapped: forget every node's old stamp. */
        for (size_t i = 0; i < ct->nodes.n; i++)
            ct->nodes.v[i].visit = 0;
        ct->pass = 1;
    }
    ct->pass_mode = (uint8_t)mode;
    ct->pass_root = root;
}

void ct_end_pass(struct calltree *ct)
{
    if (ct->pass_mode == CTP_KEYS)
        hmap_free(&ct->pass_keys);
    ct->pass_mode = CTP_NONE;
    ct->pass_root = IDX_NONE;
}

bool ct_pass_wants(const struct calltree *ct, uint32_t n)
{
    const struct tnode *node = &ct->nodes.v[n];
    switch (ct->pass_mode) {
    case CTP_ALL:
        return true;
    case CTP_KEYS:
        return hmap_get(&ct->pass_keys, node_key(node)) != IDX_NONE;
    case CTP_FILTER:
        if (node->flags & (TNF_MATCH | TNF_INMATCH))
            return false;
        if (node->kind != TN_EVENT)
            return true;
        return ct_on_path(ct, node->ref);
    default:
        return false;
    }
}

/* Rebuild the nodes from the roots; the rows then open those in `keys`
 * (taken), or (keys NULL) those on a path to a filter match. */
void ct_rebuild(struct calltree *ct, struct hmap *keys)
{
    ct_start_pass(ct, keys ? CTP_KEYS : CTP_FILTER, IDX_NONE);
    if (keys)
        ct->pass_keys = *keys;
    make_roots(ct);
}

void calltree_set_options(struct calltree *ct, bool hide_python, bool group)
{
    if (ct->hide_python == hide_python && ct->group == group)
        return;
    struct hmap keys;
    ct_collect_keys(ct, &keys);
    ct->hide_python = hide_python;
    ct->group = group;
    ct_rebuild(ct, &keys);
}

/* ------------------------------------------------------------------------ */
/* Lifetime                                                                 */
/* ------------------------------------------------------------------------ */

/* The top-level spans of every host row, as lists (calltree.tops). */
static void list_tops(struct calltree *ct)
{
    const struct trace *t = ct->t;
    ct->tops_first = xcalloc(t->rows.n + 2, sizeof(uint32_t));
    VEC(uint32_t) tops = {0};
    for (uint32_t r = 0; r < t->rows.n; r++) {
        ct->tops_first[r] = (uint32_t)tops.n;
        for (uint32_t x = t->rows.v[r].first_root; x != IDX_NONE; x = t->ev.v[x].next_sibling)
            VEC_PUSH(&tops, x);
    }
    ct->tops_first[t->rows.n] = (uint32_t)tops.n;
    ct->tops = tops.v;
    ct->tops_pre = xmalloc((tops.n + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < tops.n; k++) {
        uint32_t lo = IDX_NONE, hi;
        if (!gputime_span_range(ct->gt, tops.v[k], &lo, &hi))
            lo = IDX_NONE;
        ct->tops_pre[k] = lo;
    }
}

struct calltree *calltree_new(const struct trace *t, struct gputime *gt)
{
    struct calltree *ct = xcalloc(1, sizeof(*ct));
    ct->t = t;
    ct->gt = gt;
    ct->total_gpu = CT_UNKNOWN;
    ct->epoch = 1;
    ct->pass_root = IDX_NONE;
    /* Room for every event as a node and a row: the memory is only touched
     * as nodes are made, and opening everything then never copies. */
    VEC_RESERVE(&ct->nodes, t->ev.n + t->rows.n + 1);
    VEC_RESERVE(&ct->rows, t->ev.n + t->rows.n + 1);
    ct->row_cpu = xmalloc((t->rows.n + 1) * sizeof(int64_t));
    ct->row_gpu = xmalloc((t->rows.n + 1) * sizeof(int64_t));
    ct->row_spans = xcalloc(t->rows.n + 1, sizeof(uint32_t));
    for (size_t r = 0; r <= t->rows.n; r++)
        ct->row_cpu[r] = ct->row_gpu[r] = CT_UNKNOWN;
    hmap_init(&ct->group_times, 64);
    order_roots(ct);
    list_tops(ct);
    ct_filter_init(ct);
    make_roots(ct);
    calltree_ensure(ct, ct->nroots);
    return ct;
}

void calltree_free(struct calltree *ct)
{
    if (!ct)
        return;
    ct_filter_stop(ct); /* its thread reads the trace and gputime */
    ct_end_pass(ct);
    VEC_FREE(&ct->nodes);
    VEC_FREE(&ct->members);
    VEC_FREE(&ct->rows);
    VEC_FREE(&ct->gen);
    VEC_FREE(&ct->all_roots);
    VEC_FREE(&ct->kids);
    VEC_FREE(&ct->kid_in);
    VEC_FREE(&ct->stack);
    VEC_FREE(&ct->ins);
    VEC_FREE(&ct->iv);
    ct_filter_free(ct);
    free(ct->row_cpu);
    free(ct->row_gpu);
    free(ct->row_spans);
    hmap_free(&ct->group_times);
    VEC_FREE(&ct->gtimes);
    free(ct->tops);
    free(ct->tops_pre);
    free(ct->tops_first);
    if (ct->have_saved) {
        hmap_free(&ct->saved_unfiltered);
        ct->have_saved = false;
    }
    free(ct);
}
