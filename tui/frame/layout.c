/* Pane rectangles from the screen size (no curses). */
#include "config.h"

#include <string.h>

#include "core/base/common.h"
#include "tui/frame/layout.h"

bool rect_contains(const struct rect *r, int y, int x)
{
    return r->h > 0 && r->w > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

static struct rect mk(int y, int x, int h, int w)
{
    return (struct rect){y, x, h, w};
}

bool layout_compute(int lines, int cols, const struct layout_cfg *cfg, struct layout *out)
{
    memset(out, 0, sizeof(*out));
    if (lines < LAYOUT_MIN_LINES || cols < LAYOUT_MIN_COLS) {
        out->too_small = true;
        return false;
    }
    int head = 2 + CLAMP(cfg->header_extra, 0, LAYOUT_MAX_HEADER_EXTRA);
    out->r[L_HEADER] = mk(0, 0, head, cols);
    out->r[L_MESSAGE] = mk(lines - 2, 0, 1, cols);
    out->r[L_KEYBAR] = mk(lines - 1, 0, 1, cols);
    int top = head, body = lines - 2 - head;

    if (cfg->maximized >= 0 && cfg->maximized < L__COUNT && cfg->maximized != L_HEADER &&
        cfg->maximized != L_MESSAGE && cfg->maximized != L_KEYBAR) {
        out->r[cfg->maximized] = mk(top, 0, body, cols);
        return true;
    }

    /* Timeline: a title, the lanes and an axis; at most a quarter of the
     * body unless the configuration says otherwise. */
    int lanes = MAX(cfg->timeline_lanes, 1);
    int pct =
        cfg->timeline_pct > 0 && lines >= LAYOUT_TALL_LINES ? CLAMP(cfg->timeline_pct, 10, 75) : 25;
    int th = CLAMP(lanes + 2, 3, MAX(3, body * pct / 100));
    out->r[L_TIMELINE] = mk(top + body - th, 0, th, cols);
    int mh = body - th;
    pct = cfg->table_pct ? CLAMP(cfg->table_pct, 10, 90) : 40;

    bool short_screen = lines < LAYOUT_FOCUS_LINES || cfg->focus_first;
    int f = cfg->focus;
    if (cols >= LAYOUT_SIDE_COLS) {
        int dw = CLAMP(cols * 36 / 100, 36, 72);
        int lw = cols - dw;
        int tabh = MAX(4, mh * pct / 100);
        if (short_screen && f == L_TABLE)
            tabh = MAX(4, mh - 4);
        else if (short_screen && f == L_TREE)
            tabh = MIN(4, mh - 4);
        out->r[L_TABLE] = mk(top, 0, tabh, lw);
        out->r[L_TREE] = mk(top + tabh, 0, mh - tabh, lw);
        out->r[L_DETAIL] = mk(top, lw, mh, dw);
    } else {
        int dh = MAX(3, mh * 28 / 100);
        int rest = mh - dh;
        int tabh = MAX(3, rest * pct / 100);
        /* Short: the others keep a title and a row or two (3 lines). */
        if (short_screen && (f == L_TABLE || f == L_TREE || f == L_DETAIL)) {
            dh = f == L_DETAIL ? MAX(3, mh - 6) : 3;
            rest = mh - dh;
            tabh = f == L_TABLE ? MAX(3, rest - 3) : 3;
        }
        out->r[L_TABLE] = mk(top, 0, tabh, cols);
        out->r[L_TREE] = mk(top + tabh, 0, rest - tabh, cols);
        out->r[L_DETAIL] = mk(top + rest, 0, dh, cols);
    }
    return true;
}
