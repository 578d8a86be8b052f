/* key_averages: self/total CPU and device time per op name. */
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/argpack.h"
#include "core/trace/devkind.h"
#include "core/base/hash.h"
#include "core/analysis/keyavg.h"
#include "core/analysis/kernstats.h"
#include "core/analysis/shapes.h"
#include "core/base/wide.h"
#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/base/hmap.h"

static bool is_row_event(const struct event *e)
{
    return e->ph == 'X' && (e->kind == EVK_CPU_OP || e->kind == EVK_ANNOTATION ||
                            evk_is_launch(e->kind) || evk_is_gpu(e->kind));
}

static bool is_host_row_event(const struct event *e)
{
    return is_row_event(e) && !evk_is_gpu(e->kind);
}

static bool is_op(const struct event *e)
{
    return e->kind == EVK_CPU_OP || e->kind == EVK_ANNOTATION;
}

/* Source frames of an event: the nearest Python frames above it, leaving
 * out nn.Module frames and the profiler's own. */
static void stack_key(const struct trace *t, uint32_t i, int depth, struct strbuf *out)
{
    int n = 0;
    for (uint32_t p = t->ev.v[i].parent; p != IDX_NONE && n < depth; p = t->ev.v[p].parent) {
        const struct event *e = &t->ev.v[p];
        if (e->kind != EVK_PYTHON || (e->flags & EVF_MODULE))
            continue;
        const char *name = trace_str(t, e->name);
        if (strstr(name, "torch/profiler/") || strstr(name, "torch/autograd/profiler"))
            continue;
        if (n++)
            sb_putc(out, '\n');
        sb_puts(out, name);
    }
}

/* Sums are 128-bit: durations and [memory] byte counts near the int64
 * limits add up past them (core/base/wide.h). */
struct kagg {
    __int128 self_cpu, cpu_total, self_dev, dev_total;
    __int128 self_cpu_mem, cpu_mem, self_dev_mem, dev_mem; /* bytes */
    double flops;
    uint64_t calls;
    uint32_t first;  /* first instance */
    uint32_t name;   /* strtab id */
    uint32_t shapes; /* trace.vals id of Input Dims, 0 */
    char *stack;     /* source frames (malloc), or NULL */
    bool gpu;        /* a kernel row */
    bool nested;     /* the first instance has a row event above it */
};

struct ts_key {
    int64_t ts;
    uint32_t ev, agg;
};

static inline bool ts_less(const struct ts_key *a, const struct ts_key *b)
{
    return a->ts < b->ts || (a->ts == b->ts && a->ev < b->ev);
}

SORT_DEFINE(ts_sort, struct ts_key, ts_less)

enum {
    KA_NAME,
    KA_SELF_CPU_PCT,
    KA_SELF_CPU,
    KA_CPU_TOTAL_PCT,
    KA_CPU_TOTAL,
    KA_CPU_AVG,
    KA_SELF_DEV,
    KA_SELF_DEV_PCT,
    KA_DEV_TOTAL,
    KA_DEV_AVG,
    KA_CPU_MEM,
    KA_SELF_CPU_MEM,
    KA_DEV_MEM,
    KA_SELF_DEV_MEM,
    KA_CALLS,
    KA_SHAPES,
    KA_STACK,
    KA_FLOPS,
    KA_START,
    KA__N
};

/* FLOPs of one op instance: its "flops" arg when the trace has one, else
 * PyTorch's own formulas (torch.profiler with_flops) from the recorded
 * shapes, for the ops PyTorch counts: mm, addmm, bmm, baddbmm, conv2d,
 * mul and add. */
