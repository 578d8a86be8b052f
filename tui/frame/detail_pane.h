/* The detail pane: the selection described by the pane that has it
 * (pane_ops.describe), wrapped to the width, with a cursor line whose
 * event link Enter follows; or another pane shown in its place (the
 * traceback view), lent by the app. Only the app (tui/frame/app.c) calls these. */
#ifndef TORCHTOP_TUI_DETAIL_PANE_H
#define TORCHTOP_TUI_DETAIL_PANE_H

#include "tui/frame/pane.h"

struct view;

extern const struct pane_ops detail_pane_ops;

struct pane *detail_pane_new(struct view *a);
/* Describe the selection of pane `source` (NULL: nothing), from the top. */
void detail_pane_refresh(struct pane *p, struct view *a, struct pane *source);
/* Show pane `inset` (borrowed: it must outlive its showing) in place of
 * the text, drawn in this pane's window and given its keys, clicks and
 * searches; NULL: the text again. Back (or Left) on an inset that does
 * not take it brings the text back. */
void detail_pane_set_inset(struct pane *p, struct pane *inset);
/* The pane shown in place of the text, NULL when the text is shown (or p
 * is not a detail pane). */
struct pane *detail_pane_inset(struct pane *p);

#endif
