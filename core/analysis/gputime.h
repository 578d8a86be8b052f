/* GPU time induced by host events (docs/metrics.md §3.1).
 *
 * direct(op)  = length of the union of the GPU events op launched directly
 *               (op is their launcher);
 * subtree(op) = length of the union of the GPU events launched by any
 *               runtime call in op's subtree (op included); the subtree
 *               of a graph launch holds the captured copies grafted under
 *               it (capture.h), so the replay's ops above it count the
 *               replayed kernels that the capture attributed.
 * Both exist in two flavours: with communication kernels (the explorer's
 * "induced GPU time") and without (the launcher tables, which leave
 * collectives to the timeline). Values are computed on first use and
 * cached; a struct gputime borrows its trace. Not thread-safe.
 *
 * Subtree values asked one at a time cost their subtree's GPU events each;
 * once those add up to four passes over all of them (deep trees: the sum
 * of nested subtrees is quadratic in depth), every span's value is made
 * in one O(n log n) pass and kept (8 bytes per host span and flavour), so
 * asking for all of them stays O(n log n) however deep the tree. */
#ifndef TORCHTOP_CORE_GPUTIME_H
#define TORCHTOP_CORE_GPUTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "core/trace/trace.h"

struct gputime;

struct gputime *gputime_new(const struct trace *t);
void gputime_free(struct gputime *g);

int64_t gputime_direct(struct gputime *g, uint32_t ev, bool with_comm);
int64_t gputime_subtree(struct gputime *g, uint32_t ev, bool with_comm);
/* The same values, computed without being kept: for a caller that asks
 * once per event and keeps them itself (subtree values still come from
 * the one-pass table above once it is made). */
int64_t gputime_direct_once(struct gputime *g, uint32_t ev, bool with_comm);
int64_t gputime_subtree_once(struct gputime *g, uint32_t ev, bool with_comm);

/* Cache every value in per-event arrays (32 bytes per event) instead of
 * a map, for a caller that asks for most events (a whole merged tree). */
void gputime_dense(struct gputime *g);

/* GPU events whose launcher is ev, in start order (with comm kernels). */
const uint32_t *gputime_launched(struct gputime *g, uint32_t ev, uint32_t *count);
/* The events gputime_launched gives GPU work for, ascending (*count of
 * them); owned by g. */
const uint32_t *gputime_launchers(const struct gputime *g, uint32_t *count);
/* GPU events launched under ev's subtree, in tree (pre-order) order of
 * their launches: a slice of gputime_tree_events. */
const uint32_t *gputime_subtree_events(struct gputime *g, uint32_t ev, uint32_t *count);
/* Every GPU event launched in a thread's tree, in that order; each
 * subtree's are a contiguous slice of it. */
const uint32_t *gputime_tree_events(const struct gputime *g, uint32_t *count);

/* The numbering behind it: host spans are numbered in pre-order, thread
 * after thread, so that the subtree of host span ev is [*lo, *hi). False
 * (nothing written) when ev is not a host span of a thread's tree. */
bool gputime_span_range(struct gputime *g, uint32_t ev, uint32_t *lo, uint32_t *hi);

/* Let the numbering go (8 bytes per event) until a call above needs it
 * again, which makes it anew: for a caller done with subtrees for now (a
 * report, once its op table has its values). */
void gputime_drop_numbering(struct gputime *g);

#endif
