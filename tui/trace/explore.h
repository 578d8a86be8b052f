/* The explorer's documents: a trace (its report views, call tree,
 * timeline) and a memory snapshot (its tables, memory over time, segment
 * map), each as the app's panes with the detail pane's traceback view.
 * What the caller puts in the app before app_init (the trace, analysis
 * and views, or the snapshot view) the document owns from then on. */
#ifndef TORCHTOP_TUI_EXPLORE_H
#define TORCHTOP_TUI_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>

struct app;
struct doc_ops;

extern const struct doc_ops explore_trace_doc;
extern const struct doc_ops explore_snapshot_doc;

/* The timeline's time window, [*from, *to) in ns; false when the timeline
 * slot holds no timeline (a snapshot). */
bool explore_timeline_window(struct app *a, int64_t *from, int64_t *to);

#endif
