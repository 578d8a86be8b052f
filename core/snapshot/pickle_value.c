/* Values read by the pickle reader: container items, conversions and a
 * Python-like repr. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snapshot/pickle.h"
#include "core/snapshot/pickle_internal.h"

int pickle_protocol(const struct pickle *p)
{
    return p->proto;
}

uint64_t pickle_offset(const struct pickle *p)
{
    return p->op_off;
}

uint64_t pk_offset(const struct pickle *p, struct pk_value v)
{
    if (pk_is_container(v) && v.id < p->conts.n && cont(p, v)->state != CS_FREE)
        return cont(p, v)->start;
    return p->op_off;
}

const char *pickle_offset_what(const struct pickle *p)
{
    return p->src && p->src->gzip ? "byte (uncompressed)" : "byte";
}

const struct pk_value *pk_items(const struct pickle *p, struct pk_value v, size_t *n)
{
    if (!pk_is_container(v) || cont(p, v)->state == CS_REPLACED || cont(p, v)->state == CS_FREE) {
        *n = 0;
        return NULL;
    }
    *n = cont(p, v)->n;
    return cont(p, v)->items;
}

bool pk_dict_get(const struct pickle *p, struct pk_value dict, uint32_t key, struct pk_value *out)
{
    if (dict.tag != PK_DICT)
        return false;
    size_t n;
    const struct pk_value *it = pk_items(p, dict, &n);
    for (size_t i = n; i >= 2; i -= 2) {
        if (it[i - 2].tag == PK_STR && it[i - 2].id == key) {
            *out = it[i - 1];
            return true;
        }
    }
    return false;
}

bool pk_as_i64(struct pk_value v, int64_t *out)
{
    if (v.tag == PK_INT || v.tag == PK_BOOL || v.tag == PK_UINT) {
        *out = v.i;
        return true;
    }
    return false;
}

bool pk_as_u64(struct pk_value v, uint64_t *out)
{
    if (v.tag == PK_INT || v.tag == PK_BOOL || v.tag == PK_UINT) {
        *out = v.u;
        return true;
    }
    return false;
}

/* False when the string was cut at end. */
static bool repr_str(struct strbuf *out, const char *s, size_t n, size_t end)
{
    sb_putc(out, '\'');
    for (size_t i = 0; i < n; i++) {
        if (out->len >= end)
            return false;
        unsigned char c = (unsigned char)s[i];
        if (c == '\'' || c == '\\')
            sb_printf(out, "\\%c", c);
        else if (c == '\n')
            sb_puts(out, "\\n");
        else if (c < 0x20 || c == 0x7f)
            sb_printf(out, "\\x%02x", c);
        else
            sb_putc(out, (char)c);
    }
    sb_putc(out, '\'');
    return true;
}

static void repr_float(struct strbuf *out, double d)
{
    if (isnan(d)) {
        sb_puts(out, "nan");
        return;
    }
    if (isinf(d)) {
        sb_puts(out, d < 0 ? "-inf" : "inf");
        return;
    }
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof(buf), "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    sb_puts(out, buf);
    if (!strpbrk(buf, ".e"))
        sb_puts(out, ".0");
}

/* Appends v's repr while out->len is below end; false when some of it was
 * left out. */
static bool repr_to(const struct pickle *p, struct pk_value v, struct strbuf *out, size_t end)
{
    size_t n;
    const struct pk_value *it;
    if (out->len >= end)
        return false;
    switch (v.tag) {
    case PK_NONE:
        sb_puts(out, "None");
        break;
    case PK_BOOL:
        sb_puts(out, v.i ? "True" : "False");
        break;
    case PK_INT:
        sb_printf(out, "%lld", (long long)v.i);
        break;
    case PK_UINT:
        sb_printf(out, "%llu", (unsigned long long)v.u);
        break;
    case PK_FLOAT:
        repr_float(out, v.f);
        break;
    case PK_STR:
        if (!repr_str(out, strtab_str(p->o.strs, v.id), strtab_len(p->o.strs, v.id), end))
            return false;
        break;
    case PK_USER:
        sb_printf(out, "<user %u:%u>", v.sub, v.id);
        break;
    case PK_TAGFN:
        sb_puts(out, "<restore_type_tag>");
        break;
    case PK_LIST:
    case PK_TUPLE:
        it = pk_items(p, v, &n);
        sb_putc(out, v.tag == PK_LIST ? '[' : '(');
        for (size_t i = 0; i < n; i++) {
            if (i)
                sb_puts(out, ", ");
            if (!repr_to(p, it[i], out, end))
                return false;
        }
        if (v.tag == PK_TUPLE && n == 1)
            sb_putc(out, ',');
        sb_putc(out, v.tag == PK_LIST ? ']' : ')');
        break;
    case PK_DICT:
        it = pk_items(p, v, &n);
        sb_putc(out, '{');
        for (size_t i = 0; i + 1 < n; i += 2) {
            if (i)
                sb_puts(out, ", ");
            if (!repr_to(p, it[i], out, end))
                return false;
            sb_puts(out, ": ");
            if (!repr_to(p, it[i + 1], out, end))
                return false;
        }
        sb_putc(out, '}');
        break;
    default:
        sb_puts(out, "<?>");
        break;
    }
    return true;
}

void pickle_repr(const struct pickle *p, struct pk_value v, struct strbuf *out)
{
    size_t start = out->len;
    if (!repr_to(p, v, out, start + PK_REPR_MAX)) {
        out->len = MIN(out->len, start + PK_REPR_MAX);
        /* Cut on a UTF-8 character boundary. */
        while (out->len > start && ((unsigned char)out->s[out->len] & 0xc0) == 0x80)
            out->len--;
        out->s[out->len] = '\0';
        sb_puts(out, "...");
    }
}
