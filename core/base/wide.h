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

#endif
