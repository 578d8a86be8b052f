/* Fused mixture-of-experts (TraceLens's MoE_fused sheet): one kernel does
 * the whole MoE, the gated up projection, the activation, the down
 * projection and the weighted sum of the experts' outputs. The formulas
 * are TraceLens's FusedMoE (PerfModel/extensions/moe_perf_model_extensions.py,
 * docs/metrics.md §7.13):
 *
 *   FLOPs = 2·M·K·N·topk·g + 2·M·K·N·topk + M·K·(2·topk − 1)
 *   bytes = M·K·bpe_in + E_active·N·K·bpe_w·(g + 1) + M·K·bpe_out
 *
 * - vLLM's vllm::rocm_aiter_fused_moe launches sorting and quantization
 *   kernels besides the MoE kernel: as TraceLens's pseudo op
 *   (create_pseudo_ops_moe_fused_aiter, Trace2Tree/extensions/
 *   moe_aiter_pseudo_ops.py), the one aiter fmoe kernel under it is an
 *   instance of its own, pseudo_op::moe_aiter_fused_1stage, with the op's
 *   arguments and that kernel's time (moe_aiter_fused_1stage).
 * - aiter::fmoe_fp8_blockscale_g1u1 and aiter::fmoe_g1u1, called directly
 *   (SGLang), are modelled whole (moe_aiter_fused_blockscale). */
#include "config.h"

#include <string.h>

#include "core/roofline/perfmodel.h"

enum { P_OUT_DTYPE = 8 };

/* TraceLens's is_aiter_fused_moe_kernel: the MoE compute kernel, not the
 * sorting or quantization ones (case as it tests). */
static bool is_fmoe_kernel(const char *k)
{
    if (!k || !strstr(k, "aiter::") || !strstr(k, "fmoe") || strstr(k, "MoeSorting"))
        return false;
    for (const char *s = k; *s; s++)
        if ((s[0] | 0x20) == 'q' && (s[1] | 0x20) == 'u' && (s[2] | 0x20) == 'a' &&
            (s[3] | 0x20) == 'n' && (s[4] | 0x20) == 't')
            return false;
    return true;
}

/* M from tokens, the rest from the weights w1 [E, N·(g+1), K'] and
 * w2 [E, K, N']: N = N'·(K // K'), K' < K when int4 weights are packed;
 * gated when w1 holds 2·N rows. */
static bool dims_from_weights(const struct shape *w1, const struct shape *w2, int64_t tokens,
                              int64_t topk, struct perf_moe_dims *d)
{
    if (w1->nd != 3 || w2->nd != 3 || w1->d[2] <= 0)
        return false;
    d->m = tokens;
    d->k = w2->d[1];
    d->n = w2->d[2] * (w2->d[1] / w1->d[2]);
    d->e = w1->d[0];
    d->topk = topk;
    d->gated = perf_moe_twice(w1->d[1], d->n);
    return d->m > 0 && d->k > 0 && d->n > 0 && d->e > 0 && d->topk > 0 && d->topk <= d->e;
}

/* Evaluated in TraceLens's order (left to right, as Python does), so the
 * rounding of E_active's products is the same. */
static void fused_cost(const struct perf_moe_dims *d, double ibpe, double wbpe, double obpe,
                       struct pm_result *r)
{
    double m = (double)d->m, k = (double)d->k, n = (double)d->n, topk = (double)d->topk;
    double g = d->gated ? 2 : 1;
    double active = perf_moe_active_experts(d->e, d->topk, d->m);
    r->flops = 2 * m * k * n * topk * g + 2 * m * k * n * topk + m * k * (2 * topk - 1);
    r->bytes = m * k * ibpe + active * n * k * wbpe * g + active * n * k * wbpe + m * k * obpe;
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
}

/* vllm::rocm_aiter_fused_moe (hidden [M, K], w1, w2, topk_weights
 * [M, topk], ...), its one fmoe kernel (c->pseudo_kernel). */
static bool model_aiter_fused_1stage(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (c->pseudo_count != 1) {
        r->why = c->pseudo_count ? "more than one aiter fmoe kernel ran under the op"
                                 : "no aiter fmoe kernel ran under the op";
        return false;
    }
    if (!shapes_args_tensor(a, 3) || a->dims[0].nd < 1 || a->dims[3].nd < 2)
        return false;
    struct perf_moe_dims d;
    if (!dims_from_weights(&a->dims[1], &a->dims[2], a->dims[0].d[0], a->dims[3].d[1], &d))
        return false;
    const char *idt = shapes_args_type(a, 0), *wdt = shapes_args_type(a, 1);
    double ibpe = perf_moe_dtype_bytes(idt, 2), wbpe = perf_moe_dtype_bytes(wdt, 1);
    r->name = "pseudo_op::moe_aiter_fused_1stage";
    perf_moe_set_dims(r, &d, true, idt, wdt);
    pm_set_spec(r, "matrix", idt);
    r->model = "moe fused v1";
    fused_cost(&d, ibpe, wbpe, ibpe, r);
    return true;
}

/* aiter::fmoe_fp8_blockscale_g1u1 / aiter::fmoe_g1u1 (out [M, K], input,
 * w1, w2, ..., topk as Concrete Inputs 8, ...). */
static bool model_aiter_fused_blockscale(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    int64_t topk;
    if (!shapes_parse_int(shapes_args_concrete(a, 8), &topk)) {
        r->why = "topk (Concrete Inputs 8) not recorded";
        return false;
    }
    if (!shapes_args_tensor(a, 3) || a->dims[0].nd < 1)
        return false;
    struct perf_moe_dims d;
    if (!dims_from_weights(&a->dims[2], &a->dims[3], a->dims[0].d[0], topk, &d))
        return false;
    const char *odt = shapes_args_type(a, 0), *idt = shapes_args_type(a, 1),
               *wdt = shapes_args_type(a, 2);
    double obpe = perf_moe_dtype_bytes(odt, 2), ibpe = perf_moe_dtype_bytes(idt, 1),
           wbpe = perf_moe_dtype_bytes(wdt, 1);
    perf_moe_set_dims(r, &d, true, idt, wdt);
    pm_set_text(r, P_OUT_DTYPE, odt);
    pm_set_spec(r, "matrix", idt);
    r->model = "moe fused v1";
    fused_cost(&d, ibpe, wbpe, obpe, r);
    return true;
}

const struct pm_model pm_moe_fused_models[] = {
    {"vllm::rocm_aiter_fused_moe", PM_MOE_FUSED, PM_NONE, model_aiter_fused_1stage, is_fmoe_kernel},
    {"aiter::fmoe_fp8_blockscale_g1u1", PM_MOE_FUSED, PM_NONE, model_aiter_fused_blockscale, NULL},
    {"aiter::fmoe_g1u1", PM_MOE_FUSED, PM_NONE, model_aiter_fused_blockscale, NULL},
};
const size_t pm_moe_fused_count = ARRAY_SIZE(pm_moe_fused_models);
