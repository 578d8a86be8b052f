/* Packed event arguments: encoding, iteration and JSON rendering. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/numparse.h"
#include "core/trace/argpack.h"
#include "core/trace/pyval.h"

void argpack_put_varint(argbytes_t *b, uint64_t v)
{
    VEC_RESERVE(b, b->n + 10);
    while (v >= 0x80) {
        b->v[b->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->v[b->n++] = (uint8_t)v;
}

void argpack_put(argbytes_t *b, const struct argval *a)
{
    argpack_put_varint(b, ((uint64_t)a->key << 3) | (a->type == ARG_VALUE ? ARG_NULL : a->type));
    switch (a->type) {
    case ARG_NULL:
        argpack_put_varint(b, 0);
        break;
    case ARG_VALUE:
        argpack_put_varint(b, a->v.s);
        break;
    case ARG_INT:
        argpack_put_varint(b, ((uint64_t)a->v.i << 1) ^ (uint64_t)(a->v.i >> 63));
        break;
    case ARG_UINT:
        argpack_put_varint(b, a->v.u);
        break;
    case ARG_DOUBLE:
        VEC_RESERVE(b, b->n + 8);
        memcpy(b->v + b->n, &a->v.d, 8);
        b->n += 8;
        break;
    case ARG_STR:
    case ARG_JSON:
        argpack_put_varint(b, a->v.s);
        break;
    default:
        break;
    }
}

static inline bool get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (p >= end)
            return false;
        uint8_t c = *p++;
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *pp = p;
            *out = v;
            return true;
        }
    }
    return false;
}

void argpack_iter_init(struct argiter *it, const struct trace *t, uint32_t ev)
{
    it->p = it->end = NULL;
    it->left = 0;
    uint32_t off = t->ev.v[ev].args;
    if (off == IDX_NONE || off >= t->argbuf.n)
        return;
    it->p = t->argbuf.v + off;
    it->end = t->argbuf.v + t->argbuf.n;
    if (!get_varint(&it->p, it->end, &it->left))
        it->left = 0;
}

/* argpack_iter_next, inline for the loops of this file. */
static inline bool iter_next(struct argiter *it, struct argval *out)
{
    if (!it->left)
        return false;
    uint64_t head, v;
    if (!get_varint(&it->p, it->end, &head))
        goto corrupt;
    out->key = (uint32_t)(head >> 3);
    out->type = head & 7;
    switch (out->type) {
    case ARG_NULL:
        if (!get_varint(&it->p, it->end, &v))
            goto corrupt;
        if (v) {
            out->type = ARG_VALUE;
            out->v.s = (uint32_t)v;
        }
        break;
    case ARG_INT:
        if (!get_varint(&it->p, it->end, &v))
            goto corrupt;
        out->v.i = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
        break;
    case ARG_UINT:
        if (!get_varint(&it->p, it->end, &out->v.u))
            goto corrupt;
        break;
    case ARG_DOUBLE:
        if (it->end - it->p < 8)
            goto corrupt;
        memcpy(&out->v.d, it->p, 8);
        it->p += 8;
        break;
    case ARG_STR:
    case ARG_JSON:
        if (!get_varint(&it->p, it->end, &v))
            goto corrupt;
        out->v.s = (uint32_t)v;
        break;
    default:
        break;
    }
    it->left--;
    return true;
corrupt:
    it->left = 0;
    return false;
}

bool argpack_iter_next(struct argiter *it, struct argval *out)
{
    return iter_next(it, out);
}

bool argpack_find(const struct trace *t, uint32_t ev, const char *key, struct argval *out)
{
    uint32_t kid = strtab_find(&t->strs, key, strlen(key));
    if (kid == IDX_NONE)
        return false;
    struct argiter it;
    argpack_iter_init(&it, t, ev);
    while (iter_next(&it, out))
        if (out->key == kid)
            return true;
    return false;
}

bool argpack_valid(const struct trace *t, uint32_t ev)
{
    uint32_t off = t->ev.v[ev].args;
    if (off == IDX_NONE)
        return true;
    if (off >= t->argbuf.n)
        return false;
    struct argiter it;
    struct argval a;
    argpack_iter_init(&it, t, ev);
    uint64_t left = it.left;
    size_t nstr = t->strs.ents.n, nval = t->vals.ents.n;
    for (; left; left--) {
        if (!iter_next(&it, &a) || a.key >= nstr)
            return false;
        if ((a.type == ARG_STR || a.type == ARG_JSON) ? a.v.s >= nstr
                                                      : a.type == ARG_VALUE && a.v.s >= nval)
            return false;
    }
    return true;
}

