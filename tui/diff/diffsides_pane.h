/* A trace diff's two sides as a pane (the timeline slot): a line each,
 * control and test (label, GPU time in the steps compared, the step,
 * device and file); Enter asks for the side under the cursor (REQ_OPEN
 * with ev 0 or 1), which the document opens as a trace view on top. Only
 * the diff's document (tui/diff/diff_doc.c) calls these. */
#ifndef TORCHTOP_TUI_DIFFSIDES_PANE_H
#define TORCHTOP_TUI_DIFFSIDES_PANE_H

#include "tui/frame/pane.h"

struct diffdata;

extern const struct pane_ops diffsides_pane_ops;

/* A pane over dd's sides (borrowed: it outlives the pane), keys from
 * table keytab. */
struct pane *diffsides_pane_new(const struct diffdata *dd, int keytab);
/* Lines the pane asks for besides its title. */
#define DIFFSIDES_PANE_LINES 2

#endif
