/* 128-bit sums of int64 values (times, byte counts) from untrusted input:
 * a few values near the int64 limits add up past them, and the sum must
 * be right rather than wrapped. Shown values are clamped back. */
#ifndef TORCHTOP_CORE_WIDE_H
#define TORCHTOP_CORE_WIDE_H

#include <stdint.h>

/* v clamped to [INT64_MIN, INT64_MAX]. */
static inline int64_t wide_clamp(__int128 v)
{
    return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/* a + b, clamped to [INT64_MIN, INT64_MAX] instead of wrapping: for
 * running sums kept in int64. */
static inline int64_t wide_add_sat(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

#endif
