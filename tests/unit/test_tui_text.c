/* Unit tests: explorer text (widths, fitting, sanitizing of nasty names,
 * wrapping, formatting) and search patterns. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/utf8.h"
#include "tui/frame/pattern.h"
#include "tui/frame/text.h"

static size_t fit(struct strbuf *sb, const char *s, size_t width, bool middle, bool ascii)
{
    sb_clear(sb);
    return text_fit(sb, s, strlen(s), width, middle, ascii);
}

static size_t cols(const struct strbuf *sb)
{
    return text_width(sb_str(sb), sb->len);
}

/* No byte below 0x20 or DEL, valid UTF-8, no bidi controls. */
static void assert_terminal_safe(const struct strbuf *sb)
{
    const unsigned char *s = (const unsigned char *)sb_str(sb);
    for (size_t i = 0; i < sb->len; i++)
        assert_true(s[i] >= 0x20 && s[i] != 0x7f);
    assert_true(utf8_valid(sb_str(sb), sb->len));
    assert_null(strstr(sb_str(sb), "\xe2\x80\xae"));
    assert_null(strstr(sb_str(sb), "\xe2\x81\xa6"));
}

static void test_plain_fit(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    assert_int_equal(fit(&sb, "aten::mm", 20, true, false), 8);
    assert_string_equal(sb_str(&sb), "aten::mm");
    assert_int_equal(fit(&sb, "at::native::vectorized_elementwise_kernel<4>", 20, true, false), 20);
    assert_int_equal(cols(&sb), 20);
    assert_non_null(strstr(sb_str(&sb), "\xe2\x80\xa6"));
    assert_true(strncmp(sb_str(&sb), "at::native", 10) == 0);
    assert_string_equal(sb_str(&sb) + sb.len - 9, "kernel<4>");
    /* End cut keeps the head. */
    fit(&sb, "abcdefghijklmnopqrstuvwxyz", 10, false, false);
    assert_string_equal(sb_str(&sb), "abcdefghi\xe2\x80\xa6");
    /* ASCII mode marks cuts with '~'. */
    fit(&sb, "abcdefghijklmnopqrstuvwxyz", 10, true, true);
    assert_int_equal(sb.len, 10);
    assert_non_null(strchr(sb_str(&sb), '~'));
    sb_free(&sb);
}

static void test_escapes(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    /* An escape sequence that would clear the screen and set a title. */
    const char *evil = "op\x1b[2J\x1b]0;pwned\x07name\r\n\t\x7f";
    fit(&sb, evil, 200, true, false);
    assert_terminal_safe(&sb);
    assert_non_null(strstr(sb_str(&sb), "\\x1b[2J"));
    assert_non_null(strstr(sb_str(&sb), "\\x07"));
    assert_non_null(strstr(sb_str(&sb), "\\n"));
    /* C1 controls (U+009B is a one-byte CSI on some terminals). */
    fit(&sb,
        "a\xc2\x9b"
        "31mred",
        200, true, false);
    assert_terminal_safe(&sb);
    assert_null(strstr(sb_str(&sb), "\xc2\x9b"));
    /* Cut in the middle of an escape: still no raw ESC. */
    for (size_t w = 1; w < 30; w++) {
        fit(&sb, evil, w, true, false);
        assert_terminal_safe(&sb);
        assert_true(cols(&sb) <= w);
    }
    sb_free(&sb);
}

static void test_invalid_utf8_and_bidi(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    fit(&sb, "ab\xff\xfe\xc3(cd\xed\xa0\x80", 100, true, false);
    assert_terminal_safe(&sb);
    assert_non_null(strstr(sb_str(&sb), "\xef\xbf\xbd"));
    /* Right-to-left override would reorder the rest of the line. */
    fit(&sb,
        "kernel\xe2\x80\xae"
        "gnp.exe",
        100, true, false);
    assert_terminal_safe(&sb);
    assert_non_null(strstr(sb_str(&sb), "<U+202E>"));
    /* Isolates and marks too. */
    fit(&sb, "x\xe2\x81\xa6y\xe2\x80\x8fz", 100, true, false);
    assert_terminal_safe(&sb);
    sb_free(&sb);
}

