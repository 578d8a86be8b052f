/* JSON faults in words: numbers cJSON should refuse, and why its parse
 * stopped. */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/trace/jsonfault.h"
#include "core/trace/jsonscan.h"

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A number's text for a message: up to 24 bytes of it. */
static void quote_number(const char *s, const char *end, const char *what, char *why, size_t n)
{
    size_t len = 0;
    while (s + len < end && len < 24 && (is_digit(s[len]) || strchr("+-.eE", s[len]) != NULL))
        len++;
    snprintf(why, n, "%s: %.*s", what, (int)len, s);
}

/* Whether `at` lies inside a string, counted from text (outside one). */
static bool in_string(const char *text, const char *at)
{
    for (const char *p = text; p < at;) {
        if (*p != '"') {
            p++;
            continue;
        }
        p = json_scan_string(p, at + 1);
        if (!p || p > at)
            return true;
    }
    return false;
}

/* The fault, if any, of a number-looking spot outside strings: a '0'
 * followed by a digit, or a '.' not followed by one. */
static const char *check_spot(const char *text, const char *q, const char *end, char *why, size_t n)
{
    if (*q == '0') {
        char prev = q > text ? q[-1] : ' ';
        /* Digits after '.' or in an exponent ("1.05", "1e05") are fine. */
        if (is_digit(prev) || prev == '.' || prev == 'e' || prev == 'E' || prev == '+')
            return NULL;
        const char *start = q;
        if (prev == '-') {
            char before = q - 1 > text ? q[-2] : ' ';
            if (before == 'e' || before == 'E')
                return NULL;
            start = q - 1;
        }
        if (in_string(text, q))
            return NULL;
        quote_number(start, end, "a number with a leading zero", why, n);
        return start;
    }
    if (in_string(text, q))
        return NULL;
    const char *start = q;
    while (start > text && (is_digit(start[-1]) || start[-1] == '-'))
        start--;
    quote_number(start, end,
                 start[q - start - 1] == '-' ? "a number with no digit before '.'"
                                             : "a number with no digit after '.'",
                 why, n);
    return start;
}

/* Whether q is such a spot: '0' then a digit, after no digit or '.'; a
 * digit, '.', then no digit; or "-." ("-.5", which strtod reads). */
static inline bool is_spot(const char *text, const char *q, const char *end)
{
    char next = q + 1 < end ? q[1] : ' ';
    char prev = q > text ? q[-1] : ' ';
    if (*q == '0')
        return is_digit(next) && !is_digit(prev) && prev != '.';
    return *q == '.' && (is_digit(prev) ? !is_digit(next) : prev == '-');
}

#ifdef __SSE2__
#include <emmintrin.h>

/* Bit i set for the digits, '0', '.' and '-' among p[0..16). */
struct spot_masks {
    unsigned digit, zero, dot, minus;
};

static inline struct spot_masks masks_at(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* c - '0' below 10, unsigned, as a signed comparison biased by 0x80. */
    __m128i t = _mm_xor_si128(_mm_sub_epi8(v, _mm_set1_epi8('0')), _mm_set1_epi8((char)0x80));
    return (struct spot_masks){
        (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(t, _mm_set1_epi8((char)(0x80 + 10)))),
        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('0'))),
        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.'))),
        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('-'))),
    };
}
#endif

const char *jsonfault_number(const char *p, const char *end, char *why, size_t n)
{
    const char *text = p;
    const char *q = p;
#ifdef __SSE2__
    /* Sixteen bytes a load; each byte's neighbours come from the masks
     * shifted, across blocks through the carries. A candidate (rare:
     * inside names, dates like "2024-01-05") is checked one by one. */
    if (end - q >= 32) {
        struct spot_masks cur = masks_at(q);
        unsigned carry_digit = 0, carry_dot = 0, carry_minus = 0;
        for (; end - q >= 32; q += 16) {
            struct spot_masks next = masks_at(q + 16);
            unsigned prev_digit = ((cur.digit << 1) | carry_digit) & 0xffffu;
            unsigned prev_dot = ((cur.dot << 1) | carry_dot) & 0xffffu;
            unsigned prev_minus = ((cur.minus << 1) | carry_minus) & 0xffffu;
            unsigned next_digit = (cur.digit >> 1) | ((next.digit & 1u) << 15);
            unsigned spots = (cur.zero & next_digit & ~prev_digit & ~prev_dot) |
                             (cur.dot & ((prev_digit & ~next_digit) | prev_minus));
            while (spots) {
                unsigned bit = spots & -spots;
                const char *r = check_spot(text, q + __builtin_ctz(bit), end, why, n);
                if (r)
                    return r;
                spots ^= bit;
            }
            carry_digit = cur.digit >> 15;
            carry_dot = cur.dot >> 15;
            carry_minus = cur.minus >> 15;
            cur = next;
        }
    }
#endif
    for (; q < end; q++) {
        if (is_spot(text, q, end)) {
            const char *r = check_spot(text, q, end, why, n);
            if (r)
                return r;
        }
    }
    return NULL;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = is_digit(c)            ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Depth of the containers open at `at`, counted from text. */
static size_t depth_at(const char *text, const char *at)
{
    size_t depth = 0;
    for (const char *p = text; p < at;) {
        if (*p == '"') {
            p = json_scan_string(p, at);
            if (!p)
                break;
            continue;
        }
        if (*p == '[' || *p == '{')
            depth++;
        else if ((*p == ']' || *p == '}') && depth)
            depth--;
        p++;
    }
    return depth;
}

int jsonfault_describe(const char *text, const char *at, const char *end, char *why, size_t n)
{
    if (!at || at < text || at >= end) {
        snprintf(why, n, "%s", "");
        return 0;
    }
    unsigned char c = (unsigned char)*at;
    if ((c == '[' || c == '{') && depth_at(text, at) >= CJSON_NESTING_LIMIT) {
        snprintf(why, n, "nested deeper than %d levels", CJSON_NESTING_LIMIT);
        return 1;
    }
    if (c == '\\' && end - at >= 6 && at[1] == 'u') {
        int u = hex4(at + 2);
        if (u >= 0xD800 && u <= 0xDFFF) {
            snprintf(why, n, "a lone surrogate \\u%.4s", at + 2);
            return 0;
        }
    }
    if (c >= 0x20 && c < 0x7f)
        snprintf(why, n, "unexpected '%c'", c);
    else
        snprintf(why, n, "unexpected byte 0x%02x", c);
    return 0;
}
