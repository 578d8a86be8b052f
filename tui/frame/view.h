/* What a pane sees of the app: its narrow context. A pane reads the
 * options and glyphs, the search and filter, the selection and which pane
 * has the focus, and the document's data; it speaks on the message line.
 * It never reaches the app's windows, layout, overlays, history or other
 * panes: a request it returns does that (tui/frame/pane.h). The app
 * embeds one (struct app's member v) and hands it to every pane op. */
#ifndef TORCHTOP_TUI_VIEW_H
#define TORCHTOP_TUI_VIEW_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "tui/frame/pattern.h"

struct analysis;
struct critpath_view;
struct glyphs;
struct knames;
struct lane;
struct roofline_view;
struct snapview;
struct srcpath;
struct trace;

struct view {
    /* Options. */
    bool ascii; /* ASCII glyphs and text */
    const struct glyphs *g;
    bool headless; /* script mode */

    /* The user's. */
    struct pattern search; /* last search */
    struct pattern filter; /* narrows table and tree */
    uint32_t sel;          /* selected event, IDX_NONE */
    int focus;             /* enum pane_id of the focused pane */
    bool maximized;        /* one pane has the whole body */

    /* The message line (view_message, view_error). */
    char msg[512];
    bool msg_error;
    bool dirty_chrome; /* header, message line, key bar to draw again */

    /* The document's data (owned by the document, tui/frame/app.h's
     * struct doc_ops, which frees it). */
    struct trace *t;     /* a trace, NULL for a snapshot or a job */
    struct analysis *an; /* its analysis */
    struct knames *kn;   /* kernel names as rows show them */
    uint8_t *recompute;  /* per event, 1 = recomputed forward (core/analysis/recompute.h);
                            NULL: none in the trace */
    struct lane *lanes;  /* timeline lanes built while loading (owned until the
                            timeline pane takes them), NULL: the pane builds them */
    int nlanes;
    struct snapview *snap;     /* a memory snapshot instead of a trace */
    struct roofline_view *rlv; /* roofline and its tables, NULL: none */
    struct critpath_view *cpv; /* the critical path, NULL: not built (yet) */
    bool crit_shown;           /* the critical path is highlighted, its column shown */
    struct srcpath *srcpath;   /* source search path (borrowed), NULL: paths as named */
    void *doc_state;           /* the document's own state, of the type it knows */
};

/* A message on the message line; an error beeps too (not in a script). */
void view_message(struct view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void view_error(struct view *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with a va_list (error: an error). */
void view_vmessage(struct view *v, bool error, const char *fmt, va_list ap);

#endif