static double op_flops(const struct trace *t, uint32_t ev)
{
    struct argval a;
    double v;
    if (argpack_find(t, ev, "flops", &a) && argpack_val_number(t, &a, &v))
        return v;
    const struct op_info *o = ev_op(t, ev);
    if (!o || !o->input_dims)
        return 0;
    const char *name = ev_name(t, ev);
    enum { MM, ADDMM, BMM, BADDBMM, CONV2D, ELTWISE, NONE } kind = NONE;
    if (strcmp(name, "aten::mm") == 0)
        kind = MM;
    else if (strcmp(name, "aten::addmm") == 0)
        kind = ADDMM;
    else if (strcmp(name, "aten::bmm") == 0)
        kind = BMM;
    else if (strcmp(name, "aten::baddbmm") == 0)
        kind = BADDBMM;
    else if (strcmp(name, "aten::conv2d") == 0)
        kind = CONV2D;
    else if (strcmp(name, "aten::mul") == 0 || strcmp(name, "aten::add") == 0)
        kind = ELTWISE;
    if (kind == NONE)
        return 0;
    struct op_args args;
    if (!shapes_args_of(&args, t, ev))
        return 0;
    double flops = 0;
    const struct shape *d = args.dims;
    switch (kind) {
    case MM:
    case ADDMM: {
        uint32_t a1 = kind == MM ? 0 : 1;
        if (shapes_args_shape(&args, a1 + 1) && d[a1].nd == 2 && d[a1 + 1].nd == 2)
            flops = 2.0 * (double)d[a1].d[0] * (double)d[a1].d[1] * (double)d[a1 + 1].d[1];
        break;
    }
    case BMM:
    case BADDBMM: {
        uint32_t a1 = kind == BMM ? 0 : 1;
        if (shapes_args_shape(&args, a1 + 1) && d[a1].nd == 3 && d[a1 + 1].nd == 3)
            flops = 2.0 * (double)d[a1].d[0] * (double)d[a1].d[1] * (double)d[a1].d[2] *
                    (double)d[a1 + 1].d[2];
        break;
    }
    case CONV2D: {
        /* input [N, C, H, W], weight [K, C/groups, R, S]; stride, padding,
         * dilation and groups from Concrete Inputs (defaults 1, 0, 1, 1). */
        if (!shapes_args_shape(&args, 1) || d[0].nd != 4 || d[1].nd != 4)
            break;
        int64_t st[2] = {1, 1}, pad[2] = {0, 0}, dil[2] = {1, 1}, groups = 1;
        int n;
        shapes_parse_int_list(shapes_args_concrete(&args, 3), st, 2, &n);
        if (n == 1)
            st[1] = st[0];
        shapes_parse_int_list(shapes_args_concrete(&args, 4), pad, 2, &n);
        if (n == 1)
            pad[1] = pad[0];
        shapes_parse_int_list(shapes_args_concrete(&args, 5), dil, 2, &n);
        if (n == 1)
            dil[1] = dil[0];
        shapes_parse_int(shapes_args_concrete(&args, 6), &groups);
        /* Parameters no convolution has (PyTorch refuses them) give none. */
        if (st[0] <= 0 || st[1] <= 0 || groups <= 0 || pad[0] < 0 || pad[1] < 0 || dil[0] <= 0 ||
            dil[1] <= 0)
            break;
        /* 128-bit: recorded parameters may be as large as int64 goes. */
        __int128 oh =
            ((__int128)d[0].d[2] + 2 * (__int128)pad[0] - (__int128)dil[0] * (d[1].d[2] - 1) - 1) /
                st[0] +
            1;
        __int128 ow =
            ((__int128)d[0].d[3] + 2 * (__int128)pad[1] - (__int128)dil[1] * (d[1].d[3] - 1) - 1) /
                st[1] +
            1;
        if (oh > 0 && ow > 0)
            flops = 2.0 * (double)d[0].d[0] * (double)oh * (double)ow * (double)d[1].d[2] *
                    (double)d[1].d[3] * (double)d[0].d[1] * (double)d[1].d[0] / (double)groups;
        break;
    }
    case ELTWISE:
        if (shapes_args_tensor(&args, 0))
            flops = (double)shapes_numel(&d[0]);
        break;
    default:
        break;
    }
    shapes_args_done(&args);
    return flops > 0 ? flops : 0;
}

/* Whether the trace was recorded with profile_memory / with_flops. */
static bool top_flag(const struct trace *t, const char *key)
{
    const cJSON *v = t->top ? cJSON_GetObjectItemCaseSensitive(t->top, key) : NULL;
    return cJSON_IsNumber(v) && v->valuedouble != 0;
}

/* The columns a table may have, in order; make_table leaves out what
 * nothing fills. Timed columns get the time unit in their title. */
