/* String interning: each distinct byte string gets a small uint32_t id.
 *
 * Ids are dense from 0; id 0 is always the empty string. Strings are stored
 * NUL-terminated (they may also contain NUL bytes; use strtab_len). Pointers
 * returned by strtab_str stay valid until strtab_free. Not thread-safe: a
 * caller sharing one table between threads serialises strtab_intern. */
#ifndef TORCHTOP_CORE_STRTAB_H
#define TORCHTOP_CORE_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/base/arena.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"

struct strtab_ent {
    const char *s; /* NUL-terminated copy in the table's arena */
    uint32_t len;  /* byte length without the NUL */
    uint32_t hash; /* low bits of the hash, to skip compares and to grow ids */
};

struct strtab {
    struct arena bytes;          /* string storage */
    VEC(struct strtab_ent) ents; /* id -> string */
    struct hmap ids;             /* string (hash_bytes) -> its id */
};

void strtab_init(struct strtab *st);
void strtab_free(struct strtab *st);

/* Id of s[0..len), adding it when new. len is limited to 4 GiB - 1. */
uint32_t strtab_intern(struct strtab *st, const char *s, size_t len);
/* Same as strtab_intern with the hash already computed (hash_bytes). */
uint32_t strtab_intern_hashed(struct strtab *st, const char *s, size_t len, uint64_t hash);
static inline uint32_t strtab_intern_cstr(struct strtab *st, const char *s)
{
    return strtab_intern(st, s, strlen(s));
}
/* Id of s[0..len) or IDX_NONE when it was never interned. */
uint32_t strtab_find(const struct strtab *st, const char *s, size_t len);

static inline const char *strtab_str(const struct strtab *st, uint32_t id)
{
    return st->ents.v[id].s;
}
static inline uint32_t strtab_len(const struct strtab *st, uint32_t id)
{
    return st->ents.v[id].len;
}
static inline size_t strtab_count(const struct strtab *st)
{
    return st->ents.n;
}
/* Bytes used by the table, for memory reports. */
size_t strtab_memory(const struct strtab *st);

#endif
