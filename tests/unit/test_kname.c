/* Demangling and simplified kernel names: hand-picked names with their
 * exact simplified forms, then every kernel name of every shared trace
 * (demangled when mangled, simplified never empty, never longer than the
 * demangled name, and stable when simplified again). */
#include "config.h"

#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/symbols/demangle.h"
#include "core/symbols/kname.h"
#include "core/trace/load.h"
#include "core/base/hmap.h"
#include "tests/unit/testutil.h"

#define ELL "\xe2\x80\xa6"

static void check_simplified(const char *name, const char *want)
{
    char *got = kname_simplify(name);
    if (strcmp(got, want) != 0)
        print_error("name:  %s\nwant:  %s\ngot:   %s\n", name, want, got);
    assert_string_equal(got, want);
    char *again = kname_simplify(got);
    assert_string_equal(again, got);
    free(again);
    free(got);
}

static void test_demangle(void **state)
{
    (void)state;
    char *d = demangle("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_"
                       "6detail5ArrayIPcLi1EEEEEviT0_T1_");
    assert_non_null(d);
    assert_string_equal(d, "void at::native::vectorized_elementwise_kernel<4, "
                           "at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, "
                           "at::native::FillFunctor<float>, at::detail::Array<char*, 1>)");
    free(d);
    d = demangle("_Z10add_kernelPfPKfS1_i");
    assert_string_equal(d, "add_kernel(float*, float const*, float const*, int)");
    free(d);
    d = demangle("_Z3fooi.constprop.0");
    assert_string_equal(d, "foo(int) [clone .constprop.0]");
    free(d);
    /* Not mangled, or malformed: NULL; the _or_copy form keeps the name. */
    assert_null(demangle("main"));
    assert_null(demangle("i"));
    assert_null(demangle("_Z"));
    assert_null(demangle(""));
    assert_null(demangle(NULL));
    assert_false(demangle_is_mangled("ampere_sgemm_128x64_tn"));
    char *c = demangle_or_copy("ampere_sgemm_128x64_tn");
    assert_string_equal(c, "ampere_sgemm_128x64_tn");
    free(c);
    struct strbuf sb = STRBUF_INIT;
    demangle_put(&sb, "_Z3barv");
    demangle_put(&sb, " and ");
    assert_string_equal(sb_str(&sb), "bar() and ");
    sb_free(&sb);
}

/* Names deeper than libiberty's recursion limit still demangle. */
static void test_demangle_deep(void **state)
{
    (void)state;
    struct strbuf sb = STRBUF_INIT;
    /* f<A<A<...<int>...>>>(): 500 nested template arguments, beyond the recursion limit */
    sb_puts(&sb, "_Z1fI");
    for (int i = 0; i < 500; i++)
        sb_puts(&sb, "1AI");
    sb_puts(&sb, "i");
    for (int i = 0; i < 500; i++)
        sb_puts(&sb, "E");
    sb_puts(&sb, "EvRKT_");
    char *d = demangle(sb_str(&sb));
    assert_non_null(d);
    assert_int_equal(strncmp(d, "void f<A<A<A<", 13), 0);
    free(d);
    sb_free(&sb);
}

