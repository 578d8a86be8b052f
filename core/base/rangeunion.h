/* Union lengths of many index ranges of one sequence of intervals, all at
 * once: for intervals iv[0..n) and queries [lo, hi) over their indices,
 * the length of the union of iv[lo..hi) for each query (what
 * ival_union_length gives for that slice), in O((n + q) log n) time and
 * O(n + q) memory, however the ranges nest or overlap. A caller that asks
 * for nested slices one at a time (a subtree's GPU work for every node of
 * a deep tree) would spend the sum of their sizes: quadratic in depth.
 *
 * The method: the sorted distinct endpoints cut time into elementary
 * segments; intervals are taken in index order, and every segment
 * remembers the last interval that covered it (a segment tree of range
 * assignments). A Fenwick tree over indices holds, per interval, the
 * length of the segments whose last cover it is. After the intervals
 * below hi are taken, the union of iv[lo..hi) is the length whose last
 * cover has an index of lo or more. */
#ifndef TORCHTOP_CORE_RANGEUNION_H
#define TORCHTOP_CORE_RANGEUNION_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/interval.h"

struct rangeunion_query {
    uint32_t lo, hi; /* indices into the intervals, lo <= hi <= n */
};

/* out[k] = the union length of iv[q[k].lo .. q[k].hi); empty intervals
 * (end <= start) count for nothing. */
void rangeunion_lengths(const struct ival *iv, size_t n, const struct rangeunion_query *q,
                        size_t nq, int64_t *out);

#endif
