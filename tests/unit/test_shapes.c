/* Unit tests: parsing recorded op arguments, dtype sizes and precisions,
 * concrete-input texts and the Python reprs of parameter columns. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/shapes.h"
#include "tests/unit/pyvalutil.h"

static void test_parse_args(void **state)
{
    struct op_args a;
    assert_true(shapes_args_parse_json(&a, "[[512],[141,512],[512,512],[],[]]",
                                       "[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\","
                                       "\"Scalar\",\"Scalar\"]",
                                       "[[1],[512,1],[1,512],[],[]]",
                                       "[\"\",\"\",\"\",\"1\",\"1\"]"));
    assert_int_equal(a.n, 5);
    assert_int_equal(a.dims[1].nd, 2);
    assert_int_equal(a.dims[1].d[0], 141);
    assert_int_equal(a.dims[1].d[1], 512);
    assert_int_equal(a.dims[3].nd, 0);
    assert_int_equal(shapes_numel(&a.dims[3]), 1);
    assert_int_equal(shapes_numel(&a.dims[2]), 512 * 512);
    assert_string_equal(a.type[2], "c10::BFloat16");
    assert_string_equal(a.concrete[4], "1");
    assert_int_equal(a.strides[2].d[0], 1);
    assert_int_equal(a.strides[2].d[1], 512);
    assert_true(shapes_args_tensor(&a, 0));
    assert_false(shapes_args_tensor(&a, 3));
    assert_false(shapes_args_shape(&a, 9));
    assert_string_equal(shapes_args_type(&a, 9), "");
    shapes_args_done(&a);
}

static void test_parse_odd_inputs(void **state)
{
    struct op_args a;
    /* Nested lists (TensorList), nulls, too many dims, huge values. */
    assert_true(shapes_args_parse_json(&a,
                                       "[[[1,2],[3]], null, [1,2,3,4,5,6,7,8,9], [4294967296], []]",
                                       NULL, NULL, "[\"a\\\"b\", 3, null]"));
    assert_int_equal(a.n, 5);
    assert_int_equal(a.dims[0].nd, -1);
    assert_int_equal(a.dims[1].nd, -1);
    assert_int_equal(a.dims[2].nd, -1);
    assert_int_equal(a.dims[3].nd, 1);
    assert_int_equal(a.dims[3].d[0], 4294967296LL);
    assert_int_equal(a.dims[4].nd, 0);
    assert_string_equal(a.concrete[0], "a\"b");
    assert_string_equal(a.concrete[1], "3");
    assert_string_equal(a.concrete[2], "");
    assert_string_equal(a.type[0], "");
    shapes_args_done(&a);
    /* Not a list at all; malformed text. */
    assert_false(shapes_args_parse_json(&a, NULL, NULL, NULL, NULL));
    assert_int_equal(a.n, 0);
    shapes_args_done(&a);
    assert_false(shapes_args_parse_json(&a, "{\"x\": 1}", NULL, NULL, NULL));
    shapes_args_done(&a);
    /* Malformed bytes: the encodings of [[1,2],[3]] and ["unterminated"]
     * cut short, at every length. */
    struct strbuf d = STRBUF_INIT, c = STRBUF_INIT;
    struct pyval dv = pyval_json(&d, "[[1,2],[3]]"), cv = pyval_json(&c, "[\"unterminated\"]");
    assert_true(shapes_args_parse(&a, pyval_of(d.s, d.len - 1), pyval_of(NULL, 0),
                                  pyval_of(NULL, 0), pyval_of(c.s, c.len - 2)));
    shapes_args_done(&a);
    for (size_t n = 0; n <= d.len; n++) {
        shapes_args_parse(&a, pyval_of(d.s, n), dv, dv, pyval_of(c.s, n < c.len ? n : c.len));
        shapes_args_done(&a);
        shapes_args_parse(&a, dv, pyval_of(c.s, n < c.len ? n : c.len), pyval_of(d.s, n), cv);
        shapes_args_done(&a);
    }
    sb_free(&d);
    sb_free(&c);
}

