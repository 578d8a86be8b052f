/* Overlays over the panes: the help, menus (the sort menu) and the
 * one-line prompt of search and filter. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/utf8.h"
#include "tui/frame/app.h"
#include "tui/frame/draw.h"
#include "tui/frame/help.h"
#include "tui/frame/overlay.h"
#include "tui/frame/textview.h"

void overlay_close(struct app *a)
{
    if (a->ov == OV_MENU) {
        for (int i = 0; i < a->menu.n; i++)
            free(a->menu.items[i]);
        free(a->menu.items);
        free(a->menu.title);
        memset(&a->menu, 0, sizeof(a->menu));
    }
    if (a->ov == OV_PROMPT)
        sb_free(&a->prompt.text);
    a->ov = OV_NONE;
    if (a->w_overlay) {
        delwin(a->w_overlay);
        a->w_overlay = NULL;
    }
    app_react(a, R_DIRTY_ALL);
}

/* ------------------------------------------------------------------------ */
/* Help                                                                     */
/* ------------------------------------------------------------------------ */

/* The help for the focused pane and mode, lines longer than width wrapped
 * at a blank, continued under the description column. Returns the count. */
static int help_lines(struct strbuf *sb, struct app *a, int pane, int width)
{
    struct strbuf raw = STRBUF_INIT;
    help_text_mode(&raw, pane, (enum help_mode)a->doc->help_mode);
    if (a->doc->nviews)
        help_views(&raw, a->doc->view_names, a->doc->nviews);
    enum { DESC_COL = 2 + 20 + 1 + 15 + 1 };
    int n = 0;
    const char *line = sb_str(&raw), *end = line + raw.len;
    while (line < end) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl)
            nl = end;
        int indent = 0;
        while (nl - line + indent > width && width > DESC_COL + 10) {
            int room = width - indent;
            const char *cut = line + room;
            while (cut > line + 1 && *cut != ' ')
                cut--;
            if (cut <= line + 1)
                cut = line + room;
            text_pad(sb, (size_t)indent);
            sb_putn(sb, line, (size_t)(cut - line));
            sb_putc(sb, '\n');
            n++;
            line = *cut == ' ' ? cut + 1 : cut;
            indent = DESC_COL;
        }
        text_pad(sb, (size_t)indent);
        sb_putn(sb, line, (size_t)(nl - line));
        sb_putc(sb, '\n');
        n++;
        line = nl + 1;
    }
    sb_free(&raw);
    return n;
}

static void draw_box(WINDOW *w, struct app *a, const char *title)
{
    int h, wd;
    getmaxyx(w, h, wd);
    werase(w);
    for (int y = 0; y < h; y++)
        draw_blank(w, y, 0, wd, color_attr(C_POPUP));
    /* Drawn from strings rather than ACS so that every terminal and the
     * screen dumps of script mode show the same characters. */
    const char *hz = a->v.ascii ? "-" : "\xe2\x94\x80", *vt = a->v.ascii ? "|" : "\xe2\x94\x82";
    const char *c[4] = {"+", "+", "+", "+"};
    if (!a->v.ascii) {
        c[0] = "\xe2\x94\x8c";
        c[1] = "\xe2\x94\x90";
        c[2] = "\xe2\x94\x94";
        c[3] = "\xe2\x94\x98";
    }
    attr_t at = color_attr(C_POPUP);
    for (int x = 1; x < wd - 1; x++) {
        draw_raw(w, 0, x, hz, at);
        draw_raw(w, h - 1, x, hz, at);
    }
    for (int y = 1; y < h - 1; y++) {
        draw_raw(w, y, 0, vt, at);
        draw_raw(w, y, wd - 1, vt, at);
    }
    draw_raw(w, 0, 0, c[0], at);
    draw_raw(w, 0, wd - 1, c[1], at);
    draw_raw(w, h - 1, 0, c[2], at);
    draw_raw(w, h - 1, wd - 1, c[3], at);
    draw_str(w, 0, 2, wd - 4, title, color_attr(C_POPUP) | A_BOLD, a->v.ascii);
}

static void help_draw(struct app *a)
{
    int h = MAX(3, a->lines - 2), w = MIN(a->cols - 2, 160);
    if (!a->w_overlay)
        a->w_overlay = newwin(h, w, (a->lines - h) / 2, (a->cols - w) / 2);
    WINDOW *win = a->w_overlay;
    draw_box(win, a, " Help ");
    struct strbuf sb = STRBUF_INIT;
    int n = help_lines(&sb, a, pane_keytab(a->panes[a->v.focus], &a->v), w - 4);
    int rows = h - 2;
    a->help_top = CLAMP(a->help_top, 0, MAX(0, n - rows));
    const char *line = sb_str(&sb);
    for (int i = 0; i < n; i++) {
        const char *nl = strchr(line, '\n');
        int y = i - a->help_top;
        if (y >= 0 && y < rows) {
            bool title = line[0] != ' ' && nl != line;
            draw_fit(win, 1 + y, 2, w - 4, line, (size_t)(nl - line), false, false,
                     color_attr(C_POPUP) | (title ? A_BOLD : 0), a->v.ascii);
        }
        line = nl + 1;
    }
    sb_free(&sb);
    if (n > rows) {
        char more[64];
        snprintf(more, sizeof(more), " %d-%d of %d ", a->help_top + 1, MIN(n, a->help_top + rows),
                 n);
        draw_raw(win, h - 1, w - 2 - (int)strlen(more), more, color_attr(C_POPUP));
    }
}

