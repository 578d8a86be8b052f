/* The job view's timeline pane: the lanes of one matched collective
 * across the ranks (tui/job/joblanes.h), the one selected in the
 * collectives table. Only the job document calls these. */
#ifndef TORCHTOP_TUI_JOBLANES_PANE_H
#define TORCHTOP_TUI_JOBLANES_PANE_H

#include <stdint.h>

#include "tui/frame/pane.h"

struct job_view;

extern const struct pane_ops joblanes_pane_ops;

/* A pane in the timeline slot over v (borrowed: it outlives the pane). */
struct pane *joblanes_pane_new(const struct job_view *v);
/* Show collective instance inst (an index into v->colls.insts; IDX_NONE:
 * none). Nothing when p is not a joblanes pane. */
void joblanes_pane_show(struct pane *p, uint32_t inst);
/* Lanes the pane asks the layout for (struct layout_cfg timeline_lanes). */
int joblanes_pane_lines(struct pane *p);

#endif
