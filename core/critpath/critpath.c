/* HTA's critical path graph of a region and its longest path. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/critpath/critpath.h"

/* ------------------------------------------------------------------------ */
/* Building blocks                                                          */
/* ------------------------------------------------------------------------ */

/* What building one region's graph works on: the rows of its clip, by
 * their index in it (a region's own size, whatever the trace's). */
struct builder {
    struct cp_graph *g;
    const struct cp_row *rows;
    uint32_t *clip; /* frame rows of the clip, ascending */
    size_t nclip;
    uint32_t *node_start, *node_end; /* per clip index, IDX_NONE */
};

/* The clip index of frame row `row`, IDX_NONE when it is not in the clip. */
static uint32_t clip_index(const struct builder *b, uint32_t row)
{
    size_t lo = 0, hi = b->nclip;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->clip[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->nclip && b->clip[lo] == row ? (uint32_t)lo : IDX_NONE;
}

/* The start and end nodes of frame row `row`, IDX_NONE when it has none. */
static uint32_t start_of(const struct builder *b, int64_t row)
{
    uint32_t k = row >= 0 ? clip_index(b, (uint32_t)row) : IDX_NONE;
    return k == IDX_NONE ? IDX_NONE : b->node_start[k];
}
static uint32_t end_of(const struct builder *b, int64_t row)
{
    uint32_t k = row >= 0 ? clip_index(b, (uint32_t)row) : IDX_NONE;
    return k == IDX_NONE ? IDX_NONE : b->node_end[k];
}

/* Add an edge; an edge between the same two nodes replaces the first one's
 * type and weight in its place (networkx's add_edge). Returns its index. */
static uint32_t add_edge(struct builder *b, uint32_t src, uint32_t dst, enum cp_edge_type type,
                         bool zero_weight)
{
    struct cp_graph *g = b->g;
    if (src == dst || src == IDX_NONE || dst == IDX_NONE)
        return IDX_NONE;
    int64_t w = (type == CPE_DEPENDENCY || type == CPE_SYNC || zero_weight)
                    ? 0
                    : g->nodes.v[dst].ts - g->nodes.v[src].ts;
    for (uint32_t e = g->nodes.v[dst].in_head; e != IDX_NONE; e = g->edges.v[e].next_in)
        if (g->edges.v[e].src == src) {
            g->edges.v[e].type = (uint8_t)type;
            g->edges.v[e].span = w;
            g->edges.v[e].weight = w < 0 ? 0 : w;
            return e;
        }
    struct cp_edge ed = {w < 0 ? 0 : w,           w,        src,          dst,
                         g->nodes.v[dst].in_head, IDX_NONE, (uint8_t)type};
    VEC_PUSH(&g->edges, ed);
    g->nodes.v[dst].in_head = (uint32_t)(g->edges.n - 1);
    return (uint32_t)(g->edges.n - 1);
}

/* HTA's attribution of an operator or kernel-kernel edge to an event:
 * the source's when it starts, the destination's when it ends, else (an end
 * followed by a start) the parent the two share. */
static void attribute(struct builder *b, uint32_t e, int64_t src_parent)
{
    if (e == IDX_NONE)
        return;
    struct cp_edge *ed = &b->g->edges.v[e];
    if (ed->type != CPE_OPERATOR && ed->type != CPE_KERNEL_KERNEL)
        return;
    const struct cp_node *s = &b->g->nodes.v[ed->src], *d = &b->g->nodes.v[ed->dst];
    if (ed->type == CPE_KERNEL_KERNEL || s->is_start)
        ed->attr = s->row;
    else if (!d->is_start)
        ed->attr = d->row;
    else
        ed->attr = src_parent >= 0 ? (uint32_t)src_parent : IDX_NONE;
}

/* ------------------------------------------------------------------------ */
/* Region and nodes                                                         */
/* ------------------------------------------------------------------------ */

static bool region_window(const struct cp_frame *f, const char *ann, unsigned inst, int64_t *s,
                          int64_t *e, char *err)
{
    const struct cp_row *rows = f->rows.v;
    if (!ann[0]) {
        *s = INT64_MAX;
        *e = INT64_MIN;
        for (size_t i = 0; i < f->rows.n; i++) {
            if (rows[i].ts < *s)
                *s = rows[i].ts;
            if (rows[i].ts + rows[i].dur > *e)
                *e = rows[i].ts + rows[i].dur;
        }
        if (f->rows.n)
            return true;
        snprintf(err, 256, "the trace has no events");
        return false;
    }
    /* A name containing the annotation contains "ProfilerStep" when the
     * annotation does: its first instance is the first row of one of the
     * step names (cp_frame's step_firsts), without a pass over the rows. */
    if (inst == 0 && strstr(ann, "ProfilerStep")) {
        uint32_t first = IDX_NONE;
        for (size_t k = 0; k < f->nstep_firsts; k++)
            if (f->step_firsts[k].row < first &&
                strstr(trace_str(f->t, f->step_firsts[k].name), ann))
                first = f->step_firsts[k].row;
        if (first != IDX_NONE) {
            *s = rows[first].ts;
            *e = rows[first].ts + rows[first].dur;
            return true;
        }
    }
    unsigned k = 0;
    for (size_t i = 0; i < f->rows.n; i++)
        if (strstr(trace_str(f->t, rows[i].name), ann) && k++ == inst) {
            *s = rows[i].ts;
            *e = rows[i].ts + rows[i].dur;
            return true;
        }
    if (k)
        snprintf(err, 256, "annotation '%.80s' has %u instance%s, not %u", ann, k,
                 k == 1 ? "" : "s", inst + 1);
    else
        snprintf(err, 256, "no annotation '%.80s' in the trace", ann);
    return false;
}

static inline bool u32_less(const uint32_t *a, const uint32_t *b)
{
    return *a < *b;
}
SORT_DEFINE(u32_sort, uint32_t, u32_less)

/* HTA's clipped frame: host rows that start in the window and last, GPU
 * rows launched by such a host row, and every Stream Wait Event; found
 * through the frame's host rows by time, in the order of the rows. */
static void clip(struct builder *b, int64_t s, int64_t e)
{
    const struct cp_frame *f = b->g->f;
    const uint32_t *by_ts = f->host_by_ts;
    size_t lo = 0, hi = f->nhost;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->rows[by_ts[mid]].ts < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    VEC(uint32_t) c = {0};
    for (size_t k = lo; k < f->nhost && b->rows[by_ts[k]].ts <= e; k++) {
        const struct cp_row *r = &b->rows[by_ts[k]];
        if (r->dur <= 0)
            continue;
        VEC_PUSH(&c, by_ts[k]);
        if (r->ic >= 0 && b->rows[r->ic].stream != -1)
            VEC_PUSH(&c, (uint32_t)r->ic);
    }
    for (size_t k = 0; k < f->nstream_waits; k++)
        VEC_PUSH(&c, f->stream_waits[k]);
    u32_sort(c.v, c.n);
    size_t m = 0;
    for (size_t k = 0; k < c.n; k++)
        if (!m || c.v[m - 1] != c.v[k])
            c.v[m++] = c.v[k];
    b->clip = c.v;
    b->nclip = m;
    b->node_start = xmalloc((m + 1) * sizeof(uint32_t));
    b->node_end = xmalloc((m + 1) * sizeof(uint32_t));
    memset(b->node_start, 0xff, (m + 1) * sizeof(uint32_t));
    memset(b->node_end, 0xff, (m + 1) * sizeof(uint32_t));
}

struct nsort {
    int64_t ts;
    uint32_t row;
    uint32_t local : 31; /* clip index */
    uint32_t is_start : 1;
};
static inline bool nsort_less(const struct nsort *a, const struct nsort *b)
{
    if (a->ts != b->ts)
        return a->ts < b->ts;
    if (a->row != b->row)
        return a->row < b->row;
    return a->is_start > b->is_start;
}
SORT_DEFINE(nsort_sort, struct nsort, nsort_less)

/* Two nodes per op, runtime call and GPU row of the clip, ordered by time,
 * then by row (a zero-length event's start before its end). */
static void make_nodes(struct builder *b)
{
    VEC(struct nsort) ns = {0};
    for (int pass = 1; pass >= 0; pass--)
        for (size_t k = 0; k < b->nclip; k++) {
            uint32_t i = b->clip[k];
            const struct cp_row *r = &b->rows[i];
            if (!((r->flags & (CPR_OP_OR_RUNTIME | CPR_DATA_LOAD)) ||
                  (r->stream != -1 && r->ic != CP_IC_NONE)))
                continue;
            VEC_PUSH(&ns, ((struct nsort){pass ? r->ts : r->ts + r->dur, i, (uint32_t)k,
                                          (uint32_t)pass}));
        }
    nsort_sort(ns.v, ns.n);
    VEC_RESERVE(&b->g->nodes, ns.n);
    for (size_t k = 0; k < ns.n; k++) {
        struct cp_node n = {ns.v[k].ts, ns.v[k].row, IDX_NONE, ns.v[k].is_start};
        VEC_PUSH(&b->g->nodes, n);
        (ns.v[k].is_start ? b->node_start : b->node_end)[ns.v[k].local] = (uint32_t)k;
    }
    VEC_FREE(&ns);
}

/* ------------------------------------------------------------------------ */
/* The CUDA runtime lock                                                    */
/* ------------------------------------------------------------------------ */

static bool holds_lock(const struct builder *b, uint32_t node)
{
    return (b->rows[b->g->nodes.v[node].row].flags & CPR_RUNTIME_LOCK) != 0;
}

/* Two consecutive nodes of one thread share the lock unless they are the
 * end of one call and the start of the next: the lock pass links them. */
static bool shares_lock(const struct builder *b, uint32_t first, uint32_t second)
{
    return holds_lock(b, first) && holds_lock(b, second) &&
           (b->g->nodes.v[first].is_start || !b->g->nodes.v[second].is_start);
}

/* Calls that take the runtime's lock run one at a time, across threads:
 * in time order, each end closes every call started and not yet closed
 * (its own start by its span, the others by a dependency), and follows
 * the previous end. */
static void runtime_lock(struct builder *b)
{
    const struct cp_graph *g = b->g;
    VEC(uint32_t) open = {0};
    uint32_t last = IDX_NONE;
    for (size_t k = 0; k < g->nodes.n; k++) {
        uint32_t v = (uint32_t)k;
        if (!holds_lock(b, v))
            continue;
        uint32_t row = g->nodes.v[v].row;
        if (g->nodes.v[v].is_start) {
            VEC_PUSH(&open, v);
        } else {
            while (open.n) {
                uint32_t u = open.v[--open.n];
                if (g->nodes.v[u].row == row)
                    attribute(b, add_edge(b, u, v, CPE_OPERATOR, false), row);
                else
                    add_edge(b, u, v, CPE_DEPENDENCY, false);
            }
            if (last != IDX_NONE && !g->nodes.v[last].is_start)
                add_edge(b, last, v, CPE_DEPENDENCY, false);
        }
        last = v;
    }
    VEC_FREE(&open);
}

/* ------------------------------------------------------------------------ */
/* CPU call stacks                                                          */
/* ------------------------------------------------------------------------ */

struct sev {
    int64_t time, dur;
    uint32_t row;
    int8_t type; /* +1 start, -1 end */
};

/* HTA's compare_events: time; at equal times ends before starts when both
 * last, longer starts first, shorter ends first, then by index. */
static int sev_cmp(const void *pa, const void *pb)
{
    const struct sev *x = pa, *y = pb;
    if (x->row == y->row)
        return x->type == 1 ? -1 : 1;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->type == y->type) {
        if (x->dur == y->dur) {
            int r = x->row < y->row ? -1 : 1;
            return x->type == 1 ? r : -r;
        }
        if (x->type == 1)
            return x->dur < y->dur ? 1 : -1;
        return x->dur < y->dur ? -1 : 1;
    }
    if (x->dur > 0 && y->dur > 0)
        return x->type == 1 ? 1 : -1;
    if (x->dur == 0 && y->dur == 0)
        return x->row < y->row ? -1 : 1;
    return x->type == 1 ? -1 : 1;
}

