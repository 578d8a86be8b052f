/* RMSNorm models of the vendor kernels TraceLens reports on its own
 * RMSNorm sheet (aiter and vLLM's ROCm entry points: plain, fused with a
 * residual add, with FP8 quantization of the output, with padding). The
 * norm itself is counted as aten::_fused_rms_norm is (perf_norm.c, affine,
 * not training); each fused step adds its elementwise FLOPs and the
 * tensors it reads and writes, as TraceLens's RMSNorm extensions do
 * (docs/metrics.md §7.8). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum { R_SHAPE, R_DT, R_SIN, R_SOUT, R_C, R_BIAS, R_AFF, R_TRAIN };

enum rms_fuse {
    RF_NONE,       /* norm only */
    RF_ADD,        /* residual add before the norm: out and residual out written */
    RF_DQUANT,     /* FP8 output with one FP32 scale per row */
    RF_GQUANT,     /* FP8 output with one FP32 scale per group of a row */
    RF_ADD_GQUANT, /* residual add, then RF_GQUANT; the residual out written */
    RF_ADD_PAD     /* residual add, output padded to a multiple of the pad */
};

struct rms_sig {
    int in, weight; /* argument positions of the input and the weight */
    enum rms_fuse fuse;
    int extra;     /* Concrete Inputs position of the group size or the pad; -1 none */
    bool optional; /* extra may be missing (a group of a whole row) */
};

static bool rms_model(const struct pm_ctx *c, struct pm_result *r, const struct rms_sig *sg)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, (uint32_t)sg->in) || !shapes_args_tensor(a, (uint32_t)sg->weight))
        return false;
    const struct shape *x = &a->dims[sg->in];
    double n = (double)shapes_numel(x);
    double ch = (double)a->dims[sg->weight].d[0];
    if (!(ch > 0) || n <= 0)
        return false;
    double m = floor(n / ch);
    int64_t extra = 0;
    if (sg->extra >= 0) {
        if (!shapes_parse_int(shapes_args_concrete(a, (uint32_t)sg->extra), &extra)) {
            if (!sg->optional) {
                r->why = "the group size or pad (Concrete Inputs) was not recorded";
                return false;
            }
            extra = 0;
        }
    }
    const char *tin = shapes_args_type(a, (uint32_t)sg->in);
    pm_set_tuple(r, R_SHAPE, x);
    const char *dt[2] = {tin, NULL};
    pm_set_dtypes(r, R_DT, dt, 2);
    pm_set_tuple(r, R_SIN, &a->strides[sg->in]);
    pm_set_text(r, R_SOUT, "None");
    pm_set_int(r, R_C, (int64_t)ch);
    pm_set_bool(r, R_BIAS, false);
    pm_set_bool(r, R_AFF, true);
    pm_set_bool(r, R_TRAIN, false);
    pm_set_spec(r, "vector", tin);
    r->model = "rmsnorm v1";
    double norm_flops = m * (2 * ch + 2) + n * 2;
    double flops = norm_flops;
    switch (sg->fuse) {
    case RF_ADD:
    case RF_ADD_PAD:
        flops += n;
        break;
    case RF_DQUANT:
    case RF_GQUANT:
        flops += 2 * n;
        break;
    case RF_ADD_GQUANT:
        flops += n + 2 * n;
        break;
    default:
        break;
    }
    r->flops = r->tl_flops = flops;
    double b = shapes_dtype_bytes(tin);
    if (!b)
        return true;
    double groups = 1;
    if (sg->fuse == RF_GQUANT || sg->fuse == RF_ADD_GQUANT) {
        double gs = extra > 0 ? (double)extra : ch;
        groups = floor((ch + gs - 1) / gs);
    }
    double bytes;
    switch (sg->fuse) {
    case RF_ADD:
        bytes = 2 * n * b + ch * b + 2 * n * b;
        break;
    case RF_DQUANT:
        bytes = n * b + ch * b + n + m * 4;
        break;
    case RF_GQUANT:
        bytes = n * b + ch * b + n + m * groups * 4;
        break;
    case RF_ADD_GQUANT:
        bytes = 2 * n * b + ch * b + n + n * b + m * groups * 4;
        break;
    case RF_ADD_PAD: {
        double out = extra > 0 ? ceil(ch / (double)extra) * (double)extra : ch;
        bytes = 2 * n * b + ch * b + m * out * b + m * ch * b;
        break;
    }
    default:
        bytes = n * b + n * b + ch * b;
        break;
    }
    r->bytes = r->tl_bytes = bytes;
    return true;
}