static void test_cjk(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    const char *cjk =
        "\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95_matmul_\xe5\x86\x85\xe6\xa0\xb8";
    assert_int_equal(text_width("\xe7\x9f\xa9", 3), 2);
    for (size_t w = 1; w <= 24; w++) {
        size_t got = fit(&sb, cjk, w, true, false);
        assert_true(got <= w);
        assert_int_equal(got, cols(&sb));
        assert_true(utf8_valid(sb_str(&sb), sb.len));
        got = fit(&sb, cjk, w, false, false);
        assert_true(got <= w);
    }
    /* Padding makes exactly the width even when a wide char does not fit. */
    struct strbuf pad = STRBUF_INIT;
    text_fit_pad(&pad, cjk, strlen(cjk), 5, true, false, false);
    assert_int_equal(cols(&pad), 5);
    sb_clear(&pad);
    text_fit_pad(&pad, cjk, strlen(cjk), 7, false, true, false);
    assert_int_equal(cols(&pad), 7);
    /* ASCII mode: one '?' per character, so widths stay honest. */
    fit(&sb, cjk, 100, true, true);
    for (size_t i = 0; i < sb.len; i++)
        assert_true((unsigned char)sb.s[i] < 0x80);
    assert_int_equal(sb.len, 4 + 8 + 2);
    sb_free(&pad);
    sb_free(&sb);
}

static void test_combining_and_zero_width(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    /* A combining mark alone would attach to a neighbouring cell. */
    text_clean(&sb,
               "\xcc\x81"
               "abc",
               5, false);
    assert_true(strncmp(sb_str(&sb), "\xef\xbf\xbd", 3) == 0);
    assert_int_equal(cols(&sb), 4);
    sb_free(&sb);
}

static void test_huge_names(void **state)
{
    size_t n = 100 * 1024;
    char *big = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        big[i] = (char)('a' + i % 26);
    memcpy(big, "HEAD", 4);
    memcpy(big + n - 4, "TAIL", 4);
    /* Escapes and multibyte characters near both ends. */
    memcpy(big + 10, "\x1b[31m", 5);
    memcpy(big + n - 20, "\xe7\x9f\xa9\xe9\x98\xb5", 6);
    big[n] = '\0';
    struct strbuf sb = STRBUF_INIT;
    for (size_t w = 1; w < 120; w += 7) {
        assert_true(fit(&sb, big, w, true, false) <= w);
        assert_terminal_safe(&sb);
        if (w > 20) {
            assert_true(strncmp(sb_str(&sb), "HEAD", 4) == 0);
            assert_true(strcmp(sb_str(&sb) + sb.len - 4, "TAIL") == 0);
        }
        assert_true(fit(&sb, big, w, false, false) <= w);
        assert_true(fit(&sb, big, w, true, true) <= w);
    }
    /* The shortcut for long names gives what fitting the whole name gives. */
    for (size_t w = 3; w < 60; w += 5) {
        struct strbuf full = STRBUF_INIT, clean = STRBUF_INIT;
        text_clean(&clean, big, n, false);
        display_fit(&full, sb_str(&clean), clean.len, w, true, false);
        fit(&sb, big, w, true, false);
        assert_string_equal(sb_str(&sb), sb_str(&full));
        sb_free(&full);
        sb_free(&clean);
    }
    free(big);
    sb_free(&sb);
}

