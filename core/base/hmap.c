/* The hash map: open addressing with linear probing, at most half full, so
 * a probe ends at an empty slot after a few steps. */
#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/hmap.h"
#include "core/base/xalloc.h"

#define HMAP_MIN_SLOTS 16

/* Keys are allocated before values and freed before them, everywhere: in
 * that order glibc reuses the freed arrays of a growing map better (the
 * other order raised the peak resident memory of a report on a 256 MB
 * trace by about 0.4 MB). */
static void hmap_alloc(struct hmap *m, size_t nslots, bool with_keys)
{
    m->keys = with_keys ? xmalloc(nslots * sizeof(*m->keys)) : NULL;
    m->vals = xcalloc(nslots, sizeof(*m->vals));
    m->mask = nslots - 1;
}

/* Move every entry to a table of nslots. Plain keys are where the map
 * holds them; the caller's entries are hashed by hash_of. */
static void hmap_grow(struct hmap *m, size_t nslots, hmap_hash_fn hash_of, const void *ctx)
{
    uint32_t *old_vals = m->vals;
    uint64_t *old_keys = m->keys;
    size_t nold = old_vals ? m->mask + 1 : 0;
    hmap_alloc(m, nslots, old_keys != NULL);
    for (size_t j = 0; j < nold; j++) {
        uint32_t v = old_vals[j];
        if (!v)
            continue;
        size_t i = (old_keys ? hash_mix64(old_keys[j]) : hash_of(ctx, v - 1)) & m->mask;
        while (m->vals[i])
            i = (i + 1) & m->mask;
        m->vals[i] = v;
        if (old_keys)
            m->keys[i] = old_keys[j];
    }
    free(old_keys);
    free(old_vals);
}

/* Room for one more entry at a load of one half. A map without slots has
 * mask 0, so it takes the growing branch too. */
static inline void hmap_reserve_one(struct hmap *m, hmap_hash_fn hash_of, const void *ctx)
{
    if (UNLIKELY((m->n + 1) * 2 > m->mask + 1))
        hmap_grow(m, m->vals ? (m->mask + 1) * 2 : HMAP_MIN_SLOTS, hash_of, ctx);
}

/* Room for one more plain key. The key array comes with the first one; the
 * map is empty then, so both arrays are made anew, keys first. */
static inline void hmap_reserve_plain(struct hmap *m)
{
    if (UNLIKELY(!m->keys)) {
        assert(m->n == 0); /* a map of the caller's keys takes no plain key */
        size_t nslots = m->vals ? m->mask + 1 : HMAP_MIN_SLOTS;
        free(m->vals);
        hmap_alloc(m, nslots, true);
    }
    hmap_reserve_one(m, NULL, NULL);
}

void hmap_init(struct hmap *m, size_t expected)
{
    size_t nslots = HMAP_MIN_SLOTS;
    while (nslots < expected * 2)
        nslots *= 2;
    memset(m, 0, sizeof(*m));
    hmap_alloc(m, nslots, false);
}

void hmap_free(struct hmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof(*m));
}

/* The slot holding key, or the empty slot where it would go. */
static inline size_t hmap_slot(const struct hmap *m, uint64_t key)
{
    size_t i = hash_mix64(key) & m->mask;
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & m->mask;
    return i;
}

uint32_t hmap_get(const struct hmap *m, uint64_t key)
{
    if (!m->keys)
        return IDX_NONE;
    return m->vals[hmap_slot(m, key)] - 1;
}

void hmap_put(struct hmap *m, uint64_t key, uint32_t val)
{
    assert(val != IDX_NONE);
    hmap_reserve_plain(m);
    size_t i = hmap_slot(m, key);
    if (!m->vals[i])
        m->n++;
    m->vals[i] = val + 1;
    m->keys[i] = key;
}

uint32_t hmap_put_first(struct hmap *m, uint64_t key, uint32_t val)
{
    assert(val != IDX_NONE);
    hmap_reserve_plain(m);
    size_t i = hmap_slot(m, key);
    if (m->vals[i])
        return m->vals[i] - 1;
    m->n++;
    m->vals[i] = val + 1;
    m->keys[i] = key;
    return val;
}

void hmap_add(struct hmap *m, uint32_t hash, uint32_t val, hmap_hash_fn hash_of, const void *ctx)
{
    assert(val != IDX_NONE && !m->keys);
    hmap_reserve_one(m, hash_of, ctx);
    size_t i = hash & m->mask;
    while (m->vals[i])
        i = (i + 1) & m->mask;
    m->vals[i] = val + 1;
    m->n++;
}

size_t hmap_memory(const struct hmap *m)
{
    if (!m->vals)
        return 0;
    return (m->mask + 1) * (sizeof(*m->vals) + (m->keys ? sizeof(*m->keys) : 0));
}
