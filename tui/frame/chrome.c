/* Header, message line, key bar and the too-small screen. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/trace/devkind.h"
#include "tui/frame/app.h"
#include "tui/frame/chrome.h"
#include "tui/frame/draw.h"

/* ------------------------------------------------------------------------ */
/* Header                                                                   */
/* ------------------------------------------------------------------------ */

static void devices_text(const struct trace *t, struct strbuf *sb)
{
    if (!t->devices.n) {
        sb_puts(sb, "no device info");
        return;
    }
    /* "NVIDIA H100 80GB HBM3" or "2x NVIDIA H100 ..." when all alike. */
    uint32_t name = t->devices.v[0].name;
    bool same = true;
    for (size_t d = 1; d < t->devices.n; d++)
        same &= t->devices.v[d].name == name;
    if (same) {
        if (t->devices.n > 1)
            sb_printf(sb, "%zux ", t->devices.n);
        sb_puts(sb, name ? trace_str(t, name) : "unnamed device");
        return;
    }
    for (size_t d = 0; d < t->devices.n; d++) {
        uint32_t nm = t->devices.v[d].name;
        sb_printf(sb, "%s%d:%s", d ? ", " : "", t->devices.v[d].id, nm ? trace_str(t, nm) : "?");
    }
}

/* What the header says beside the trace's name: the scope a scoped trace
 * holds and how much of the whole it covers (as the report's scope: line),
 * else the devices. */
static void header_subject(const struct trace *t, struct strbuf *sb)
{
    if (t->scope_text)
        sb_printf(sb, "scope: %s", t->scope_text);
    else
        devices_text(t, sb);
}

static void header_line1(struct app *a, WINDOW *w, int cols)
{
    const struct trace *t = a->v.t;
    char span[32], gpu[32], busy[32], evs[32];
    text_duration(span, sizeof(span), t->t_end - t->t_start, a->v.ascii);
    text_duration(gpu, sizeof(gpu), t->gpu_end - t->gpu_start, a->v.ascii);
    text_duration(busy, sizeof(busy), a->bd.busy, a->v.ascii);
    text_count(evs, sizeof(evs), t->ev.n);
    struct strbuf rest = STRBUF_INIT, dev = STRBUF_INIT;
    header_subject(t, &dev);
    /* Busy time is the union of GPU work; the span of GPU activity, first
     * start to last end, is said apart so that neither reads as the
     * other. The span is left out first when the line is short of room
     * (the bar below gives the idle share of it). */
    int name_w = MIN((int)text_width(a->name, strlen(a->name)), MAX(12, cols * 2 / 5));
    for (int form = 0; form < 2; form++) {
        sb_clear(&rest);
        sb_printf(&rest, "  span %s", span);
        if (t->n_gpu)
            sb_printf(&rest, "  %s busy %s%s%s", devkind_name(t->device_kind), busy,
                      form ? "" : " of span ", form ? "" : gpu);
        sb_printf(&rest, "  %s events%s", evs, t->truncated ? "  TRUNCATED" : "");
        int need = 1 + name_w + 2 + (int)text_width(sb_str(&dev), dev.len) +
                   (int)text_width(sb_str(&rest), rest.len);
        if (need <= cols)
            break;
    }
    attr_t at = color_attr(C_HEADER) | A_BOLD;
    draw_blank(w, 0, 0, cols, at);
    int x = draw_str(w, 0, 0, cols, " ", at, a->v.ascii);
    /* The name gets up to 40% of the line, cut in the middle; then the
     * numbers; the device name takes what is left. */
    int rest_w = (int)text_width(sb_str(&rest), rest.len);
    x += draw_fit(w, 0, x, MIN(name_w, cols - x), a->name, strlen(a->name), true, false, at,
                  a->v.ascii);
    /* A scope goes before the numbers, which the panes below repeat. */
    int dev_room = cols - x - (t->scope_text ? 0 : rest_w) - 2;
    if (dev_room >= 8) {
        x += draw_str(w, 0, x, 2, "  ", at, a->v.ascii);
        /* A scope is cut at its end (its name and GPU share first). */
        x += draw_fit(w, 0, x, MIN(dev_room, (int)text_width(sb_str(&dev), dev.len)), sb_str(&dev),
                      dev.len, !t->scope_text, false, at, a->v.ascii);
    }
    if (x < cols)
        draw_str(w, 0, x, cols - x, sb_str(&rest), at, a->v.ascii);
    sb_free(&rest);
    sb_free(&dev);
}