static void test_wrap(void **state)
{
    const char *s = "('c10::BFloat16', 'Scalar', 'Scalar') and a tail";
    size_t starts[16];
    size_t n = text_wrap(s, strlen(s), 20, starts, 16);
    assert_true(n >= 3);
    for (size_t k = 0; k < n; k++) {
        size_t end = k + 1 < n ? starts[k + 1] : strlen(s);
        assert_true(text_width(s + starts[k], end - starts[k]) <= 20);
    }
    /* Breaks after ", " when that keeps half a line. */
    assert_int_equal(starts[1], strlen("('c10::BFloat16', "));
    /* Wide characters never straddle lines. */
    const char *cjk = "\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95";
    n = text_wrap(cjk, strlen(cjk), 3, starts, 16);
    assert_int_equal(n, 4);
    /* The cap puts the rest on the last line. */
    n = text_wrap(s, strlen(s), 4, starts, 2);
    assert_int_equal(n, 2);
    assert_int_equal(text_wrap("", 0, 10, starts, 4), 1);
}

static void test_numbers(void **state)
{
    char buf[32];
    text_duration(buf, sizeof(buf), 812, false);
    assert_string_equal(buf, "812 ns");
    text_duration(buf, sizeof(buf), 3200, true);
    assert_string_equal(buf, "3.20 us");
    text_duration(buf, sizeof(buf), 94310000, false);
    assert_string_equal(buf, "94.31 ms");
    text_duration(buf, sizeof(buf), 1211182252, false);
    assert_string_equal(buf, "1.211 s");
    text_duration(buf, sizeof(buf), -1, false);
    assert_string_equal(buf, "-");
    text_count(buf, sizeof(buf), 117693);
    assert_string_equal(buf, "117,693");
    text_count(buf, sizeof(buf), 12);
    assert_string_equal(buf, "12");
    text_percent(buf, sizeof(buf), 46.32);
    assert_string_equal(buf, "46.3%");
    text_bytes(buf, sizeof(buf), 61000000);
    assert_string_equal(buf, "61.0 MB");
}

static void test_patterns(void **state)
{
    struct pattern p = {0};
    char err[128];
    assert_true(pattern_set(&p, "mm", err, sizeof(err)));
    assert_false(p.regex);
    assert_true(pattern_match(&p, "aten::MM"));
    assert_true(pattern_match(&p, "aten::addmm"));
    assert_false(pattern_match(&p, "aten::add"));
    /* Smart case. */
    assert_true(pattern_set(&p, "MM", err, sizeof(err)));
    assert_false(pattern_match(&p, "aten::mm"));
    /* Regex when it has regex characters. */
    assert_true(pattern_set(&p, "^aten::(add)?mm$", err, sizeof(err)));
    assert_true(p.regex);
    assert_true(pattern_match(&p, "aten::mm"));
    assert_true(pattern_match(&p, "aten::addmm"));
    assert_false(pattern_match(&p, "aten::bmm"));
    /* Forced forms. */
    assert_true(pattern_set(&p, "=a(b", err, sizeof(err)));
    assert_true(pattern_match(&p, "xa(bx"));
    assert_true(pattern_set(&p, "re:a.c", err, sizeof(err)));
    assert_true(pattern_match(&p, "abc"));
    /* A bad regex says so and leaves no pattern. */
    assert_false(pattern_set(&p, "a(b", err, sizeof(err)));
    assert_non_null(strstr(err, "regex"));
    assert_false(pattern_active(&p));
    assert_true(pattern_match(&p, "anything"));
    /* Memo per id. */
    assert_true(pattern_set(&p, "soft", err, sizeof(err)));
    assert_true(pattern_match_id(&p, 3, "aten::_softmax", 10));
    assert_true(pattern_match_id(&p, 3, "ignored: remembered", 10));
    assert_false(pattern_match_id(&p, 4, "aten::mm", 10));
    assert_true(pattern_set(&p, "", err, sizeof(err)));
    assert_false(pattern_active(&p));
    pattern_clear(&p);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_fit),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_invalid_utf8_and_bidi),
        cmocka_unit_test(test_cjk),
        cmocka_unit_test(test_combining_and_zero_width),
        cmocka_unit_test(test_huge_names),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_patterns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
