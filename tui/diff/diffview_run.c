/* The diff view on the terminal, and headless under a script
 * (tui/diff/diffview.h). */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "tui/frame/colors.h"
#include "tui/diff/diffview.h"
#include "tui/frame/keymap.h"
#include "tui/frame/script_steps.h"
#include "tui/frame/term.h"

/* Header lines drawn in the title colour, and the line of the column
 * titles (under the title and the lines of the two sides and the
 * change). */
#define TITLE_LINES 1
#define COLUMN_TITLES 4

static void draw(struct diffview *dv)
{
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    struct strbuf sb = STRBUF_INIT;
    int cursor;
    diffview_screen(dv, lines, cols, &sb, &cursor);
    erase();
    const char *p = sb_str(&sb);
    for (int y = 0; y < lines && *p; y++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        attr_t at = y < TITLE_LINES      ? color_attr(C_TITLE_FOCUS)
                    : y == cursor        ? A_REVERSE
                    : y == COLUMN_TITLES ? A_BOLD
                                         : A_NORMAL;
        attrset(at);
        mvaddnstr(y, 0, p, (int)n);
        if (y < TITLE_LINES || y == cursor)
            for (int x = (int)display_width(p, n); x < cols; x++)
                addch(' ');
        attrset(A_NORMAL);
        p = nl ? nl + 1 : p + n;
    }
    refresh();
    sb_free(&sb);
}

int diffview_run(struct diffview *dv, bool mono)
{
    if (!term_open(mono))
        return 1;
    for (;;) {
        draw(dv);
        int key;
        if (!term_read_key(&key))
            break;
        if (key == KEYF(KEY_RESIZE))
            continue;
        if (diffview_key(dv, key, LINES, COLS) == DIFFVIEW_QUIT)
            break;
    }
    term_close();
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Scripts                                                                  */
/* ------------------------------------------------------------------------ */

struct headless {
    struct diffview *dv;
    int lines, cols;
    bool quit;
};

/* The screen as the terminal shows it, trailing blanks trimmed. */
static void screen_text(struct headless *h, struct strbuf *out)
{
    struct strbuf sb = STRBUF_INIT;
    int cursor;
    diffview_screen(h->dv, h->lines, h->cols, &sb, &cursor);
    const char *p = sb.s ? sb.s : "", *end = p + sb.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        while (n > 0 && p[n - 1] == ' ')
            n--;
        sb_putn(out, p, n);
        sb_putc(out, '\n');
        p = nl ? nl + 1 : end;
    }
    sb_free(&sb);
}

static bool save_display(struct headless *h, const char *path)
{
    struct strbuf sb = STRBUF_INIT;
    screen_text(h, &sb);
    bool ok = script_write_text(path, &sb);
    sb_free(&sb);
    return ok;
}

static bool feed(void *ud, int key)
{
    struct headless *h = ud;
    if (diffview_key(h->dv, key, h->lines, h->cols) == DIFFVIEW_QUIT)
        h->quit = true;
    return !h->quit;
}

static bool feed_keys(struct headless *h, const char *s, bool literal)
{
    return script_feed_keys(s, literal, feed, h);
}

static int step(struct headless *h, const struct script_reader *r, char *line)
{
    char word[48];
    const char *arg = script_step_word(line, word, sizeof(word));
    struct diffview *dv = h->dv;
    if (strcmp(word, "save-display") == 0) {
        if (!*arg)
            return script_fail(r, line, "save-display needs a file name");
        return save_display(h, arg) ? 0 : script_fail(r, line, "cannot write the screen");
    }
    if (strcmp(word, "expect") == 0) {
        struct strbuf sb = STRBUF_INIT;
        screen_text(h, &sb);
        bool ok = strstr(sb_str(&sb), arg) != NULL;
        if (!ok)
            fprintf(stderr, "%s", sb_str(&sb));
        sb_free(&sb);
        return ok ? 0 : script_fail(r, line, "the screen does not show it");
    }
    if (strcmp(word, "resize") == 0) {
        return script_parse_size(arg, &h->cols, &h->lines)
                   ? 0
                   : script_fail(r, line, "resize needs WIDTHxHEIGHT");
    }
    if (strcmp(word, "type") == 0)
        return feed_keys(h, arg, true) ? 0 : script_fail(r, line, "bad text");
    if (strcmp(word, "keys") == 0)
        return feed_keys(h, arg, false) ? 0 : script_fail(r, line, "bad key");
    if (strcmp(word, "filter") == 0)
        return diffview_set_filter(dv, *arg ? arg : NULL) ? 0 : script_fail(r, line, dv->msg);
    if (strcmp(word, "view") == 0) {
        static const char *const views[DV__TABS] = {"ops", "tree", "lca", "unique-args",
                                                    "roofline"};
        for (int i = 0; i < DV__TABS; i++)
            if (strcmp(arg, views[i]) == 0) {
                diffview_show(dv, (enum diffview_tab)i);
                return 0;
            }
        return script_fail(r, line, "no such view");
    }
    if (strcmp(word, "sort-by") == 0)
        return diffview_sort_by(dv, arg) ? 0 : script_fail(r, line, "no such column in this view");
    enum action act = action_find(word);
    if (act != A_NONE && !*arg) {
        if (diffview_action(dv, act, h->lines, h->cols) == DIFFVIEW_QUIT)
            h->quit = true;
        return 0;
    }
    return feed_keys(h, line, false) ? 0 : script_fail(r, line, "unknown step");
}

int diffview_script(struct diffview *dv, const char *path, int lines, int cols)
{
    struct script_reader r;
    if (!script_reader_open(&r, path))
        return 1;
    struct headless h = {dv, lines > 0 ? lines : 30, cols > 0 ? cols : 100, false};
    int rc = 0;
    char *s;
    while (!h.quit && (s = script_reader_next(&r)) && !(rc = step(&h, &r, s)))
        ;
    script_reader_close(&r);
    return rc;
}