/* The fewest cells of the bar that make room for a note beside it. */
#define BAR_MIN 10

/* The breakdown as one stacked bar: computation, exposed communication,
 * exposed memcpy, idle; the numbers beside it. */
static void header_line2(struct app *a, WINDOW *w, int cols)
{
    const struct timeline_breakdown *bd = &a->bd;
    draw_blank(w, 1, 0, cols, 0);
    if (!bd->total) {
        char none[48];
        snprintf(none, sizeof(none), "no %s work in this trace", devkind_name(a->v.t->device_kind));
        draw_str(w, 1, 1, cols - 1, none, color_attr(C_DIM), a->v.ascii);
        return;
    }
    double tot = (double)bd->total;
    const struct bar_part parts[4] = {
        {(double)bd->computation / tot, "comp", a->v.g->full, C_COMP},
        {(double)bd->exposed_comm / tot, "comm", a->v.g->shade_comm, C_COMM},
        {(double)bd->exposed_memcpy / tot, "memcpy", a->v.g->shade_memcpy, C_MEMCPY},
        {(double)bd->idle / tot, "idle", a->v.g->shade_idle, C_IDLE},
    };
    /* The document's note (what bounds the step) takes the right of the
     * line: beside the bar and its numbers when it fits there, else in
     * place of the numbers (a pending note never does that). */
    char note[160] = "";
    int bar_cols = cols;
    if (a->doc->header_note) {
        int lw = 0;
        for (int k = 0; k < 4; k++) {
            char item[48];
            lw +=
                3 + snprintf(item, sizeof(item), "%s %.1f%%", parts[k].name, 100 * parts[k].share);
        }
        int head = 4 + (int)strlen(devkind_name(a->v.t->device_kind)) + BAR_MIN;
        bool pending = false;
        a->doc->header_note(a, cols - head - lw - 2, note, sizeof(note), &pending);
        if (!note[0] && !pending)
            a->doc->header_note(a, cols - head - 2, note, sizeof(note), &pending);
        else if (pending && cols - head - lw - 2 < (int)text_width(note, strlen(note)))
            note[0] = '\0';
        if (note[0])
            bar_cols = cols - 2 - (int)text_width(note, strlen(note));
    }
    draw_stacked_bar(w, 1, bar_cols, devkind_name(a->v.t->device_kind), parts, 4);
    if (note[0])
        draw_str(w, 1, bar_cols + 2, cols - bar_cols - 2, note, color_attr(C_HEADER) | A_BOLD,
                 a->v.ascii);
}

void chrome_header(struct app *a)
{
    WINDOW *w = a->w_header;
    if (!w)
        return;
    werase(w);
    if (!a->doc->header || !a->doc->header(a, w, a->cols)) {
        header_line1(a, w, a->cols);
        header_line2(a, w, a->cols);
    }
    int extra = a->lay.r[L_HEADER].h - 2;
    if (extra > 0 && a->doc->header_extra)
        a->doc->header_extra(a, w, 2, extra, a->cols);
    wnoutrefresh(w);
}

/* ------------------------------------------------------------------------ */
/* Message line                                                             */
/* ------------------------------------------------------------------------ */

void chrome_message(struct app *a)
{
    WINDOW *w = a->w_message;
    if (!w)
        return;
    werase(w);
    char pos[64] = "";
    struct pane *p = a->panes[a->v.focus];
    if (p->ops->position)
        p->ops->position(p, &a->v, pos, sizeof(pos));
    char right[96];
    snprintf(right, sizeof(right), " %s %s ", p->ops->name, pos);
    int rw = (int)strlen(right);
    if (a->ov == OV_PROMPT) {
        int lw = draw_str(w, 0, 0, a->cols, a->prompt.label, color_attr(C_KEY), a->v.ascii);
        /* Show the end of the text when it is longer than the line. */
        const char *s = sb_str(&a->prompt.text);
        size_t n = a->prompt.text.len;
        struct strbuf clean = STRBUF_INIT;
        text_clean(&clean, s, n, a->v.ascii);
        size_t cw = text_width(sb_str(&clean), clean.len);
        int room = a->cols - lw - 1;
        const char *from = sb_str(&clean);
        while (cw > (size_t)room && *from) {
            from++;
            while ((*from & 0xc0) == 0x80)
                from++;
            cw = text_width(from, strlen(from));
        }
        draw_raw(w, 0, lw, from, color_attr(C_MESSAGE));
        wmove(w, 0, lw + (int)cw);
        sb_free(&clean);
        wnoutrefresh(w);
        return;
    }
    int mw = a->cols - rw;
    if (a->v.msg[0] && mw > 0)
        draw_str(w, 0, 0, mw, a->v.msg, color_attr(a->v.msg_error ? C_ERROR : C_MESSAGE),
                 a->v.ascii);
    if (a->cols - rw > 0)
        draw_raw(w, 0, a->cols - rw, right, color_attr(C_DIM));
    wnoutrefresh(w);
}

