/* `torchtop gen --moe`: after each forward pass, the ops of the MoE
 * serving and training stacks whose roofline models have no shared trace
 * to be checked on (docs/metrics.md §7.13 to §7.17): vLLM's aiter fused
 * MoE with its sorting and quantization kernels, aiter's block-scale fused
 * MoE, aiter's two-stage CK and CK-tile MoE GEMMs, SGLang's Triton fused
 * MoE (two invoke_fused_moe_kernel launches), vLLM's GPTQ/AWQ fused
 * experts (int4 weights, two fused_moe_kernel_gptq_awq kernels),
 * Primus-Turbo's grouped
 * GEMMs, MoE token dispatch and combine, and a fused cross-entropy loss.
 * Arguments are laid out as those libraries record them, with the
 * model's hidden size, its tokens, 8 experts of twice the hidden size and
 * 2 experts per token; kernel times come from the H100 roofline of
 * synth_model.c. The ops are forward-only (no backward nodes). */
#include "config.h"

#include "core/synth/synth_model.h"
#include "core/synth/synth_sim.h"

#define MOE_E 8
#define MOE_TOPK 2
#define FP8 "c10::Float8_e4m3fnuz"
#define I32 "int"

static struct geom grid(int64_t blocks)
{
    return (struct geom){{blocks > 0 ? blocks : 1, 1, 1}, 256, 128, 65536};
}

