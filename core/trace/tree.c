/* Call tree nesting and event links (docs/metrics.md §1). */
#include "config.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/trace/argpack.h"
#include "core/trace/devkind.h"
#include "core/trace/tree.h"
#include "core/trace/opname.h"
#include "core/base/hmap.h"

/* Below this many events the index runs on one thread: a thread costs more
 * than the steps it would take over. */
#define TREE_PARALLEL_MIN_EVENTS 65536

/* A row's order: start, longer first on equal starts, then file order. The
 * sort moves the row's event indices and reads the events they name, so
 * that it needs no scratch beyond the indices' own (a key array per event
 * would be the largest allocation of a load). */
static inline bool order_less(const struct event *ev, const uint32_t *a, const uint32_t *b)
{
    const struct event *x = &ev[*a], *y = &ev[*b];
    if (x->ts != y->ts)
        return x->ts < y->ts;
    if (x->dur != y->dur)
        return x->dur > y->dur;
    return *a < *b;
}

SORT_DEFINE_CTX(order_sort, uint32_t, struct event, order_less)

/* ------------------------------------------------------------------------ */
/* Per-row order and nesting                                                */
/* ------------------------------------------------------------------------ */

static void build_row_orders(struct trace *t)
{
    uint32_t *fill = xcalloc(t->rows.n ? t->rows.n : 1, sizeof(*fill));
    for (uint32_t r = 0; r < t->rows.n; r++) {
        struct row *row = &t->rows.v[r];
        row->order = row->nevents ? xmalloc(row->nevents * sizeof(uint32_t)) : NULL;
    }
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind == EVK_META)
            continue;
        t->rows.v[e->row].order[fill[e->row]++] = i;
    }
    free(fill);

    for (uint32_t r = 0; r < t->rows.n; r++) {
        struct row *row = &t->rows.v[r];
        order_sort(row->order, row->nevents, t->ev.v);
    }
}

/* Rows of PyTorch's legacy profiler (pid "CPU functions"): PyTorch nests
 * their events with no overhang allowed (EventList._populate_cpu_children),
 * and key_averages' self times follow that tree (docs/metrics.md §5.8). */
static int64_t row_overhang_ns(const struct trace *t, const struct row *row)
{
    if ((row->flags & ROW_PID_TEXT) && strcmp(trace_str(t, row->pid_str), "CPU functions") == 0)
        return 0;
    return TREE_OVERHANG_NS;
}

/* The open spans of a row being nested, innermost last, each with its last
 * child so far: only a span on the stack takes children. */
struct nest_frame {
    uint32_t ev, last_child;
};
typedef VEC(struct nest_frame) nest_stack_t;

static void nest_row(struct trace *t, struct row *row, nest_stack_t *stack)
{
    stack->n = 0;
    const int64_t overhang_ns = row_overhang_ns(t, row);
    uint32_t last_root = IDX_NONE;
    for (uint32_t k = 0; k < row->nevents; k++) {
        uint32_t i = row->order[k];
        struct event *e = &t->ev.v[i];
        if (e->kind == EVK_INSTANT) {
            /* Instants ([memory] and others) get the innermost span around
             * them as parent, but are no one's child in the tree. */
            while (stack->n && e->ts >= ev_end(&t->ev.v[stack->v[stack->n - 1].ev]))
                stack->n--;
            e->parent = stack->n ? stack->v[stack->n - 1].ev : IDX_NONE;
            continue;
        }
        if (!evk_is_host_span(e->kind) || e->ph != 'X')
            continue;
        int64_t end = ev_end(e);
        while (stack->n) {
            const struct event *top = &t->ev.v[stack->v[stack->n - 1].ev];
            int64_t top_end = ev_end(top);
            if (e->ts >= top_end) {
                stack->n--;
                continue;
            }
            if (end <= top_end + overhang_ns) {
                if (end > top_end)
                    e->flags |= EVF_OVERHANG;
                break;
            }
            /* Starts inside but outlives the top by more than the
             * overhang allowed: a sibling. */
            e->flags |= EVF_SIBLING;
            stack->n--;
        }
        if (!stack->n) {
            e->parent = IDX_NONE;
            if (last_root == IDX_NONE)
                row->first_root = i;
            else
                t->ev.v[last_root].next_sibling = i;
            last_root = i;
        } else {
            struct nest_frame *top = &stack->v[stack->n - 1];
            e->parent = top->ev;
            if (top->last_child == IDX_NONE)
                t->ev.v[top->ev].first_child = i;
            else
                t->ev.v[top->last_child].next_sibling = i;
            top->last_child = i;
        }
        *VEC_ADD(stack) = (struct nest_frame){i, IDX_NONE};
    }
}

