/* Iterations as HTA assigns them (hta/common/trace.py add_iteration), and
 * which events HTA's TraceDiff counts at all, for `torchtop diff`.
 *
 * Counted: complete ('X') events with a category other than "Trace"
 * (HTA drops events without "dur" or "cat", and the profiler's own span).
 * An event is on the GPU side when its args carry a "stream" other than -1
 * (HTA's column "stream", default -1), else on the CPU side. Steps are the
 * counted events named "ProfilerStep#N" (any category, file order). A CPU-
 * side event belongs to the last step in file order with
 * step.ts <= ts < step.ts + step.dur; a GPU-side event to the iteration of
 * the last CPU-side event in file order with the same "correlation" (a
 * cpu_op carrying a stream, as triton ops do, by its start as on the CPU).
 * docs/metrics.md §12 says where this departs from HTA (stream 0). */
#ifndef TORCHTOP_CORE_ITERS_H
#define TORCHTOP_CORE_ITERS_H

#include <stddef.h>
#include <stdint.h>

#include "core/trace/trace.h"

enum iters_side {
    ITERS_NONE, /* not counted (not 'X', no category, the profiler span) */
    ITERS_CPU,  /* no "stream" arg, or stream -1 */
    ITERS_GPU,  /* a "stream" arg other than -1 */
};

struct iters {
    int64_t *nums;  /* step numbers present, ascending, each once */
    size_t n;       /* count of nums */
    uint8_t *side;  /* per event: enum iters_side */
    int32_t *of_ev; /* per event: index into nums, -1 when in no step */
};

/* Classify every event of t (indexed or not) and assign iterations. The
 * result owns its arrays (iters_free). */
void iters_assign(const struct trace *t, struct iters *out);
void iters_free(struct iters *it);

/* Index of step number num in it->nums, or -1. */
int32_t iters_find(const struct iters *it, int64_t num);

#endif
