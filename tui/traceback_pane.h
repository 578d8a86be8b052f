/* The traceback view: what the detail pane shows in place of its text
 * after `t`. It lists the combined traceback of the selection, newest
 * frame first: for a trace event the chain kernel <- launch <- ops <-
 * Python frames (core/symbols/traceback.h), for an allocation of a memory snapshot
 * its C++, Python and Inductor frames (snap_stack_traceback). Each frame
 * is a row with a cursor; Enter shows the frame's source file around its
 * line (tui/source_view.h).
 *
 * Raw native frames of a snapshot (a library path and an offset, SFF_RAW)
 * are resolved through the symbolizer's worker thread as soon as the
 * traceback is shown: the row says "resolving" and turns into the
 * function, file and line, and one row per inlined call, when the answer
 * is taken in (the pane's tick; the UI never waits on DWARF). Answers are
 * kept for the session.
 *
 * The view is a pane object owned by the detail pane, drawn in its window
 * (the detail pane lends it win and r before each call). */
#ifndef TORCHTOP_TUI_TRACEBACK_PANE_H
#define TORCHTOP_TUI_TRACEBACK_PANE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/symbols/traceback.h"

struct app;
struct pane;

struct pane *traceback_view_new(struct app *a);
/* Show the traceback of the selection of pane `source` (its current event,
 * or in snapshot mode what snapview_pick says). Keeps the cursor when the
 * selection is the one already shown. */
void traceback_view_load(struct pane *p, struct app *a, struct pane *source);

/* What Enter does on a frame (pure, unit-tested). */
enum tbframe_class {
    TBC_SOURCE,    /* a source file and (maybe) a line to show */
    TBC_RESOLVE,   /* a raw native frame: resolve it first */
    TBC_NO_SOURCE, /* ops, runtime calls, kernels, frames without a file */
};
/* Class of frame f; raw: it is a raw native frame of a snapshot (SFF_RAW).
 * Frames with a file but no line are TBC_SOURCE (shown from the top),
 * except native frames, whose bare file names without a line point
 * nowhere (addr2line against a library without DWARF). */
enum tbframe_class tbframe_classify(const struct tb_frame *f, bool raw);

/* Index of the original-source frame of the Inductor frame at i: the next
 * Python frame that is not generated code; -1 when none. */
long tbframe_original(const struct traceback *tb, size_t i);
/* Index of the first frame after i with a source file to show
 * (TBC_SOURCE), to point to from a frame without one; -1 when none. */
long tbframe_source_below(const struct traceback *tb, size_t i);

#endif
