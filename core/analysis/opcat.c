/* Op categories by name and first kernel. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/analysis/opcat.h"

const char *opcat_name(enum opcat c)
{
    static const char *const names[] = {
#define OPCAT_NAME(id, name) [id] = name,
        OPCAT_INFO(OPCAT_NAME)
#undef OPCAT_NAME
    };
    return (unsigned)c < ARRAY_SIZE(names) ? names[c] : "other";
}

struct opcat_entry {
    const char *name;
    enum opcat cat;
};

/* TraceLens's op categories (torch_op_mapping.py and its pseudo-op
 * extensions: the category of each op's perf model, or its category-only
 * label), sorted by name for bsearch (checked by the unit test). */
static const struct opcat_entry by_name[] = {
    {"ConvBiasReLU_", OPCAT_CONV_FWD},
    {"ConvBiasReLU_Backward", OPCAT_CONV_BWD},
    {"ConvBias_", OPCAT_CONV_FWD},
    {"ConvBias_Backward", OPCAT_CONV_BWD},
    {"FlashAttnFunc", OPCAT_SDPA_FWD},
    {"FlashAttnFuncBackward", OPCAT_SDPA_BWD},
    {"FusedAttnFuncBackward", OPCAT_SDPA_BWD},
    {"_C_cache_ops::reshape_and_cache_flash", OPCAT_INFER_ATTN},
    {"aiter::_flash_attn_backward", OPCAT_SDPA_BWD},
    {"aiter::_flash_attn_forward", OPCAT_SDPA_FWD},
    {"aiter::_gemm_a4w4_asm", OPCAT_GEMM},
    {"aiter::_groupnorm_run", OPCAT_NORM_FWD},
    {"aiter::add_rmsnorm", OPCAT_RMSNORM},
    {"aiter::fmha_v3_fwd", OPCAT_SDPA_FWD},
    {"aiter::fmha_v3_varlen_fwd", OPCAT_INFER_ATTN},
    {"aiter::fused_add_rmsnorm_pad_", OPCAT_RMSNORM},
    {"aiter::gemm_a4w4", OPCAT_GEMM},
    {"aiter::get_mla_metadata_v1", OPCAT_INFER_ATTN},
    {"aiter::indexer_score_topk", OPCAT_INFER_ATTN},
    {"aiter::mha_batch_prefill", OPCAT_INFER_ATTN},
    {"aiter::mha_bwd", OPCAT_SDPA_BWD},
    {"aiter::mha_fwd", OPCAT_SDPA_FWD},
    {"aiter::mha_varlen_fwd", OPCAT_INFER_ATTN},
    {"aiter::pa_decode_gluon", OPCAT_INFER_ATTN},
    {"aiter::rms_norm", OPCAT_RMSNORM},
    {"aiter::rmsnorm", OPCAT_RMSNORM},
    {"aiter::rmsnorm2d_fwd_ck", OPCAT_RMSNORM},
    {"aiter::rmsnorm2d_fwd_with_add_ck", OPCAT_RMSNORM},
    {"aiter::rmsnorm2d_fwd_with_dynamicquant_ck", OPCAT_RMSNORM},
    {"aiter::wrapper_fmha_v3_bwd", OPCAT_SDPA_BWD},
    {"aiter::wrapper_fmha_v3_fwd", OPCAT_SDPA_FWD},
    {"aten::_efficient_attention_backward", OPCAT_SDPA_BWD},
    {"aten::_efficient_attention_forward", OPCAT_SDPA_FWD},
    {"aten::_fused_rms_norm", OPCAT_NORM_FWD},
    {"aten::_fused_rms_norm_backward", OPCAT_NORM_BWD},
    {"aten::_scaled_dot_product_cudnn_attention", OPCAT_SDPA_FWD},
    {"aten::_scaled_dot_product_cudnn_attention_backward", OPCAT_SDPA_BWD},
    {"aten::_scaled_dot_product_efficient_attention", OPCAT_SDPA_FWD},
    {"aten::_scaled_dot_product_efficient_attention_backward", OPCAT_SDPA_BWD},
    {"aten::_scaled_dot_product_flash_attention", OPCAT_SDPA_FWD},
    {"aten::_scaled_dot_product_flash_attention_backward", OPCAT_SDPA_BWD},
    {"aten::_scaled_mm", OPCAT_GEMM},
    {"aten::add", OPCAT_ELEMENTWISE},
    {"aten::add_", OPCAT_ELEMENTWISE},
    {"aten::addmm", OPCAT_GEMM},
    {"aten::amax", OPCAT_REDUCE},
    {"aten::amin", OPCAT_REDUCE},
    {"aten::baddbmm", OPCAT_GEMM},
    {"aten::batch_norm", OPCAT_NORM_FWD},
    {"aten::batch_norm_backward", OPCAT_NORM_BWD},
    {"aten::bmm", OPCAT_GEMM},
    {"aten::clamp_max", OPCAT_ELEMENTWISE},
    {"aten::clamp_max_", OPCAT_ELEMENTWISE},
    {"aten::clamp_min", OPCAT_ELEMENTWISE},
    {"aten::clamp_min_", OPCAT_ELEMENTWISE},
    {"aten::convolution", OPCAT_CONV_FWD},
    {"aten::convolution_backward", OPCAT_CONV_BWD},
    {"aten::copy", OPCAT_ELEMENTWISE},
    {"aten::copy_", OPCAT_ELEMENTWISE},
    {"aten::cudnn_batch_norm", OPCAT_NORM_FWD},
    {"aten::cudnn_batch_norm_backward", OPCAT_NORM_BWD},
    {"aten::cudnn_convolution", OPCAT_CONV_FWD},
    {"aten::cudnn_group_norm", OPCAT_NORM_FWD},
    {"aten::cudnn_group_norm_backward", OPCAT_NORM_BWD},
    {"aten::cudnn_instance_norm", OPCAT_NORM_FWD},
    {"aten::cudnn_instance_norm_backward", OPCAT_NORM_BWD},
    {"aten::cudnn_layer_norm", OPCAT_NORM_FWD},
    {"aten::cudnn_layer_norm_backward", OPCAT_NORM_BWD},
    {"aten::cudnn_rms_norm_backward", OPCAT_NORM_BWD},
    {"aten::cumprod", OPCAT_REDUCE},
    {"aten::cumsum", OPCAT_REDUCE},
    {"aten::div", OPCAT_ELEMENTWISE},
    {"aten::div_", OPCAT_ELEMENTWISE},
    {"aten::group_norm", OPCAT_NORM_FWD},
    {"aten::group_norm_backward", OPCAT_NORM_BWD},
    {"aten::instance_norm", OPCAT_NORM_FWD},
    {"aten::instance_norm_backward", OPCAT_NORM_BWD},
    {"aten::layer_norm", OPCAT_NORM_FWD},
    {"aten::layer_norm_backward", OPCAT_NORM_BWD},
    {"aten::linalg_norm", OPCAT_REDUCE},
    {"aten::logsumexp", OPCAT_REDUCE},
    {"aten::max", OPCAT_REDUCE},
    {"aten::mean", OPCAT_REDUCE},
    {"aten::min", OPCAT_REDUCE},
    {"aten::miopen_batch_norm", OPCAT_NORM_FWD},
    {"aten::miopen_batch_norm_backward", OPCAT_NORM_BWD},
    {"aten::miopen_convolution", OPCAT_CONV_FWD},
    {"aten::miopen_group_norm", OPCAT_NORM_FWD},
    {"aten::miopen_group_norm_backward", OPCAT_NORM_BWD},
    {"aten::miopen_instance_norm", OPCAT_NORM_FWD},
    {"aten::miopen_instance_norm_backward", OPCAT_NORM_BWD},
    {"aten::miopen_layer_norm", OPCAT_NORM_FWD},
    {"aten::miopen_layer_norm_backward", OPCAT_NORM_BWD},
    {"aten::miopen_rms_norm_backward", OPCAT_NORM_BWD},
    {"aten::mm", OPCAT_GEMM},
    {"aten::mul", OPCAT_ELEMENTWISE},
    {"aten::mul_", OPCAT_ELEMENTWISE},
    {"aten::native_batch_norm", OPCAT_NORM_FWD},
    {"aten::native_batch_norm_backward", OPCAT_NORM_BWD},
    {"aten::native_group_norm", OPCAT_NORM_FWD},
    {"aten::native_group_norm_backward", OPCAT_NORM_BWD},
    {"aten::native_instance_norm", OPCAT_NORM_FWD},
    {"aten::native_instance_norm_backward", OPCAT_NORM_BWD},
    {"aten::native_layer_norm", OPCAT_NORM_FWD},
    {"aten::native_layer_norm_backward", OPCAT_NORM_BWD},
    {"aten::native_rms_norm_backward", OPCAT_NORM_BWD},
    {"aten::neg", OPCAT_ELEMENTWISE},
    {"aten::norm", OPCAT_REDUCE},
    {"aten::pow", OPCAT_ELEMENTWISE},
    {"aten::rms_norm_backward", OPCAT_NORM_BWD},
    {"aten::rsqrt", OPCAT_ELEMENTWISE},
    {"aten::sigmoid", OPCAT_ELEMENTWISE},
    {"aten::sigmoid_backward", OPCAT_ELEMENTWISE},
    {"aten::silu", OPCAT_ELEMENTWISE},
    {"aten::std", OPCAT_REDUCE},
    {"aten::sum", OPCAT_REDUCE},
    {"aten::threshold_backward", OPCAT_ELEMENTWISE},
    {"aten::upsample_bilinear2d", OPCAT_ELEMENTWISE},
    {"aten::upsample_nearest1d", OPCAT_ELEMENTWISE},
    {"aten::upsample_nearest2d", OPCAT_ELEMENTWISE},
    {"aten::upsample_nearest3d", OPCAT_ELEMENTWISE},
    {"aten::var", OPCAT_REDUCE},
    {"bitsandbytes::int8_linear_matmul", OPCAT_GEMM},
    {"flash_attn::_flash_attn_backward", OPCAT_SDPA_BWD},
    {"flash_attn::_flash_attn_forward", OPCAT_SDPA_FWD},
    {"flash_attn::_flash_attn_varlen_backward", OPCAT_SDPA_BWD},
    {"flash_attn::_flash_attn_varlen_forward", OPCAT_SDPA_FWD},
    {"flash_attn_3::fwd", OPCAT_SDPA_FWD},
    {"primus::fused_ln_modulate", OPCAT_NORM_FWD},
    {"primus::fused_ln_modulate_backward", OPCAT_NORM_BWD},
    {"tex_ts::te_gemm_ts", OPCAT_GEMM},
    {"trtllm::cublas_scaled_mm", OPCAT_GEMM},
    {"vllm::gemm_with_dynamic_quant", OPCAT_GEMM},
    {"vllm::rocm_aiter_rmsnorm_fp8_group_quant", OPCAT_RMSNORM},
    {"vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", OPCAT_RMSNORM},
    {"vllm::rocm_aiter_sparse_attn_indexer", OPCAT_INFER_ATTN},
    {"vllm::rocm_aiter_triton_add_rmsnorm_pad", OPCAT_RMSNORM},
    {"vllm::unified_attention_with_output", OPCAT_INFER_ATTN},
};

static int entry_cmp(const void *key, const void *elem)
{
    return strcmp(key, ((const struct opcat_entry *)elem)->name);
}

enum opcat opcat_of_name(const char *op)
{
    const struct opcat_entry *e =
        bsearch(op, by_name, ARRAY_SIZE(by_name), sizeof(by_name[0]), entry_cmp);
    if (e)
        return e->cat;
    if (strncmp(op, "triton", 6) == 0)
        return OPCAT_TRITON;
    if (strncmp(op, "record_param_comms", 18) == 0)
        return OPCAT_COMMS;
    return OPCAT_OTHER;
}

enum opcat opcat_classify(const char *op, const char *first_kernel)
{
    enum opcat c = opcat_of_name(op);
    if (c != OPCAT_OTHER || !first_kernel)
        return c;
    if (strncmp(first_kernel, "void at::native", 15) != 0)
        return OPCAT_OTHER;
    if (strstr(first_kernel, "elementwise"))
        return OPCAT_ELEMENTWISE;
    if (strstr(first_kernel, "reduce"))
        return OPCAT_REDUCE;
    if (strstr(first_kernel, "multi_tensor_apply"))
        return OPCAT_MTA;
    return OPCAT_OTHER;
}
