/* Hash map from uint64_t keys to uint32_t values (open addressing).
 * Used for id joins: correlation -> runtime event, Python id -> frame. */
#ifndef TORCHTOP_CORE_U64MAP_H
#define TORCHTOP_CORE_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map {
    uint64_t *keys;
    uint32_t *vals;     /* IDX_NONE marks an empty slot */
    size_t mask;
    size_t n;
};

void u64map_init(struct u64map *m, size_t expected);
void u64map_free(struct u64map *m);
/* Insert or overwrite. */
void u64map_put(struct u64map *m, uint64_t key, uint32_t val);
/* Insert only when absent; returns the value now stored for key. */
uint32_t u64map_put_first(struct u64map *m, uint64_t key, uint32_t val);
/* Value for key, or IDX_NONE. */
uint32_t u64map_get(const struct u64map *m, uint64_t key);

#endif
