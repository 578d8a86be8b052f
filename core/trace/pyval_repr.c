/* Python's repr() of op argument values: the one writer of Python text for
 * the unique-args table, the explorer and the performance models' columns. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/utf8.h"
#include "core/trace/pyval.h"

static const char hex[] = "0123456789abcdef";

void pyval_repr_str(struct strbuf *out, const char *s, size_t n)
{
    char q = memchr(s, '\'', n) && !memchr(s, '"', n) ? '"' : '\'';
    sb_reserve(out, n + 2);
    sb_putc(out, q);
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != q) {
            size_t j = i + 1;
            while (j < n && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] < 0x7f &&
                   s[j] != '\\' && s[j] != q)
                j++;
            sb_putn(out, s + i, j - i);
            i = j;
            continue;
        }
        if (c < 0x80) {
            char esc[5] = {'\\', (char)c, 0, 0, 0};
            switch (c) {
            case '\t':
                esc[1] = 't';
                break;
            case '\n':
                esc[1] = 'n';
                break;
            case '\r':
                esc[1] = 'r';
                break;
            case '\\':
            case '\'':
            case '"':
                break;
            default:
                esc[1] = 'x';
                esc[2] = hex[c >> 4];
                esc[3] = hex[c & 15];
                break;
            }
            sb_puts(out, esc);
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = utf8_decode(s + i, n - i, &cp);
        if (len == 0) {
            sb_puts(out, "\xef\xbf\xbd"); /* as the trace's invalid UTF-8 is shown */
            i++;
        } else if (pyval_printable(cp)) {
            sb_putn(out, s + i, len);
            i += len;
        } else if (cp < 0x100) {
            sb_printf(out, "\\x%02x", (unsigned)cp);
            i += len;
        } else if (cp < 0x10000) {
            sb_printf(out, "\\u%04x", (unsigned)cp);
            i += len;
        } else {
            sb_printf(out, "\\U%08x", (unsigned)cp);
            i += len;
        }
    }
    sb_putc(out, q);
}

void pyval_repr_float(struct strbuf *out, double d)
{
    if (isnan(d)) {
        sb_puts(out, "nan");
        return;
    }
    if (isinf(d)) {
        sb_puts(out, d < 0 ? "-inf" : "inf");
        return;
    }
    if (d == 0) {
        sb_puts(out, signbit(d) ? "-0.0" : "0.0");
        return;
    }
    /* The fewest significant digits that read back as d. */
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof(buf), "%.*e", prec - 1, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    char digits[24];
    int nd = 0;
    const char *p = buf;
    bool neg = *p == '-';
    p += neg;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    /* d = 0.DIGITS * 10^decpt; Python switches to the exponent form
     * outside -4 < decpt <= 16. */
    int decpt = (*p == 'e' ? atoi(p + 1) : 0) + 1;
    if (neg)
        sb_putc(out, '-');
    if (decpt <= -4 || decpt > 16) {
        sb_putc(out, digits[0]);
        if (nd > 1) {
            sb_putc(out, '.');
            sb_putn(out, digits + 1, (size_t)nd - 1);
        }
        sb_printf(out, "e%c%02d", decpt - 1 < 0 ? '-' : '+', abs(decpt - 1));
    } else if (decpt <= 0) {
        sb_puts(out, "0.");
        for (int k = 0; k < -decpt; k++)
            sb_putc(out, '0');
        sb_putn(out, digits, (size_t)nd);
    } else if (decpt >= nd) {
        sb_putn(out, digits, (size_t)nd);
        for (int k = nd; k < decpt; k++)
            sb_putc(out, '0');
        sb_puts(out, ".0");
    } else {
        sb_putn(out, digits, (size_t)decpt);
        sb_putc(out, '.');
        sb_putn(out, digits + decpt, (size_t)(nd - decpt));
    }
}

static bool same_key(struct pyval a, struct pyval b)
{
    size_t na, nb;
    const char *sa = pyval_str(a, &na), *sb = pyval_str(b, &nb);
    return sa && sb && na == nb && memcmp(sa, sb, na) == 0;
}

/* json.load keeps the last value of a repeated key, in the place of the
 * key's first appearance. The search is quadratic: past DICT_DEDUP_MAX
 * entries every entry is written. */
#define DICT_DEDUP_MAX 256

static void repr_dict(struct strbuf *out, struct pyval v, unsigned flags)
{
    struct pyval_iter it, jt;
    struct pyval key, val, k2, v2;
    sb_putc(out, '{');
    bool dedup = pyval_count(v) <= DICT_DEDUP_MAX;
    pyval_iter_init(&it, v);
    bool first = true;
    while (pyval_iter_next(&it, &key) && pyval_iter_next(&it, &val)) {
        if (dedup) {
            bool seen = false;
            pyval_iter_init(&jt, v);
            while (!seen && pyval_iter_next(&jt, &k2) && k2.p != key.p && pyval_iter_next(&jt, &v2))
                seen = same_key(key, k2);
            if (seen)
                continue;
            for (jt = it; pyval_iter_next(&jt, &k2) && pyval_iter_next(&jt, &v2);)
                if (same_key(key, k2))
                    val = v2;
        }
        if (!first)
            sb_puts(out, ", ");
        first = false;
        pyval_repr(out, key, flags);
        sb_puts(out, ": ");
        pyval_repr(out, val, flags);
    }
    sb_putc(out, '}');
}

void pyval_repr(struct strbuf *out, struct pyval v, unsigned flags)
{
    struct pyval_iter it;
    struct pyval item;
    switch (pyval_kind(v)) {
    case PYV_ABSENT:
        return;
    case PYV_NONE:
        sb_puts(out, "None");
        return;
    case PYV_FALSE:
        sb_puts(out, "False");
        return;
    case PYV_TRUE:
        sb_puts(out, "True");
        return;
    case PYV_INT: {
        int64_t i = 0;
        pyval_int(v, &i);
        sb_printf(out, "%lld", (long long)i);
        return;
    }
    case PYV_FLOAT: {
        double d = 0;
        pyval_number(v, &d);
        pyval_repr_float(out, d);
        return;
    }
    case PYV_STR: {
        size_t n = 0;
        const char *s = pyval_str(v, &n);
        pyval_repr_str(out, s ? s : "", n);
        return;
    }
    case PYV_LIST: {
        bool tuple = flags & PYVAL_TUPLES;
        sb_putc(out, tuple ? '(' : '[');
        pyval_iter_init(&it, v);
        uint32_t n = 0;
        for (; pyval_iter_next(&it, &item); n++) {
            if (n)
                sb_puts(out, ", ");
            pyval_repr(out, item, flags);
        }
        if (tuple && n == 1)
            sb_putc(out, ',');
        sb_putc(out, tuple ? ')' : ']');
        return;
    }
    case PYV_DICT:
        repr_dict(out, v, flags & ~(unsigned)PYVAL_TUPLES);
        return;
    }
}
