/* The steady-state window of a serving trace (core/roofline/steady.h). */
#include "config.h"

#include <stdlib.h>

#include "core/base/wide.h"
#include "core/base/xalloc.h"
#include "core/roofline/steady.h"

/* More iterations at the peak than this start a region. */
#define STEADY_START 5

static int64_t requests(const struct iteration *it)
{
    return wide_add_sat(it->sums.c_n > 0 ? it->sums.c_n : 0, it->sums.g_n > 0 ? it->sums.g_n : 0);
}

/* The largest steady region of it[0..n) into [*from, *to). */
static void largest_region(const struct iteration *it, size_t n, size_t *from, size_t *to)
{
    int64_t peak = 0;
    for (size_t i = 0; i < n; i++)
        peak = MAX(peak, requests(&it[i]));
    double band = MAX(1.0, 0.1 * (double)peak);
    bool started = false, found = false;
    int64_t count = 0;
    size_t start = 0;
    *from = *to = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (double)requests(&it[i]) - (double)peak;
        bool at_peak = d >= -band && d <= band;
        if (at_peak && !started)
            count++;
        else if (!at_peak && started)
            count--;
        if (count > STEADY_START && !started) {
            started = true;
            start = i + 1 - (size_t)count;
        }
        bool ends = started && count <= 0;
        if (ends || (started && i + 1 == n)) {
            size_t end = ends ? i : n;
            if (!found || end - start > *to - *from) {
                *from = start;
                *to = end;
            }
            found = true;
            started = false;
            count = 0;
        }
    }
    if (!found) {
        size_t half = MIN(n, (size_t)8) / 2;
        *from = half;
        *to = MAX(half + 1, n - half);
    }
}

bool steady_window(const struct iteration *it, size_t n, struct steady *out)
{
    if (!n)
        return false;
    size_t rf, rt;
    largest_region(it, n, &rf, &rt);
    /* The longest run of one kind in it; a run of empty iterations only
     * when there is no other. */
    size_t best_from = rf, best_len = 0;
    bool best_empty = true;
    for (size_t i = rf; i < rt;) {
        size_t j = i + 1;
        while (j < rt && it[j].kind == it[i].kind)
            j++;
        bool empty = it[i].kind == ITER_EMPTY;
        if ((best_empty && !empty) || (empty == best_empty && j - i > best_len)) {
            best_from = i;
            best_len = j - i;
            best_empty = empty;
        }
        i = j;
    }
    *out = (struct steady){best_from, best_from + best_len, rf, rt, it[best_from].kind};
    return true;
}
