/* The findings' rules: which critical-path edges each problem costs, and
 * the evidence behind them (docs/metrics.md, "Findings"). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wide.h"
#include "core/critpath/cp_frame.h"
#include "core/findings/find_rules.h"
#include "core/symbols/traceback.h"

/* A kernel shorter than this that waits at least its own time for its
 * launch is launch-bound (µs). */
#define FIND_SHORT_KERNEL_US 10
/* Kernels per sequence in the launch-bound evidence. */
#define FIND_SEQ_MAX 4
/* Characters of each kernel's name in a sequence key. */
#define FIND_SEQ_NAME 48

/* Rule-specific sums in find_rule_acc.extra. */
enum {
    X_COUNT = 0,    /* syncs, short kernels, ... seen on the path */
    X_PAGEABLE = 1, /* copy: µs of pageable host-to-device copies on the path */
    X_ALIGN = 1,    /* far-from-roofline: µs of the saving from rows with unaligned dims */
    X_FP32 = 2,     /* ... from fp32 rows where most time is bf16/fp16 */
    X_TINY = 3,     /* ... from rows of a tiny batch */
    X_GPU_US = 1,   /* recompute: GPU µs of recomputed ops in the steps' graphs */
    X_TRACE_NS = 2, /* ... GPU ns of recomputed ops in the whole trace (find_rule_recompute_scan) */
    X_NULL_NS = 3,  /* ... of which on stream 0, which the graphs leave out */
};

void find_rule_recompute_scan(const struct trace *t, const uint8_t *marks,
                              struct find_rule_acc *acc)
{
    for (uint32_t i = 0; marks && i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        const struct gpu_info *gi = evk_is_gpu(e->kind) ? ev_gpu(t, i) : NULL;
        if (!gi || gi->launch == IDX_NONE || !marks[gi->launch] || e->dur <= 0)
            continue;
        acc->extra[X_TRACE_NS] = wide_add_sat(acc->extra[X_TRACE_NS], e->dur);
        if (gi->stream <= 0)
            acc->extra[X_NULL_NS] = wide_add_sat(acc->extra[X_NULL_NS], e->dur);
    }
}

static void add_item(struct find_rule_acc *acc, const char *key, uint32_t ev, int64_t us)
{
    VEC_PUSH(&acc->items, ((struct find_item){strtab_intern_cstr(&acc->keys, key), ev, us}));
}

static const struct cp_row *edge_row(const struct cp_graph *g, const struct cp_edge *e)
{
    return e->attr == IDX_NONE ? NULL : &g->f->rows.v[e->attr];
}

static const struct cp_row *node_row(const struct cp_graph *g, uint32_t node)
{
    return &g->f->rows.v[g->nodes.v[node].row];
}

void find_rule_memo_init(struct find_memo *m, const struct trace *t)
{
    memset(m, 0, sizeof(*m));
    m->outer_op = xmalloc((t->ev.n + 1) * sizeof(*m->outer_op));
    m->loader = xmalloc((t->ev.n + 1) * sizeof(*m->loader));
    for (size_t i = 0; i <= t->ev.n; i++)
        m->outer_op[i] = m->loader[i] = FIND_UNKNOWN;
}

void find_rule_memo_free(struct find_memo *m)
{
    free(m->outer_op);
    free(m->loader);
    VEC_FREE(&m->chain);
}

typedef bool (*find_pred_fn)(const struct trace *t, uint32_t ev);

/* The outermost event around ev (itself included) that pred takes,
 * IDX_NONE: memo holds it for ev and every event up to the first one it
 * already knew. */
