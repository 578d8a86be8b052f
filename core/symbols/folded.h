/* Folded stacks for flame graphs (flamegraph.pl, speedscope, inferno; docs/metrics.md §9).
 *
 * The format of PyTorch's EventList.export_stacks: one line per distinct
 * stack, frames outermost first joined by ';', a space, and an integer
 * number of microseconds:
 *
 *   <module>;train.py(41): step;nn.Module: Linear_0;aten::linear;aten::addmm 1234
 *
 * Stacks are the combined tracebacks of traceback.h, reversed: Python
 * frames (as the trace writes them, "path.py(123): func"), then ops and
 * annotations, ending with the event the value belongs to. Inside a frame,
 * ' ', ';', tabs and newlines become '_' (as export_stacks does) after the
 * text went through display_sanitize(). Equal stacks are summed (in ns,
 * then truncated to µs); stacks that sum to under 1 µs are left out. Lines
 * come in the order their stack first appears in the trace.
 *
 * Metrics:
 * - FOLDED_SELF_CPU: for every host span (ops, annotations, Python
 *   frames, runtime calls), its duration minus the durations of its direct
 *   children in the call tree, clamped at 0. Leaves of the flame graph
 *   then add up to the time covered by host spans.
 * - FOLDED_SELF_DEVICE: for every host event, the device time of the GPU
 *   work (kernels, copies, memsets) launched by the runtime calls directly
 *   under it; a launch with no parent counts for itself.
 *
 * `torchtop report --table folded --metric self_cpu|self_device` is meant
 * to write exactly folded_write()'s output. */
#ifndef TORCHTOP_CORE_FOLDED_H
#define TORCHTOP_CORE_FOLDED_H

#include <stdbool.h>

#include "core/base/strbuf.h"
#include "core/trace/trace.h"

enum folded_metric {
    FOLDED_SELF_CPU,
    FOLDED_SELF_DEVICE,
};

/* "self_cpu" / "self_device" (also PyTorch's "self_cpu_time_total",
 * "self_cuda_time_total" and "self_cuda"); false for anything else. */
bool folded_metric_parse(const char *s, enum folded_metric *out);

/* Append the folded stacks of an indexed trace to out. */
void folded_write(struct strbuf *out, const struct trace *t, enum folded_metric m);

#endif
