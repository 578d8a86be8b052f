/* The call tree and the links between events (docs/metrics.md §1).
 *
 * trace_index() fills, for a loaded trace:
 * - per row, the row's events in start order (row.order);
 * - host nesting per (pid, tid): parent / first_child / next_sibling, with
 *   overhangs under 1 µs nested and larger ones kept as siblings (flags
 *   EVF_OVERHANG, EVF_SIBLING); no event is dropped; instants get the
 *   innermost span around them as parent without being listed as children;
 * - Python frames' parents from Python id / Python parent id (the frame's event.aux),
 *   which may cross threads;
 * - GPU work -> launching runtime/driver call by correlation (gpu_info.launch;
 *   a graph launch owns every GPU event with its correlation), and the reverse
 *   index (launch_info.gpu_first/gpu_count into trace.launch_gpu);
 * - the launcher op of each GPU event (gpu_info.launcher): the first cpu_op
 *   above the launch, Python frames and annotations passed over, "execute"
 *   skipped; the launch itself when there is none;
 * - forward <-> backward op pairs through Sequence number (op_info.partner);
 * - event flags EVF_COMM / EVF_MEMCPY_LIKE / EVF_LINKED / EVF_LAUNCHER;
 * - counts and spans (n_gpu, n_unlinked, gpu_start/gpu_end, t_start/t_end).
 * Calling it again does nothing. Traces of 65536 events or more are indexed
 * on two threads (kernel classes and Python links beside the row orders and
 * nesting) unless trace.index_one_thread is set. */
#ifndef TORCHTOP_CORE_TREE_H
#define TORCHTOP_CORE_TREE_H

#include "core/trace/gpuclass.h"
#include "core/trace/trace.h"

/* The overhang, in ns, below which a child may outlive its parent. */
#define TREE_OVERHANG_NS 1000

void trace_index(struct trace *t);
/* The same, calling step(ud, done, total) before each of its total steps
 * and once after the last (done == total). */
typedef void (*trace_index_step_fn)(void *ud, unsigned done, unsigned total);
void trace_index_steps(struct trace *t, trace_index_step_fn step, void *ud);

/* Whether ev lies in the subtree of anc (or is anc). */
bool tree_is_descendant(const struct trace *t, uint32_t ev, uint32_t anc);

#endif
