/* Unit tests: shape tuples fitted to a column (tui/frame/shapefit.h): items
 * split outside brackets and quotes, blanks and dtype names shortened
 * first, items cut least telling first, the spread of items per op. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/table.h"
#include "tui/frame/shapefit.h"
#include "tui/frame/text.h"

static const char *fit(struct strbuf *sb, const char *s, size_t width, const uint8_t *spread)
{
    sb_clear(sb);
    size_t cols = shapefit_fit(sb, s, strlen(s), width, spread, false);
    assert_true(cols <= width);
    assert_int_equal(cols, text_width(sb_str(sb), sb->len));
    return sb_str(sb);
}

static void test_items(void **state)
{
    (void)state;
    size_t off[8], len[8];
    const char *s = "((8192, 4096), (4096, 9728), ())";
    assert_int_equal(shapefit_items(s, strlen(s), off, len, 8), 3);
    assert_int_equal(len[0], strlen("(8192, 4096)"));
    assert_memory_equal(s + off[1], "(4096, 9728)", len[1]);
    assert_memory_equal(s + off[2], "()", len[2]);
    /* A trailing comma makes no empty item; quotes hide commas and parens. */
    s = "('a, (b', \"c)\",)";
    assert_int_equal(shapefit_items(s, strlen(s), off, len, 8), 2);
    assert_memory_equal(s + off[0], "'a, (b'", len[0]);
    s = "[[1, 2], [3]]";
    assert_int_equal(shapefit_items(s, strlen(s), off, len, 8), 2);
    /* Not a tuple, unbalanced, too many items. */
    assert_int_equal(shapefit_items("aten::mm", 8, off, len, 8), 0);
    assert_int_equal(shapefit_items("((1, 2)", 7, off, len, 8), 0);
    assert_int_equal(shapefit_items("(1, 2, 3)", 9, off, len, 2), 0);
}

static void test_fit(void **state)
{
    (void)state;
    struct strbuf sb = STRBUF_INIT;
    const char *mm = "((8192, 4096), (4096, 9728))";
    assert_string_equal(fit(&sb, mm, 40, NULL), mm);
    assert_string_equal(fit(&sb, mm, 25, NULL), "((8192,4096),(4096,9728))");
    /* No spread known: the later item goes first, the first stays whole. */
    assert_string_equal(fit(&sb, mm, 20, NULL), "((8192,4096),…)");
    /* The first item is the same in every row: it goes first. */
    uint8_t spread[SHAPEFIT_RANKED] = {1, 3};
    assert_string_equal(fit(&sb, mm, 20, spread), "(…,(4096,9728))");
    /* Runs of cut items read as one ellipsis. */
    const char *addmm = "((1024,), (5185, 1024), (1024, 1024), (), ())";
    uint8_t sp2[SHAPEFIT_RANKED] = {2, 2, 3, 1, 1};
    assert_string_equal(fit(&sb, addmm, 36, sp2), "((1024,),(5185,1024),(1024,1024),…)");
    assert_string_equal(fit(&sb, addmm, 26, sp2), "((1024,),…,(1024,1024),…)");
    assert_string_equal(fit(&sb, addmm, 20, sp2), "(…,(1024,1024),…)");
    /* Dtypes short and unquoted. */
    assert_string_equal(fit(&sb, "('c10::BFloat16', 'float', 'Scalar', 'x')", 30, NULL),
                        "(bf16,f32,Scalar,'x')");
    /* Nothing left to cut: the end is cut. */
    assert_string_equal(fit(&sb, "((1, 2, 3, 4, 5, 6),)", 8, NULL), "((1,2,3…");
    /* Not a tuple: cut in the middle. */
    assert_int_equal(strlen(fit(&sb, "aten::some_long_name", 10, NULL)) > 0, 1);
    sb_free(&sb);
}

static void test_dtypes(void **state)
{
    (void)state;
    struct strbuf sb = STRBUF_INIT;
    const char *s = "('c10::BFloat16', 'c10::BFloat16')";
    assert_true(shapefit_dtypes(&sb, s, strlen(s)));
    assert_string_equal(sb_str(&sb), "bf16\xc3\x97"
                                     "bf16");
    sb_clear(&sb);
    s = "('c10::BFloat16', '')";
    assert_false(shapefit_dtypes(&sb, s, strlen(s)));
    assert_int_equal(sb.len, 0);
    assert_false(shapefit_dtypes(&sb, "()", 2));
    assert_string_equal(shapefit_dtype_brief("long int", 8), "i64");
    assert_null(shapefit_dtype_brief("Long", 4));
    sb_free(&sb);
}

static void test_spread(void **state)
{
    (void)state;
    static const struct table_col cols[2] = {
        {"name", "op", COL_TEXT, 0, COLF_WIDE},
        {"dims", NULL, COL_TEXT, 0, COLF_SHAPES},
    };
    struct table *t = table_new("t", NULL, cols, 2);
    const char *rows[][2] = {
        {"aten::mm", "((8192, 4096), (4096, 9728))"},
        {"aten::add", "((1, 2), ())"},
        {"aten::mm", "((8192, 4096), (4096, 2432))"},
        {"aten::mm", "((8192, 4096), (4096, 2560), ())"},
    };
    for (size_t r = 0; r < 4; r++) {
        table_add_row(t);
        table_set_text(t, r, 0, rows[r][0]);
        table_set_text(t, r, 1, rows[r][1]);
    }
    uint8_t *sp = shapefit_spread(t, 1);
    assert_int_equal(sp[0 * SHAPEFIT_RANKED + 0], 1);
    assert_int_equal(sp[0 * SHAPEFIT_RANKED + 1], 3);
    assert_int_equal(sp[2 * SHAPEFIT_RANKED + 2], 2); /* missing counts as a value */
    assert_int_equal(sp[3 * SHAPEFIT_RANKED + 1], 3);
    /* Alone under its name: nothing known. */
    assert_int_equal(sp[1 * SHAPEFIT_RANKED + 0], 0);
    free(sp);
    table_free(t);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_items),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
