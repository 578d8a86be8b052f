/* Op argument values: the encoding from cJSON, the reading cursor, and
 * the compact JSON writer. */
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/numparse.h"
#include "core/trace/pyval.h"

#define TWO53 9007199254740992.0

/* ------------------------------------------------------------------------ */
/* Encoding                                                                 */
/* ------------------------------------------------------------------------ */

static size_t varint_put(uint8_t *buf, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        buf[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    buf[n++] = (uint8_t)v;
    return n;
}

/* Room for n more bytes at the end of out; the caller writes them and
 * advances out->len (the NUL that ends a strbuf is written once, by
 * pyval_encode). */
static uint8_t *room(struct strbuf *out, size_t n)
{
    sb_reserve(out, n);
    return (uint8_t *)out->s + out->len;
}

static void encode_str(struct strbuf *out, const char *s)
{
    size_t n = strlen(s);
    uint8_t *p = room(out, n + 12);
    size_t k = 0;
    p[k++] = PYV_STR;
    k += varint_put(p + k, n);
    memcpy(p + k, s, n);
    p[k + n] = '\0';
    out->len += k + n + 1;
}

static void encode(struct strbuf *out, const cJSON *v)
{
    uint8_t *p;
    switch (v->type & 0xff) {
    case cJSON_False:
    case cJSON_True:
        *room(out, 1) = (v->type & 0xff) == cJSON_True ? PYV_TRUE : PYV_FALSE;
        out->len++;
        return;
    case cJSON_Number: {
        double d = v->valuedouble;
        p = room(out, 11);
        if (d == floor(d) && fabs(d) < TWO53) {
            int64_t i = (int64_t)d;
            p[0] = PYV_INT;
            out->len += 1 + varint_put(p + 1, ((uint64_t)i << 1) ^ (uint64_t)(i >> 63));
        } else {
            p[0] = PYV_FLOAT;
            memcpy(p + 1, &d, sizeof(d));
            out->len += 1 + sizeof(d);
        }
        return;
    }
    case cJSON_String:
        encode_str(out, v->valuestring ? v->valuestring : "");
        return;
    case cJSON_Array:
    case cJSON_Object: {
        bool dict = (v->type & 0xff) == cJSON_Object;
        uint64_t count = 0;
        size_t body = out->len;
        for (const cJSON *c = v->child; c; c = c->next, count++) {
            if (dict)
                encode_str(out, c->string ? c->string : "");
            encode(out, c);
        }
        /* The header goes before the items, once their length is known. */
        uint8_t head[21];
        size_t hn = 0;
        head[hn++] = dict ? PYV_DICT : PYV_LIST;
        hn += varint_put(head + hn, count);
        hn += varint_put(head + hn, out->len - body);
        room(out, hn);
        memmove(out->s + body + hn, out->s + body, out->len - body);
        memcpy(out->s + body, head, hn);
        out->len += hn;
        return;
    }
    default:
        *room(out, 1) = PYV_NONE;
        out->len++;
        return;
    }
}

void pyval_encode(struct strbuf *out, const cJSON *v)
{
    encode(out, v);
    room(out, 0)[0] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */
/* ------------------------------------------------------------------------ */

static const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64 && p < end; shift += 7) {
        uint8_t c = *p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *out = v;
            return p;
        }
    }
    return NULL;
}

enum pyval_kind pyval_kind(struct pyval v)
{
    if (!v.p || v.p >= v.end || *v.p == PYV_ABSENT || *v.p > PYV_DICT)
        return PYV_ABSENT;
    return (enum pyval_kind)v.p[0];
}

/* A string's length and bytes (p past the tag); NULL when malformed. */
static const uint8_t *str_body(const uint8_t *p, const uint8_t *end, uint64_t *len)
{
    p = get_varint(p, end, len);
    if (!p || *len >= (uint64_t)(end - p) || p[*len] != '\0')
        return NULL;
    return p;
}

/* A container's count, and its items' bytes [*body, *body_end). */
static bool container(struct pyval v, uint64_t *count, const uint8_t **body,
                      const uint8_t **body_end)
{
    uint64_t len;
    const uint8_t *p = get_varint(v.p + 1, v.end, count);
    if (p)
        p = get_varint(p, v.end, &len);
    if (!p || len > (uint64_t)(v.end - p))
        return false;
    *body = p;
    *body_end = p + len;
    return true;
}

/* Past the value at p, or NULL when its bytes are malformed. */
static const uint8_t *skip(const uint8_t *p, const uint8_t *end)
{
    uint64_t n;
    struct pyval v = {p, end};
    switch (pyval_kind(v)) {
    case PYV_NONE:
    case PYV_FALSE:
    case PYV_TRUE:
        return p + 1;
    case PYV_INT:
        return get_varint(p + 1, end, &n);
    case PYV_FLOAT:
        return end - p > 8 ? p + 9 : NULL;
    case PYV_STR:
        p = str_body(p + 1, end, &n);
        return p ? p + n + 1 : NULL;
    case PYV_LIST:
    case PYV_DICT: {
        const uint8_t *body, *body_end;
        return container(v, &n, &body, &body_end) ? body_end : NULL;
    }
    default:
        return NULL;
    }
}