static const struct {
    const char *name;
    uint8_t kind, decimals, flags;
    bool timed;
} ka_cols[KA__N] = {
    [KA_NAME] = {"Name", COL_TEXT, 0, COLF_WIDE | COLF_ASC, false},
    [KA_SELF_CPU_PCT] = {"Self CPU %", COL_PERCENT, 2, 0, false},
    [KA_SELF_CPU] = {"Self CPU", COL_FLOAT, 3, 0, true},
    [KA_CPU_TOTAL_PCT] = {"CPU total %", COL_PERCENT, 2, 0, false},
    [KA_CPU_TOTAL] = {"CPU total", COL_FLOAT, 3, 0, true},
    [KA_CPU_AVG] = {"CPU time avg", COL_FLOAT, 3, 0, true},
    [KA_SELF_DEV] = {"Self CUDA", COL_FLOAT, 3, 0, true},
    [KA_SELF_DEV_PCT] = {"Self CUDA %", COL_PERCENT, 2, 0, false},
    [KA_DEV_TOTAL] = {"CUDA total", COL_FLOAT, 3, 0, true},
    [KA_DEV_AVG] = {"CUDA time avg", COL_FLOAT, 3, 0, true},
    [KA_CPU_MEM] = {"CPU Mem", COL_INT, 0, 0, false},
    [KA_SELF_CPU_MEM] = {"Self CPU Mem", COL_INT, 0, 0, false},
    [KA_DEV_MEM] = {"CUDA Mem", COL_INT, 0, 0, false},
    [KA_SELF_DEV_MEM] = {"Self CUDA Mem", COL_INT, 0, 0, false},
    [KA_CALLS] = {"# of Calls", COL_INT, 0, 0, false},
    [KA_SHAPES] = {"Input Shapes", COL_TEXT, 0, COLF_WIDE | COLF_ASC, false},
    [KA_STACK] = {"Source Location", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_LINES, false},
    [KA_FLOPS] = {"Total FLOPs", COL_FLOAT, 3, 0, false},
    [KA_START] = {"Start", COL_FLOAT, 3, 0, true},
};

/* One key-averages (or event list) computation. */
struct kbuild {
    const struct trace *t;
    const struct keyavg_opts *opts;
    bool per_event; /* the event list: one row per event */
    double scale;   /* ns per output unit */
    const char *unit;
    uint32_t *group; /* row event -> its aggregate, IDX_NONE for others */
    VEC(struct kagg) aggs;
    bool any_shapes, any_stack, any_dev, any_mem, any_flops;
    __int128 total_self_cpu, total_self_dev;
    int colmap[KA__N]; /* KA_* -> table column, -1 when left out */
};

/* Each row event joins the aggregate of its key (name, kernel or not, and
 * the shapes and source frames when grouped by them), or one of its own in
 * the event list; CPU and device times are summed as they come. */
static void group_events(struct kbuild *b)
{
    const struct trace *t = b->t;
    const struct keyavg_opts *opts = b->opts;
    bool with_flops = top_flag(t, "with_flops");
    struct hmap by_key;
    hmap_init(&by_key, 1024);
    struct strbuf sk = STRBUF_INIT;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!is_row_event(e))
            continue;
        bool gpu = evk_is_gpu(e->kind);
        b->any_dev |= gpu;
        const struct op_info *o = ev_op(t, i);
        uint32_t shapes = (opts->group_by_shape || b->per_event) && o ? o->input_dims : 0;
        sb_clear(&sk);
        if ((opts->group_by_stack > 0 || b->per_event) && !gpu)
            stack_key(t, i, opts->group_by_stack > 0 ? opts->group_by_stack : 5, &sk);
        uint64_t key = ((uint64_t)e->name << 1 | gpu) * 0x9e3779b97f4a7c15ULL ^
                       (uint64_t)shapes * 0xc2b2ae3d27d4eb4fULL ^
                       (sk.len ? hash_bytes(sk.s, sk.len) : 0);
        uint32_t a = b->per_event ? IDX_NONE : hmap_get(&by_key, key);
        if (a != IDX_NONE) {
            /* Verify: a 64-bit key collision must not merge distinct rows. */
            const struct kagg *g = &b->aggs.v[a];
            if (g->name != e->name || g->gpu != gpu || g->shapes != shapes ||
                strcmp(g->stack ? g->stack : "", sb_str(&sk)) != 0)
                a = IDX_NONE;
        }
        if (a == IDX_NONE) {
            a = (uint32_t)b->aggs.n;
            struct kagg *g = VEC_ADD(&b->aggs);
            g->first = i;
            g->name = e->name;
            g->shapes = shapes;
            g->gpu = gpu;
            g->stack = sk.len ? xstrdup(sk.s) : NULL;
            if (!b->per_event)
                hmap_put(&by_key, key, a);
        }
        struct kagg *g = &b->aggs.v[a];
        g->calls++;
        if (!gpu) {
            g->self_cpu += e->dur;
            g->cpu_total += e->dur;
            if (with_flops && e->kind == EVK_CPU_OP)
                g->flops += op_flops(t, i);
        } else {
            g->self_dev += e->dur;
            g->dev_total += e->dur;
        }
        b->any_shapes |= shapes != 0;
        b->any_stack |= g->stack != NULL;
        b->group[i] = a;
    }
    hmap_free(&by_key);
    sb_free(&sk);
}

