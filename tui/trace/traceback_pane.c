/* The traceback view of the detail pane: frames of the selection with a
 * cursor, the source preview, and native frames resolved on demand. */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols/kname.h"
#include "core/symbols/symbolize.h"
#include "core/base/hmap.h"
#include "core/base/srcpath.h"
#include "core/analysis/analysis.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/draw.h"
#include "tui/snapshot/snapview.h"
#include "tui/frame/srcview.h"
#include "tui/trace/tbframe.h"
#include "tui/trace/traceback_pane.h"

#define TAG_W 9

enum tbv_mode { TBV_FRAMES, TBV_SOURCE };
enum res_state { RES_NONE, RES_PENDING, RES_DONE };

/* A displayed row: a frame, or one call of a resolved native frame. */
struct tbrow {
    uint32_t frame; /* index into tb.frames */
    int32_t sub;    /* -1: the frame as recorded; k: frame k of its resolution */
};

/* The symbolizer's answer for a raw snapshot frame. */
struct tbres {
    uint8_t state; /* enum res_state */
    struct sym_result r;
};

struct tbview {
    struct traceback tb;
    VEC(uint32_t) sframes; /* snapshot frame id per tb frame, IDX_NONE for none */
    VEC(struct tbrow) rows;
    struct listview lv;
    struct strbuf what;        /* what the traceback is of */
    struct tb_subject subject; /* the selection shown */
    uint64_t key;              /* identity of the selection shown */
    bool loaded;
    bool all;      /* frames hidden by the frame filter shown too */
    size_t hidden; /* frames left out */
    enum tbv_mode mode;
    struct srcview src;
    struct symbolizer *sym; /* created for the first raw frame */
    struct hmap res_of;     /* snapshot frame id -> index into res */
    VEC(struct tbres) res;
};

static struct tbview *tv_of(struct pane *p)
{
    return pane_priv(p, &traceback_pane_ops);
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */
/* ------------------------------------------------------------------------ */

static const struct snap_frame *sframe_of(struct view *a, struct tbview *tv, uint32_t i)
{
    if (!a->snap || i >= tv->sframes.n || tv->sframes.v[i] == IDX_NONE)
        return NULL;
    return snapshot_frame(a->snap->s, tv->sframes.v[i]);
}

static bool frame_raw(struct view *a, struct tbview *tv, uint32_t i)
{
    const struct snap_frame *sf = sframe_of(a, tv, i);
    return sf && (sf->flags & SFF_RAW);
}

static struct tbres *res_of(struct tbview *tv, uint32_t i)
{
    if (i >= tv->sframes.n || tv->sframes.v[i] == IDX_NONE)
        return NULL;
    uint32_t k = hmap_get(&tv->res_of, tv->sframes.v[i]);
    return k == IDX_NONE ? NULL : &tv->res.v[k];
}

static void build_rows(struct view *a, struct tbview *tv)
{
    tv->rows.n = 0;
    for (uint32_t i = 0; i < tv->tb.frames.n; i++) {
        struct tbres *r = frame_raw(a, tv, i) ? res_of(tv, i) : NULL;
        if (r && r->state == RES_DONE && r->r.nframes) {
            for (size_t k = 0; k < r->r.nframes; k++)
                VEC_PUSH(&tv->rows, ((struct tbrow){i, (int32_t)k}));
        } else {
            VEC_PUSH(&tv->rows, ((struct tbrow){i, -1}));
        }
    }
    tv->lv.n = tv->rows.n;
    listview_clamp(&tv->lv);
}

/* ------------------------------------------------------------------------ */
/* Resolution                                                               */
/* ------------------------------------------------------------------------ */

/* Queue the raw frames of the traceback that have no answer yet, newest
 * first (the rows at the top are answered first). */
static void request_raw(struct view *a, struct tbview *tv)
{
    for (uint32_t i = 0; i < tv->tb.frames.n; i++) {
        const struct snap_frame *sf = sframe_of(a, tv, i);
        if (!sf || !(sf->flags & SFF_RAW))
            continue;
        uint32_t id = tv->sframes.v[i];
        uint32_t k = hmap_get(&tv->res_of, id);
        if (k == IDX_NONE) {
            k = (uint32_t)tv->res.n;
            struct tbres *r = VEC_ADD(&tv->res);
            memset(r, 0, sizeof(*r));
            hmap_put(&tv->res_of, id, k);
        }
        struct tbres *r = &tv->res.v[k];
        if (r->state != RES_NONE)
            continue;
        if (!tv->sym)
            tv->sym = symbolizer_new(NULL);
        symbolizer_request(tv->sym, snapshot_str(a->snap->s, sf->filename), (uint64_t)sf->line, id);
        r->state = RES_PENDING;
    }
}

/* Drop requests of a traceback no longer shown: they are asked again when
 * it is (the one being resolved still answers and is kept). */
static void forget_requests(struct tbview *tv)
{
    if (!tv->sym)
        return;
    symbolizer_cancel(tv->sym);
    for (size_t i = 0; i < tv->res.n; i++)
        if (tv->res.v[i].state == RES_PENDING)
            tv->res.v[i].state = RES_NONE;
}

static bool answers_waiting(struct tbview *tv)
{
    struct pollfd pfd = {.fd = symbolizer_notify_fd(tv->sym), .events = POLLIN};
    return poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN);
}

