/* Unit tests: the strict event parser (core/trace/jsonfast.h) reads what it
 * accepts exactly as cJSON and strtod do, and declines the rest. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/arena.h"
#include "core/trace/jsonfast.h"

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Same tree as cJSON, links (head's prev is the tail) and valueint too. */
static void same_tree(const cJSON *a, const cJSON *b)
{
    assert_int_equal(a->type & 0xff, b->type & 0xff);
    assert_int_equal(a->valueint, b->valueint);
    assert_memory_equal(&a->valuedouble, &b->valuedouble, sizeof(double));
    assert_true((a->string == NULL) == (b->string == NULL));
    if (a->string)
        assert_string_equal(a->string, b->string);
    assert_true((a->valuestring == NULL) == (b->valuestring == NULL));
    if (a->valuestring)
        assert_string_equal(a->valuestring, b->valuestring);
    assert_true((a->child == NULL) == (b->child == NULL));
    if (a->child) {
        assert_true((a->child->prev == NULL) == (b->child->prev == NULL));
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next)
            same_tree(x, y);
        assert_true(x == NULL && y == NULL);
    }
}

static void check_parse(const char *text, bool must_accept)
{
    struct arena a;
    arena_init(&a, 0);
    const char *end = NULL, *cend = NULL;
    size_t n = strlen(text);
    cJSON *fast = jsonfast_parse(text, n, &a, 1u << 20, &end);
    cJSON *slow = cJSON_ParseWithLengthOpts(text, n, &cend, 0);
    if (must_accept && !fast)
        fail_msg("declined %s", text);
    if (fast) {
        if (!slow)
            fail_msg("cJSON refuses what was accepted: %s", text);
        assert_ptr_equal(end, cend);
        same_tree(fast, slow);
    }
    cJSON_Delete(slow);
    arena_free(&a);
}

/* Numbers in events are read as cJSON (strtod) reads them, the 17-digit
 * shortest forms Python writes, exponents and the out-of-range ones too;
 * only those longer than cJSON reads (63 bytes) are left to it. */
static void test_numbers_as_cjson(void **state)
{
    (void)state;
    static const char *const numbers[] = {
        "0",
        "-0",
        "1234567.891",
        "1234567.8910000001",
        "1419118589013.5278",
        "1e-05",
        "1E5",
        "1e+05",
        "-2.5E+10",
        "0.30000000000000004",
        "9007199254740993",
        "12345678901234567890",
        "18446744073709551616",
        "1e23",
        "1e400",
        "-1e400",
        "1e-400",
        "5e-324",
        "2.2250738585072011e-308",
        "1.7976931348623157e308",
        "2147483648",
        "-2147483649",
        "999999999999999",
        "-999999999999999",
        "1000000000000000",
        "9999999999999999",
        "7",
        "-7",
        "10",
        "123456789012345678901234567890123456789012345678901234567890"};
    char buf[256];
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
        snprintf(buf, sizeof(buf), "{\"ts\": %s, \"a\": [%s, {\"b\": %s}]}", numbers[i], numbers[i],
                 numbers[i]);
        check_parse(buf, true);
    }
    char buf2[64];
    for (int i = 0; i < 100000; i++) {
        uint64_t bits = next_rand();
        double d;
        memcpy(&d, &bits, sizeof(d));
        if (!isfinite(d))
            continue;
        snprintf(buf2, sizeof(buf2), i % 2 ? "%.17g" : "%.15g", d);
        snprintf(buf, sizeof(buf), "[%s]", buf2);
        check_parse(buf, true);
    }
    /* Integers of every length around the 15 digits read as they are
     * scanned, and the forms JSON refuses (cJSON may take them). */
    for (int i = 0; i < 20000; i++) {
        int digits = 1 + i % 18;
        char text[24];
        size_t n = 0;
        if (i % 3 == 0)
            text[n++] = '-';
        for (int k = 0; k < digits; k++)
            text[n++] = (char)('0' + next_rand() % 10);
        text[n] = '\0';
        bool leading_zero = digits > 1 && text[i % 3 == 0] == '0';
        snprintf(buf, sizeof(buf), "[%s, {\"x\": %s}]", text, text);
        check_parse(buf, !leading_zero);
    }
    /* Decimals of every length of either part (the quotients read as they
     * are scanned, eight digits at a time where they run that long), as
     * Kineto writes times ("%.3f") and as they come otherwise. */
    for (int i = 0; i < 40000; i++) {
        int whole = 1 + i % 20, frac = 1 + (i / 20) % 24;
        char text[64];
        size_t n = 0;
        if (i % 5 == 0)
            text[n++] = '-';
        for (int k = 0; k < whole; k++)
            text[n++] = (char)((k == 0 && whole > 1 ? '1' : '0') +
                               next_rand() % (k == 0 && whole > 1 ? 9 : 10));
        text[n++] = '.';
        for (int k = 0; k < frac; k++)
            text[n++] = (char)('0' + next_rand() % 10);
        text[n] = '\0';
        snprintf(buf, sizeof(buf), "[%s, {\"x\": %s}]", text, text);
        check_parse(buf, true);
    }
    for (int i = 0; i < 20000; i++) {
        double d = (double)(next_rand() % 2000000000000000ull) / 1000.0;
        snprintf(buf, sizeof(buf), "[%.3f, %.6f, %.1f]", d, d / 1e6, -d);
        check_parse(buf, true);
    }
    /* The forms JSON refuses are declined, whatever cJSON makes of them. */
    static const char *const refused[] = {
        "[01]",   "[-01]",  "[-]",    "[1-2]",   "[00]",
        "[-007]", "[1.]",   "[.5]",   "[-.5]",   "[1.e5]",
        "[1e]",   "[1e+]",  "[00.5]", "[1.5.5]", "[12345678.]",
        "[+1]",   "[1.5e]", "[0x10]", "[1..2]",  "[12345678901234567.]"};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        check_parse(refused[i], false);
        struct arena ar;
        arena_init(&ar, 0);
        const char *e;
        if (jsonfast_parse(refused[i], strlen(refused[i]), &ar, 1u << 20, &e))
            fail_msg("accepted %s", refused[i]);
        arena_free(&ar);
    }
    check_parse("[1234567890123456789012345678901234567890123456789012345678901]", false);
    struct arena a;
    arena_init(&a, 0);
    const char *end;
    assert_null(jsonfast_parse("[1234567890123456789012345678901234567890123456789012345678901]",
                               63, &a, 1u << 20, &end));
    arena_free(&a);
}

