/* Strict JSON into cJSON nodes for the common case of trace events; what it
 * declines goes to cJSON (see jsonfast.h). */
#include "config.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/base/numparse.h"
#include "core/trace/jsonfast.h"

#define MAX_DEPTH 512

struct jf {
    const char *p, *end;
    struct arena *a;
    size_t budget;
    int depth;
};

static void *jf_alloc(struct jf *j, size_t n)
{
    /* Declining past the budget lets cJSON meet the same limit and report it. */
    if (n > j->budget - (j->a->used < j->budget ? j->a->used : j->budget))
        return NULL;
    return arena_alloc(j->a, n);
}

static cJSON *new_item(struct jf *j, int type)
{
    cJSON *c = jf_alloc(j, sizeof(*c));
    if (c) {
        memset(c, 0, sizeof(*c));
        c->type = type;
    }
    return c;
}

static inline bool is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

#ifdef __SSE2__
#include <emmintrin.h>

/* Bit i set for each of the 16 bytes at p that is JSON whitespace. */
static inline unsigned ws_mask(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i w = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
                     _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
    return (unsigned)_mm_movemask_epi8(w);
}

/* Bit i set for each of the 16 bytes at p that ends a plain run of string
 * bytes: a quote, a backslash or a control byte. */
static inline unsigned string_stop_mask(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
    __m128i stop = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
        ctl);
    return (unsigned)_mm_movemask_epi8(stop);
}
#endif

/* skip_ws past its common cases: a run of two bytes or more. Out of line,
 * so that the common cases stay small where skip_ws is inlined. */
static __attribute__((noinline)) void skip_ws_run(struct jf *j)
{
#ifdef __SSE2__
    while (j->end - j->p >= 16) {
        unsigned other = ~ws_mask(j->p) & 0xffffu;
        if (other) {
            j->p += __builtin_ctz(other);
            return;
        }
        j->p += 16;
    }
#endif
    while (j->p < j->end && is_ws(*j->p))
        j->p++;
}

/* Past any whitespace at j->p. Inline for the two common cases, checked at
 * every token: none, and the one space that Kineto and json.dumps write
 * after ':' and ','. */
static inline void skip_ws(struct jf *j)
{
    if (j->p < j->end && !is_ws(*j->p))
        return;
    if (j->end - j->p >= 2 && !is_ws(j->p[1])) {
        j->p++;
        return;
    }
    skip_ws_run(j);
}

/* The first quote, backslash or control byte in [q, end), or end. */
static const char *string_stop(const char *q, const char *end)
{
#ifdef __SSE2__
    while (end - q >= 16) {
        unsigned m = string_stop_mask(q);
        if (m)
            return q + __builtin_ctz(m);
        q += 16;
    }
#endif
    while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
        q++;
    return q;
}

static cJSON *parse_value(struct jf *j);

/* A string at j->p ('"'), unescaped into the arena; NULL to decline. */
static char *parse_string(struct jf *j)
{
    const char *s = ++j->p;
    const char *q = s;
    size_t escapes = 0;
    for (;;) {
        q = string_stop(q, j->end);
        if (q >= j->end)
            return NULL;
        unsigned char c = (unsigned char)*q;
        if (c == '"')
            break;
        if (c < 0x20)
            return NULL;
        if (c == '\\') {
            if (q + 1 >= j->end || q[1] == 'u')
                return NULL;
            escapes++;
            q += 2;
            continue;
        }
    }
    size_t n = (size_t)(q - s);
    char *out = jf_alloc(j, n - escapes + 1);
    if (!out)
        return NULL;
    if (!escapes) {
        memcpy(out, s, n);
        out[n] = '\0';
    } else {
        char *o = out;
        for (const char *r = s; r < q; r++) {
            if (*r != '\\') {
                *o++ = *r;
                continue;
            }
            switch (*++r) {
            case '"':
            case '\\':
            case '/':
                *o++ = *r;
                break;
            case 'b':
                *o++ = '\b';
                break;
            case 'f':
                *o++ = '\f';
                break;
            case 'n':
                *o++ = '\n';
                break;
            case 'r':
                *o++ = '\r';
                break;
            case 't':
                *o++ = '\t';
                break;
            default:
                return NULL;
            }
        }
        *o = '\0';
    }
    j->p = q + 1;
    return out;
}

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Whether c may continue a number past its integer digits. */
static inline bool number_goes_on(char c)
{
    return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
}

/* The number item for d, its text ending at q; valueint as cJSON sets it
 * (d clamped to int, truncated). */
static cJSON *number_item(struct jf *j, double d, const char *q)
{
    cJSON *c = new_item(j, cJSON_Number);
    if (!c)
        return NULL;
    c->valuedouble = d;
    c->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
    j->p = q;
    return c;
}

/* The same for an integer read exactly, its valueint without the double
 * comparisons. */
static cJSON *integer_item(struct jf *j, uint64_t v, bool neg, const char *q)
{
    cJSON *c = new_item(j, cJSON_Number);
    if (!c)
        return NULL;
    c->valuedouble = neg ? -(double)v : (double)v;
    c->valueint = neg ? (v > (uint64_t)INT_MAX + 1 ? INT_MIN : (int)-(int64_t)v)
                      : (v >= (uint64_t)INT_MAX ? INT_MAX : (int)v);
    j->p = q;
    return c;
}

/* Digits from q into *v (at most `room` of them), eight at a time where
 * they run that long. Returns the end of the digits read. */
