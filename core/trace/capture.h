/* Graph replays attributed through capture traces (docs/metrics.md §16).
 *
 * A capture trace is recorded while a CUDA/HIP graph is captured: its
 * kernels do not run, but each launch call is there (hipLaunchKernel,
 * cudaLaunchKernel, ... with the kernel's name in args.kernel; memcpy and
 * memset calls) under the ops and Python frames that issued it. A replay
 * trace has one graph launch (cudaGraphLaunch, hipGraphLaunch) whose
 * correlation every replayed GPU event shares, and no op above them.
 *
 * capture_merge() aligns each graph launch's replayed GPU events, in start
 * order, with one capture's launch calls: by kernel name in order,
 * skipping capture launches that do not match (TraceLens's greedy
 * alignment), memcpy/memset by kind; among the captures and start points
 * it keeps the alignment that matches the most events, then skips the
 * fewest. The captured subtree (the aligned launch calls and their
 * ancestors up to their lowest common one) is copied into the replay trace,
 * once per graph launch, on a host row of its own ("capture N", same pid as
 * the launch) starting at the launch's start with the capture's durations,
 * events flagged EVF_CAPTURED; each aligned GPU event gets the copied
 * launch call's new correlation, so trace_index() makes the captured op its
 * launcher. An event that does not align keeps the graph launch.
 *
 * Copies per launch stop at a budget (twice the events of the replay and
 * captures, plus 65,536): the launches after it share one copy of each
 * capture (every launch call and its ancestors, made once, grafted under
 * the first launch that used it, placed at that launch), so that a deep
 * capture replayed many times costs memory in proportion to the input.
 *
 * Tree views graft each launch's rows of copies under the launch
 * (trace.grafts): gputime's subtrees, the explorer's call tree and
 * tracebacks go from a copy's topmost span on to the graph launch and the
 * replay's stack above it. The host nesting itself (event.parent) stays
 * per row, so self times and every table stay as without the graft. */
#ifndef TORCHTOP_CORE_CAPTURE_H
#define TORCHTOP_CORE_CAPTURE_H

#include <stddef.h>

#include "core/base/errinfo.h"
#include "core/trace/load.h"
#include "core/trace/trace.h"

/* Merge the captures into replay, which must be loaded and not yet indexed
 * (load_opts.no_index), once; the captures must be indexed (they are only read).
 * Fills replay's n_captures / graph_* counts. Strings, arguments and
 * shapes are copied: replay owns everything it holds afterwards. */
void capture_merge(struct trace *replay, struct trace *const *caps, size_t ncaps);

/* The graph launch event that host row `row` of captured copies hangs
 * under in tree views; IDX_NONE for any other row. O(log grafts). */
uint32_t capture_graft_launch(const struct trace *t, uint32_t row);

/* The grafts under graph launch event ev, *n of them in row order
 * (borrowed from t); NULL and *n = 0 when none. O(log grafts). */
const struct capture_graft *capture_grafts(const struct trace *t, uint32_t ev, uint32_t *n);

/* Load the capture traces at path: a trace file, or a directory whose
 * *.json and *.json.gz files (sorted by name) are each a capture. The
 * traces are appended to *caps (*n of them; the caller frees each with
 * trace_free and the array with free). Returns ST_OK, or the first fault
 * (err names the file); captures loaded before it are kept in *caps. */
enum status capture_load(const char *path, const struct load_opts *opts, struct trace ***caps,
                         size_t *n, struct errinfo *err);

/* The files capture_load reads for path (the file itself, or a
 * directory's *.json and *.json.gz sorted by name): *files[0..*n), which
 * the caller frees each and the array. ST_OK, or a directory that cannot
 * be read or holds none (err filled, *files NULL). For the commands'
 * check that no output is one of them, before anything is read. A file
 * of a directory is read only if it is a regular file. */
enum status capture_list(const char *path, char ***files, size_t *n, struct errinfo *err);

#endif