static void test_simplify_handpicked(void **state)
{
    (void)state;
    check_simplified("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_"
                     "6detail5ArrayIPcLi1EEEEEviT0_T1_",
                     "at::native::vectorized_elementwise_kernel<" ELL "FillFunctor<float>" ELL ">");
    check_simplified(
        "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_128x256_64x3_tn_align2>"
        "(cutlass_80_tensorop_bf16_s16816gemm_bf16_128x256_64x3_tn_align2::Params)",
        "cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_128x256_64x3_tn_align2>");
    check_simplified(
        "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::"
        "CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> "
        "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<"
        "float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda("
        "int)#1})",
        "at::native::elementwise_kernel<" ELL "CUDAFunctor_add<float>" ELL ">");
    check_simplified(
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<"
        "float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::"
        "MeanOps<float, float>, unsigned int, float, 4>)",
        "at::native::reduce_kernel<" ELL "MeanOps<float, float>" ELL ">");
    check_simplified(
        "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<c10::BFloat16,"
        " c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::"
        "array<char*, 3ul> >(int, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
        "c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>)",
        "at::native::vectorized_elementwise_kernel<" ELL "MulFunctor<float>" ELL ">");
    check_simplified(
        "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
        "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail"
        "::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{"
        "lambda(double)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::"
        "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail"
        "::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{"
        "lambda(double)#1}, at::detail::Array<char*, 2>)",
        "at::native::vectorized_elementwise_kernel<" ELL "launch_clamp_scalar" ELL ">");
    check_simplified("void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned "
                     "int, 4, 64, 64>(float*, int, unsigned int)",
                     "at::native::CatArrayBatchedCopy<float, unsigned int, 4, 64, 64>");
    check_simplified("void cudnn::winograd_nonfused::winogradForwardData4x4<float, float>(cudnn::"
                     "winograd_nonfused::WinogradDataParams<float, float>)",
                     "cudnn::winograd_nonfused::winogradForwardData4x4<float, float>");
    check_simplified("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)",
                     "ncclKernel_AllReduce_RING_LL_Sum_float");
    check_simplified("foo(int) [clone .constprop.0]", "foo");
    check_simplified("_Z3fooi", "foo");
    check_simplified("bool std::operator< <int>(std::pair<int, int> const&, std::pair<int, int> "
                     "const&)",
                     "std::operator< <int>");
    /* Left as they are. */
    check_simplified("triton_poi_fused_add_cos_sin_0", "triton_poi_fused_add_cos_sin_0");
    check_simplified("triton_red_fused__softmax_1", "triton_red_fused__softmax_1");
    check_simplified("sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_stage3_kernel",
                     "sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_stage3_kernel");
    check_simplified("Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pageable -> Device)");
    check_simplified("ampere_sgemm_128x64_tn", "ampere_sgemm_128x64_tn");
    check_simplified("_Z", "_Z");
    check_simplified("", "");
    check_simplified("  padded  ", "padded");
}

/* Whether a mangled name uses a C++20 template parameter declaration
 * ("Ty", "Tn", "Tt", "Tp" after a type or at the start of a template
 * argument list), a mangling newer than Debian's libiberty: the one kind of
 * name allowed not to demangle. A source name's letters are skipped. */
static bool uses_cxx20_template_param_decl(const char *s)
{
    for (size_t i = 2; s[i];) {
        if (s[i] >= '0' && s[i] <= '9') {
            size_t len = 0;
            while (s[i] >= '0' && s[i] <= '9')
                len = len * 10 + (size_t)(s[i++] - '0');
            for (size_t k = 0; k < len && s[i]; k++)
                i++;
            continue;
        }
        if (s[i] == 'T' && s[i + 1] && strchr("yntp", s[i + 1]))
            return true;
        i++;
    }
    return false;
}

/* A name no demangler here reads shows as it is (as c++filt shows it), and
 * its simplified form is the qualified name its mangling starts with. */
static void test_undemangleable(void **state)
{
    (void)state;
    const char *name = "_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_"
                       "EXadL_Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i";
    assert_true(uses_cxx20_template_param_decl(name));
    char *d = demangle(name);
    if (d) /* a libiberty that knows the mangling: the full name */
        assert_non_null(strstr(d, "sgl_hip::activation::act_and_mul_kernel<"));
    else {
        char *c = demangle_or_copy(name);
        assert_string_equal(c, name);
        free(c);
        check_simplified(name, "sgl_hip::activation::act_and_mul_kernel");
    }
    free(d);
    static const char *const more[][2] = {
        {"_ZN12_GLOBAL__N_13fooITnDaLi1EEEvv", "foo"},
        {"_ZNSt3barITnDaLi1EEEvv", "std::bar"},
    };
    for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
        d = demangle(more[i][0]);
        if (!d)
            check_simplified(more[i][0], more[i][1]);
        free(d);
    }
    /* Cut off after six short components: "at::native::..." would be one
     * character longer than the name itself, which is kept. */
    const char *cut = "_ZN2at6native2at6native2at6native";
    d = demangle(cut);
    if (!d)
        check_simplified(cut, cut);
    free(d);
    /* The same cut one component earlier reads as its qualified name. */
    d = demangle("_ZN2at6native2at6native2at");
    if (!d)
        check_simplified("_ZN2at6native2at6native2at", "at::native::at::native::at");
    free(d);
    /* A "T" with one of those letters inside a source name is no such
     * declaration. */
    assert_false(uses_cxx20_template_param_decl("_Z5Tnamei"));
    assert_false(uses_cxx20_template_param_decl("_ZN2at6native6kernelIfEEvT_"));
}

