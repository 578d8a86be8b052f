/* Unit tests: actions, key tables, key names and the generated help. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <curses.h>
#include <string.h>

#include "tui/frame/actions.h"
#include "tui/frame/help.h"
#include "tui/frame/keymap.h"

static void test_action_names(void **state)
{
    for (int a = 1; a < A__COUNT; a++) {
        const char *name = action_name((enum action)a);
        assert_true(strlen(name) > 0);
        assert_int_equal(action_find(name), a);
        assert_true(strlen(action_help((enum action)a)) > 0);
        assert_true((unsigned)action_group((enum action)a) < AG__COUNT);
        for (const char *c = name; *c; c++)
            assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-');
    }
    assert_int_equal(action_find("no-such-action"), A_NONE);
    assert_string_equal(action_name(A_HOT_PATH), "hot-path");
    assert_string_equal(action_group_title(AG_TREE), "Call tree");
}

static void test_lookup_order(void **state)
{
    /* The pane's table first... */
    assert_int_equal(keymap_lookup(PANE_TREE, ' '), A_TOGGLE);
    assert_int_equal(keymap_lookup(PANE_TABLE, ' '), A_PAGE_DOWN);
    assert_int_equal(keymap_lookup(PANE_TIMELINE, '['), A_EVENT_PREV);
    assert_int_equal(keymap_lookup(PANE_TABLE, '['), A_SCROLL_LEFT);
    /* ...then the global one. */
    assert_int_equal(keymap_lookup(PANE_TREE, 'j'), A_MOVE_DOWN);
    assert_int_equal(keymap_lookup(PANE_DETAIL, KEYF(KEY_NPAGE)), A_PAGE_DOWN);
    assert_int_equal(keymap_lookup(PANE_TABLE, 'q'), A_QUIT);
    assert_int_equal(keymap_lookup(PANE_TABLE, KEY_CTRL('c')), A_QUIT);
    assert_int_equal(keymap_lookup(PANE_TREE, 'x'), A_HOT_PATH);
    assert_int_equal(keymap_lookup(PANE_TABLE, 'x'), A_NONE);
    assert_int_equal(keymap_lookup(PANE_TABLE, '3'), A_SORT_3);
    assert_int_equal(keymap_lookup(PANE__COUNT, '?'), A_HELP);
}

static void test_tables_sane(void **state)
{
    for (int p = 0; p <= PANE__COUNT; p++) {
        const struct keybind *kb = keymap_table(p);
        for (size_t i = 0; kb[i].key; i++) {
            assert_true(kb[i].action > A_NONE && kb[i].action < A__COUNT);
            /* No key twice in one table. */
            for (size_t j = i + 1; kb[j].key; j++)
                assert_int_not_equal(kb[i].key, kb[j].key);
            /* Every name parses back to the key. */
            char name[32];
            keymap_key_name(kb[i].key, name, sizeof(name));
            int key = 0;
            assert_int_equal(keymap_key_parse(name, &key), strlen(name));
            assert_int_equal(key, kb[i].key);
        }
    }
}

static void test_key_names(void **state)
{
    int key;
    assert_int_equal(keymap_key_parse("<Enter>", &key), 7);
    assert_int_equal(key, '\n');
    assert_int_equal(keymap_key_parse("<C-c>x", &key), 5);
    assert_int_equal(key, 3);
    assert_int_equal(keymap_key_parse("<S-Tab>", &key), 7);
    assert_int_equal(key, KEYF(KEY_BTAB));
    assert_int_equal(keymap_key_parse("<lt>", &key), 4);
    assert_int_equal(key, '<');
    assert_int_equal(keymap_key_parse("<", &key), 1);
    assert_int_equal(key, '<');
    assert_int_equal(keymap_key_parse("<bogus>", &key), 1);
    assert_int_equal(key, '<');
    assert_int_equal(keymap_key_parse("<F12>", &key), 5);
    assert_int_equal(key, KEYF(KEY_F(12)));
    assert_int_equal(keymap_key_parse("<pgdn>", &key), 6);
    assert_int_equal(key, KEYF(KEY_NPAGE));
    assert_int_equal(keymap_key_parse("\xc3\xa9!", &key), 2);
    assert_int_equal(key, 0xe9);
    assert_int_equal(keymap_key_parse("", &key), 0);
    assert_int_equal(keymap_key_parse("\xff", &key), 0);
    char name[32];
    keymap_key_name(KEY_CTRL('l'), name, sizeof(name));
    assert_string_equal(name, "<C-l>");
    keymap_key_name(KEYF(KEY_BACKSPACE), name, sizeof(name));
    assert_string_equal(name, "<BS>");
    keymap_key_name(0xe9, name, sizeof(name));
    assert_string_equal(name, "\xc3\xa9");
    /* What curses returns, normalized. */
    assert_int_equal(keymap_normalize('\r', false), '\n');
    assert_int_equal(keymap_normalize(KEY_ENTER, true), '\n');
    assert_int_equal(keymap_normalize(127, false), KEYF(KEY_BACKSPACE));
    assert_int_equal(keymap_normalize(8, false), KEYF(KEY_BACKSPACE));
    assert_int_equal(keymap_normalize(KEY_UP, true), KEYF(KEY_UP));
    assert_int_equal(keymap_normalize('j', false), 'j');
}

static void test_help_generated(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    help_text(&sb, PANE__COUNT);
    const char *h = sb_str(&sb);
    /* Every bound action appears, with its keys, under its group. */
    for (int p = 0; p <= PANE__COUNT; p++)
        for (const struct keybind *kb = keymap_table(p); kb->key; kb++)
            assert_non_null(strstr(h, action_name(kb->action)));
    for (int g = 0; g < AG__COUNT; g++)
        assert_non_null(strstr(h, action_group_title((enum action_group)g)));
    assert_non_null(strstr(h, "x                    hot-path"));
    assert_non_null(strstr(h, "? <F1>"));
    char keys[96];
    assert_true(keymap_keys_for(PANE_TREE, A_TOGGLE, keys, sizeof(keys)));
    assert_string_equal(keys, "<Space> o");
    /* A global key the pane takes over is not listed for the pane. */
    assert_true(keymap_keys_for(PANE_TREE, A_PAGE_DOWN, keys, sizeof(keys)));
    assert_null(strstr(keys, "<Space>"));
    assert_false(keymap_keys_for(PANE__COUNT, A_HOT_PATH, keys, sizeof(keys)));
    /* The focused pane's keys come first. */
    sb_clear(&sb);
    help_text(&sb, PANE_TREE);
    h = sb_str(&sb);
    assert_true(strstr(h, "hot-path") < strstr(h, "quit"));
    sb_clear(&sb);
    help_text(&sb, PANE_TABLE);
    h = sb_str(&sb);
    assert_true(strstr(h, "sort-menu") < strstr(h, "quit"));
    assert_true(strstr(h, "quit") < strstr(h, "hot-path"));
    sb_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_action_names),   cmocka_unit_test(test_lookup_order),
        cmocka_unit_test(test_tables_sane),    cmocka_unit_test(test_key_names),
        cmocka_unit_test(test_help_generated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
