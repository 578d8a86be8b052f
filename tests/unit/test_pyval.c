/* Unit tests: op argument values: the encoding and its reader, the compact
 * JSON writer, and Python's repr() (every expected repr below is what
 * python3's repr() prints for the same value). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/argpack.h"
#include "core/trace/pyval.h"
#include "tests/unit/pyvalutil.h"
#include "tests/unit/testutil.h"

static void test_encode_and_read(void **state)
{
    struct strbuf b = STRBUF_INIT, b2 = STRBUF_INIT;
    struct pyval v = pyval_json(&b, "[[8, -1024], [], null, true, false, 0.5, \"c10::Half\","
                                    " {\"k\": 1}, 4294967296, 1e300]");
    assert_int_equal(pyval_kind(v), PYV_LIST);
    assert_int_equal(pyval_count(v), 10);
    struct pyval_iter it, jt;
    struct pyval x, y;
    static const enum pyval_kind kinds[] = {PYV_LIST,  PYV_LIST, PYV_NONE, PYV_TRUE, PYV_FALSE,
                                            PYV_FLOAT, PYV_STR,  PYV_DICT, PYV_INT,  PYV_FLOAT};
    assert_true(pyval_iter_init(&it, v));
    for (size_t i = 0; i < 10; i++) {
        assert_true(pyval_iter_next(&it, &x));
        assert_int_equal(pyval_kind(x), kinds[i]);
        int64_t n;
        double d;
        size_t len;
        switch (i) {
        case 0:
            assert_true(pyval_iter_init(&jt, x));
            assert_true(pyval_iter_next(&jt, &y) && pyval_int(y, &n) && n == 8);
            assert_true(pyval_iter_next(&jt, &y) && pyval_int(y, &n) && n == -1024);
            assert_false(pyval_iter_next(&jt, &y));
            break;
        case 1:
            assert_int_equal(pyval_count(x), 0);
            break;
        case 3:
            assert_false(pyval_int(x, &n));
            break;
        case 5:
            assert_true(pyval_number(x, &d) && d == 0.5);
            assert_false(pyval_int(x, &n));
            break;
        case 6:
            assert_string_equal(pyval_str(x, &len), "c10::Half");
            assert_int_equal(len, 9);
            break;
        case 7:
            assert_int_equal(pyval_count(x), 1);
            assert_true(pyval_iter_init(&jt, x));
            assert_true(pyval_iter_next(&jt, &y));
            assert_string_equal(pyval_str(y, NULL), "k");
            assert_true(pyval_iter_next(&jt, &y) && pyval_int(y, &n) && n == 1);
            assert_false(pyval_iter_next(&jt, &y));
            break;
        case 8:
            assert_true(pyval_int(x, &n) && n == 4294967296LL);
            break;
        case 9:
            assert_false(pyval_int(x, &n));
            break;
        default:
            break;
        }
    }
    assert_false(pyval_iter_next(&it, &x));
    assert_null(pyval_str(v, NULL));
    /* Equal values are equal bytes; an integral float reads as an int. */
    struct pyval w = pyval_json(&b2, "[[8,-1024],[],null,true,false,0.5,\"c10::Half\",{\"k\":1.0},"
                                     "4294967296.0,1e+300]");
    assert_int_equal(b.len, b2.len);
    assert_memory_equal(b.s, b2.s, b.len);
    (void)w;
    /* Absent. */
    assert_int_equal(pyval_kind(pyval_of(NULL, 0)), PYV_ABSENT);
    assert_int_equal(pyval_kind(pyval_of("", 0)), PYV_ABSENT);
    assert_false(pyval_iter_init(&it, pyval_of(NULL, 0)));
    sb_free(&b);
    sb_free(&b2);
}

