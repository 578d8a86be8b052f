/* Unit tests: every performance model against hand-computed FLOPs, bytes,
 * parameters and compute specs (docs/metrics.md §7), including the
 * documented differences from TraceLens (tl_flops / tl_bytes). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/roofline/perfmodel.h"
#include "tests/unit/pyvalutil.h"

static struct pm_result R;

/* Evaluate op's model on the four recorded texts. */
static bool run_linked(const char *op, const char *dims, const char *types, const char *strides,
                       const char *concrete, bool bwd, const struct op_args *linked,
                       const char *linked_op)
{
    struct op_args a;
    shapes_args_parse_json(&a, dims, types, strides, concrete);
    const struct pm_model *m = pm_find(op);
    assert_non_null(m);
    struct pm_ctx c = {.op = op, .a = &a, .bwd = bwd, .linked = linked, .linked_op = linked_op};
    bool ok = pm_eval(m, &c, &R);
    shapes_args_done(&a);
    return ok;
}

/* Evaluate op's model under a serving step's sums (inference attention). */
static bool run_iter(const char *op, const char *dims, const char *types, const struct iterann *it)
{
    struct op_args a;
    shapes_args_parse_json(&a, dims, types, NULL, NULL);
    const struct pm_model *m = pm_find(op);
    assert_non_null(m);
    struct pm_ctx c = {.op = op, .a = &a, .iter = it};
    bool ok = pm_eval(m, &c, &R);
    shapes_args_done(&a);
    return ok;
}

static bool run(const char *op, const char *dims, const char *types, const char *concrete)
{
    return run_linked(op, dims, types, NULL, concrete, false, NULL, NULL);
}

static bool run_bwd(const char *op, const char *dims, const char *types, const char *concrete)
{
    return run_linked(op, dims, types, NULL, concrete, true, NULL, NULL);
}

static const char *param(const char *key)
{
    size_t n;
    const struct pm_param_def *d = pm_sheet_params(R.sheet, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(d[i].key, key) == 0)
            return pm_param(&R, i);
    fail_msg("no parameter %s in sheet %s", key, pm_sheet_name(R.sheet));
    return NULL;
}

#define EQ(x, v) assert_true(fabs((x) - (double)(v)) <= 1e-9 * fabs((double)(v)))

static void test_registry(void **state)
{
    assert_null(pm_find("aten::gelu"));
    assert_null(pm_find(""));
    assert_int_equal(pm_find("aten::mm")->sheet, PM_GEMM);
    assert_int_equal(pm_find("aten::convolution_backward")->sheet, PM_CONV_BWD);
    assert_int_equal(pm_find("FlashAttnFunc")->sheet, PM_SDPA_FWD);
    assert_int_equal(pm_find("aten::native_layer_norm_backward")->sheet, PM_NORM);
    assert_int_equal(pm_find("aten::mean")->bwd_sheet, PM_REDUCE_BWD);
    assert_string_equal(pm_sheet_name(PM_BINARY), "BinaryElementwise");
    size_t n;
    const struct pm_param_def *d = pm_sheet_params(PM_GEMM, &n);
    assert_int_equal(n, 9);
    assert_string_equal(d[0].col, "param: M");
    assert_string_equal(d[8].col, "param: transpose");
    assert_true(d[0].is_int);
    assert_false(pm_eval(pm_find("aten::convolution_backward"),
                         &(struct pm_ctx){.op = "x", .bwd = true}, &R));
}

static void test_gemm(void **state)
{
    /* 4096^3 bf16 mm: 2MNK FLOPs, (MK + KN + MN) * 2 bytes. */
    assert_true(run("aten::mm", "[[4096,4096],[4096,4096]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\"]", NULL));
    EQ(R.flops, 137438953472.0);
    EQ(R.bytes, 3.0 * 4096 * 4096 * 2);
    assert_string_equal(R.spec, "matrix_bf16");
    assert_string_equal(param("M"), "4096");
    assert_string_equal(param("bias"), "False");
    assert_string_equal(param("B"), "1");
    assert_string_equal(param("dtype_A_B"), "('c10::BFloat16', 'c10::BFloat16')");
    EQ(R.tl_flops, R.flops);
    EQ(R.tl_bytes, R.bytes);
    assert_null(R.differs);
    /* addmm(bias, A, B): the BERT row of the H100 oracle. */
    assert_true(run_linked("aten::addmm", "[[512],[141,512],[512,512],[],[]]",
                           "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\","
                           "\"Scalar\"]",
                           "[[1],[512,1],[1,512],[],[]]", "[\"\",\"\",\"\",\"1\",\"1\"]", false,
                           NULL, NULL));
    EQ(R.flops, 2.0 * 141 * 512 * 512 + 141 * 512);
    EQ(R.bytes, 814080);
    assert_string_equal(param("stride_A"), "(512, 1)");
    assert_string_equal(param("stride_B"), "(1, 512)");
    assert_string_equal(param("bias"), "True");
    /* bmm B=8, M=64, K=32, N=16 fp16. */
    assert_true(run("aten::bmm", "[[8,64,32],[8,32,16]]", "[\"c10::Half\",\"c10::Half\"]", NULL));
    EQ(R.flops, 8.0 * 2 * 64 * 16 * 32);
    EQ(R.bytes, 8.0 * (64 * 32 + 32 * 16 + 64 * 16) * 2);
    assert_string_equal(param("B"), "8");
    assert_string_equal(R.spec, "matrix_fp16");
    /* baddbmm B=2, M=4, K=8, N=3 fp32: B(2MNK + MN), B(MK+KN+MN+N)4. */
    assert_true(run("aten::baddbmm", "[[2,4,3],[2,4,8],[2,8,3],[],[]]",
                    "[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]", NULL));
    EQ(R.flops, 408);
    EQ(R.bytes, 568);
    /* Wrong ranks do not fit. */
    assert_false(run("aten::mm", "[[4,4,4],[4,4]]", NULL, NULL));
    assert_false(run("aten::bmm", "[[4,4],[4,4]]", NULL, NULL));
}

/* TraceLens's transpose column, from the first Tensile-named kernel: the
 * MI300 oracle's rows. */
static bool run_kernels(const char *op, const char *dims, const char *strides, bool bwd,
                        const char *const *kernels, size_t n)
{
    struct op_args a;
    shapes_args_parse_json(&a, dims, "[\"c10::BFloat16\",\"c10::BFloat16\"]", strides, NULL);
    struct pm_ctx c = {.op = op, .a = &a, .bwd = bwd, .kernels = kernels, .nkernels = n};
    bool ok = pm_eval(pm_find(op), &c, &R);
    shapes_args_done(&a);
    return ok;
}

static void test_gemm_transpose(void **state)
{
    const char *k1[] = {"Cijk_Ailk_Bljk_BBS_BH_Bias_HAS_SAV_UserArgs_MT16x16x256_MI16x16x4"};
    assert_true(
        run_kernels("aten::mm", "[[10,1000],[1000,512]]", "[[1000,1],[512,1]]", false, k1, 1));
    assert_string_equal(param("transpose"), "(False, False)");
    /* A column-major A is the kernel's transposed B. */
    const char *k2[] = {"void at::native::elementwise_kernel<128, 2>",
                        "Cijk_Ailk_Bjlk_BBS_BH_Bias_HAS_SAV_UserArgs_MT64x32x64_MI16x16x1",
                        "Cijk_Alik_Bljk_SB_MT64x16x32"};
    assert_true(
        run_kernels("aten::mm", "[[1000,10],[10,512]]", "[[1,1000],[512,1]]", false, k2, 3));
    assert_string_equal(param("transpose"), "(False, True)");
    const char *k3[] = {"Custom_Cijk_Alik_Bljk_BBS_BH"};
    assert_true(run_kernels("aten::mm", "[[10,512],[512,1000]]", NULL, false, k3, 1));
    assert_string_equal(param("transpose"), "(True, False)");
    /* A Tensile name with other axis letters: both unknown. */
    const char *k4[] = {"Cijk_Aijk_Bijk_HHS"};
    assert_true(run_kernels("aten::mm", "[[8,8],[8,8]]", NULL, false, k4, 1));
    assert_string_equal(param("transpose"), "(None, None)");
    /* cuBLAS XMMA, CUTLASS and nvjet names give it too (gemmname.h): the
     * first kernel of a GEMM family decides. */
    const char *k5[] = {"void at::native::elementwise_kernel<128, 2>",
                        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64",
                        "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_nt>"};
    assert_true(run_kernels("aten::mm", "[[8,8],[8,8]]", NULL, false, k5, 3));
    assert_string_equal(param("transpose"), "(True, False)");
    const char *k6[] = {"nvjet_hsh_256x128_64x4_2x1_v_bz_coopA_NTN"};
    assert_true(run_kernels("aten::mm", "[[8,8],[8,8]]", NULL, false, k6, 1));
    assert_string_equal(param("transpose"), "(False, True)");
    /* Kernels of no GEMM family, or none: no value, as TraceLens. */
    const char *k7[] = {"void at::native::elementwise_kernel<128, 2>"};
    assert_true(run_kernels("aten::mm", "[[8,8],[8,8]]", NULL, false, k7, 1));
    assert_null(param("transpose"));
    assert_true(run_kernels("aten::mm", "[[8,8],[8,8]]", NULL, false, NULL, 0));
    assert_null(param("transpose"));
    /* The backward through the link has no kernel of its own here. */
    assert_true(run_kernels("aten::mm", "[[8,8],[8,8]]", NULL, true, k1, 1));
    assert_null(param("transpose"));
}