/* ------------------------------------------------------------------------ */
/* Too small                                                                */
/* ------------------------------------------------------------------------ */

void chrome_too_small(struct app *a)
{
    werase(stdscr);
    /* The longest form that fits. */
    static const char *const forms[] = {
        "terminal too small: %dx%d (need %dx%d)",
        "too small: %dx%d, need %dx%d",
        "%dx%d < %dx%d",
    };
    char line[96];
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
        snprintf(line, sizeof(line), forms[i], a->cols, a->lines, LAYOUT_MIN_COLS,
                 LAYOUT_MIN_LINES);
        if ((int)strlen(line) <= a->cols)
            break;
    }
    int y = a->lines / 2, x = MAX(0, (a->cols - (int)strlen(line)) / 2);
    mvwaddnstr(stdscr, y, x, line, a->cols - x);
    if (y + 1 < a->lines)
        mvwaddnstr(stdscr, y + 1, MAX(0, (a->cols - 9) / 2), "q quits", a->cols);
    wnoutrefresh(stdscr);
}

/* ------------------------------------------------------------------------ */
/* Key bar                                                                  */
/* ------------------------------------------------------------------------ */

/* The bar text of a binding ("Tab:" and its label); its width. */
static int keybar_name(const struct keybind *kb, char *name, size_t n)
{
    keymap_key_name(kb->key, name, n);
    /* "<Tab>" reads better as "Tab" here. */
    if (name[0] == '<' && name[1]) {
        memmove(name, name + 1, strlen(name));
        name[strlen(name) - 1] = '\0';
    }
    if (strlen(name) + 2 <= n)
        strcat(name, ":");
    return (int)strlen(name) + (int)strlen(kb->bar) + 1;
}

/* Help and quit stay on the bar however narrow the terminal: the width the
 * global ones take is kept for them. */
static bool keybar_kept(const struct keybind *kb)
{
    return kb->action == A_HELP || kb->action == A_QUIT;
}

static void keybar_entries(const struct keybind *kb, WINDOW *w, struct app *a, int *x,
                           const struct keybind *shadow, int *reserve)
{
    for (; kb->key; kb++) {
        if (!kb->bar)
            continue;
        if (shadow) {
            bool hidden = false;
            for (const struct keybind *s = shadow; s->key; s++)
                hidden |= s->key == kb->key;
            if (hidden)
                continue;
        }
        char name[32];
        int need = keybar_name(kb, name, sizeof(name));
        bool kept = shadow && keybar_kept(kb);
        if (*x + need > a->cols - (kept ? *reserve - need : *reserve))
            continue;
        if (kept)
            *reserve -= need;
        draw_raw(w, 0, *x, name, color_attr(C_KEY));
        draw_raw(w, 0, *x + (int)strlen(name), kb->bar, color_attr(C_KEYLABEL));
        struct chrome *c = &a->chrome;
        if (c->nzones < CHROME_MAX_ZONES)
            c->zones[c->nzones++] = (struct chrome_zone){*x, *x + need - 1, kb->action};
        *x += need;
    }
}

void chrome_keybar(struct app *a)
{
    WINDOW *w = a->w_keybar;
    if (!w)
        return;
    werase(w);
    a->chrome.nzones = 0;
    int x = 0, reserve = 0;
    const struct keybind *own = keymap_table(pane_keytab(a->panes[a->v.focus], &a->v));
    for (const struct keybind *kb = keymap_table(PANE__COUNT); kb->key; kb++) {
        char name[32];
        if (kb->bar && keybar_kept(kb))
            reserve += keybar_name(kb, name, sizeof(name));
    }
    keybar_entries(own, w, a, &x, NULL, &reserve);
    keybar_entries(keymap_table(PANE__COUNT), w, a, &x, own, &reserve);
    wnoutrefresh(w);
}

enum action chrome_keybar_action(const struct chrome *c, int x)
{
    for (int i = 0; i < c->nzones; i++)
        if (x >= c->zones[i].x0 && x <= c->zones[i].x1)
            return c->zones[i].act;
    return A_NONE;
}
