/* What bounds a whole trace: the critical paths of its regions (each
 * ProfilerStep#N, the whole trace when it has none) summed per bound_by
 * (docs/metrics.md, "Critical path"): the explorer's header and the job's
 * ranks table. */
#ifndef TORCHTOP_CORE_CP_BOUNDS_H
#define TORCHTOP_CORE_CP_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/critpath/critpath.h"
#include "core/trace/trace.h"

struct cp_bounds {
    int64_t by[CPB__COUNT]; /* µs: the spans of the paths' edges by bound_by (zero weight
                               in CPB_NONE) */
    int64_t length;         /* µs: the paths' lengths */
    uint32_t regions;       /* regions with a path */
};

/* Add the path of graph g (when it has one). */
void cp_bounds_add(struct cp_bounds *b, const struct cp_graph *g);

/* The bounds of every region of an indexed trace, each graph built, read
 * and freed in turn. False (b empty, err filled, size 256) when no region
 * has a path: no events, a cycle. */
bool cp_bounds_of_trace(const struct trace *t, struct cp_bounds *b, char *err);

/* The share (percent) of bound c in the summed spans; 0 when there are
 * none. */
double cp_bounds_share(const struct cp_bounds *b, enum cp_bound c);

/* The bounds with a share of 1 % or more, largest first (zero weight is
 * none): their count, written to order (CPB__COUNT entries). */
int cp_bounds_order(const struct cp_bounds *b, enum cp_bound *order);

/* A bound as a person names it: "CPU", "GPU compute", "GPU comm",
 * "launch", "kernel gaps", "data loading"; "" for none. */
const char *cp_bounds_short_name(enum cp_bound c);

#endif
