/* Unit tests: GEMM transpose flags from kernel names of each library
 * family (core/roofline/gemmname.h), with names from real traces. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/roofline/gemmname.h"

static void expect(const char *name, const char *flags)
{
    char out[16] = "untouched";
    bool ok = gemmname_transpose(name, out);
    if (ok != (flags != NULL))
        fail_msg("%s: %s", name, ok ? out : "no flags");
    if (!flags) {
        assert_false(ok);
        assert_string_equal(out, "untouched");
        return;
    }
    assert_true(ok);
    assert_string_equal(out, flags);
}

/* hipBLASLt / rocBLAS: Alik and Bjlk transpose, Ailk and Bljk do not;
 * a Tensile name with other index orders gives None. */
static void test_tensile(void **state)
{
    (void)state;
    expect("Cijk_Ailk_Bjlk_BBS_BH_Bias_HAS_SAV_UserArgs_MT64x32x64_MI16x16x1_SN_LDSB0",
           "(False, True)");
    expect("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x256_MI16x16x1", "(True, False)");
    expect("Cijk_Ailk_Bljk_BBS_BH_MT64x64x64_MI16x16x16x1_SN_1LDSB0_APM1", "(False, False)");
    expect("Custom_Cijk_Alik_Bjlk_BBS_BH_Bias_AS_SAV_User", "(True, True)");
    expect("Cijk_Aikl_Bjkl_SB_MT64x16x16", "(None, None)");
}

/* cuBLASLt on Blackwell and Hopper: the last field's first two letters. */
static void test_nvjet(void **state)
{
    (void)state;
    expect("nvjet_tst_128x64_64x6_1x2_h_bz_coopA_TNT", "(True, False)");
    expect("nvjet_hsh_256x128_64x4_2x1_v_bz_coopA_NNT", "(False, False)");
    expect("nvjet_sm100_tst_64x8_64x16_4x1_v_bz_splitK_TNN", "(True, False)");
    expect("nvjet_hsh_96x128_64x6_2x1_v_bz_NTN", "(False, True)");
    expect("nvjet_tss_192x192_64x3_2x1_v_bz_TT", "(True, True)");
    /* A last field of one letter: TraceLens raises; no flags here. */
    expect("nvjet_x_T", NULL);
}

/* cuBLAS XMMA and CUTLASS: the first _xy_ with x, y in {t, n}. */
static void test_xmma_cutlass(void **state)
{
    (void)state;
    expect("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_warpgroupsize1x1x1_"
           "execute_segment_k_off_kernel__5x_cublas",
           "(True, False)");
    expect("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_"
           "align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8::Params)",
           "(True, False)");
    expect("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nt_align1>("
           "cutlass_80_tensorop_s1688gemm_128x128_16x4_nt_align1::Params)",
           "(False, True)");
    expect("void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(x::Params)",
           "(False, False)");
    /* A CUTLASS GEMM without a layout pair. */
    expect("_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_"
           "11threadblock22ImplicitGemmMultistageINS_4gemm9GemmShapeILi128ELi128ELi32EEE",
           "(None, None)");
    /* cutlass without gemm/fprop/dgrad/wgrad is no GEMM. */
    expect("void cutlass::Kernel<cutlass_reduce_tn_x>(Params)", NULL);
}

/* Families whose names carry no layout: Triton, MIOpen igemm, and CK when
 * its tile parameters parse (otherwise the next kernel is tried). */
static void test_no_layout(void **state)
{
    (void)state;
    expect("_gemm_a8w8_blockscale_kernel_BLOCK_SIZE_M_64_BLOCK_SIZE_N_128_BLOCK_SIZE_K_128",
           "(None, None)");
    expect("igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt128x128x32_wt32x32x8_ws1x1_wr2x2", "(None, None)");
    expect("void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm<(ck::GemmSpecialization)0, "
           "256, 128, 128, 64, 8>>",
           "(None, None)");
    expect("void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm<(ck::GemmSpecialization)0, "
           "256, 128>>",
           NULL);
    expect("void ck::kernel_moe_gemm<ck::MoeGemmMX_BPreshuffle<(ck::GemmSpecialization)0, 32, "
           "256, 128, 128>>",
           NULL);
    expect("_ZN2ck20kernel_gemm_xdl_cshuffle_v3INS_21GridwiseGemmEENS_18GemmSpecializationE0E"
           "Li256ELi128ELi128ELi64EEEvv",
           "(None, None)");
    expect("_ZN2ck19kernel_bwd_weightINS_11PassThroughES1_S1_Li128ELi128ELi4EEEvv", "(None, None)");
    expect("_ZN2ck19kernel_bwd_weightINS_11PassThroughES1_S1_Li128EEEvv", NULL);
}

static void test_not_gemm(void **state)
{
    (void)state;
    expect("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>",
           NULL);
    expect("", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tensile),      cmocka_unit_test(test_nvjet),
        cmocka_unit_test(test_xmma_cutlass), cmocka_unit_test(test_no_layout),
        cmocka_unit_test(test_not_gemm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