static uint32_t outermost(const struct trace *t, struct find_memo *m, uint32_t *memo, uint32_t ev,
                          find_pred_fn pred)
{
    m->chain.n = 0;
    uint32_t p = ev;
    while (p != IDX_NONE && memo[p] == FIND_UNKNOWN) {
        VEC_PUSH(&m->chain, p);
        p = t->ev.v[p].parent;
    }
    uint32_t cur = p == IDX_NONE ? IDX_NONE : memo[p];
    for (size_t i = m->chain.n; i-- > 0;) {
        uint32_t x = m->chain.v[i];
        if (cur == IDX_NONE && pred(t, x))
            cur = x;
        memo[x] = cur;
    }
    return cur;
}

static bool is_cpu_op(const struct trace *t, uint32_t ev)
{
    return t->ev.v[ev].kind == EVK_CPU_OP;
}

/* The outermost cpu_op around ev (ev itself included), IDX_NONE: the op a
 * user's line called. */
static uint32_t outer_op(struct find_step *s, uint32_t ev)
{
    return outermost(s->t, s->memo, s->memo->outer_op, ev, is_cpu_op);
}

const char *find_rule_python_line(const struct trace *t, uint32_t ev, struct strbuf *buf)
{
    struct traceback tb;
    traceback_init(&tb);
    traceback_of_event_forward(&tb, t, ev);
    const struct tb_frame *pick = NULL;
    for (size_t i = 0; i < tb.frames.n; i++) {
        const struct tb_frame *f = &tb.frames.v[i];
        if (f->kind != TB_PYTHON || !f->file || (f->flags & TBF_MODULE))
            continue;
        if (!pick)
            pick = f;
        if (!strstr(f->file, "torch/")) {
            pick = f;
            break;
        }
    }
    const char *out = NULL;
    if (pick) {
        sb_clear(buf);
        sb_printf(buf, "%s(%lld): %s", pick->file, (long long)pick->line, pick->name);
        out = sb_str(buf);
    }
    traceback_done(&tb);
    return out;
}

const char *find_rule_cannot(enum finding_kind k, const struct trace *t, bool has_sync,
                             const uint8_t *recompute)
{
    (void)t;
    if (k == FK_SYNC && !has_sync)
        return "the trace has no cuda_sync events, so the critical path cannot see the host "
               "wait for the GPU: record with PyTorch 2.1 or newer and "
               "experimental_config=_ExperimentalConfig(enable_cuda_sync_events=True)";
    if (k == FK_RECOMPUTE && !recompute)
        return "no activation checkpointing: no recompute_fn frame (torch/utils/checkpoint.py) "
               "in the trace, or Python frames not recorded (with_stack=True)";
    if (k == FK_STRAGGLER)
        return "stragglers are found across a job's ranks, not in one rank's trace (report -t "
               "findings TRACE... or DIR)";
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* sync                                                                     */
/* ------------------------------------------------------------------------ */

/* Edges of one kind sorted by a key (a stream, a thread) and their
 * source's time, for the drain's searches. */
struct drain_ix {
    int64_t key, ts;
    uint32_t e;
};

static int drain_ix_cmp(const void *pa, const void *pb)
{
    const struct drain_ix *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->e > b->e) - (a->e < b->e);
}

/* The first entry of v not before (key, ts). */
static size_t drain_ix_lower(const struct drain_ix *v, size_t n, int64_t key, int64_t ts)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].key < key || (v[mid].key == key && v[mid].ts < ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

enum { DX_GPU, DX_HOST, DX_LAUNCH, DX_GAP, DX__COUNT };

struct drain_index {
    VEC(struct drain_ix) v[DX__COUNT];
};

/* GPU work by stream and start; host ops and dependencies by thread and
 * start; launch delays by start; kernel-kernel gaps by stream. */
static void drain_index_build(const struct cp_graph *g, struct drain_index *x)
{
    memset(x, 0, sizeof(*x));
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        const struct cp_row *src = node_row(g, d->src), *dst = node_row(g, d->dst);
        struct drain_ix it = {0, g->nodes.v[d->src].ts, (uint32_t)e};
        int which = -1;
        if (d->type == CPE_OPERATOR && cp_row_on_gpu(src)) {
            which = DX_GPU;
            it.key = src->stream;
        } else if ((d->type == CPE_OPERATOR || d->type == CPE_DEPENDENCY) && !cp_row_on_gpu(src)) {
            which = DX_HOST;
            it.key = src->trow;
        } else if (d->type == CPE_LAUNCH_DELAY) {
            which = DX_LAUNCH;
        } else if (d->type == CPE_KERNEL_KERNEL && d->weight > 0) {
            which = DX_GAP;
            it.key = dst->stream;
        }
        if (which >= 0)
            VEC_PUSH(&x->v[which], it);
    }
    for (int k = 0; k < DX__COUNT; k++)
        if (x->v[k].n)
            qsort(x->v[k].v, x->v[k].n, sizeof(*x->v[k].v), drain_ix_cmp);
}

