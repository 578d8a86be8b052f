/* The job view's timeline pane (tui/job/joblanes_pane.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "core/analysis/analysis.h"
#include "core/trace/trace.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/colors.h"
#include "tui/frame/draw.h"
#include "tui/frame/keymap.h"
#include "tui/job/joblanes.h"
#include "tui/job/joblanes_pane.h"

struct jl_pane {
    const struct job_view *v; /* borrowed */
    uint32_t inst;            /* instance shown, IDX_NONE: none */
    struct strbuf text;       /* the lanes as last rendered */
};

static struct jl_pane *jl_of(struct pane *p)
{
    return pane_priv(p, &joblanes_pane_ops);
}

static void jl_draw(struct pane *p, struct view *a)
{
    struct jl_pane *jl = jl_of(p);
    werase(p->win);
    attr_t title = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    const char *head = " Collective across ranks (the one selected in the collectives table)";
    draw_fit(p->win, 0, 0, p->r.w, head, strlen(head), false, false, title, a->ascii);
    int h = p->r.h - 1;
    if (jl->inst == IDX_NONE || h < 3) {
        const char *none = "(no collective selected)";
        if (h > 0)
            draw_str(p->win, 1, 1, p->r.w - 2, none, color_attr(C_DIM), a->ascii);
        return;
    }
    enum joblane_kind *kinds = xcalloc((size_t)h, sizeof(*kinds));
    sb_clear(&jl->text);
    int n = joblanes_render(jl->v, jl->inst, p->r.w, h, a->ascii, &jl->text, kinds);
    const char *s = sb_str(&jl->text);
    for (int y = 0; y < n && *s; y++) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        attr_t at = kinds[y] == JL_COMPUTE ? color_attr(C_COMP)
                    : kinds[y] == JL_COLL  ? color_attr(C_COMM)
                                           : A_NORMAL;
        /* joblanes_render sanitized the trace's strings (text_fit). */
        draw_fit(p->win, 1 + y, 0, p->r.w, s, len, false, false, at, a->ascii);
        s = nl ? nl + 1 : s + len;
    }
    free(kinds);
}

static void jl_free(struct pane *p)
{
    struct jl_pane *jl = jl_of(p);
    sb_free(&jl->text);
    free(jl);
}

const struct pane_ops joblanes_pane_ops = {
    .name = "collective",
    .draw = jl_draw,
    .free = jl_free,
};

struct pane *joblanes_pane_new(const struct job_view *v)
{
    struct jl_pane *jl = xcalloc(1, sizeof(*jl));
    jl->v = v;
    jl->inst = IDX_NONE;
    return pane_new(&joblanes_pane_ops, PANE_TIMELINE, jl);
}

void joblanes_pane_show(struct pane *p, uint32_t inst)
{
    if (!pane_is(p, &joblanes_pane_ops))
        return;
    struct jl_pane *jl = jl_of(p);
    if (jl->inst != inst)
        p->dirty = true;
    jl->inst = inst;
}

int joblanes_pane_lines(struct pane *p)
{
    if (!pane_is(p, &joblanes_pane_ops))
        return 1;
    struct jl_pane *jl = jl_of(p);
    /* The layout adds a title and an axis line to these; the lanes carry
     * their own axis, and the pane its title. */
    return jl->inst == IDX_NONE ? 1 : MAX(1, joblanes_wanted(jl->v) - 1);
}
