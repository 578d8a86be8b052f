/* The detail pane: the selection described by its pane (detail.h), wrapped
 * to the pane's width, with a cursor line (Enter on a line naming an event
 * asks for it in the call tree); or a pane the app lends (the traceback
 * view after `t`) in its place. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/detail.h"
#include "tui/frame/detail_pane.h"
#include "tui/frame/draw.h"

#define MAX_WRAP 40

struct pline {
    uint32_t dl;       /* index of the logical line */
    uint32_t off, len; /* bytes of the cleaned value shown here */
    bool first;        /* first physical line of dl (shows the key) */
};

struct detail_pane {
    struct detail_out d;
    VEC(char *) clean; /* cleaned value per logical line */
    VEC(struct pline) lines;
    int laid_w; /* width the lines were made for, -1 = stale */
    int key_w;
    size_t top;
    size_t cur;         /* cursor line */
    char source[16];    /* pane the text describes */
    struct pane *src;   /* the pane described (borrowed), NULL: none */
    int desc_w;         /* text width when it was described */
    struct pane *inset; /* shown instead of the text (borrowed), NULL: the text */
};

static struct detail_pane *dp_of(struct pane *p)
{
    return pane_priv(p, &detail_pane_ops);
}

/* The inset when it is shown, with this pane's window lent. */
static struct pane *shown_inset(struct pane *p)
{
    struct detail_pane *dp = dp_of(p);
    if (!dp->inset)
        return NULL;
    dp->inset->win = p->win;
    dp->inset->r = p->r;
    return dp->inset;
}

static void clear_layout(struct detail_pane *dp)
{
    for (size_t i = 0; i < dp->clean.n; i++)
        free(dp->clean.v[i]);
    dp->clean.n = 0;
    dp->lines.n = 0;
    dp->laid_w = -1;
}

static void lay_out(struct pane *p, struct view *a, int w)
{
    struct detail_pane *dp = dp_of(p);
    clear_layout(dp);
    dp->laid_w = w;
    int kw = 0;
    for (size_t i = 0; i < dp->d.lines.n; i++) {
        const struct dline *l = &dp->d.lines.v[i];
        if (l->key)
            kw = MAX(kw, (int)text_width(l->key, strlen(l->key)));
    }
    dp->key_w = MIN(kw, MAX(8, w / 3));
    size_t starts[MAX_WRAP];
    for (size_t i = 0; i < dp->d.lines.n; i++) {
        const struct dline *l = &dp->d.lines.v[i];
        struct strbuf sb = STRBUF_INIT;
        text_clean(&sb, l->val, l->vlen, a->ascii);
        size_t len = sb.len;
        char *c = sb_steal(&sb);
        VEC_PUSH(&dp->clean, c ? c : xstrdup(""));
        int vx = l->key ? dp->key_w + 2 : 0;
        int vw = MAX(1, w - vx);
        size_t n = 1;
        starts[0] = 0;
        if (l->wrap && !l->heading)
            n = text_wrap(dp->clean.v[i], len, (size_t)vw, starts, MAX_WRAP);
        for (size_t k = 0; k < n; k++) {
            size_t end = k + 1 < n ? starts[k + 1] : len;
            VEC_PUSH(&dp->lines, ((struct pline){(uint32_t)i, (uint32_t)starts[k],
                                                 (uint32_t)(end - starts[k]), k == 0}));
        }
    }
}

