/* uint64_t -> uint32_t open-addressing hash map. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/hash.h"
#include "core/base/u64map.h"
#include "core/base/xalloc.h"

static void u64map_alloc(struct u64map *m, size_t nslots)
{
    m->keys = xmalloc(nslots * sizeof(*m->keys));
    m->vals = xmalloc(nslots * sizeof(*m->vals));
    memset(m->vals, 0xff, nslots * sizeof(*m->vals));
    m->mask = nslots - 1;
    m->n = 0;
}

void u64map_init(struct u64map *m, size_t expected)
{
    size_t n = 16;
    while (n < expected * 2)
        n *= 2;
    u64map_alloc(m, n);
}

void u64map_free(struct u64map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof(*m));
}

static size_t u64map_slot(const struct u64map *m, uint64_t key)
{
    size_t i = hash_mix64(key) & m->mask;
    while (m->vals[i] != IDX_NONE && m->keys[i] != key)
        i = (i + 1) & m->mask;
    return i;
}

static void u64map_grow(struct u64map *m)
{
    struct u64map old = *m;
    u64map_alloc(m, (old.mask + 1) * 2);
    for (size_t i = 0; i <= old.mask; i++)
        if (old.vals[i] != IDX_NONE)
            u64map_put(m, old.keys[i], old.vals[i]);
    free(old.keys);
    free(old.vals);
}

uint32_t u64map_put_first(struct u64map *m, uint64_t key, uint32_t val)
{
    if ((m->n + 1) * 2 > m->mask + 1)
        u64map_grow(m);
    size_t i = u64map_slot(m, key);
    if (m->vals[i] != IDX_NONE)
        return m->vals[i];
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return val;
}

void u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
    if ((m->n + 1) * 2 > m->mask + 1)
        u64map_grow(m);
    size_t i = u64map_slot(m, key);
    if (m->vals[i] == IDX_NONE)
        m->n++;
    m->keys[i] = key;
    m->vals[i] = val;
}

uint32_t u64map_get(const struct u64map *m, uint64_t key)
{
    if (!m->keys)
        return IDX_NONE;
    return m->vals[u64map_slot(m, key)];
}
