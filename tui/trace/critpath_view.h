/* The explorer's critical path (docs/metrics.md, "Critical path"): HTA's
 * path of each ProfilerStep (the whole trace when there are none), as
 * `report -t critical-path` builds it, summed over the steps. Built on the
 * background worker (tui/trace/bgviews.h), then read by the UI thread
 * only: the header's bound line, the highlight of the path's events and
 * the what-if of one name ran twice as fast.
 *
 * Ownership: a critpath_view borrows the trace (which must outlive it). */
#ifndef TORCHTOP_TUI_CRITPATH_VIEW_H
#define TORCHTOP_TUI_CRITPATH_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trace;
struct critpath_view;

/* Build the paths of t's steps. NULL with why in err (size 256) when no
 * path can be found (an annotation missing, a cycle in every graph). */
struct critpath_view *critpath_view_new(const struct trace *t, char *err);
void critpath_view_free(struct critpath_view *cv);

/* "bound: CPU 62 % · GPU compute 31 % · launch 5 %" in at most width
 * columns: the shares of the paths' length by what bounds each edge,
 * largest first, those under 1 % and those that do not fit left out
 * (NUL when not even the largest fits). */
void critpath_view_bound_text(const struct critpath_view *cv, int width, bool ascii, char *out,
                              size_t n);
/* The regions the paths are of (steps, or the whole trace: !steps), and
 * their summed length (µs). */
size_t critpath_view_regions(const struct critpath_view *cv, bool *steps);
int64_t critpath_view_length(const struct critpath_view *cv);
/* Time on the paths attributed to event ev (µs), -1 when none of the
 * paths' edges is attributed to it. */
int64_t critpath_view_event_us(const struct critpath_view *cv, uint32_t ev);
/* Time on the paths of event ev and what it ran: its children, their GPU
 * work (through their launches); 0 when none. The call tree's and the
 * tables' "crit µs". */
int64_t critpath_view_subtree_us(const struct critpath_view *cv, uint32_t ev);
/* Whether event ev is on a path: an edge is attributed to it, or one of
 * its ends is one of ev's nodes. */
bool critpath_view_on_path(const struct critpath_view *cv, uint32_t ev);
/* A path edge's span in trace time (ns, [t0, t1]) on the lane of event ev:
 * the event it is attributed to, else the one it leads to (a launch
 * delay, a gap between kernels, a dependency). */
struct cpv_span {
    int64_t t0, t1;
    uint32_t ev;
};
/* The paths' spans by start, from the first that may end at `from` or
 * later (ns) to the last. */
const struct cpv_span *critpath_view_spans(const struct critpath_view *cv, int64_t from, size_t *n);

/* What-if: the paths' summed length (µs) were an event named `name`
 * (strtab id) half as long, with the GPU work launched inside it: the
 * report's `--what-if NAME=0.5` summed over the regions. The graphs are
 * built again for it (the view keeps only the paths' events and spans): it
 * takes about as long as the view took to build. */
int64_t critpath_view_whatif_half(struct critpath_view *cv, uint32_t name);
/* The same on a thread of its own (cv stays readable meanwhile): false
 * when one is running. */
bool critpath_view_whatif_start(struct critpath_view *cv, uint32_t name, uint32_t ev);
/* Whether a what-if runs or waits to be taken. */
bool critpath_view_whatif_busy(const struct critpath_view *cv);
/* Take the answer (with wait, waiting for it): the length it found, the
 * event it was asked for; false when there is none (yet). */
bool critpath_view_whatif_take(struct critpath_view *cv, bool wait, int64_t *after, uint32_t *ev);

#endif
