/* UTF-8 decoding. */
#include "config.h"

#include <string.h>

#include "core/base/utf8.h"

size_t utf8_decode(const char *str, size_t n, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    if (n == 0)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if ((c & 0xe0) == 0xc0) {
        len = 2;
        v = c & 0x1f;
        min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        len = 3;
        v = c & 0x0f;
        min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
        len = 4;
        v = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

bool utf8_valid(const char *s, size_t n)
{
    return utf8_find_invalid(s, n) == n;
}

size_t utf8_find_invalid(const char *s, size_t n)
{
    size_t i = 0;
    uint32_t cp;
    while (i < n) {
        /* ASCII, nearly all of a trace: 32 bytes a step, then 8. */
        uint64_t w[4];
        while (n - i >= 32 &&
               (memcpy(w, s + i, 32), ((w[0] | w[1] | w[2] | w[3]) & 0x8080808080808080ULL) == 0))
            i += 32;
        while (n - i >= 8 && (memcpy(w, s + i, 8), (w[0] & 0x8080808080808080ULL) == 0))
            i += 8;
        while (i < n && (unsigned char)s[i] < 0x80)
            i++;
        if (i == n)
            break;
        size_t len = utf8_decode(s + i, n - i, &cp);
        if (!len)
            return i;
        i += len;
    }
    return n;
}

bool utf8_is_bidi_control(uint32_t cp)
{
    return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e ||
           cp == 0x200f || cp == 0x061c;
}
