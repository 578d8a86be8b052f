/* Unfused mixture-of-experts (TraceLens's MoE_unfused sheet). vLLM's
 * vllm::moe_forward with Triton's matmul_ogs kernels (GPT-OSS) does its
 * work in two grouped GEMMs, the gated up projection and the down
 * projection, each one kernel. As TraceLens's pseudo ops
 * (Trace2Tree/extensions/moe_unfused_triton_pseudo_ops.py), each such
 * kernel is an instance of its own, pseudo_op::moe_triton_unfused_up for
 * the first in time and pseudo_op::moe_triton_unfused_down for the others,
 * with the op's arguments and that kernel's time (roofline.c splits the
 * op; this file models one part). The formulas are TraceLens's
 * UnfusedMoE_Up / UnfusedMoE_Down (docs/metrics.md §7.12).
 *
 * aiter's two-stage MoE ops (aiter::ck_moe_stage1/2,
 * aiter::moe_cktile2stages_gemm1_ck/gemm2_ck) are each one stage already:
 * TraceLens models them whole, with the same formulas and their own
 * argument layouts (moe_aiter_ck_stage1/2, moe_aiter_unfused_up/down).
 *
 * SGLang's Triton fused MoE launches invoke_fused_moe_kernel twice per
 * block, up then down, each one grouped GEMM over the tokens' topk
 * experts: TraceLens's moe_triton_invoke_grouped_gemm models either from
 * its own arguments.
 *
 * vLLM's vllm::outplace_fused_experts with GPTQ/AWQ int4 weights runs the
 * up and down projections as two fused_moe_kernel_gptq_awq kernels: as
 * TraceLens's pseudo ops (create_pseudo_ops_moe_gptq_awq,
 * Trace2Tree/extensions/moe_gptq_awq_pseudo_ops.py) each is an instance of
 * its own, pseudo_op::moe_gptq_awq_up for the first in time and _down for
 * the others, with moe_gptq_awq_up / _down's dimensions. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

/* Case-insensitive substring test for kernel names (ASCII). */
static bool has_ci(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && (s[i] | 0x20) == (needle[i] | 0x20))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

bool perf_moe_is_gemm_kernel(const char *kernel)
{
    return kernel && has_ci(kernel, "matmul_ogs");
}

/* TraceLens's DTYPE_TO_BYTES (moe_perf_model_extensions.py): exact names
 * only; any other name gets the caller's default, as its .get(name, d). */
double perf_moe_dtype_bytes(const char *dtype, double dflt)
{
    static const struct {
        const char *name;
        double bpe;
    } tab[] = {
        {"Float8_e4m3fn", 1},
        {"Float8_e4m3fnuz", 1},
        {"Float8_e5m2", 1},
        {"Float8_e5m2fnuz", 1},
        {"FP8", 1},
        {"FP4", 0.5},
        {"BFloat16", 2},
        {"Float16", 2},
        {"Half", 2},
        {"Float32", 4},
        {"Float", 4},
        {"c10::BFloat16", 2},
        {"c10::Float8_e4m3fn", 1},
        {"c10::Float8_e4m3fnuz", 1},
        {"c10::Half", 2},
        {"c10::Float", 4},
    };
    for (size_t i = 0; dtype && i < ARRAY_SIZE(tab); i++)
        if (!strcmp(dtype, tab[i].name))
            return tab[i].bpe;
    return dflt;
}

bool perf_moe_twice(int64_t rows, int64_t n)
{
    return rows % 2 == 0 && rows / 2 == n;
}

double perf_moe_active_experts(int64_t e, int64_t topk, int64_t m)
{
    return (double)e * (1.0 - pow((double)(e - topk) / (double)e, (double)m));
}

/* Evaluated in TraceLens's order (left to right, as Python does), so the
 * rounding of E_active's products is the same. */
void perf_moe_stage_cost(bool up, const struct perf_moe_dims *d, double ibpe, double wbpe,
                         double obpe, double *flops, double *bytes)
{
    double active = perf_moe_active_experts(d->e, d->topk, d->m);
    double m = (double)d->m, k = (double)d->k, n = (double)d->n, topk = (double)d->topk;
    if (up) {
        double g = d->gated ? 2 : 1;
        *flops = 2 * m * k * n * topk * g;
        *bytes = m * k * ibpe + active * g * k * n * wbpe + m * n * topk * obpe;
    } else {
        *flops = 2 * m * n * k * topk;
        *bytes = m * n * topk * ibpe + active * n * k * wbpe + m * k * obpe;
    }
}

