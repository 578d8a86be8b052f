/* Interval-set algebra. */
#include "config.h"

#include "core/base/interval.h"
#include "core/base/sort.h"

static inline bool ival_less(const struct ival *a, const struct ival *b)
{
    return a->start < b->start || (a->start == b->start && a->end < b->end);
}

SORT_DEFINE(ival_sort, struct ival, ival_less)

size_t ival_normalize(struct ival *v, size_t n)
{
    ival_sort(v, n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].end <= v[i].start)
            continue;
        if (k && v[i].start <= v[k - 1].end) {
            if (v[i].end > v[k - 1].end)
                v[k - 1].end = v[i].end;
        } else {
            v[k++] = v[i];
        }
    }
    return k;
}

int64_t ival_length(const struct ival *v, size_t n)
{
    int64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += v[i].end - v[i].start;
    return total;
}

int64_t ival_union_length(struct ival *v, size_t n)
{
    return ival_length(v, ival_normalize(v, n));
}

size_t ival_subtract(const struct ival *a, size_t na, const struct ival *b, size_t nb,
                     struct ival *out)
{
    size_t k = 0, j = 0;
    for (size_t i = 0; i < na; i++) {
        int64_t s = a[i].start, e = a[i].end;
        while (j < nb && b[j].end <= s)
            j++;
        size_t jj = j;
        while (jj < nb && b[jj].start < e) {
            if (b[jj].start > s)
                out[k++] = (struct ival){s, b[jj].start};
            if (b[jj].end > s)
                s = b[jj].end;
            if (s >= e)
                break;
            jj++;
        }
        if (s < e)
            out[k++] = (struct ival){s, e};
    }
    return k;
}

size_t ival_intersect(const struct ival *a, size_t na, const struct ival *b, size_t nb,
                      struct ival *out)
{
    size_t n = 0, i = 0, j = 0;
    while (i < na && j < nb) {
        int64_t s = a[i].start > b[j].start ? a[i].start : b[j].start;
        int64_t e = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (s < e)
            out[n++] = (struct ival){s, e};
        if (a[i].end < b[j].end)
            i++;
        else
            j++;
    }
    return n;
}

int64_t ival_intersect_length(const struct ival *a, size_t na, const struct ival *b, size_t nb)
{
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int64_t s = a[i].start > b[j].start ? a[i].start : b[j].start;
        int64_t e = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (s < e)
            total += e - s;
        if (a[i].end < b[j].end)
            i++;
        else
            j++;
    }
    return total;
}