static unsigned help_key(struct app *a, int key)
{
    enum action act = keymap_lookup(PANE_DETAIL, key);
    int page = MAX(1, a->lines - 5);
    switch (act) {
    case A_MOVE_DOWN:
        a->help_top++;
        break;
    case A_MOVE_UP:
        a->help_top--;
        break;
    case A_PAGE_DOWN:
        a->help_top += page;
        break;
    case A_PAGE_UP:
        a->help_top -= page;
        break;
    case A_MOVE_FIRST:
        a->help_top = 0;
        break;
    case A_MOVE_LAST:
        a->help_top = 1 << 20;
        break;
    case A_QUIT:
    case A_CANCEL:
    case A_HELP:
    case A_ACTIVATE:
        overlay_close(a);
        return R_HANDLED;
    default:
        break;
    }
    return R_HANDLED;
}

/* ------------------------------------------------------------------------ */
/* Menu                                                                     */
/* ------------------------------------------------------------------------ */

static void menu_draw(struct app *a)
{
    struct menu *m = &a->menu;
    int w = 0;
    for (int i = 0; i < m->n; i++)
        w = MAX(w, (int)text_width(m->items[i], strlen(m->items[i])));
    w = CLAMP(w + 6, 24, a->cols - 2);
    int h = MIN(m->n + 2, a->lines - 2);
    if (!a->w_overlay)
        a->w_overlay = newwin(h, w, (a->lines - h) / 2, (a->cols - w) / 2);
    WINDOW *win = a->w_overlay;
    draw_box(win, a, m->title);
    int rows = h - 2;
    if (m->cur < m->top)
        m->top = m->cur;
    if (m->cur >= m->top + rows)
        m->top = m->cur - rows + 1;
    for (int y = 0; y < rows && m->top + y < m->n; y++) {
        int i = m->top + y;
        char num[16];
        snprintf(num, sizeof(num), "%2d ", i + 1);
        attr_t at = i == m->cur ? color_attr(C_SELECT_FOCUS) : color_attr(C_POPUP);
        draw_blank(win, 1 + y, 1, w - 2, at);
        draw_raw(win, 1 + y, 1, num, at);
        draw_str(win, 1 + y, 4, w - 6, m->items[i], at, a->v.ascii);
    }
}

static unsigned menu_key(struct app *a, int key)
{
    struct menu *m = &a->menu;
    switch (textview_menu_move(&m->cur, m->n, key)) {
    case A_ACTIVATE: {
        menu_pick_fn pick = m->pick;
        void *ctx = m->ctx;
        int item = m->cur;
        overlay_close(a);
        if (pick) {
            unsigned r = pick(a, ctx, item);
            if (r)
                app_react(a, r);
        }
        return R_HANDLED;
    }
    case A_CANCEL:
        overlay_close(a);
        return R_HANDLED;
    default:
        break;
    }
    return R_HANDLED;
}

/* ------------------------------------------------------------------------ */
/* Prompt                                                                   */
/* ------------------------------------------------------------------------ */

static void put_utf8(struct strbuf *sb, int cp)
{
    char u[4];
    if (cp < 0x80) {
        sb_putc(sb, (char)cp);
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3f));
        sb_putn(sb, u, 2);
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        sb_putn(sb, u, 3);
    } else if (cp < 0x110000) {
        u[0] = (char)(0xf0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        sb_putn(sb, u, 4);
    }
}

static unsigned prompt_key(struct app *a, int key)
{
    struct prompt *pr = &a->prompt;
    if (key == '\n') {
        char *text = xstrdup(sb_str(&pr->text));
        prompt_done_fn done = pr->done;
        void *ctx = pr->ctx;
        overlay_close(a);
        if (done)
            done(a, ctx, text);
        free(text);
        return R_HANDLED;
    }
    if (key == KEY_ESC || key == KEY_CTRL('c') || key == KEY_CTRL('g')) {
        overlay_close(a);
        app_message(a, "cancelled");
        return R_HANDLED;
    }
    if (key == KEYF(KEY_BACKSPACE)) {
        if (!pr->text.len) {
            overlay_close(a);
            return R_HANDLED;
        }
        size_t n = pr->text.len - 1;
        while (n > 0 && (pr->text.s[n] & 0xc0) == 0x80)
            n--;
        pr->text.len = n;
        pr->text.s[n] = '\0';
    } else if (key == KEY_CTRL('u')) {
        sb_clear(&pr->text);
    } else if (!KEY_IS_FN(key) && key >= 0x20 && key != 0x7f) {
        put_utf8(&pr->text, key);
    }
    a->v.dirty_chrome = true;
    return R_HANDLED;
}

void overlay_prompt(struct app *a, const char *label, const char *initial, prompt_done_fn done,
                    void *ctx)
{
    if (a->ov != OV_NONE)
        overlay_close(a);
    a->ov = OV_PROMPT;
    snprintf(a->prompt.label, sizeof(a->prompt.label), "%s", label);
    memset(&a->prompt.text, 0, sizeof(a->prompt.text));
    if (initial)
        sb_puts(&a->prompt.text, initial);
    a->prompt.done = done;
    a->prompt.ctx = ctx;
    a->v.dirty_chrome = true;
}

/* ------------------------------------------------------------------------ */

unsigned overlay_key(struct app *a, int key)
{
    switch (a->ov) {
    case OV_HELP:
        return help_key(a, key);
    case OV_MENU:
        return menu_key(a, key);
    case OV_PROMPT:
        return prompt_key(a, key);
    default:
        return R_NONE;
    }
}

void overlay_draw(struct app *a)
{
    switch (a->ov) {
    case OV_HELP:
        help_draw(a);
        break;
    case OV_MENU:
        menu_draw(a);
        break;
    default:
        return;
    }
    if (a->w_overlay) {
        touchwin(a->w_overlay);
        wnoutrefresh(a->w_overlay);
    }
}