static void drain_index_free(struct drain_index *x)
{
    for (int k = 0; k < DX__COUNT; k++)
        VEC_FREE(&x->v[k]);
}

/* Mark edge e as the drain's; its time when it is on the path. */
static int64_t drain_take(struct find_step *s, uint32_t e)
{
    s->sel[e] = 1;
    return s->on_path[e] ? s->g->edges.v[e].weight : 0;
}

/* The drain after a host sync returning at `from` on host row trow, its
 * stream `stream`: until the stream's next GPU work starts, the host's
 * ops and dependencies on that thread, the launch delays, and the
 * stream's gap across `from` (with host_part false, only that gap: a
 * second stream of one device sync). Returns the drain's time on the
 * path. */
static int64_t sync_drain(struct find_step *s, const struct drain_index *x, uint32_t trow,
                          int64_t stream, int64_t from, bool host_part)
{
    const struct cp_graph *g = s->g;
    const struct drain_ix *gpu = x->v[DX_GPU].v;
    size_t ng = x->v[DX_GPU].n;
    size_t i = drain_ix_lower(gpu, ng, stream, from);
    int64_t to = i < ng && gpu[i].key == stream ? gpu[i].ts : INT64_MAX;
    int64_t drain = 0;
    const struct drain_ix *h = x->v[DX_HOST].v;
    size_t nh = host_part ? x->v[DX_HOST].n : 0;
    for (i = drain_ix_lower(h, nh, trow, from); i < nh && h[i].key == trow && h[i].ts <= to; i++)
        if (g->nodes.v[g->edges.v[h[i].e].dst].ts <= to)
            drain += drain_take(s, h[i].e);
    const struct drain_ix *l = x->v[DX_LAUNCH].v;
    size_t nl = host_part ? x->v[DX_LAUNCH].n : 0;
    for (i = drain_ix_lower(l, nl, 0, from); i < nl && l[i].ts <= to; i++)
        if (g->nodes.v[g->edges.v[l[i].e].dst].ts <= to)
            drain += drain_take(s, l[i].e);
    /* the stream's gaps are disjoint: the one across `from` is the last to
     * begin at or before it */
    const struct drain_ix *k = x->v[DX_GAP].v;
    size_t nk = x->v[DX_GAP].n;
    i = drain_ix_lower(k, nk, stream, from + 1);
    for (; i > 0 && k[i - 1].key == stream; i--) {
        const struct cp_edge *gap = &g->edges.v[k[i - 1].e];
        if (g->nodes.v[gap->dst].ts <= from)
            break;
        drain += drain_take(s, k[i - 1].e);
    }
    return drain;
}

/* For each host sync (a sync edge from GPU work into a host call's end):
 * the GPU sat drained from the sync's return until its stream ran again,
 * while the host got to its next launch. The edges of that drain are
 * taken (sync_drain), whichever side the path went through. */