static void build_nesting(struct trace *t)
{
    nest_stack_t stack = {0};
    for (uint32_t r = 0; r < t->rows.n; r++) {
        struct row *row = &t->rows.v[r];
        row->first_root = IDX_NONE;
        if (row->cls == ROW_HOST)
            nest_row(t, row, &stack);
    }
    VEC_FREE(&stack);
}

/* ------------------------------------------------------------------------ */
/* Links                                                                    */
/* ------------------------------------------------------------------------ */

/* The "Python id" and "Python parent id" of a frame, from its args (the
 * last of a repeated key, as everywhere args are read into fields).
 * Captured copies (their rows are grafts, capture.h) have none: their ids
 * would collide with the replay's. The rows tell, not the events' flags,
 * which build_nesting writes meanwhile. */
struct py_ids {
    uint32_t key_id, key_parent; /* strtab ids of the keys, IDX_NONE if absent */
    bool *captured_row;          /* per row, NULL when the trace has no grafts */
};

static void py_ids_of(const struct trace *t, const struct py_ids *k, uint32_t ev, uint64_t *id,
                      uint64_t *parent)
{
    *id = *parent = UINT64_MAX;
    if (k->captured_row && k->captured_row[t->ev.v[ev].row])
        return;
    struct argiter it;
    struct argval a;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a)) {
        uint64_t *out = a.key == k->key_id ? id : a.key == k->key_parent ? parent : NULL;
        if (out && !argpack_val_id(t, &a, out))
            *out = UINT64_MAX;
    }
}

/* Python ids are numbered from 1 by the profiler, in file order: a table
 * indexed by id, made for the frames the load counted (a quarter more) from
 * 0, or from the first id when that is beyond it; an id outside the table
 * turns it into a hash map, which holds any ids. */
struct py_index {
    uint64_t lo;
    uint32_t *at; /* ids lo .. lo + n - 1: their events, IDX_NONE; NULL once
                     the map holds them */
    size_t n;
    struct hmap map; /* id -> event */
};

static void py_index_init(struct py_index *x, uint64_t first_id, uint64_t expected)
{
    memset(x, 0, sizeof(*x));
    x->n = (size_t)(expected + expected / 4 + 1024);
    x->lo = first_id < x->n ? 0 : first_id;
    x->at = xmalloc(x->n * sizeof(*x->at));
    memset(x->at, 0xff, x->n * sizeof(*x->at));
}

static void py_index_put_first(struct py_index *x, uint64_t id, uint32_t ev)
{
    if (x->at && id - x->lo < x->n) {
        if (x->at[id - x->lo] == IDX_NONE)
            x->at[id - x->lo] = ev;
        return;
    }
    if (x->at) {
        hmap_init(&x->map, x->n);
        for (size_t k = 0; k < x->n; k++)
            if (x->at[k] != IDX_NONE)
                hmap_put(&x->map, x->lo + k, x->at[k]);
        free(x->at);
        x->at = NULL;
    }
    hmap_put_first(&x->map, id, ev);
}

static uint32_t py_index_get(const struct py_index *x, uint64_t id)
{
    if (!x->at)
        return hmap_get(&x->map, id);
    return id - x->lo < x->n ? x->at[id - x->lo] : IDX_NONE;
}

static void py_index_free(struct py_index *x)
{
    free(x->at);
    hmap_free(&x->map);
}

