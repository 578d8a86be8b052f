/* Fast non-cryptographic hashing for interning and hash maps. */
#ifndef TORCHTOP_CORE_HASH_H
#define TORCHTOP_CORE_HASH_H

#include <stdint.h>
#include <string.h>

static inline uint64_t hash_mix64(uint64_t x)
{
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return x;
}

/* Hash of n bytes, eight at a time. Stable within one process only. */
static inline uint64_t hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (n * 0xff51afd7ed558ccdULL);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ hash_mix64(w)) * 0x9fb21c651e98df25ULL;
        p += 8;
        n -= 8;
    }
    if (n) {
        uint64_t w = 0;
        memcpy(&w, p, n);
        h = (h ^ hash_mix64(w ^ ((uint64_t)n << 56))) * 0x9fb21c651e98df25ULL;
    }
    return hash_mix64(h);
}

#endif