static inline const char *read_digits(const char *q, const char *end, size_t room, uint64_t *v)
{
    uint64_t x = *v;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (room >= 8 && end - q >= 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        /* Eight ASCII digits: each byte's high nibble 3 and, plus 6, still 3. */
        if (((w & 0xf0f0f0f0f0f0f0f0u) |
             (((w + 0x0606060606060606u) & 0xf0f0f0f0f0f0f0f0u) >> 4)) != 0x3333333333333333u)
            break;
        /* Their value: pairs, then fours, then the eight (first byte
         * lowest, the most significant digit). */
        w -= 0x3030303030303030u;
        w = w * 10 + (w >> 8);
        w = (((w & 0x000000ff000000ffu) * (100 + (1000000ull << 32))) +
             (((w >> 16) & 0x000000ff000000ffu) * (1 + (10000ull << 32)))) >>
            32;
        x = x * 100000000 + (uint32_t)w;
        q += 8;
        room -= 8;
    }
#endif
    for (; room && q < end && is_digit(*q); q++, room--)
        x = x * 10 + (uint64_t)(*q - '0');
    *v = x;
    return q;
}

static cJSON *parse_number(struct jf *j)
{
    const char *s = j->p, *end = j->end;
    /* Integers and decimals of up to 19 digits, without an exponent (ids,
     * sizes, pids, and the times Kineto writes), are read as they are
     * scanned: an integer up to 2^53 is exact, and a decimal of such digits
     * is their quotient by an exact power of ten (numparse_clinger). Anything
     * else (more digits, an exponent, a leading zero, a form JSON refuses)
     * is read by numparse_json, which refuses what JSON does not allow. */
    bool neg = s < end && *s == '-';
    const char *digits = s + neg;
    uint64_t v = 0;
    const char *q = read_digits(digits, end, 19, &v);
    size_t nd = (size_t)(q - digits);
    size_t nf = 0;
    if (nd && !(nd > 1 && *digits == '0')) {
        if (q < end && *q == '.') {
            const char *f = read_digits(q + 1, end, 19 - nd, &v);
            nf = (size_t)(f - (q + 1));
            if (nf)
                q = f;
        }
        bool ended = q == end || !number_goes_on(*q);
        if (ended && !nf && v <= (uint64_t)1 << 53)
            return integer_item(j, v, neg, q);
        double d;
        if (ended && nf && numparse_clinger(v, -(int64_t)nf, &d))
            return number_item(j, neg ? -d : d, q);
    }
    q = s;
    while (q < end &&
           (is_digit(*q) || *q == '-' || *q == '+' || *q == '.' || *q == 'e' || *q == 'E'))
        q++;
    double d;
    /* cJSON reads at most 63 bytes of a number. */
    if (q - s > 60 || !numparse_json(s, (size_t)(q - s), &d))
        return NULL;
    return number_item(j, d, q);
}

static bool literal(struct jf *j, const char *word, size_t n)
{
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
        return false;
    j->p += n;
    return true;
}

/* Children of an array or object, with cJSON's links (the head's prev is
 * the tail). */
static cJSON *parse_container(struct jf *j, bool obj)
{
    if (++j->depth > MAX_DEPTH)
        return NULL;
    cJSON *item = new_item(j, obj ? cJSON_Object : cJSON_Array);
    if (!item)
        return NULL;
    char close = obj ? '}' : ']';
    j->p++;
    skip_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        j->depth--;
        return item;
    }
    cJSON *tail = NULL;
    for (;;) {
        char *key = NULL;
        if (obj) {
            if (j->p >= j->end || *j->p != '"' || !(key = parse_string(j)))
                return NULL;
            skip_ws(j);
            if (j->p >= j->end || *j->p != ':')
                return NULL;
            j->p++;
            skip_ws(j);
        }
        cJSON *c = parse_value(j);
        if (!c)
            return NULL;
        c->string = key;
        if (tail) {
            tail->next = c;
            c->prev = tail;
        } else {
            item->child = c;
        }
        tail = c;
        skip_ws(j);
        if (j->p >= j->end)
            return NULL;
        if (*j->p == ',') {
            j->p++;
            skip_ws(j);
            continue;
        }
        if (*j->p != close)
            return NULL;
        j->p++;
        break;
    }
    item->child->prev = tail;
    j->depth--;
    return item;
}

static cJSON *parse_value(struct jf *j)
{
    if (j->p >= j->end)
        return NULL;
    switch (*j->p) {
    case '{':
        return parse_container(j, true);
    case '[':
        return parse_container(j, false);
    case '"': {
        cJSON *c = new_item(j, cJSON_String);
        if (!c || !(c->valuestring = parse_string(j)))
            return NULL;
        return c;
    }
    case 't':
        if (!literal(j, "true", 4))
            return NULL;
        cJSON *t = new_item(j, cJSON_True);
        if (t)
            t->valueint = 1;
        return t;
    case 'f':
        return literal(j, "false", 5) ? new_item(j, cJSON_False) : NULL;
    case 'n':
        return literal(j, "null", 4) ? new_item(j, cJSON_NULL) : NULL;
    default:
        return parse_number(j);
    }
}

cJSON *jsonfast_parse(const char *text, size_t len, struct arena *a, size_t budget,
                      const char **end)
{
    struct jf j = {text, text + len, a, budget, 0};
    cJSON *v = parse_value(&j);
    if (v)
        *end = j.p;
    return v;
}
