/* The explorer's call tree: nodes and their lazily made children,
 * grouping, Python hiding, filters, times and rebuilds. The visible rows,
 * reveal and search are in calltree_rows.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/u64map.h"
#include "tui/calltree.h"
#include "tui/calltree_internal.h"

/* ------------------------------------------------------------------------ */
/* Nodes                                                                    */
/* ------------------------------------------------------------------------ */

static uint32_t node_add(struct calltree *ct, uint8_t kind, uint32_t ref, uint32_t parent,
                         uint32_t depth)
{
    struct tnode *n = VEC_ADD(&ct->nodes);
    n->kind = kind;
    n->ref = ref;
    n->parent = parent;
    n->first = IDX_NONE;
    n->count = 1;
    n->depth = depth;
    n->cpu = CT_UNKNOWN;
    n->gpu = CT_UNKNOWN;
    return (uint32_t)(ct->nodes.n - 1);
}

bool calltree_is_tree_event(const struct trace *t, uint32_t ev)
{
    if (ev >= t->ev.n)
        return false;
    const struct event *e = &t->ev.v[ev];
    return (evk_is_host_span(e->kind) && e->ph == 'X') || evk_is_gpu(e->kind);
}

static bool is_unlinked_gpu(const struct event *e)
{
    return evk_is_gpu(e->kind) && !(e->flags & EVF_LINKED);
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
 * unlinked GPU work. Kept in ct->stack between calls would be fragile, so
 * they are recomputed; it is O(rows + events) and only runs on rebuilds. */
static void make_roots(struct calltree *ct)
{
    const struct trace *t = ct->t;
    ct->nodes.n = 0;
    ct->members.n = 0;
    ct->rows.n = 0;
    size_t nr = t->rows.n;
    struct root_key *keys = xmalloc((nr + 1) * sizeof(*keys));
    size_t k = 0;
    for (uint32_t r = 0; r < nr; r++) {
        const struct row *row = &t->rows.v[r];
        if (row->cls != ROW_HOST || row->first_root == IDX_NONE)
            continue;
        if (ct->filtered && !(ct->rowmark[r] & CT_MARK_PATH))
            continue;
        keys[k++] = (struct root_key){row->process_sort, row->pid, row->thread_sort, row->tid, r};
    }
    qsort(keys, k, sizeof(*keys), root_cmp);
    for (size_t i = 0; i < k; i++)
        node_add(ct, TN_THREAD, keys[i].row, IDX_NONE, 0);

    k = 0;
    for (uint32_t r = 0; r < nr; r++) {
        const struct row *row = &t->rows.v[r];
        if (row->cls != ROW_DEVICE)
            continue;
        if (ct->filtered && !(ct->rowmark[r] & CT_MARK_PATH))
            continue;
        bool any = false;
        for (uint32_t j = 0; j < row->nevents && !any; j++)
            any = is_unlinked_gpu(&t->ev.v[row->order[j]]);
        if (any)
            keys[k++] =
                (struct root_key){row->process_sort, row->pid, row->thread_sort, row->tid, r};
    }
    qsort(keys, k, sizeof(*keys), root_cmp);
    for (size_t i = 0; i < k; i++)
        node_add(ct, TN_UNLINKED, keys[i].row, IDX_NONE, 0);
    free(keys);
    ct->nroots = (uint32_t)ct->nodes.n;
    if (ct->nroots)
        ct->nodes.v[ct->nroots - 1].flags |= TNF_LAST;
}

/* ------------------------------------------------------------------------ */
/* Children                                                                 */
/* ------------------------------------------------------------------------ */

static inline bool keep_event(const struct calltree *ct, uint32_t ev, bool in)
{
    return !ct->filtered || in || (ct->mark[ev] & CT_MARK_PATH);
}

static inline void emit(struct calltree *ct, uint32_t ev, bool in)
{
    VEC_PUSH(&ct->kids, ev);
    VEC_PUSH(&ct->kid_in, (uint8_t)in);
}

/* A sibling chain starting at `first`, with Python frames spliced out when
 * hidden. Iterative: Python nesting can be deep. */
static void collect_chain(struct calltree *ct, uint32_t first, bool in)
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
        if (!keep_event(ct, c, in)) {
            c = next;
            continue;
        }
        if (ct->hide_python && e->kind == EVK_PYTHON) {
            VEC_PUSH(&ct->stack, next);
            VEC_PUSH(&ct->stack, (uint32_t)in);
            in = in || (ct->filtered && (ct->mark[c] & CT_MARK_MATCH));
            c = e->first_child;
            continue;
        }
        emit(ct, c, in);
        c = next;
    }
}

