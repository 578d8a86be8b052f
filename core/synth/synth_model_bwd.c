/* Op and kernel variants of the simulated model's backward pass, its
 * collectives, the optimizer and the CUDA-graph replay. */
#include "config.h"

#include <stdlib.h>

#include "core/synth/synth_model.h"

void smodel_ops_backward(struct smodel *m)
{
    struct model_ops *o = &m->o;
    int64_t B = m->B, S = m->S, H = m->H, NH = m->NH, HD = m->HD, F = m->F, V = m->V, T = m->T;
    long long lH = (long long)H;

#define EV(x) OP0("autograd::engine::evaluate_function: " x)
    o->ev_addmm = EV("AddmmBackward0");
    o->node_addmm = OP0("AddmmBackward0");
    o->ev_mm = EV("MmBackward0");
    o->node_mm = OP0("MmBackward0");
    o->ev_ln = EV("NativeLayerNormBackward0");
    o->node_ln = OP0("NativeLayerNormBackward0");
    o->ln_bwd =
        OP("aten::native_layer_norm_backward", T3(BF, B, S, H), T3(BF, B, S, H), LS("[%lld]", lH),
           T3(F32, B, S, 1), T3(F32, B, S, 1), T1(BF, H), T1(BF, H), LS("[True, True, True]"));
    o->ev_add = EV("AddBackward0");
    o->node_add = OP0("AddBackward0");
    o->ev_gelu = EV("GeluBackward0");
    o->node_gelu = OP0("GeluBackward0");
    o->gelu_bwd = OP("aten::gelu_backward", T3(BF, B, S, F), T3(BF, B, S, F), SC("tanh"));
    o->ev_flash = EV("ScaledDotProductFlashAttentionBackward0");
    o->node_flash = OP0("ScaledDotProductFlashAttentionBackward0");
    o->sdpa_flash_bwd =
        OP("aten::_scaled_dot_product_flash_attention_backward", T4(BF, B, NH, S, HD),
           T4(BF, B, NH, S, HD), T4(BF, B, NH, S, HD), T4(BF, B, NH, S, HD), T4(BF, B, NH, S, HD),
           T3(F32, B, NH, S), NONE, NONE, SC("%lld", (long long)S), SC("%lld", (long long)S),
           SC("0."), SC("True"), T1(I64, 2), T0(I64), NONE);
    o->flash_bwd = OP("aten::_flash_attention_backward", T4(BF, B, S, NH, HD), T4(BF, B, S, NH, HD),
                      T4(BF, B, S, NH, HD), T4(BF, B, S, NH, HD), T4(BF, B, S, NH, HD),
                      T3(F32, B, NH, S), NONE, NONE, SC("%lld", (long long)S),
                      SC("%lld", (long long)S), SC("0."), SC("True"), T1(I64, 2), T0(I64), NONE);
    o->ev_bmm = EV("BmmBackward0");
    o->node_bmm = OP0("BmmBackward0");
    o->bmm_qk_dgrad = OP("aten::bmm", T3(BF, B * NH, S, S), T3(BF, B * NH, S, HD));
    o->bmm_qk_wgrad = OP("aten::bmm", T3(BF, B * NH, HD, S), T3(BF, B * NH, S, S));
    o->bmm_pv_dgrad = OP("aten::bmm", T3(BF, B * NH, S, HD), T3(BF, B * NH, HD, S));
    o->bmm_pv_wgrad = OP("aten::bmm", T3(BF, B * NH, S, S), T3(BF, B * NH, S, HD));
    o->ev_softmax = EV("SoftmaxBackward0");
    o->node_softmax = OP0("SoftmaxBackward0");
    o->softmax_bwd = OP("aten::_softmax_backward_data", T4(BF, B, NH, S, S), T4(BF, B, NH, S, S),
                        SC("-1"), SC("15"));
    o->ev_mul = EV("MulBackward0");
    o->node_mul = OP0("MulBackward0");
    o->mul_bwd = OP("aten::mul", T4(BF, B, NH, S, S), SC("0.088388347648318433"));
    o->ev_emb = EV("EmbeddingBackward0");
    o->node_emb = OP0("EmbeddingBackward0");
    o->emb_bwd = OP("aten::embedding_backward", T3(BF, B, S, H), T2(I64, B, S),
                    SC("%lld", (long long)V), SC("-1"), SC("False"), SC("False"));
    o->emb_dense_bwd = OP("aten::embedding_dense_backward", T3(BF, B, S, H), T2(I64, B, S),
                          SC("%lld", (long long)V), SC("-1"), SC("False"));
    o->zeros =
        OP("aten::zeros", LS("[%lld, %lld]", (long long)V, lH), SC("6"), NONE, NONE, SC("False"));
    o->zero_ = OP("aten::zero_", T2(F32, V, H));
    o->fill_ = OP("aten::fill_", T2(F32, V, H), SC("0"));
    o->ev_log_softmax = EV("LogSoftmaxBackward0");
    o->node_log_softmax = OP0("LogSoftmaxBackward0");
    o->log_softmax_bwd =
        OP("aten::_log_softmax_backward_data", T2(BF, T, V), T2(BF, T, V), SC("1"), SC("15"));
    o->ev_nll = EV("NllLossBackward0");
    o->node_nll = OP0("NllLossBackward0");
    o->nll_bwd = OP("aten::nll_loss_backward", T0(BF), T2(BF, T, V), T1(I64, T), NONE, SC("1"),
                    SC("-100"), T0(F32));
    o->nll_zero = OP("aten::zero_", T2(F32, T, V));
    o->nll_fill = OP("aten::fill_", T2(F32, T, V), SC("0"));
    o->ev_acc = EV("torch::autograd::AccumulateGrad");
    o->node_acc = OP0("torch::autograd::AccumulateGrad");
    o->detach = OP("aten::detach", T2(BF, H, H));
    o->detach_inner = OP("detach", T2(BF, H, H));
    if (m->conv) {
        int64_t C = m->C, I = m->IMG, O = m->IMG / 2;
        o->ev_conv = EV("ConvolutionBackward0");
        o->node_conv = OP0("ConvolutionBackward0");
        o->conv_bwd = OP("aten::convolution_backward", T4(BF, B, C, O, O), T4(BF, B, 3, I, I),
                         T4(BF, C, 3, 7, 7), NONE, LS("[2, 2]"), LS("[3, 3]"), LS("[1, 1]"),
                         SC("False"), LS("[0, 0]"), SC("1"), LS("[False, True, False]"));
        o->ev_bn = EV("CudnnBatchNormBackward0");
        o->node_bn = OP0("CudnnBatchNormBackward0");
        o->bn_bwd = OP("aten::cudnn_batch_norm_backward", T4(BF, B, C, O, O), T4(BF, B, C, O, O),
                       T1(BF, C), T1(F32, C), T1(F32, C), T1(F32, C), T1(F32, C),
                       SC("1.0000000000000001e-05"), T1(BF, 0));
        o->ev_relu = EV("ReluBackward0");
        o->node_relu = OP0("ReluBackward0");
        o->threshold_bwd =
            OP("aten::threshold_backward", T4(BF, B, C, O, O), T4(BF, B, C, O, O), SC("0"));
        o->k_conv_wgrad =
            smodel_kern(m,
                        "sm90_xmma_wgrad_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nchw_"
                        "tilesize128x128x64_warpgroupsize1x1x1_g1_execute_segment_k_off_"
                        "kernel__5x_cudnn",
                        RT_LAUNCH, smodel_gemm_ns(C, 3 * 49, B * O * O) * 2,
                        (struct geom){{1, smodel_cdiv(C, 128), 64}, 128, 168, 197632});
        o->k_bn_bwd = smodel_kern(
            m,
            "void cudnn::bn_bw_1C11_kernel_new<__nv_bfloat16, float, float2, 512, "
            "true, 1>(float, float, float, float, cudnnTensorStruct, "
            "__nv_bfloat16 const*, cudnnTensorStruct, __nv_bfloat16 const*, "
            "cudnnTensorStruct, __nv_bfloat16*, float const*, float*, float*, "
            "float const*, float const*, float)",
            RT_LAUNCH, smodel_mem_ns(B * C * O * O * 8), (struct geom){{C, 1, 1}, 512, 40, 4096});
        o->k_threshold_bwd = smodel_kern_ew(m, VEC_EW(THRESHOLD_FN, "3"), B * C * O * O, 6);
    }
#undef EV

    o->k_ln_bwd_in =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_"
                    "vectorized<c10::BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 "
                    "const*, float const*, float const*, c10::BFloat16 const*, "
                    "c10::BFloat16*, int)",
                    RT_LAUNCH, smodel_mem_ns(T * H * 6), (struct geom){{T, 1, 1}, 256, 40, 0});
    o->k_ln_bwd_gamma =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel"
                    "_32x32<c10::BFloat16, float>(long, long, c10::BFloat16 const*, "
                    "c10::BFloat16 const*, float const*, float const*, c10::BFloat16*, "
                    "c10::BFloat16*)",
                    RT_LAUNCH, smodel_mem_ns(T * H * 4),
                    (struct geom){{smodel_cdiv(H, 32), 1, 1}, 1024, 64, 8448});
    o->k_gelu_bwd = smodel_kern_ew(m, VEC_EW(GELU_BWD_FN, "3"), T * F, 6);
    o->k_flash_bwd_dot =
        smodel_kern(m,
                    "void pytorch_flash::flash_bwd_dot_do_o_kernel<true, " FLASH_BWD_TRAITS
                    " >(pytorch_flash::Flash_bwd_params)",
                    RT_LAUNCH, smodel_mem_ns(T * H * 4),
                    (struct geom){{smodel_cdiv(S, 128), B, NH}, 256, 32, 0});
    o->k_flash_bwd = smodel_kern(
        m,
        "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<" FLASH_BWD_TRAITS
        ", false, true, false, false, false, true, true, "
        "false>(pytorch_flash::Flash_bwd_params)",
        RT_LAUNCH, 5 * (4 * B * NH * S * S * HD / 2) / 2 / FLASH_FLOPS_PER_NS + 9000,
        (struct geom){{smodel_cdiv(S, 128), B, NH}, 256, 255, 147456});
    o->k_flash_bwd_convert =
        smodel_kern(m,
                    "void pytorch_flash::flash_bwd_convert_dq_kernel<" FLASH_BWD_TRAITS
                    " >(pytorch_flash::Flash_bwd_params, int)",
                    RT_LAUNCH, smodel_mem_ns(T * H * 6),
                    (struct geom){{smodel_cdiv(S, 128), B, NH}, 256, 64, 32768});
    o->k_softmax_bwd =
        smodel_kern(m,
                    S <= 1024 ? "void (anonymous namespace)::softmax_warp_backward<"
                                "c10::BFloat16, c10::BFloat16, float, 10, false, false>("
                                "c10::BFloat16*, c10::BFloat16 const*, c10::BFloat16 "
                                "const*, int, int, int, bool const*)"
                              : "void at::native::(anonymous namespace)::cunn_SoftMax"
                                "BackwardSmem<8, c10::BFloat16, float, c10::BFloat16, "
                                "at::native::(anonymous namespace)::SoftMaxBackward"
                                "Epilogue>(c10::BFloat16*, c10::BFloat16 const*, "
                                "c10::BFloat16 const*, long)",
                    RT_LAUNCH, smodel_mem_ns(B * NH * S * S * 6),
                    (struct geom){{B * NH * S / 4, 1, 1}, 128, 40, 0});
    o->k_mul_bwd = smodel_kern_ew(m, VEC_EW(MUL_FN, "2"), B * NH * S * S, 4);
    o->k_emb_bwd =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::embedding_backward_feature_"
                    "kernel<c10::BFloat16, float, long>(long const*, c10::BFloat16 const*, "
                    "float*, int, long, int, int)",
                    RT_LAUNCH, smodel_mem_ns(T * H * 8),
                    (struct geom){{smodel_cdiv(H, 32), 1, 1}, 1024, 40, 8192});
    o->k_memset = smodel_kern_copy(m, "Memset (Device)", RT_MEMSET, V * H * 4, 1800);
    o->k_log_softmax_bwd =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, "
                    "c10::BFloat16, float, c10::BFloat16, at::native::(anonymous "
                    "namespace)::LogSoftMaxBackwardEpilogue>(c10::BFloat16*, "
                    "c10::BFloat16 const*, c10::BFloat16 const*, long)",
                    RT_LAUNCH, smodel_mem_ns(T * V * 6), (struct geom){{T, 1, 1}, 1024, 40, 0});
    o->k_nll_bwd =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_"
                    "kernel_2d<c10::BFloat16, long>(c10::BFloat16*, c10::BFloat16 const*, "
                    "long const*, c10::BFloat16 const*, c10::BFloat16 const*, bool, int, int, "
                    "long, long)",
                    RT_LAUNCH, smodel_mem_ns(T * 16), (struct geom){{1, 1, 1}, 1024, 32, 0});
    o->k_fill = smodel_kern_ew(m, VEC_EW("at::native::FillFunctor<float>", "1"), T * V, 4);
}

