/* Unit tests: the pieces the panes share (tui/frame/textview.h): the
 * indent of deep tree rows, the moves of a menu. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "tui/frame/keymap.h"
#include "tui/frame/textview.h"

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

static void test_menu_move(void **state)
{
    (void)state;
    int cur = 3;
    assert_int_equal(textview_menu_move(&cur, 12, 'j'), A_NONE);
    assert_int_equal(cur, 4);
    assert_int_equal(textview_menu_move(&cur, 12, 'G'), A_NONE);
    assert_int_equal(cur, 11);
    assert_int_equal(textview_menu_move(&cur, 12, 'j'), A_NONE);
    assert_int_equal(cur, 11);
    /* Enter picks the current item; a digit picks its item at once. */
    assert_int_equal(textview_menu_move(&cur, 12, '\n'), A_ACTIVATE);
    assert_int_equal(textview_menu_move(&cur, 3, '3'), A_ACTIVATE);
    assert_int_equal(cur, 2);
    /* A digit past the items does nothing; Esc closes. */
    assert_int_equal(textview_menu_move(&cur, 3, '9'), A_NONE);
    assert_int_equal(cur, 2);
    assert_int_equal(textview_menu_move(&cur, 3, KEY_ESC), A_CANCEL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_indent),
        cmocka_unit_test(test_menu_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
