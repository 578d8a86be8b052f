/* Bump allocator: many small allocations, one release.
 *
 * Memory from an arena stays valid until arena_reset() or arena_free(); the
 * arena never moves what it handed out. Not thread-safe: one arena per thread. */
#ifndef TORCHTOP_CORE_ARENA_H
#define TORCHTOP_CORE_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
    struct arena_chunk *head; /* current chunk; older chunks hang off it */
    char *cur, *end;          /* free space in the current chunk */
    size_t chunk_size;        /* size of ordinary chunks */
    size_t used;              /* bytes handed out since the last reset */
};

/* chunk_size 0 picks a default (64 KiB). */
void arena_init(struct arena *a, size_t chunk_size);
/* Release every chunk. The arena can be reused after arena_init. */
void arena_free(struct arena *a);
/* Forget every allocation but keep the first chunk for reuse. */
void arena_reset(struct arena *a);
/* arena_alloc's way when the current chunk has no room for n (rounded). */
void *arena_alloc_grow(struct arena *a, size_t n);

/* n bytes aligned to 8; never NULL (aborts on out-of-memory). Inline: the
 * parsers take a node or a string from it per value. */
static inline void *arena_alloc(struct arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (n > (size_t)(a->end - a->cur))
        return arena_alloc_grow(a, n);
    a->used += n;
    void *p = a->cur;
    a->cur += n;
    return p;
}
/* Copy of s[0..n) with a NUL after it. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Bytes reserved from the system, for memory reports. */
size_t arena_reserved(const struct arena *a);

#endif