static void rule_sync(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    struct drain_index x;
    bool indexed = false;
    uint8_t *seen = xcalloc(g->nodes.n + 1, 1); /* sync calls' end nodes met so far */
    struct strbuf key = STRBUF_INIT;
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        if (d->type != CPE_SYNC)
            continue;
        const struct cp_row *host = node_row(g, d->dst), *gpu = node_row(g, d->src);
        if (cp_row_on_gpu(host) || !cp_row_on_gpu(gpu))
            continue;
        if (!indexed) {
            drain_index_build(g, &x);
            indexed = true;
        }
        /* a device sync has an edge from each stream into one call: the
         * host's part of its drain counts once */
        bool again = seen[d->dst];
        seen[d->dst] = 1;
        int64_t drain = sync_drain(s, &x, host->trow, gpu->stream, g->nodes.v[d->dst].ts, !again);
        if (drain <= 0)
            continue;
        acc->extra[X_COUNT]++;
        uint32_t call = host->ev;
        uint32_t op = outer_op(s, call);
        sb_clear(&key);
        if (op != IDX_NONE && op != call)
            sb_printf(&key, "%s (%s)", trace_str(s->t, s->t->ev.v[op].name),
                      trace_str(s->t, s->t->ev.v[call].name));
        else
            sb_puts(&key, trace_str(s->t, s->t->ev.v[call].name));
        add_item(acc, sb_str(&key), call, drain);
    }
    if (indexed)
        drain_index_free(&x);
    free(seen);
    sb_free(&key);
}

/* ------------------------------------------------------------------------ */
/* data-loading                                                             */
/* ------------------------------------------------------------------------ */

static bool is_loader(const struct trace *t, uint32_t ev)
{
    const struct event *e = &t->ev.v[ev];
    const char *n = trace_str(t, e->name);
    return !strncmp(n, "enumerate(DataLoader)", 21) ||
           (e->kind == EVK_PYTHON && strstr(n, "torch/utils/data/"));
}

/* The DataLoader event around ev (itself included), the outermost: its
 * enumerate(DataLoader)... op or a torch/utils/data/ Python frame;
 * IDX_NONE. */
static uint32_t data_loader_of(struct find_step *s, uint32_t ev)
{
    return outermost(s->t, s->memo, s->memo->loader, ev, is_loader);
}

/* Host edges (ops, and the gaps between top-level ops) inside the
 * DataLoader's next(). */
static void rule_data_loading(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        uint32_t dl = IDX_NONE;
        if (d->type == CPE_OPERATOR) {
            const struct cp_row *r = edge_row(g, d);
            if (r && !cp_row_on_gpu(r))
                dl = data_loader_of(s, r->ev);
        } else if (d->type == CPE_DEPENDENCY) {
            const struct cp_row *a = node_row(g, d->src), *b = node_row(g, d->dst);
            if (!cp_row_on_gpu(a) && !cp_row_on_gpu(b)) {
                dl = data_loader_of(s, b->ev);
                if (dl == IDX_NONE)
                    dl = data_loader_of(s, a->ev);
            }
        }
        if (dl == IDX_NONE)
            continue;
        s->sel[e] = 1;
        if (s->on_path[e] && d->weight > 0)
            add_item(acc, trace_str(s->t, s->t->ev.v[dl].name), dl, d->weight);
    }
}

/* ------------------------------------------------------------------------ */
/* copy                                                                     */
/* ------------------------------------------------------------------------ */

/* Memcpy spans on the GPU and the host calls that launched them. */
static void rule_copy(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    const struct cp_row *rows = g->f->rows.v;
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        const struct cp_row *r = edge_row(g, d);
        if (d->type != CPE_OPERATOR || !r || !cp_row_on_gpu(r) ||
            s->t->ev.v[r->ev].kind != EVK_MEMCPY)
            continue;
        s->sel[e] = 1;
        int64_t us = s->on_path[e] ? d->weight : 0;
        if (r->ic >= 0 && s->op_edge[r->ic] != IDX_NONE) {
            uint32_t le = s->op_edge[r->ic];
            s->sel[le] = 1;
            us += s->on_path[le] ? g->edges.v[le].weight : 0;
        }
        if (!us)
            continue;
        const char *name = trace_str(s->t, r->name);
        if (strstr(name, "HtoD") && strstr(name, "Pageable"))
            acc->extra[X_PAGEABLE] += us;
        uint32_t ev = r->ic >= 0 ? rows[r->ic].ev : r->ev;
        uint32_t op = outer_op(s, ev);
        add_item(acc, name, op != IDX_NONE ? op : r->ev, us);
    }
}

