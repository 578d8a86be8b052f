/* Frames of a traceback as the traceback view treats them: what Enter
 * does on one, and the frames it points to from another. Pure,
 * unit-tested. */
#ifndef TORCHTOP_TUI_TBFRAME_H
#define TORCHTOP_TUI_TBFRAME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/symbols/traceback.h"

/* What Enter does on a frame. */
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
