/* A typed, stable merge sort with an inlined comparison, fast on the
 * nearly sorted sequences traces are made of (runs are detected first).
 *
 *   static inline bool key_less(const struct key *a, const struct key *b);
 *   SORT_DEFINE(key_sort, struct key, key_less)
 *   key_sort(array, n);   // allocates n elements of scratch
 *
 * The scratch is touched only where runs are out of order. */
#ifndef TORCHTOP_CORE_SORT_H
#define TORCHTOP_CORE_SORT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/xalloc.h"

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
    static ATTR_UNUSED void name(T *a, size_t n, const C *ctx)                                     \
    {                                                                                              \
        enum { RUN = 24 };                                                                         \
        if (n < 2)                                                                                 \
            return;                                                                                \
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
