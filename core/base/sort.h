/* A typed, stable merge sort with an inlined comparison, fast on the
 * nearly sorted sequences traces are made of.
 *
 *   static inline bool key_less(const struct key *a, const struct key *b);
 *   SORT_DEFINE(key_sort, struct key, key_less)
 *   key_sort(array, n);   // allocates n elements of scratch when unsorted
 *
 * The ascending runs are found first: one run is sorted already, and up to
 * SORT_MAX_RUNS of them (a row of a trace is a few runs per kind of event
 * Kineto writes, per copy of a tiled trace) are merged in one pass by a
 * tournament of the runs' heads, so that each element is read once rather
 * than once per level of pairwise merges. That matters where the
 * comparison reads what an index names: each read is a cache miss once the
 * trace outgrows the cache. More runs than that take the bottom-up merge
 * sort, whose scratch is touched only where runs are out of order. */
#ifndef TORCHTOP_CORE_SORT_H
#define TORCHTOP_CORE_SORT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/xalloc.h"

/* The most runs merged in one pass: the tournament's heads (and, for an
 * index sort, the elements they name) stay in cache. */
#define SORT_MAX_RUNS 512

#define SORT_DEFINE(name, T, less)                                                                 \
    static inline bool name##_less_ctx(const void *ctx, const T *a, const T *b)                    \
    {                                                                                              \
        (void)ctx;                                                                                 \
        return less(a, b);                                                                         \
    }                                                                                              \
    SORT_DEFINE_CTX(name##_ctx, T, void, name##_less_ctx)                                          \
    static ATTR_UNUSED void name(T *a, size_t n)                                                   \
    {                                                                                              \
        name##_ctx(a, n, NULL);                                                                    \
    }

/* The same sort, for an order that needs more than the two elements (an
 * array of indices ordered by what they index):
 *
 *   static inline bool idx_less(const struct ctx *c, const uint32_t *a, const uint32_t *b);
 *   SORT_DEFINE_CTX(idx_sort, uint32_t, struct ctx, idx_less)
 *   idx_sort(array, n, &ctx);
 */
#define SORT_DEFINE_CTX(name, T, C, less)                                                          \
    static void name##_merge(T *a, size_t lo, size_t mid, size_t hi, T *tmp, const C *ctx)         \
    {                                                                                              \
        if (!less(ctx, &a[mid], &a[mid - 1]))                                                      \
            return; /* already in order */                                                         \
        memcpy(tmp + lo, a + lo, (mid - lo) * sizeof(T));                                          \
        size_t i = lo, j = mid, k = lo;                                                            \
        while (i < mid && j < hi)                                                                  \
            a[k++] = less(ctx, &a[j], &tmp[i]) ? a[j++] : tmp[i++];                                \
        while (i < mid)                                                                            \
            a[k++] = tmp[i++];                                                                     \
    }                                                                                              \
    static void name##_insertion(T *a, size_t lo, size_t hi, const C *ctx)                         \
    {                                                                                              \
        for (size_t i = lo + 1; i < hi; i++) {                                                     \
            if (!less(ctx, &a[i], &a[i - 1]))                                                      \
                continue;                                                                          \
            T x = a[i];                                                                            \
            size_t j = i;                                                                          \
            while (j > lo && less(ctx, &x, &a[j - 1])) {                                           \
                a[j] = a[j - 1];                                                                   \
                j--;                                                                               \
            }                                                                                      \
            a[j] = x;                                                                              \
        }                                                                                          \
    }                                                                                              \
    /* Whether run x's head goes before run y's: an exhausted run never                            \
     * does, and on equal heads the earlier run does (stability). */                               \
    static inline bool name##_beats(const T *a, const size_t *pos, const size_t *bound, size_t x,  \
                                    size_t y, const C *ctx)                                        \
    {                                                                                              \
        if (pos[x] == bound[x + 1])                                                                \
            return false;                                                                          \
        if (pos[y] == bound[y + 1])                                                                \
            return true;                                                                           \
        if (less(ctx, &a[pos[y]], &a[pos[x]]))                                                     \
            return false;                                                                          \
        return x < y || less(ctx, &a[pos[x]], &a[pos[y]]);                                         \
    }                                                                                              \
    /* Merge the k ascending runs a[bound[r]..bound[r + 1]) (k >= 2) with a                        \
     * loser tree: node i in 1..k-1 keeps the run that lost there, leaves                          \
     * are k..2k-1, and each step replays the winner's path only. */                               \
    static void name##_kmerge(T *a, size_t n, const size_t *bound, size_t k, const C *ctx)         \
    {                                                                                              \
        size_t *pos = xmalloc(k * sizeof(*pos));                                                   \
        size_t *loser = xmalloc(2 * k * sizeof(*loser));                                           \
        size_t *win = loser + k; /* the winners below each node, while building */                 \
        T *out = xmalloc(n * sizeof(T));                                                           \
        memcpy(pos, bound, k * sizeof(*pos));                                                      \
        for (size_t i = k - 1; i >= 1; i--) {                                                      \
            size_t l = 2 * i >= k ? 2 * i - k : win[2 * i];                                        \
            size_t r = 2 * i + 1 >= k ? 2 * i + 1 - k : win[2 * i + 1];                            \
            bool lw = name##_beats(a, pos, bound, l, r, ctx);                                      \
            loser[i] = lw ? r : l;                                                                 \
            win[i] = lw ? l : r;                                                                   \
        }                                                                                          \
        size_t w = win[1];                                                                         \
        for (size_t o = 0; o < n; o++) {                                                           \
            out[o] = a[pos[w]++];                                                                  \
            for (size_t i = (w + k) / 2; i >= 1; i /= 2)                                           \
                if (name##_beats(a, pos, bound, loser[i], w, ctx)) {                               \
                    size_t t = loser[i];                                                           \
                    loser[i] = w;                                                                  \
                    w = t;                                                                         \
                }                                                                                  \
        }                                                                                          \
        memcpy(a, out, n * sizeof(T));                                                             \
        free(out);                                                                                 \
        free(loser);                                                                               \
        free(pos);                                                                                 \
    }                                                                                              \
    static ATTR_UNUSED void name(T *a, size_t n, const C *ctx)                                     \
    {                                                                                              \
        enum { RUN = 24 };                                                                         \
        if (n < 2)                                                                                 \
            return;                                                                                \
        size_t bound[SORT_MAX_RUNS + 1], k = 1;                                                    \
        bound[0] = 0;                                                                              \
        for (size_t i = 1; i < n; i++)                                                             \
            if (less(ctx, &a[i], &a[i - 1])) {                                                     \
                if (k == SORT_MAX_RUNS) {                                                          \
                    k++;                                                                           \
                    break;                                                                         \
                }                                                                                  \
                bound[k++] = i;                                                                    \
            }                                                                                      \
        if (k == 1)                                                                                \
            return;                                                                                \
        if (k <= SORT_MAX_RUNS) {                                                                  \
            bound[k] = n;                                                                          \
            name##_kmerge(a, n, bound, k, ctx);                                                    \
            return;                                                                                \
        }                                                                                          \
        for (size_t lo = 0; lo < n; lo += RUN)                                                     \
            name##_insertion(a, lo, lo + RUN < n ? lo + RUN : n, ctx);                             \
        if (n <= RUN)                                                                              \
            return;                                                                                \
        T *tmp = xmalloc(n * sizeof(T));                                                           \
        for (size_t w = RUN; w < n; w *= 2)                                                        \
            for (size_t lo = 0; lo + w < n; lo += 2 * w)                                           \
                name##_merge(a, lo, lo + w, lo + 2 * w < n ? lo + 2 * w : n, tmp, ctx);            \
        free(tmp);                                                                                 \
    }

/* qsort for arrays that may be empty: qsort's base must not be NULL even
 * when n is 0, and an empty vector's storage is NULL. */
static inline void sort_items(void *base, size_t n, size_t size,
                              int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

#endif
