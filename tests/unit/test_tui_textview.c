/* Unit tests: the pieces of the text-drawn views (tui/frame/textview.h): the
 * columns a horizontal scroll shows, the indent of deep tree rows, the
 * menu's keys and lines. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "tui/frame/keymap.h"
#include "tui/frame/textview.h"

static void test_plan_cols(void **state)
{
    (void)state;
    const size_t w[] = {10, 8, 8, 8, 8};
    size_t shown[5], scroll = 0;
    bool more;
    /* 10 + 2 + 8 + 2 + 8 = 30 fits in 32 with room for " ›". */
    assert_int_equal(textview_plan_cols(w, 5, 1, &scroll, 32, 2, shown, &more), 3);
    assert_true(more);
    assert_int_equal(shown[2], 2);
    /* Scrolled by two: the first column, then the fourth and fifth, the
     * last needing no room for a mark. */
    scroll = 2;
    assert_int_equal(textview_plan_cols(w, 5, 1, &scroll, 30, 2, shown, &more), 3);
    assert_false(more);
    assert_int_equal(shown[0], 0);
    assert_int_equal(shown[1], 3);
    assert_int_equal(shown[2], 4);
    /* Past the end: clamped to the last column alone after the first. */
    scroll = 99;
    assert_int_equal(textview_plan_cols(w, 5, 1, &scroll, 80, 2, shown, &more), 2);
    assert_int_equal(scroll, 3);
    assert_int_equal(shown[1], 4);
    /* Narrower than the first column and one more: that one still shows. */
    scroll = 0;
    assert_int_equal(textview_plan_cols(w, 5, 1, &scroll, 12, 2, shown, &more), 2);
    assert_true(more);
    /* Everything fits: no mark. */
    assert_int_equal(textview_plan_cols(w, 5, 1, &scroll, 200, 2, shown, &more), 5);
    assert_false(more);
}

static void test_deep_indent(void **state)
{
    (void)state;
    char buf[32];
    /* Within the room: every level, no marker. */
    assert_int_equal(textview_deep_indent(5, 5, 10, 1, false, buf, sizeof(buf)), 5);
    assert_string_equal(buf, "");
    /* Deeper: the marker and what is left of the room. */
    assert_int_equal(textview_deep_indent(23, 23, 10, 1, false, buf, sizeof(buf)), 6);
    assert_string_equal(buf, "\xc2\xb7"
                             "23"
                             "\xc2\xb7");
    assert_int_equal(textview_deep_indent(23, 23, 10, 1, true, buf, sizeof(buf)), 6);
    assert_string_equal(buf, ".23.");
    /* Two columns a level: the marker padded to whole levels. */
    assert_int_equal(textview_deep_indent(30, 41, 8, 2, true, buf, sizeof(buf)), 6);
    assert_string_equal(buf, ".41.");
    assert_int_equal(textview_deep_indent(30, 9, 8, 2, true, buf, sizeof(buf)), 6);
    assert_string_equal(buf, ".9. ");
    /* A room smaller than the marker: the marker alone. */
    assert_int_equal(textview_deep_indent(1000000, 999999, 3, 1, true, buf, sizeof(buf)), 0);
    assert_string_equal(buf, ".999999.");
}

static char **items(int n)
{
    char **v = xcalloc((size_t)n, sizeof(char *));
    for (int i = 0; i < n; i++)
        v[i] = xasprintf("item %d", i + 1);
    return v;
}

static void test_menu(void **state)
{
    (void)state;
    struct textview_menu m = {0};
    textview_menu_open(&m, "Sort by", items(12), 12, 3);
    assert_true(m.open);
    assert_int_equal(textview_menu_key(&m, 'j'), TEXTVIEW_MENU_KEPT);
    assert_int_equal(m.cur, 4);
    assert_int_equal(textview_menu_key(&m, 'G'), TEXTVIEW_MENU_KEPT);
    assert_int_equal(m.cur, 11);
    /* Five lines: the title and four items, scrolled to the current. */
    struct strbuf sb = STRBUF_INIT;
    int at;
    assert_int_equal(textview_menu_lines(&m, &sb, 5, 40, true, &at), 5);
    assert_int_equal(at, 4);
    assert_non_null(strstr(sb_str(&sb), "> 12 item 12\n"));
    assert_null(strstr(sb_str(&sb), "item 1\n"));
    sb_free(&sb);
    /* Enter picks the current item and closes. */
    assert_int_equal(textview_menu_key(&m, '\n'), 11);
    assert_false(m.open);
    /* A digit picks at once; Esc closes without a pick. */
    textview_menu_open(&m, "Sort by", items(3), 3, 0);
    assert_int_equal(textview_menu_key(&m, '3'), 2);
    textview_menu_open(&m, "Sort by", items(3), 3, 0);
    assert_int_equal(textview_menu_key(&m, '9'), TEXTVIEW_MENU_KEPT);
    assert_int_equal(textview_menu_key(&m, KEY_ESC), TEXTVIEW_MENU_CLOSED);
    assert_false(m.open);
    textview_menu_close(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_cols),
        cmocka_unit_test(test_deep_indent),
        cmocka_unit_test(test_menu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
