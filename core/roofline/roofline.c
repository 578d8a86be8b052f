/* Roofline analysis: modelled instances, their grouping into parameter
 * combinations per sheet, and the per-instance line. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/interval.h"
#include "core/roofline/roofline_internal.h"
#include "core/base/sort.h"
#include "core/trace/argpack.h"
#include "core/trace/opname.h"

/* ------------------------------------------------------------------------ */
/* Models per event                                                         */
/* ------------------------------------------------------------------------ */

/* Model of an event's op name (cached per name); NULL when none. */
static const struct pm_model *rf_model(struct roofline *r, uint32_t ev)
{
    const struct event *e = &r->t->ev.v[ev];
    if (e->kind != EVK_CPU_OP)
        return NULL;
    uint32_t name = opname_of(r->t, ev);
    uint32_t k = hmap_get(&r->model_of, name);
    if (k == IDX_NONE) {
        const struct pm_model *m = pm_find(trace_str(r->t, name));
        VEC_PUSH(&r->models, m);
        k = (uint32_t)r->models.n - 1;
        hmap_put(&r->model_of, name, k);
    }
    return r->models.v[k];
}

/* Families, for "does this backward node hold an op of the same family". */
static int family(enum pm_sheet s)
{
    switch (s) {
    case PM_GEMM:
    case PM_GEMM_BWD:
        return 0;
    case PM_CONV_FWD:
    case PM_CONV_BWD:
        return 1;
    case PM_SDPA_FWD:
    case PM_SDPA_BWD:
        return 2;
    case PM_BINARY:
    case PM_UNARY:
        return 3;
    case PM_REDUCE_FWD:
    case PM_REDUCE_BWD:
        return 4;
    case PM_INFER_ATTN:
        return 6;
    case PM_ROPE:
        return 7;
    case PM_TRITON:
        return 8;
    case PM_MOE_UNFUSED:
    case PM_MOE_FUSED:
        return 9;
    case PM_GROUPED_GEMM:
        return 10;
    case PM_MOE_COMM:
        return 11;
    case PM_XENT:
        return 12;
    case PM_SOFTMAX:
        return 13;
    default:
        return 5;
    }
}