/* Memory bytes, CPU and device apart. */
struct mem_sum {
    __int128 cpu, dev;
};

/* A Bytes value: any integer up to 2^64, or a number of less than 2^100. */
static bool mem_bytes(const struct trace *t, const struct argval *a, __int128 *out)
{
    double d;
    if (a->type == ARG_INT)
        *out = a->v.i;
    else if (a->type == ARG_UINT)
        *out = a->v.u;
    else if (argpack_val_number(t, a, &d) && fabs(d) < 0x1p100)
        *out = (__int128)d;
    else
        return false;
    return true;
}

/* The keys a [memory] instant is read by, IDX_NONE where the trace has
 * none. */
struct mem_keys {
    uint32_t name, bytes, dev_type;
};

/* The bytes of a [memory] instant, false when it has no Bytes (the first
 * of a repeated key counts). */
static bool mem_instant(const struct trace *t, const struct mem_keys *k, uint32_t ev,
                        __int128 *bytes, bool *device)
{
    struct argiter it;
    struct argval a;
    bool seen_bytes = false, seen_type = false, have = false;
    int64_t dtype = 0;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a)) {
        if (a.key == k->bytes && !seen_bytes) {
            seen_bytes = true;
            have = mem_bytes(t, &a, bytes);
        } else if (a.key == k->dev_type && !seen_type) {
            seen_type = true;
            argpack_val_int(t, &a, &dtype);
        }
    }
    *device = dtype != 0;
    return have;
}

/* One open span of the sweep below. */
struct kframe {
    uint32_t ev;
    uint32_t row_anc;   /* nearest row event above ev, IDX_NONE */
    uint32_t op_at;     /* frame of the nearest op at or above ev, UINT32_MAX */
    __int128 dev;       /* GPU time launched at or below ev (by the ops there) */
    struct mem_sum mem; /* [memory] bytes at or below ev */
};
typedef VEC(struct kframe) kstack_t;

/* Close the innermost open span: its sums are final, and go to its parent. */
static void kframe_close(struct kbuild *b, kstack_t *st)
{
    const struct kframe done = st->v[--st->n];
    if (b->group[done.ev] != IDX_NONE) {
        struct kagg *g = &b->aggs.v[b->group[done.ev]];
        g->dev_total += done.dev;
        g->cpu_mem += done.mem.cpu;
        g->dev_mem += done.mem.dev;
    }
    if (st->n) {
        struct kframe *p = &st->v[st->n - 1];
        p->dev += done.dev;
        p->mem.cpu += done.mem.cpu;
        p->mem.dev += done.mem.dev;
    }
}

/* Open span ev, a child of the innermost open span (none when the stack is
 * empty), and count what it adds to the spans above it. */
static void kframe_open(struct kbuild *b, kstack_t *st, uint32_t ev)
{
    const struct trace *t = b->t;
    const struct event *e = &t->ev.v[ev];
    const struct kframe *up = st->n ? &st->v[st->n - 1] : NULL;
    struct kframe f = {ev, IDX_NONE, UINT32_MAX, 0, {0, 0}};
    if (up) {
        f.row_anc = is_host_row_event(&t->ev.v[up->ev]) ? up->ev : up->row_anc;
        f.op_at = up->op_at;
    }
    if (is_host_row_event(e)) {
        if (f.row_anc != IDX_NONE && b->group[f.row_anc] != IDX_NONE)
            b->aggs.v[b->group[f.row_anc]].self_cpu -= e->dur;
        if (b->group[ev] != IDX_NONE && b->aggs.v[b->group[ev]].first == ev)
            b->aggs.v[b->group[ev]].nested = f.row_anc != IDX_NONE;
    }
    if (evk_is_launch(e->kind) && e->aux != IDX_NONE && f.op_at != UINT32_MAX) {
        const struct launch_info *li = &t->launches.v[e->aux];
        struct kframe *opf = &st->v[f.op_at];
        uint32_t g = b->group[opf->ev];
        for (uint32_t k = 0; k < li->gpu_count; k++) {
            int64_t d = t->ev.v[t->launch_gpu[li->gpu_first + k]].dur;
            if (g != IDX_NONE)
                b->aggs.v[g].self_dev += d;
            opf->dev += d;
        }
    }
    if (is_op(e))
        f.op_at = (uint32_t)st->n;
    VEC_PUSH(st, f);
}

