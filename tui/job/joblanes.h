/* The job view's timeline (docs/metrics.md §15): around one matched
 * collective, a lane per rank of its GPU compute (rank summary's busy
 * intervals) and a lane of its collective kernels, in absolute time, each
 * rank's wait before the collective (its start to the latest start)
 * shaded and the latest start marked. Binned with tui/trace/lanes.h's
 * lane_bins, as the explorer's timeline. Pure (no curses). */
#ifndef TORCHTOP_TUI_JOBLANES_H
#define TORCHTOP_TUI_JOBLANES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/job/job_tables.h"

/* What a line of the timeline shows (for its colour). */
enum joblane_kind { JL_TEXT, JL_COMPUTE, JL_COLL };

/* The lines the timeline of v's instance wants: a title, an axis, two
 * per rank. */
int joblanes_wanted(const struct job_view *v);

/* Append the timeline of instance inst (an index into v->colls.insts) in
 * at most max_lines lines of cols columns, each ending in '\n': two lanes
 * per rank while they fit, else one (the collectives, compute shown in
 * the idle cells), and a last line counting the ranks left out. kinds
 * (max_lines entries, may be NULL) receives each line's kind. Returns the
 * lines written (0 when max_lines < 3 or inst is out of range). Trace
 * strings are sanitized (text_fit). */
int joblanes_render(const struct job_view *v, uint32_t inst, int cols, int max_lines, bool ascii,
                    struct strbuf *out, enum joblane_kind *kinds);

#endif
