/* The detail pane: the selection described by its pane (detail.h), wrapped
 * to the pane's width, with a cursor line (Enter on a line naming an event
 * selects it); or, after `t`, the traceback view (traceback_pane.h) in its
 * place. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/detail.h"
#include "tui/draw.h"
#include "tui/traceback_pane.h"

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
    size_t cur;      /* cursor line */
    char source[16]; /* pane the text describes */
    struct pane *src; /* the pane described (borrowed), NULL: none */
    int desc_w;       /* text width when it was described */
    struct pane *tb; /* the traceback view (owned), made on first use */
    bool tb_on;      /* shown instead of the text */
};

static struct detail_pane *dp_of(struct pane *p)
{
    return p->priv;
}

/* The traceback view when it is shown, with this pane's window lent. */
static struct pane *shown_tb(struct pane *p)
{
    struct detail_pane *dp = dp_of(p);
    if (!dp->tb_on)
        return NULL;
    dp->tb->win = p->win;
    dp->tb->r = p->r;
    return dp->tb;
}

static void clear_layout(struct detail_pane *dp)
{
    for (size_t i = 0; i < dp->clean.n; i++)
        free(dp->clean.v[i]);
    dp->clean.n = 0;
    dp->lines.n = 0;
    dp->laid_w = -1;
}

static void lay_out(struct pane *p, struct app *a, int w)
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

