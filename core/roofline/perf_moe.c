/* Unfused mixture-of-experts (TraceLens's MoE_unfused sheet): vLLM's
 * vllm::moe_forward with Triton's matmul_ogs kernels (GPT-OSS) does its
 * work in two grouped GEMMs, the gated up projection and the down
 * projection, each one kernel. As TraceLens's pseudo ops
 * (Trace2Tree/extensions/moe_unfused_triton_pseudo_ops.py), each such
 * kernel is an instance of its own, pseudo_op::moe_triton_unfused_up for
 * the first in time and pseudo_op::moe_triton_unfused_down for the others,
 * with the op's arguments and that kernel's time (roofline.c splits the
 * op; this file models one part). The formulas are TraceLens's
 * UnfusedMoE_Up / UnfusedMoE_Down (docs/metrics.md §7.12). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum { P_TOKENS, P_HIDDEN, P_INTER, P_EXPERTS, P_TOPK, P_GATED, P_IN_DTYPE, P_W_DTYPE };

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
    pm_set_int(r, P_TOKENS, m);
    pm_set_int(r, P_HIDDEN, k);
    pm_set_int(r, P_INTER, n);
    pm_set_int(r, P_EXPERTS, e);
    pm_set_int(r, P_TOPK, topk);
    pm_set_bool(r, P_GATED, gated);
    pm_set_text(r, P_IN_DTYPE, idt);
    pm_set_text(r, P_W_DTYPE, wdt);
    snprintf(r->spec, sizeof(r->spec), "matrix_%s", prec);
    r->model = "moe unfused v1";
    /* Distinct experts the m tokens reach, routing uniform. */
    double active = (double)e * (1.0 - pow((double)(e - topk) / (double)e, (double)m));
    double mk = (double)m * (double)k, mn = (double)m * (double)n, kn = (double)k * (double)n;
    if (up) {
        double g = gated ? 2 : 1;
        r->flops = 2.0 * mk * (double)n * (double)topk * g;
        r->bytes = mk * ibpe + active * g * kn * wbpe + mn * (double)topk * ibpe;
    } else {
        r->flops = 2.0 * mn * (double)k * (double)topk;
        r->bytes = mn * (double)topk * ibpe + active * kn * wbpe + mk * ibpe;
    }
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

const struct pm_model pm_moe_models[] = {
    {"vllm::moe_forward", PM_MOE_UNFUSED, PM_NONE, model_moe_unfused},
};
const size_t pm_moe_count = ARRAY_SIZE(pm_moe_models);
