/* The memory chart of snapshot mode (in the timeline slot): allocated
 * bytes over the device's trace entries, with the memory cursor
 * (tui/snapshot/snapview.h). Only the app (tui/frame/app.c) calls this. */
#ifndef TORCHTOP_TUI_SNAP_CHART_PANE_H
#define TORCHTOP_TUI_SNAP_CHART_PANE_H

#include "tui/frame/pane.h"

struct view;

extern const struct pane_ops snap_chart_pane_ops;

struct pane *snap_chart_pane_new(struct view *a);

#endif