struct snode {
    uint32_t row;
    uint32_t parent, first_child, last_child, next; /* local indices, IDX_NONE */
};

/* One thread's stack: the tree HTA's CallStackGraph builds (an end pops the
 * top of the stack, whichever event it is), walked depth first with HTA's
 * enter and exit steps. `rows` are clip indices, ascending (the order of
 * the frame's rows). */
static void thread_stack(struct builder *b, const uint32_t *rows, size_t n)
{
    struct sev *ev = xmalloc(2 * n * sizeof(*ev));
    struct snode *sn = xmalloc((n + 1) * sizeof(*sn));
    for (size_t i = 0; i < n; i++) {
        const struct cp_row *r = &b->rows[b->clip[rows[i]]];
        int64_t d = r->dur > 0 ? r->dur : 0;
        ev[2 * i] = (struct sev){r->ts, d, rows[i], 1};
        ev[2 * i + 1] = (struct sev){r->ts + d, d, rows[i], -1};
    }
    qsort(ev, 2 * n, sizeof(*ev), sev_cmp);
    /* root is local n */
    sn[n] = (struct snode){IDX_NONE, IDX_NONE, IDX_NONE, IDX_NONE, IDX_NONE};
    size_t depth = 0, m = 0;
    uint32_t *stack = xmalloc((2 * n + 1) * sizeof(*stack));
    for (size_t k = 0; k < 2 * n; k++) {
        if (ev[k].type == 1) {
            uint32_t p = depth ? stack[depth - 1] : (uint32_t)n;
            uint32_t me = (uint32_t)m++;
            sn[me] = (struct snode){ev[k].row, p, IDX_NONE, IDX_NONE, IDX_NONE};
            if (sn[p].last_child == IDX_NONE)
                sn[p].first_child = me;
            else
                sn[sn[p].last_child].next = me;
            sn[p].last_child = me;
            stack[depth++] = me;
        } else if (depth) {
            depth--;
        }
    }
    free(ev);

    /* Depth-first walk. State as HTA's closure keeps it. */
    uint32_t last_node = IDX_NONE;
    int op_depth = 0;
    int64_t last_parent = -1;
    const struct cp_node *nodes = b->g->nodes.v;
    depth = 0;
    uint32_t *it = xmalloc((n + 2) * sizeof(*it)); /* next child to visit per level */
    stack[depth] = (uint32_t)n;
    it[depth++] = sn[n].first_child;
    while (depth) {
        uint32_t cur = stack[depth - 1];
        uint32_t child = it[depth - 1];
        if (child != IDX_NONE) {
            it[depth - 1] = sn[child].next;
            /* enter child */
            uint32_t loc = sn[child].row;
            int64_t parent =
                sn[child].parent == n ? -1 : (int64_t)b->clip[sn[sn[child].parent].row];
            uint32_t s = b->node_start[loc], e = b->node_end[loc];
            if (s != IDX_NONE && e != IDX_NONE) {
                if (last_node != IDX_NONE && !shares_lock(b, last_node, s))
                    attribute(
                        b,
                        add_edge(b, last_node, s, op_depth ? CPE_OPERATOR : CPE_DEPENDENCY, false),
                        last_parent);
                last_node = s;
                last_parent = parent;
                op_depth++;
            }
            stack[depth] = child;
            it[depth++] = sn[child].first_child;
            continue;
        }
        /* exit cur */
        depth--;
        if (cur == n)
            break;
        uint32_t loc = sn[cur].row;
        int64_t parent = sn[cur].parent == n ? -1 : (int64_t)b->clip[sn[sn[cur].parent].row];
        uint32_t s = b->node_start[loc], e = b->node_end[loc];
        if (s == IDX_NONE || e == IDX_NONE)
            continue;
        if (last_node != IDX_NONE && !shares_lock(b, last_node, e))
            attribute(b,
                      add_edge(b, last_node, e, CPE_OPERATOR,
                               (b->rows[nodes[s].row].flags & CPR_BLOCKING) != 0),
                      last_parent);
        last_node = e;
        last_parent = parent;
        op_depth--;
    }
    free(it);
    free(stack);
    free(sn);
}