static bool tv_busy(struct pane *p)
{
    struct tbview *tv = tv_of(p);
    return tv->sym && (symbolizer_pending(tv->sym) > 0 || answers_waiting(tv));
}

static size_t take_answers(struct tbview *tv)
{
    size_t taken = 0;
    struct sym_answer *ans[32];
    size_t n;
    while ((n = symbolizer_poll(tv->sym, ans, 32)) > 0) {
        for (size_t i = 0; i < n; i++) {
            uint32_t k = hmap_get(&tv->res_of, ans[i]->tag);
            if (k != IDX_NONE && tv->res.v[k].state != RES_DONE) {
                struct tbres *r = &tv->res.v[k];
                r->r = ans[i]->result;
                sym_result_init(&ans[i]->result);
                r->state = RES_DONE;
                taken++;
            }
            sym_answer_free(ans[i]);
        }
    }
    return taken;
}

static unsigned tv_tick(struct pane *p, struct view *a, bool wait)
{
    struct tbview *tv = tv_of(p);
    if (!tv->sym)
        return R_NONE;
    size_t taken = 0;
    for (;;) {
        /* Requests finished before this poll are all taken by it. */
        size_t before = symbolizer_pending(tv->sym);
        taken += take_answers(tv);
        if (!wait || before == 0)
            break;
        struct pollfd pfd = {.fd = symbolizer_notify_fd(tv->sym), .events = POLLIN};
        poll(&pfd, 1, 200);
    }
    if (!taken)
        return R_NONE;
    /* Keep the cursor on its frame while rows are added above it. */
    uint32_t frame = tv->lv.cur < tv->rows.n ? tv->rows.v[tv->lv.cur].frame : 0;
    build_rows(a, tv);
    if (tv->lv.cur < tv->rows.n && tv->rows.v[tv->lv.cur].frame != frame)
        for (size_t i = 0; i < tv->rows.n; i++)
            if (tv->rows.v[i].frame == frame) {
                listview_set(&tv->lv, i);
                break;
            }
    return R_HANDLED;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */
/* ------------------------------------------------------------------------ */

static void load_stack(struct view *a, struct tbview *tv, uint32_t stack)
{
    const struct snapshot *s = a->snap->s;
    const uint32_t *f;
    size_t n = snapshot_stack(s, stack, &f);
    for (size_t i = 0; i < n; i++) {
        const struct snap_frame *fr = snapshot_frame(s, f[i]);
        if ((fr->flags & SFF_HIDDEN) && !tv->all) {
            tv->hidden++;
            continue;
        }
        enum tb_kind k = (fr->flags & SFF_INDUCTOR) ? TB_INDUCTOR
                         : (fr->flags & SFF_PYTHON) ? TB_PYTHON
                                                    : TB_NATIVE;
        const char *file = snapshot_str(s, fr->filename);
        traceback_push(&tv->tb, k, snapshot_str(s, fr->name), file[0] ? file : NULL, fr->line);
        VEC_PUSH(&tv->sframes, f[i]);
    }
}

void traceback_pane_load(struct pane *p, struct view *a, const struct tb_subject *s)
{
    if (!pane_is(p, &traceback_pane_ops))
        return;
    struct tbview *tv = tv_of(p);
    uint64_t key = UINT64_MAX;
    /* s may be tv->subject itself (all-frames shows it again). */
    memmove(&tv->subject, s, sizeof(*s));
    s = &tv->subject;
    forget_requests(tv);
    traceback_clear(&tv->tb);
    tv->sframes.n = 0;
    tv->hidden = 0;
    sb_clear(&tv->what);
    if (a->snap) {
        if (s->picked) {
            key = s->pick.key;
            sb_puts(&tv->what, s->pick.what);
            load_stack(a, tv, s->pick.stack);
        }
    } else {
        uint32_t ev = s->ev;
        if (ev != IDX_NONE && ev < a->t->ev.n) {
            key = ev;
            sb_puts(&tv->what, ev_name(a->t, ev));
            traceback_of_event_forward(&tv->tb, a->t, ev);
            for (size_t i = 0; i < tv->tb.frames.n; i++)
                VEC_PUSH(&tv->sframes, IDX_NONE);
        }
    }
    if (!tv->loaded || key != tv->key) {
        tv->lv.cur = tv->lv.top = 0;
        if (tv->mode == TBV_SOURCE)
            srcview_done(&tv->src);
        tv->mode = TBV_FRAMES;
    }
    tv->key = key;
    tv->loaded = true;
    build_rows(a, tv);
    request_raw(a, tv);
    p->dirty = true;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

static const char *kind_tag(const struct tb_frame *f)
{
    if (f->flags & TBF_MODULE)
        return "module";
    if (f->flags & TBF_ANNOTATION)
        return "annot";
    return tb_kind_name((enum tb_kind)f->kind);
}

static enum color_elem kind_elem(const struct tb_frame *f)
{
    switch (f->kind) {
    case TB_PYTHON:
    case TB_INDUCTOR:
        return (f->flags & TBF_MODULE) ? C_THREAD : C_PYTHON;
    case TB_OP:
        return C_OP;
    case TB_RUNTIME:
        return C_RUNTIME;
    case TB_KERNEL:
        return C_KERNEL;
    default:
        return C_DEFAULT;
    }
}

static bool unknown_file(const char *file)
{
    return !file || !file[0] || strcmp(file, "??") == 0;
}

/* A C++ name as rows show it: simplified (core/symbols/kname.h) unless full. */
static void put_name(struct strbuf *out, const char *name, bool cxx, bool full)
{
    if (cxx && !full)
        kname_simplify_put(out, name, strlen(name));
    else
        sb_puts(out, name);
}

/* The tag, name and location of a row (C++ names simplified unless full);
 * `dim` is text for after the location (why a frame is unresolved). */
static void row_text(struct view *a, struct tbview *tv, const struct tbrow *row, bool full,
                     const char **tag, struct strbuf *name, struct strbuf *loc, const char **dim)
{
    const struct tb_frame *f = &tv->tb.frames.v[row->frame];
    *tag = kind_tag(f);
    *dim = NULL;
    struct tbres *r = frame_raw(a, tv, row->frame) ? res_of(tv, row->frame) : NULL;
    if (row->sub >= 0 && r) {
        const struct sym_frame *sf = &r->r.frames[row->sub];
        *tag = (size_t)row->sub + 1 < r->r.nframes ? "inlined" : "native";
        put_name(name, sf->function ? sf->function : "??", true, full);
        if (sf->file) {
            sb_puts(loc, sf->file);
            if (sf->line)
                sb_printf(loc, ":%u", sf->line);
        } else {
            sb_printf(loc, "%s+0x%llx", base_name(f->file ? f->file : "?"),
                      (unsigned long long)f->line);
        }
        return;
    }
    put_name(name, f->name, f->kind == TB_NATIVE || f->kind == TB_KERNEL, full);
    if (r) {
        sb_printf(loc, "%s+0x%llx", base_name(f->file ? f->file : "?"),
                  (unsigned long long)f->line);
        if (r->state != RES_DONE)
            *dim = a->ascii ? "resolving..." : "resolving\xe2\x80\xa6";
        else
            *dim = r->r.reason ? r->r.reason : sym_status_name(r->r.status);
        return;
    }
    if (!unknown_file(f->file)) {
        sb_puts(loc, f->file);
        if (f->line > 0)
            sb_printf(loc, ":%lld", (long long)f->line);
    }
    /* The first frame of the forward op says so; the rest follow it. */
    if ((f->flags & TBF_FORWARD) &&
        (row->frame == 0 || !(tv->tb.frames.v[row->frame - 1].flags & TBF_FORWARD)))
        *dim = "(forward of this backward op)";
    else if (f->flags & TBF_FORWARD)
        return;
    else if (f->flags & TBF_CROSS_THREAD)
        *dim = "(another thread)";
    else if ((f->flags & TBF_CAPTURED) &&
             (row->frame == 0 || !(tv->tb.frames.v[row->frame - 1].flags & TBF_CAPTURED)))
        *dim = "(from the capture)";
    else if (!(f->flags & TBF_CAPTURED) && row->frame > 0 &&
             (tv->tb.frames.v[row->frame - 1].flags & TBF_CAPTURED))
        *dim = "(replayed the capture)";
}

static void draw_title(struct pane *p, struct view *a, int x0, const char *text, size_t n)
{
    attr_t tattr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    draw_fit(p->win, 0, x0 ? 1 : 0, p->r.w - (x0 ? 1 : 0), text, n, true, false, tattr, a->ascii);
}

/* Lines at the bottom that show the cursor's frame in full. */
static int footer_h(struct pane *p)
{
    return p->r.h >= 10 ? 2 : 0;
}

static void draw_footer(struct pane *p, struct view *a, int x0, int y, int h)
{
    struct tbview *tv = tv_of(p);
    if (!h || tv->lv.cur >= tv->rows.n)
        return;
    int w = p->r.w - x0;
    struct strbuf name = STRBUF_INIT, loc = STRBUF_INIT, clean = STRBUF_INIT;
    const char *tag, *dim;
    row_text(a, tv, &tv->rows.v[tv->lv.cur], true, &tag, &name, &loc, &dim);
    if (loc.len) {
        sb_puts(&name, "  ");
        sb_putn(&name, loc.s, loc.len);
    }
    text_clean(&clean, sb_str(&name), name.len, a->ascii);
    size_t starts[2];
    size_t n = text_wrap(sb_str(&clean), clean.len, (size_t)MAX(1, w), starts, 2);
    draw_blank(p->win, y, x0, w, color_attr(C_GUIDE));
    for (size_t k = 0; k < n && (int)k < h; k++) {
        size_t end = k + 1 < n ? starts[k + 1] : clean.len;
        draw_fit(p->win, y + (int)k, x0, w, clean.s + starts[k], end - starts[k], k + 1 == n, false,
                 color_attr(C_DIM), a->ascii);
    }
    sb_free(&name);
    sb_free(&loc);
    sb_free(&clean);
}

static void draw_frames(struct pane *p, struct view *a, int x0)
{
    struct tbview *tv = tv_of(p);
    int w = p->r.w - x0;
    struct strbuf sb = STRBUF_INIT, name = STRBUF_INIT, loc = STRBUF_INIT;
    /* The frame count is in the position ("frame 3/34"). */
    sb_printf(&sb, " Traceback (%s)", tv->subject.source);
    if (tv->what.len) {
        sb_puts(&sb, ": ");
        sb_putn(&sb, tv->what.s, tv->what.len);
    }
    if (tv->hidden)
        sb_printf(&sb, ", %zu frame%s hidden", tv->hidden, tv->hidden == 1 ? "" : "s");
    attr_t tattr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    draw_fit(p->win, 0, x0 ? 1 : 0, p->r.w - (x0 ? 1 : 0), sb_str(&sb), sb.len, false, false, tattr,
             a->ascii);
    int fh = tv->rows.n ? footer_h(p) : 0;
    tv->lv.height = MAX(1, p->r.h - 1 - fh);
    listview_clamp(&tv->lv);
    if (!tv->rows.n) {
        const char *why = !tv->what.len ? "(nothing selected)"
                          : a->snap     ? "(no traceback recorded for this: allocated before "
                                          "_record_memory_history, or without context)"
                                        : "(no traceback)";
        draw_str(p->win, 1, x0, w, why, color_attr(C_DIM), a->ascii);
        sb_free(&sb);
        return;
    }
    for (int y = 0; y < tv->lv.height; y++) {
        size_t i = tv->lv.top + (size_t)y;
        if (i >= tv->rows.n)
            break;
        const struct tbrow *row = &tv->rows.v[i];
        const struct tb_frame *f = &tv->tb.frames.v[row->frame];
        const char *tag, *dim;
        sb_clear(&name);
        sb_clear(&loc);
        row_text(a, tv, row, false, &tag, &name, &loc, &dim);
        bool cur = i == tv->lv.cur;
        attr_t sel = cur ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT) : 0;
        if (cur)
            draw_blank(p->win, 1 + y, x0, w, sel);
        int x = x0;
        draw_fit(p->win, 1 + y, x, MIN(TAG_W - 1, w), tag, strlen(tag), false, false,
                 sel ? sel : color_attr(C_DIM), a->ascii);
        x += TAG_W;
        int rest = x0 + w - x;
        if (rest <= 0)
            continue;
        sb_clear(&sb);
        if (dim) {
            if (loc.len)
                sb_putc(&loc, ' ');
            sb_puts(&loc, dim);
        }
        int nw = (int)text_width(sb_str(&name), name.len);
        int lw = (int)text_width(sb_str(&loc), loc.len);
        if (lw && nw + 2 + lw > rest) {
            /* Python paths say more than function names; C++ names more
             * than their files. */
            int share = f->kind == TB_PYTHON || f->kind == TB_INDUCTOR ? 55 : 35;
            int lmax = MAX(rest * share / 100, rest - nw - 2);
            lw = MIN(lw, lmax);
        }
        nw = lw ? rest - lw - 2 : rest;
        attr_t na = sel ? sel : color_attr(kind_elem(f));
        if (row->sub >= 0)
            na = sel ? sel : color_attr(C_DEFAULT);
        int used =
            draw_fit(p->win, 1 + y, x, nw, sb_str(&name), name.len, true, false, na, a->ascii);
        if (lw > 0) {
            /* The location right after a short name, else in its column. */
            int lx = x + MIN(used, nw) + 2;
            lx = MIN(lx, x0 + w - lw);
            draw_fit(p->win, 1 + y, lx, x0 + w - lx, sb_str(&loc), loc.len, true, false,
                     sel ? sel : color_attr(C_DIM), a->ascii);
        }
    }
    sb_free(&sb);
    sb_free(&name);
    sb_free(&loc);
    draw_footer(p, a, x0, p->r.h - fh, fh);
}

static void draw_source(struct pane *p, struct view *a, int x0)
{
    struct tbview *tv = tv_of(p);
    int w = p->r.w - x0;
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, " Source: %s", tv->src.path);
    if (tv->src.line > 0)
        sb_printf(&sb, ":%lld", (long long)tv->src.line);
    draw_title(p, a, x0, sb_str(&sb), sb.len);
    sb_free(&sb);
    int y = 1;
    if (tv->src.note && y < p->r.h) {
        draw_fit(p->win, y++, x0, w, tv->src.note, strlen(tv->src.note), true, false,
                 color_attr(C_DIM), a->ascii);
    }
    if (tv->src.cut && y < p->r.h) {
        char buf[96];
        snprintf(buf, sizeof(buf), "(only the first %u MB of the file are shown)",
                 SRCVIEW_MAX_BYTES >> 20);
        draw_str(p->win, y++, x0, w, buf, color_attr(C_DIM), a->ascii);
    }
    if (!srcview_lines(&tv->src) && y < p->r.h)
        draw_str(p->win, y, x0, w, "(empty file)", color_attr(C_DIM), a->ascii);
    srcview_draw(&tv->src, a, p->win, y, x0, p->r.h - y, w, a->focus == p->id);
}