static void test_dtypes(void **state)
{
    assert_int_equal(shapes_dtype_bytes("double"), 8);
    assert_int_equal(shapes_dtype_bytes("long int"), 8);
    assert_int_equal(shapes_dtype_bytes("float"), 4);
    assert_int_equal(shapes_dtype_bytes("int"), 4);
    assert_int_equal(shapes_dtype_bytes("Scalar"), 4);
    assert_int_equal(shapes_dtype_bytes("c10::Half"), 2);
    assert_int_equal(shapes_dtype_bytes("c10::BFloat16"), 2);
    assert_int_equal(shapes_dtype_bytes("c10::Float8_e4m3fn"), 1);
    assert_int_equal(shapes_dtype_bytes("c10::Float8_e5m2fnuz"), 1);
    assert_int_equal(shapes_dtype_bytes("unsigned char"), 1);
    assert_int_equal(shapes_dtype_bytes("signed char"), 1);
    assert_int_equal(shapes_dtype_bytes("bool"), 1);
    assert_null(shapes_dtype_precision("bool"));
    assert_int_equal(shapes_dtype_bytes("Bool"), 0); /* a scalar argument (PyTorch 1.9) */
    assert_int_equal(shapes_dtype_bytes(""), 0);
    assert_string_equal(shapes_dtype_precision("c10::BFloat16"), "bf16");
    assert_string_equal(shapes_dtype_precision("float"), "fp32");
    assert_string_equal(shapes_dtype_precision("c10::Float8_e4m3fnuz"), "fp8");
    assert_string_equal(shapes_dtype_precision("unsigned char"), "fp8");
    assert_string_equal(shapes_dtype_precision("signed char"), "int8");
    assert_null(shapes_dtype_precision("long int"));
    assert_null(shapes_dtype_precision("Scalar"));
}

static void test_concrete(void **state)
{
    int64_t v[4];
    int n;
    assert_true(shapes_parse_int_list("[1, 2]", v, 4, &n));
    assert_int_equal(n, 2);
    assert_int_equal(v[1], 2);
    assert_true(shapes_parse_int_list("[]", v, 4, &n));
    assert_int_equal(n, 0);
    assert_true(shapes_parse_int_list("[-1, -2]", v, 4, &n));
    assert_int_equal(v[0], -1);
    assert_true(shapes_parse_int_list("(3,)", v, 4, &n));
    assert_int_equal(n, 1);
    assert_false(shapes_parse_int_list("[True, False]", v, 4, &n));
    assert_false(shapes_parse_int_list("[1, 2, 3, 4, 5]", v, 4, &n));
    assert_false(shapes_parse_int_list("", v, 4, &n));
    bool b;
    assert_true(shapes_parse_bool("True", &b) && b);
    assert_true(shapes_parse_bool("False", &b) && !b);
    assert_false(shapes_parse_bool("", &b));
    int64_t i;
    assert_true(shapes_parse_int("-7", &i) && i == -7);
    assert_false(shapes_parse_int("0.5", &i));
    double d;
    assert_true(shapes_parse_double("0.", &d) && d == 0);
    assert_true(shapes_parse_double("9.9999999999999998e-13", &d) && d > 0 && d < 1e-11);
    assert_false(shapes_parse_double("", &d));
}

static void test_reprs(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    struct shape s = {.nd = 4, .d = {10, 64, 56, 56}};
    shapes_put_tuple(&sb, &s);
    assert_string_equal(sb_str(&sb), "(10, 64, 56, 56)");
    sb_clear(&sb);
    s.nd = 1;
    shapes_put_tuple(&sb, &s);
    assert_string_equal(sb_str(&sb), "(10,)");
    sb_clear(&sb);
    s.nd = 0;
    shapes_put_tuple(&sb, &s);
    assert_string_equal(sb_str(&sb), "()");
    sb_clear(&sb);
    s.nd = -1;
    shapes_put_tuple(&sb, &s);
    assert_string_equal(sb_str(&sb), "None");
    sb_clear(&sb);
    const char *dt[3] = {"c10::BFloat16", "it's", NULL};
    shapes_put_pystr_tuple(&sb, dt, 3);
    assert_string_equal(sb_str(&sb), "('c10::BFloat16', \"it's\", None)");
    sb_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_args), cmocka_unit_test(test_parse_odd_inputs),
        cmocka_unit_test(test_dtypes),     cmocka_unit_test(test_concrete),
        cmocka_unit_test(test_reprs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
