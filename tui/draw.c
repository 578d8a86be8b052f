/* Fitted text into curses windows. */
#include "config.h"

#include <string.h>

#include "core/strbuf.h"
#include "tui/draw.h"
#include "tui/text.h"

static struct strbuf scratch;

static void put(WINDOW *w, int y, int x, const char *s, size_t n, attr_t attr)
{
    wattrset(w, (int)attr);
    mvwaddnstr(w, y, x, s, (int)n);
    wattrset(w, A_NORMAL);
}

int draw_fit(WINDOW *w, int y, int x, int width, const char *s, size_t n, bool middle, bool right,
             attr_t attr, bool ascii)
{
    if (width <= 0)
        return 0;
    sb_clear(&scratch);
    size_t cols;
    if (right) {
        struct strbuf tmp = STRBUF_INIT;
        cols = text_fit(&tmp, s, n, (size_t)width, middle, ascii);
        text_pad(&scratch, (size_t)width - cols);
        sb_putn(&scratch, sb_str(&tmp), tmp.len);
        sb_free(&tmp);
    } else {
        cols = text_fit(&scratch, s, n, (size_t)width, middle, ascii);
        text_pad(&scratch, (size_t)width - cols);
    }
    put(w, y, x, sb_str(&scratch), scratch.len, attr);
    return (int)cols;
}

int draw_str(WINDOW *w, int y, int x, int width, const char *s, attr_t attr, bool ascii)
{
    if (width <= 0)
        return 0;
    sb_clear(&scratch);
    size_t cols = text_fit(&scratch, s, strlen(s), (size_t)width, false, ascii);
    put(w, y, x, sb_str(&scratch), scratch.len, attr);
    return (int)cols;
}

void draw_raw(WINDOW *w, int y, int x, const char *s, attr_t attr)
{
    put(w, y, x, s, strlen(s), attr);
}

void draw_blank(WINDOW *w, int y, int x, int width, attr_t attr)
{
    if (width <= 0)
        return;
    sb_clear(&scratch);
    text_pad(&scratch, (size_t)width);
    put(w, y, x, sb_str(&scratch), scratch.len, attr);
}
