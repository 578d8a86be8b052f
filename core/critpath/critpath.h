/* The critical path of a region of a trace, as HTA builds it
 * (hta/analyzers/critical_path_analysis.py at f4d0062): a DAG whose nodes
 * are the starts and ends of CPU ops, runtime calls and GPU work, whose
 * edges carry the time between them, and its longest path
 * (docs/metrics.md, "Critical path").
 *
 * The graph is kept for re-weighting: critpath_set_weight() then
 * critpath_longest() recomputes the path in one pass over the topological
 * order, which is worked out once.
 *
 * Ownership: a cp_graph borrows the frame (which must outlive it). */
#ifndef TORCHTOP_CORE_CRITPATH_H
#define TORCHTOP_CORE_CRITPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/vec.h"
#include "core/critpath/cp_frame.h"

enum cp_edge_type {
    CPE_OPERATOR,      /* critical_path_operator: a span of an op or of GPU work */
    CPE_DEPENDENCY,    /* critical_path_dependency: one top-level op to the next */
    CPE_LAUNCH_DELAY,  /* critical_path_kernel_launch_delay: launch -> GPU start */
    CPE_KERNEL_KERNEL, /* critical_path_kernel_kernel_delay: gap on a stream */
    CPE_SYNC,          /* critical_path_sync_dependency */
    CPE__COUNT
};

enum cp_bound {
    CPB_NONE, /* zero-weight dependency and sync edges */
    CPB_CPU,
    CPB_GPU_COMPUTE,
    CPB_GPU_COMM,
    CPB_LAUNCH,
    CPB_KERNEL_KERNEL,
    CPB_DATA_LOADING, /* an edge of an event the caller names data loading
                         (cp_frame_mark_data_loading) */
    CPB__COUNT
};

struct cp_node {
    int64_t ts;       /* µs */
    uint32_t row;     /* frame row */
    uint32_t in_head; /* last edge added into the node (list through next_in) */
    uint8_t is_start;
};

struct cp_edge {
    int64_t weight; /* µs, the length the path counts (never negative) */
    int64_t span;   /* µs as measured (may be negative: a child outliving its parent) */
    uint32_t src, dst;
    uint32_t next_in; /* previous edge into dst, IDX_NONE */
    uint32_t attr;    /* frame row the edge is attributed to, IDX_NONE */
    uint8_t type;     /* enum cp_edge_type */
};

struct cp_graph {
    const struct cp_frame *f;
    VEC(struct cp_node) nodes;     /* ordered by time */
    VEC(struct cp_edge) edges;     /* in the order they were added */
    uint32_t *topo;                /* nodes in topological order (networkx's generations) */
    uint32_t *in_first, *in_edges; /* CSR: edges into each node, in order added */
    int64_t *dist;                 /* longest path ending at each node */
    uint32_t *best;                /* its last edge, IDX_NONE */
    VEC(uint32_t) path;            /* edges of the longest path, first to last */
    int64_t length;                /* µs */
    int64_t start_ts, end_ts;      /* the region's window */
    bool no_sync;                  /* the trace has no cuda_sync events */
    bool ok;                       /* the graph is acyclic and the path was found */
};

/* Build the graph of the region: the `instance`-th (0-based) event whose
 * name contains `annotation` (HTA's rule), or the whole trace for "".
 * NULL with a message in err (size 256) when the annotation is missing. */
struct cp_graph *critpath_build(const struct cp_frame *f, const char *annotation, unsigned instance,
                                char *err);
void critpath_free(struct cp_graph *g);

/* Change edge e's weight (µs, >= 0) before the next critpath_longest. */
void critpath_set_weight(struct cp_graph *g, uint32_t e, int64_t weight);
/* The longest path: fills path and length; false when the graph has a cycle. */
bool critpath_longest(struct cp_graph *g);

/* What-if: the path when some edges run FACTOR times as long.
 *
 * `factor` says, per edge, the factor its weight is scaled by (>= 0), or
 * a negative number to leave it as it is. The weight as built is the
 * edge's measured time (a negative span 0); the scaled one is rounded to
 * whole µs. */
typedef double (*critpath_factor_fn)(const struct cp_graph *g, uint32_t e, void *ud);

/* The length (µs, the search's: negative spans count 0) of the longest
 * path with the edges re-weighted by `factor`; -1 when the graph has no
 * path. The graph is left as it was: weights, path and length. matched
 * and on_path (either may be NULL) receive how many edges were scaled and
 * how many of those are on the path as it was. Linear in the graph. */
int64_t critpath_whatif(struct cp_graph *g, critpath_factor_fn factor, void *ud, size_t *matched,
                        size_t *on_path);

/* The trace event (index into trace.ev) whose span edge e is: the event
 * of an operator edge (its own time, not its children's); IDX_NONE for
 * kernel-kernel gaps, launch delays, dependencies and syncs. For GPU work,
 * *launcher receives the innermost op around its launch call (the ops
 * around that one are its trace.ev parents), else IDX_NONE. */
uint32_t critpath_edge_event(const struct cp_graph *g, uint32_t e, uint32_t *launcher);

/* Whether edge e is a span of trace event `ev`: ev is the edge's event
 * (critpath_edge_event), or GPU work's launcher or an op around it: an op
 * owns the GPU work launched inside it, at any depth; the launch call
 * itself owns only its own span. */
bool critpath_edge_of_event(const struct cp_graph *g, uint32_t e, uint32_t ev);

/* The path's length if event `ev`'s edges (critpath_edge_of_event) ran
 * `factor` (>= 0) times as long: critpath_whatif for one event. */
int64_t critpath_whatif_event(struct cp_graph *g, uint32_t ev, double factor, size_t *matched);

/* HTA's classification of an edge of the path. */
enum cp_bound critpath_bound_by(const struct cp_graph *g, const struct cp_edge *e);
const char *critpath_bound_name(enum cp_bound b);
const char *critpath_edge_type_name(enum cp_edge_type t);

#endif
