/* Problems of a known size written into every step (`torchtop gen
 * --inject`, docs/metrics.md §20.1): what the findings rules must find.
 * Each is a no-op unless asked for, so that a trace without injections
 * keeps its bytes. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/synth/synth_model.h"
#include "core/synth/synth_sim.h"

static const struct {
    const char *name;
    int64_t default_us;
} inject_info[SI__COUNT] = {
    [SI_SYNC] = {"sync", 2000},
    [SI_SMALL_KERNELS] = {"small-kernels", 1000},
    [SI_CPU_BOUND] = {"cpu-bound", 3000},
    [SI_PAGEABLE_COPY] = {"pageable-copy", 2000},
    [SI_DATA_LOADING] = {"data-loading", 5000},
    [SI_MISALIGNED_GEMM] = {"misaligned-gemm", 2000},
    [SI_RECOMPUTE] = {"recompute", 1500},
};

/* The misaligned GEMM's shape: M and K not multiples of 8. */
#define INJ_MM_M 4097
#define INJ_MM_N 1024
#define INJ_MM_K 1030

/* Most µs an injection may take per step. */
#define INJECT_MAX_US 10000000

const char *synth_inject_name(enum synth_inject k)
{
    return k < SI__COUNT ? inject_info[k].name : "";
}

int64_t synth_inject_default_us(enum synth_inject k)
{
    return k < SI__COUNT ? inject_info[k].default_us : 0;
}

bool synth_inject_parse(const char *spec, int64_t us[SI__COUNT], char *err)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    for (int k = 0; k < SI__COUNT; k++) {
        if (strlen(inject_info[k].name) != n || strncmp(spec, inject_info[k].name, n))
            continue;
        int64_t v = inject_info[k].default_us;
        if (colon) {
            char *end;
            errno = 0;
            long long x = strtoll(colon + 1, &end, 10);
            if (end == colon + 1 || *end || errno || x < 1 || x > INJECT_MAX_US) {
                snprintf(err, 256, "bad amount in '%.64s': µs from 1 to %d", spec, INJECT_MAX_US);
                return false;
            }
            v = x;
        }
        us[k] = v;
        return true;
    }
    snprintf(err, 256,
             "unknown problem '%.*s' (sync, small-kernels, cpu-bound, pageable-copy, "
             "data-loading, misaligned-gemm, recompute)",
             (int)(n > 64 ? 64 : n), spec);
    return false;
}