/* The sums over each row event's descendants, in one sweep of each host
 * row in start order with the stack of spans open there (no array per
 * event, and nothing walks up a deep tree once per event):
 *   - self CPU: a row event's time minus its nearest row descendants';
 *   - device time: self for the op owning the launch, total for it and
 *     every row event above it;
 *   - memory (each [memory] instant's Bytes, negative for frees): self for
 *     the innermost row event around it, total for it and every row event
 *     above.
 * An event's parent (tree.c) is on the stack when the event comes: the
 * spans above the parent there have ended, and are closed first. */
static void add_tree_sums(struct kbuild *b)
{
    const struct trace *t = b->t;
    const struct mem_keys mk = {strtab_find(&t->strs, "[memory]", 8),
                                strtab_find(&t->strs, "Bytes", 5),
                                strtab_find(&t->strs, "Device Type", 11)};
    kstack_t st = {0};
    for (uint32_t r = 0; r < t->rows.n; r++) {
        const struct row *row = &t->rows.v[r];
        if (row->cls != ROW_HOST || !row->order)
            continue;
        for (uint32_t k = 0; k < row->nevents; k++) {
            uint32_t i = row->order[k];
            const struct event *e = &t->ev.v[i];
            bool span = evk_is_host_span(e->kind) && e->ph == 'X';
            bool mem = e->kind == EVK_INSTANT && e->name == mk.name;
            if (!span && !(mem && e->parent != IDX_NONE))
                continue;
            while (st.n && st.v[st.n - 1].ev != e->parent)
                kframe_close(b, &st);
            if (span) {
                kframe_open(b, &st, i);
                continue;
            }
            __int128 bytes;
            bool device;
            if (!st.n || !mem_instant(t, &mk, i, &bytes, &device))
                continue;
            struct kframe *p = &st.v[st.n - 1];
            *(device ? &p->mem.dev : &p->mem.cpu) += bytes;
            uint32_t owner = is_host_row_event(&t->ev.v[p->ev]) ? p->ev : p->row_anc;
            if (owner != IDX_NONE && b->group[owner] != IDX_NONE) {
                struct kagg *g = &b->aggs.v[b->group[owner]];
                *(device ? &g->self_dev_mem : &g->self_cpu_mem) += bytes;
            }
        }
        while (st.n)
            kframe_close(b, &st);
    }
    VEC_FREE(&st);
    /* The memory columns show for a [memory] instant anywhere, on any row
     * and inside a span or not. */
    for (uint32_t i = 0; i < t->ev.n && !b->any_mem && mk.name != IDX_NONE; i++)
        b->any_mem = t->ev.v[i].kind == EVK_INSTANT && t->ev.v[i].name == mk.name;
}

/* Self CPU below zero (children overlapping their parent) reads as zero;
 * then the totals the percentages are of. */
static void finish_totals(struct kbuild *b)
{
    for (size_t a = 0; a < b->aggs.n; a++) {
        struct kagg *g = &b->aggs.v[a];
        b->any_flops |= g->flops > 0;
        if (g->self_cpu < 0)
            g->self_cpu = 0;
        b->total_self_cpu += g->self_cpu;
        if (g->gpu)
            b->total_self_dev += g->self_dev;
    }
}

/* FLOPs in one unit for the whole column, as PyTorch prints them: the
 * largest power of 1000 the biggest value reaches. Returns the scale and
 * sets *prefix ("", "K", ..., "P"). */
static double flops_unit(const struct kbuild *b, const char **prefix)
{
    static const char *const prefixes[] = {"", "K", "M", "G", "T", "P"};
    double max = 0;
    for (size_t a = 0; a < b->aggs.n; a++)
        max = fmax(max, b->aggs.v[a].flops);
    *prefix = "";
    for (int k = 5; k > 0; k--)
        if (max >= pow(1000.0, k)) {
            *prefix = prefixes[k];
            return pow(1000.0, k);
        }
    return 1;
}

/* A column name with PyTorch's device name in it: "Self CUDA" reads
 * "Self MTIA" for an MTIA trace, as PyTorch names the columns after the
 * profiler's device (devkind.h); written into buf (size n). */
static const char *device_col_name(const char *name, enum device_kind k, char *buf, size_t n)
{
    const char *at = strstr(name, "CUDA");
    if (!at || k != DEVKIND_MTIA)
        return name;
    snprintf(buf, n, "%.*sMTIA%s", (int)(at - name), name, at + 4);
    return buf;
}