struct thread_pos {
    int64_t pid, tid;
    uint32_t row; /* clip index */
};
static inline bool thread_less(const struct thread_pos *a, const struct thread_pos *b)
{
    return a->pid < b->pid || (a->pid == b->pid && a->tid < b->tid);
}
SORT_DEFINE(thread_sort, struct thread_pos, thread_less)

/* The one thread of the clip with an op or annotation whose name contains
 * `word`; -1 when none or several. */
static int64_t thread_of(const struct builder *b, const char *word)
{
    const struct cp_frame *f = b->g->f;
    int64_t tid = -1;
    bool found = false;
    for (size_t k = 0; k < b->nclip; k++) {
        const struct cp_row *r = &b->rows[b->clip[k]];
        if (!(r->flags & CPR_OP_OR_ANNOTATION) || !strstr(trace_str(f->t, r->name), word))
            continue;
        if (found && cp_row_tid(f, r) != tid)
            return -1;
        found = true;
        tid = cp_row_tid(f, r);
    }
    return found ? tid : -1;
}

/* The clipped host rows per thread; a thread with a row on a stream is a
 * GPU row of HTA's and builds no stack. The backward thread (the one with
 * "autograd" events) joins the forward one (with "forward" events). */
static void call_stacks(struct builder *b)
{
    const struct cp_frame *f = b->g->f;
    int64_t fwd = thread_of(b, "forward"), bwd = thread_of(b, "autograd");
    bool remap = fwd != -1 && bwd != -1 && fwd != bwd;
    VEC(struct thread_pos) tp = {0};
    for (size_t k = 0; k < b->nclip; k++) {
        const struct cp_row *r = &b->rows[b->clip[k]];
        int64_t tid = cp_row_tid(f, r);
        VEC_PUSH(&tp, ((struct thread_pos){cp_row_pid(f, r), remap && tid == bwd ? fwd : tid,
                                           (uint32_t)k}));
    }
    thread_sort(tp.v, tp.n);
    uint32_t *rows = xmalloc((tp.n + 1) * sizeof(*rows));
    for (size_t a = 0; a < tp.n;) {
        size_t z = a;
        bool cpu = true;
        while (z < tp.n && tp.v[z].pid == tp.v[a].pid && tp.v[z].tid == tp.v[a].tid) {
            if (b->rows[b->clip[tp.v[z].row]].stream >= 0)
                cpu = false;
            rows[z - a] = tp.v[z].row;
            z++;
        }
        if (cpu)
            thread_stack(b, rows, z - a);
        a = z;
    }
    free(rows);
    VEC_FREE(&tp);
}

