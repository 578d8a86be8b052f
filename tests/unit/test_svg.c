/* Unit tests: XML escaping of untrusted names (core/base/svg), the flame
 * graph's merged tree and cut (core/report/svg_flame), and the roofline
 * plot's one circle per plottable row (core/report/svg_roofline). */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/svg.h"
#include "core/report/svg_flame.h"
#include "core/report/svg_roofline.h"

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void escape_markup_and_controls(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    const char in[] = "a<b>&\"c'\x1b[31m\xff\xef\xbf\xbe";
    svg_escape(&sb, in, sizeof(in) - 1);
    /* Markup becomes entities; ESC becomes visible text; the invalid byte
     * and U+FFFE become U+FFFD. */
    assert_string_equal(sb_str(&sb), "a&lt;b&gt;&amp;&quot;c&apos;\\x1b[31m"
                                     "\xef\xbf\xbd\xef\xbf\xbd");
    sb_free(&sb);
}

static void flame_merges_and_cuts(void **state)
{
    /* a;b twice merges; a;c and d are siblings; "x y" of 1 unit is under
     * 0.1 px of 1180 px once the total is 1,000,000. */
    const char folded[] = "a;b 400000\n"
                          "a;b 100000\n"
                          "a;c 299999\n"
                          "d 200000\n"
                          "a;c;<tiny&> 1\n"
                          "broken line\n";
    struct strbuf sb = STRBUF_INIT;
    svg_flame_render(&sb, folded, sizeof(folded) - 1, "t<1>", "us");
    const char *s = sb_str(&sb);
    /* all, a, b, c, d: five frames; the tiny one is left out and said. */
    assert_int_equal(count(s, "<g class=\"f\""), 5);
    assert_non_null(strstr(s, "1 frames under 0.1 px left out"));
    assert_non_null(strstr(s, "all (1000000 us, 100.00%)"));
    assert_non_null(strstr(s, "data-n=\"b\"><title>b (500000 us, 50.00%)"));
    assert_null(strstr(s, "<tiny"));
    assert_non_null(strstr(s, "<title>t&lt;1&gt;</title>"));
    /* Siblings in name order: a at the left edge, d after a's 80 %. */
    assert_non_null(strstr(s, "data-x=\"0.000000000\" data-w=\"0.800000000\" data-d=\"1\" "
                              "data-n=\"a\""));
    assert_non_null(strstr(s, "data-x=\"0.800000000\" data-w=\"0.200000000\" data-d=\"1\" "
                              "data-n=\"d\""));
    sb_free(&sb);

    /* Nothing to draw: the root alone, no division by zero. */
    svg_flame_render(&sb, "", 0, "empty", "us");
    assert_int_equal(count(sb_str(&sb), "<g class=\"f\""), 1);
    sb_free(&sb);
}

static void roofline_one_circle_per_row(void **state)
{
    static const struct table_col cols[] = {
        {"name", "op", COL_TEXT, 0, 0},
        {"param: M", "M", COL_INT, 0, 0},
        {"GFLOPS_first", "GFLOP", COL_FLOAT, 3, 0},
        {"FLOPS/Byte_first", "FLOP/B", COL_FLOAT, 3, 0},
        {"TFLOPS/s_mean", "TFLOP/s", COL_FLOAT, 3, 0},
        {"Kernel Time (µs)_sum", "total µs", COL_FLOAT, 3, 0},
        {"Compute Spec", "spec", COL_TEXT, 0, 0},
    };
    struct table *t = table_new("GEMM", "Roofline: GEMM", cols, ARRAY_SIZE(cols));
    const double xs[] = {10, 200, NAN, 0.5}, ys[] = {5, 300, 1, 0};
    for (size_t i = 0; i < ARRAY_SIZE(xs); i++) {
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, i == 1 ? "aten::mm<&>" : "aten::mm");
        table_set_int(t, r, 1, (int64_t)i);
        table_set_float(t, r, 3, xs[i]);
        table_set_float(t, r, 4, ys[i]);
        table_set_float(t, r, 5, 100.0 - (double)i);
        table_set_text(t, r, 6, "matrix_bf16");
    }
    struct table_list l = {0};
    table_list_add(&l, t);
    struct device_peaks d = {.name = "test", .mem_bw_gbps = 2000};
    d.matrix[PREC_BF16] = 1000;
    struct strbuf sb = STRBUF_INIT;
    svg_roofline_render(&sb, &l, &d, "r");
    const char *s = sb_str(&sb);
    assert_int_equal(count(s, "<circle class=\"pt\""), 2);
    assert_non_null(strstr(s, "2 rows without kernel time or FLOPs left out"));
    assert_non_null(strstr(s, "aten::mm&lt;&amp;&gt; M=1"));
    /* The memory roof and the one compute roof. */
    assert_int_equal(count(s, "<line class=\"roof\""), 2);
    assert_non_null(strstr(s, "matrix_bf16 roof 1000 TFLOP/s"));
    sb_free(&sb);
    svg_roofline_render(&sb, &l, NULL, "r");
    assert_int_equal(count(sb_str(&sb), "<line class=\"roof\""), 0);
    assert_non_null(strstr(sb_str(&sb), "no roofs drawn"));
    sb_free(&sb);
    table_list_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escape_markup_and_controls),
        cmocka_unit_test(flame_merges_and_cuts),
        cmocka_unit_test(roofline_one_circle_per_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