/* The table with the columns something fills; fills b->colmap. */
static struct table *make_table(struct kbuild *b, const char *flops_prefix)
{
    bool on[KA__N];
    for (int c = 0; c < KA__N; c++)
        on[c] = true;
    if (!b->any_dev)
        on[KA_SELF_DEV] = on[KA_SELF_DEV_PCT] = on[KA_DEV_TOTAL] = on[KA_DEV_AVG] = false;
    on[KA_SHAPES] = b->any_shapes;
    on[KA_STACK] = b->any_stack;
    on[KA_CPU_MEM] = on[KA_SELF_CPU_MEM] = on[KA_DEV_MEM] = on[KA_SELF_DEV_MEM] = b->any_mem;
    on[KA_FLOPS] = b->any_flops;
    on[KA_START] = b->per_event;
    if (b->per_event)
        on[KA_CPU_AVG] = on[KA_DEV_AVG] = on[KA_CALLS] = false;
    char titles[KA__N][40], names[KA__N][40];
    struct table_col cols[KA__N];
    size_t nc = 0;
    for (int c = 0; c < KA__N; c++) {
        b->colmap[c] = -1;
        if (!on[c])
            continue;
        const char *name = device_col_name(ka_cols[c].name, (enum device_kind)b->t->device_kind,
                                           names[c], sizeof(names[c]));
        if (c == KA_FLOPS)
            snprintf(titles[c], sizeof(titles[c]), "Total %sFLOPs", flops_prefix);
        else
            snprintf(titles[c], sizeof(titles[c]), ka_cols[c].timed ? "%s (%s)" : "%s", name,
                     b->unit);
        /* The FLOPs column's name carries its unit ("Total GFLOPs"), as
         * PyTorch prints it, so CSV and JSON readers know the scale. */
        cols[nc] = (struct table_col){c == KA_FLOPS ? titles[c] : name, titles[c], ka_cols[c].kind,
                                      ka_cols[c].decimals, ka_cols[c].flags};
        b->colmap[c] = (int)nc++;
    }
    struct table *tab =
        b->per_event ? table_new("events", "Events (PyTorch profiler event list)", cols, nc)
                     : table_new("key_averages", "Key averages (PyTorch profiler table)", cols, nc);
    /* The titles and device names are on this stack frame: the table
     * keeps copies. */
    for (size_t c = 0; c < nc; c++) {
        tab->cols[c].title = arena_strndup(&tab->arena, cols[c].title, strlen(cols[c].title));
        if (cols[c].name == cols[c].title)
            tab->cols[c].name = tab->cols[c].title;
        else
            tab->cols[c].name = arena_strndup(&tab->arena, cols[c].name, strlen(cols[c].name));
    }
    return tab;
}

/* The aggregates in row order (malloc'd): as made for key averages, by
 * start (then file order) for the event list. */
static uint32_t *row_order(const struct kbuild *b)
{
    size_t n = b->aggs.n;
    uint32_t *order = xmalloc((n + 1) * sizeof(uint32_t));
    for (size_t a = 0; a < n; a++)
        order[a] = (uint32_t)a;
    if (!b->per_event)
        return order;
    struct ts_key *keys = xmalloc((n + 1) * sizeof(*keys));
    for (size_t a = 0; a < n; a++)
        keys[a] =
            (struct ts_key){b->t->ev.v[b->aggs.v[a].first].ts, b->aggs.v[a].first, (uint32_t)a};
    ts_sort(keys, n);
    for (size_t a = 0; a < n; a++)
        order[a] = keys[a].agg;
    free(keys);
    return order;
}