static void test_gemm_backward_through_link(void **state)
{
    /* dA and dB: twice the forward's GEMM work; bytes read dY twice. */
    assert_true(run_bwd("aten::mm", "[[64,32],[32,16]]", "[\"float\",\"float\"]", NULL));
    assert_int_equal(R.sheet, PM_GEMM_BWD);
    EQ(R.flops, 4.0 * 64 * 16 * 32);
    EQ(R.bytes, 4.0 * 2 * (64 * 32 + 32 * 16 + 64 * 16));
    assert_true(isnan(R.tl_flops)); /* TraceLens has no GEMM backward */
    assert_true(run_bwd("aten::addmm", "[[16],[64,32],[32,16],[],[]]",
                        "[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]", NULL));
    EQ(R.flops, 4.0 * 64 * 16 * 32 + 64 * 16);
    EQ(R.bytes, 4.0 * (2 * (64 * 32 + 32 * 16 + 64 * 16) + 64 * 16 + 16));
}

static void test_scaled_mm_fp8(void **state)
{
    const char *types = "[\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\",\"float\",\"float\","
                        "\"c10::BFloat16\",\"\",\"\",\"Scalar\"]";
    /* Bias [64] bf16, out_dtype 15 (bfloat16). */
    assert_true(run("aten::_scaled_mm", "[[128,256],[256,64],[],[],[64],[],[],[]]", types,
                    "[\"\",\"\",\"\",\"\",\"\",\"\",\"15\",\"False\"]"));
    EQ(R.flops, 2.0 * 128 * 64 * 256 + 128 * 64);
    EQ(R.bytes, 128 * 256 + 256 * 64 + 128 * 64 * 2 + 64 * 2);
    EQ(R.tl_flops, 2.0 * 128 * 64 * 256);
    EQ(R.tl_bytes, 128 * 256 + 256 * 64 + 128 * 64 * 2);
    assert_string_equal(R.spec, "matrix_fp8");
    assert_string_equal(param("bias"), "True");
    assert_non_null(R.differs);
    /* No bias, no out_dtype: fp8 -> 2-byte output, as TraceLens assumes. */
    assert_true(run("aten::_scaled_mm", "[[128,256],[256,64],[],[],[],[],[],[]]", types, NULL));
    EQ(R.bytes, 128 * 256 + 256 * 64 + 128 * 64 * 2);
    EQ(R.tl_bytes, R.bytes);
    /* fp32 output requested. */
    assert_true(run("aten::_scaled_mm", "[[128,256],[256,64],[],[],[],[],[],[]]", types,
                    "[\"\",\"\",\"\",\"\",\"\",\"\",\"6\",\"\"]"));
    EQ(R.bytes, 128 * 256 + 256 * 64 + 128 * 64 * 4);
}

#define CONV_TYPES(t)                                                                              \
    "[\"" t "\",\"" t "\",\"" t "\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\","      \
    "\"ScalarList\",\"Scalar\"]"

static void test_conv_bias(void **state)
{
    /* x (2,3,8,8), w (4,3,3,3), bias (4,), stride 1, pad 1 -> out (2,4,8,8). */
    assert_true(
        run("aten::convolution", "[[2,3,8,8],[4,3,3,3],[4],[],[],[],[],[],[]]", CONV_TYPES("float"),
            "[\"\",\"\",\"\",\"[1, 1]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\",\"1\"]"));
    EQ(R.flops, 2.0 * 27 * 512 + 512);
    EQ(R.bytes, (384 + 108 + 512 + 4) * 4.0);
    /* The documented difference: TraceLens never counts the bias. */
    EQ(R.tl_flops, 2.0 * 27 * 512);
    EQ(R.tl_bytes, (384 + 108 + 512) * 4.0);
    assert_non_null(R.differs);
    assert_string_equal(param("bias"), "True");
    assert_string_equal(param("convNd"), "conv2d");
    assert_string_equal(param("stride"), "(1, 1)");
    assert_string_equal(param("output_padding"), "(0, 0)");
    assert_string_equal(R.spec, "matrix_fp32");
    /* Without bias the two agree; stride 2 and no padding -> out (2,4,3,3). */
    assert_true(run("aten::convolution", "[[2,3,8,8],[4,3,3,3],[],[],[],[],[],[],[]]",
                    CONV_TYPES("float"),
                    "[\"\",\"\",\"\",\"[2]\",\"[0]\",\"[1]\",\"False\",\"[0]\",\"1\"]"));
    EQ(R.flops, 2.0 * 27 * 72);
    EQ(R.tl_flops, R.flops);
    EQ(R.bytes, (384 + 108 + 72) * 4.0);
    assert_string_equal(param("bias"), "False");
    assert_string_equal(param("stride"), "(2, 2)");
}

static void test_conv_grouped_transposed(void **state)
{
    /* Grouped: x (1,8,5,5), w (8,2,3,3), groups 4, pad 1 -> out (1,8,5,5). */
    assert_true(
        run("aten::convolution", "[[1,8,5,5],[8,2,3,3],[],[],[],[],[],[],[]]", CONV_TYPES("float"),
            "[\"\",\"\",\"\",\"[1, 1]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\",\"4\"]"));
    EQ(R.flops, 2.0 * 18 * 200);
    EQ(R.bytes, (200 + 144 + 200) * 4.0);
    assert_string_equal(param("groups"), "4");
    /* Transposed: x (1,4,3,3), w (4,2,2,2), stride 2 -> out (1,2,6,6);
     * FLOPs per input element 2 * prod(w[1:]). */
    assert_true(run("aten::convolution", "[[1,4,3,3],[4,2,2,2],[],[],[],[],[],[],[]]",
                    CONV_TYPES("float"),
                    "[\"\",\"\",\"\",\"[2, 2]\",\"[0, 0]\",\"[1, 1]\",\"True\",\"[0, 0]\",\"1\"]"));
    EQ(R.flops, 36.0 * 2 * 8);
    EQ(R.bytes, (36 + 32 + 72) * 4.0);
    assert_string_equal(param("transposed_conv"), "True");
    /* Grouped transposed: C_out = w[1] * groups. */
    assert_true(run("aten::convolution", "[[1,4,3,3],[4,1,2,2],[],[],[],[],[],[],[]]",
                    CONV_TYPES("float"),
                    "[\"\",\"\",\"\",\"[2, 2]\",\"[0, 0]\",\"[1, 1]\",\"True\",\"[1, 1]\",\"2\"]"));
    /* out spatial (3-1)*2 + 1 + 1 + 1 = 7 */
    EQ(R.flops, 36.0 * 2 * 4);
    EQ(R.bytes, (36 + 16 + 2 * 49) * 4.0);
    /* 1-d and 3-d convolutions. */
    assert_true(run("aten::convolution", "[[1,2,10],[3,2,3],[],[],[],[],[],[],[]]",
                    CONV_TYPES("float"),
                    "[\"\",\"\",\"\",\"[1]\",\"[0]\",\"[1]\",\"False\",\"[0]\",\"1\"]"));
    assert_string_equal(param("convNd"), "conv1d");
    EQ(R.flops, 2.0 * 6 * 24);
}

static void test_conv_vendor_signatures(void **state)
{
    /* miopen_convolution(self, weight, bias, padding, stride, dilation, groups, ...) */
    assert_true(run("aten::miopen_convolution", "[[2,3,8,8],[4,3,3,3],[],[],[],[],[],[],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"\",\"ScalarList\",\"ScalarList\","
                    "\"ScalarList\",\"Scalar\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"\",\"\",\"[1, 1]\",\"[2, 2]\",\"[1, 1]\",\"1\",\"False\",\"False\"]"));
    assert_string_equal(param("stride"), "(2, 2)");
    assert_string_equal(param("padding"), "(1, 1)");
    EQ(R.flops, 2.0 * 27 * 2 * 4 * 4 * 4);
    /* cudnn_convolution(self, weight, padding, stride, dilation, groups, ...) */
    assert_true(run("aten::cudnn_convolution", "[[2,3,8,8],[4,3,3,3],[],[],[],[],[],[],[]]",
                    "[\"float\",\"float\",\"ScalarList\",\"ScalarList\",\"ScalarList\","
                    "\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"\",\"[1, 1]\",\"[1, 1]\",\"[1, 1]\",\"1\",\"\",\"\",\"\"]"));
    EQ(R.flops, 2.0 * 27 * 512);
}

static const char *conv_bwd_dims = "[[2,4,8,8],[2,3,8,8],[4,3,3,3],[],[],[],[],[],[],[],[]]";
static const char *conv_bwd_types =
    "[\"float\",\"float\",\"float\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"ScalarList\","
    "\"Scalar\",\"ScalarList\",\"Scalar\",\"ScalarList\"]";

static void test_conv_backward(void **state)
{
    assert_true(run("aten::convolution_backward", conv_bwd_dims, conv_bwd_types,
                    "[\"\",\"\",\"\",\"[4]\",\"[1, 1]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\","
                    "\"1\",\"[True, True, True]\"]"));
    assert_int_equal(R.sheet, PM_CONV_BWD);
    /* grad input + grad weight (each the forward's 2*27*512) + grad bias. */
    EQ(R.flops, 2 * 27648.0 + 512);
    EQ(R.bytes, (2 * 1004 + 512 + 4) * 4.0);
    EQ(R.tl_flops, 2 * 27648.0);
    EQ(R.tl_bytes, 2 * 1004 * 4.0);
    /* TraceLens's bias column: its test's value on Input Dims, whose
     * bias_sizes entry is [] whatever the bias; output_mask tells. */
    assert_string_equal(param("bias"), "[]");
    assert_string_equal(param("output_mask"), "[True, True, True]");
    /* First layer: no input gradient. TraceLens counts it anyway. */
    assert_true(run("aten::convolution_backward", conv_bwd_dims, conv_bwd_types,
                    "[\"\",\"\",\"\",\"[0]\",\"[1, 1]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\","
                    "\"1\",\"[False, True, False]\"]"));
    EQ(R.flops, 27648.0);
    EQ(R.bytes, 1004 * 4.0);
    EQ(R.tl_flops, 2 * 27648.0);
    assert_string_equal(param("bias"), "[]");
    assert_string_equal(param("output_mask"), "[False, True, False]");
    /* PyTorch 1.9: cudnn_convolution_backward without Concrete Inputs; the
     * output shape is grad_output's. TraceLens has no model for it: no
     * bias column. */
    assert_true(run("aten::cudnn_convolution_backward",
                    "[[2,3,8,8],[2,4,8,8],[4,3,3,3],[],[],[],[],[],[],[],[]]", NULL, NULL));
    EQ(R.flops, 2 * 27648.0);
    assert_string_equal(param("stride"), "None");
    assert_null(param("bias"));
}