static void link_python(struct trace *t)
{
    struct py_ids keys = {strtab_find(&t->strs, "Python id", 9),
                          strtab_find(&t->strs, "Python parent id", 16), NULL};
    if (keys.key_id == IDX_NONE)
        return;
    if (t->grafts.n) {
        keys.captured_row = xcalloc(t->rows.n, sizeof(bool));
        for (size_t g = 0; g < t->grafts.n; g++)
            keys.captured_row[t->grafts.v[g].row] = true;
    }
    /* Pass 1 puts each frame's id in the index and keeps its parent's id
     * in aux (IDX_NONE: none; parent_reread: an id too large for it),
     * which pass 2 turns into the parent's event: the args are read once. */
    const uint32_t parent_reread = IDX_NONE - 1;
    struct py_index x;
    bool any = false;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        struct event *e = &t->ev.v[i];
        if (e->kind != EVK_PYTHON || (keys.captured_row && keys.captured_row[e->row]))
            continue;
        uint64_t id, parent;
        py_ids_of(t, &keys, i, &id, &parent);
        e->aux = parent == UINT64_MAX     ? IDX_NONE
                 : parent < parent_reread ? (uint32_t)parent
                                          : parent_reread;
        if (id == UINT64_MAX)
            continue;
        if (!any)
            py_index_init(&x, id, t->n_by_kind[EVK_PYTHON]);
        any = true;
        py_index_put_first(&x, id, i);
    }
    for (uint32_t i = 0; i < t->ev.n; i++) {
        struct event *e = &t->ev.v[i];
        if (e->kind != EVK_PYTHON || e->aux == IDX_NONE ||
            (keys.captured_row && keys.captured_row[e->row]))
            continue;
        uint64_t id, parent = e->aux;
        if (e->aux == parent_reread)
            py_ids_of(t, &keys, i, &id, &parent);
        uint32_t p = any ? py_index_get(&x, parent) : IDX_NONE;
        e->aux = p != i ? p : IDX_NONE;
    }
    if (any)
        py_index_free(&x);
    free(keys.captured_row);
}

bool tree_is_descendant(const struct trace *t, uint32_t ev, uint32_t anc)
{
    for (uint32_t p = ev; p != IDX_NONE; p = t->ev.v[p].parent)
        if (p == anc)
            return true;
    return false;
}

/* Launcher of GPU work launched by `launch` (docs/metrics.md §1.5). */
static uint32_t find_launcher(const struct trace *t, uint32_t launch, uint32_t execute_id)
{
    for (uint32_t p = t->ev.v[launch].parent; p != IDX_NONE; p = t->ev.v[p].parent) {
        const struct event *e = &t->ev.v[p];
        if (e->kind == EVK_CPU_OP && e->name != execute_id)
            return p;
    }
    return launch;
}

/* Ids of flow starts from CPU launches to GPU work (ac2g and its older
 * names), for link_require_flow. */
static void collect_launch_flows(const struct trace *t, struct hmap *starts)
{
    static const char *const cats[] = {"ac2g", "async_cpu_to_gpu", "async"};
    uint32_t ids[ARRAY_SIZE(cats)];
    for (size_t k = 0; k < ARRAY_SIZE(cats); k++)
        ids[k] = strtab_find(&t->strs, cats[k], strlen(cats[k]));
    for (size_t i = 0; i < t->flows.n; i++) {
        const struct flow *f = &t->flows.v[i];
        if (f->ph != 's')
            continue;
        for (size_t k = 0; k < ARRAY_SIZE(cats); k++)
            if (ids[k] != IDX_NONE && f->cat == ids[k])
                hmap_put_first(starts, f->id, (uint32_t)i);
    }
}

/* GPU work to the launch of the same correlation (docs/metrics.md §1.5):
 * each GPU event's launch, device and stream, each launch's GPU events (a
 * CSR index), and each device row's device and stream, from its first
 * event that has them. Needs no call tree (link_launchers does). */
