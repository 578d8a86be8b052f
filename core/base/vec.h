/* Typed growable arrays: a struct with `T *v; size_t n, cap;` members.
 *
 *   VEC(uint32_t) ids = {0};
 *   VEC_PUSH(&ids, 42);
 *   VEC_FREE(&ids);
 *
 * Growth doubles the capacity; pointers into v are invalidated by a push. */
#ifndef TORCHTOP_CORE_VEC_H
#define TORCHTOP_CORE_VEC_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"

#define VEC(T)                                                                                     \
    struct {                                                                                       \
        T *v;                                                                                      \
        size_t n, cap;                                                                             \
    }

/* Grow *v (of elements of elsize bytes) to hold at least want elements. */
void vec_grow(void **v, size_t *cap, size_t want, size_t elsize);

/* Make room for at least `want` elements in total (an expression). */
#define VEC_RESERVE(vec, want)                                                                     \
    ((size_t)(want) > (vec)->cap                                                                   \
         ? vec_grow((void **)&(vec)->v, &(vec)->cap, (want), sizeof(*(vec)->v))                    \
         : (void)0)

#define VEC_PUSH(vec, x)                                                                           \
    do {                                                                                           \
        VEC_RESERVE(vec, (vec)->n + 1);                                                            \
        (vec)->v[(vec)->n++] = (x);                                                                \
    } while (0)

/* Append n elements copied from src (which may be NULL when n is 0). */
#define VEC_APPEND(vec, src, cnt)                                                                  \
    do {                                                                                           \
        size_t n_ = (cnt);                                                                         \
        if (n_) {                                                                                  \
            VEC_RESERVE(vec, (vec)->n + n_);                                                       \
            memcpy((vec)->v + (vec)->n, (src), n_ * sizeof(*(vec)->v));                            \
            (vec)->n += n_;                                                                        \
        }                                                                                          \
    } while (0)

/* Append one zeroed element and yield a pointer to it. */
#define VEC_ADD(vec)                                                                               \
    (VEC_RESERVE(vec, (vec)->n + 1), memset(&(vec)->v[(vec)->n], 0, sizeof(*(vec)->v)),            \
     &(vec)->v[(vec)->n++])

#define VEC_FREE(vec)                                                                              \
    do {                                                                                           \
        free((vec)->v);                                                                            \
        (vec)->v = NULL;                                                                           \
        (vec)->n = (vec)->cap = 0;                                                                 \
    } while (0)

#endif