/* ------------------------------------------------------------------------ */
/* launch-bound                                                             */
/* ------------------------------------------------------------------------ */

/* Whether GPU edge e is a short kernel that waited at least its own time
 * for its launch: then its waits (launch delay, kernel-kernel gap) and its
 * launch call are marked, and the waits on the path returned in *wait. */
static bool short_launch_bound(struct find_step *s, uint32_t e, int64_t *wait)
{
    struct cp_graph *g = s->g;
    const struct cp_edge *d = &g->edges.v[e];
    const struct cp_row *r = edge_row(g, d);
    if (d->type != CPE_OPERATOR || !r || !cp_row_on_gpu(r) ||
        s->t->ev.v[r->ev].kind != EVK_KERNEL || critpath_bound_by(g, d) != CPB_GPU_COMPUTE ||
        r->dur >= FIND_SHORT_KERNEL_US)
        return false;
    int64_t gap = 0;
    for (uint32_t j = g->in_first[d->src]; j < g->in_first[d->src + 1]; j++) {
        const struct cp_edge *in = &g->edges.v[g->in_edges[j]];
        if ((in->type == CPE_LAUNCH_DELAY || in->type == CPE_KERNEL_KERNEL) && in->weight > gap)
            gap = in->weight;
    }
    if (!gap || gap < r->dur)
        return false;
    *wait = 0;
    for (uint32_t j = g->in_first[d->src]; j < g->in_first[d->src + 1]; j++) {
        uint32_t ie = g->in_edges[j];
        const struct cp_edge *in = &g->edges.v[ie];
        if (in->type != CPE_LAUNCH_DELAY && in->type != CPE_KERNEL_KERNEL)
            continue;
        s->sel[ie] = 1;
        if (s->on_path[ie])
            *wait += in->weight;
    }
    if (r->ic >= 0 && s->op_edge[r->ic] != IDX_NONE) {
        uint32_t le = s->op_edge[r->ic];
        s->sel[le] = 1;
        if (s->on_path[le])
            *wait += g->edges.v[le].weight;
    }
    return true;
}

static void seq_flush(struct find_step *s, struct find_rule_acc *acc, struct strbuf *key,
                      uint32_t first, int64_t wait, unsigned *n)
{
    if (*n && wait > 0) {
        uint32_t op = outer_op(s, first);
        add_item(acc, sb_str(key), op != IDX_NONE ? op : first, wait);
    }
    sb_clear(key);
    *n = 0;
}

/* Short kernels that wait for their launch; the evidence is their runs
 * along the path (up to FIND_SEQ_MAX kernels), by kernel names. */