void smodel_ops_inject(struct smodel *m, const struct synth_opts *opts)
{
    bool any = false;
    for (int k = 0; k < SI__COUNT; k++)
        any |= opts->inject_us[k] > 0;
    if (!any)
        return;
    struct model_ops *o = &m->o;
    o->inj_loader = OP0("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    o->inj_cpu = OP("aten::tril", T2(F32, m->S, m->S), SC("0"));
    o->inj_log = OP("aten::_to_copy", T0(F32), NONE, NONE, NONE, NONE, SC("False"), NONE);
    o->inj_small = OP("aten::mul_", T1(F32, 4096), SC("0.999"));
    struct geom g = {{4, 1, 1}, 128, 16, 0};
    o->k_inj_small = smodel_kern(
        m,
        "void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<float, "
        "float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, "
        "2> >(int, at::native::BUnaryFunctor<float, float, float, "
        "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)",
        RT_LAUNCH, 1500, g);
    o->inj_mm = OP("aten::mm", T2(BF, INJ_MM_M, INJ_MM_K), T2(BF, INJ_MM_K, INJ_MM_N));
    o->k_inj_mm = smodel_kern_gemm(
        m, CUTLASS_GEMM("cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_128x128_32x3_nn_align1"),
        RT_LAUNCH, INJ_MM_M, INJ_MM_N, INJ_MM_K, 1);
    o->inj_gelu = OP("aten::gelu", T2(BF, m->S, 4096), SC("tanh"));
    o->k_inj_gelu = smodel_kern_ew(m, VEC_EW(GELU_FN, "2"), m->S * 4096, 4);
    int64_t copy_ns = opts->inject_us[SI_PAGEABLE_COPY] * 1000;
    /* about 10 GB/s, as pageable copies go */
    o->k_inj_pageable = smodel_kern_copy(m, "Memcpy HtoD (Pageable -> Device)", RT_MEMCPY,
                                         (copy_ns > 1500 ? copy_ns : 1500) * 10, 10);
}

static int64_t amount_ns(const struct sim *s, enum synth_inject k)
{
    return s->inject ? s->inject[k] * US : 0;
}

int64_t sim_inject_loader_open(struct sim *s, int th, uint32_t *op)
{
    int64_t ns = amount_ns(s, SI_DATA_LOADING);
    *op = 0;
    if (ns)
        *op = sim_op_open(s, th, s->m->o.inj_loader, -1);
    return ns;
}

/* A host op of the given length on th. */
static void host_op(struct sim *s, int th, uint16_t op, int64_t ns)
{
    uint32_t i = sim_op_open(s, th, op, -1);
    s->now[th] += ns;
    sim_op_close(s, i);
}

/* Before the forward pass, with the GPU idle: a mask built on the host. */
void sim_inject_cpu_bound(struct sim *s, int th)
{
    int64_t ns = amount_ns(s, SI_CPU_BOUND);
    if (!ns)
        return;
    uint32_t p = sim_py_open(s, th, PY_INJ_MASK);
    host_op(s, th, s->m->o.inj_cpu, ns);
    sim_py_close(s, p);
}

/* A copy the host waits for: from pageable memory it is synchronous. */
void sim_inject_pageable(struct sim *s, int th)
{
    int64_t ns = amount_ns(s, SI_PAGEABLE_COPY);
    if (!ns)
        return;
    const struct model_ops *o = &s->m->o;
    uint32_t p = sim_py_open(s, th, PY_TO_DEVICE);
    uint32_t to = sim_op_open(s, th, o->to, -1);
    uint32_t tc = sim_op_open(s, th, o->to_copy, -1);
    uint32_t cp = sim_op_open(s, th, o->copy_h2d, -1);
    uint32_t rt = sim_rt_call(s, th, RT_MEMCPY);
    sim_gpu_run(s, rt, o->k_inj_pageable, ST_COMPUTE, 0, 0);
    struct rec *g = &s->r.v[s->r.n - 1];
    g->dur = ns; /* exactly the amount, not the variant's jittered time */
    s->stream_free[ST_COMPUTE] = g->ts + g->dur + 1 * US;
    s->step_gpu_hi = MAX(s->step_gpu_hi, g->ts + g->dur);
    struct rec *r = &s->r.v[rt];
    int64_t done = g->ts + g->dur + 2 * US;
    r->dur = done - r->ts;
    s->now[th] = done;
    sim_op_close(s, cp);
    sim_op_close(s, tc);
    sim_op_close(s, to);
    sim_py_close(s, p);
}

/* After the backward pass: the gradient norm read with .item() (a stream
 * sync, recorded as a cuda_sync event) and formatted on the host before
 * the next launch, the GPU drained meanwhile. */
void sim_inject_sync(struct sim *s, int th)
{
    int64_t ns = amount_ns(s, SI_SYNC);
    if (!ns)
        return;
    const struct model_ops *o = &s->m->o;
    uint32_t p = sim_py_open(s, th, PY_INJ_LOG);
    uint32_t pi = sim_py_open(s, th, PY_ITEM);
    uint32_t it = sim_op_open(s, th, o->item, -1);
    uint32_t ls = sim_op_open(s, th, o->local_scalar, -1);
    sim_launch(s, th, o->k_d2h);
    uint32_t sync = sim_rt_call(s, th, RT_STREAM_SYNC);
    struct rec *r = &s->r.v[sync];
    int64_t done = MAX(r->ts + r->dur, s->stream_free[ST_COMPUTE]) + 3 * US;
    r->dur = done - r->ts;
    s->now[th] = done;
    uint64_t corr = r->id, ext = r->ext;
    int64_t ts = r->ts;
    uint32_t se = sim_rec_add(s, R_SYNC, ST_COMPUTE, 0, ts);
    s->r.v[se].dur = done - ts;
    s->r.v[se].id = corr;
    s->r.v[se].ext = ext;
    sim_op_close(s, ls);
    sim_op_close(s, it);
    sim_py_close(s, pi);
    host_op(s, th, o->inj_log, ns);
    sim_py_close(s, p);
}

/* At the step's start, with the GPU drained: a Python loop of tiny
 * kernels (an EMA of the weights, one mul_ each), launched one at a time,
 * until their launch calls have taken the asked time in all (in the whole
 * µs the critical path reads: cp_frame.h): the host time on the path that
 * fusing them or a CUDA graph would save. */
void sim_inject_small_kernels(struct sim *s, int th)
{
    int64_t ns = amount_ns(s, SI_SMALL_KERNELS);
    if (!ns)
        return;
    const struct model_ops *o = &s->m->o;
    uint32_t p = sim_py_open(s, th, PY_INJ_EMA);
    for (int64_t launching = 0; launching < ns;) {
        uint32_t op = sim_op_open(s, th, o->inj_small, -1);
        uint32_t rt = sim_rt_call(s, th, RT_LAUNCH);
        sim_gpu_run(s, rt, o->k_inj_small, ST_COMPUTE, 0, 0);
        /* as the critical path reads a span: whole µs inside it */
        const struct rec *r = &s->r.v[rt];
        launching += ((r->ts + r->dur) / US - (r->ts + US - 1) / US) * US;
        sim_op_close(s, op);
    }
    sim_py_close(s, p);
}

/* After the forward pass, with the GPU busy: a projection whose M and K
 * are not multiples of 8, so that it runs the asked time longer than the
 * generator's GEMM of its shape (smodel_gemm_ns, above the share of its
 * roof findings take as reachable): the time padding the dims would save. */
void sim_inject_misaligned_gemm(struct sim *s, int th)
{
    int64_t ns = amount_ns(s, SI_MISALIGNED_GEMM);
    if (!ns)
        return;
    const struct model_ops *o = &s->m->o;
    uint32_t p = sim_py_open(s, th, PY_INJ_PROJ);
    uint32_t op = sim_op_open(s, th, o->inj_mm, -1);
    uint32_t rt = sim_rt_call(s, th, RT_LAUNCH);
    sim_gpu_run(s, rt, o->k_inj_mm, ST_COMPUTE, 0, 0);
    struct rec *g = &s->r.v[s->r.n - 1];
    g->dur = smodel_gemm_ns(INJ_MM_M, INJ_MM_N, INJ_MM_K) + ns; /* not the jittered time */
    s->stream_free[ST_COMPUTE] = g->ts + g->dur + 1 * US;
    s->step_gpu_hi = MAX(s->step_gpu_hi, g->ts + g->dur);
    sim_op_close(s, op);
    sim_py_close(s, p);
}

/* After the backward pass's launches, with the GPU busy: activation
 * checkpointing's recompute of a GELU (under torch.utils.checkpoint's
 * recompute_fn frame, as recompute.h marks it) whose kernel runs the asked
 * time: GPU time on the path that checkpointing less would save. */
void sim_inject_recompute(struct sim *s, int th)
{
    int64_t ns = amount_ns(s, SI_RECOMPUTE);
    if (!ns)
        return;
    const struct model_ops *o = &s->m->o;
    uint32_t p = sim_py_open(s, th, PY_INJ_RECOMPUTE);
    uint32_t op = sim_op_open(s, th, o->inj_gelu, -1);
    uint32_t rt = sim_rt_call(s, th, RT_LAUNCH);
    sim_gpu_run(s, rt, o->k_inj_gelu, ST_COMPUTE, 0, 0);
    struct rec *g = &s->r.v[s->r.n - 1];
    g->dur = ns; /* exactly the amount, not the variant's jittered time */
    s->stream_free[ST_COMPUTE] = g->ts + g->dur + 1 * US;
    s->step_gpu_hi = MAX(s->step_gpu_hi, g->ts + g->dur);
    sim_op_close(s, op);
    sim_py_close(s, p);
}
