/* String interning: the strings in an arena, their ids in a hash map. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/hash.h"
#include "core/base/strtab.h"

/* A string looked up in a table. */
struct strtab_probe {
    const struct strtab *st;
    const char *s;
    size_t len;
    uint32_t hash;
};

static bool strtab_eq(const void *probe, uint32_t id)
{
    const struct strtab_probe *p = probe;
    const struct strtab_ent *e = &p->st->ents.v[id];
    return e->hash == p->hash && e->len == p->len && memcmp(e->s, p->s, p->len) == 0;
}

static uint32_t strtab_hash_of(const void *st, uint32_t id)
{
    return ((const struct strtab *)st)->ents.v[id].hash;
}

void strtab_init(struct strtab *st)
{
    memset(st, 0, sizeof(*st));
    arena_init(&st->bytes, 256 * 1024);
    hmap_init(&st->ids, 512);
    strtab_intern(st, "", 0);
}

void strtab_free(struct strtab *st)
{
    arena_free(&st->bytes);
    VEC_FREE(&st->ents);
    hmap_free(&st->ids);
    memset(st, 0, sizeof(*st));
}

uint32_t strtab_find(const struct strtab *st, const char *s, size_t len)
{
    struct strtab_probe p = {st, s, len, (uint32_t)hash_bytes(s, len)};
    return hmap_find(&st->ids, p.hash, strtab_eq, &p);
}

uint32_t strtab_intern_hashed(struct strtab *st, const char *s, size_t len, uint64_t hash)
{
    struct strtab_probe p = {st, s, len, (uint32_t)hash};
    uint32_t id = hmap_find(&st->ids, p.hash, strtab_eq, &p);
    if (id != IDX_NONE)
        return id;
    if (len > UINT32_MAX - 1)
        len = UINT32_MAX - 1;
    id = (uint32_t)st->ents.n;
    struct strtab_ent *e = VEC_ADD(&st->ents);
    e->s = arena_strndup(&st->bytes, s, len);
    e->len = (uint32_t)len;
    e->hash = p.hash;
    hmap_add(&st->ids, p.hash, id, strtab_hash_of, st);
    return id;
}

uint32_t strtab_intern(struct strtab *st, const char *s, size_t len)
{
    return strtab_intern_hashed(st, s, len, hash_bytes(s, len));
}

size_t strtab_memory(const struct strtab *st)
{
    return arena_reserved(&st->bytes) + st->ents.cap * sizeof(struct strtab_ent) +
           hmap_memory(&st->ids);
}