/* Every prefix of an encoding reads without running past it. */
static void test_malformed(void **state)
{
    struct strbuf b = STRBUF_INIT, out = STRBUF_INIT;
    pyval_json(&b, "[[1, 2], {\"a\": [\"x\", 0.25]}, \"it's\", null, [[[]]]]");
    for (size_t n = 0; n <= b.len; n++) {
        char *copy = malloc(n + 1);
        memcpy(copy, b.s, n);
        struct pyval v = pyval_of(copy, n);
        sb_clear(&out);
        pyval_put_json(&out, v);
        pyval_repr(&out, v, PYVAL_TUPLES);
        pyval_count(v);
        free(copy);
    }
    /* A count larger than the bytes can hold. */
    static const uint8_t big[] = {PYV_LIST, 0xff, 0xff, 0xff, 0xff, 0x0f, 2, PYV_NONE, PYV_NONE};
    assert_int_equal(pyval_count(pyval_of(big, sizeof(big))), 0);
    static const uint8_t bad_tag[] = {0x7f};
    assert_int_equal(pyval_kind(pyval_of(bad_tag, 1)), PYV_ABSENT);
    sb_free(&b);
    sb_free(&out);
}

static void expect_json(const char *in, const char *out)
{
    struct strbuf b = STRBUF_INIT, sb = STRBUF_INIT;
    pyval_put_json(&sb, pyval_json(&b, in));
    assert_string_equal(sb_str(&sb), out);
    sb_free(&b);
    sb_free(&sb);
}

/* The compact JSON of the values is what the arguments' JSON text was. */
static void test_json(void **state)
{
    expect_json("[[1, 16, 5185, 5185], [], []]", "[[1,16,5185,5185],[],[]]");
    expect_json("[\"c10::BFloat16\", \"\", \"it's\", \"a\\\"b\\\\c\"]",
                "[\"c10::BFloat16\",\"\",\"it's\",\"a\\\"b\\\\c\"]");
    expect_json("{\"a\": [1, \"x\"], \"b\": null, \"a\": true}",
                "{\"a\":[1,\"x\"],\"b\":null,\"a\":true}");
    expect_json("[0.1, 1e300, -2.5e-7, 1e999, 9007199254740993]",
                "[0.1,1e+300,-2.5e-07,null,9007199254740992]");
    expect_json("[\"\\u00e9\\u202e\\n\"]", "[\"\xc3\xa9\\u202e\\n\"]");
}

static void test_repr_str(void **state)
{
    static const struct {
        const char *in, *repr;
    } cases[] = {
        {"", "''"},
        {"it's", "\"it's\""},
        {"say \"hi\"", "'say \"hi\"'"},
        {"it's \"both\"", "'it\\'s \"both\"'"},
        {"a\\b", "'a\\\\b'"},
        {"back\\'slash", "\"back\\\\'slash\""},
        {"\x09\x0a\x0d\x01\x1b\x7f", "'\\t\\n\\r\\x01\\x1b\\x7f'"},
        {"h\xc3\xa9llo w\xc3\xb6rld", "'h\xc3\xa9llo w\xc3\xb6rld'"},
        {"\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95",
         "'\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95'"},
        {"emoji \xf0\x9f\x98\x80", "'emoji \xf0\x9f\x98\x80'"},
        {"\xc2\x85 c1", "'\\x85 c1'"},
        {"nbsp\xc2\xa0", "'nbsp\\xa0'"},
        {"soft\xc2\xadhyphen", "'soft\\xadhyphen'"},
        {"zw\xe2\x80\x8bsp", "'zw\\u200bsp'"},
        {"rtl\xe2\x80\xaegnp", "'rtl\\u202egnp'"},
        {"line\xe2\x80\xa8sep", "'line\\u2028sep'"},
        {"ideo\xe3\x80\x80space", "'ideo\\u3000space'"},
        {"\xef\xbb\xbf"
         "bom",
         "'\\ufeffbom'"},
        {"pua\xee\x80\x80", "'pua\\ue000'"},
        {"plane15 \xf3\xb0\x80\x80", "'plane15 \\U000f0000'"},
        {"unassigned \xcd\xb8", "'unassigned \\u0378'"},
        {"\xf0\x9f\x98\x80\xf0\x9f\x91\x8d", "'\xf0\x9f\x98\x80\xf0\x9f\x91\x8d'"},
        {"'", "\"'\""},
        {"\"", "'\"'"},
        {"'\"", "'\\'\"'"},
        {"\\x41", "'\\\\x41'"},
        {"tab\x09"
         "and'quote",
         "\"tab\\tand'quote\""},
        /* Not UTF-8 (Python has no such str): shown as U+FFFD. */
        {"bad\xff\xfe", "'bad\xef\xbf\xbd\xef\xbf\xbd'"},
    };
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sb_clear(&sb);
        pyval_repr_str(&sb, cases[i].in, strlen(cases[i].in));
        assert_string_equal(sb_str(&sb), cases[i].repr);
    }
    sb_free(&sb);
}