static void link_gpu(struct trace *t)
{
    struct hmap corr, flows = {0};
    hmap_init(&corr, t->launches.n);
    if (t->link_require_flow) {
        hmap_init(&flows, t->flows.n / 2 + 1);
        collect_launch_flows(t, &flows);
    }
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_launch(e->kind) || e->aux == IDX_NONE || !t->launches.v[e->aux].corr)
            continue;
        uint64_t c = t->launches.v[e->aux].corr;
        if (t->link_require_flow && hmap_get(&flows, c) == IDX_NONE)
            continue;
        hmap_put_first(&corr, c, i);
    }
    if (t->link_require_flow)
        hmap_free(&flows);
    uint32_t graph_cuda = strtab_find(&t->strs, "cudaGraphLaunch", 15);
    uint32_t graph_hip = strtab_find(&t->strs, "hipGraphLaunch", 14);
    uint32_t graph_cuda2 = strtab_find(&t->strs, "cudaGraphLaunch_v10000", 22);

    /* Count GPU work per launch, then fill the CSR index. */
    for (uint32_t i = 0; i < t->ev.n; i++) {
        struct event *e = &t->ev.v[i];
        if (!evk_on_device(e->kind) || e->aux == IDX_NONE)
            continue;
        struct gpu_info *g = &t->gpus.v[e->aux];
        struct row *row = &t->rows.v[e->row];
        if (g->device < 0)
            g->device = (int32_t)row->pid;
        if (g->stream < 0)
            g->stream = row->tid;
        if (row->device < 0) {
            row->device = g->device;
            row->stream = g->stream;
        }
        if (!g->corr)
            continue;
        uint32_t l = hmap_get(&corr, g->corr);
        if (l == IDX_NONE)
            continue;
        g->launch = l;
        if (!evk_is_gpu(e->kind))
            continue;
        e->flags |= EVF_LINKED;
        const struct event *le = &t->ev.v[l];
        if (le->name == graph_cuda || le->name == graph_hip || le->name == graph_cuda2)
            e->flags |= EVF_GRAPH;
        t->launches.v[le->aux].gpu_count++;
    }
    hmap_free(&corr);
    uint32_t total = 0;
    for (size_t k = 0; k < t->launches.n; k++) {
        t->launches.v[k].gpu_first = total;
        total += t->launches.v[k].gpu_count;
        t->launches.v[k].gpu_count = 0;
    }
    t->launch_gpu = xmalloc((total ? total : 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < t->ev.n; i++) {
        struct event *e = &t->ev.v[i];
        if (!evk_is_gpu(e->kind) || e->aux == IDX_NONE)
            continue;
        struct gpu_info *g = &t->gpus.v[e->aux];
        if (g->launch == IDX_NONE)
            continue;
        struct launch_info *li = &t->launches.v[t->ev.v[g->launch].aux];
        t->launch_gpu[li->gpu_first + li->gpu_count++] = i;
    }
}

/* Each launch's launcher op, shared by its GPU events: walks the call
 * tree up from the launch. Reads the launches' table and the events it
 * names, not every event. */
static void link_launchers(struct trace *t)
{
    uint32_t execute_id = strtab_find(&t->strs, "execute", 7);
    for (size_t k = 0; k < t->launches.n; k++) {
        const struct launch_info *li = &t->launches.v[k];
        if (!li->gpu_count)
            continue;
        uint32_t launch = t->gpus.v[t->ev.v[t->launch_gpu[li->gpu_first]].aux].launch;
        uint32_t launcher = find_launcher(t, launch, execute_id);
        t->ev.v[launcher].flags |= EVF_LAUNCHER;
        for (uint32_t j = 0; j < li->gpu_count; j++)
            t->gpus.v[t->ev.v[t->launch_gpu[li->gpu_first + j]].aux].launcher = launcher;
    }
}

struct seq_key {
    int64_t seq;
    int64_t ts;
    uint32_t idx;
    uint64_t thread; /* pid_str << 32 | tid_str of the op's row */
};

static inline bool seq_less(const struct seq_key *a, const struct seq_key *b)
{
    if (a->seq != b->seq)
        return a->seq < b->seq;
    if (a->ts != b->ts)
        return a->ts < b->ts;
    return a->idx < b->idx;
}

SORT_DEFINE(seq_sort, struct seq_key, seq_less)

/* Whether name is an autograd node's: "CudnnConvolutionBackward",
 * "AddmmBackward0". */