static void rule_launch_bound(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    /* a kernel off the path whose launch call is on it: the host time
     * that launching it costs */
    for (size_t e = 0; e < g->edges.n; e++) {
        int64_t w;
        if (s->on_path[e] || !short_launch_bound(s, (uint32_t)e, &w) || w <= 0)
            continue;
        acc->extra[X_COUNT]++;
        const struct cp_row *r = edge_row(g, &g->edges.v[e]);
        uint32_t ev = r->ic >= 0 ? g->f->rows.v[r->ic].ev : r->ev, op = outer_op(s, ev);
        char key[FIND_SEQ_NAME + 1];
        snprintf(key, sizeof(key), "%s", trace_str(s->t, r->name));
        add_item(acc, key, op != IDX_NONE ? op : ev, w);
    }
    struct strbuf key = STRBUF_INIT;
    unsigned n = 0;
    uint32_t first = IDX_NONE;
    int64_t wait = 0;
    for (size_t k = 0; k < g->path.n; k++) {
        uint32_t e = g->path.v[k];
        const struct cp_edge *d = &g->edges.v[e];
        const struct cp_row *r = edge_row(g, d);
        if (d->type != CPE_OPERATOR || !r || !cp_row_on_gpu(r))
            continue;
        int64_t w;
        if (!short_launch_bound(s, e, &w)) {
            seq_flush(s, acc, &key, first, wait, &n);
            continue;
        }
        acc->extra[X_COUNT]++;
        if (n == FIND_SEQ_MAX)
            seq_flush(s, acc, &key, first, wait, &n);
        if (!n) {
            first = r->ic >= 0 ? g->f->rows.v[r->ic].ev : r->ev;
            wait = 0;
        }
        sb_printf(&key, "%s%.*s", n ? " → " : "", FIND_SEQ_NAME, trace_str(s->t, r->name));
        wait += w;
        n++;
    }
    seq_flush(s, acc, &key, first, wait, &n);
    sb_free(&key);
}

/* ------------------------------------------------------------------------ */
/* exposed-comm and cpu-bound                                               */
/* ------------------------------------------------------------------------ */

static void rule_exposed_comm(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        if (d->type != CPE_OPERATOR || critpath_bound_by(g, d) != CPB_GPU_COMM)
            continue;
        s->sel[e] = 1;
        const struct cp_row *r = edge_row(g, d);
        if (s->on_path[e] && d->weight > 0)
            add_item(acc, trace_str(s->t, r->name), r->ev, d->weight);
    }
}

/* Host op time no earlier rule took, sync calls left out. */
static void rule_cpu_bound(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        if (s->claimed[e] || d->type != CPE_OPERATOR || critpath_bound_by(g, d) != CPB_CPU)
            continue;
        /* time blocked in a sync call is the GPU's, not the host's */
        if (strstr(trace_str(s->t, edge_row(g, d)->name), "Synchronize"))
            continue;
        s->sel[e] = 1;
        if (!s->on_path[e] || d->weight <= 0)
            continue;
        const struct cp_row *r = edge_row(g, d);
        uint32_t op = outer_op(s, r->ev);
        if (op == IDX_NONE)
            op = r->ev;
        add_item(acc, trace_str(s->t, s->t->ev.v[op].name), op, d->weight);
    }
}

/* ------------------------------------------------------------------------ */
/* far-from-roofline and recompute                                          */
/* ------------------------------------------------------------------------ */

/* The kernels of GEMM/convolution/attention rows below the reachable share
 * of their roof, each shrunk to its row's time at that share. */
static void rule_far_from_roof(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    const struct find_roof *fr = s->roof;
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        const struct cp_row *r = edge_row(g, d);
        if (d->type != CPE_OPERATOR || !r || !cp_row_on_gpu(r) || fr->inst_of[r->ev] == IDX_NONE)
            continue;
        const struct find_roof_inst *in = &fr->inst.v[fr->inst_of[r->ev]];
        s->sel[e] = 1;
        s->factor[e] = in->factor;
        if (!s->on_path[e] || d->weight <= 0)
            continue;
        int64_t us = (int64_t)((double)d->weight * (1.0 - in->factor));
        if (us <= 0)
            continue;
        acc->extra[X_COUNT]++;
        if (in->flags & FRF_ALIGN)
            acc->extra[X_ALIGN] += us;
        if (in->flags & FRF_FP32)
            acc->extra[X_FP32] += us;
        if (in->flags & FRF_TINY)
            acc->extra[X_TINY] += us;
        add_item(acc, strtab_str(&fr->keys, in->key), in->op, us);
    }
}

/* The op that launched GPU row r: the innermost cpu_op around its launch
 * call, else the call; IDX_NONE without a launch. */