static void test_conv_through_link(void **state)
{
    /* The backward of a forward convolution with bias. */
    assert_true(run_bwd("aten::convolution", "[[2,3,8,8],[4,3,3,3],[4],[],[],[],[],[],[]]",
                        CONV_TYPES("float"),
                        "[\"\",\"\",\"\",\"[1, 1]\",\"[1, 1]\",\"[1, 1]\",\"False\",\"[0, 0]\","
                        "\"1\"]"));
    assert_int_equal(R.sheet, PM_CONV_BWD);
    EQ(R.flops, 2 * 27648.0 + 512);
    /* A forward op without Concrete Inputs learns its output shape from the
     * backward op under its backward node. */
    struct op_args linked;
    shapes_args_parse_json(&linked, "[[2,3,8,8],[2,4,8,8],[4,3,3,3],[],[],[],[],[],[],[],[]]", NULL,
                           NULL, NULL);
    assert_true(run_linked("aten::convolution", "[[2,3,8,8],[4,3,3,3],[],[],[],[],[],[],[]]",
                           "[\"float\",\"float\"]", NULL, NULL, false, &linked,
                           "aten::cudnn_convolution_backward"));
    EQ(R.flops, 27648.0);
    assert_string_equal(param("stride"), "None");
    shapes_args_done(&linked);
    /* Stride 2 with as many output channels as input channels: grad_output
     * is the second argument of cudnn_convolution_backward(self,
     * grad_output, weight), not the first, which has the same channels. */
    shapes_args_parse_json(&linked, "[[2,4,8,8],[2,4,4,4],[4,4,1,1],[],[],[],[],[],[],[],[]]", NULL,
                           NULL, NULL);
    assert_true(run_linked("aten::convolution", "[[2,4,8,8],[4,4,1,1],[],[],[],[],[],[],[]]",
                           "[\"float\",\"float\"]", NULL, NULL, false, &linked,
                           "aten::cudnn_convolution_backward"));
    EQ(R.flops, 2.0 * 4 * 2 * 4 * 16);
    /* A backward op of other shapes is not this convolution's. */
    assert_false(run_linked("aten::convolution", "[[2,4,8,8],[4,4,3,3],[],[],[],[],[],[],[]]",
                            "[\"float\",\"float\"]", NULL, NULL, false, &linked,
                            "aten::cudnn_convolution_backward"));
    shapes_args_done(&linked);
    /* Without one, stride, padding and dilation are unknown: no model, and
     * the reason says why (not stride 1 / padding 0 assumed). */
    assert_false(run("aten::convolution", "[[2,3,8,8],[4,3,3,3],[],[],[],[],[],[],[]]",
                     "[\"float\",\"float\"]", NULL));
    assert_non_null(R.why);
    assert_non_null(strstr(R.why, "Concrete Inputs"));
    /* Arguments that do not fit give no reason of their own. */
    assert_false(run("aten::convolution", "[[2,3,8,8]]", "[\"float\"]", NULL));
    assert_null(R.why);
}

#define SDPA_TYPES "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\"]"

static void test_sdpa_forward(void **state)
{
    /* BHND (2, 8, 128, 64) bf16, not causal. */
    const char *dims = "[[2,8,128,64],[2,8,128,64],[2,8,128,64],[],[],[],[]]";
    assert_true(run("aten::_scaled_dot_product_flash_attention", dims, SDPA_TYPES,
                    "[\"\",\"\",\"\",\"0.\",\"False\",\"False\",\"0.125\"]"));
    EQ(R.flops, 2.0 * 8 * (2.0 * 128 * 128 * 64 * 2));
    EQ(R.bytes, 4.0 * 2 * 128 * 8 * 64 * 2);
    EQ(R.tl_bytes, R.bytes);
    assert_string_equal(param("H_Q"), "8");
    assert_string_equal(param("N_Q"), "128");
    assert_string_equal(param("dropout"), "0.0");
    assert_string_equal(param("causal"), "False");
    assert_string_equal(param("flash_impl"), "True");
    assert_string_equal(R.spec, "matrix_bf16");
    /* Causal: half the FLOPs. */
    assert_true(run("aten::_scaled_dot_product_flash_attention", dims, SDPA_TYPES,
                    "[\"\",\"\",\"\",\"0.\",\"True\",\"False\",\"\"]"));
    EQ(R.flops, 2.0 * 8 * (2.0 * 128 * 128 * 64 * 2) / 2);
    assert_string_equal(param("causal"), "True");
}

static void test_sdpa_gqa_dtype_layout(void **state)
{
    /* GQA: 32 query heads, 8 KV heads, fp16, efficient attention. */
    assert_true(run("aten::_scaled_dot_product_efficient_attention",
                    "[[1,32,256,128],[1,8,256,128],[1,8,256,128],[],[],[],[]]",
                    "[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"\",\"Scalar\",\"Scalar\","
                    "\"Scalar\"]",
                    "[\"\",\"\",\"\",\"\",\"False\",\"0.\",\"False\"]"));
    EQ(R.flops, 32.0 * 2 * 256 * 256 * 128 * 2);
    EQ(R.bytes, (256.0 * 32 * 128 + 256.0 * 8 * 256 + 256.0 * 32 * 128) * 2);
    assert_string_equal(param("H_KV"), "8");
    assert_string_equal(param("flash_impl"), "False");
    /* fp32: the documented difference, real dtype vs TraceLens's 2 bytes. */
    assert_true(run("aten::_scaled_dot_product_efficient_attention",
                    "[[1,2,16,8],[1,2,16,8],[1,2,16,8],[],[],[],[]]",
                    "[\"float\",\"float\",\"float\",\"\",\"Scalar\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"\",\"\",\"\",\"False\",\"0.\",\"False\"]"));
    EQ(R.bytes, 4.0 * 16 * 2 * 8 * 4);
    EQ(R.tl_bytes, 4.0 * 16 * 2 * 8 * 2);
    assert_non_null(R.differs);
    /* BNHD (flash_attn): the same tensor dims mean (B, N, H, d). */
    const char *bnhd = "[[2,128,8,64],[2,128,8,64],[2,128,8,64],[],[],[]]";
    assert_true(run("flash_attn::_flash_attn_forward", bnhd, SDPA_TYPES,
                    "[\"\",\"\",\"\",\"0.0\",\"0.125\",\"True\"]"));
    EQ(R.flops, 2.0 * 8 * (2.0 * 128 * 128 * 64 * 2) / 2);
    assert_string_equal(param("N_Q"), "128");
    assert_string_equal(param("H_Q"), "8");
    /* ...and read as BHND by an aten op they are (B=2, H=128, N=8, d=64). */
    assert_true(run("aten::_scaled_dot_product_flash_attention", bnhd, SDPA_TYPES,
                    "[\"\",\"\",\"\",\"0.\",\"False\",\"False\"]"));
    EQ(R.flops, 2.0 * 128 * (2.0 * 8 * 8 * 64 * 2));
    /* Mismatched K/V fail. */
    assert_false(run("aten::_scaled_dot_product_flash_attention",
                     "[[2,8,128,64],[2,8,128,64],[2,8,64,64]]", SDPA_TYPES, NULL));
}

static void test_sdpa_causal_unequal(void **state)
{
    /* N_Q 4, N_KV 8: top-left (aten) keeps 1+2+3+4 of 32 pairs;
     * bottom-right (flash_attn) 5+6+7+8. TraceLens has no value. */
    double full = 1.0 * 1 * (2.0 * 4 * 8 * 16 * 2);
    assert_true(run("aten::_scaled_dot_product_flash_attention",
                    "[[1,1,4,16],[1,1,8,16],[1,1,8,16]]", SDPA_TYPES,
                    "[\"\",\"\",\"\",\"0.\",\"True\"]"));
    EQ(R.flops, full * 10 / 32);
    assert_true(isnan(R.tl_flops));
    assert_true(run("flash_attn::_flash_attn_forward", "[[1,4,1,16],[1,8,1,16],[1,8,1,16]]",
                    SDPA_TYPES, "[\"\",\"\",\"\",\"0.0\",\"0.25\",\"True\"]"));
    EQ(R.flops, full * 26 / 32);
}

static void test_sdpa_backward(void **state)
{
    /* aten flash backward: recompute, dV, dP, dQ, dK, halved for causal. */
    const char *dims = "[[2,8,128,64],[2,8,128,64],[2,8,128,64],[2,8,128,64],[2,8,128,64],"
                       "[2,8,128],[],[],[],[],[],[],[],[]]";
    assert_true(run("aten::_scaled_dot_product_flash_attention_backward", dims,
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\"]",
                    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"128\",\"128\",\"0.\",\"True\","
                    "\"\",\"\"]"));
    assert_int_equal(R.sheet, PM_SDPA_BWD);
    double term = 2.0 * 8 * 2 * 128 * 128 * 64;
    EQ(R.flops, 5 * term / 2);
    EQ(R.bytes, 7.0 * 2 * 128 * 8 * 64 * 2);
    assert_true(isnan(R.tl_flops)); /* category only in TraceLens */
    /* flash_attn backward (BNHD) with GQA: the dV / dK group reductions. */
    assert_true(run("flash_attn::_flash_attn_backward",
                    "[[1,64,4,32],[1,64,4,32],[1,64,2,32],[1,64,2,32],[1,64,4,32],[1,4,64],"
                    "[],[],[],[],[],[]]",
                    "[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"c10::Half\"]",
                    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"0.0\",\"0.17\",\"False\"]"));
    double t4 = 1.0 * 4 * 2 * 64 * 64 * 32;
    EQ(R.flops, 5 * t4 + 2 * (1.0 * 64 * 32 * 1));
    assert_string_equal(param("causal"), "False");
    EQ(R.tl_flops, R.flops);
    /* Through the link: the backward of a forward SDPA. */
    assert_true(run_bwd("aten::_scaled_dot_product_efficient_attention",
                        "[[2,8,128,64],[2,8,128,64],[2,8,128,64],[],[],[],[]]", SDPA_TYPES,
                        "[\"\",\"\",\"\",\"\",\"True\",\"0.\",\"False\"]"));
    assert_int_equal(R.sheet, PM_SDPA_BWD);
    EQ(R.flops, 4 * term);
}