static bool autograd_node_name(const char *name)
{
    const char *b = strstr(name, "Backward");
    if (!b || b == name || strchr(name, ':') || strchr(name, ' '))
        return false;
    for (const char *p = b + 8; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    return true;
}

static uint64_t row_thread(const struct trace *t, uint32_t row)
{
    return (uint64_t)t->rows.v[row].pid_str << 32 | t->rows.v[row].tid_str;
}

/* The first of the sorted fwd[0..n) after (seq, ts): n when none is. */
static size_t seq_bound(const struct seq_key *fwd, size_t n, int64_t seq, int64_t ts)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fwd[mid].seq < seq || (fwd[mid].seq == seq && fwd[mid].ts <= ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The last of fwd[lo..hi) on a thread other than `thread`, or IDX_NONE.
 * run[k] is where the run of entries on fwd[k]'s thread that ends at k
 * begins (runs stop at a change of Sequence number too): the entry before
 * that run is on another thread, so no entry is looked at twice. */
static uint32_t last_other_thread(const struct seq_key *fwd, const size_t *run, size_t lo,
                                  size_t hi, uint64_t thread)
{
    if (hi == lo)
        return IDX_NONE;
    size_t k = hi - 1;
    if (fwd[k].thread != thread)
        return fwd[k].idx;
    return run[k] > lo ? fwd[run[k] - 1].idx : IDX_NONE;
}

/* Backward op "autograd::engine::evaluate_function: X" <-> the forward op
 * with the same Sequence number on another thread, the latest by start
 * that is not after the backward op (else the latest). Backward ops are
 * taken in file order; a forward op claimed by several keeps the last.
 * Forward ops are sorted by (Sequence number, start): each backward op
 * costs two binary searches, however many forward ops share its number.
 *
 * Traces without the wrappers (PyTorch 1.9 and before) record the autograd
 * node itself, named like "CudnnConvolutionBackward", with its forward
 * op's Sequence number: those are the backward ops there. Newer traces
 * (any event marked backward) are left alone: their nodes sit under the
 * wrappers, which are the backward ops.
 *
 * One pass over the events gathers both sides. */
static void link_fwd_bwd(struct trace *t)
{
    VEC(struct seq_key) fwd = {0};
    VEC(uint32_t) bwd = {0};
    bool any_backward = false;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->flags & EVF_BACKWARD) {
            any_backward = true;
            if (e->aux != IDX_NONE && t->ops.v[e->aux].seq >= 0)
                VEC_PUSH(&bwd, i);
            continue;
        }
        if (e->kind != EVK_CPU_OP || e->aux == IDX_NONE)
            continue;
        int64_t seq = t->ops.v[e->aux].seq;
        if (seq >= 0)
            VEC_PUSH(&fwd, ((struct seq_key){seq, e->ts, i, row_thread(t, e->row)}));
    }
    if (!any_backward) {
        /* Bare autograd nodes, in file order as fwd is. */
        size_t kept = 0;
        for (size_t k = 0; k < fwd.n; k++) {
            uint32_t i = fwd.v[k].idx;
            if (autograd_node_name(ev_name(t, i))) {
                t->ev.v[i].flags |= EVF_BACKWARD;
                VEC_PUSH(&bwd, i);
            } else {
                fwd.v[kept++] = fwd.v[k];
            }
        }
        fwd.n = kept;
    }
    if (!fwd.n) {
        VEC_FREE(&fwd);
        VEC_FREE(&bwd);
        return;
    }
    seq_sort(fwd.v, fwd.n);
    size_t *run = xmalloc(fwd.n * sizeof(*run));
    for (size_t k = 0; k < fwd.n; k++)
        run[k] = k && fwd.v[k - 1].seq == fwd.v[k].seq && fwd.v[k - 1].thread == fwd.v[k].thread
                     ? run[k - 1]
                     : k;
    for (size_t k = 0; k < bwd.n; k++) {
        uint32_t i = bwd.v[k];
        const struct event *b = &t->ev.v[i];
        int64_t seq = t->ops.v[b->aux].seq;
        /* fwd[lo..hi): this Sequence number; fwd[lo..at): those started by b's start. */
        size_t lo = seq_bound(fwd.v, fwd.n, seq - 1, INT64_MAX);
        size_t at = seq_bound(fwd.v, fwd.n, seq, b->ts);
        size_t hi = seq_bound(fwd.v, fwd.n, seq, INT64_MAX);
        uint64_t thread = row_thread(t, b->row);
        uint32_t best = last_other_thread(fwd.v, run, lo, at, thread);
        if (best == IDX_NONE)
            best = last_other_thread(fwd.v, run, lo, hi, thread);
        if (best == IDX_NONE)
            continue;
        t->ops.v[b->aux].partner = best;
        t->ops.v[t->ev.v[best].aux].partner = i;
    }
    free(run);
    VEC_FREE(&fwd);
    VEC_FREE(&bwd);
}