static uint32_t launcher_op(const struct find_step *s, const struct cp_row *r)
{
    if (r->ic < 0)
        return IDX_NONE;
    uint32_t call = s->g->f->rows.v[r->ic].ev;
    for (uint32_t p = call; p != IDX_NONE; p = s->t->ev.v[p].parent)
        if (s->t->ev.v[p].kind == EVK_CPU_OP)
            return p;
    return call;
}

/* GPU work launched by recomputed ops (recompute.h). */
static void rule_recompute(struct find_step *s, struct find_rule_acc *acc)
{
    struct cp_graph *g = s->g;
    for (size_t e = 0; e < g->edges.n; e++) {
        const struct cp_edge *d = &g->edges.v[e];
        const struct cp_row *r = edge_row(g, d);
        if (d->type != CPE_OPERATOR || !r || !cp_row_on_gpu(r) || r->ic < 0 ||
            !s->recompute[g->f->rows.v[r->ic].ev])
            continue;
        s->sel[e] = 1;
        acc->extra[X_GPU_US] += d->weight > 0 ? d->weight : 0;
        if (!s->on_path[e] || d->weight <= 0)
            continue;
        acc->extra[X_COUNT]++;
        uint32_t op = launcher_op(s, r);
        add_item(acc, trace_str(s->t, s->t->ev.v[op].name), op, d->weight);
    }
}

void find_rule_select(enum finding_kind k, struct find_step *s, struct find_rule_acc *acc)
{
    switch (k) {
    case FK_SYNC:
        rule_sync(s, acc);
        break;
    case FK_DATA_LOADING:
        rule_data_loading(s, acc);
        break;
    case FK_COPY:
        rule_copy(s, acc);
        break;
    case FK_LAUNCH_BOUND:
        rule_launch_bound(s, acc);
        break;
    case FK_EXPOSED_COMM:
        rule_exposed_comm(s, acc);
        break;
    case FK_CPU_BOUND:
        rule_cpu_bound(s, acc);
        break;
    case FK_FAR_FROM_ROOF:
        rule_far_from_roof(s, acc);
        break;
    case FK_RECOMPUTE:
        rule_recompute(s, acc);
        break;
    case FK_STRAGGLER: /* a job's: job_findings.c */
    case FK__COUNT:
        break;
    }
}