static void test_repr_float(void **state)
{
    static const struct {
        double d;
        const char *repr;
    } cases[] = {
        {0.1, "0.1"},
        {1.0, "1.0"},
        {-2.5, "-2.5"},
        {1e+16, "1e+16"},
        {1000000000000000.0, "1000000000000000.0"},
        {1e-05, "1e-05"},
        {0.0001, "0.0001"},
        {123.456, "123.456"},
        {5e-324, "5e-324"},
        {1.7976931348623157e+308, "1.7976931348623157e+308"},
        {0.30000000000000004, "0.30000000000000004"},
        {1e+22, "1e+22"},
        {9007199254740993.0, "9007199254740992.0"},
        {1.5e-07, "1.5e-07"},
        {100.0, "100.0"},
        {12345678.9, "12345678.9"},
        {2.2250738585072014e-308, "2.2250738585072014e-308"},
        {0.3333333333333333, "0.3333333333333333"},
        {1.4142135623730951, "1.4142135623730951"},
        {1e+100, "1e+100"},
        {-1e-100, "-1e-100"},
        {123456789012345680.0, "1.2345678901234568e+17"},
        {-0.0, "-0.0"},
        {0.0, "0.0"},
        {4.35, "4.35"},
        {2.675, "2.675"},
        {9.999999999999999e22, "1e+23"},
        {5e-05, "5e-05"},
        {1234567890123456.7, "1234567890123456.8"},
        {12345678901234567.0, "1.2345678901234568e+16"},
        {INFINITY, "inf"},
        {-INFINITY, "-inf"},
        {NAN, "nan"},
    };
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sb_clear(&sb);
        pyval_repr_float(&sb, cases[i].d);
        assert_string_equal(sb_str(&sb), cases[i].repr);
    }
    sb_free(&sb);
}

static void expect_repr(const char *json, unsigned flags, const char *repr)
{
    struct strbuf b = STRBUF_INIT, sb = STRBUF_INIT;
    pyval_repr(&sb, pyval_json(&b, json), flags);
    assert_string_equal(sb_str(&sb), repr);
    sb_free(&b);
    sb_free(&sb);
}

/* Values as Python prints what json.load makes of them, with TraceLens's
 * lists-as-tuples or as lists. */
