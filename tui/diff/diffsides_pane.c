/* The sides pane of a trace diff (tui/diff/diffsides_pane.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "tui/diff/diffdata.h"
#include "tui/diff/diffsides_pane.h"
#include "tui/frame/detail.h"
#include "tui/frame/draw.h"
#include "tui/frame/keymap.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"

struct sides_pane {
    const struct diffdata *dd; /* borrowed */
    int keytab;
    int cur; /* 0 control, 1 test */
};

static struct sides_pane *sp_of(struct pane *p)
{
    return pane_priv(p, &diffsides_pane_ops);
}

static void sides_draw(struct pane *p, struct view *a)
{
    struct sides_pane *sp = sp_of(p);
    werase(p->win);
    const char *title = " Sides (Enter opens the trace of one; q or Backspace there comes back)";
    draw_fit(p->win, 0, 0, p->r.w, title, strlen(title), false, false,
             color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE), a->ascii);
    struct strbuf sb = STRBUF_INIT;
    for (int k = 0; k < 2 && 1 + k < p->r.h; k++) {
        sb_clear(&sb);
        diffdata_side_text(sp->dd, k, &sb, a->ascii);
        attr_t at =
            k == sp->cur ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT) : A_NORMAL;
        draw_fit(p->win, 1 + k, 0, p->r.w, sb_str(&sb), sb.len, false, false, at, a->ascii);
    }
    sb_free(&sb);
}

static unsigned sides_action(struct pane *p, struct view *a, enum action act,
                             struct pane_request *req)
{
    struct sides_pane *sp = sp_of(p);
    switch (act) {
    case A_MOVE_UP:
    case A_MOVE_FIRST:
    case A_PAGE_UP:
        sp->cur = 0;
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_MOVE_DOWN:
    case A_MOVE_LAST:
    case A_PAGE_DOWN:
        sp->cur = 1;
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_ACTIVATE:
        req->kind = REQ_OPEN;
        req->ev = (uint32_t)sp->cur;
        return R_HANDLED;
    default:
        return R_NONE;
    }
}

static unsigned sides_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                            struct pane_request *req)
{
    struct sides_pane *sp = sp_of(p);
    if (y == 1 || y == 2) {
        sp->cur = y - 1;
        if (dbl)
            return sides_action(p, a, A_ACTIVATE, req) | R_DIRTY;
    }
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static void sides_describe(struct pane *p, struct view *a, struct detail_out *d)
{
    struct sides_pane *sp = sp_of(p);
    const struct trace *t = sp->dd->td->t[sp->cur];
    detail_heading(d, sp->cur ? "Test side" : "Control side");
    struct strbuf sb = STRBUF_INIT;
    diffdata_side_text(sp->dd, sp->cur, &sb, a->ascii);
    detail_wrap(d, NULL, sb_str(&sb), sb.len, C_DEFAULT);
    const char *path = t->path ? t->path : "-";
    detail_wrap(d, "file", path, strlen(path), C_DEFAULT);
    detail_kvf(d, "events", "%zu", (size_t)t->ev.n);
    detail_textf(d, C_DIM, "Enter opens this trace in the explorer");
    sb_free(&sb);
}

static void sides_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    snprintf(buf, n, "%d/2", sp_of(p)->cur + 1);
}

static int sides_keytab(struct pane *p, struct view *a)
{
    return sp_of(p)->keytab;
}

static void sides_free(struct pane *p)
{
    free(sp_of(p));
}

const struct pane_ops diffsides_pane_ops = {
    .name = "sides",
    .draw = sides_draw,
    .on_action = sides_action,
    .on_click = sides_click,
    .describe = sides_describe,
    .position = sides_position,
    .free = sides_free,
    .keytab = sides_keytab,
};

struct pane *diffsides_pane_new(const struct diffdata *dd, int keytab)
{
    struct sides_pane *sp = xcalloc(1, sizeof(*sp));
    sp->dd = dd;
    sp->keytab = keytab;
    return pane_new(&diffsides_pane_ops, PANE_TIMELINE, sp);
}
