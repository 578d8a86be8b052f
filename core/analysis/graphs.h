/* CUDA/HIP graph replays (docs/metrics.md §16): the GPU work that a graph
 * launch (cudaGraphLaunch, hipGraphLaunch) replays, grouped per graph.
 *
 * A graph is identified by the kernels' "graph id" arg where the trace has
 * one (CUPTI; recent Kineto on ROCm), else by the sequence of kernel names
 * a launch replays: two launches replaying the same names in the same order
 * are replays of one graph. Node positions are the replay's GPU events in
 * start order ("graph node id" order where present). */
#ifndef TORCHTOP_CORE_GRAPHS_H
#define TORCHTOP_CORE_GRAPHS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

/* GPU work still owned by graph launches (not attributed through a
 * capture), against all GPU work. */
struct graph_share {
    uint64_t launches; /* graph launches owning GPU work */
    uint64_t kernels;  /* GPU events they own */
    int64_t ns;        /* sum of those events' durations */
    int64_t gpu_ns;    /* sum of every GPU event's duration */
};

/* Fill out for an indexed trace; false when no GPU work ran in graph
 * replays. */
bool graphs_share(const struct trace *t, struct graph_share *out);

/* Whether event i is a graph launch: a runtime or driver call that owns
 * graph-replayed GPU work (EVF_GRAPH). */
bool graphs_is_launch(const struct trace *t, uint32_t i);

/* The GPU time still owned by graph launches split by kernel category
 * (kerncat.h): ns[c] is the sum of the durations of those GPU events of
 * category c. False when there are none. */
bool graphs_by_category(const struct trace *t, int64_t ns[], size_t n);

/* The "graphs" report: two tables, per graph (replays, kernels per replay,
 * time per replay mean/min/max) and per graph node position (kernel,
 * kernel category, time statistics over the replays). Row refs: the first
 * launch of the graph; the node's event in the first replay. After a
 * capture merge (capture.h) they list the GPU events left with graph
 * launches, with a note of how many were attributed. False when no graph
 * launch owns or owned GPU work (message in err, size 256). */
bool graphs_tables(const struct trace *t, struct table_list *out, char *err);

#endif
