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