/* ------------------------------------------------------------------------ */
/* GPU work and syncs                                                       */
/* ------------------------------------------------------------------------ */

struct gsort {
    int64_t key;
    uint32_t row, local; /* frame row, clip index */
};
static inline bool gsort_less(const struct gsort *a, const struct gsort *b)
{
    return a->key < b->key;
}
SORT_DEFINE(gsort_sort, struct gsort, gsort_less)

struct stream_last {
    int64_t stream;
    uint32_t node;
};

static uint32_t *last_on(struct stream_last **sl, size_t *n, size_t *cap, int64_t stream,
                         bool create)
{
    for (size_t i = 0; i < *n; i++)
        if ((*sl)[i].stream == stream)
            return &(*sl)[i].node;
    if (!create)
        return NULL;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        *sl = xreallocarray(*sl, *cap, sizeof(**sl));
    }
    (*sl)[*n] = (struct stream_last){stream, IDX_NONE};
    return &(*sl)[(*n)++].node;
}

static void gpu_edges(struct builder *b, bool zero_launch_edges)
{
    const struct cp_frame *f = b->g->f;
    const struct cp_row *rows = b->rows;
    struct cp_graph *g = b->g;
    const struct cp_links *el = &f->links;
    bool records_merged = f->has_wait_fields && el->have_records;
    /* per clip index: the kernel a Stream Wait Event makes it wait for */
    int32_t *kernel_sync = xmalloc((b->nclip + 1) * sizeof(*kernel_sync));
    for (size_t k = 0; k < b->nclip; k++)
        kernel_sync[k] = -1;

    VEC(struct gsort) gs = {0};
    for (size_t k = 0; k < b->nclip; k++) {
        uint32_t i = b->clip[k];
        const struct cp_row *r = &rows[i];
        if (r->ic == CP_IC_NONE)
            continue;
        if (r->stream == -1 && r->role != CPN_EVENT_SYNC && r->role != CPN_CONTEXT_SYNC)
            continue;
        /* a sync event sorts by its end: a Stream Sync may overlap the
         * copy it waits for */
        VEC_PUSH(&gs, ((struct gsort){(r->flags & CPR_SYNC_CAT) ? r->ts + r->dur : r->ts, i,
                                      (uint32_t)k}));
    }
    gsort_sort(gs.v, gs.n);

    struct stream_last *sl = NULL;
    size_t nsl = 0, csl = 0;
    for (size_t k = 0; k < gs.n; k++) {
        uint32_t li = gs.v[k].local;
        const struct cp_row *r = &rows[gs.v[k].row];
        if (r->flags & CPR_SYNC_CAT) {
            uint32_t cpu_end = end_of(b, r->ic);
            if (r->role == CPN_STREAM_WAIT_EVENT || r->role == CPN_EVENT_SYNC) {
                if (!records_merged)
                    continue;
                int32_t prev = cp_links_record_prev(el, r->wait_corr);
                if (prev < 0 || rows[prev].ic < 0)
                    continue;
                int32_t src_kernel = rows[prev].ic;
                if (r->role == CPN_STREAM_WAIT_EVENT) {
                    int32_t next = r->ic >= 0 ? cp_links_wait_next(el, (uint32_t)r->ic) : -1;
                    if (next < 0 || rows[next].ic < 0)
                        continue;
                    /* (a kernel out of the clip is never visited) */
                    uint32_t kl = clip_index(b, (uint32_t)rows[next].ic);
                    if (kl != IDX_NONE)
                        kernel_sync[kl] = src_kernel;
                } else if (end_of(b, src_kernel) != IDX_NONE) {
                    add_edge(b, end_of(b, src_kernel), cpu_end, CPE_SYNC, false);
                }
            } else if (r->role == CPN_CONTEXT_SYNC) {
                for (size_t s = 0; s < nsl; s++)
                    add_edge(b, sl[s].node, cpu_end, CPE_SYNC, false);
            } else if (r->role == CPN_STREAM_SYNC) {
                uint32_t *last = last_on(&sl, &nsl, &csl, r->stream, false);
                if (last)
                    add_edge(b, *last, cpu_end, CPE_SYNC, false);
            }
            continue;
        }
        uint32_t s = b->node_start[li], e = b->node_end[li];
        attribute(b, add_edge(b, s, e, CPE_OPERATOR, false), -1);
        int32_t ks = kernel_sync[li];
        uint32_t ks_end = IDX_NONE;
        bool launch_added = false;
        if (ks >= 0) {
            ks_end = end_of(b, ks);
            if (ks_end == IDX_NONE) {
                ks = -1;
            } else {
                add_edge(b, ks_end, s, CPE_SYNC, false);
            }
            kernel_sync[li] = -1;
        }
        uint32_t *lastp = last_on(&sl, &nsl, &csl, r->stream, true);
        uint32_t last = *lastp;
        int32_t rt = r->ic;
        if (rt >= 0 && rows[rt].qlen == 1 && r->qlen == 0 &&
            (last == IDX_NONE || g->nodes.v[last].ts < rows[rt].ts) &&
            (ks < 0 || g->nodes.v[ks_end].ts < rows[rt].ts) && start_of(b, rt) != IDX_NONE) {
            add_edge(b, start_of(b, rt), s, CPE_LAUNCH_DELAY, false);
            launch_added = true;
        } else if (last != IDX_NONE && (ks < 0 || g->nodes.v[ks_end].ts < g->nodes.v[last].ts)) {
            attribute(b, add_edge(b, last, s, CPE_KERNEL_KERNEL, false), -1);
        }
        if (zero_launch_edges && !launch_added && start_of(b, rt) != IDX_NONE)
            add_edge(b, start_of(b, rt), s, CPE_LAUNCH_DELAY, true);
        *lastp = e;
    }
    free(sl);
    VEC_FREE(&gs);
    free(kernel_sync);
}