static int body_h(struct pane *p)
{
    struct tbview *tv = tv_of(p);
    int h = p->r.h - 1 - (tv->src.note ? 1 : 0) - (tv->src.cut ? 1 : 0);
    return MAX(1, h);
}

static void tv_draw(struct pane *p, struct view *a)
{
    werase(p->win);
    int x0 = p->r.x > 0 ? 2 : 0;
    if (x0)
        for (int y = 0; y < p->r.h; y++)
            draw_raw(p->win, y, 0, a->g->vline, color_attr(C_GUIDE));
    if (tv_of(p)->mode == TBV_SOURCE)
        draw_source(p, a, x0);
    else
        draw_frames(p, a, x0);
}

/* ------------------------------------------------------------------------ */
/* Source                                                                   */
/* ------------------------------------------------------------------------ */

/* File and line of a row for the preview; false with a message when the
 * row has none. */
static bool row_location(struct view *a, struct tbview *tv, const struct tbrow *row,
                         const char **file, int64_t *line)
{
    const struct tb_frame *f = &tv->tb.frames.v[row->frame];
    struct tbres *r = frame_raw(a, tv, row->frame) ? res_of(tv, row->frame) : NULL;
    if (row->sub >= 0 && r) {
        const struct sym_frame *sf = &r->r.frames[row->sub];
        if (!sf->file) {
            view_error(a, "no source file known for %s",
                       sf->function ? sf->function : "this frame");
            return false;
        }
        *file = sf->file;
        *line = sf->line;
        return true;
    }
    switch (tbframe_classify(f, r != NULL)) {
    case TBC_SOURCE:
        *file = f->file;
        *line = f->line;
        return true;
    case TBC_RESOLVE:
        if (r && r->state == RES_DONE)
            view_error(a, "this native frame could not be resolved: %s",
                       r->r.reason ? r->r.reason : sym_status_name(r->r.status));
        else
            view_message(a, "this native frame is being resolved");
        return false;
    default:
        if (f->kind == TB_NATIVE)
            view_error(a, "no source location recorded for this native frame");
        else if (f->file && f->file[0] == '<')
            view_error(a, "%s is not a file: this code was not read from one", f->file);
        else {
            long j = tbframe_source_below(&tv->tb, row->frame);
            const char *kind = tb_kind_name((enum tb_kind)f->kind);
            if (j < 0)
                view_message(a, "%s frames have no source file, nor do the frames below", kind);
            else if (tv->tb.frames.v[j].kind == TB_PYTHON)
                view_message(a, "%s frames have no source file; the Python frames below do", kind);
            else
                view_message(a, "%s frames have no source file; the %s frame below has one", kind,
                             tb_kind_name((enum tb_kind)tv->tb.frames.v[j].kind));
        }
        return false;
    }
}

