/* `report -t steps`: one row per profiler step (core/trace/steps.h) with
 * its duration, how busy the GPU and the host were in it, its GPU work and
 * what bounds its critical path (docs/metrics.md, "Steps"). */
#ifndef TORCHTOP_CORE_STEPTABLE_H
#define TORCHTOP_CORE_STEPTABLE_H

#include <stdbool.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

/* The table "steps" into out; false with a message in err (size 256) when
 * the trace has no ProfilerStep#N. */
bool steptable_build(const struct trace *t, struct table_list *out, char *err);

#endif
