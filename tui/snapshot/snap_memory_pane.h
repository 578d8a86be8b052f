/* The memory pane of snapshot mode (in the tree slot): the allocations
 * live at the memory cursor, or the segments map at it
 * (tui/snapshot/snapview.h). Only the app (tui/frame/app.c) calls this. */
#ifndef TORCHTOP_TUI_SNAP_MEMORY_PANE_H
#define TORCHTOP_TUI_SNAP_MEMORY_PANE_H

#include "tui/frame/pane.h"

struct view;

extern const struct pane_ops snap_memory_pane_ops;

struct pane *snap_memory_pane_new(struct view *a);

#endif
