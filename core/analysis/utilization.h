/* GPU utilization from the kernels' own args: occupancy per launching op
 * and, per device, the TensorBoard plugin's GPU summary (GPU utilization,
 * estimated SM efficiency, estimated achieved occupancy) over the steps
 * (docs/metrics.md §19.2). */
#ifndef TORCHTOP_CORE_UTILIZATION_H
#define TORCHTOP_CORE_UTILIZATION_H

#include <stdbool.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

/* Adds occupancy_by_op and gpu_utilization to out. False, with a message
 * in err (size 256), when the trace has no kernel. */
bool utilization_tables(const struct trace *t, struct table_list *out, char *err);

/* One device's summary over [from, to) (ns relative to base_ns): the share
 * of it some kernel ran (busy), the time-weighted SM efficiency (blocks per
 * SM of the kernels running at once, summed, capped at 1; 0 while none
 * runs) and the time-weighted est. achieved occupancy of the kernels that
 * record it. Fractions; NaN where no kernel gives the value. */
struct utilization_device {
    double busy, sm_efficiency, occupancy;
};
void utilization_device(const struct trace *t, int32_t device, int64_t from, int64_t to,
                        struct utilization_device *out);

#endif