void perf_moe_set_dims(struct pm_result *r, const struct perf_moe_dims *d, bool set_gated,
                       const char *in_dtype, const char *w_dtype)
{
    pm_set_int(r, 0, d->m);
    pm_set_int(r, 1, d->k);
    pm_set_int(r, 2, d->n);
    pm_set_int(r, 3, d->e);
    pm_set_int(r, 4, d->topk);
    if (set_gated)
        pm_set_bool(r, 5, d->gated);
    pm_set_text(r, 6, in_dtype);
    if (w_dtype)
        pm_set_text(r, 7, w_dtype);
}

/* Weight dtype of a matmul_ogs kernel from its name, as TraceLens reads
 * it: "FP4" (mxfp4), "FP8" (fp8, e4m3); NULL when the name says neither.
 * *bpe gets the bytes per element, *prec the compute precision. */
static const char *weight_dtype_of(const char *kernel, double *bpe, const char **prec)
{
    if (has_ci(kernel, "mxfp4") || has_ci(kernel, "fp4")) {
        *bpe = 0.5;
        *prec = "fp4";
        return "FP4";
    }
    if (has_ci(kernel, "fp8") || has_ci(kernel, "e4m3")) {
        *bpe = 1;
        *prec = "fp8";
        return "FP8";
    }
    return NULL;
}

/* vllm::moe_forward(hidden_states [tokens, hidden], router_logits [tokens,
 * experts], ...), one of its GEMM kernels (c->pseudo_kernel, index
 * c->pseudo_index in time order). */
static bool model_moe_unfused(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!c->pseudo_kernel) {
        r->why = "no matmul_ogs kernel ran under the op";
        return false;
    }
    if (!shapes_args_tensor(a, 0) || !shapes_args_tensor(a, 1) || a->dims[0].nd != 2 ||
        a->dims[1].nd != 2)
        return false;
    int64_t m = a->dims[0].d[0], k = a->dims[0].d[1], e = a->dims[1].d[1];
    int64_t topk = c->moe_topk;
    if (m <= 0 || k <= 0 || e <= 0 || topk <= 0 || topk > e)
        return false;
    /* The intermediate size is not in the trace: TraceLens takes the hidden
     * size (GPT-OSS's). */
    int64_t n = k;
    double wbpe;
    const char *prec;
    const char *wdt = weight_dtype_of(c->pseudo_kernel, &wbpe, &prec);
    if (!wdt) {
        r->why = "the GEMM kernel's name does not give its weight dtype (fp4 / fp8)";
        return false;
    }
    const char *idt = shapes_args_type(a, 0);
    int ibpe = shapes_dtype_bytes(idt);
    if (!ibpe) {
        r->why = "the hidden states' dtype has no known size";
        return false;
    }
    bool up = c->pseudo_index == 0;
    bool gated = has_ci(c->pseudo_kernel, "_swiglu") || has_ci(c->pseudo_kernel, "_glu");
    r->name = up ? "pseudo_op::moe_triton_unfused_up" : "pseudo_op::moe_triton_unfused_down";
    struct perf_moe_dims d = {m, k, n, e, topk, gated};
    perf_moe_set_dims(r, &d, true, idt, wdt);
    snprintf(r->spec, sizeof(r->spec), "matrix_%s", prec);
    r->model = "moe unfused v1";
    perf_moe_stage_cost(up, &d, ibpe, wbpe, ibpe, &r->flops, &r->bytes);
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

/* The rest of a stage model once its dimensions are read: bytes per
 * element as TraceLens's .get() defaults them (input 2, weights 1), the
 * output at the input's size, the spec from the input's dtype. */