static void test_unary(void **state)
{
    assert_true(run("aten::copy_", "[[1000,512],[1000,512],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\"]", "[\"\",\"\",\"False\"]"));
    assert_int_equal(R.sheet, PM_UNARY);
    EQ(R.flops, 512000);
    EQ(R.bytes, 512000.0 * 4);
    assert_string_equal(param("dtype_in_out"), "('c10::BFloat16', 'c10::BFloat16')");
    assert_string_equal(R.spec, "vector_bf16");
    /* No output tensor: out dtype None, same size as the input. */
    assert_true(run("aten::clamp_min", "[[5,128],[]]", "[\"float\",\"Scalar\"]", NULL));
    EQ(R.bytes, 640.0 * 8);
    assert_string_equal(param("dtype_in_out"), "('float', None)");
    assert_string_equal(param("stride_output"), "None");
    /* Upsampling, as TraceLens 171dd74 sizes it: one FLOP per output
     * element, the input read and the output written; the row keyed by the
     * input's shape (output_size is a list, not an output tensor). */
    assert_true(run("aten::upsample_nearest2d", "[[2,4,8,8],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"\"]", "[\"\",\"[16, 16]\",\"\"]"));
    assert_int_equal(R.sheet, PM_UNARY);
    EQ(R.flops, 2048);
    EQ(R.bytes, (512.0 + 2048) * 2);
    EQ(R.tl_bytes, R.bytes);
    assert_string_equal(param("op_shape"), "(2, 4, 8, 8)");
    assert_string_equal(param("stride_output"), "None");
    /* TraceLens's report: (1,768,8) -> 128, 9.83e-05 GFLOP and 0.199 MB;
     * (1,256,512,512) -> 1024x1024, 0.268 GFLOP and 640 MB. */
    assert_true(run("aten::upsample_nearest1d", "[[1,768,8],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"\"]", "[\"\",\"[128]\",\"\"]"));
    EQ(R.flops, 98304);
    assert_true(fabs(R.flops / 1e9 - 9.83e-05) < 0.005e-05);
    assert_true(fabs(R.bytes / 1048576 - 0.199) < 0.0005);
    assert_true(run("aten::upsample_nearest2d", "[[1,256,512,512],[],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"[1024, 1024]\",\"\",\"\"]"));
    assert_true(fabs(R.flops / 1e9 - 0.268) < 0.0005);
    EQ(R.bytes, 640.0 * 1048576);
    /* The .vec overload with scale factors instead of a size; scalar
     * scales per dim. */
    assert_true(run("aten::upsample_nearest2d", "[[1,256,512,512],[],[]]",
                    "[\"c10::BFloat16\",\"\",\"ScalarList\"]", "[\"\",\"\",\"[2.0, 2.0]\"]"));
    EQ(R.bytes, 640.0 * 1048576);
    assert_true(run("aten::upsample_nearest1d", "[[1,768,8],[],[]]",
                    "[\"c10::BFloat16\",\"\",\"Scalar\"]", "[\"\",\"\",\"16.0\"]"));
    EQ(R.flops, 98304);
    /* Neither recorded: the input's elements, as a unary op. */
    assert_true(run("aten::upsample_nearest1d", "[[1,768,8],[],[]]",
                    "[\"c10::BFloat16\",\"\",\"\"]", "[\"\",\"\",\"\"]"));
    EQ(R.flops, 6144);
    EQ(R.bytes, 6144.0 * 4);
    /* Integers have no compute spec. */
    assert_true(run("aten::copy_", "[[],[],[]]", "[\"long int\",\"long int\",\"Scalar\"]", NULL));
    EQ(R.bytes, 16);
    assert_string_equal(R.spec, "");
    /* bool: 1 byte per element; TraceLens has no size for it. */
    assert_true(run("aten::copy_", "[[32],[32],[]]", "[\"bool\",\"bool\",\"Scalar\"]", NULL));
    EQ(R.bytes, 64);
    assert_true(isnan(R.tl_bytes));
    assert_non_null(R.differs);
    assert_true(run("aten::mul", "[[32],[32]]", "[\"bool\",\"float\"]", NULL));
    EQ(R.bytes, 32 + 128 + 128);
    assert_true(isnan(R.tl_bytes));
    assert_true(run("aten::sum", "[[32],[],[],[]]", "[\"bool\",\"\",\"\",\"\"]", NULL));
    EQ(R.bytes, 33);
    assert_true(isnan(R.tl_bytes));
    assert_non_null(R.differs);
}

static void test_binary_broadcast(void **state)
{
    /* (4,1,8) + (3,1) -> (4,3,8). */
    assert_true(run("aten::add", "[[4,1,8],[3,1],[]]", "[\"float\",\"float\",\"Scalar\"]", NULL));
    assert_int_equal(R.sheet, PM_BINARY);
    EQ(R.flops, 96);
    EQ(R.bytes, 32 * 4 + 3 * 4 + 96 * 4);
    assert_string_equal(param("dtype_in1_in2_out"), "('float', 'float', None)");
    /* Scalar operand (double) with an out tensor: the MI300 oracle row. */
    assert_true(run("aten::mul", "[[512],[],[512]]",
                    "[\"c10::BFloat16\",\"double\",\"c10::BFloat16\"]", NULL));
    EQ(R.bytes, 2056);
    EQ(R.flops, 512);
    /* A Scalar operand does not widen; two tensors promote. */
    assert_true(run("aten::div", "[[10,512,7,7],[]]", "[\"c10::BFloat16\",\"Scalar\"]", NULL));
    EQ(R.bytes, 250880.0 * 2 + 4 + 250880.0 * 2);
    assert_true(run("aten::add", "[[4],[4]]", "[\"c10::BFloat16\",\"float\"]", NULL));
    EQ(R.bytes, 8 + 16 + 16);
    /* Not broadcastable. */
    assert_false(run("aten::mul", "[[4,3],[5]]", "[\"float\",\"float\"]", NULL));
}

static void test_reduce(void **state)
{
    /* sum over dim 0 of (10, 1000), keepdim: 1000 outputs (TraceLens: 1). */
    assert_true(run("aten::sum", "[[10,1000],[],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"Scalar\",\"\"]",
                    "[\"\",\"[0]\",\"True\",\"\"]"));
    assert_int_equal(R.sheet, PM_REDUCE_FWD);
    EQ(R.flops, 10000);
    EQ(R.bytes, (10000.0 + 1000) * 2);
    EQ(R.tl_bytes, (10000.0 + 1) * 2);
    assert_string_equal(param("num_output_elems"), "1000");
    assert_string_equal(param("reduce_type"), "sum");
    assert_non_null(R.differs);
    /* Negative dims. */
    assert_true(run("aten::mean", "[[10,512,7,7],[],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"Scalar\",\"\"]",
                    "[\"\",\"[-1, -2]\",\"True\",\"\"]"));
    assert_string_equal(param("num_output_elems"), "5120");
    assert_string_equal(param("reduce_type"), "mean");
    /* Everything reduced: both agree. */
    assert_true(run("aten::mean", "[[10,1000],[],[],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"Scalar\",\"\",\"c10::BFloat16\"]",
                    "[\"\",\"[]\",\"False\",\"\",\"\"]"));
    assert_string_equal(param("num_output_elems"), "1");
    EQ(R.bytes, R.tl_bytes);
    assert_null(R.differs);
    /* max(self, int dim, keepdim), cumsum keeps every element. */
    assert_true(run("aten::max", "[[4,6],[],[]]", "[\"float\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"1\",\"False\"]"));
    assert_string_equal(param("num_output_elems"), "4");
    assert_string_equal(param("reduce_type"), "max");
    assert_true(
        run("aten::cumsum", "[[4,6],[],[]]", "[\"float\",\"Scalar\",\"\"]", "[\"\",\"1\",\"\"]"));
    assert_string_equal(param("num_output_elems"), "24");
    /* Backward through the link: same numbers, Reduce_bwd sheet. */
    assert_true(run_bwd("aten::mean", "[[10,512,7,7],[],[],[]]",
                        "[\"c10::BFloat16\",\"ScalarList\",\"Scalar\",\"\"]",
                        "[\"\",\"[-1, -2]\",\"True\",\"\"]"));
    assert_int_equal(R.sheet, PM_REDUCE_BWD);
    EQ(R.flops, 250880);
    EQ(R.bytes, (250880.0 + 5120) * 2);
}

