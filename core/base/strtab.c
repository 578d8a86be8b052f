/* String interning with an open-addressing table of ids. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/hash.h"
#include "core/base/strtab.h"

static void strtab_rehash(struct strtab *st, size_t nslots)
{
    uint32_t *slots = xcalloc(nslots, sizeof(*slots));
    size_t mask = nslots - 1;
    for (size_t id = 0; id < st->ents.n; id++) {
        size_t i = st->ents.v[id].hash & mask;
        while (slots[i])
            i = (i + 1) & mask;
        slots[i] = (uint32_t)id + 1;
    }
    free(st->slots);
    st->slots = slots;
    st->mask = mask;
}

void strtab_init(struct strtab *st)
{
    memset(st, 0, sizeof(*st));
    arena_init(&st->bytes, 256 * 1024);
    strtab_rehash(st, 1024);
    strtab_intern(st, "", 0);
}

void strtab_free(struct strtab *st)
{
    arena_free(&st->bytes);
    VEC_FREE(&st->ents);
    free(st->slots);
    memset(st, 0, sizeof(*st));
}

uint32_t strtab_find(const struct strtab *st, const char *s, size_t len)
{
    uint32_t h = (uint32_t)hash_bytes(s, len);
    for (size_t i = h & st->mask;; i = (i + 1) & st->mask) {
        uint32_t slot = st->slots[i];
        if (!slot)
            return IDX_NONE;
        const struct strtab_ent *e = &st->ents.v[slot - 1];
        if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
            return slot - 1;
    }
}

uint32_t strtab_intern_hashed(struct strtab *st, const char *s, size_t len, uint64_t hash)
{
    uint32_t h = (uint32_t)hash;
    size_t i = h & st->mask;
    for (;; i = (i + 1) & st->mask) {
        uint32_t slot = st->slots[i];
        if (!slot)
            break;
        const struct strtab_ent *e = &st->ents.v[slot - 1];
        if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
            return slot - 1;
    }
    if (len > UINT32_MAX - 1)
        len = UINT32_MAX - 1;
    uint32_t id = (uint32_t)st->ents.n;
    struct strtab_ent *e = VEC_ADD(&st->ents);
    e->s = arena_strndup(&st->bytes, s, len);
    e->len = (uint32_t)len;
    e->hash = h;
    st->slots[i] = id + 1;
    if (st->ents.n * 2 > st->mask + 1)
        strtab_rehash(st, (st->mask + 1) * 2);
    return id;
}

uint32_t strtab_intern(struct strtab *st, const char *s, size_t len)
{
    return strtab_intern_hashed(st, s, len, hash_bytes(s, len));
}

size_t strtab_memory(const struct strtab *st)
{
    return arena_reserved(&st->bytes) + st->ents.cap * sizeof(struct strtab_ent) +
           (st->mask + 1) * sizeof(uint32_t);
}
