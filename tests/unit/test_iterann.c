/* Unit tests: iteration annotations of vLLM, SGLang and ATOM steps
 * (core/roofline/iterann.h), the forms TraceLens's IterationAnnotation
 * reads and the ones without sums it leaves without attention FLOPs. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/roofline/iterann.h"

static void test_vllm(void **state)
{
    (void)state;
    struct iterann a;
    assert_true(iterann_parse("execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)"
                              "_generation_37(sq37sk34489sqsq37sqsk34489)",
                              &a));
    assert_int_equal(a.c_sq, 8155);
    assert_int_equal(a.c_sk, 8430);
    assert_int_equal(a.c_sqsq, 7475785);
    assert_int_equal(a.c_sqsk, 7671310);
    assert_int_equal(a.g_sq, 37);
    assert_int_equal(a.g_sk, 34489);
    assert_int_equal(a.g_sqsq, 37);
    assert_int_equal(a.g_sqsk, 34489);
    assert_int_equal(a.c_n, 9);
    assert_int_equal(a.g_n, 37);
    /* Anything after the match is not looked at (re.match). */
    assert_true(iterann_parse("execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32"
                              "(sq32sk55086sqsq32sqsk55086)_tail",
                              &a));
    assert_int_equal(a.g_sk, 55086);
    /* The native form has no sums. */
    assert_false(iterann_parse("execute_context_2(14721)_generation_0(0)", &a));
    assert_int_equal(a.c_sq, 0);
    /* Cut short, a missing number, one past 2^62. */
    assert_false(iterann_parse("execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32", &a));
    assert_false(iterann_parse("execute__context_0(sq0sk0sqsq0sqsk0)_generation_1"
                               "(sq1sk1sqsq1sqsk1)",
                               &a));
    assert_false(iterann_parse("execute_1_context_0(sq0sk0sqsq0sqsk0)_generation_1"
                               "(sq1sk99999999999999999999sqsq1sqsk1)",
                               &a));
    assert_false(iterann_parse(NULL, &a));
    assert_false(iterann_parse("ProfilerStep#3", &a));
}

static void test_sglang(void **state)
{
    (void)state;
    struct iterann a;
    assert_true(iterann_parse("step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 "
                              "g_sq=1 g_sk=12 g_sqsq=1 g_sqsk=12]",
                              &a));
    assert_int_equal(a.c_sq, 5);
    assert_int_equal(a.c_sk, 8);
    assert_int_equal(a.c_sqsq, 25);
    assert_int_equal(a.c_sqsk, 40);
    assert_int_equal(a.g_sk, 12);
    assert_int_equal(a.c_n, 1);
    assert_int_equal(a.g_n, 1);
    assert_true(
        iterann_parse("step[DECODE bs=64 g_sq=128 g_sqsq=256 g_sqsk=262144 g_sk=131072]", &a));
    assert_int_equal(a.c_sq, 0);
    assert_int_equal(a.g_sq, 128);
    assert_int_equal(a.g_sk, 131072);
    /* Without sums (native), or another step kind. */
    assert_false(iterann_parse("step[EXTEND bs=2 toks=14721]", &a));
    assert_false(iterann_parse("step[IDLE sqsq=1]", &a));
}

static void test_atom(void **state)
{
    (void)state;
    struct iterann a;
    assert_true(iterann_parse("prefill[bs=2 tok=14721 ctx=[7803, 6918] sqsq=108745533 "
                              "sqsk=108745533 sk=14721]",
                              &a));
    assert_int_equal(a.c_sq, 14721);
    assert_int_equal(a.c_sk, 14721);
    assert_int_equal(a.c_sqsq, 108745533);
    assert_int_equal(a.c_n, 2);
    assert_int_equal(a.g_sq, 0);
    assert_true(
        iterann_parse("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 sk=65536]", &a));
    assert_int_equal(a.g_sq, 128);
    assert_int_equal(a.g_sk, 65536);
    assert_int_equal(a.g_sqsq, 512);
    assert_int_equal(a.g_sqsk, 262144);
    assert_int_equal(a.g_n, 32);
    assert_int_equal(a.c_sq, 0);
    assert_false(iterann_parse("decode[bs=64 tok=64 d=64]", &a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vllm),
        cmocka_unit_test(test_sglang),
        cmocka_unit_test(test_atom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