static void test_inference_attention(void **state)
{
    (void)state;
    const char *dims = "[[32,64,64],[32,8,64],[32,8,64],[32,64,64],[],[],[],[0]]";
    const char *types = "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\","
                        "\"c10::BFloat16\",\"\",\"\",\"\",\"c10::BFloat16\"]";
    /* Decode step of the MI300 vLLM graph replay: 32 requests over 55086
     * cached tokens (TraceLens: 0.902529024 GFLOPS, 108.08984375 MB). */
    struct iterann dec = {.g_sq = 32, .g_sk = 55086, .g_sqsq = 32, .g_sqsk = 55086};
    assert_true(run_iter("vllm::unified_attention_with_output", dims, types, &dec));
    assert_int_equal(R.sheet, PM_INFER_ATTN);
    EQ(R.flops, 64.0 * 2 * 55086 * 64 * 2);
    EQ(R.flops, 902529024);
    EQ(R.bytes, 108.08984375 * 1024 * 1024);
    EQ(R.tl_flops, R.flops);
    assert_string_equal(param("H_KV"), "8");
    assert_string_equal(param("g_sk"), "55086");
    assert_string_equal(param("dtype_KV"), "c10::BFloat16");
    assert_string_equal(R.spec, "matrix_bf16");
    /* Chunked prefill: the causal half of each chunk left out. */
    struct iterann pre = {.c_sq = 100, .c_sk = 150, .c_sqsq = 10000, .c_sqsk = 15000};
    assert_true(run_iter("vllm::unified_attention_with_output", dims, types, &pre));
    EQ(R.flops, 64.0 * (2 * 15000 * 64 * 2 - 10000 * 64 * 2));
    EQ(R.bytes, 2.0 * (100.0 * (64 * 64 * 2 + 8 * 64 * 2) + 50.0 * 8 * 64 * 2));
    /* No tokens: bytes only; no annotation: no model, and says why. */
    struct iterann none = {0};
    assert_true(run_iter("vllm::unified_attention_with_output", dims, types, &none));
    assert_true(isnan(R.flops));
    assert_false(run_iter("vllm::unified_attention_with_output", dims, types, NULL));
    assert_non_null(R.why);
    /* fmha_v3_varlen_fwd: the value head dim from v (argument 2). */
    assert_true(run_iter("aiter::fmha_v3_varlen_fwd", "[[32,64,192],[32,8,192],[32,8,128]]",
                         "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\"]", &dec));
    assert_string_equal(param("d_h_v"), "128");
    EQ(R.flops, 64.0 * 2 * 55086 * (192 + 128));
}

static void test_triton(void **state)
{
    (void)state;
    /* The torch.compile trace's SiLU-mul (TraceLens: 1.34217728 GFLOPS,
     * 1536 MB): two bf16 tensors of 2^28 elements and the written output. */
    assert_true(run("triton_poi_fused__unsafe_view_mul_silu_2", "[[8,4096,8192],[32768,8192],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\"]",
                    "[\"\",\"\",\"268435456\"]"));
    assert_int_equal(R.sheet, PM_TRITON);
    assert_string_equal(param("fused_ops"), "aten._unsafe_view, aten.mul, aten.silu");
    assert_string_equal(param("xnumel"), "268435456");
    assert_string_equal(param("rnumel"), "1");
    EQ(R.flops, 5.0 * 268435456);
    EQ(R.bytes, 1536.0 * 1024 * 1024);
    EQ(R.tl_bytes, R.bytes);
    assert_null(R.differs);
    assert_string_equal(R.spec, "vector_bf16");
    /* RMS norm reduction: xnumel then rnumel; the tensors only. */
    const char *types = "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\","
                        "\"Scalar\"]";
    assert_true(run("triton_red_fused_add_mean_mul_pow_rsqrt_0",
                    "[[8,4096,2048],[2048],[8,4096,2048],[],[]]", types,
                    "[\"\",\"\",\"\",\"32768\",\"2048\"]"));
    assert_string_equal(param("fused_ops"), "aten.add, aten.mean, aten.mul, aten.pow, aten.rsqrt");
    assert_string_equal(param("xnumel"), "32768");
    assert_string_equal(param("rnumel"), "2048");
    EQ(R.flops, 7.0 * 32768 * 2048);
    EQ(R.bytes, 256.00390625 * 1024 * 1024);
    /* Persistent reductions; parts of the name that are no op TraceLens
     * knows are left out; fp32 tensors have no size in TraceLens's model. */
    assert_true(run("triton_per_fused_add_native_layer_norm_moe_forward_12", "[[4,8],[4],[]]",
                    "[\"float\",\"float\",\"Scalar\",\"Scalar\"]", "[\"\",\"\",\"4\",\"8\"]"));
    assert_string_equal(param("fused_ops"), "aten.add");
    EQ(R.flops, 32);
    EQ(R.bytes, (32.0 + 4) * 4);
    EQ(R.tl_bytes, 0);
    assert_non_null(R.differs);
    /* The vLLM replay's cast: fp32 in, bf16 out (TraceLens: 16 MB, 0 FLOPs). */
    assert_true(run("triton_poi_fused__to_copy_1", "[[131072,64],[131072,64],[]]",
                    "[\"float\",\"c10::BFloat16\",\"Scalar\"]", "[\"\",\"\",\"8388608\"]"));
    assert_string_equal(param("fused_ops"), "aten._to_copy");
    EQ(R.flops, 0);
    EQ(R.tl_bytes, 16.0 * 1024 * 1024);
    EQ(R.bytes, 80.0 * 1024 * 1024);
    /* No numels recorded, or not Inductor's name: no model, and says why. */
    assert_false(run("triton_red_fused_add_0", "[[4,8],[4]]", "[\"float\",\"float\"]", NULL));
    assert_non_null(R.why);
    assert_false(run("triton_poi_weird", "[[4],[]]", "[\"float\",\"Scalar\"]", "[\"\",\"4\"]"));
    assert_null(pm_find("triton_"));
    /* Inductor's own estimates win where recorded; TraceLens's stays. */
    struct op_args a;
    shapes_args_parse_json(&a, "[[1024],[1024],[]]", "[\"c10::Half\",\"c10::Half\",\"Scalar\"]",
                           NULL, "[\"\",\"\",\"1024\"]");
    struct pm_ctx c = {.op = "triton_poi_fused_add_0", .a = &a, .inductor_num_gb = 1.2e-5};
    assert_true(pm_eval(pm_find(c.op), &c, &R));
    shapes_args_done(&a);
    EQ(R.bytes, 12000);
    EQ(R.tl_bytes, 3.0 * 1024 * 2);
    EQ(R.flops, 1024);
    assert_non_null(R.differs);
}

static void test_moe_unfused(void **state)
{
    (void)state;
    /* GPT-OSS decode on the vLLM replay: 32 tokens of 3072, 32 experts,
     * top 4, MXFP4 weights (TraceLens: up 4.831838208 GFLOPS,
     * 284.92282693314729 MB; down 2.415919104, 142.93016346657365). */
    struct op_args a;
    shapes_args_parse_json(&a, "[[32,3072],[32,32],[],[]]",
                           "[\"c10::BFloat16\",\"c10::BFloat16\",\"\",\"\"]", NULL, NULL);
    const struct pm_model *m = pm_find("vllm::moe_forward");
    assert_non_null(m);
    assert_int_equal(m->sheet, PM_MOE_UNFUSED);
    struct pm_ctx c = {.op = "vllm::moe_forward",
                       .a = &a,
                       .pseudo_kernel = "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu",
                       .moe_topk = 4};
    assert_true(pm_eval(m, &c, &R));
    assert_string_equal(R.name, "pseudo_op::moe_triton_unfused_up");
    assert_string_equal(param("gated"), "True");
    assert_string_equal(param("weight_dtype"), "FP4");
    assert_string_equal(param("inter_dim"), "3072");
    assert_string_equal(R.spec, "matrix_fp4");
    EQ(R.flops, 4831838208.0);
    double active = 32 * (1 - pow(28.0 / 32, 32));
    EQ(R.bytes, 32 * 3072 * 2 + active * 2 * 3072 * 3072 * 0.5 + 32 * 3072 * 4 * 2);
    EQ(R.bytes, 284.92282693314729 * 1024 * 1024);
    c.pseudo_kernel = "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1";
    c.pseudo_index = 1;
    assert_true(pm_eval(m, &c, &R));
    assert_string_equal(R.name, "pseudo_op::moe_triton_unfused_down");
    assert_string_equal(param("gated"), "False");
    EQ(R.flops, 2415919104.0);
    EQ(R.bytes, 142.93016346657365 * 1024 * 1024);
    /* FP8 weights at a byte; no dtype in the name, or no GEMM kernel: no
     * model, and says why. */
    c.pseudo_kernel = "_matmul_ogs_NNT_bf16xbf16xfp8_16x128";
    assert_true(pm_eval(m, &c, &R));
    assert_string_equal(param("weight_dtype"), "FP8");
    c.pseudo_kernel = "_matmul_ogs_NNT_bf16xbf16xbf16";
    assert_false(pm_eval(m, &c, &R));
    assert_non_null(R.why);
    c.pseudo_kernel = NULL;
    assert_false(pm_eval(m, &c, &R));
    assert_non_null(R.why);
    shapes_args_done(&a);
    assert_true(perf_moe_is_gemm_kernel("_MATMUL_OGS_x"));
    assert_false(perf_moe_is_gemm_kernel("_finalize_matmul_scatter_bf16"));
}

/* Evaluate op's model as one part (pseudo op) of count kernels. */
static bool run_part(const char *op, const char *dims, const char *types, const char *concrete,
                     const char *kernel, uint32_t count)
{
    struct op_args a;
    shapes_args_parse_json(&a, dims, types, NULL, concrete);
    const struct pm_model *m = pm_find(op);
    assert_non_null(m);
    struct pm_ctx c = {.op = op, .a = &a, .pseudo_kernel = kernel, .pseudo_count = count};
    bool ok = pm_eval(m, &c, &R);
    shapes_args_done(&a);
    return ok;
}

