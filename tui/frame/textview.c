/* Column scrolling, deep indents and menus of the text-drawn views
 * (tui/frame/textview.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/display.h"
#include "core/base/xalloc.h"
#include "tui/frame/actions.h"
#include "tui/frame/keymap.h"
#include "tui/frame/textview.h"

size_t textview_plan_cols(const size_t *w, size_t n, size_t fixed, size_t *scroll, size_t cols,
                          size_t gap, size_t *shown, bool *more)
{
    fixed = MIN(fixed, n);
    size_t scrollable = n - fixed;
    if (*scroll + 1 > scrollable)
        *scroll = scrollable ? scrollable - 1 : 0;
    size_t k = 0, x = 0;
    for (; k < fixed; k++) {
        x += (k ? gap : 0) + w[k];
        shown[k] = k;
    }
    size_t got = fixed;
    for (k = fixed + *scroll; k < n; k++) {
        size_t need = x + (got ? gap : 0) + w[k];
        /* Room for " ›" unless this is the last column. */
        size_t limit = k + 1 < n ? (cols > 2 ? cols - 2 : 0) : cols;
        if (need > limit && got > fixed)
            break;
        shown[got++] = k;
        x = need;
        if (x >= limit)
            break;
    }
    *more = got && shown[got - 1] + 1 < n;
    return got;
}

size_t textview_deep_indent(size_t levels, size_t depth, size_t room, size_t unit, bool ascii,
                            char *buf, size_t n)
{
    buf[0] = '\0';
    if (levels <= room)
        return levels;
    const char *dot = ascii ? "." : "\xc2\xb7";
    unit = unit ? unit : 1;
    snprintf(buf, n, "%s%zu%s", dot, depth, dot);
    /* Padded to whole levels, so that the guides after it stay aligned
     * from one row to the next. */
    size_t mw = display_width(buf, strlen(buf));
    for (size_t len = strlen(buf); mw % unit && len + 1 < n; len++, mw++)
        buf[len] = ' ', buf[len + 1] = '\0';
    size_t cols = room * unit;
    return mw < cols ? MIN(levels, (cols - mw) / unit) : 0;
}

void textview_menu_open(struct textview_menu *m, const char *title, char **items, int n, int cur)
{
    textview_menu_close(m);
    m->open = true;
    m->title = xstrdup(title);
    m->items = items;
    m->n = n;
    m->cur = CLAMP(cur, 0, n > 0 ? n - 1 : 0);
    m->top = 0;
}

void textview_menu_close(struct textview_menu *m)
{
    for (int i = 0; i < m->n; i++)
        free(m->items[i]);
    free(m->items);
    free(m->title);
    memset(m, 0, sizeof(*m));
}

enum action textview_menu_move(int *cur, int n, int key)
{
    /* The detail pane's table: moves and Enter, no pane's own letters. */
    enum action act = keymap_lookup(PANE_DETAIL, key);
    /* The numbers drawn beside the first nine items pick them. */
    if (key >= '1' && key <= '9' && key - '1' < n) {
        *cur = key - '1';
        return A_ACTIVATE;
    }
    switch (act) {
    case A_MOVE_DOWN:
        *cur = MIN(*cur + 1, n - 1);
        return A_NONE;
    case A_MOVE_UP:
        *cur = MAX(*cur - 1, 0);
        return A_NONE;
    case A_PAGE_DOWN:
        *cur = MIN(*cur + 10, n - 1);
        return A_NONE;
    case A_PAGE_UP:
        *cur = MAX(*cur - 10, 0);
        return A_NONE;
    case A_MOVE_FIRST:
        *cur = 0;
        return A_NONE;
    case A_MOVE_LAST:
        *cur = n - 1;
        return A_NONE;
    case A_ACTIVATE:
        return A_ACTIVATE;
    case A_QUIT:
    case A_CANCEL:
    case A_MOVE_LEFT:
        return A_CANCEL;
    default:
        return A_NONE;
    }
}

int textview_menu_key(struct textview_menu *m, int key)
{
    switch (textview_menu_move(&m->cur, m->n, key)) {
    case A_ACTIVATE: {
        int item = m->n ? m->cur : TEXTVIEW_MENU_CLOSED;
        textview_menu_close(m);
        return item;
    }
    case A_CANCEL:
        textview_menu_close(m);
        return TEXTVIEW_MENU_CLOSED;
    default:
        return TEXTVIEW_MENU_KEPT;
    }
}

static void put_line(struct strbuf *out, const char *s, int cols, bool ascii)
{
    display_fit(out, s, strlen(s), (size_t)MAX(cols, 1), false, ascii);
    sb_putc(out, '\n');
}

int textview_menu_lines(struct textview_menu *m, struct strbuf *out, int lines, int cols,
                        bool ascii, int *cursor_line)
{
    *cursor_line = -1;
    if (lines <= 0)
        return 0;
    char head[200];
    snprintf(head, sizeof(head), "%s (Enter or 1-9 picks, Esc closes)", m->title);
    put_line(out, head, cols, ascii);
    int rows = lines - 1;
    if (m->cur < m->top)
        m->top = m->cur;
    if (rows > 0 && m->cur >= m->top + rows)
        m->top = m->cur - rows + 1;
    for (int y = 0; y < rows && m->top + y < m->n; y++) {
        int i = m->top + y;
        char item[300];
        snprintf(item, sizeof(item), "%s%2d %s", i == m->cur ? "> " : "  ", i + 1, m->items[i]);
        if (i == m->cur)
            *cursor_line = 1 + y;
        put_line(out, item, cols, ascii);
    }
    return 1 + MIN(rows, m->n - m->top);
}