void smodel_ops_moe(struct smodel *m)
{
    if (!m->moe)
        return;
    struct model_ops *o = &m->o;
    int64_t T = m->T, H = m->H, N = 2 * m->H, E = MOE_E, K = MOE_TOPK, B = m->B, V = m->V;
    int64_t TK = T * K, X = TK + E * 255, Y = smodel_cdiv(X, 256);
    int64_t up_ns = smodel_gemm_ns(TK, 2 * N, H), down_ns = smodel_gemm_ns(TK, H, N);
    int64_t sort_ns = smodel_mem_ns(TK * 16), quant_ns = smodel_mem_ns(T * H * 3);
    int i = 0;

    /* vllm::rocm_aiter_fused_moe: sort, quantize, then the one fmoe kernel */
    o->moe_op[i] =
        OP("vllm::rocm_aiter_fused_moe", T2(BF, T, H), T3(FP8, E, 2 * N, H), T3(FP8, E, H, N),
           T2(F32, T, K), T2(I32, T, K), SC("False"), SC("1"), SC("1"), NONE, NONE, NONE, NONE);
    o->moe_k[i][0] = smodel_kern(m,
                                 "void ck_tile::kentry<256, 1, ck_tile::MoeSortingKernel<"
                                 "ck_tile::MoeSortingProblemEx<int, float, 1, true, false, "
                                 "true> > >(ck_tile::MoeSortingKernel<ck_tile::"
                                 "MoeSortingProblemEx<int, float, 1, true, false, true> "
                                 ">::Kargs)",
                                 RT_LAUNCH, sort_ns, grid(1));
    o->moe_k[i][1] = smodel_kern(m,
                                 "void aiter::dynamic_per_token_scaled_quant_kernel<"
                                 "c10::BFloat16, c10::Float8_e4m3fnuz, false>(...)",
                                 RT_LAUNCH, quant_ns, grid(T));
    o->moe_k[i][2] = smodel_kern(m, "aiter::fmoe_bf16_pertokenFp8_g1u1_vs_silu_1tg_32x256",
                                 RT_LAUNCH, up_ns + down_ns, grid(Y * 16));
    i++;

    /* aiter::fmoe_fp8_blockscale_g1u1 (SGLang): topk is argument 8 */
    o->moe_op[i] =
        OP("aiter::fmoe_fp8_blockscale_g1u1", T2(BF, T, H), T2(FP8, T, H), T3(FP8, E, 2 * N, H),
           T3(FP8, E, H, N), T1(I32, X), T1(F32, X), T1(I32, Y), T1(I32, 1), SC("%d", MOE_TOPK),
           T2(F32, H / 128, T), T3(F32, E, 2 * N / 128, H / 128), T3(F32, E, H / 128, N / 128),
           SC("1"), SC("128"), SC("128"), NONE);
    o->moe_k[i][0] = smodel_kern(m, "aiter::fmoe_fp8_blockscale_g1u1_subGU_256", RT_LAUNCH,
                                 up_ns + down_ns, grid(Y * 16));
    i++;

    /* aiter's two-stage MoE: CK, then CK-tile */
    o->moe_op[i] =
        OP("aiter::ck_moe_stage1", T2(BF, T, H), T3(BF, E, 2 * N, H), T3(BF, E, H, N), T1(I32, X),
           T1(I32, Y), T1(I32, 1), T3(BF, T, K, N), SC("%d", MOE_TOPK), SC("256"), NONE, NONE);
    o->moe_k[i][0] =
        smodel_kern(m, "ck_moe_stage1_gemm_bf16_silu_256x128x64", RT_LAUNCH, up_ns, grid(Y * 8));
    i++;
    o->moe_op[i] = OP("aiter::ck_moe_stage2", T3(BF, T, K, N), T3(BF, E, 2 * N, H), T3(BF, E, H, N),
                      T1(I32, X), T1(I32, Y), T1(I32, 1), T2(BF, T, H), SC("%d", MOE_TOPK),
                      SC("256"), NONE, NONE, NONE);
    o->moe_k[i][0] =
        smodel_kern(m, "ck_moe_stage2_gemm_bf16_256x128x64", RT_LAUNCH, down_ns, grid(Y * 8));
    i++;
    o->moe_op[i] =
        OP("aiter::moe_cktile2stages_gemm1_ck", T2(FP8, T, H), T3(FP8, E, 2 * N, H),
           T3(BF, T, K, N), T1(I32, X), T1(I32, Y), T1(I32, 1), SC("%d", MOE_TOPK), NONE, NONE);
    o->moe_k[i][0] =
        smodel_kern(m, "ck_tile_moe_gemm1_fp8_silu_256x128x128", RT_LAUNCH, up_ns, grid(Y * 8));
    i++;
    o->moe_op[i] =
        OP("aiter::moe_cktile2stages_gemm2_ck", T3(FP8, T, K, N), T3(FP8, E, H, N), T2(BF, T, H),
           T1(I32, X), T1(I32, Y), T1(I32, 1), SC("%d", MOE_TOPK), NONE, NONE);
    o->moe_k[i][0] =
        smodel_kern(m, "ck_tile_moe_gemm2_fp8_256x128x128", RT_LAUNCH, down_ns, grid(Y * 8));
    i++;

    /* SGLang's Triton fused MoE: up, then down; the profiler name carries
     * the source line, as SGLang records it; topk_ids is argument 8 */
    for (int up = 1; up >= 0; up--) {
        int64_t n = up ? 2 * N : H, k = up ? H : N;
        o->moe_op[i] =
            OP("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel_718",
               up ? T2(BF, T, H) : T2(BF, TK, N), T3(FP8, E, n, k), NONE,
               up ? T2(BF, TK, n) : T3(BF, T, K, H), NONE, T1(F32, E), T2(F32, T, K), T1(I32, X),
               T2(I32, T, K), T1(I32, Y), T1(I32, 1), SC("%d", up ? 0 : 1), SC("%d", MOE_TOPK));
        o->moe_k[i][0] =
            smodel_kern(m, "fused_moe_kernel", RT_LAUNCH, up ? up_ns : down_ns, grid(Y * 8));
        i++;
    }

    /* vLLM's GPTQ/AWQ fused experts: int4 weights packed two per byte
     * (w1 [E, 2N, H/2], w2 [E, H, N/2]); block alignment, then up and down */
    o->moe_op[i] = OP("vllm::outplace_fused_experts", T2(BF, T, H),
                      T3("unsigned char", E, 2 * N, H / 2), T3("unsigned char", E, H, N / 2),
                      T2(F32, T, K), T2(I32, T, K), SC("silu"), SC("False"), SC("True"), NONE);
    o->moe_k[i][0] = smodel_kern(m,
                                 "void vllm::moe::moe_align_block_size_kernel<int>(int const*, "
                                 "int*, int*, int*, int, int, int, int, unsigned long, int*)",
                                 RT_LAUNCH, sort_ns, grid(1));
    o->moe_k[i][1] = smodel_kern(m, "fused_moe_kernel_gptq_awq", RT_LAUNCH, up_ns, grid(Y * 8));
    o->moe_k[i][2] = smodel_kern(m, "fused_moe_kernel_gptq_awq", RT_LAUNCH, down_ns, grid(Y * 8));
    i++;

    /* Primus-Turbo grouped GEMMs: fixed K (weights [G, N, K]), variable K */
    o->moe_op[i] = OP("primus_turbo::grouped_gemm", T2(BF, TK, H), T3(BF, E, N, H), T1(I64, E),
                      T1(I64, E + 1), SC("True"), NONE);
    o->moe_k[i][0] = smodel_kern(m, "ck_tile_grouped_gemm_bf16_256x256x64_trans_b", RT_LAUNCH,
                                 smodel_gemm_ns(TK, N, H), grid(smodel_cdiv(TK, 256) * 8));
    i++;
    o->moe_op[i] = OP("primus_turbo::grouped_gemm_variable_k", T2(BF, TK, H), T2(BF, TK, N),
                      T1(I64, E), T1(I64, E + 1), SC("True"), SC("False"));
    o->moe_k[i][0] = smodel_kern(m, "ck_tile_grouped_gemm_variable_k_bf16_256x256x64", RT_LAUNCH,
                                 smodel_gemm_ns(H, N, TK), grid(E * 16));
    i++;

    /* token routing */
    o->moe_op[i] =
        OP("MoEDispatch", T2(BF, T, H), T2(F32, T, E), T2("bool", T, E), SC("%d", MOE_TOPK));
    o->moe_k[i][0] = smodel_kern(m, "void moe_permute_kernel<__hip_bfloat16, 4>(...)", RT_LAUNCH,
                                 smodel_mem_ns(TK * H * 2 * 2), grid(TK));
    i++;
    o->moe_op[i] = OP("MoECombine", T2(BF, TK, H), T2(F32, T, E), T2("bool", T, E));
    o->moe_k[i][0] = smodel_kern(m, "void moe_unpermute_kernel<__hip_bfloat16, 4>(...)", RT_LAUNCH,
                                 smodel_mem_ns(TK * H * 2 * 2), grid(T));
    i++;

    /* Transformer Engine's fused cross-entropy loss, logits (batch, 1, vocab) */
    o->moe_op[i] =
        OP("CrossEntropyFunction", T3(BF, B, 1, V), T2(I64, B, 1), SC("0.0"), SC("False"), NONE);
    o->moe_k[i][0] = smodel_kern(m, "cross_entropy_fwd_kernel_0d1d2d3d4d5d6d7d8", RT_LAUNCH,
                                 smodel_mem_ns(B * V * 2), grid(B));
    i++;
}

void sim_moe(struct sim *s, int th)
{
    const struct smodel *m = s->m;
    if (!m->moe)
        return;
    const struct model_ops *o = &m->o;
    for (int i = 0; i < SYNTH_MOE_OPS; i++) {
        uint32_t op = sim_op_open(s, th, o->moe_op[i], -1);
        for (int k = 0; k < 3 && o->moe_k[i][k]; k++)
            sim_launch(s, th, o->moe_k[i][k]);
        sim_op_close(s, op);
    }
}
