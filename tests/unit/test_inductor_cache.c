/* Unit tests: Inductor cache wrappers (core/roofline/inductor_cache.c,
 * docs/metrics.md §7.11): what TraceLens's _parse_wrapper reads, and text
 * it must survive (truncated blocks, unterminated brackets, huge hints). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/roofline/inductor_cache.h"

static const char wrapper[] =
    "# Original ATen: [aten.add , aten.mul]\n"
    "triton_poi_fused_add_mul_0 = async_compile.triton('k', '''\n"
    "    size_hints=[1024], \n"
    "    triton_meta={'signature': {'in_ptr0': '*bf16', 'x': 'i32', 'out_ptr0': '*fp32'}},\n"
    "''', device_str='cuda')\n"
    "# no comment for this one\n"
    "triton_red_fused_sum_1   =   async_compile.triton('k', '''\n"
    "    size_hints={'y': 3, 'x': 64, 'r0_': 2048},\n"
    "    triton_meta={'signature': {'in_ptr0': '*i64'}},\n"
    "''', device_str='cuda')\n"
    "  triton_poi_fused_2 = async_compile.triton('indented, not at a line start')\n"
    "triton_poi_fused_3 = async_compile.triton('no block end'\n";

static void test_parse(void **state)
{
    (void)state;
    struct inductor_cache *ic = inductor_cache_new();
    assert_true(inductor_cache_parse(ic, wrapper, sizeof(wrapper) - 1));
    assert_int_equal(inductor_cache_count(ic), 2);
    const struct inductor_kernel *k = inductor_cache_find(ic, "triton_poi_fused_add_mul_0");
    assert_non_null(k);
    assert_string_equal(k->aten_ops, "aten.add, aten.mul");
    assert_int_equal(k->xnumel, 1024);
    assert_int_equal(k->rnumel, 1);
    assert_int_equal(k->nptr, 2);
    assert_int_equal(k->ptr_bytes[0], 2);
    assert_int_equal(k->ptr_bytes[1], 4);
    assert_string_equal(k->dtype, "bf16");
    /* The comment region runs from the previous kernel's start: the first
     * comment lies before it, so this kernel has no ops. */
    k = inductor_cache_find(ic, "triton_red_fused_sum_1");
    assert_non_null(k);
    assert_string_equal(k->aten_ops, "");
    assert_int_equal(k->xnumel, 64);
    assert_int_equal(k->rnumel, 2048);
    assert_string_equal(k->dtype, "i64");
    assert_null(inductor_cache_find(ic, "triton_poi_fused_2"));
    assert_null(inductor_cache_find(ic, "triton_poi_fused_3"));
    inductor_cache_free(ic);
}

static void test_bad_text(void **state)
{
    (void)state;
    static const char *bad[] = {
        "triton_a = async_compile.triton('''size_hints=[1, x]''', device_str=",
        "triton_a = async_compile.triton('''size_hints=[99999999999999999999]''', device_str=",
        "triton_a = async_compile.triton('''size_hints=[]''', device_str=",
        "# Original ATen: [\ntriton_a = async_compile.triton('''size_hints=[",
        "triton_a = async_compile.triton('''{'signature': {'*bf16",
        "triton_",
        "",
    };
    bool expect[] = {false, false, true, true, true, true, true};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct inductor_cache *ic = inductor_cache_new();
        assert_int_equal(inductor_cache_parse(ic, bad[i], strlen(bad[i])), expect[i]);
        if (!expect[i])
            assert_int_equal(inductor_cache_count(ic), 0);
        inductor_cache_free(ic);
    }
    char err[256];
    assert_null(inductor_cache_load("/nonexistent/inductor/cache", err));
    assert_non_null(strstr(err, "--inductor-cache"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_bad_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