bool pyval_int(struct pyval v, int64_t *out)
{
    uint64_t u;
    double d;
    switch (pyval_kind(v)) {
    case PYV_INT:
        if (!get_varint(v.p + 1, v.end, &u))
            return false;
        *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
        return true;
    case PYV_FLOAT:
        if (!pyval_number(v, &d) || d != floor(d) || fabs(d) > 9.0e18)
            return false;
        *out = (int64_t)d;
        return true;
    default:
        return false;
    }
}

bool pyval_number(struct pyval v, double *out)
{
    int64_t i;
    switch (pyval_kind(v)) {
    case PYV_INT:
        if (!pyval_int(v, &i))
            return false;
        *out = (double)i;
        return true;
    case PYV_FLOAT:
        if (v.end - v.p < 9)
            return false;
        memcpy(out, v.p + 1, sizeof(*out));
        return true;
    default:
        return false;
    }
}

const char *pyval_str(struct pyval v, size_t *len)
{
    uint64_t n;
    const uint8_t *p = pyval_kind(v) == PYV_STR ? str_body(v.p + 1, v.end, &n) : NULL;
    if (!p)
        return NULL;
    if (len)
        *len = (size_t)n;
    return (const char *)p;
}

uint32_t pyval_count(struct pyval v)
{
    struct pyval_iter it;
    if (!pyval_iter_init(&it, v))
        return 0;
    return pyval_kind(v) == PYV_DICT ? it.left / 2 : it.left;
}

bool pyval_iter_init(struct pyval_iter *it, struct pyval v)
{
    it->p = it->end = NULL;
    it->left = 0;
    enum pyval_kind k = pyval_kind(v);
    uint64_t count;
    const uint8_t *body, *body_end;
    if ((k != PYV_LIST && k != PYV_DICT) || !container(v, &count, &body, &body_end))
        return false;
    /* Each item takes a byte at least: a larger count is malformed. */
    uint64_t items = k == PYV_DICT ? count * 2 : count;
    if (count > UINT32_MAX / 2 || items > (uint64_t)(body_end - body))
        return false;
    it->p = body;
    it->end = body_end;
    it->left = (uint32_t)items;
    return true;
}

bool pyval_iter_next(struct pyval_iter *it, struct pyval *item)
{
    if (!it->left)
        return false;
    const uint8_t *next = skip(it->p, it->end);
    if (!next) {
        it->left = 0;
        return false;
    }
    item->p = it->p;
    item->end = it->end;
    it->p = next;
    it->left--;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Compact JSON                                                             */
/* ------------------------------------------------------------------------ */

static void put_json(struct strbuf *out, struct pyval v)
{
    struct pyval_iter it;
    struct pyval item;
    switch (pyval_kind(v)) {
    case PYV_ABSENT:
        return;
    case PYV_NONE:
        sb_puts(out, "null");
        return;
    case PYV_FALSE:
        sb_puts(out, "false");
        return;
    case PYV_TRUE:
        sb_puts(out, "true");
        return;
    case PYV_INT: {
        int64_t i = 0;
        pyval_int(v, &i);
        sb_put_i64(out, i);
        return;
    }
    case PYV_FLOAT: {
        double d = 0;
        pyval_number(v, &d);
        if (!isfinite(d)) {
            sb_puts(out, "null");
            return;
        }
        char buf[32];
        int n = snprintf(buf, sizeof(buf), "%.15g", d);
        double back;
        if (!numparse_json(buf, (size_t)n, &back) || back != d)
            n = snprintf(buf, sizeof(buf), "%.17g", d);
        sb_putn(out, buf, (size_t)n);
        return;
    }
    case PYV_STR: {
        size_t n = 0;
        const char *s = pyval_str(v, &n);
        sb_put_json_string(out, s ? s : "", n);
        return;
    }
    case PYV_LIST:
    case PYV_DICT: {
        bool dict = pyval_kind(v) == PYV_DICT;
        sb_putc(out, dict ? '{' : '[');
        pyval_iter_init(&it, v);
        for (uint32_t i = 0; pyval_iter_next(&it, &item); i++) {
            if (i)
                sb_putc(out, dict && (i & 1) ? ':' : ',');
            put_json(out, item);
        }
        sb_putc(out, dict ? '}' : ']');
        return;
    }
    }
}

void pyval_put_json(struct strbuf *out, struct pyval v)
{
    put_json(out, v);
}
