/* The timeline pane: GPU streams and a CPU lane binned into columns. Only
 * the app (tui/frame/app.c) calls these. */
#ifndef TORCHTOP_TUI_TIMELINE_PANE_H
#define TORCHTOP_TUI_TIMELINE_PANE_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/frame/pane.h"

struct view;

extern const struct pane_ops timeline_pane_ops;

/* A timeline pane over a->t in the timeline slot. */
struct pane *timeline_pane_new(struct view *a);
/* The wanted lane count (for the layout); 0 when p is not a timeline. */
int timeline_pane_lanes(struct pane *p);
/* The time window shown, [*from, *to) in ns (trace time); false when p is
 * not a timeline. */
bool timeline_pane_window(struct pane *p, int64_t *from, int64_t *to);

#endif