/* No file found for a frame's path: the pane lists the places tried. */
static void show_looked(struct pane *p, struct view *a, const char *file,
                        const struct strbuf *looked)
{
    struct tbview *tv = tv_of(p);
    srcview_done(&tv->src);
    srcview_set_text(&tv->src, sb_str(looked), looked->len, a->ascii);
    tv->src.path = xstrdup(file);
    tv->src.line = 0;
    tv->src.listing = true;
    tv->src.note =
        xstrdup("Not found on this machine; looked in (see --source-path, --source-map):");
    tv->mode = TBV_SOURCE;
    view_error(a, "cannot show %s: not found (Backspace: back)", file);
}

static unsigned open_source(struct pane *p, struct view *a)
{
    struct tbview *tv = tv_of(p);
    if (tv->lv.cur >= tv->rows.n)
        return R_HANDLED;
    const struct tbrow *row = &tv->rows.v[tv->lv.cur];
    const char *file;
    int64_t line;
    if (!row_location(a, tv, row, &file, &line))
        return R_HANDLED;
    char why[128];
    struct strbuf looked = STRBUF_INIT;
    char *found = a->srcpath ? srcpath_find(a->srcpath, file, &looked) : xstrdup(file);
    if (!found) {
        show_looked(p, a, file, &looked);
        sb_free(&looked);
        return R_HANDLED | R_DIRTY;
    }
    sb_free(&looked);
    bool opened = srcview_open(&tv->src, found, line, a->ascii, why, sizeof(why));
    if (!opened)
        view_error(a, "cannot show %s: %s", found, why);
    free(found);
    if (!opened)
        return R_HANDLED;
    const struct tb_frame *f = &tv->tb.frames.v[row->frame];
    if (f->kind == TB_INDUCTOR && row->sub < 0) {
        if (line <= 0) {
            /* A kernel named by its generated file: mark its definition. */
            char *def = xasprintf("def %s(", f->name);
            tv->src.line = line = srcview_find(&tv->src, def);
            free(def);
        }
        long o = tbframe_original(&tv->tb, row->frame);
        struct strbuf sb = STRBUF_INIT;
        sb_puts(&sb, "Inductor generated code; original source: ");
        if (o >= 0) {
            const struct tb_frame *of = &tv->tb.frames.v[o];
            sb_printf(&sb, "%s:%lld in %s", of->file ? of->file : "?", (long long)of->line,
                      of->name);
        } else {
            sb_puts(&sb, "not recorded");
        }
        tv->src.note = sb_steal(&sb);
    }
    tv->mode = TBV_SOURCE;
    tv->src.top = srcview_top_for(srcview_lines(&tv->src), tv->src.line, body_h(p));
    if (line > 0 && (size_t)line > srcview_lines(&tv->src))
        view_error(a, "%s has %zu line%s, not %lld%s", file, srcview_lines(&tv->src),
                   srcview_lines(&tv->src) == 1 ? "" : "s", (long long)line,
                   tv->src.cut ? " in what was read" : "");
    else
        view_message(a, "Backspace goes back to the frames");
    return R_HANDLED | R_DIRTY;
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

static unsigned tv_action(struct pane *p, struct view *a, enum action act, struct pane_request *req)
{
    struct tbview *tv = tv_of(p);
    if (tv->mode == TBV_SOURCE) {
        if (srcview_action(&tv->src, act, body_h(p)))
            return R_HANDLED | R_DIRTY;
        switch (act) {
        case A_BACK:
        case A_MOVE_LEFT:
        case A_CANCEL:
            tv->mode = TBV_FRAMES;
            srcview_done(&tv->src);
            a->msg[0] = '\0';
            return R_HANDLED | R_DIRTY;
        case A_SOURCE:
        case A_ACTIVATE:
        case A_MOVE_RIGHT:
        case A_ALL_FRAMES:
            return R_HANDLED;
        default:
            return R_NONE;
        }
    }
    if (listview_action(&tv->lv, act))
        return R_HANDLED | R_DIRTY;
    switch (act) {
    case A_SOURCE:
    case A_ACTIVATE:
    case A_MOVE_RIGHT:
        return open_source(p, a);
    case A_ALL_FRAMES:
        if (!a->snap) {
            view_message(a, "trace tracebacks hide no frames");
            return R_HANDLED;
        }
        tv->all = !tv->all;
        traceback_pane_load(p, a, &tv->subject);
        view_message(a, tv->all ? "showing every frame" : "hiding unwinder and interpreter frames");
        return R_HANDLED | R_DIRTY;
    default:
        return R_NONE;
    }
}

static unsigned tv_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                         struct pane_request *req)
{
    struct tbview *tv = tv_of(p);
    if (tv->mode != TBV_FRAMES || y < 1)
        return R_HANDLED;
    size_t row = tv->lv.top + (size_t)(y - 1);
    if (row >= tv->rows.n)
        return R_HANDLED;
    listview_set(&tv->lv, row);
    if (dbl)
        return open_source(p, a) | R_DIRTY;
    return R_HANDLED | R_DIRTY;
}

