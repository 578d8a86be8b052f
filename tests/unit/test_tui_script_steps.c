/* Unit tests: reading script steps (tui/frame/script_steps.h), shared by the
 * explorer's script mode and the diff view's. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/frame/keymap.h"
#include "tui/frame/script_steps.h"

struct keys {
    int v[16];
    int n;
    int quit_after; /* feed says quit after this many keys; 0: never */
};

static bool take(void *ud, int key)
{
    struct keys *k = ud;
    assert_true(k->n < 16);
    k->v[k->n++] = key;
    return k->quit_after == 0 || k->n < k->quit_after;
}

static void test_feed_keys(void **state)
{
    struct keys k = {0};
    assert_true(script_feed_keys("j k<Enter>", false, take, &k));
    assert_int_equal(k.n, 3);
    assert_int_equal(k.v[0], 'j');
    assert_int_equal(k.v[1], 'k');
    int enter;
    assert_int_not_equal(keymap_key_parse("<Enter>", &enter), 0);
    assert_int_equal(k.v[2], enter);

    /* Typed literally: blanks and '<' are characters. */
    memset(&k, 0, sizeof(k));
    assert_true(script_feed_keys("a <b", true, take, &k));
    assert_int_equal(k.n, 4);
    assert_int_equal(k.v[1], ' ');
    assert_int_equal(k.v[2], '<');
    assert_int_equal(k.v[3], 'b');

    /* An unknown <name> is the character '<' and the rest typed. */
    memset(&k, 0, sizeof(k));
    assert_true(script_feed_keys("<Nope>", false, take, &k));
    assert_int_equal(k.n, 6);
    assert_int_equal(k.v[0], '<');

    /* Text that is not keys (invalid UTF-8). */
    memset(&k, 0, sizeof(k));
    assert_false(script_feed_keys("j\xff", false, take, &k));

    /* Once the runner quits, the rest is not fed. */
    memset(&k, 0, sizeof(k));
    k.quit_after = 2;
    assert_true(script_feed_keys("abcd", false, take, &k));
    assert_int_equal(k.n, 2);
}

static void test_step_word(void **state)
{
    char word[8];
    assert_string_equal(script_step_word("filter  aten::mm x", word, sizeof(word)), "aten::mm x");
    assert_string_equal(word, "filter");
    assert_string_equal(script_step_word("quit", word, sizeof(word)), "");
    assert_string_equal(word, "quit");
    /* A word longer than the buffer is cut, the rest still found. */
    assert_string_equal(script_step_word("save-display out.txt", word, sizeof(word)), "out.txt");
    assert_string_equal(word, "save-di");
}

static void test_parse_size(void **state)
{
    int w = 0, h = 0;
    assert_true(script_parse_size("140x42", &w, &h));
    assert_int_equal(w, 140);
    assert_int_equal(h, 42);
    assert_true(script_parse_size("1000x1", &w, &h));
    assert_false(script_parse_size("0x42", &w, &h));
    assert_false(script_parse_size("140x1001", &w, &h));
    assert_false(script_parse_size("140", &w, &h));
    assert_false(script_parse_size("wide", &w, &h));
    assert_int_equal(w, 1000); /* untouched by a refusal */
}

static void test_reader(void **state)
{
    char path[] = "/tmp/torchtop-steps-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "# a comment\n\n   j  \n\t# indented comment\nkeys jj<Enter>\r\nquit";
    assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
    close(fd);
    struct script_reader r;
    assert_true(script_reader_open(&r, path));
    char *s = script_reader_next(&r);
    assert_non_null(s);
    assert_string_equal(s, "j");
    assert_int_equal(r.lineno, 3);
    s = script_reader_next(&r);
    assert_string_equal(s, "keys jj<Enter>");
    assert_int_equal(r.lineno, 5);
    s = script_reader_next(&r);
    assert_string_equal(s, "quit");
    assert_null(script_reader_next(&r));
    script_reader_close(&r);
    unlink(path);

    /* A file that is not there: a message and false. */
    assert_false(script_reader_open(&r, "/nonexistent/steps.txt"));
}

static void test_write_text(void **state)
{
    char dir[] = "/tmp/torchtop-steps-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof(path), "%s/screen.txt", dir);
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "line 1\nline 2\n");
    assert_true(script_write_text(path, &sb));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[64] = {0};
    assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), sb.len);
    fclose(f);
    assert_string_equal(buf, "line 1\nline 2\n");
    unlink(path);
    /* A directory that is not there. */
    snprintf(path, sizeof(path), "%s/no/screen.txt", dir);
    assert_false(script_write_text(path, &sb));
    rmdir(dir);
    sb_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feed_keys),  cmocka_unit_test(test_step_word),
        cmocka_unit_test(test_parse_size), cmocka_unit_test(test_reader),
        cmocka_unit_test(test_write_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
