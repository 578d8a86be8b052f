/* The merged call tree of two traces (TraceLens's TraceDiff approach,
 * docs/metrics.md §12.1): the roots of both traces, and then the children
 * of every pair of matched nodes, are aligned by name with an edit-distance
 * (Wagner-Fischer) alignment in which a repeated name pairs with the
 * instance whose GPU work (kernel names) is the same; nodes present on one
 * side only are kept,
 * with their whole subtree, as one-side nodes. Every merged node carries
 * both sides' CPU time and GPU time (direct and subtree).
 *
 * Ownership: a struct difftree borrows both traces (indexed; they must
 * outlive it) and owns its nodes; the tables it builds are the caller's. */
#ifndef TORCHTOP_CORE_DIFFTREE_H
#define TORCHTOP_CORE_DIFFTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/gputime.h"
#include "core/base/strtab.h"
#include "core/base/table.h"
#include "core/base/vec.h"
#include "core/trace/trace.h"

struct difftree_node {
    uint32_t ev[2];        /* the event on each side (control, test), IDX_NONE if absent */
    uint32_t parent;       /* merged parent, IDX_NONE for roots */
    uint32_t first_child;  /* merged children in alignment order, IDX_NONE */
    uint32_t next_sibling; /* IDX_NONE */
    uint32_t depth;        /* 0 for roots */
};

struct difftree {
    const struct trace *t[2]; /* control, test (borrowed) */
    struct gputime *g[2];     /* GPU time of host spans, per side */
    VEC(struct difftree_node)
    nodes;                /* parents before children, siblings
                             adjacent in order (not pre-order) */
    uint32_t *node_of[2]; /* per event of each side: its node, IDX_NONE */
    uint32_t first_root;  /* first merged root, IDX_NONE when empty */
    char *label[2];       /* column prefixes */
};

/* Merge the call trees of control and test (both indexed). labels may be
 * NULL for "control" and "test". Never fails. */
struct difftree *difftree_new(const struct trace *control, const struct trace *test,
                              const char *const label[2]);
void difftree_free(struct difftree *dt);

/* Nanoseconds of a node on one side: CPU time (the span), GPU time of its
 * own launches, GPU time of its subtree; 0 when the side lacks it. */
int64_t difftree_cpu(const struct difftree *dt, uint32_t node, int side);
int64_t difftree_gpu_direct(const struct difftree *dt, uint32_t node, int side);
int64_t difftree_gpu_subtree(const struct difftree *dt, uint32_t node, int side);

/* The node's name (the control's when it has both). */
const char *difftree_name(const struct difftree *dt, uint32_t node);

/* Table "diff_tree": one row per merged node, by |Δ GPU subtree time|
 * then |Δ CPU time| (largest first): name, in (both or one label), depth,
 * parent, CPU time, GPU time (direct and subtree) and GPU event counts of
 * each side, and the Δs (µs). Refs are node indices. */
struct table *difftree_table(const struct difftree *dt);
/* The same table with only the rows printed under --top `top` (0: the
 * table's top_default, 50; SIZE_MAX: every row) built, the others counted
 * in rows_left_out: every node's order keys are computed, the cells of the
 * top rows only. Not to be sorted again or written whole (a workbook). */
struct table *difftree_table_top(const struct difftree *dt, size_t top);

/* Table "diff_lca": each side's GPU work grouped under the lowest matched
 * ancestor of its launch (TraceLens's LCA grouping): a launch whose path
 * from the root is matched throughout counts under the op that made it;
 * otherwise under the matched node above the first one-side node of the
 * path. Per group: both sides' GPU time, kernel counts and most expensive
 * kernel, and Δ; by |Δ| (largest first). Refs are node indices. */
struct table *difftree_lca_table(const struct difftree *dt);

#endif