static bool aiter_stage(struct pm_result *r, bool up, const struct perf_moe_dims *d, bool set_gated,
                        const char *idt, const char *wdt)
{
    if (d->m <= 0 || d->k <= 0 || d->n <= 0 || d->e <= 0 || d->topk <= 0 || d->topk > d->e)
        return false;
    double ibpe = perf_moe_dtype_bytes(idt, 2), wbpe = perf_moe_dtype_bytes(wdt, 1);
    perf_moe_set_dims(r, d, set_gated, idt, wdt);
    pm_set_spec(r, "matrix", idt);
    r->model = "moe unfused v1";
    perf_moe_stage_cost(up, d, ibpe, wbpe, ibpe, &r->flops, &r->bytes);
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

/* aiter::moe_cktile2stages_gemm1_ck (x [M, K], w1 [E, N*(g+1), K'],
 * out [M, topk, N], ...): moe_aiter_unfused_up. */
static bool model_cktile_gemm1(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 2) || a->dims[0].nd != 2 || a->dims[1].nd != 3 || a->dims[2].nd != 3)
        return false;
    struct perf_moe_dims d = {a->dims[0].d[0], a->dims[0].d[1], a->dims[2].d[2],
                              a->dims[1].d[0], a->dims[2].d[1], false};
    d.gated = perf_moe_twice(a->dims[1].d[1], d.n);
    return aiter_stage(r, true, &d, true, shapes_args_type(a, 0), shapes_args_type(a, 1));
}

/* aiter::moe_cktile2stages_gemm2_ck (x [M, topk, N], w2 [E, K, N'],
 * out [M, K], ...): moe_aiter_unfused_down, which has no gated flag. */
static bool model_cktile_gemm2(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 1) || a->dims[0].nd != 3 || a->dims[1].nd != 3)
        return false;
    struct perf_moe_dims d = {a->dims[0].d[0], a->dims[1].d[1], a->dims[0].d[2],
                              a->dims[1].d[0], a->dims[0].d[1], false};
    return aiter_stage(r, false, &d, false, shapes_args_type(a, 0), shapes_args_type(a, 1));
}

/* aiter::ck_moe_stage1 (x [M, K], w1 [E, N*(g+1), K'], w2 [E, K, N'],
 * sorted ids, sorted experts, valid ids, out [M, topk, N], ...):
 * moe_aiter_ck_stage1. N is w2's last dim scaled by the int4 packing
 * ratio K // K' (w1's last dim). */
static bool model_ck_stage1(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 6) || a->dims[0].nd != 2 || a->dims[1].nd < 2 ||
        a->dims[2].nd != 3 || a->dims[6].nd < 2)
        return false;
    const struct shape *w1 = &a->dims[1], *w2 = &a->dims[2];
    if (w1->d[w1->nd - 1] <= 0)
        return false;
    int64_t pack = w2->d[1] / w1->d[w1->nd - 1];
    struct perf_moe_dims d = {a->dims[0].d[0], a->dims[0].d[1], w2->d[2] * pack,
                              w2->d[0],        a->dims[6].d[1], false};
    d.gated = perf_moe_twice(w1->d[1], d.n);
    return aiter_stage(r, true, &d, true, shapes_args_type(a, 0), shapes_args_type(a, 1));
}

/* aiter::ck_moe_stage2 (x [M, topk, N], w1, w2 [E, K, N'], ...):
 * moe_aiter_ck_stage2; the weight dtype is w2's. */
static bool model_ck_stage2(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 2) || a->dims[0].nd != 3 || a->dims[2].nd != 3)
        return false;
    struct perf_moe_dims d = {a->dims[0].d[0], a->dims[2].d[1], a->dims[0].d[2],
                              a->dims[2].d[0], a->dims[0].d[1], false};
    return aiter_stage(r, false, &d, false, shapes_args_type(a, 0), shapes_args_type(a, 2));
}

static bool is_gptq_awq_kernel(const char *kernel)
{
    return kernel && strstr(kernel, "fused_moe_kernel_gptq_awq");
}

/* vllm::outplace_fused_experts (hidden [T, K], w1 [E, 2N, K/2], w2
 * [E, K, N/2], topk_weights, topk_ids [T, topk], ...), one of its
 * fused_moe_kernel_gptq_awq kernels: int4 weights at half a byte, the
 * up kernel always gated (SwiGLU), topk from topk_ids (8 without). */