bool argpack_val_number(const struct trace *t, const struct argval *a, double *out)
{
    switch (a->type) {
    case ARG_INT:
        *out = (double)a->v.i;
        return true;
    case ARG_UINT:
        *out = (double)a->v.u;
        return true;
    case ARG_DOUBLE:
        *out = a->v.d;
        return true;
    case ARG_FALSE:
        *out = 0;
        return true;
    case ARG_TRUE:
        *out = 1;
        return true;
    case ARG_STR: {
        const char *s = strtab_str(&t->strs, a->v.s);
        if (!*s)
            return false;
        char *end;
        errno = 0;
        double d;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            d = (double)strtoull(s, &end, 16);
        else
            d = strtod(s, &end);
        if (*end || errno || !isfinite(d))
            return false;
        *out = d;
        return true;
    }
    default:
        return false;
    }
}

bool argpack_val_int(const struct trace *t, const struct argval *a, int64_t *out)
{
    if (a->type == ARG_INT) {
        *out = a->v.i;
        return true;
    }
    double d;
    if (!argpack_val_number(t, a, &d) || d < -9.2e18 || d > 9.2e18)
        return false;
    *out = (int64_t)d;
    return true;
}

bool argpack_id_text(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno)
        return false;
    *out = v;
    return true;
}

bool argpack_val_id(const struct trace *t, const struct argval *a, uint64_t *out)
{
    if (a->type == ARG_INT && a->v.i >= 0) {
        *out = (uint64_t)a->v.i;
        return true;
    }
    if (a->type == ARG_UINT) {
        *out = a->v.u;
        return true;
    }
    return a->type == ARG_STR && argpack_id_text(trace_str(t, a->v.s), out);
}

static void put_double(struct strbuf *sb, double d)
{
    if (!isfinite(d)) {
        sb_puts(sb, "null");
        return;
    }
    /* The shortest of 15, 16 and 17 digits that reads back as d. */
    char buf[40];
    int n = 0;
    for (int digits = 15; digits <= 17; digits++) {
        n = snprintf(buf, sizeof(buf), "%.*g", digits, d);
        double back;
        if (numparse_json(buf, (size_t)n, &back) && back == d)
            break;
    }
    sb_putn(sb, buf, (size_t)n);
}

void argpack_val_put_json(struct strbuf *sb, const struct trace *t, const struct argval *a)
{
    switch (a->type) {
    case ARG_NULL:
        sb_puts(sb, "null");
        break;
    case ARG_FALSE:
        sb_puts(sb, "false");
        break;
    case ARG_TRUE:
        sb_puts(sb, "true");
        break;
    case ARG_INT:
        sb_put_i64(sb, a->v.i);
        break;
    case ARG_UINT:
        sb_put_u64(sb, a->v.u);
        break;
    case ARG_DOUBLE:
        put_double(sb, a->v.d);
        break;
    case ARG_STR:
        sb_put_json_string(sb, strtab_str(&t->strs, a->v.s), strtab_len(&t->strs, a->v.s));
        break;
    case ARG_JSON:
        sb_putn(sb, strtab_str(&t->strs, a->v.s), strtab_len(&t->strs, a->v.s));
        break;
    case ARG_VALUE:
        pyval_put_json(sb, trace_val(t, a->v.s));
        break;
    }
}

void argpack_val_put_text(struct strbuf *sb, const struct trace *t, const struct argval *a)
{
    if (a->type == ARG_STR)
        sb_putn(sb, strtab_str(&t->strs, a->v.s), strtab_len(&t->strs, a->v.s));
    else
        argpack_val_put_json(sb, t, a);
}

void argpack_put_json(struct strbuf *sb, const struct trace *t, uint32_t ev)
{
    struct argiter it;
    struct argval a;
    argpack_iter_init(&it, t, ev);
    sb_putc(sb, '{');
    bool first = true;
    while (iter_next(&it, &a)) {
        if (!first)
            sb_puts(sb, ", ");
        first = false;
        sb_put_json_string(sb, strtab_str(&t->strs, a.key), strtab_len(&t->strs, a.key));
        sb_puts(sb, ": ");
        argpack_val_put_json(sb, t, &a);
    }
    sb_putc(sb, '}');
}