#define SIG(name, ...)                                                                             \
    static bool name(const struct pm_ctx *c, struct pm_result *r)                                  \
    {                                                                                              \
        static const struct rms_sig sg = {__VA_ARGS__};                                            \
        return rms_model(c, r, &sg);                                                               \
    }

/* rms_norm (x, weight, eps) */
SIG(model_x_w, .in = 0, .weight = 1, .fuse = RF_NONE, .extra = -1)
/* rmsnorm (out, input, weight, eps) */
SIG(model_out_x_w, .in = 1, .weight = 2, .fuse = RF_NONE, .extra = -1)
/* rmsnorm2d_fwd_with_add_ck / add_rmsnorm (out, input, residual_in,
 * residual_out, weight, eps, ...) */
SIG(model_add, .in = 1, .weight = 4, .fuse = RF_ADD, .extra = -1)
/* rmsnorm2d_fwd_with_dynamicquant_ck (out, input, yscale, weight, eps, ...) */
SIG(model_dquant, .in = 1, .weight = 3, .fuse = RF_DQUANT, .extra = -1)
/* rmsnorm_quant (out, input, scale, weight, eps, group_size, ...); a group
 * size not recorded is a whole row */
SIG(model_quant, .in = 1, .weight = 3, .fuse = RF_GQUANT, .extra = 5, .optional = true)
/* rocm_aiter_rmsnorm_fp8_group_quant (x, weight, eps, group_size) */
SIG(model_fp8_gq, .in = 0, .weight = 1, .fuse = RF_GQUANT, .extra = 3)
/* rocm_aiter_rmsnorm_with_add_fp8_group_quant (x, residual, weight, eps,
 * group_size) */
SIG(model_add_fp8_gq, .in = 0, .weight = 2, .fuse = RF_ADD_GQUANT, .extra = 4)
/* rocm_aiter_triton_add_rmsnorm_pad / fused_add_rmsnorm_pad_ (x, weight,
 * eps, residual, x_pad_to_multiple) */
SIG(model_add_pad, .in = 0, .weight = 1, .fuse = RF_ADD_PAD, .extra = 4)

const struct pm_model pm_rmsnorm_models[] = {
    {"aiter::rms_norm", PM_RMSNORM, PM_NONE, model_x_w, NULL},
    {"aiter::rmsnorm2d_fwd_ck", PM_RMSNORM, PM_NONE, model_x_w, NULL},
    {"aiter::rmsnorm", PM_RMSNORM, PM_NONE, model_out_x_w, NULL},
    {"aiter::rmsnorm2d_fwd_with_add_ck", PM_RMSNORM, PM_NONE, model_add, NULL},
    {"aiter::add_rmsnorm", PM_RMSNORM, PM_NONE, model_add, NULL},
    {"aiter::rmsnorm2d_fwd_with_dynamicquant_ck", PM_RMSNORM, PM_NONE, model_dquant, NULL},
    {"aiter::rmsnorm_quant", PM_RMSNORM, PM_NONE, model_quant, NULL},
    {"vllm::rocm_aiter_rmsnorm_fp8_group_quant", PM_RMSNORM, PM_NONE, model_fp8_gq, NULL},
    {"vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", PM_RMSNORM, PM_NONE, model_add_fp8_gq,
     NULL},
    {"vllm::rocm_aiter_triton_add_rmsnorm_pad", PM_RMSNORM, PM_NONE, model_add_pad, NULL},
    {"aiter::fused_add_rmsnorm_pad_", PM_RMSNORM, PM_NONE, model_add_pad, NULL},
};
const size_t pm_rmsnorm_count = sizeof(pm_rmsnorm_models) / sizeof(pm_rmsnorm_models[0]);