static bool model_gptq_awq(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!c->pseudo_kernel) {
        r->why = "no fused_moe_kernel_gptq_awq kernel ran under the op";
        return false;
    }
    bool up = c->pseudo_index == 0;
    const struct shape *w = &a->dims[up ? 1 : 2];
    if (!shapes_args_tensor(a, up ? 1 : 2) || a->dims[0].nd < 2 || w->nd != 3)
        return false;
    int64_t topk = 8;
    if (shapes_args_tensor(a, 4) && a->dims[4].nd >= 2)
        topk = a->dims[4].d[1];
    struct perf_moe_dims d = {
        a->dims[0].d[0], a->dims[0].d[1], up ? w->d[1] / 2 : w->d[2] * 2, w->d[0], topk, up};
    const char *idt = a->n ? shapes_args_type(a, 0) : "BFloat16";
    if (d.m <= 0 || d.k <= 0 || d.n <= 0 || d.e <= 0 || d.topk <= 0 || d.topk > d.e)
        return false;
    double ibpe = perf_moe_dtype_bytes(idt, 2);
    r->name = up ? "pseudo_op::moe_gptq_awq_up" : "pseudo_op::moe_gptq_awq_down";
    perf_moe_set_dims(r, &d, up, idt, NULL);
    pm_set_spec(r, "matrix", idt);
    r->model = "moe unfused v1";
    perf_moe_stage_cost(up, &d, ibpe, 0.5, ibpe, &r->flops, &r->bytes);
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

enum { P_M_WORK = 8, P_N, P_K, P_OUT_DTYPE };

/* sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel (A
 * [tokens (·topk), K], B [E, N, K], C, A_scale, C [tokens·topk, N], ...,
 * topk_ids [tokens, topk] as argument 8, ...):
 *   FLOPs = 2·M_work·N·K, M_work = tokens·topk
 *   bytes = M_work·K·bpe_in + E_active·N·K·bpe_w + M_work·N·bpe_out
 * bpe from DTYPE_TO_BYTES (defaults 2, 1, 2); the output dtype is argument
 * 3's when recorded, else the input's; the spec is the weights'. */
static bool model_invoke_fused_moe(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (a->n < 9 || !shapes_args_tensor(a, 1) || a->dims[1].nd != 3 || a->dims[8].nd != 2)
        return false;
    int64_t e = a->dims[1].d[0], n = a->dims[1].d[1], k = a->dims[1].d[2];
    int64_t tokens = a->dims[8].d[0], topk = a->dims[8].d[1];
    if (e <= 0 || n <= 0 || k <= 0 || tokens <= 0 || topk <= 0 || topk > e)
        return false;
    const char *idt = shapes_args_type(a, 0), *wdt = shapes_args_type(a, 1);
    const char *odt = *shapes_args_type(a, 3) ? shapes_args_type(a, 3) : idt;
    double ibpe = perf_moe_dtype_bytes(idt, 2), wbpe = perf_moe_dtype_bytes(wdt, 1),
           obpe = perf_moe_dtype_bytes(odt, 2);
    double m_work = (double)tokens * (double)topk;
    pm_set_int(r, 0, tokens);
    pm_set_int(r, 3, e);
    pm_set_int(r, 4, topk);
    pm_set_text(r, 6, idt);
    pm_set_text(r, 7, wdt);
    pm_set_int(r, P_M_WORK, tokens * topk);
    pm_set_int(r, P_N, n);
    pm_set_int(r, P_K, k);
    pm_set_text(r, P_OUT_DTYPE, odt);
    pm_set_spec(r, "matrix", wdt);
    r->model = "moe unfused v1";
    /* TraceLens's order of evaluation (see perf_moe_stage_cost) */
    r->flops = 2 * m_work * (double)n * (double)k;
    r->bytes = m_work * (double)k * ibpe +
               perf_moe_active_experts(e, topk, tokens) * (double)n * (double)k * wbpe +
               m_work * (double)n * obpe;
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

const struct pm_model pm_moe_models[] = {
    {"vllm::moe_forward", PM_MOE_UNFUSED, PM_NONE, model_moe_unfused, perf_moe_is_gemm_kernel},
    {"aiter::moe_cktile2stages_gemm1_ck", PM_MOE_UNFUSED, PM_NONE, model_cktile_gemm1, NULL},
    {"aiter::moe_cktile2stages_gemm2_ck", PM_MOE_UNFUSED, PM_NONE, model_cktile_gemm2, NULL},
    {"aiter::ck_moe_stage1", PM_MOE_UNFUSED, PM_NONE, model_ck_stage1, NULL},
    {"aiter::ck_moe_stage2", PM_MOE_UNFUSED, PM_NONE, model_ck_stage2, NULL},
    {"vllm::outplace_fused_experts", PM_MOE_UNFUSED, PM_NONE, model_gptq_awq, is_gptq_awq_kernel},
    {"sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel", PM_MOE_UNFUSED, PM_NONE,
     model_invoke_fused_moe, NULL},
};
const size_t pm_moe_count = ARRAY_SIZE(pm_moe_models);
