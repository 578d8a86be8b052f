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
    {"CrossEntropyFunction", OPCAT_XENT_FWD},
    {"CrossEntropyFunctionBackward", OPCAT_XENT_BWD},
    {"DaoAILab::_causal_conv1d_bwd_cpp", OPCAT_SSM_BWD},
    {"DaoAILab::_causal_conv1d_fwd_cpp", OPCAT_SSM_FWD},
    {"FlashAttnFunc", OPCAT_SDPA_FWD},
    {"FlashAttnFuncBackward", OPCAT_SDPA_BWD},
    {"FusedAttnFuncBackward", OPCAT_SDPA_BWD},
    {"FusedRoPEFunc", OPCAT_ROPE_FWD},
    {"FusedRoPEFuncBackward", OPCAT_ROPE_BWD},
    {"MambaSplitConv1dScanCombinedFn", OPCAT_SSM_FWD},
    {"MambaSplitConv1dScanCombinedFnBackward", OPCAT_SSM_BWD},
    {"MoECombine", OPCAT_MOE_COMM_FWD},
    {"MoECombineBackward", OPCAT_MOE_COMM_BWD},
    {"MoEDispatch", OPCAT_MOE_COMM_FWD},
    {"MoEDispatchBackward", OPCAT_MOE_COMM_BWD},
    {"TokenPermuteMaskMap", OPCAT_MOE_COMM_FWD},
    {"TokenPermuteMaskMapBackward", OPCAT_MOE_COMM_BWD},
    {"_C::silu_and_mul", OPCAT_ELEMENTWISE},
    {"_C_cache_ops::concat_and_cache_mla", OPCAT_INFER_ATTN},
    {"_C_cache_ops::reshape_and_cache_flash", OPCAT_INFER_ATTN},
    {"_LayerNormLinearBackward_wgrad_mm", OPCAT_GEMM},
    {"_LayerNormLinearBackward_xgrad_mm", OPCAT_GEMM},
    {"_LayerNormLinear_yfwd_mm", OPCAT_GEMM},
    {"_LinearBackward_wgrad_mm", OPCAT_GEMM},
    {"_LinearBackward_xgrad_mm", OPCAT_GEMM},
    {"_Linear_yfwd_mm", OPCAT_GEMM},
    {"_OperationFuserAutogradFunction", OPCAT_MOE_COMM_FWD},
    {"_OperationFuserAutogradFunctionBackward", OPCAT_MOE_COMM_BWD},
    {"_moe_C::moe_align_block_size", OPCAT_MOE_AUX},
    {"aiter::_flash_attn_backward", OPCAT_SDPA_BWD},
    {"aiter::_flash_attn_forward", OPCAT_SDPA_FWD},
    {"aiter::_gemm_a16w16_asm", OPCAT_GEMM},
    {"aiter::_gemm_a4w4_asm", OPCAT_GEMM},
    {"aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", OPCAT_GEMM},
    {"aiter::_groupnorm_run", OPCAT_NORM_FWD},
    {"aiter::add_rmsnorm", OPCAT_RMSNORM},
    {"aiter::batched_gemm_a16wfp4_", OPCAT_GEMM},
    {"aiter::biased_grouped_topk_hip", OPCAT_MOE_AUX},
    {"aiter::ck_moe_stage1", OPCAT_MOE_UNFUSED},
    {"aiter::ck_moe_stage2", OPCAT_MOE_UNFUSED},
    {"aiter::flatmm_a8w8_blockscale_asm", OPCAT_GEMM},
    {"aiter::fmha_v3_fwd", OPCAT_SDPA_FWD},
    {"aiter::fmha_v3_varlen_fwd", OPCAT_INFER_ATTN},
    {"aiter::fmoe_fp8_blockscale_g1u1", OPCAT_MOE_FUSED},
    {"aiter::fmoe_g1u1", OPCAT_MOE_FUSED},
    {"aiter::fused_add_rmsnorm_pad_", OPCAT_RMSNORM},
    {"aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", OPCAT_MOE_AUX},
    {"aiter::gemm_a16w16", OPCAT_GEMM},
    {"aiter::gemm_a16w16_atomic_", OPCAT_GEMM},
    {"aiter::gemm_a4w4", OPCAT_GEMM},
    {"aiter::gemm_a8w8_blockscale_bpreshuffle_ck", OPCAT_GEMM},
    {"aiter::gemm_a8w8_blockscale_bpreshuffle_cktile", OPCAT_GEMM},
    {"aiter::gemm_a8w8_blockscale_ck", OPCAT_GEMM},
    {"aiter::gemm_a8w8_blockscale_cktile", OPCAT_GEMM},
    {"aiter::gemm_a8w8_bpreshuffle", OPCAT_GEMM},
    {"aiter::gemm_a8w8_bpreshuffle_ck", OPCAT_GEMM},
    {"aiter::gemm_a8w8_ck", OPCAT_GEMM},
    {"aiter::get_mla_metadata_v1", OPCAT_INFER_ATTN},
    {"aiter::gfx950_a8w8_blockscale_asm", OPCAT_GEMM},
    {"aiter::grouped_topk", OPCAT_MOE_AUX},
    {"aiter::indexer_score_topk", OPCAT_INFER_ATTN},
    {"aiter::linear_attention_with_output_base", OPCAT_INFER_ATTN},
    {"aiter::mha_batch_prefill", OPCAT_INFER_ATTN},
    {"aiter::mha_bwd", OPCAT_SDPA_BWD},
    {"aiter::mha_fwd", OPCAT_SDPA_FWD},
    {"aiter::mha_varlen_fwd", OPCAT_INFER_ATTN},
    {"aiter::moe_align_block_size", OPCAT_MOE_AUX},
    {"aiter::moe_cktile2stages_gemm1_ck", OPCAT_MOE_UNFUSED},
    {"aiter::moe_cktile2stages_gemm2_ck", OPCAT_MOE_UNFUSED},
    {"aiter::moe_fused_gate", OPCAT_MOE_AUX},
    {"aiter::moe_sorting_fwd", OPCAT_MOE_AUX},
    {"aiter::moe_sorting_opus_fwd", OPCAT_MOE_AUX},
    {"aiter::moe_sum", OPCAT_MOE_AUX},
    {"aiter::mxfp4_moe_sort_hip", OPCAT_MOE_AUX},
    {"aiter::pa_decode_gluon", OPCAT_INFER_ATTN},
    {"aiter::pa_sparse_prefill_opus_fwd", OPCAT_INFER_ATTN},
    {"aiter::rms_norm", OPCAT_RMSNORM},
    {"aiter::rmsnorm", OPCAT_RMSNORM},
    {"aiter::rmsnorm2d_fwd_ck", OPCAT_RMSNORM},
    {"aiter::rmsnorm2d_fwd_with_add_ck", OPCAT_RMSNORM},
    {"aiter::rmsnorm2d_fwd_with_dynamicquant_ck", OPCAT_RMSNORM},
    {"aiter::rmsnorm_quant", OPCAT_RMSNORM},
    {"aiter::silu_and_mul", OPCAT_ELEMENTWISE},
    {"aiter::topk_sigmoid", OPCAT_MOE_AUX},
    {"aiter::topk_softmax", OPCAT_MOE_AUX},
    {"aiter::topk_softmax_asm", OPCAT_MOE_AUX},
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
    {"primus_turbo::grouped_gemm", OPCAT_GROUPED_GEMM},
    {"primus_turbo::grouped_gemm_impl", OPCAT_GROUPED_GEMM},
    {"primus_turbo::grouped_gemm_variable_k", OPCAT_GROUPED_GEMM},
    {"primus_turbo::grouped_gemm_variable_k_impl", OPCAT_GROUPED_GEMM},
    {"primus_turbo::hipblaslt_gemm_fp4", OPCAT_GEMM},
    {"primus_turbo::hipblaslt_gemm_fp8", OPCAT_GEMM},
    {"primus_turbo_cpp_extension::ck_grouped_gemm", OPCAT_GROUPED_GEMM},
    {"primus_turbo_cpp_extension::ck_grouped_gemm_variable_k", OPCAT_GROUPED_GEMM},
    {"primus_turbo_cpp_extension::grouped_gemm", OPCAT_GROUPED_GEMM},
    {"primus_turbo_cpp_extension::grouped_gemm_variable_k", OPCAT_GROUPED_GEMM},
    {"primus_turbo_cpp_extension::hipblaslt_gemm_fp4", OPCAT_GEMM},
    {"primus_turbo_cpp_extension::hipblaslt_gemm_fp8", OPCAT_GEMM},
    {"sgl_kernel::rotary_embedding", OPCAT_ROPE_FWD},
    {"sgl_kernel::silu_and_mul", OPCAT_ELEMENTWISE},
    {"sglang::store_cache", OPCAT_INFER_ATTN},
    {"sglang_profiler::attention_paged_attention_ragged", OPCAT_INFER_ATTN},
    {"sglang_profiler::fp8_utils_gemm_a8w8_blockscale", OPCAT_GEMM},
    {"sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale", OPCAT_GEMM},
    {"sglang_profiler::gemm_kernels_flydsl_hgemm", OPCAT_GEMM},
    {"tex_ts::te_gemm_ts", OPCAT_GEMM},
    {"trtllm::cublas_scaled_mm", OPCAT_GEMM},
    {"vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm", OPCAT_GEMM},
    {"vllm::gdn_attention_core", OPCAT_INFER_ATTN},
    {"vllm::gemm_with_dynamic_quant", OPCAT_GEMM},
    {"vllm::rocm_aiter_rmsnorm_fp8_group_quant", OPCAT_RMSNORM},
    {"vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", OPCAT_RMSNORM},
    {"vllm::rocm_aiter_sparse_attn_indexer", OPCAT_INFER_ATTN},
    {"vllm::rocm_aiter_triton_add_rmsnorm_pad", OPCAT_RMSNORM},
    {"vllm::rocm_aiter_triton_gemm_a8w8_blockscale", OPCAT_GEMM},
    {"vllm::rocm_unquantized_gemm", OPCAT_GEMM},
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