static unsigned tv_search(struct pane *p, struct view *a, int dir, struct pane_request *req)
{
    struct tbview *tv = tv_of(p);
    if (tv->mode != TBV_FRAMES || !tv->rows.n)
        return R_HANDLED;
    size_t n = tv->rows.n;
    struct strbuf name = STRBUF_INIT, loc = STRBUF_INIT;
    bool *hit = xcalloc(n, sizeof(*hit));
    for (size_t i = 0; i < n; i++) {
        const char *tag, *dim;
        sb_clear(&name);
        sb_clear(&loc);
        row_text(a, tv, &tv->rows.v[i], true, &tag, &name, &loc, &dim);
        hit[i] =
            pattern_match(&a->search, sb_str(&name)) || pattern_match(&a->search, sb_str(&loc));
    }
    sb_free(&name);
    sb_free(&loc);
    size_t rank, total;
    bool wrapped;
    size_t i = pattern_next_hit(hit, n, tv->lv.cur, dir, &rank, &total, &wrapped);
    free(hit);
    if (i == SIZE_MAX) {
        view_error(a, "/%s: not in this traceback", a->search.text);
        return R_HANDLED;
    }
    listview_jump(&tv->lv, i);
    view_message(a, "/%s: match %zu of %zu (frame %zu of %zu)%s", a->search.text, rank, total,
                 i + 1, n, wrapped ? " (wrapped)" : "");
    return R_HANDLED | R_DIRTY;
}

