/* JSON structure scanning over byte windows. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "core/trace/jsonscan.h"
#include "core/trace/jsonscan_bytes.h"

const char *json_skip_ws(const char *p, const char *end)
{
    while (p < end && json_is_ws((unsigned char)*p))
        p++;
    return p;
}

/* A string's bytes from p, after its opening quote, with st->escaped
 * saying whether the byte before p is a backslash escaping p. Returns the
 * byte after the closing quote, or NULL with st->escaped set for the byte
 * after end. */
static const char *scan_string_from(const char *p, const char *end, struct jsonscan_state *st)
{
    if (st->escaped) {
        if (p >= end)
            return NULL;
        p++;
        st->escaped = false;
    }
    for (;;) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        const char *stop = q ? q : end;
        /* No escape is pending at p: an odd run of backslashes before stop,
         * back to p at most, ends in one that escapes stop. */
        const char *b = stop;
        while (b > p && b[-1] == '\\')
            b--;
        bool odd = (stop - b) & 1;
        if (!q) {
            st->escaped = odd;
            return NULL;
        }
        if (!odd)
            return q + 1;
        p = q + 1;
    }
}

const char *json_scan_string(const char *p, const char *end)
{
    struct jsonscan_state st = {0};
    return scan_string_from(p + 1, end, &st);
}

const char *json_find_nul_escape(const char *begin, const char *p, const char *end)
{
    while (p < end && (p = memchr(p, '\\', (size_t)(end - p)))) {
        const char *run = p, *after = p;
        while (run > begin && run[-1] == '\\')
            run--;
        while (after < end && *after == '\\')
            after++;
        /* An odd run ends in a backslash that escapes the byte after it. */
        if (((after - run) & 1) && end - after >= 5 && memcmp(after, "u0000", 5) == 0)
            return after - 1;
        p = after;
    }
    return NULL;
}

size_t json_replace_nul_escapes(char *s, size_t n)
{
    size_t count = 0;
    const char *p = s;
    while ((p = json_find_nul_escape(s, p, s + n))) {
        memcpy(s + (p - s) + 2, "2400", 4);
        p += 6;
        count++;
    }
    return count;
}

#ifdef __SSE2__
#include <emmintrin.h>

/* Bit i set for each byte i of the 64 in v0..v3 equal to c. */
static inline uint64_t eq_mask64(__m128i v0, __m128i v1, __m128i v2, __m128i v3, __m128i c)
{
    return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v0, c)) |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v1, c)) << 16 |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v2, c)) << 32 |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v3, c)) << 48;
}

/* Bits set in x, inline (the baseline x86-64 has no popcnt: the builtin
 * would be a call). */
static inline unsigned bits64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return (unsigned)((x * 0x0101010101010101u) >> 56);
}

/* Sixty-four bytes at a time: quotes, backslashes and brackets as bit
 * masks; the bytes inside strings are the prefix XOR of the quote mask. A
 * block holding a backslash (rare in traces) goes through jsonscan_bytes.
 * A block with fewer closing brackets than are open cannot end the value:
 * its brackets move the depth by their counts; the others are walked in
 * order. */
static const char *scan_blocks(const char *p, const char *end, struct jsonscan_state *st)
{
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    for (;;) {
        size_t depth = st->depth;
        bool in_string = st->in_string;
        while (end - p >= 64 && !st->escaped) {
            __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)p);
            __m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
            __m128i v2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
            __m128i v3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 48));
            if (eq_mask64(v0, v1, v2, v3, bslash))
                break;
            uint64_t inside = eq_mask64(v0, v1, v2, v3, quote);
            inside ^= inside << 1;
            inside ^= inside << 2;
            inside ^= inside << 4;
            inside ^= inside << 8;
            inside ^= inside << 16;
            inside ^= inside << 32;
            if (in_string)
                inside = ~inside;
            in_string = inside >> 63;
            /* '[' and ']' are '{' and '}' without bit 0x20; no other byte is. */
            v0 = _mm_or_si128(v0, lower);
            v1 = _mm_or_si128(v1, lower);
            v2 = _mm_or_si128(v2, lower);
            v3 = _mm_or_si128(v3, lower);
            uint64_t o = eq_mask64(v0, v1, v2, v3, open) & ~inside;
            uint64_t c = eq_mask64(v0, v1, v2, v3, close) & ~inside;
            unsigned nc = bits64(c);
            if (nc < depth) {
                depth = depth + bits64(o) - nc;
                p += 64;
                continue;
            }
            for (uint64_t brackets = o | c; brackets; brackets &= brackets - 1) {
                uint64_t bit = brackets & -brackets;
                if (o & bit) {
                    depth++;
                } else if (--depth == 0) {
                    st->depth = 0;
                    st->in_string = in_string;
                    return p + __builtin_ctzll(bit) + 1;
                }
            }
            p += 64;
        }
        st->depth = depth;
        st->in_string = in_string;
        /* A block with a backslash, or the rest of the input, a byte at a
         * time; then blocks again. */
        const char *stop = end - p >= 64 ? p + 64 : end;
        const char *q = jsonscan_bytes(p, stop, st);
        if (q || stop == end)
            return q;
        p = stop;
    }
}

#else
#define scan_blocks jsonscan_bytes
#endif

const char *json_scan_resume(const char *p, const char *end, bool at_eof, struct jsonscan_state *st)
{
    if (p >= end)
        return NULL;
    const char *from = p + st->done;
    const char *q;
    if (*p == '"') {
        q = scan_string_from(st->done ? from : p + 1, end, st);
    } else if (*p == '{' || *p == '[') {
        q = scan_blocks(from, end, st);
    } else {
        while (from < end && *from != ',' && *from != '}' && *from != ']' &&
               !json_is_ws((unsigned char)*from))
            from++;
        q = (from < end || at_eof) ? from : NULL;
    }
    if (!q)
        st->done = (size_t)(end - p);
    return q;
}

const char *json_scan_value(const char *p, const char *end, bool at_eof)
{
    struct jsonscan_state st = {0};
    return json_scan_resume(p, end, at_eof, &st);
}
