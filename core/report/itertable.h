/* `report -t iterations`: one row per serving iteration
 * (core/roofline/iterations.h) with its kind, requests, tokens, the GPU
 * time it launched, time per token and graph replays (docs/metrics.md,
 * "Iterations"). */
#ifndef TORCHTOP_CORE_ITERTABLE_H
#define TORCHTOP_CORE_ITERTABLE_H

#include <stdbool.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

/* The table "iterations" into out; false with a message in err (size 256)
 * when the trace has no iteration annotation. */
bool itertable_build(const struct trace *t, struct table_list *out, char *err);

#endif