/* The trace's span and its GPU work's, the GPU events (linked or not) and
 * the device kind (devkind.h) that their categories make. */
static void compute_spans(struct trace *t)
{
    uint32_t mtia = strtab_find(&t->strs, DEVKIND_MTIA_CATEGORY, strlen(DEVKIND_MTIA_CATEGORY));
    uint64_t n_mtia = 0;
    bool any = false, any_gpu = false;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind == EVK_META)
            continue;
        int64_t end = ev_end(e);
        if (!any || e->ts < t->t_start)
            t->t_start = e->ts;
        if (!any || end > t->t_end)
            t->t_end = end;
        any = true;
        if (!evk_is_gpu(e->kind))
            continue;
        t->n_gpu++;
        if (mtia != IDX_NONE && e->cat == mtia)
            n_mtia++;
        if (!(e->flags & EVF_LINKED))
            t->n_unlinked++;
        if (!any_gpu || e->ts < t->gpu_start)
            t->gpu_start = e->ts;
        if (!any_gpu || end > t->gpu_end)
            t->gpu_end = end;
        any_gpu = true;
    }
    t->device_kind = (uint8_t)devkind_of_counts(n_mtia, t->n_gpu - n_mtia);
}

void trace_index(struct trace *t)
{
    trace_index_steps(t, NULL, NULL);
}

/* The steps that need no call tree, run beside the steps that build it:
 * they write other fields (device events' flags, Python frames' aux: their
 * parent frames, the launch and device tables, rows' device and stream,
 * the trace's spans) than those read or written by build_row_orders and
 * build_nesting (host events' parent, flags and links, rows' order and
 * first root), and read none of those: of the flags, only device events'. */
static void *index_side_steps(void *arg)
{
    struct trace *t = arg;
    gpuclass_classify(t);
    link_python(t);
    link_gpu(t);
    compute_spans(t);
    return NULL;
}

void trace_index_steps(struct trace *t, trace_index_step_fn step, void *ud)
{
    if (t->indexed)
        return;
    t->indexed = true;
    /* The steps after the parallel ones read the call tree (link_launchers
     * the parents, link_fwd_bwd and opname_index host events' flags and
     * strings, which opname_index also adds to). */
    static void (*const steps[])(struct trace *) = {
        link_launchers,
        link_fwd_bwd,
        opname_index,
    };
    const unsigned n = 4 + (unsigned)ARRAY_SIZE(steps);
    /* Announced as if in sequence: the side steps, build_row_orders,
     * build_nesting, then the rest. */
    if (step)
        step(ud, 0, n);
    pthread_t side;
    bool threaded = t->ev.n >= TREE_PARALLEL_MIN_EVENTS && !t->index_one_thread &&
                    pthread_create(&side, NULL, index_side_steps, t) == 0;
    if (!threaded)
        index_side_steps(t);
    if (step)
        step(ud, 1, n);
    build_row_orders(t);
    if (step)
        step(ud, 2, n);
    build_nesting(t);
    if (step)
        step(ud, 3, n);
    if (threaded)
        pthread_join(side, NULL);
    for (unsigned i = 0; i < ARRAY_SIZE(steps); i++) {
        if (step)
            step(ud, 4 + i, n);
        steps[i](t);
    }
    if (step)
        step(ud, n, n);
}