static void collect_event(struct calltree *ct, uint32_t ev, bool in)
{
    const struct trace *t = ct->t;
    collect_chain(ct, t->ev.v[ev].first_child, in);
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
    if (ct->filtered && (ct->mark[ev] & CT_MARK_MATCH))
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
            struct u64map m;
            u64map_init(&m, nk);
            for (size_t i = 0; i < nk; i++) {
                grp[i] = u64map_put_first(&m, group_key(ct->t, ct->kids.v[i]), (uint32_t)i);
                cnt[grp[i]]++;
            }
            u64map_free(&m);
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
                if (ct->mark[ct->members.v[off[i] + k]] & CT_MARK_MATCH)
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
        collect_chain(ct, t->rows.v[node->ref].first_root, false);
        make_children(ct, n, true);
        break;
    case TN_UNLINKED: {
        const struct row *row = &t->rows.v[node->ref];
        for (uint32_t j = 0; j < row->nevents; j++) {
            uint32_t ev = row->order[j];
            if (is_unlinked_gpu(&t->ev.v[ev]) && keep_event(ct, ev, false))
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
        sb_puts(out, row_label(ct->t, node->ref, buf, sizeof(buf)));
        break;
    case TN_UNLINKED:
        sb_puts(out, "unlinked GPU work on ");
        sb_puts(out, row_label(ct->t, node->ref, buf, sizeof(buf)));
        break;
    default: {
        uint32_t id = ct->t->ev.v[node->ref].name;
        sb_putn(out, trace_str(ct->t, id), strtab_len(&ct->t->strs, id));
        break;
    }
    }
}

/* ------------------------------------------------------------------------ */
/* Times                                                                    */
/* ------------------------------------------------------------------------ */

static void add_gpu_ivals(struct calltree *ct, uint32_t ev)
{
    const struct event *e = &ct->t->ev.v[ev];
    if (evk_is_gpu(e->kind)) {
        VEC_PUSH(&ct->iv, ((struct ival){e->ts, ev_end(e)}));
        return;
    }
    uint32_t cnt;
    const uint32_t *evs = gputime_subtree_events(ct->gt, ev, &cnt);
    VEC_RESERVE(&ct->iv, ct->iv.n + cnt);
    for (uint32_t k = 0; k < cnt; k++) {
        const struct event *g = &ct->t->ev.v[evs[k]];
        ct->iv.v[ct->iv.n++] = (struct ival){g->ts, ev_end(g)};
    }
}

static int64_t union_now(struct calltree *ct)
{
    int64_t len = ival_union_length(ct->iv.v, ct->iv.n);
    ct->iv.n = 0;
    return len;
}

int64_t calltree_gpu(struct calltree *ct, uint32_t n)
{
    struct tnode *node = &ct->nodes.v[n];
    if (node->gpu != CT_UNKNOWN)
        return node->gpu;
    const struct trace *t = ct->t;
    int64_t v = 0;
    ct->iv.n = 0;
    switch (node->kind) {
    case TN_EVENT: {
        const struct event *e = &t->ev.v[node->ref];
        v = evk_is_gpu(e->kind) ? e->dur : gputime_subtree(ct->gt, node->ref, true);
        break;
    }
    case TN_GROUP:
        for (uint32_t k = 0; k < node->count; k++)
            add_gpu_ivals(ct, ct->members.v[node->members + k]);
        v = union_now(ct);
        break;
    case TN_THREAD:
        for (uint32_t r = t->rows.v[node->ref].first_root; r != IDX_NONE;
             r = t->ev.v[r].next_sibling)
            add_gpu_ivals(ct, r);
        v = union_now(ct);
        break;
    case TN_UNLINKED: {
        const struct row *row = &t->rows.v[node->ref];
        for (uint32_t j = 0; j < row->nevents; j++)
            if (is_unlinked_gpu(&t->ev.v[row->order[j]]))
                add_gpu_ivals(ct, row->order[j]);
        v = union_now(ct);
        break;
    }
    }
    ct->nodes.v[n].gpu = v;
    return v;
}

int64_t calltree_cpu(struct calltree *ct, uint32_t n)
{
    struct tnode *node = &ct->nodes.v[n];
    if (node->cpu != CT_UNKNOWN)
        return node->cpu;
    const struct trace *t = ct->t;
    int64_t v = -1;
    switch (node->kind) {
    case TN_EVENT:
        if (!evk_is_gpu(t->ev.v[node->ref].kind))
            v = t->ev.v[node->ref].dur;
        break;
    case TN_GROUP:
        if (!evk_is_gpu(t->ev.v[node->ref].kind)) {
            v = 0;
            for (uint32_t k = 0; k < node->count; k++)
                v += t->ev.v[ct->members.v[node->members + k]].dur;
        }
        break;
    case TN_THREAD:
        v = 0;
        for (uint32_t r = t->rows.v[node->ref].first_root; r != IDX_NONE;
             r = t->ev.v[r].next_sibling)
            v += t->ev.v[r].dur;
        break;
    case TN_UNLINKED:
        break;
    }
    node->cpu = v;
    return v;
}

int64_t calltree_parent_gpu(struct calltree *ct, uint32_t n)
{
    uint32_t p = ct->nodes.v[n].parent;
    if (p != IDX_NONE)
        return calltree_gpu(ct, p);
    if (ct->total_gpu == CT_UNKNOWN) {
        ct->iv.n = 0;
        for (uint32_t i = 0; i < ct->t->ev.n; i++) {
            const struct event *e = &ct->t->ev.v[i];
            if (evk_is_gpu(e->kind))
                VEC_PUSH(&ct->iv, ((struct ival){e->ts, ev_end(e)}));
        }
        ct->total_gpu = union_now(ct);
    }
    return ct->total_gpu;
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

static void collect_keys(const struct calltree *ct, struct u64map *m)
{
    size_t open = 0;
    for (size_t i = 0; i < ct->nodes.n; i++)
        open += (ct->nodes.v[i].flags & TNF_EXPANDED) != 0;
    u64map_init(m, open + 1);
    for (size_t i = 0; i < ct->nodes.n; i++)
        if (ct->nodes.v[i].flags & TNF_EXPANDED)
            u64map_put(m, node_key(&ct->nodes.v[i]), 1);
}

/* Rebuild the nodes from the roots, opening those in `keys`, or (keys
 * NULL) those on a path to a filter match. */
static void rebuild(struct calltree *ct, const struct u64map *keys)
{
    make_roots(ct);
    VEC(uint32_t) todo = {0};
    for (uint32_t r = ct->nroots; r-- > 0;)
        VEC_PUSH(&todo, r);
    while (todo.n) {
        uint32_t n = todo.v[--todo.n];
        const struct tnode *node = &ct->nodes.v[n];
        bool open;
        if (keys)
            open = u64map_get(keys, node_key(node)) != IDX_NONE;
        else if (node->flags & (TNF_MATCH | TNF_INMATCH))
            open = false;
        else if (node->kind == TN_THREAD || node->kind == TN_UNLINKED)
            open = true;
        else if (node->kind == TN_GROUP)
            open = true;
        else
            open = (ct->mark[node->ref] & CT_MARK_PATH) != 0;
        if (!open)
            continue;
        ct_materialize(ct, n);
        node = &ct->nodes.v[n];
        if (!node->nkids)
            continue;
        ct->nodes.v[n].flags |= TNF_EXPANDED;
        for (uint32_t k = node->nkids; k-- > 0;)
            VEC_PUSH(&todo, node->first + k);
    }
    VEC_FREE(&todo);
    ct_flatten_all(ct);
}

void calltree_set_options(struct calltree *ct, bool hide_python, bool group)
{
    if (ct->hide_python == hide_python && ct->group == group)
        return;
    struct u64map keys;
    collect_keys(ct, &keys);
    ct->hide_python = hide_python;
    ct->group = group;
    rebuild(ct, &keys);
    u64map_free(&keys);
}

size_t calltree_set_filter(struct calltree *ct, const uint32_t *events, size_t n)
{
    const struct trace *t = ct->t;
    if (!events) {
        if (!ct->filtered)
            return 0;
        ct->filtered = false;
        if (ct->have_saved) {
            rebuild(ct, &ct->saved_unfiltered);
            u64map_free(&ct->saved_unfiltered);
            ct->have_saved = false;
        } else {
            struct u64map keys;
            collect_keys(ct, &keys);
            rebuild(ct, &keys);
            u64map_free(&keys);
        }
        return 0;
    }
    if (!ct->filtered && !ct->have_saved) {
        collect_keys(ct, &ct->saved_unfiltered);
        ct->have_saved = true;
    }
    if (!ct->mark) {
        ct->mark = xmalloc(t->ev.n + 1);
        ct->rowmark = xmalloc(t->rows.n + 1);
    }
    memset(ct->mark, 0, t->ev.n + 1);
    memset(ct->rowmark, 0, t->rows.n + 1);
    size_t matches = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = events[i];
        if (!calltree_is_tree_event(t, x) || (ct->mark[x] & CT_MARK_MATCH))
            continue;
        matches++;
        ct->mark[x] |= CT_MARK_MATCH;
        for (;;) {
            if (ct->mark[x] & CT_MARK_PATH)
                break;
            ct->mark[x] |= CT_MARK_PATH;
            const struct event *e = &t->ev.v[x];
            uint32_t p;
            if (evk_is_gpu(e->kind)) {
                const struct gpu_info *g = ev_gpu(t, x);
                p = (e->flags & EVF_LINKED) && g ? g->launch : IDX_NONE;
            } else {
                p = e->parent;
            }
            if (p == IDX_NONE) {
                ct->rowmark[e->row] |= CT_MARK_PATH;
                break;
            }
            x = p;
        }
    }
    ct->filtered = true;
    rebuild(ct, NULL);
    return matches;
}

/* ------------------------------------------------------------------------ */
/* Lifetime                                                                 */
/* ------------------------------------------------------------------------ */

struct calltree *calltree_new(const struct trace *t, struct gputime *gt)
{
    struct calltree *ct = xcalloc(1, sizeof(*ct));
    ct->t = t;
    ct->gt = gt;
    ct->total_gpu = CT_UNKNOWN;
    /* Room for every event as a node and a row: the memory is only touched
     * as nodes are made, and opening everything then never copies. */
    VEC_RESERVE(&ct->nodes, t->ev.n + t->rows.n + 1);
    VEC_RESERVE(&ct->rows, t->ev.n + t->rows.n + 1);
    make_roots(ct);
    ct_flatten_all(ct);
    return ct;
}

void calltree_free(struct calltree *ct)
{
    if (!ct)
        return;
    VEC_FREE(&ct->nodes);
    VEC_FREE(&ct->members);
    VEC_FREE(&ct->rows);
    VEC_FREE(&ct->kids);
    VEC_FREE(&ct->kid_in);
    VEC_FREE(&ct->stack);
    VEC_FREE(&ct->ins);
    VEC_FREE(&ct->iv);
    free(ct->mark);
    free(ct->rowmark);
    if (ct->have_saved) {
        u64map_free(&ct->saved_unfiltered);
        ct->have_saved = false;
    }
    free(ct);
}