static void test_moe_fused(void **state)
{
    (void)state;
    /* 4 tokens of 64, 8 experts of 128 (gated: w1 holds 256 rows), top 2,
     * bf16 input, fp8 weights: E_active = 8·(1 − (6/8)^4) = 5.46875. */
    const char *dims = "[[4,64],[8,256,64],[8,64,128],[4,2]]";
    const char *types = "[\"c10::BFloat16\",\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\","
                        "\"float\"]";
    const char *op = "vllm::rocm_aiter_fused_moe";
    const struct pm_model *m = pm_find(op);
    assert_non_null(m);
    assert_non_null(m->part_kernel);
    assert_true(m->part_kernel("aiter::fmoe_bf16_g1u1_silu"));
    assert_false(m->part_kernel("aiter::fmoe_MoeSorting_x"));
    assert_false(m->part_kernel("aiter::fmoe_dynamic_QUANT"));
    assert_false(m->part_kernel("fmoe_kernel"));
    assert_true(run_part(op, dims, types, NULL, "aiter::fmoe_bf16_g1u1_silu", 1));
    assert_int_equal(R.sheet, PM_MOE_FUSED);
    assert_string_equal(R.name, "pseudo_op::moe_aiter_fused_1stage");
    assert_string_equal(param("inter_dim"), "128");
    assert_string_equal(param("gated"), "True");
    assert_string_equal(R.spec, "matrix_bf16");
    EQ(R.flops, 2.0 * 4 * 64 * 128 * 2 * 2 + 2.0 * 4 * 64 * 128 * 2 + 4 * 64 * 3);
    EQ(R.bytes, 512 + 5.46875 * 128 * 64 * 2 + 5.46875 * 128 * 64 + 512);
    EQ(R.tl_bytes, R.bytes);
    /* TraceLens makes the pseudo op only with exactly one fmoe kernel. */
    assert_false(run_part(op, dims, types, NULL, "aiter::fmoe_a", 2));
    assert_non_null(R.why);
    assert_false(run_part(op, dims, types, NULL, NULL, 0));
    assert_non_null(R.why);
    /* int4 weights packed two per byte: w1's last dim is K/2, N doubles. */
    assert_true(run_part(op, "[[4,64],[8,256,32],[8,64,64],[4,2]]", types, NULL, "aiter::fmoe", 1));
    assert_string_equal(param("inter_dim"), "128");
    assert_false(run_part(op, "[[4,64],[8,256,0],[8,64,64],[4,2]]", types, NULL, "aiter::fmoe", 1));
    assert_false(run_part(op, "[[4,64],[8,256,64]]", types, NULL, "aiter::fmoe", 1));

    /* aiter::fmoe_fp8_blockscale_g1u1: topk is Concrete Inputs 8; the
     * output (argument 0) bf16, input and weights fp8. */
    const char *bdims = "[[4,64],[4,64],[8,256,64],[8,64,128],[],[],[],[],[],[]]";
    const char *btypes = "[\"c10::BFloat16\",\"c10::Float8_e4m3fn\",\"c10::Float8_e4m3fn\","
                         "\"c10::Float8_e4m3fn\",\"\",\"\",\"\",\"\",\"Scalar\",\"\"]";
    assert_false(run("aiter::fmoe_fp8_blockscale_g1u1", bdims, btypes, NULL));
    assert_non_null(R.why);
    assert_true(run("aiter::fmoe_fp8_blockscale_g1u1", bdims, btypes,
                    "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"2\",\"\"]"));
    assert_string_equal(param("output_dtype"), "c10::BFloat16");
    assert_string_equal(R.spec, "matrix_fp8");
    EQ(R.bytes, 256 + 5.46875 * 128 * 64 * 2 + 5.46875 * 128 * 64 + 512);

    /* aiter's two-stage ops; unknown dtype names take TraceLens's defaults
     * (input 2 bytes, weight 1). */
    assert_true(run("aiter::ck_moe_stage1", "[[4,64],[8,256,64],[8,64,128],[9],[1],[1],[4,2,128]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"int\",\"int\","
                    "\"int\",\"c10::BFloat16\"]",
                    NULL));
    assert_int_equal(R.sheet, PM_MOE_UNFUSED);
    assert_string_equal(param("gated"), "True");
    EQ(R.flops, 2.0 * 4 * 64 * 128 * 2 * 2);
    EQ(R.bytes, 4 * 64 * 2 + 5.46875 * 2 * 64 * 128 * 2 + 4 * 128 * 2 * 2);
    assert_true(run("aiter::moe_cktile2stages_gemm2_ck", "[[4,2,128],[8,64,128],[4,64]]",
                    "[\"unsigned char\",\"unsigned char\",\"c10::BFloat16\"]", NULL));
    assert_null(param("gated"));
    EQ(R.flops, 2.0 * 4 * 128 * 64 * 2);
    EQ(R.bytes, 4 * 128 * 2 * 2 + 5.46875 * 128 * 64 * 1 + 4 * 64 * 2);
    /* SGLang's Triton fused MoE (name without its source line): B is
     * [E, N, K], topk_ids argument 8; bf16 input and output, fp8 weights;
     * fewer than 9 arguments: no model. */
    const char *op2 = "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel";
    const char *itypes = "[\"c10::BFloat16\",\"c10::Float8_e4m3fn\",\"\",\"c10::BFloat16\","
                         "\"\",\"\",\"\",\"\",\"int\"]";
    assert_true(run(op2, "[[4,64],[8,256,64],[],[8,256],[],[],[],[],[4,2]]", itypes, NULL));
    assert_string_equal(param("m_work"), "8");
    assert_string_equal(R.spec, "matrix_fp8");
    EQ(R.flops, 2.0 * 8 * 256 * 64);
    EQ(R.bytes, 8.0 * 64 * 2 + 5.46875 * 256 * 64 + 8 * 256 * 2);
    assert_false(run(op2, "[[4,64],[8,256,64],[],[8,256]]", itypes, NULL));
}

static void test_moe_gptq_awq(void **state)
{
    (void)state;
    /* 4 tokens of 64, 8 experts of 128 in int4 (w1 [8, 256, 32], w2
     * [8, 64, 64]), top 2: the first kernel up (gated), the next down. */
    const char *op = "vllm::outplace_fused_experts";
    const char *dims = "[[4,64],[8,256,32],[8,64,64],[4,2],[4,2]]";
    const char *types = "[\"c10::BFloat16\",\"unsigned char\",\"unsigned char\",\"float\","
                        "\"int\"]";
    const struct pm_model *m = pm_find(op);
    assert_non_null(m);
    assert_true(m->part_kernel("fused_moe_kernel_gptq_awq"));
    assert_false(m->part_kernel("fused_moe_kernel"));
    assert_true(run_part(op, dims, types, NULL, "fused_moe_kernel_gptq_awq", 2));
    assert_string_equal(R.name, "pseudo_op::moe_gptq_awq_up");
    assert_string_equal(param("inter_dim"), "128");
    assert_string_equal(param("gated"), "True");
    assert_null(param("weight_dtype"));
    EQ(R.flops, 2.0 * 4 * 64 * 128 * 2 * 2);
    EQ(R.bytes, 4 * 64 * 2 + 5.46875 * 2 * 64 * 128 * 0.5 + 4 * 128 * 2 * 2);
    struct op_args a;
    shapes_args_parse_json(&a, dims, types, NULL, NULL);
    struct pm_ctx c = {.op = op,
                       .a = &a,
                       .pseudo_kernel = "fused_moe_kernel_gptq_awq",
                       .pseudo_index = 1,
                       .pseudo_count = 2};
    assert_true(pm_eval(m, &c, &R));
    assert_string_equal(R.name, "pseudo_op::moe_gptq_awq_down");
    assert_null(param("gated"));
    EQ(R.bytes, 4 * 128 * 2 * 2 + 5.46875 * 128 * 64 * 0.5 + 4 * 64 * 2);
    shapes_args_done(&a);
    /* No topk_ids: TraceLens's default of 8 (all 8 experts active). */
    assert_true(
        run_part(op, "[[4,64],[8,256,32],[8,64,64]]", types, NULL, "fused_moe_kernel_gptq_awq", 2));
    assert_string_equal(param("topk"), "8");
    assert_false(run_part(op, dims, types, NULL, NULL, 0));
    assert_non_null(R.why);
}

static void test_grouped_gemm(void **state)
{
    (void)state;
    const char *bf = "[\"c10::BFloat16\",\"c10::BFloat16\",\"long int\"]";
    /* [G, N, K] weights: dim 2 equals K. */
    assert_true(run("primus_turbo::grouped_gemm", "[[16,64],[4,128,64],[4]]", bf, NULL));
    assert_int_equal(R.sheet, PM_GROUPED_GEMM);
    assert_string_equal(param("N"), "128");
    assert_string_equal(param("G"), "4");
    EQ(R.flops, 2.0 * 16 * 64 * 128);
    EQ(R.bytes, (16.0 * 64 + 4 * 64 * 128) * 2 + 16 * 128 * 2);
    assert_string_equal(R.spec, "matrix_bf16");
    /* Both dims equal K: dim 1 first. */
    assert_true(
        run("primus_turbo_cpp_extension::ck_grouped_gemm", "[[16,64],[4,64,64],[4]]", bf, NULL));
    assert_string_equal(param("N"), "64");
    assert_false(run("primus_turbo::grouped_gemm", "[[16,64],[4,32,32],[4]]", bf, NULL));
    assert_false(run("primus_turbo::grouped_gemm", "[[16,64],[0,64,64],[4]]", bf, NULL));
    assert_true(run("primus_turbo::grouped_gemm_variable_k", "[[16,64],[16,128],[4]]", bf, NULL));
    assert_string_equal(param("G"), "1");
    EQ(R.bytes, (16.0 * 64 + 64 * 128) * 2 + 16 * 128 * 2);
    assert_false(run("primus_turbo::grouped_gemm_variable_k", "[[16,64],[16,128]]",
                     "[\"c10::BFloat16\",\"mystery\"]", NULL));
    assert_non_null(R.why);
}

