/* Unit tests: JSON faults in words (core/trace/jsonfault): the numbers
 * cJSON reads but JSON forbids, and why a parse stopped. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/trace/jsonfault.h"

/* The fault jsonfault_number finds in s, "" for none; its offset in *at. */
static const char *number_fault(const char *s, long *at)
{
    static char why[96];
    const char *r = jsonfault_number(s, s + strlen(s), why, sizeof(why));
    *at = r ? r - s : -1;
    return r ? why : "";
}

static void test_numbers(void **state)
{
    long at;
    const char *ok[] = {
        "{\"a\": 0}",
        "{\"a\": -0}",
        "{\"a\": 0.5}",
        "{\"a\": -0.5}",
        "{\"a\": 1e05}",
        "{\"a\": 1E-05}",
        "{\"a\": [10, 100.25, 0e1, -1.5e+3]}",
        /* Inside strings anything goes, escapes included. */
        "{\"a\": \"2024-01-05 v1. -.5 0001 \\\" 007\"}",
        "{\"a\": \"\\\\\", \"b\": 1.5}",
        /* Long enough for the sixteen-byte blocks. */
        "{\"ts\": 1661203463031665, \"dur\": 4458677006253.406, \"x\": [0, 0, 0, 0, 0, 0, 0]}",
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
        assert_string_equal(number_fault(ok[i], &at), "");
    assert_string_equal(number_fault("{\"a\": 0001}", &at), "a number with a leading zero: 0001");
    assert_int_equal(at, 6);
    assert_string_equal(number_fault("[-01]", &at), "a number with a leading zero: -01");
    assert_int_equal(at, 1);
    assert_string_equal(number_fault("{\"a\": 5.}", &at), "a number with no digit after '.': 5.");
    assert_string_equal(number_fault("[2.e3]", &at), "a number with no digit after '.': 2.e3");
    assert_string_equal(number_fault("[-.5]", &at), "a number with no digit before '.': -.5");
    assert_string_equal(number_fault("00", &at), "a number with a leading zero: 00");
    assert_int_equal(at, 0);
    /* Past the first block, after a string holding a quote. */
    assert_string_equal(
        number_fault("{\"name\": \"x\\\"y 0001\", \"pid\": 1, \"tid\": 1, \"ts\": 0007}", &at),
        "a number with a leading zero: 0007");
    assert_int_equal(at, 48);
}

/* Every position of a fault in a long text, through the sixteen-byte
 * blocks and across their edges, is found at its byte. */
static void test_numbers_every_offset(void **state)
{
    const char *bad[] = {"0001", "-01", "5.", "-.5", "7.e3"};
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        for (size_t pos = 1; pos < 90; pos++) {
            char buf[128];
            memset(buf, ' ', sizeof(buf));
            buf[0] = '[';
            size_t len = strlen(bad[k]);
            memcpy(buf + pos, bad[k], len);
            buf[pos + len] = ',';
            /* Valid numbers and a string of lookalikes on either side. */
            const char *other = "1.5, \"0001 5.\", 10";
            memcpy(buf + (pos > 40 ? 2 : 100), other, strlen(other));
            buf[126] = ']';
            buf[127] = '\0';
            long at;
            const char *why = number_fault(buf, &at);
            assert_int_equal(at, (long)pos);
            assert_non_null(strstr(why, bad[k]));
        }
    }
}

static void test_describe(void **state)
{
    char why[96];
    char deep[2100];
    memset(deep, '[', 1050);
    memset(deep + 1050, ']', 1050);
    assert_int_equal(jsonfault_describe(deep, deep + 1000, deep + 2100, why, sizeof(why)), 1);
    assert_string_equal(why, "nested deeper than 1000 levels");
    const char *s = "[\"a\\ud800b\"]";
    assert_int_equal(jsonfault_describe(s, s + 3, s + strlen(s), why, sizeof(why)), 0);
    assert_string_equal(why, "a lone surrogate \\ud800");
    s = "[\"a\\x41\"]";
    jsonfault_describe(s, s + 3, s + strlen(s), why, sizeof(why));
    assert_string_equal(why, "unexpected '\\'");
    s = "[1,\x01]";
    jsonfault_describe(s, s + 3, s + strlen(s), why, sizeof(why));
    assert_string_equal(why, "unexpected byte 0x01");
    jsonfault_describe(s, NULL, s + strlen(s), why, sizeof(why));
    assert_string_equal(why, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_numbers_every_offset),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
