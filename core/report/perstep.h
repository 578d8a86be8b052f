/* `report --per-step`: the tables asked for, computed on each profiler
 * step's scope (core/trace/scope.h) in turn and put together, one table
 * per name with a leading `step` column: the rows of step N are the rows
 * of `report --step N`. */
#ifndef TORCHTOP_CORE_PERSTEP_H
#define TORCHTOP_CORE_PERSTEP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/table.h"
#include "core/report/report.h"
#include "core/trace/load.h"
#include "core/trace/trace.h"

/* Build `names` (as report_build takes them) per step of t (indexed),
 * each step's scope loaded with lo's linking rules and threads, into out:
 * steps in order, a step's rows in its table's order, at most `top` of
 * them (0 = all) in a ranking (a table that is not `whole`). False with a
 * message in err (size 256) when t has no step or a table cannot be
 * built. */
bool perstep_build(const struct trace *t, const char *names, const struct report_opts *o,
                   const struct load_opts *lo, size_t top, struct table_list *out, char *err);

#endif