static bool subtree_has_family(struct roofline *r, uint32_t root, int fam)
{
    const struct trace *t = r->t;
    VEC(uint32_t) stack = {0};
    bool found = false;
    for (uint32_t c = t->ev.v[root].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
        VEC_PUSH(&stack, c);
    while (stack.n && !found) {
        uint32_t e = stack.v[--stack.n];
        const struct pm_model *m = rf_model(r, e);
        if (m && family(m->sheet) == fam)
            found = true;
        for (uint32_t c = t->ev.v[e].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
            VEC_PUSH(&stack, c);
    }
    VEC_FREE(&stack);
    return found;
}

/* Whether an op above ev is modelled by the same family. Such an op
 * already counts ev's kernels (aten::convolution > aten::_convolution >
 * aten::miopen_convolution; aten::scaled_dot_product_attention >
 * aten::_scaled_dot_product_flash_attention > aten::_flash_attention_forward):
 * only the outermost is an instance, or the kernels would count once per
 * level. Ops without a model in between (aten::matmul above aten::mm) do
 * not count. */
static bool nested_in_family(struct roofline *r, uint32_t ev, int fam)
{
    for (uint32_t p = r->t->ev.v[ev].parent; p != IDX_NONE; p = r->t->ev.v[p].parent) {
        const struct pm_model *m = rf_model(r, p);
        if (m && family(m->sheet) == fam)
            return true;
    }
    return false;
}

static inline bool seq_ev_less(const struct seq_ev *a, const struct seq_ev *b)
{
    return a->seq < b->seq || (a->seq == b->seq && a->ev < b->ev);
}

SORT_DEFINE(seq_ev_sort, struct seq_ev, seq_ev_less)

/* The first op under root (root excluded) that bwd_sheet models and whose
 * arguments parse into *out (released by the caller); IDX_NONE when none. */
static uint32_t find_in_subtree(struct roofline *r, uint32_t root, enum pm_sheet bwd_sheet,
                                struct op_args *out)
{
    const struct trace *t = r->t;
    VEC(uint32_t) stack = {0};
    uint32_t found = IDX_NONE;
    VEC_PUSH(&stack, root);
    while (stack.n && found == IDX_NONE) {
        uint32_t e = stack.v[--stack.n];
        const struct pm_model *m = rf_model(r, e);
        if (m && m->sheet == bwd_sheet && e != root) {
            if (shapes_args_of(out, t, e))
                found = e;
            else
                shapes_args_done(out);
        }
        for (uint32_t c = t->ev.v[e].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
            VEC_PUSH(&stack, c);
    }
    VEC_FREE(&stack);
    return found;
}

/* For a forward op recorded without Concrete Inputs: the backward op of the
 * same family under the backward node linked to it (or to the op it is
 * nested in), its arguments in *out. Traces before PyTorch 1.10 name their
 * backward nodes after the function ("CudnnConvolutionBackward"), which
 * the forward<->backward link does not pair; there the node is an op with
 * the forward op's Sequence number on another thread. IDX_NONE when there
 * is none. */
static uint32_t find_linked(struct roofline *r, uint32_t ev, enum pm_sheet bwd_sheet,
                            struct op_args *out)
{
    const struct trace *t = r->t;
    int64_t seq = -1;
    for (uint32_t e = ev, depth = 0; e != IDX_NONE && depth < 8; e = t->ev.v[e].parent, depth++) {
        const struct op_info *o = ev_op(t, e);
        if (o && o->partner != IDX_NONE && (t->ev.v[o->partner].flags & EVF_BACKWARD))
            return find_in_subtree(r, o->partner, bwd_sheet, out);
        if (o && seq < 0)
            seq = o->seq;
    }
    if (seq < 0)
        return IDX_NONE;
    if (!r->seqs_built) {
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct op_info *o = t->ev.v[i].kind == EVK_CPU_OP ? ev_op(t, i) : NULL;
            if (o && o->seq >= 0)
                VEC_PUSH(&r->seqs, ((struct seq_ev){o->seq, i}));
        }
        seq_ev_sort(r->seqs.v, r->seqs.n);
        r->seqs_built = true;
    }
    size_t lo = 0, hi = r->seqs.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r->seqs.v[mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < r->seqs.n && r->seqs.v[lo].seq == seq; lo++) {
        uint32_t b = r->seqs.v[lo].ev;
        if (t->ev.v[b].row == t->ev.v[ev].row)
            continue;
        uint32_t found = find_in_subtree(r, b, bwd_sheet, out);
        if (found != IDX_NONE)
            return found;
    }
    return IDX_NONE;
}

/* ------------------------------------------------------------------------ */
/* Grouping                                                                 */
/* ------------------------------------------------------------------------ */

/* A grouping key looked up among the groups. */
struct group_probe {
    const struct roofline *r;
    const char *key;
    uint64_t hash;
};

static bool group_eq(const void *probe, uint32_t g)
{
    const struct group_probe *p = probe;
    const struct rf_group *gr = &p->r->groups.v[g];
    return gr->hash == p->hash && strcmp(gr->key, p->key) == 0;
}

static uint32_t group_hash_of(const void *r, uint32_t g)
{
    return (uint32_t)((const struct roofline *)r)->groups.v[g].hash;
}

static uint32_t group_of(struct roofline *r, uint32_t name, const struct pm_result *res,
                         bool recompute)
{
    struct strbuf key = STRBUF_INIT;
    sb_printf(&key, "%u\x1f%u\x1f%s\x1f%d", (unsigned)res->sheet, (unsigned)name,
              res->name ? res->name : "", recompute);
    for (size_t i = 0; i < res->nparams; i++) {
        const char *p = pm_param(res, i);
        sb_putc(&key, '\x1f');
        sb_puts(&key, p ? p : "\x1e");
    }
    uint64_t h = hash_bytes(key.s, key.len);
    struct group_probe probe = {r, sb_str(&key), h};
    uint32_t found = hmap_find(&r->group_of_key, (uint32_t)h, group_eq, &probe);
    if (found != IDX_NONE) {
        sb_free(&key);
        return found;
    }
    struct rf_group *g = VEC_ADD(&r->groups);
    g->sheet = (uint8_t)res->sheet;
    g->name = name;
    g->pseudo = res->name;
    g->recompute = recompute;
    g->hash = h;
    g->key = arena_strndup(&r->arena, sb_str(&key), key.len);
    g->nparams = res->nparams;
    g->params = arena_alloc(&r->arena, (res->nparams + 1) * sizeof(*g->params));
    for (size_t i = 0; i < res->nparams; i++) {
        const char *p = pm_param(res, i);
        g->params[i] = p ? arena_strndup(&r->arena, p, strlen(p)) : NULL;
    }
    g->first = (uint32_t)r->inst.n;
    g->tl_flops = res->tl_flops;
    g->tl_bytes = res->tl_bytes;
    memcpy(g->spec, res->spec, sizeof(g->spec));
    g->model = res->model;
    g->differs = res->differs;
    hmap_add(&r->group_of_key, (uint32_t)h, (uint32_t)r->groups.n - 1, group_hash_of, r);
    sb_free(&key);
    return (uint32_t)r->groups.n - 1;
}

double rf_kernel_us(const struct roofline *r, uint32_t ev)
{
    const struct event *self = &r->t->ev.v[ev];
    if (evk_is_gpu(self->kind)) /* a pseudo op's own kernel */
        return (double)self->dur / 1000.0;
    uint32_t n;
    const uint32_t *evs = gputime_subtree_events(r->a->gt, ev, &n);
    ivals_t iv = {0};
    for (uint32_t k = 0; k < n; k++) {
        const struct event *e = &r->t->ev.v[evs[k]];
        if (!(e->flags & EVF_COMM))
            VEC_PUSH(&iv, ((struct ival){e->ts, ev_end(e)}));
    }
    double us = (double)ival_union_length(iv.v, iv.n) / 1000.0;
    VEC_FREE(&iv);
    return us;
}

const char *rf_group_name(const struct roofline *r, const struct rf_group *g)
{
    return g->pseudo ? g->pseudo : trace_str(r->t, g->name);
}

static void add_inst(struct roofline *r, uint32_t ev, uint32_t time_ev, bool bwd,
                     const struct pm_result *res)
{
    /* A backward modelled through the link is the backward node's. */
    bool rc = analysis_is_recompute(r->a, bwd ? time_ev : ev);
    uint32_t g = group_of(r, opname_of(r->t, ev), res, rc);
    struct rf_inst *in = VEC_ADD(&r->inst);
    in->ev = ev;
    in->time_ev = time_ev;
    in->group = g;
    in->bwd = bwd;
    in->flops = res->flops;
    in->bytes = res->bytes;
    in->kernel_us = rf_kernel_us(r, time_ev);
    struct rf_group *gr = &r->groups.v[g];
    gr->count++;
    gr->kt_sum += in->kernel_us;
    hmap_put(&r->by_time_ev, time_ev, (uint32_t)r->inst.n - 1);
}

/* The sums of the iteration annotation of the serving step an op ran in,
 * NULL when there is none: the innermost one whose span holds the op's
 * start (the latest to start). A captured op (capture.h) is a copy placed
 * after its graph launch with the capture's durations, so it can outlast
 * the step that replayed it: it takes the latest annotation of its process
 * that started before it (the launch's copies live on a row of the
 * launch's process). */
static const struct iterann *iter_of(struct roofline *r, uint32_t ev)
{
    const struct trace *t = r->t;
    if (!r->iters_built) {
        for (size_t i = 0; i < t->ev.n; i++) {
            const struct event *e = &t->ev.v[i];
            struct rf_iter it;
            if (e->kind != EVK_ANNOTATION || !iterann_parse(trace_str(t, e->name), &it.sums))
                continue;
            it.ts = e->ts;
            it.end = ev_end(e);
            it.pid = t->rows.v[e->row].pid;
            VEC_PUSH(&r->iters, it);
        }
        r->iters_built = true;
    }
    const struct event *e = &t->ev.v[ev];
    bool captured = (e->flags & EVF_CAPTURED) != 0;
    int64_t pid = t->rows.v[e->row].pid;
    const struct rf_iter *best = NULL;
    for (size_t i = 0; i < r->iters.n; i++) {
        const struct rf_iter *it = &r->iters.v[i];
        bool holds = captured ? it->pid == pid : e->ts <= it->end;
        if (it->ts <= e->ts && holds && (!best || it->ts >= best->ts))
            best = it;
    }
    return best ? &best->sums : NULL;
}

/* A number-valued arg of event ev; 0 when absent or not a finite number
 * >= 0 (Inductor's estimates, where 0 means none). */
static double arg_number(const struct trace *t, uint32_t ev, const char *key)
{
    struct argval a;
    double v;
    if (!argpack_find(t, ev, key, &a) || !argpack_val_number(t, &a, &v) || !isfinite(v) || v < 0)
        return 0;
    return v;
}

/* The k of the first TopK op under ev (through up to 12 levels of
 * wrappers): its Concrete Inputs 1; 4 when there is none, as TraceLens
 * assumes. */
static int64_t moe_topk_under(const struct trace *t, uint32_t ev)
{
    struct item {
        uint32_t ev;
        int depth;
    };
    VEC(struct item) stack = {0};
    int64_t k = 4;
    bool found = false;
    for (uint32_t c = t->ev.v[ev].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
        VEC_PUSH(&stack, ((struct item){c, 1}));
    while (stack.n && !found) {
        struct item it = stack.v[--stack.n];
        const struct event *e = &t->ev.v[it.ev];
        if (e->kind == EVK_CPU_OP && strstr(trace_str(t, e->name), "TopK")) {
            struct op_args a;
            int64_t v;
            if (shapes_args_of(&a, t, it.ev) && shapes_parse_int(shapes_args_concrete(&a, 1), &v) &&
                v > 0) {
                k = v;
                found = true;
            }
            shapes_args_done(&a);
        }
        if (it.depth < 12)
            for (uint32_t c = e->first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
                VEC_PUSH(&stack, ((struct item){c, it.depth + 1}));
    }
    VEC_FREE(&stack);
    return k;
}

/* An op modelled by parts (m->part_kernel): one pseudo-op instance per
 * kernel under it that part_kernel accepts, in time order, each timed by
 * its kernel. */
static void model_parts(struct roofline *r, uint32_t ev, const struct pm_model *m, struct pm_ctx *c,
                        const uint32_t *gpu, uint32_t ngpu, struct pm_result *res)
{
    const struct trace *t = r->t;
    VEC(uint32_t) parts = {0};
    for (uint32_t k = 0; k < ngpu; k++) {
        const struct event *e = &t->ev.v[gpu[k]];
        if (e->kind == EVK_KERNEL && m->part_kernel(trace_str(t, e->name)))
            VEC_PUSH(&parts, gpu[k]);
    }
    for (size_t i = 1; i < parts.n; i++) /* by start; few kernels */
        for (size_t j = i; j > 0 && t->ev.v[parts.v[j]].ts < t->ev.v[parts.v[j - 1]].ts; j--) {
            uint32_t x = parts.v[j];
            parts.v[j] = parts.v[j - 1];
            parts.v[j - 1] = x;
        }
    if (m->sheet == PM_MOE_UNFUSED)
        c->moe_topk = moe_topk_under(t, ev);
    c->pseudo_count = (uint32_t)parts.n;
    const char *why = NULL;
    if (!parts.n && !pm_eval(m, c, res))
        why = res->why ? res->why : "arguments do not fit the model";
    for (size_t i = 0; i < parts.n; i++) {
        c->pseudo_kernel = trace_str(t, t->ev.v[parts.v[i]].name);
        c->pseudo_index = (uint32_t)i;
        if (pm_eval(m, c, res))
            add_inst(r, ev, parts.v[i], false, res);
        else if (!why)
            why = res->why ? res->why : "arguments do not fit the model";
    }
    if (why) {
        struct rf_fail f = {ev, why};
        VEC_PUSH(&r->fails, f);
    }
    VEC_FREE(&parts);
}

static void model_event(struct roofline *r, uint32_t ev, const struct pm_model *m)
{
    const struct trace *t = r->t;
    struct op_args args, linked;
    if (!shapes_args_of(&args, t, ev)) {
        shapes_args_done(&args);
        struct rf_fail f = {ev, "no shapes recorded for this op"};
        VEC_PUSH(&r->fails, f);
        return;
    }
    struct pm_ctx c = {.op = opname_str(t, ev), .a = &args};
    uint32_t ngpu;
    const uint32_t *gpu = gputime_subtree_events(r->a->gt, ev, &ngpu);
    const char **kernels = xmalloc((ngpu + 1) * sizeof(*kernels));
    for (uint32_t k = 0; k < ngpu; k++)
        if (t->ev.v[gpu[k]].kind == EVK_KERNEL)
            kernels[c.nkernels++] = trace_str(t, t->ev.v[gpu[k]].name);
    c.kernels = kernels;
    if (m->sheet == PM_INFER_ATTN)
        c.iter = iter_of(r, ev);
    if (m->sheet == PM_TRITON) {
        c.inductor = inductor_cache_find(r->ic, c.op);
        c.inductor_flop = arg_number(t, ev, "kernel_flop");
        c.inductor_num_gb = arg_number(t, ev, "kernel_num_gb");
    }
    bool have_linked = false;
    if (m->sheet == PM_CONV_FWD && args.n && !*args.concrete[3] && !*args.concrete[2]) {
        uint32_t l = find_linked(r, ev, PM_CONV_BWD, &linked);
        have_linked = l != IDX_NONE;
        if (have_linked) {
            c.linked = &linked;
            c.linked_op = opname_str(t, l);
        }
    }
    struct pm_result *res = xmalloc(sizeof(*res));
    if (m->part_kernel) {
        model_parts(r, ev, m, &c, gpu, ngpu, res);
    } else if (pm_eval(m, &c, res)) {
        add_inst(r, ev, ev, false, res);
    } else {
        struct rf_fail f = {ev, res->why ? res->why : "arguments do not fit the model"};
        VEC_PUSH(&r->fails, f);
    }
    const struct op_info *o = ev_op(t, ev);
    uint32_t b = o ? o->partner : IDX_NONE;
    if (m->bwd_sheet != PM_NONE && b != IDX_NONE && (t->ev.v[b].flags & EVF_BACKWARD) &&
        hmap_get(&r->by_time_ev, b) == IDX_NONE && !subtree_has_family(r, b, family(m->sheet))) {
        c.bwd = true;
        if (pm_eval(m, &c, res))
            add_inst(r, ev, b, true, res);
    }
    free(res);
    free(kernels);
    if (have_linked)
        shapes_args_done(&linked);
    shapes_args_done(&args);
}

const char *roofline_failure(const struct roofline *r, uint32_t ev)
{
    for (size_t i = 0; i < r->fails.n; i++)
        if (r->fails.v[i].ev == ev)
            return r->fails.v[i].why;
    return NULL;
}

static void build_members(struct roofline *r)
{
    size_t ng = r->groups.n;
    r->mem_first = xcalloc(ng + 1, sizeof(*r->mem_first));
    r->mem = xmalloc((r->inst.n + 1) * sizeof(*r->mem));
    for (size_t i = 0; i < r->inst.n; i++)
        r->mem_first[r->inst.v[i].group + 1]++;
    for (size_t g = 0; g < ng; g++)
        r->mem_first[g + 1] += r->mem_first[g];
    uint32_t *fill = xmalloc((ng + 1) * sizeof(*fill));
    memcpy(fill, r->mem_first, (ng + 1) * sizeof(*fill));
    for (size_t i = 0; i < r->inst.n; i++)
        r->mem[fill[r->inst.v[i].group]++] = (uint32_t)i;
    free(fill);
}

struct roofline *roofline_new(struct analysis *a, const char *arch, char *err)
{
    return roofline_new_ic(a, arch, NULL, err);
}

struct roofline *roofline_new_ic(struct analysis *a, const char *arch,
                                 const struct inductor_cache *ic, char *err)
{
    err[0] = '\0';
    struct roofline *r = xcalloc(1, sizeof(*r));
    r->a = a;
    r->ic = ic;
    r->t = a->t;
    const struct trace *t = r->t;
    char msg[sizeof(r->note)];
    r->have_dev = devices_resolve(t, arch, &r->dev, msg, sizeof(msg));
    if (!r->have_dev && arch && *arch) {
        snprintf(err, 256, "%.255s", msg);
        free(r);
        return NULL;
    }
    if (r->have_dev)
        snprintf(r->note, sizeof(r->note), "device: %s (%s), memory %.0f GB/s", r->dev.name,
                 r->dev.origin, r->dev.mem_bw_gbps);
    else
        snprintf(r->note, sizeof(r->note), "roofline columns are empty: %.570s", msg);
    arena_init(&r->arena, 0);
    hmap_init(&r->model_of, 256);
    hmap_init(&r->by_time_ev, 1024);
    for (uint32_t i = 0; i < t->ev.n && !r->has_shapes; i++)
        r->has_shapes = (t->ev.v[i].flags & EVF_HAS_SHAPES) != 0;
    if (r->has_shapes)
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct pm_model *m = rf_model(r, i);
            if (!m)
                continue;
            if (nested_in_family(r, i, family(m->sheet))) {
                if (!r->nested[m->sheet]++)
                    r->nested_name[m->sheet] = opname_of(t, i);
                continue;
            }
            model_event(r, i, m);
        }
    build_members(r);
    return r;
}

void roofline_free(struct roofline *r)
{
    if (!r)
        return;
    VEC_FREE(&r->inst);
    VEC_FREE(&r->groups);
    VEC_FREE(&r->fails);
    VEC_FREE(&r->models);
    VEC_FREE(&r->seqs);
    VEC_FREE(&r->iters);
    hmap_free(&r->by_time_ev);
    hmap_free(&r->model_of);
    free(r->mem_first);
    free(r->mem);
    hmap_free(&r->group_of_key);
    arena_free(&r->arena);
    free(r);
}

bool roofline_has_shapes(const struct roofline *r)
{
    return r->has_shapes;
}

const struct device_peaks *roofline_device(const struct roofline *r)
{
    return r->have_dev ? &r->dev : NULL;
}

const char *roofline_device_note(const struct roofline *r)
{
    return r->note;
}

double rf_roof_us(const struct roofline *r, const char *spec, double flops, double bytes,
                  bool *compute_bound)
{
    *compute_bound = false;
    if (!r->have_dev || !spec || !*spec || isnan(flops) || isnan(bytes))
        return NAN;
    double peak = devices_peak(&r->dev, spec);
    if (peak <= 0 || r->dev.mem_bw_gbps <= 0)
        return NAN;
    double compute = flops / (peak * 1e6); /* TFLOP/s -> µs */
    double memory = bytes / (r->dev.mem_bw_gbps * 1e3);
    *compute_bound = compute > memory;
    return compute > memory ? compute : memory;
}

/* ------------------------------------------------------------------------ */
/* Instances                                                                */
/* ------------------------------------------------------------------------ */

bool roofline_instance(const struct roofline *r, uint32_t ev, struct pm_result *res,
                       struct roofline_point *pt)
{
    uint32_t k = hmap_get(&r->by_time_ev, ev);
    if (k == IDX_NONE)
        return false;
    const struct rf_inst *in = &r->inst.v[k];
    const struct rf_group *g = &r->groups.v[in->group];
    if (res) {
        /* An instance's parameters are its group's. */
        memset(res, 0, offsetof(struct pm_result, text));
        res->sheet = g->sheet;
        res->nparams = g->nparams;
        for (size_t i = 0; i < PM_MAX_PARAMS; i++)
            res->off[i] = UINT16_MAX;
        for (size_t i = 0; i < g->nparams; i++)
            pm_set_text(res, i, g->params[i]);
        memcpy(res->spec, g->spec, sizeof(res->spec));
        res->model = g->model;
        res->name = g->pseudo;
        res->differs = g->differs;
        res->tl_flops = g->tl_flops;
        res->tl_bytes = g->tl_bytes;
        res->flops = in->flops;
        res->bytes = in->bytes;
    }
    if (pt) {
        memset(pt, 0, sizeof(*pt));
        pt->flops = in->flops;
        pt->bytes = in->bytes;
        pt->kernel_us = in->kernel_us;
        pt->intensity = in->bytes > 0 ? in->flops / in->bytes : NAN;
        pt->tflops = in->kernel_us > 0 ? in->flops / (in->kernel_us * 1e6) : NAN;
        pt->tbps = in->kernel_us > 0 ? in->bytes / (in->kernel_us * 1e6) : NAN;
        pt->peak_tflops = r->have_dev ? devices_peak(&r->dev, g->spec) : 0;
        pt->roof_us = rf_roof_us(r, g->spec, in->flops, in->bytes, &pt->compute_bound);
        pt->pct = in->kernel_us > 0 ? pt->roof_us / in->kernel_us * 100 : NAN;
    }
    return true;
}

/* Shape text of a Python tuple param, "(4096, 4096)" -> "4096×4096". */
static void put_dims(struct strbuf *out, const char *tuple, const char *times)
{
    if (!tuple)
        return;
    bool any = false;
    for (const char *p = tuple; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            sb_putc(out, *p);
            any = true;
        } else if (*p == ',' && any && p[1] && p[1] != ')') {
            sb_puts(out, times);
        }
    }
    if (!any)
        sb_puts(out, "scalar");
}

static void put_num(struct strbuf *out, double v)
{
    if (isnan(v))
        sb_puts(out, "?");
    else if (v >= 100 || v == floor(v))
        sb_printf(out, "%.0f", v);
    else
        sb_printf(out, "%.3g", v);
}

/* The shape part of a summary line (roofline_shape_text) from res. */
static void put_shape(struct strbuf *out, const struct pm_result *res, const char *x)
{
    switch (res->sheet) {
    case PM_GEMM:
    case PM_GEMM_BWD: {
        const char *b = pm_param(res, 7);
        if (b && strcmp(b, "1") != 0)
            sb_printf(out, "%s%s", b, x);
        sb_printf(out, "%s%s%s%s%s", pm_param(res, 0) ? pm_param(res, 0) : "?", x,
                  pm_param(res, 1) ? pm_param(res, 1) : "?", x,
                  pm_param(res, 2) ? pm_param(res, 2) : "?");
        break;
    }
    case PM_CONV_FWD:
    case PM_CONV_BWD:
        put_dims(out, pm_param(res, 1), x);
        sb_puts(out, " * ");
        put_dims(out, pm_param(res, 2), x);
        break;
    case PM_SDPA_FWD:
    case PM_SDPA_BWD:
        sb_printf(out, "B%s H%s/%s N%s/%s d%s", pm_param(res, 0), pm_param(res, 2),
                  pm_param(res, 4), pm_param(res, 1), pm_param(res, 3), pm_param(res, 5));
        if (pm_param(res, 8) && strcmp(pm_param(res, 8), "True") == 0)
            sb_puts(out, " causal");
        break;
    case PM_INFER_ATTN:
        sb_printf(out, "N%s H%s/%s d%s ctx %s gen %s", pm_param(res, 1), pm_param(res, 2),
                  pm_param(res, 6), pm_param(res, 7), pm_param(res, 12), pm_param(res, 16));
        break;
    case PM_BINARY:
        put_dims(out, pm_param(res, 0), x);
        sb_puts(out, ", ");
        put_dims(out, pm_param(res, 1), x);
        break;
    case PM_REDUCE_FWD:
    case PM_REDUCE_BWD:
        sb_printf(out, "%s -> %s", pm_param(res, 0), pm_param(res, 1));
        break;
    case PM_ROPE:
        sb_printf(out, "%s rotated", pm_param(res, 0));
        break;
    case PM_TRITON:
        sb_printf(out, "%s x %s", pm_param(res, 1), pm_param(res, 2));
        break;
    default:
        put_dims(out, pm_param(res, 0), x);
        break;
    }
}

bool roofline_shape_text(struct strbuf *out, const struct roofline *r, uint32_t ev, bool ascii)
{
    struct pm_result *res = xmalloc(sizeof(*res));
    bool ok = roofline_instance(r, ev, res, NULL);
    if (ok) {
        put_shape(out, res, ascii ? "x" : "\u00d7");
        const char *us = strchr(res->spec, '_');
        if (us)
            sb_printf(out, " %s", us + 1);
    }
    free(res);
    return ok;
}

size_t roofline_ninstances(const struct roofline *r)
{
    return r->inst.n;
}

uint32_t roofline_instance_event(const struct roofline *r, size_t i)
{
    return i < r->inst.n ? r->inst.v[i].time_ev : IDX_NONE;
}

uint32_t roofline_instance_op(const struct roofline *r, uint32_t ev)
{
    uint32_t k = hmap_get(&r->by_time_ev, ev);
    return k == IDX_NONE ? IDX_NONE : r->inst.v[k].ev;
}

bool roofline_summary_line(struct strbuf *out, const struct roofline *r, uint32_t ev, bool ascii)
{
    struct pm_result *res = xmalloc(sizeof(*res));
    struct roofline_point pt;
    if (!roofline_instance(r, ev, res, &pt)) {
        free(res);
        return false;
    }
    const char *x = ascii ? "x" : "\u00d7", *dot = ascii ? " - " : " \u00b7 ";
    uint32_t k = hmap_get(&r->by_time_ev, ev);
    const struct rf_inst *in = &r->inst.v[k];
    const struct rf_group *g = &r->groups.v[in->group];
    sb_puts(out, g->pseudo ? g->pseudo : trace_str(r->t, r->t->ev.v[in->ev].name));
    if (in->bwd)
        sb_puts(out, " (backward)");
    sb_putc(out, ' ');
    put_shape(out, res, x);
    const char *us = strchr(res->spec, '_');
    if (us)
        sb_printf(out, " %s", us + 1);
    sb_puts(out, dot);
    if (pt.flops >= 1e9 || pt.flops == 0)
        sb_printf(out, "%.4g GFLOP", pt.flops / 1e9);
    else
        sb_printf(out, "%.4g MFLOP", pt.flops / 1e6);
    sb_puts(out, dot);
    put_num(out, pt.intensity);
    sb_puts(out, " FLOP/B");
    sb_puts(out, dot);
    if (isnan(pt.tflops))
        sb_puts(out, "no kernel time");
    else if (pt.tflops >= 0.1)
        sb_printf(out, "%.4g TFLOP/s", pt.tflops);
    else
        sb_printf(out, "%.4g GFLOP/s", pt.tflops * 1e3);
    if (!isnan(pt.pct)) {
        sb_puts(out, dot);
        sb_printf(out, pt.pct < 10 ? "%.2g %% of roofline, %s" : "%.0f %% of roofline, %s", pt.pct,
                  pt.compute_bound ? "compute-bound" : "memory-bound");
    }
    free(res);
    return true;
}
