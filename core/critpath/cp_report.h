/* `torchtop report -t critical-path`: HTA's critical path per region as
 * tables (docs/metrics.md, "Critical path"). */
#ifndef TORCHTOP_CORE_CP_REPORT_H
#define TORCHTOP_CORE_CP_REPORT_H

#include <stdbool.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

/* Tables of the critical path of each region: `region` is
 * ANNOTATION[:INSTANCE] (HTA's annotation and instance, 0-based; "" for the
 * whole trace), NULL for every ProfilerStep#N in turn (the whole trace when
 * there is none). The summary per bound_by and the events on the path; with
 * `edges`, the path's edges too. False with a message in err (size 256). */
bool cp_report_tables(const struct trace *t, const char *region, bool edges, struct table_list *out,
                      char *err);

#endif
