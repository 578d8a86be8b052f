/* Fitted text into curses windows. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "tui/frame/draw.h"
#include "tui/frame/text.h"

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

void draw_stacked_bar(WINDOW *w, int y, int cols, const char *label, const struct bar_part *parts,
                      int nparts)
{
    char item[8][48];
    int lw = 0;
    nparts = MIN(nparts, 8);
    for (int k = 0; k < nparts; k++) {
        snprintf(item[k], sizeof(item[k]), "%s %.1f%%", parts[k].name, 100 * parts[k].share);
        lw += 3 + (int)strlen(item[k]);
    }
    /* " GPU [" or " MTIA [": the bar starts after the label. */
    char head[16];
    snprintf(head, sizeof(head), " %.6s [", label);
    int hw = (int)strlen(head);
    int bw = cols - hw - 1 - lw;
    if (bw < 10) {
        bw = cols - hw - 1;
        lw = 0;
    }
    draw_raw(w, y, 0, head, color_attr(C_HEADER));
    /* Cells per part, rounding so that they add up to bw. */
    int x = hw, used = 0;
    double acc = 0;
    for (int k = 0; k < nparts; k++) {
        acc += parts[k].share;
        int upto = k == nparts - 1 ? bw : (int)(acc * bw + 0.5);
        upto = CLAMP(upto, used, bw);
        for (; used < upto; used++)
            draw_raw(w, y, x + used, parts[k].glyph, color_attr(parts[k].elem));
    }
    draw_raw(w, y, x + bw, "]", color_attr(C_HEADER));
    if (!lw)
        return;
    x = hw + bw + 1;
    for (int k = 0; k < nparts; k++) {
        draw_raw(w, y, x + 1, parts[k].glyph, color_attr(parts[k].elem));
        draw_raw(w, y, x + 2, item[k], color_attr(C_HEADER));
        x += 3 + (int)strlen(item[k]);
    }
}