static void test_events_as_cjson(void **state)
{
    (void)state;
    check_parse("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 21587, "
                "\"tid\": 21587, \"ts\": 1419116105356.596, \"dur\": 5.74, \"args\": {"
                "\"External id\": 2, \"Concrete Inputs\": [\"[]\", \"4\", \"\", \"False\"], "
                "\"Input Strides\": [[], [3072, 1]], \"Input Dims\": [[768, 3072]], "
                "\"Python parent id\": null, \"flag\": true, \"off\": false, \"Ev Idx\": 1}}",
                true);
    check_parse("{\"name\": \"a\\\"b\\\\c\\/d\\n\\t\\r\\b\\f\", \"k\": {}, \"l\": []}", true);
    check_parse("{ \"a\" : [ 1 , -2.5e3 , { \"b\" : \"\xc3\xa9\" } ] }", true);
    check_parse("{\"a\": 1}, {\"b\": 2}", true); /* stops after the first value */
    check_parse("{\"dup\": 1, \"dup\": 2}", true);
    /* Left to cJSON: escapes of code points, control bytes, numbers it reads
     * otherwise or inexactly, bad structure, deep nesting. */
    static const char *const declined[] = {"{\"a\": \"\\u0041\"}",
                                           "{\"a\": \"x\ty\"}",
                                           "{\"a\": 01}",
                                           "{\"a\": 1.}",
                                           "{\"a\": tru}",
                                           "{\"a\": nul}",
                                           "{\"a\" 1}",
                                           "{\"a\": 1,}",
                                           "{\"a\": 1",
                                           "{a: 1}",
                                           "{\"a\": [1 2]}",
                                           "{\"a\": \"\\x\"}",
                                           "{\"a\": 1}\x00",
                                           "{\"a\":\x01 1}"};
    for (size_t i = 0; i < sizeof(declined) / sizeof(declined[0]); i++) {
        struct arena a;
        arena_init(&a, 0);
        const char *end;
        const char *s = declined[i];
        size_t n = i == 12 ? 9 : strlen(s);
        cJSON *v = jsonfast_parse(s, n, &a, 1u << 20, &end);
        /* "{\"a\": 1}" then a NUL: the value itself is fine. */
        if (i == 12)
            assert_true(v && end == s + 8);
        else if (v)
            fail_msg("accepted %s", s);
        arena_free(&a);
    }
    char deep[2 * 600 + 1];
    memset(deep, '[', 600);
    memset(deep + 600, ']', 600);
    deep[1200] = '\0';
    check_parse(deep, false);
    struct arena a;
    arena_init(&a, 0);
    const char *end;
    assert_null(jsonfast_parse(deep, 1200, &a, 1u << 20, &end));
    /* Over the memory budget: declined, for cJSON to meet the same limit. */
    assert_null(jsonfast_parse("{\"a\": [1, 2, 3, 4, 5, 6, 7, 8]}", 31, &a, 200, &end));
    arena_free(&a);
}

/* Random trees printed by cJSON read back the same by both parsers. */
static cJSON *random_value(int depth)
{
    switch (next_rand() % (depth > 4 ? 4 : 6)) {
    case 0:
        return cJSON_CreateNumber((double)(int64_t)(next_rand() % 2000000) - 1000000);
    case 1:
        return cJSON_CreateNumber((double)(next_rand() % 100000000) / 1000.0);
    case 2: {
        char s[48];
        size_t n = next_rand() % sizeof(s);
        for (size_t i = 0; i < n; i++)
            s[i] = "ab\"\\/\n\t xyz:{}[],"[next_rand() % 18];
        s[n] = '\0';
        return cJSON_CreateString(s);
    }
    case 3:
        return next_rand() % 3 == 0   ? cJSON_CreateNull()
               : next_rand() % 2 == 0 ? cJSON_CreateTrue()
                                      : cJSON_CreateFalse();
    case 4: {
        cJSON *a = cJSON_CreateArray();
        for (int i = (int)(next_rand() % 5); i > 0; i--)
            cJSON_AddItemToArray(a, random_value(depth + 1));
        return a;
    }
    default: {
        cJSON *o = cJSON_CreateObject();
        for (int i = (int)(next_rand() % 5); i > 0; i--) {
            char k[8];
            snprintf(k, sizeof(k), "k%u", (unsigned)(next_rand() % 6));
            cJSON_AddItemToObject(o, k, random_value(depth + 1));
        }
        return o;
    }
    }
}

static void test_random_trees(void **state)
{
    (void)state;
    for (int i = 0; i < 3000; i++) {
        cJSON *v = cJSON_CreateObject();
        cJSON_AddItemToObject(v, "v", random_value(0));
        char *text = i % 2 ? cJSON_Print(v) : cJSON_PrintUnformatted(v);
        check_parse(text, true);
        free(text);
        cJSON_Delete(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers_as_cjson),
        cmocka_unit_test(test_events_as_cjson),
        cmocka_unit_test(test_random_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