/* One row's cells for aggregate g. */
static void fill_row(const struct kbuild *b, struct table *tab, size_t r, const struct kagg *g,
                     double flops_scale, struct strbuf *sb)
{
    const struct trace *t = b->t;
    const int *colmap = b->colmap;
    double scale = b->scale;
#define SETF(col, v)                                                                               \
    if (colmap[col] >= 0)                                                                          \
    table_set_float(tab, r, (size_t)colmap[col], (v))
    if (g->gpu) {
        char *name = kernstats_display_name(trace_str(t, g->name));
        table_set_text(tab, r, (size_t)colmap[KA_NAME], name);
        free(name);
    } else {
        double total = (double)b->total_self_cpu;
        table_set_text(tab, r, (size_t)colmap[KA_NAME], trace_str(t, g->name));
        SETF(KA_SELF_CPU_PCT, total ? 100.0 * g->self_cpu / total : 0);
        SETF(KA_SELF_CPU, g->self_cpu / scale);
        SETF(KA_CPU_TOTAL_PCT, total ? 100.0 * g->cpu_total / total : 0);
        SETF(KA_CPU_TOTAL, g->cpu_total / scale);
        SETF(KA_CPU_AVG, g->cpu_total / scale / (double)g->calls);
    }
    if (g->self_dev || g->dev_total) {
        double total = (double)b->total_self_dev;
        SETF(KA_SELF_DEV, g->self_dev / scale);
        SETF(KA_SELF_DEV_PCT, total ? 100.0 * g->self_dev / total : 0);
        SETF(KA_DEV_TOTAL, g->dev_total / scale);
        SETF(KA_DEV_AVG, g->dev_total / scale / (double)g->calls);
    }
#undef SETF
    if (colmap[KA_CALLS] >= 0)
        table_set_int(tab, r, (size_t)colmap[KA_CALLS], (int64_t)g->calls);
    if (b->any_mem && !g->gpu) {
        table_set_int(tab, r, (size_t)colmap[KA_CPU_MEM], wide_clamp(g->cpu_mem));
        table_set_int(tab, r, (size_t)colmap[KA_SELF_CPU_MEM], wide_clamp(g->self_cpu_mem));
        table_set_int(tab, r, (size_t)colmap[KA_DEV_MEM], wide_clamp(g->dev_mem));
        table_set_int(tab, r, (size_t)colmap[KA_SELF_DEV_MEM], wide_clamp(g->self_dev_mem));
    }
    if (b->any_flops && g->flops > 0)
        table_set_float(tab, r, (size_t)colmap[KA_FLOPS], g->flops / flops_scale);
    if (colmap[KA_SHAPES] >= 0 && g->shapes) {
        sb_clear(sb);
        pyval_put_json(sb, trace_val(t, g->shapes));
        table_set_text(tab, r, (size_t)colmap[KA_SHAPES], sb_str(sb));
    }
    if (colmap[KA_START] >= 0)
        table_set_float(tab, r, (size_t)colmap[KA_START],
                        (double)(t->ev.v[g->first].ts - t->t_start) / scale);
    table_set_ref(tab, r, g->first);
    /* One frame a line, innermost first: text and md print the frames after
     * the first on rows of their own, as PyTorch's table does. */
    if (colmap[KA_STACK] >= 0 && g->stack)
        table_set_text(tab, r, (size_t)colmap[KA_STACK], g->stack);
}

/* The rows, in row order. top_level_only prints the rows whose (first)
 * event has no enclosing row event, as PyTorch skips those with a
 * cpu_parent, after the totals were taken over every event. Returns the
 * table row of each aggregate, IDX_NONE for those left out (malloc'd). */
static uint32_t *fill_rows(const struct kbuild *b, struct table *tab, double flops_scale)
{
    uint32_t *order = row_order(b);
    uint32_t *row_of = xmalloc((b->aggs.n + 1) * sizeof(uint32_t));
    struct strbuf sb = STRBUF_INIT;
    for (size_t k = 0; k < b->aggs.n; k++) {
        const struct kagg *g = &b->aggs.v[order[k]];
        row_of[order[k]] = IDX_NONE;
        if (b->opts->top_level_only && !g->gpu && g->nested)
            continue;
        size_t r = table_add_row(tab);
        row_of[order[k]] = (uint32_t)r;
        fill_row(b, tab, r, g, flops_scale, &sb);
    }
    sb_free(&sb);
    free(order);
    return row_of;
}

/* Instances by table row, each row's in event order; rows left out by
 * top_level_only have none. */