void smodel_ops_step(struct smodel *m)
{
    struct model_ops *o = &m->o;
    int64_t H = m->H, V = m->V;
    o->allreduce = OP0("c10d::allreduce_");
    o->rpc_layer = smodel_op_rpc(m, m->layer_params);
    o->rpc_last = smodel_op_rpc(m, m->other_params);
    o->k_nccl_layer = smodel_kern_nccl(m, m->layer_params);
    o->k_nccl_last = smodel_kern_nccl(m, m->other_params);

    int64_t params = m->layer_params * m->layers + m->other_params;
    struct geom g = {{320, 1, 1}, 512, 96, 0};
    int64_t chunk = 320 * 65536;
    m->adamw_launches = (unsigned)MAX(1, smodel_cdiv(params, chunk));
    o->k_adamw =
        smodel_kern(m, MANGLED_ADAMW, RT_LAUNCH, smodel_mem_ns(MIN(params, chunk) * 16), g);
    o->fused_adamw =
        OP("aten::_fused_adamw_", TLIST, TLIST, TLIST, TLIST, TLIST, TLIST,
           SC("0.00029999999999999997"), SC("0.90000000000000002"), SC("0.94999999999999996"),
           SC("0.10000000000000001"), SC("1e-08"), SC("False"), SC("False"), NONE, NONE);

    struct geom gn = {{320, 1, 1}, 512, 64, 0};
    o->k_graph[0] =
        smodel_kern(m, MANGLED_LPNORM, RT_GRAPH_LAUNCH, smodel_mem_ns(MIN(params, chunk) * 2), gn);
    o->k_graph[1] = smodel_kern(m,
                                "void at::native::lpnorm_cleanup<c10::BFloat16, "
                                "(at::native::NormType)1, float, float>(float const*, "
                                "at::native::TensorListAddresses, int)",
                                RT_GRAPH_LAUNCH, 3500, (struct geom){{1, 1, 1}, 512, 32, 2048});
    o->k_graph[2] = smodel_kern(m, VEC_EW(CLAMP_MAX_FN, "2"), RT_GRAPH_LAUNCH, 2200,
                                (struct geom){{1, 1, 1}, 128, 20, 0});
    o->k_graph[3] = smodel_kern(m,
                                "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<"
                                "at::native::(anonymous namespace)::TensorListMetadata<1>, "
                                "at::native::(anonymous namespace)::BinaryOpScalarTensorFunctor<"
                                "c10::BFloat16, 1, 1, 0>, std::multiplies<float>, float*>("
                                "at::native::(anonymous namespace)::TensorListMetadata<1>, "
                                "at::native::(anonymous namespace)::BinaryOpScalarTensorFunctor<"
                                "c10::BFloat16, 1, 1, 0>, std::multiplies<float>, float*)",
                                RT_GRAPH_LAUNCH, smodel_mem_ns(MIN(params, chunk) * 4), gn);

    o->item = OP("aten::item", T0(F32));
    o->local_scalar = OP("aten::_local_scalar_dense", T0(F32));
    o->k_d2h = smodel_kern_copy(m, "Memcpy DtoH (Device -> Pinned)", RT_MEMCPY, 4, 1);

    o->k_prev[0] = o->k_adamw;
    o->k_prev[1] = o->k_fill;
    o->k_prev[2] = o->k_add;
    (void)H;
    (void)V;
}