/* ------------------------------------------------------------------------ */
/* Topological order and the longest path                                   */
/* ------------------------------------------------------------------------ */

/* networkx's topological_sort: generations of nodes whose edges in are all
 * seen, each generation in the order its nodes were reached; the first
 * generation in node order, children in the order their edges were added. */
static bool topo_order(struct cp_graph *g)
{
    size_t n = g->nodes.n, m = g->edges.n;
    uint32_t *out_first = xcalloc(n + 1, sizeof(*out_first));
    uint32_t *out = xmalloc((m + 1) * sizeof(*out));
    uint32_t *indeg = xcalloc(n + 1, sizeof(*indeg));
    g->in_first = xcalloc(n + 1, sizeof(*g->in_first));
    g->in_edges = xmalloc((m + 1) * sizeof(*g->in_edges));
    for (size_t e = 0; e < m; e++) {
        out_first[g->edges.v[e].src + 1]++;
        g->in_first[g->edges.v[e].dst + 1]++;
        indeg[g->edges.v[e].dst]++;
    }
    for (size_t i = 0; i < n; i++) {
        out_first[i + 1] += out_first[i];
        g->in_first[i + 1] += g->in_first[i];
    }
    uint32_t *po = xmalloc((n + 1) * sizeof(*po)), *pi = xmalloc((n + 1) * sizeof(*pi));
    memcpy(po, out_first, n * sizeof(*po));
    memcpy(pi, g->in_first, n * sizeof(*pi));
    for (size_t e = 0; e < m; e++) {
        out[po[g->edges.v[e].src]++] = (uint32_t)e;
        g->in_edges[pi[g->edges.v[e].dst]++] = (uint32_t)e;
    }
    free(po);
    free(pi);
    g->topo = xmalloc((n + 1) * sizeof(*g->topo));
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!indeg[i])
            g->topo[k++] = (uint32_t)i;
    for (size_t h = 0; h < k; h++) {
        uint32_t u = g->topo[h];
        for (uint32_t j = out_first[u]; j < out_first[u + 1]; j++) {
            uint32_t v = g->edges.v[out[j]].dst;
            if (--indeg[v] == 0)
                g->topo[k++] = v;
        }
    }
    free(out_first);
    free(out);
    free(indeg);
    return k == n;
}