/* Every kernel name of every shared trace. */
static void test_shared_kernel_names(void **state)
{
    (void)state;
    const char *shared = shared_dir();
    if (!shared) {
        print_message("SKIP: ../shared not found\n");
        return;
    }
    char dirpath[4200];
    snprintf(dirpath, sizeof(dirpath), "%s/traces", shared);
    DIR *dir = opendir(dirpath);
    assert_non_null(dir);
    size_t files = 0, names = 0, mangled = 0, folded = 0, undemangled = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (!strstr(de->d_name, ".json"))
            continue;
        char path[8400];
        snprintf(path, sizeof(path), "%s/%s", dirpath, de->d_name);
        struct errinfo err = {0};
        struct trace *t = NULL;
        struct load_opts o = {.no_index = true};
        trace_load_file(path, &o, &t, &err);
        errinfo_clear(&err);
        assert_non_null(t);
        files++;
        struct hmap seen;
        hmap_init(&seen, 1024);
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct event *e = &t->ev.v[i];
            if (e->kind != EVK_KERNEL || hmap_get(&seen, e->name) != IDX_NONE)
                continue;
            hmap_put(&seen, e->name, 1);
            const char *name = trace_str(t, e->name);
            if (!*name)
                continue;
            names++;
            char *full = demangle_or_copy(name);
            if (demangle_is_mangled(name)) {
                mangled++;
                char *d = demangle(name);
                /* No name lost: every name demangles, but for manglings
                 * newer than libiberty, which keep their readable prefix. */
                if (!d && !uses_cxx20_template_param_decl(name))
                    print_error("%s: cannot demangle %.200s\n", de->d_name, name);
                if (!d) {
                    assert_true(uses_cxx20_template_param_decl(name));
                    char *p = kname_simplify(name);
                    assert_false(demangle_is_mangled(p));
                    free(p);
                    undemangled++;
                }
                free(d);
            }
            /* Demangling a demangled name changes nothing. */
            char *again = demangle_or_copy(full);
            assert_string_equal(again, full);
            free(again);
            char *s = kname_simplify(name);
            if (!*s || strlen(s) > strlen(full))
                print_error("%s: %.300s -> %.300s\n", de->d_name, full, s);
            assert_true(*s);
            assert_true(strlen(s) <= strlen(full));
            folded += strlen(s) < strlen(full);
            char *s2 = kname_simplify(s);
            if (strcmp(s, s2) != 0)
                print_error("%s: unstable: %.300s -> %.300s\n", de->d_name, s, s2);
            assert_string_equal(s, s2);
            /* The demangled form simplifies the same way. */
            char *s3 = kname_simplify(full);
            assert_string_equal(s, s3);
            free(s3);
            free(s2);
            free(s);
            free(full);
        }
        hmap_free(&seen);
        trace_free(t);
    }
    closedir(dir);
    print_message("%zu traces, %zu distinct kernel names (%zu mangled, %zu of them in a mangling "
                  "newer than libiberty), %zu shortened\n",
                  files, names, mangled, undemangled, folded);
    assert_true(files >= 20);
    assert_true(names >= 500);
    assert_true(mangled >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demangle),
        cmocka_unit_test(test_demangle_deep),
        cmocka_unit_test(test_simplify_handpicked),
        cmocka_unit_test(test_undemangleable),
        cmocka_unit_test(test_shared_kernel_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