static void detail_draw(struct pane *p, struct view *a)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *in = shown_inset(p);
    if (in) {
        pane_draw(in, a);
        return;
    }
    werase(p->win);
    /* A separator column when the pane sits beside others. */
    int x0 = p->r.x > 0 ? 2 : 0;
    if (x0)
        for (int y = 0; y < p->r.h; y++)
            draw_raw(p->win, y, 0, a->g->vline, color_attr(C_GUIDE));
    int w = p->r.w - x0;
    if (dp->src && dp->src->ops->describe && dp->desc_w != w) {
        /* Some sections are made for the width (the roofline plot):
         * describe again, keeping the scroll. */
        size_t top = dp->top, cur = dp->cur;
        detail_clear(&dp->d);
        clear_layout(dp);
        dp->desc_w = w;
        dp->d.width = w;
        dp->src->ops->describe(dp->src, a, &dp->d);
        dp->top = top;
        dp->cur = cur;
    }
    attr_t tattr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    char title[64];
    snprintf(title, sizeof(title), " Detail (%s)", dp->source);
    draw_fit(p->win, 0, x0 ? 1 : 0, p->r.w - (x0 ? 1 : 0), title, strlen(title), false, false,
             tattr, a->ascii);
    if (dp->laid_w != w)
        lay_out(p, a, w);
    int rows = p->r.h - 1;
    if (dp->cur >= dp->lines.n)
        dp->cur = dp->lines.n ? dp->lines.n - 1 : 0;
    if (dp->lines.n <= (size_t)rows)
        dp->top = 0;
    else if (dp->top > dp->lines.n - (size_t)rows)
        dp->top = dp->lines.n - (size_t)rows;
    if (!dp->lines.n) {
        draw_str(p->win, 1, x0, w, "(nothing selected)", color_attr(C_DIM), a->ascii);
        return;
    }
    for (int y = 0; y < rows && dp->top + (size_t)y < dp->lines.n; y++) {
        const struct pline *pl = &dp->lines.v[dp->top + (size_t)y];
        const struct dline *l = &dp->d.lines.v[pl->dl];
        const char *val = dp->clean.v[pl->dl] + pl->off;
        attr_t cur =
            dp->top + (size_t)y == dp->cur && a->focus == p->id ? color_attr(C_SELECT_FOCUS) : 0;
        int x = x0;
        if (cur)
            draw_blank(p->win, 1 + y, x, w, cur);
        if (l->heading) {
            draw_fit(p->win, 1 + y, x, w, val, pl->len, false, false,
                     cur ? cur : color_attr(C_COLHEAD), a->ascii);
            continue;
        }
        if (l->key) {
            if (pl->first)
                draw_fit(p->win, 1 + y, x, dp->key_w, l->key, strlen(l->key), true, false,
                         cur ? cur : color_attr(C_DETAIL_KEY), a->ascii);
            x += dp->key_w + 2;
        }
        draw_fit(p->win, 1 + y, x, x0 + w - x, val, pl->len, true, false,
                 cur ? cur : color_attr(l->elem), a->ascii);
    }
}

/* Enter or a click on the cursor line: ask for the event it names. */
static unsigned follow_link(struct pane *p, struct view *a, struct pane_request *req)
{
    struct detail_pane *dp = dp_of(p);
    uint32_t ev = dp->cur < dp->lines.n ? dp->d.lines.v[dp->lines.v[dp->cur].dl].ev : IDX_NONE;
    if (ev == IDX_NONE || !a->t || ev >= a->t->ev.n) {
        view_message(a, "Enter selects the event a line names (parents, GPU work, partner op)");
        return R_HANDLED | R_DIRTY;
    }
    req->kind = REQ_JUMP;
    req->ev = ev;
    return R_HANDLED | R_DIRTY_ALL;
}

static unsigned detail_action(struct pane *p, struct view *a, enum action act,
                              struct pane_request *req)
{
    struct detail_pane *dp = dp_of(p);
    long rows = MAX(1, p->r.h - 1);
    long max_top = (long)dp->lines.n > rows ? (long)dp->lines.n - rows : 0;
    long top = (long)dp->top, cur = (long)dp->cur;
    struct pane *in = shown_inset(p);
    if (in) {
        unsigned r = pane_action(in, a, act, req);
        if (r & R_HANDLED)
            return r;
        if (act != A_BACK && act != A_MOVE_LEFT)
            return R_NONE;
        dp->inset = NULL;
        return R_HANDLED | R_DIRTY;
    }
    switch (act) {
    case A_MOVE_UP:
        cur--;
        break;
    case A_MOVE_DOWN:
        cur++;
        break;
    case A_PAGE_UP:
        top -= rows - 1;
        cur -= rows - 1;
        break;
    case A_PAGE_DOWN:
        top += rows - 1;
        cur += rows - 1;
        break;
    case A_MOVE_FIRST:
        cur = 0;
        break;
    case A_MOVE_LAST:
        cur = (long)dp->lines.n - 1;
        break;
    case A_ACTIVATE:
        return follow_link(p, a, req);
    case A_MOVE_LEFT:
        req->kind = REQ_BACK;
        return R_HANDLED;
    default:
        return R_NONE;
    }
    /* The cursor stays in view; the view moves only as far as it must. */
    cur = CLAMP(cur, 0, MAX(0, (long)dp->lines.n - 1));
    top = CLAMP(top, cur - rows + 1, cur);
    dp->cur = (size_t)cur;
    dp->top = (size_t)CLAMP(top, 0, max_top);
    return R_HANDLED | R_DIRTY;
}