bool find_rule_status_note(enum finding_kind k, const struct find_rule_acc *acc, unsigned nsteps,
                           const struct find_roof *roof, struct strbuf *out)
{
    int64_t n = nsteps ? nsteps : 1;
    if (k == FK_FAR_FROM_ROOF && roof && roof->inst.n) {
        sb_printf(out,
                  "%zu GEMM/convolution/attention instances below the share of their roof a "
                  "well-shaped one reaches, %.0f µs above it in the trace; %lld µs/step of that "
                  "on the critical path",
                  roof->inst.n, roof->excess_us, (long long)(acc->saving_us / n));
        return true;
    }
    if (k == FK_RECOMPUTE && acc->extra[X_TRACE_NS] > 0) {
        sb_printf(out,
                  "recomputed ops run %lld µs of GPU time in the trace; %lld µs/step of it is "
                  "in the critical path's graph, %lld µs/step on the path",
                  (long long)(acc->extra[X_TRACE_NS] / 1000), (long long)(acc->extra[X_GPU_US] / n),
                  (long long)(acc->saving_us / n));
        if (!acc->extra[X_GPU_US] && acc->extra[X_NULL_NS])
            sb_printf(out,
                      " (%lld µs of it ran on stream 0, which the graph leaves out: "
                      "§18.1)",
                      (long long)(acc->extra[X_NULL_NS] / 1000));
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Statements                                                               */
/* ------------------------------------------------------------------------ */

void find_rule_statement(enum finding_kind k, const struct find_rule_acc *acc, unsigned nsteps,
                         const struct finding *f, struct strbuf *out)
{
    const char *top = f->evidence.n ? f->evidence.v[0].text : "";
    /* the evidence text starts with its key, then " ×N/step" */
    const char *cut = strstr(top, " ×");
    size_t toplen = cut ? (size_t)(cut - top) : strlen(top);
    double per = nsteps ? (double)acc->extra[X_COUNT] / nsteps : 0;
    switch (k) {
    case FK_SYNC:
        sb_printf(out,
                  "%.*f host sync%s per step drain%s the GPU, which then waits for the next "
                  "launch; most after %.*s: move .item()/.cpu()/nonzero out of the loop or "
                  "after the step",
                  per >= 10 ? 0 : 1, per, per == 1 ? "" : "s", per == 1 ? "s" : "", (int)toplen,
                  top);
        break;
    case FK_DATA_LOADING:
        sb_printf(out,
                  "the step waits for the DataLoader (%.*s): more workers, pin_memory=True, "
                  "prefetching",
                  (int)toplen, top);
        break;
    case FK_COPY:
        sb_printf(out, "copies on the critical path (most: %.*s)", (int)toplen, top);
        if (acc->extra[X_PAGEABLE])
            sb_printf(out,
                      ", %lld µs/step pageable host-to-device: pin the host memory and copy "
                      "with non_blocking=True",
                      (long long)(acc->extra[X_PAGEABLE] / (nsteps ? nsteps : 1)));
        else
            sb_puts(out, ": overlap them with compute on a side stream, or keep the data on "
                         "the GPU");
        break;
    case FK_LAUNCH_BOUND:
        sb_printf(out,
                  "%.*f short kernels (< %d µs) per step wait longer for their launch than "
                  "they run, their launches or waits on the critical path; most time in %.*s: fuse "
                  "them (torch.compile) or "
                  "capture them in a CUDA graph",
                  per >= 10 ? 0 : 1, per, FIND_SHORT_KERNEL_US, (int)toplen, top);
        break;
    case FK_EXPOSED_COMM:
        sb_printf(out,
                  "communication nothing overlaps is on the critical path (most: %.*s): "
                  "overlap it with compute (DDP buckets, FSDP prefetch) or shrink it",
                  (int)toplen, top);
        break;
    case FK_CPU_BOUND:
        sb_printf(out,
                  "the GPU waits for the host: host ops no other finding explains are on the "
                  "critical path, most in %.*s",
                  (int)toplen, top);
        break;
    case FK_FAR_FROM_ROOF: {
        int64_t n = nsteps ? nsteps : 1;
        sb_printf(out,
                  "GEMM/convolution/attention kernels on the critical path run below %.0f %% of "
                  "their roofline (attention %.0f %%); most time above it in %.*s",
                  100 * FIND_ROOF_REACHABLE_GEMM, 100 * FIND_ROOF_REACHABLE_ATTN, (int)toplen, top);
        if (acc->extra[X_ALIGN])
            sb_printf(out,
                      "; %lld µs/step in rows with a dimension not a multiple of 8/16/64: pad it",
                      (long long)(acc->extra[X_ALIGN] / n));
        if (acc->extra[X_FP32])
            sb_printf(out, "; %lld µs/step in fp32 rows where the rest is bf16/fp16: autocast them",
                      (long long)(acc->extra[X_FP32] / n));
        if (acc->extra[X_TINY])
            sb_printf(out, "; %lld µs/step in rows of a tiny batch: batch more work per call",
                      (long long)(acc->extra[X_TINY] / n));
        break;
    }
    case FK_RECOMPUTE:
        sb_printf(out,
                  "activation checkpointing recomputes forward ops in the backward pass: %lld "
                  "µs/step of GPU time, most in %.*s; checkpoint fewer layers (or cheaper ones) "
                  "where memory allows",
                  (long long)(acc->extra[X_GPU_US] / (nsteps ? nsteps : 1)), (int)toplen, top);
        break;
    case FK_STRAGGLER:
    case FK__COUNT:
        break;
    }
}