static void test_moe_comm_xent_softmax(void **state)
{
    (void)state;
    assert_true(run("MoEDispatch", "[[16,64],[16,8]]", "[\"c10::BFloat16\",\"float\"]", NULL));
    assert_int_equal(R.sheet, PM_MOE_COMM);
    EQ(R.flops, 0);
    EQ(R.bytes, 16 * 64 * 2);
    assert_string_equal(R.spec, "");
    assert_false(run("MoECombine", "[[16]]", "[\"c10::BFloat16\"]", NULL));

    assert_true(run("CrossEntropyFunction", "[[4,1,1000],[4,1]]",
                    "[\"c10::BFloat16\",\"long int\"]", NULL));
    assert_int_equal(R.sheet, PM_XENT);
    assert_string_equal(param("logits_shape"), "(4, 1, 1000)");
    EQ(R.flops, 5.0 * 4 * 1000);
    EQ(R.bytes, 4000.0 * 2 + 4 * 8 + 4 * 4);
    /* A dtype without a size counts 2 bytes, as TraceLens. */
    assert_true(run("CrossEntropyFunction", "[[4,1000]]", "[\"mystery\"]", NULL));
    EQ(R.bytes, 4000.0 * 2 + 4 * 8 + 4 * 4);

    assert_true(run("aten::_softmax", "[[2,3,8],[],[]]",
                    "[\"c10::BFloat16\",\"Scalar\",\"Scalar\"]", "[\"\",\"-1\",\"True\"]"));
    assert_int_equal(R.sheet, PM_SOFTMAX);
    assert_string_equal(param("dim"), "2");
    assert_string_equal(param("dtype_in_out"), "('c10::BFloat16', 'float')");
    EQ(R.flops, 3.0 * 48);
    EQ(R.bytes, 48.0 * (2 + 4));
    assert_non_null(R.differs);
    assert_true(isnan(R.tl_flops) && isnan(R.tl_bytes));
    assert_true(run("aten::softmax", "[[2,3,8],[],[]]", "[\"float\",\"Scalar\",\"\"]",
                    "[\"\",\"0\",\"\"]"));
    EQ(R.bytes, 48.0 * 8);
    assert_false(run("aten::softmax", "[[2,3,8],[],[]]", "[\"float\",\"Scalar\",\"\"]",
                     "[\"\",\"3\",\"\"]"));
    assert_false(run("aten::softmax", "[[2,3,8]]", "[\"float\"]", NULL));
    assert_non_null(R.why);
}

static void test_rope(void **state)
{
    (void)state;
    /* The SGLang prefill+decode trace's Qwen3 layer: 15360 tokens, 32
     * query and 8 key heads of 128 (TraceLens: 0.2359296 GFLOPS, 300 MB). */
    const char *types = "[\"long int\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\","
                        "\"c10::BFloat16\",\"Scalar\"]";
    assert_true(run("sgl_kernel::rotary_embedding",
                    "[[15360],[15360,4096],[15360,1024],[],[41216,128],[]]", types,
                    "[\"\",\"\",\"\",\"128\",\"\",\"True\"]"));
    assert_int_equal(R.sheet, PM_ROPE);
    assert_string_equal(param("num_elements"), "78643200");
    EQ(R.flops, 235929600);
    EQ(R.bytes, 300.0 * 1024 * 1024);
    EQ(R.tl_flops, R.flops);
    EQ(R.tl_bytes, R.bytes);
    assert_null(R.differs);
    assert_string_equal(R.spec, "vector_bf16");
    /* Partial rotation: the cache's rot_dim (64) of each head of 128. */
    assert_true(run("sgl_kernel::rotary_embedding", "[[16],[16,4096],[16,1024],[],[4096,64],[]]",
                    types, "[\"\",\"\",\"\",\"128\",\"\",\"True\"]"));
    assert_string_equal(param("num_elements"), "40960");
    /* 3-D query and key, head size from their last dim when not recorded. */
    assert_true(run("sgl_kernel::rotary_embedding",
                    "[[16],[16,32,128],[16,8,128],[],[4096,128],[]]", types,
                    "[\"\",\"\",\"\",\"\",\"\",\"True\"]"));
    assert_string_equal(param("num_elements"), "81920");
    /* No key: the query alone, and TraceLens has no value. */
    assert_true(run("sgl_kernel::rotary_embedding", "[[16],[16,4096],[],[],[4096,128],[]]", types,
                    "[\"\",\"\",\"\",\"128\",\"\",\"True\"]"));
    assert_string_equal(param("num_elements"), "65536");
    assert_true(isnan(R.tl_flops));
    assert_non_null(R.differs);
    /* No query: no model. */
    assert_false(run("sgl_kernel::rotary_embedding", "[[16],[],[],[],[],[]]", types,
                     "[\"\",\"\",\"\",\"128\",\"\",\"True\"]"));
}

static void test_rmsnorm_vendor(void **state)
{
    (void)state;
    /* aiter::rms_norm (x, weight, eps) on (32, 2880) bf16. */
    assert_true(run("aiter::rms_norm", "[[32,2880],[2880],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\"]", "[\"\",\"\",\"1e-05\"]"));
    assert_int_equal(R.sheet, PM_RMSNORM);
    double n = 32.0 * 2880;
    EQ(R.flops, 32.0 * (2 * 2880 + 2) + 2 * n);
    EQ(R.bytes, 4 * n + 2 * 2880);
    assert_string_equal(param("num_channels"), "2880");
    assert_string_equal(param("is_affine"), "True");
    assert_string_equal(R.spec, "vector_bf16");
    /* With the residual add: one more FLOP per element, residual read and
     * written (the vLLM oracle's 0.000460864 GFLOPS, 0.7086181640625 MB). */
    assert_true(run("aiter::rmsnorm2d_fwd_with_add_ck",
                    "[[32,2880],[32,2880],[32,2880],[32,2880],[2880],[],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\","
                    "\"c10::BFloat16\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"\",\"\",\"\",\"\",\"1e-05\",\"0\"]"));
    EQ(R.flops, 460864);
    EQ(R.bytes, 0.7086181640625 * 1024 * 1024);
    /* FP8 group quant: 1-byte output and a 4-byte scale per group of 128. */
    assert_true(run("vllm::rocm_aiter_rmsnorm_fp8_group_quant", "[[4,1536],[1536],[],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"\",\"1e-05\",\"128\"]"));
    n = 4.0 * 1536;
    EQ(R.flops, 4.0 * (2 * 1536 + 2) + 2 * n + 2 * n);
    EQ(R.bytes, n * 2 + 1536 * 2 + n + 4 * 12 * 4);
    /* The group size not recorded: no model. */
    assert_false(run("vllm::rocm_aiter_rmsnorm_fp8_group_quant", "[[4,1536],[1536],[],[]]",
                     "[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\"]",
                     "[\"\",\"\",\"\",\"\"]"));
    /* Padded output: (M, ceil(N / 256) * 256) written. */
    assert_true(run("vllm::rocm_aiter_triton_add_rmsnorm_pad", "[[64,2880],[2880],[],[64,2880],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"c10::BFloat16\","
                    "\"Scalar\"]",
                    "[\"\",\"\",\"1e-05\",\"\",\"256\"]"));
    n = 64.0 * 2880;
    EQ(R.bytes, 2 * n * 2 + 2880 * 2 + 64.0 * 3072 * 2 + n * 2);
}

static void test_aiter_groupnorm(void **state)
{
    (void)state;
    /* Both aiter signatures give aten::group_norm's numbers. */
    const char *t5 = "[\"c10::BFloat16\",\"Scalar\",\"c10::BFloat16\",\"c10::BFloat16\","
                     "\"Scalar\"]";
    assert_true(run("aten::group_norm", "[[2,320,64,64],[],[320],[320],[],[]]",
                    "[\"c10::BFloat16\",\"Scalar\",\"c10::BFloat16\",\"c10::BFloat16\","
                    "\"Scalar\",\"Scalar\"]",
                    "[\"\",\"32\",\"\",\"\",\"1e-05\",\"True\"]"));
    double f = R.flops, b = R.bytes;
    assert_true(run("aiter::_groupnorm_run", "[[2,320,64,64],[],[320],[320],[]]", t5,
                    "[\"\",\"32\",\"\",\"\",\"1e-05\"]"));
    assert_int_equal(R.sheet, PM_NORM);
    EQ(R.flops, f);
    EQ(R.bytes, b);
    assert_true(run("aiter::_groupnorm_run",
                    "[[2,320,64,64],[8192],[2,320,64,64],[],[320],[320],[]]",
                    "[\"c10::BFloat16\",\"float\",\"c10::BFloat16\",\"Scalar\","
                    "\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\"]",
                    "[\"\",\"\",\"\",\"32\",\"\",\"\",\"1e-05\"]"));
    EQ(R.flops, f);
    EQ(R.bytes, b);
    assert_string_equal(param("op_shape"), "(2, 320, 64, 64)");
}