bool critpath_longest(struct cp_graph *g)
{
    size_t n = g->nodes.n;
    g->path.n = 0;
    g->length = 0;
    if (!g->topo || !n)
        return false;
    if (!g->dist) {
        g->dist = xmalloc((n + 1) * sizeof(*g->dist));
        g->best = xmalloc((n + 1) * sizeof(*g->best));
    }
    uint32_t end = IDX_NONE;
    for (size_t h = 0; h < n; h++) {
        uint32_t v = g->topo[h];
        int64_t d = 0;
        uint32_t best = IDX_NONE;
        /* networkx takes the first best predecessor */
        for (uint32_t j = g->in_first[v]; j < g->in_first[v + 1]; j++) {
            const struct cp_edge *e = &g->edges.v[g->in_edges[j]];
            int64_t c = g->dist[e->src] + e->weight;
            if (best == IDX_NONE || c > d) {
                d = c;
                best = g->in_edges[j];
            }
        }
        if (best != IDX_NONE && d < 0) {
            d = 0;
            best = IDX_NONE;
        }
        g->dist[v] = d;
        g->best[v] = best;
        if (end == IDX_NONE || d > g->dist[end])
            end = v;
    }
    for (uint32_t v = end; g->best[v] != IDX_NONE; v = g->edges.v[g->best[v]].src)
        VEC_PUSH(&g->path, g->best[v]);
    for (size_t i = 0, j = g->path.n; i + 1 < j; i++, j--) {
        uint32_t t = g->path.v[i];
        g->path.v[i] = g->path.v[j - 1];
        g->path.v[j - 1] = t;
    }
    g->length = g->dist[end];
    return true;
}

