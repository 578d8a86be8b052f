/* Hardware counters of traces recorded in CUPTI range-profiler mode.
 *
 * Such a trace has no kernel events: each kernel is a `cuda_profiler_range`
 * span whose args are the counters CUPTI collected over it (SASS
 * instruction counts and the like), and no correlation id ties it to its
 * launch. As HTA's get_cupti_counter_data_with_operators pairs them, the
 * i-th range in time order is the kernel of the i-th cudaLaunchKernel* call
 * in time order, and its operators are the cpu_op spans around that call
 * (docs/metrics.md §19.1). */
#ifndef TORCHTOP_CORE_RANGECOUNTERS_H
#define TORCHTOP_CORE_RANGECOUNTERS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

/* Adds cupti_counters (one row per range: kernel, counters, operator
 * stack), cupti_counters_by_op (counters summed per bottom-level op) and
 * cupti_counters_by_top_op (per top-level op) to out. False, with a message
 * in err (size 256), when the trace has no cuda_profiler_range event. */
bool rangecounters_tables(const struct trace *t, struct table_list *out, char *err);

/* Whether event i is a CUPTI range-profiler range. */
bool rangecounters_is_range(const struct trace *t, uint32_t i);
/* The FLOPs range ev's SASS instruction counters imply (as the table's
 * flops column); false when ev is no range or has no such counter. */
bool rangecounters_flops(const struct trace *t, uint32_t ev, double *flops);

/* The number of such ranges in t. */
size_t rangecounters_count(const struct trace *t);

#endif