static void test_norm_forward(void **state)
{
    /* batch_norm, training: the MI300 oracle row (10,64,56,56) bf16. */
    const char *dims = "[[10,64,56,56],[64],[64],[64],[64],[],[],[],[]]";
    const char *types = "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\","
                        "\"c10::BFloat16\",\"Scalar\",\"Scalar\",\"Scalar\",\"Scalar\"]";
    assert_true(run("aten::batch_norm", dims, types,
                    "[\"\",\"\",\"\",\"\",\"\",\"True\",\"0.1\",\"1e-05\",\"True\"]"));
    assert_int_equal(R.sheet, PM_NORM);
    EQ(R.flops, 10035584);
    EQ(R.bytes, 8028928);
    EQ(R.tl_flops, R.flops);
    EQ(R.tl_bytes, R.bytes);
    assert_string_equal(param("num_channels"), "64");
    assert_string_equal(R.spec, "vector_bf16");
    /* Inference: no statistics computed or written (TraceLens: training). */
    assert_true(run("aten::batch_norm", dims, types,
                    "[\"\",\"\",\"\",\"\",\"\",\"False\",\"0.1\",\"1e-05\",\"True\"]"));
    double n = 10.0 * 64 * 56 * 56;
    EQ(R.flops, 64 * 6 + 2 * n);
    EQ(R.bytes, n * 4 + 4 * 64 * 2);
    EQ(R.tl_flops, 10035584);
    /* TraceLens's column holds its flag (the row groups as its rows do);
     * the flag torchtop counted with has a column of its own. */
    assert_string_equal(param("is_training"), "True");
    assert_string_equal(param("is_training_args"), "False");
    assert_non_null(R.differs);
    /* layer_norm: the H100 oracle row. */
    assert_true(run("aten::layer_norm", "[[1,141,512],[],[512],[512],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"c10::BFloat16\",\"c10::BFloat16\","
                    "\"Scalar\",\"Scalar\"]",
                    "[\"\",\"[512]\",\"\",\"\",\"9.9999999999999998e-13\",\"True\"]"));
    EQ(R.flops, 364032);
    EQ(R.bytes, 294912);
    /* layer_norm without affine parameters. */
    assert_true(run("aten::layer_norm", "[[1,141,512],[],[],[],[],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"\",\"\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"[512]\",\"\",\"\",\"1e-05\",\"True\"]"));
    EQ(R.bytes, 141.0 * 512 * 4 + 4 * 512 * 2);
    EQ(R.tl_bytes, 294912);
    assert_string_equal(param("is_affine"), "True");
    assert_string_equal(param("is_affine_args"), "False");
    assert_string_equal(param("has_bias_args"), "False");
    /* group_norm(input, num_groups, weight, bias, ...), fp32. */
    assert_true(run("aten::group_norm", "[[2,32,4,4],[],[32],[32],[],[]]",
                    "[\"float\",\"Scalar\",\"float\",\"float\",\"Scalar\",\"Scalar\"]",
                    "[\"\",\"8\",\"\",\"\",\"1e-05\",\"True\"]"));
    EQ(R.flops, 96 + 3072 + 96 + 2048);
    EQ(R.bytes, 1024.0 * 8 + 6 * 32 * 4);
    /* RMS norm: (N/C)(2C+2) + 2N FLOPs, in + out + weight bytes. */
    assert_true(run("aten::_fused_rms_norm", "[[2,8,64],[],[64],[]]",
                    "[\"c10::BFloat16\",\"ScalarList\",\"c10::BFloat16\",\"Scalar\"]",
                    "[\"\",\"[64]\",\"\",\"1e-05\"]"));
    EQ(R.flops, 16 * 130 + 2048);
    EQ(R.bytes, 1024.0 * 4 + 128);
    assert_string_equal(param("has_bias"), "False");
}

static void test_norm_backward(void **state)
{
    /* native_batch_norm_backward: the MI300 oracle row (10,64,112,112). */
    assert_true(
        run("aten::native_batch_norm_backward",
            "[[10,64,112,112],[10,64,112,112],[64],[64],[64],[64],[64],[],[],[]]",
            "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\","
            "\"c10::BFloat16\",\"float\",\"float\",\"Scalar\",\"Scalar\",\"ScalarList\"]",
            "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"True\",\"1e-05\",\"[True, True, True]\"]"));
    EQ(R.flops, 72253440);
    EQ(R.bytes, 48169472);
    EQ(R.tl_bytes, R.bytes);
    assert_string_equal(param("output_mask"), "[True]");
    assert_string_equal(param("output_mask_args"), "[True, True, True]");
    /* native_layer_norm_backward (grad_out, input, shape, mean, rstd, w, b, mask). */
    assert_true(run("aten::native_layer_norm_backward",
                    "[[1,141,512],[1,141,512],[],[1,141,1],[1,141,1],[512],[512],[]]",
                    "[\"c10::BFloat16\",\"c10::BFloat16\",\"ScalarList\",\"float\",\"float\","
                    "\"c10::BFloat16\",\"c10::BFloat16\",\"ScalarList\"]",
                    "[\"\",\"\",\"[512]\",\"\",\"\",\"\",\"\",\"[True, True, True]\"]"));
    double n = 141.0 * 512;
    EQ(R.flops, 9 * n);
    EQ(R.bytes, n * 6 + 512 * 2 + 512 * 2 * 3);
    assert_string_equal(param("output_mask"), "[True, True, True]");
    /* _fused_rms_norm_backward with weight: dW accumulates over rows. */
    assert_true(run("aten::_fused_rms_norm_backward", "[[2,8,64],[2,8,64],[],[2,8,1],[64],[]]",
                    "[\"float\",\"float\",\"ScalarList\",\"float\",\"float\",\"ScalarList\"]",
                    "[\"\",\"\",\"[64]\",\"\",\"\",\"[True, True]\"]"));
    EQ(R.flops, 1024.0 * (1 + 1 + 6 + 2));
    EQ(R.bytes, 1024.0 * 12 + 64 * 8);
    /* The recorded entries as recorded (TraceLens: "[True, True]"). */
    assert_string_equal(param("output_mask"), "[True, True]");
    assert_string_equal(param("is_affine"), "True");
}

/* Recorded values that do not fit what the models compute with: no model
 * (with the reason where there is one), or a value computed in full; never
 * a wrapped integer (the sanitizer build traps on signed overflow). */
static void test_out_of_range(void **state)
{
    /* Negative padding (PyTorch refuses it): a transposed convolution's
     * output grew to 2e11 per side, a roofline of 28 TB moved. */
    R.why = NULL;
    assert_false(run("aten::convolution", "[[1,4,3,3],[4,2,2,2],[],[],[],[],[],[],[]]",
                     CONV_TYPES("float"),
                     "[\"\",\"\",\"\",\"[1, 1]\",\"[-99999999999]\",\"[1, 1]\",\"True\","
                     "\"[0, 0]\",\"1\"]"));
    assert_non_null(R.why);
    assert_non_null(strstr(R.why, "negative padding"));
    /* Valid parameters whose output passes int64 (a stride of 2^62). */
    R.why = NULL;
    assert_false(run("aten::convolution", "[[1,4,3,3],[4,2,2,2],[],[],[],[],[],[],[]]",
                     CONV_TYPES("float"),
                     "[\"\",\"\",\"\",\"[4611686018427387904]\",\"[0]\",\"[1]\",\"True\","
                     "\"[0]\",\"1\"]"));
    assert_non_null(R.why);
    /* A padding of 2^62 is large but valid: the output side is computed in
     * 128 bits and is out of range. */
    assert_false(run("aten::convolution", "[[1,3,8,8],[4,3,3,3],[],[],[],[],[],[],[]]",
                     CONV_TYPES("float"),
                     "[\"\",\"\",\"\",\"[1]\",\"[4611686018427387904]\",\"[1]\",\"False\","
                     "\"[0]\",\"1\"]"));
    /* Dims that are negative, or multiply past 2^62, are not shapes. */
    assert_false(run("aten::mm", "[[-4,4],[4,4]]", "[\"float\",\"float\"]", NULL));
    assert_false(run("aten::mm", "[[9223372036854775807,4],[4,4]]", "[\"float\",\"float\"]", NULL));
    assert_false(
        run("aten::mm", "[[4294967296,4294967296],[4294967296,4]]", "[\"float\",\"float\"]", NULL));
    /* 2^31 x 2^31 is within range: FLOPs in double. */
    assert_true(
        run("aten::mm", "[[2147483648,2147483648],[2147483648,2]]", "[\"float\",\"float\"]", NULL));
    EQ(R.flops, 2.0 * 2147483648.0 * 2 * 2147483648.0);
    /* A broadcast whose output has 2^63 elements. */
    assert_false(run("aten::add", "[[2147483648,1],[1,4294967296],[]]",
                     "[\"float\",\"float\",\"Scalar\"]", NULL));
    /* A normalized shape of 2^64 elements was cast to int64. */
    assert_false(run("aten::layer_norm", "[[1,141,512],[],[512],[512],[],[]]",
                     "[\"float\",\"ScalarList\",\"float\",\"float\",\"Scalar\",\"Scalar\"]",
                     "[\"\",\"[4294967296, 4294967296]\",\"\",\"\",\"1e-05\",\"True\"]"));
    /* Causal attention over 2^40 queries: the kept pairs in closed form
     * (the loop over queries never ended): top-left, N_Q < N_KV keeps
     * N_Q (N_Q + 1) / 2 of N_Q N_KV pairs. */
    double nq = 1099511627776.0, nkv = 2 * nq;
    assert_true(run("aten::_scaled_dot_product_flash_attention",
                    "[[1,1,1099511627776,16],[1,1,2199023255552,16],[1,1,2199023255552,16]]",
                    SDPA_TYPES, "[\"\",\"\",\"\",\"0.\",\"True\"]"));
    EQ(R.flops, 2.0 * nq * nkv * 16 * 2 * ((nq + 1) / (2 * nkv)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_gemm),
        cmocka_unit_test(test_gemm_backward_through_link),
        cmocka_unit_test(test_scaled_mm_fp8),
        cmocka_unit_test(test_gemm_transpose),
        cmocka_unit_test(test_conv_bias),
        cmocka_unit_test(test_conv_grouped_transposed),
        cmocka_unit_test(test_conv_vendor_signatures),
        cmocka_unit_test(test_conv_backward),
        cmocka_unit_test(test_conv_through_link),
        cmocka_unit_test(test_sdpa_forward),
        cmocka_unit_test(test_sdpa_gqa_dtype_layout),
        cmocka_unit_test(test_sdpa_causal_unequal),
        cmocka_unit_test(test_sdpa_backward),
        cmocka_unit_test(test_unary),
        cmocka_unit_test(test_binary_broadcast),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_norm_forward),
        cmocka_unit_test(test_norm_backward),
        cmocka_unit_test(test_inference_attention),
        cmocka_unit_test(test_rmsnorm_vendor),
        cmocka_unit_test(test_rope),
        cmocka_unit_test(test_triton),
        cmocka_unit_test(test_moe_unfused),
        cmocka_unit_test(test_moe_fused),
        cmocka_unit_test(test_moe_gptq_awq),
        cmocka_unit_test(test_grouped_gemm),
        cmocka_unit_test(test_moe_comm_xent_softmax),
        cmocka_unit_test(test_aiter_groupnorm),
        cmocka_unit_test(test_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