static void tv_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    struct tbview *tv = tv_of(p);
    if (tv->mode == TBV_SOURCE)
        snprintf(buf, n, "line %zu/%zu", srcview_lines(&tv->src) ? tv->src.top + 1 : 0,
                 srcview_lines(&tv->src));
    else
        snprintf(buf, n, "frame %zu/%zu", tv->rows.n ? tv->lv.cur + 1 : 0, tv->rows.n);
}

static int tv_keytab(struct pane *p, struct view *a)
{
    return tv_of(p)->mode == TBV_SOURCE ? KEYS_SOURCE : KEYS_TRACEBACK;
}

static void tv_free(struct pane *p)
{
    struct tbview *tv = tv_of(p);
    /* The worker goes first: nothing may answer into freed memory. */
    symbolizer_free(tv->sym);
    for (size_t i = 0; i < tv->res.n; i++)
        sym_result_done(&tv->res.v[i].r);
    VEC_FREE(&tv->res);
    hmap_free(&tv->res_of);
    traceback_done(&tv->tb);
    VEC_FREE(&tv->sframes);
    VEC_FREE(&tv->rows);
    sb_free(&tv->what);
    srcview_done(&tv->src);
    free(tv);
    /* The window is the detail pane's. */
    p->win = NULL;
}

const struct pane_ops traceback_pane_ops = {
    .name = "traceback",
    .draw = tv_draw,
    .on_action = tv_action,
    .on_click = tv_click,
    .search = tv_search,
    .position = tv_position,
    .free = tv_free,
    .keytab = tv_keytab,
    .tick = tv_tick,
    .busy = tv_busy,
};

struct pane *traceback_pane_new(struct view *a)
{
    struct tbview *tv = xcalloc(1, sizeof(*tv));
    traceback_init(&tv->tb);
    hmap_init(&tv->res_of, 64);
    srcview_init(&tv->src);
    return pane_new(&traceback_pane_ops, PANE_DETAIL, tv);
}
