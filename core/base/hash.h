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

/* The last n (1..7) bytes at p as one little-endian word, zero-padded: what
 * memcpy into a zeroed word gives on a little-endian machine, read with at
 * most two loads instead of n byte stores that the word's load then waits
 * on. */
static inline uint64_t hash_tail(const unsigned char *p, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4); /* bytes n-4..n-1; 4..n-1 are its top */
        return lo | ((uint64_t)hi >> (8 * (8 - n))) << 32;
    }
    return p[0] | (n > 1 ? (uint64_t)p[1] << 8 : 0) | (n > 2 ? (uint64_t)p[2] << 16 : 0);
#else
    uint64_t w = 0;
    memcpy(&w, p, n);
    return w;
#endif
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
    if (n)
        h = (h ^ hash_mix64(hash_tail(p, n) ^ ((uint64_t)n << 56))) * 0x9fb21c651e98df25ULL;
    return hash_mix64(h);
}

#endif
