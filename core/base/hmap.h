/* The hash map: open addressing, linear probing, uint32_t values. One type
 * serves two kinds of keys:
 *
 * - Plain keys (hmap_get, hmap_put, hmap_put_first): the key is a uint64_t
 *   (an event index, a correlation id, an address) and the map holds it.
 *
 * - Keys the caller holds (hmap_find, hmap_add): strings, structs, frame
 *   lists. A value is an index into the caller's storage, and the map holds
 *   only that: the caller's hmap_eq_fn compares a probe key with the entry
 *   at an index, and its hmap_hash_fn gives an entry's hash when the map
 *   grows. Hashes must be well mixed (hash_bytes, hash_mix64); only their
 *   low 32 bits are used, so a caller may keep 32 of them per entry.
 *
 * A map uses one kind of key only. IDX_NONE is not a storable value (it
 * means "absent"). A zeroed struct hmap is an empty map; hmap_init only
 * sizes it in advance. Not thread-safe. */
#ifndef TORCHTOP_CORE_HMAP_H
#define TORCHTOP_CORE_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/common.h"

struct hmap {
    uint32_t *vals; /* per slot: value + 1, 0 = empty (so zeroed memory is empty slots) */
    uint64_t *keys; /* per slot: the plain key; NULL while no plain key was stored */
    size_t mask;    /* slot count - 1 (a power of two); 0 before the first slot */
    size_t n;       /* entries stored */
};

/* Whether the caller's entry at index val has the key `probe` points to. */
typedef bool (*hmap_eq_fn)(const void *probe, uint32_t val);
/* The hash of the caller's entry at index val; ctx is hmap_add's. */
typedef uint32_t (*hmap_hash_fn)(const void *ctx, uint32_t val);

/* An empty map with room for `expected` entries before it grows. */
void hmap_init(struct hmap *m, size_t expected);
/* Release the slots; m is then an empty map again. */
void hmap_free(struct hmap *m);

/* Value stored for key, or IDX_NONE. */
uint32_t hmap_get(const struct hmap *m, uint64_t key);
/* Store val for key, replacing any value it had. val != IDX_NONE. */
void hmap_put(struct hmap *m, uint64_t key, uint32_t val);
/* Store val for key unless key is present; returns the value now stored. */
uint32_t hmap_put_first(struct hmap *m, uint64_t key, uint32_t val);

/* The index stored under hash whose entry eq(probe, index) accepts, or
 * IDX_NONE. Inline, so that a constant eq is inlined too. */
static inline uint32_t hmap_find(const struct hmap *m, uint32_t hash, hmap_eq_fn eq,
                                 const void *probe)
{
    if (!m->vals)
        return IDX_NONE;
    for (size_t i = hash & m->mask;; i = (i + 1) & m->mask) {
        uint32_t v = m->vals[i];
        if (!v)
            return IDX_NONE;
        if (eq(probe, v - 1))
            return v - 1;
    }
}
/* Store index val under hash without looking for an equal entry (the
 * caller has just failed to find one). val != IDX_NONE. When the map grows,
 * hash_of(ctx, v) gives the hash of every index v stored before. */
void hmap_add(struct hmap *m, uint32_t hash, uint32_t val, hmap_hash_fn hash_of, const void *ctx);

static inline size_t hmap_count(const struct hmap *m)
{
    return m->n;
}
/* Bytes of the slot arrays, for memory reports. */
size_t hmap_memory(const struct hmap *m);

#endif
