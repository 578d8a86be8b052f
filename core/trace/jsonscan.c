/* JSON structure scanning over byte windows. */
#include "config.h"

#include <string.h>

#include "core/trace/jsonscan.h"
#include "core/trace/jsonscan_bytes.h"

const char *json_skip_ws(const char *p, const char *end)
{
    while (p < end && json_is_ws((unsigned char)*p))
        p++;
    return p;
}

const char *json_scan_string(const char *p, const char *end)
{
    p++; /* opening quote */
    for (;;) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return NULL;
        /* The quote is escaped when an odd number of backslashes precede it. */
        const char *b = q;
        while (b > p && b[-1] == '\\')
            b--;
        if (((q - b) & 1) == 0)
            return q + 1;
        p = q + 1;
    }
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

/* Sixteen bytes at a time: quotes, backslashes and brackets as bit masks;
 * the bytes inside strings are the prefix XOR of the quote mask. A block
 * holding a backslash (rare in traces) goes through jsonscan_bytes. */
static const char *scan_blocks(const char *p, const char *end, struct jsonscan_state *st)
{
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned bs = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, bslash));
        if (bs || st->escaped) {
            const char *q = jsonscan_bytes(p, p + 16, st);
            if (q)
                return q;
            p += 16;
            continue;
        }
        unsigned q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote));
        /* '[' and ']' are '{' and '}' without bit 0x20; no other byte is. */
        __m128i folded = _mm_or_si128(v, lower);
        unsigned o = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, open));
        unsigned c = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, close));
        unsigned inside = q;
        inside ^= inside << 1;
        inside ^= inside << 2;
        inside ^= inside << 4;
        inside ^= inside << 8;
        if (st->in_string)
            inside = ~inside;
        inside &= 0xffffu;
        unsigned brackets = (o | c) & ~inside;
        while (brackets) {
            unsigned bit = brackets & -brackets;
            if (o & bit) {
                st->depth++;
            } else if (--st->depth == 0) {
                return p + __builtin_ctz(bit) + 1;
            }
            brackets ^= bit;
        }
        st->in_string = (inside >> 15) & 1;
        p += 16;
    }
    return jsonscan_bytes(p, end, st);
}
#else
#define scan_blocks jsonscan_bytes
#endif

const char *json_scan_value(const char *p, const char *end, bool at_eof)
{
    if (p >= end)
        return NULL;
    if (*p == '"')
        return json_scan_string(p, end);
    if (*p != '{' && *p != '[') {
        while (p < end && *p != ',' && *p != '}' && *p != ']' && !json_is_ws((unsigned char)*p))
            p++;
        return (p < end || at_eof) ? p : NULL;
    }
    struct jsonscan_state st = {0, false, false};
    return scan_blocks(p, end, &st);
}