static void detail_draw(struct pane *p, struct app *a)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *tb = shown_tb(p);
    if (tb) {
        pane_draw(tb, a);
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
        attr_t cur = dp->top + (size_t)y == dp->cur && a->focus == p->id
                         ? color_attr(C_SELECT_FOCUS)
                         : 0;
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

/* Enter or a click on the cursor line: select the event it names. */
static unsigned follow_link(struct pane *p, struct app *a)
{
    struct detail_pane *dp = dp_of(p);
    uint32_t ev = dp->cur < dp->lines.n ? dp->d.lines.v[dp->lines.v[dp->cur].dl].ev : IDX_NONE;
    if (ev == IDX_NONE || ev >= a->t->ev.n) {
        app_message(a, "Enter selects the event a line names (parents, GPU work, partner op)");
        return R_HANDLED | R_DIRTY;
    }
    app_jump(a, ev);
    return R_HANDLED | R_DIRTY_ALL;
}

static unsigned detail_action(struct pane *p, struct app *a, enum action act)
{
    struct detail_pane *dp = dp_of(p);
    long rows = MAX(1, p->r.h - 1);
    long max_top = (long)dp->lines.n > rows ? (long)dp->lines.n - rows : 0;
    long top = (long)dp->top, cur = (long)dp->cur;
    struct pane *tb = shown_tb(p);
    if (tb) {
        unsigned r = pane_action(tb, a, act);
        if (r & R_HANDLED)
            return r;
        if (act != A_BACK && act != A_MOVE_LEFT)
            return R_NONE;
        dp->tb_on = false;
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
        return follow_link(p, a);
    case A_MOVE_LEFT:
        return app_action(a, A_BACK);
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

static unsigned detail_click(struct pane *p, struct app *a, int y, int x, bool dbl)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *tb = shown_tb(p);
    if (tb)
        return tb->ops->on_click(tb, a, y, x, dbl);
    size_t line = dp->top + (size_t)y - 1;
    if (y < 1 || line >= dp->lines.n)
        return R_HANDLED;
    dp->cur = line;
    if (dp->d.lines.v[dp->lines.v[line].dl].ev == IDX_NONE)
        return R_HANDLED | R_DIRTY;
    return follow_link(p, a);
}

static unsigned detail_search(struct pane *p, struct app *a, int dir)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *tb = shown_tb(p);
    if (tb)
        return tb->ops->search(tb, a, dir);
    size_t n = dp->lines.n;
    for (size_t k = 1; k <= n; k++) {
        size_t i = dir >= 0 ? (dp->top + k) % n : (dp->top + n - k % n) % n;
        const struct pline *pl = &dp->lines.v[i];
        const struct dline *l = &dp->d.lines.v[pl->dl];
        if (pattern_match(&a->search, l->val) || (l->key && pattern_match(&a->search, l->key))) {
            dp->top = dp->cur = i;
            app_message(a, "/%s: line %zu", a->search.text, i + 1);
            return R_HANDLED | R_DIRTY;
        }
    }
    app_error(a, "/%s: not in the detail pane", a->search.text);
    return R_HANDLED;
}

static void detail_position(struct pane *p, struct app *a, char *buf, size_t n)
{
    struct detail_pane *dp = dp_of(p);
    struct pane *tb = shown_tb(p);
    if (tb) {
        tb->ops->position(tb, a, buf, n);
        return;
    }
    snprintf(buf, n, "line %zu/%zu", dp->lines.n ? dp->cur + 1 : 0, dp->lines.n);
}

static int detail_keytab(struct pane *p, struct app *a)
{
    struct pane *tb = shown_tb(p);
    return tb ? pane_keytab(tb, a) : PANE_DETAIL;
}

static unsigned detail_tick(struct pane *p, struct app *a, bool wait)
{
    struct detail_pane *dp = dp_of(p);
    if (!dp->tb)
        return R_NONE;
    unsigned r = pane_tick(dp->tb, a, wait);
    if (r && dp->tb_on)
        p->dirty = true;
    return r;
}

static bool detail_busy(struct pane *p)
{
    struct detail_pane *dp = dp_of(p);
    return dp->tb && pane_busy(dp->tb);
}

static void detail_free_priv(struct pane *p)
{
    struct detail_pane *dp = dp_of(p);
    pane_free(dp->tb);
    clear_layout(dp);
    detail_clear(&dp->d);
    VEC_FREE(&dp->d.lines);
    VEC_FREE(&dp->clean);
    VEC_FREE(&dp->lines);
    free(dp);
}

static const struct pane_ops detail_ops = {
    .name = "detail",
    .draw = detail_draw,
    .on_action = detail_action,
    .on_click = detail_click,
    .search = detail_search,
    .position = detail_position,
    .free = detail_free_priv,
    .keytab = detail_keytab,
    .tick = detail_tick,
    .busy = detail_busy,
};

struct pane *detail_pane_new(struct app *a)
{
    struct pane *p = xcalloc(1, sizeof(*p));
    struct detail_pane *dp = xcalloc(1, sizeof(*dp));
    p->ops = &detail_ops;
    p->id = PANE_DETAIL;
    p->priv = dp;
    dp->laid_w = -1;
    return p;
}

void detail_pane_refresh(struct pane *p, struct app *a, struct pane *source)
{
    struct detail_pane *dp = dp_of(p);
    detail_clear(&dp->d);
    clear_layout(dp);
    dp->top = dp->cur = 0;
    snprintf(dp->source, sizeof(dp->source), "%s", source ? source->ops->name : "-");
    dp->src = source;
    dp->desc_w = p->r.w - (p->r.x > 0 ? 2 : 0);
    if (source && source->ops->describe)
        source->ops->describe(source, a, &dp->d);
    if (dp->tb_on && source)
        traceback_view_load(dp->tb, a, source);
    p->dirty = true;
}

unsigned detail_pane_traceback(struct pane *p, struct app *a)
{
    struct detail_pane *dp = dp_of(p);
    if (dp->tb_on && a->focus == p->id) {
        dp->tb_on = false;
        p->dirty = true;
        app_message(a, "details of the selection; t shows its traceback");
        return R_HANDLED | R_DIRTY;
    }
    if (!dp->tb)
        dp->tb = traceback_view_new(a);
    if (!dp->tb_on) {
        dp->tb_on = true;
        traceback_view_load(dp->tb, a, a->panes[a->source]);
    }
    app_focus(a, PANE_DETAIL);
    p->dirty = true;
    app_message(a, "Enter shows a frame's source; t the details");
    return R_HANDLED | R_DIRTY;
}