static void set_instances(const struct kbuild *b, struct table *tab, const uint32_t *row_of)
{
    const struct trace *t = b->t;
    uint32_t *first = xcalloc(tab->nrows + 2, sizeof(uint32_t));
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (b->group[i] != IDX_NONE && row_of[b->group[i]] != IDX_NONE)
            first[row_of[b->group[i]] + 2]++;
    for (size_t r = 0; r < tab->nrows; r++)
        first[r + 2] += first[r + 1];
    uint32_t *list = xmalloc(((size_t)first[tab->nrows + 1] + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (b->group[i] != IDX_NONE && row_of[b->group[i]] != IDX_NONE)
            list[first[row_of[b->group[i]] + 1]++] = i;
    table_set_instances(tab, first, list);
}

/* Key averages by device total, else CPU total; ties fall back to the row
 * keys, never to ids. */
static void sort_by_total(const struct kbuild *b, struct table *tab)
{
    const int *colmap = b->colmap;
    int total = colmap[KA_DEV_TOTAL] >= 0 ? colmap[KA_DEV_TOTAL] : colmap[KA_CPU_TOTAL];
    const struct table_sort_key keys[] = {
        {(size_t)total, true},
        {(size_t)colmap[KA_NAME], false},
        {colmap[KA_SHAPES] >= 0 ? (size_t)colmap[KA_SHAPES] : SIZE_MAX, false},
        {colmap[KA_STACK] >= 0 ? (size_t)colmap[KA_STACK] : SIZE_MAX, false},
    };
    table_sort_keys(tab, keys, ARRAY_SIZE(keys));
}

/* Key averages (grouped) or the event list (one row per event, in start
 * order, each followed by rows holding its source frames). */
static struct table *build(const struct trace *t, const struct keyavg_opts *opts, bool per_event)
{
    struct kbuild b = {.t = t, .opts = opts, .per_event = per_event};
    b.scale = opts->time_scale > 0 ? opts->time_scale : 1e3;
    b.unit = opts->time_unit ? opts->time_unit : "us";
    b.any_mem = top_flag(t, "profile_memory");
    b.group = xmalloc((t->ev.n + 1) * sizeof(uint32_t));
    memset(b.group, 0xff, (t->ev.n + 1) * sizeof(uint32_t));

    group_events(&b);
    add_tree_sums(&b);
    finish_totals(&b);

    const char *flops_prefix;
    double flops_scale = flops_unit(&b, &flops_prefix);
    struct table *tab = make_table(&b, flops_prefix);
    uint32_t *row_of = fill_rows(&b, tab, flops_scale);
    set_instances(&b, tab, row_of);
    free(row_of);
    free(b.group);
    for (size_t a = 0; a < b.aggs.n; a++)
        free(b.aggs.v[a].stack);
    VEC_FREE(&b.aggs);

    if (!per_event)
        sort_by_total(&b, tab);
    table_add_note(tab, "times in %s; Self CPU total %.3f %s%s%s", b.unit,
                   (double)b.total_self_cpu / b.scale, b.unit,
                   b.any_mem ? "; memory in bytes (frees negative)" : "",
                   b.any_flops ? "; FLOPs from the ops' flops args, else PyTorch's formulas on the "
                                 "recorded shapes"
                               : "");
    return tab;
}

struct table *keyavg_table(const struct trace *t, const struct keyavg_opts *opts)
{
    return build(t, opts, false);
}

struct table *keyavg_events_table(const struct trace *t, const struct keyavg_opts *opts)
{
    return build(t, opts, true);
}

int keyavg_sort_column(const struct table *tab, const char *sort_by)
{
    /* PyTorch's FunctionEventAvg attributes and the columns showing them. */
    static const struct {
        const char *attr, *col;
    } attrs[] = {
        {"self_cpu_time_total", "Self CPU"},
        {"cpu_time_total", "CPU total"},
        {"cpu_time", "CPU time avg"},
        {"self_device_time_total", "Self CUDA"},
        {"device_time_total", "CUDA total"},
        {"device_time", "CUDA time avg"},
        {"cpu_memory_usage", "CPU Mem"},
        {"self_cpu_memory_usage", "Self CPU Mem"},
        {"device_memory_usage", "CUDA Mem"},
        {"self_device_memory_usage", "Self CUDA Mem"},
        {"count", "# of Calls"},
    };
    if (strcmp(tab->name, "key_averages") != 0 && strcmp(tab->name, "events") != 0)
        return -1;
    /* PyTorch reads "cuda", "xpu" and "privateuse1" in a key as "device";
     * so does torchtop "mtia". */
    struct strbuf key = STRBUF_INIT;
    for (const char *p = sort_by; *p;) {
        static const char *const dev[] = {"cuda", "xpu", "privateuse1", "mtia"};
        size_t k = 0;
        while (k < ARRAY_SIZE(dev) && strncmp(p, dev[k], strlen(dev[k])) != 0)
            k++;
        if (k < ARRAY_SIZE(dev)) {
            sb_puts(&key, "device");
            p += strlen(dev[k]);
        } else {
            sb_putc(&key, *p++);
        }
    }
    int col = -1;
    if (strcmp(sb_str(&key), "flops") == 0) {
        /* "Total FLOPs", "Total GFLOPs", ...: the name carries the unit. */
        for (size_t c = 0; c < tab->ncols && col < 0; c++) {
            const char *n = tab->cols[c].name;
            size_t len = strlen(n);
            if (strncmp(n, "Total ", 6) == 0 && len >= 11 && strcmp(n + len - 5, "FLOPs") == 0)
                col = (int)c;
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(attrs) && col < 0; i++)
        if (strcmp(sb_str(&key), attrs[i].attr) == 0) {
            char mtia[40];
            col = table_col_index(tab, attrs[i].col);
            if (col < 0) /* the device columns of an MTIA trace */
                col = table_col_index(
                    tab, device_col_name(attrs[i].col, DEVKIND_MTIA, mtia, sizeof(mtia)));
        }
    sb_free(&key);
    return col;
}
