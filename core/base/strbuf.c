/* Growable strings. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "core/base/utf8.h"
#include "core/base/xalloc.h"

void sb_reserve(struct strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    sb->s = xreallocarray(sb->s, cap, 1);
    sb->cap = cap;
}

void sb_putn(struct strbuf *sb, const char *s, size_t n)
{
    sb_reserve(sb, n);
    memcpy(sb->s + sb->len, s, n);
    sb->len += n;
    sb->s[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
    sb_putn(sb, s, strlen(s));
}

void sb_putc(struct strbuf *sb, char c)
{
    sb_reserve(sb, 1);
    sb->s[sb->len++] = c;
    sb->s[sb->len] = '\0';
}

void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    if ((size_t)n < sizeof(small)) {
        sb_putn(sb, small, (size_t)n);
    } else {
        sb_reserve(sb, (size_t)n);
        vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap2);
        sb->len += (size_t)n;
    }
    va_end(ap2);
}

void sb_put_u64(struct strbuf *sb, uint64_t v)
{
    char tmp[20]; /* UINT64_MAX has 20 digits */
    size_t n = sizeof(tmp);
    do {
        tmp[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_putn(sb, tmp + n, sizeof(tmp) - n);
}

void sb_put_i64(struct strbuf *sb, int64_t v)
{
    if (v < 0) {
        sb_putc(sb, '-');
        sb_put_u64(sb, 0 - (uint64_t)v); /* INT64_MIN's magnitude fits */
        return;
    }
    sb_put_u64(sb, (uint64_t)v);
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void sb_put_json_string(struct strbuf *sb, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    sb_reserve(sb, n + 2);
    sb_putc(sb, '"');
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            size_t j = i + 1;
            while (j < n && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] < 0x7f &&
                   s[j] != '"' && s[j] != '\\')
                j++;
            sb_putn(sb, s + i, j - i);
            i = j;
            continue;
        }
        if (c < 0x80) {
            switch (c) {
            case '"':
                sb_puts(sb, "\\\"");
                break;
            case '\\':
                sb_puts(sb, "\\\\");
                break;
            case '\n':
                sb_puts(sb, "\\n");
                break;
            case '\r':
                sb_puts(sb, "\\r");
                break;
            case '\t':
                sb_puts(sb, "\\t");
                break;
            case '\b':
                sb_puts(sb, "\\b");
                break;
            case '\f':
                sb_puts(sb, "\\f");
                break;
            default: {
                char esc[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
                sb_puts(sb, esc);
            }
            }
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = utf8_decode(s + i, n - i, &cp);
        if (len == 0) {
            sb_puts(sb, "\xef\xbf\xbd");
            i++;
        } else if (cp < 0xa0 || utf8_is_bidi_control(cp) || cp == 0x2028 || cp == 0x2029) {
            sb_printf(sb, "\\u%04x", (unsigned)cp);
            i += len;
        } else {
            sb_putn(sb, s + i, len);
            i += len;
        }
    }
    sb_putc(sb, '"');
}

const char *sb_str(const struct strbuf *sb)
{
    return sb->s ? sb->s : "";
}

void sb_clear(struct strbuf *sb)
{
    sb->len = 0;
    if (sb->s)
        sb->s[0] = '\0';
}

void sb_free(struct strbuf *sb)
{
    free(sb->s);
    sb->s = NULL;
    sb->len = sb->cap = 0;
}

char *sb_steal(struct strbuf *sb)
{
    char *s = sb->s ? sb->s : xstrdup("");
    sb->s = NULL;
    sb->len = sb->cap = 0;
    return s;
}
