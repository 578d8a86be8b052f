/* Interval-set algebra on half-open [start, end) ranges of ns.
 *
 * A "set" is an array sorted by start whose ranges neither overlap nor
 * touch (ival_normalize makes one from any array). Lengths are int64 ns. */
#ifndef TORCHTOP_CORE_INTERVAL_H
#define TORCHTOP_CORE_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/vec.h"

struct ival {
    int64_t start, end;
};

typedef VEC(struct ival) ivals_t;

/* Sort and merge ranges that overlap or touch, in place; empty ranges are
 * dropped. Returns the new count. */
size_t ival_normalize(struct ival *v, size_t n);
/* Total length of a set. */
int64_t ival_length(const struct ival *v, size_t n);
/* Length of the union of any ranges (v is reordered). */
int64_t ival_union_length(struct ival *v, size_t n);
/* out = a \ b for sets a and b; out needs room for na + nb ranges.
 * Returns the count written. */
size_t ival_subtract(const struct ival *a, size_t na, const struct ival *b, size_t nb,
                     struct ival *out);
/* out = a ∩ b for sets a and b; out needs room for na + nb ranges.
 * Returns the count written. */
size_t ival_intersect(const struct ival *a, size_t na, const struct ival *b, size_t nb,
                      struct ival *out);
/* Length of a ∩ b for sets a and b. */
int64_t ival_intersect_length(const struct ival *a, size_t na, const struct ival *b, size_t nb);

#endif
