/* The steady-state window of a serving trace: the iterations to measure a
 * server by, once it has ramped up to its load and before it drains, as
 * TraceLens's inference split picks them (split_inference's steady-state
 * window; docs/metrics.md, "Serving iterations"):
 *
 *   1. Requests per iteration: prefill plus decode requests. An iteration
 *      is at the peak when its requests are within max(1, 10 % of the
 *      peak) of the most any iteration has.
 *   2. Steady regions: a region starts once more than five iterations have
 *      been at the peak (it starts that many iterations back); once
 *      started, each iteration off the peak counts one down, and the
 *      region ends where the count reaches zero (or at the last
 *      iteration). No region: the iterations without the first four and
 *      the last four (half of min(n, 8) at each end).
 *   3. The window: in the largest region (the first of equals), the
 *      longest run of consecutive iterations of one kind (prefill, decode
 *      or mixed; iterations without tokens only when nothing else runs),
 *      the first of equals. */
#ifndef TORCHTOP_CORE_STEADY_H
#define TORCHTOP_CORE_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/roofline/iterations.h"

struct steady {
    size_t from, to;    /* iterations [from, to) of the list */
    size_t region_from; /* the steady region they were picked in */
    size_t region_to;
    unsigned kind; /* enum iter_kind of them all */
};

/* The steady-state window of it[0..n) (iterations_list's order); false
 * when n is 0. */
bool steady_window(const struct iteration *it, size_t n, struct steady *out);

#endif
