/* The traceback view: what the detail pane shows in place of its text
 * after `t`. It lists the combined traceback of the selection, newest
 * frame first: for a trace event the chain kernel <- launch <- ops <-
 * Python frames (core/symbols/traceback.h), for an allocation of a memory
 * snapshot its C++, Python and Inductor frames (snapshot_stack_traceback).
 * Each frame is a row with a cursor; Enter shows the frame's source file
 * around its line (tui/frame/srcview.h).
 *
 * Raw native frames of a snapshot (a library path and an offset, SFF_RAW)
 * are resolved through the symbolizer's worker thread as soon as the
 * traceback is shown: the row says "resolving" and turns into the
 * function, file and line, and one row per inlined call, when the answer
 * is taken in (the pane's tick; the UI never waits on DWARF). Answers are
 * kept for the session.
 *
 * The app owns the view and lends it to the detail pane, which draws it
 * in its own window (tui/frame/detail_pane.h). Only the app calls these. */
#ifndef TORCHTOP_TUI_TRACEBACK_PANE_H
#define TORCHTOP_TUI_TRACEBACK_PANE_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/frame/pane.h"
#include "tui/snapshot/snapview.h"

struct view;

extern const struct pane_ops traceback_pane_ops;

/* The selection a traceback is shown for. */
struct tb_subject {
    char source[16];       /* name of the pane whose selection it is */
    uint32_t ev;           /* a trace's event, IDX_NONE: none */
    bool picked;           /* snapshot mode: pick says what is selected */
    struct snap_pick pick; /* snapshot mode: its stack (pane_ops.pick) */
};

struct pane *traceback_pane_new(struct view *a);
/* Show the traceback of subject s (copied; `all-frames` shows it again).
 * Keeps the cursor when it is the selection already shown. Nothing when
 * p is not a traceback pane. */
void traceback_pane_load(struct pane *p, struct view *a, const struct tb_subject *s);

#endif