static unsigned detail_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                             struct pane_request *req)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *in = shown_inset(p);
    if (in)
        return in->ops->on_click ? in->ops->on_click(in, a, y, x, dbl, req) : R_HANDLED;
    size_t line = dp->top + (size_t)y - 1;
    if (y < 1 || line >= dp->lines.n)
        return R_HANDLED;
    dp->cur = line;
    if (dp->d.lines.v[dp->lines.v[line].dl].ev == IDX_NONE)
        return R_HANDLED | R_DIRTY;
    return follow_link(p, a, req);
}

static unsigned detail_search(struct pane *p, struct view *a, int dir, struct pane_request *req)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *in = shown_inset(p);
    if (in)
        return in->ops->search ? in->ops->search(in, a, dir, req) : R_HANDLED;
    size_t n = dp->lines.n;
    bool *hit = xcalloc(n ? n : 1, sizeof(*hit));
    for (size_t i = 0; i < n; i++) {
        const struct dline *l = &dp->d.lines.v[dp->lines.v[i].dl];
        hit[i] = pattern_match(&a->search, l->val) || (l->key && pattern_match(&a->search, l->key));
    }
    size_t rank, total;
    bool wrapped;
    size_t i = pattern_next_hit(hit, n, dp->top, dir, &rank, &total, &wrapped);
    free(hit);
    if (i == SIZE_MAX) {
        view_error(a, "/%s: not in the detail pane", a->search.text);
        return R_HANDLED;
    }
    dp->top = dp->cur = i;
    view_message(a, "/%s: match %zu of %zu (line %zu of %zu)%s", a->search.text, rank, total, i + 1,
                 n, wrapped ? " (wrapped)" : "");
    return R_HANDLED | R_DIRTY;
}

static void detail_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *in = shown_inset(p);
    if (in) {
        if (in->ops->position)
            in->ops->position(in, a, buf, n);
        return;
    }
    snprintf(buf, n, "line %zu/%zu", dp->lines.n ? dp->cur + 1 : 0, dp->lines.n);
}

static int detail_keytab(struct pane *p, struct view *a)
{
    struct pane *in = shown_inset(p);
    return in ? pane_keytab(in, a) : PANE_DETAIL;
}

static void detail_free_priv(struct pane *p)
{
    struct detail_pane *dp = dp_of(p);
    clear_layout(dp);
    detail_clear(&dp->d);
    VEC_FREE(&dp->d.lines);
    VEC_FREE(&dp->clean);
    VEC_FREE(&dp->lines);
    free(dp);
}

const struct pane_ops detail_pane_ops = {
    .name = "detail",
    .draw = detail_draw,
    .on_action = detail_action,
    .on_click = detail_click,
    .search = detail_search,
    .position = detail_position,
    .free = detail_free_priv,
    .keytab = detail_keytab,
};

struct pane *detail_pane_new(struct view *a)
{
    struct detail_pane *dp = xcalloc(1, sizeof(*dp));
    dp->laid_w = -1;
    return pane_new(&detail_pane_ops, PANE_DETAIL, dp);
}

void detail_pane_refresh(struct pane *p, struct view *a, struct pane *source)
{
    if (!pane_is(p, &detail_pane_ops))
        return;
    struct detail_pane *dp = dp_of(p);
    detail_clear(&dp->d);
    clear_layout(dp);
    dp->top = dp->cur = 0;
    snprintf(dp->source, sizeof(dp->source), "%s", source ? source->ops->name : "-");
    dp->src = source;
    dp->desc_w = p->r.w - (p->r.x > 0 ? 2 : 0);
    dp->d.width = dp->desc_w;
    if (source && source->ops->describe)
        source->ops->describe(source, a, &dp->d);
    p->dirty = true;
}

void detail_pane_set_inset(struct pane *p, struct pane *inset)
{
    if (!pane_is(p, &detail_pane_ops))
        return;
    dp_of(p)->inset = inset;
    p->dirty = true;
}

struct pane *detail_pane_inset(struct pane *p)
{
    return pane_is(p, &detail_pane_ops) ? dp_of(p)->inset : NULL;
}