void critpath_set_weight(struct cp_graph *g, uint32_t e, int64_t weight)
{
    g->edges.v[e].weight = weight < 0 ? 0 : weight;
}

struct cp_graph *critpath_build(const struct cp_frame *f, const char *annotation, unsigned instance,
                                char *err)
{
    int64_t s, e;
    if (!region_window(f, annotation, instance, &s, &e, err))
        return NULL;
    struct cp_graph *g = xcalloc(1, sizeof(*g));
    g->f = f;
    g->start_ts = s;
    g->end_ts = e;
    g->no_sync = !f->has_sync;
    struct builder b = {g, f->rows.v, NULL, 0, NULL, NULL};
    clip(&b, s, e);
    make_nodes(&b);
    runtime_lock(&b);
    call_stacks(&b);
    gpu_edges(&b, true);
    free(b.clip);
    free(b.node_start);
    free(b.node_end);
    g->ok = topo_order(g) && critpath_longest(g);
    return g;
}

void critpath_free(struct cp_graph *g)
{
    if (!g)
        return;
    VEC_FREE(&g->nodes);
    VEC_FREE(&g->edges);
    VEC_FREE(&g->path);
    free(g->topo);
    free(g->in_first);
    free(g->in_edges);
    free(g->dist);
    free(g->best);
    free(g);
}

