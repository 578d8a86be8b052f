/* Chunked bump allocator. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/arena.h"
#include "core/base/xalloc.h"

struct arena_chunk {
    struct arena_chunk *next;
    size_t size; /* usable bytes after the header */
    /* data follows, 16-byte aligned */
} __attribute__((aligned(16)));

void arena_init(struct arena *a, size_t chunk_size)
{
    memset(a, 0, sizeof(*a));
    a->chunk_size = chunk_size ? chunk_size : 64 * 1024;
}

void arena_free(struct arena *a)
{
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->cur = a->end = NULL;
    a->used = 0;
}

void arena_reset(struct arena *a)
{
    if (!a->head)
        return;
    /* Keep the oldest chunk, which is the last in the list. */
    struct arena_chunk *c = a->head, *keep = NULL;
    while (c) {
        struct arena_chunk *next = c->next;
        if (!next)
            keep = c;
        else
            free(c);
        c = next;
    }
    a->head = keep;
    a->cur = (char *)(keep + 1);
    a->end = a->cur + keep->size;
    a->used = 0;
}

static void arena_grow(struct arena *a, size_t n)
{
    size_t size = n > a->chunk_size ? n : a->chunk_size;
    struct arena_chunk *c = xmalloc(sizeof(*c) + size);
    c->size = size;
    if (a->head && n > a->chunk_size) {
        /* An oversized block goes behind the current chunk so the free
         * space of the current chunk stays usable. */
        c->next = a->head->next;
        a->head->next = c;
        return;
    }
    c->next = a->head;
    a->head = c;
    a->cur = (char *)(c + 1);
    a->end = a->cur + size;
}

void *arena_alloc_grow(struct arena *a, size_t n)
{
    a->used += n;
    if (n > a->chunk_size && a->head) {
        arena_grow(a, n);
        return (char *)(a->head->next + 1);
    }
    arena_grow(a, n);
    void *p = a->cur;
    a->cur += n;
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

size_t arena_reserved(const struct arena *a)
{
    size_t total = 0;
    for (const struct arena_chunk *c = a->head; c; c = c->next)
        total += c->size + sizeof(*c);
    return total;
}