static void test_repr_values(void **state)
{
    expect_repr("[\"\", \"it's\"]", PYVAL_TUPLES, "('', \"it's\")");
    expect_repr("[\"\", \"it's\"]", 0, "['', \"it's\"]");
    expect_repr("[[1,2],[3],[]]", PYVAL_TUPLES, "((1, 2), (3,), ())");
    expect_repr("[[1,2],[3],[]]", 0, "[[1, 2], [3], []]");
    expect_repr("[]", PYVAL_TUPLES, "()");
    expect_repr("[[]]", PYVAL_TUPLES, "((),)");
    expect_repr("{\"a\": [1, 2], \"b\": true, \"c\": null}", PYVAL_TUPLES,
                "{'a': [1, 2], 'b': True, 'c': None}");
    expect_repr("{\"a\":1,\"b\":2,\"a\":3}", 0, "{'a': 3, 'b': 2}");
    expect_repr("[0.5, 1e-7, -3, \"x\\\\y\"]", PYVAL_TUPLES, "(0.5, 1e-07, -3, 'x\\\\y')");
    expect_repr("[[\"a\"], {\"k\": [[1]]}]", PYVAL_TUPLES, "(('a',), {'k': [[1]]})");
    expect_repr("[\"\\u00e9\\u202e\"]", PYVAL_TUPLES, "('\xc3\xa9\\u202e',)");
    expect_repr("[false, null]", PYVAL_TUPLES, "(False, None)");
    /* The parser does not keep how a number was written: 1.0 is 1. */
    expect_repr("[1.0, 1e16]", PYVAL_TUPLES, "(1, 1e+16)");
    struct strbuf sb = STRBUF_INIT;
    pyval_repr(&sb, pyval_of(NULL, 0), PYVAL_TUPLES);
    assert_int_equal(sb.len, 0);
    sb_free(&sb);
}

/* The loader parses the four lists once: op_info and the packed args hold
 * the same value ids, equal lists share one, other arrays stay JSON text,
 * and the args still print as the JSON they were. */
static void test_loaded(void **state)
{
    struct trace *t =
        load_text("{\"traceEvents\": ["
                  "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1,"
                  " \"ts\": 1, \"dur\": 9, \"args\": {\"Input Dims\": [[2, 3], []], \"Input type\":"
                  " [\"float\", \"Scalar\"], \"Concrete Inputs\": [\"\", \"it's\"], \"nil\": null,"
                  " \"grid\": [1, 2]}},"
                  "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, \"tid\": 1,"
                  " \"ts\": 20, \"dur\": 9, \"args\": {\"Input Dims\": [[2,3],[]],"
                  " \"Input Strides\": {\"x\": 1}}}]}");
    uint32_t a = find_event(t, "a"), b = find_event(t, "b");
    const struct op_info *oa = ev_op(t, a), *ob = ev_op(t, b);
    assert_true(oa->input_dims != 0 && oa->input_dims == ob->input_dims);
    assert_int_equal(oa->input_strides, 0);
    assert_true(ob->input_strides != 0);
    assert_int_equal(ob->concrete_inputs, 0);
    struct strbuf sb = STRBUF_INIT;
    pyval_repr(&sb, trace_val(t, oa->concrete_inputs), PYVAL_TUPLES);
    assert_string_equal(sb_str(&sb), "('', \"it's\")");
    sb_clear(&sb);
    pyval_repr(&sb, trace_val(t, ob->input_strides), PYVAL_TUPLES);
    assert_string_equal(sb_str(&sb), "{'x': 1}");
    struct argval v;
    assert_true(ev_arg(t, a, "Input type", &v));
    assert_int_equal(v.type, ARG_VALUE);
    assert_int_equal(v.v.s, oa->input_type);
    assert_true(ev_arg(t, a, "nil", &v));
    assert_int_equal(v.type, ARG_NULL);
    assert_true(ev_arg(t, a, "grid", &v));
    assert_int_equal(v.type, ARG_JSON);
    sb_clear(&sb);
    ev_args_put_json(&sb, t, a);
    assert_string_equal(sb_str(&sb),
                        "{\"Input Dims\": [[2,3],[]], \"Input type\": "
                        "[\"float\",\"Scalar\"], \"Concrete Inputs\": [\"\",\"it's\"], "
                        "\"nil\": null, \"grid\": [1,2]}");
    sb_free(&sb);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_and_read),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_repr_str),
        cmocka_unit_test(test_repr_float),
        cmocka_unit_test(test_repr_values),
        cmocka_unit_test(test_loaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