/* ------------------------------------------------------------------------ */
/* Classification                                                           */
/* ------------------------------------------------------------------------ */

enum cp_bound critpath_bound_by(const struct cp_graph *g, const struct cp_edge *e)
{
    switch (e->type) {
    case CPE_KERNEL_KERNEL:
        return CPB_KERNEL_KERNEL;
    case CPE_LAUNCH_DELAY:
        return CPB_LAUNCH;
    case CPE_DEPENDENCY:
    case CPE_SYNC:
        return CPB_NONE;
    default:
        break;
    }
    if (e->attr == IDX_NONE)
        return CPB_NONE;
    const struct cp_row *r = &g->f->rows.v[e->attr];
    if (r->flags & CPR_DATA_LOAD)
        return CPB_DATA_LOADING;
    if (r->stream < 0)
        return CPB_CPU;
    /* HTA's is_comm_kernel: an NCCL or Gloo kernel */
    const char *name = trace_str(g->f->t, r->name);
    if (!strncmp(name, "nccl", 4) || strstr(name, "gloo:"))
        return CPB_GPU_COMM;
    return CPB_GPU_COMPUTE;
}

const char *critpath_bound_name(enum cp_bound b)
{
    static const char *const names[] = {
        "",
        "cpu_bound",
        "gpu_compute_bound",
        "gpu_communication_bound",
        "gpu_kernel_launch_overhead",
        "gpu_kernel_kernel_overhead",
        "data_loading",
    };
    return b < CPB__COUNT ? names[b] : "";
}

const char *critpath_edge_type_name(enum cp_edge_type t)
{
    static const char *const names[] = {
        "critical_path_operator",
        "critical_path_dependency",
        "critical_path_kernel_launch_delay",
        "critical_path_kernel_kernel_delay",
        "critical_path_sync_dependency",
    };
    return t < CPE__COUNT ? names[t] : "";
}
