/* Sanitizing and measuring untrusted text for display. */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "core/base/display.h"
#include "core/base/utf8.h"

void display_sanitize(struct strbuf *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f) {
            size_t j = i + 1;
            while (j < n && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] < 0x7f)
                j++;
            sb_putn(out, s + i, j - i);
            i = j;
            continue;
        }
        if (c < 0x80) {
            char esc[5] = {'\\', 'x', hex[c >> 4], hex[c & 15], 0};
            if (c == '\t')
                sb_puts(out, "\\t");
            else if (c == '\n')
                sb_puts(out, "\\n");
            else
                sb_puts(out, esc);
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = utf8_decode(s + i, n - i, &cp);
        if (!len) {
            sb_puts(out, "\xef\xbf\xbd");
            i++;
            continue;
        }
        if (cp < 0xa0) { /* C1 controls */
            char esc[7] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15], 0};
            sb_puts(out, esc);
        } else if (utf8_is_bidi_control(cp) || cp == 0xfeff) {
            sb_printf(out, "<U+%04X>", (unsigned)cp);
        } else {
            sb_putn(out, s + i, len);
        }
        i += len;
    }
}

static size_t cp_width(uint32_t cp)
{
    if (cp < 0x80)
        return 1;
    int w = wcwidth((wchar_t)cp);
    if (w < 0)
        return 1; /* unknown to the locale: count it as one column */
    return (size_t)w;
}

size_t display_width(const char *s, size_t n)
{
    size_t w = 0, i = 0;
    while (i < n) {
        if ((unsigned char)s[i] < 0x80) {
            w++;
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = utf8_decode(s + i, n - i, &cp);
        if (!len) {
            w++;
            i++;
            continue;
        }
        w += cp_width(cp);
        i += len;
    }
    return w;
}

/* Byte length of the longest prefix of s[0..n) that fits in `cols`. */
static size_t prefix_fitting(const char *s, size_t n, size_t cols, size_t *used)
{
    size_t w = 0, i = 0;
    while (i < n) {
        uint32_t cp = (unsigned char)s[i];
        size_t len = cp < 0x80 ? 1 : utf8_decode(s + i, n - i, &cp);
        if (!len)
            len = 1;
        size_t cw = cp_width(cp);
        if (w + cw > cols)
            break;
        w += cw;
        i += len;
    }
    *used = w;
    return i;
}

/* Byte offset of the shortest suffix of s[0..n) taking at most cols. */
static size_t suffix_fitting(const char *s, size_t n, size_t cols, size_t *used)
{
    size_t w = 0, start = n;
    while (start > 0) {
        size_t b = start - 1;
        while (b > 0 && ((unsigned char)s[b] & 0xc0) == 0x80 && start - b < 4)
            b--;
        uint32_t cp = (unsigned char)s[b];
        size_t len = cp < 0x80 ? 1 : utf8_decode(s + b, start - b, &cp);
        if (len != start - b) {
            b = start - 1; /* not a whole character: take one byte */
            cp = 0xfffd;
        }
        size_t cw = cp_width(cp);
        if (w + cw > cols)
            break;
        w += cw;
        start = b;
    }
    *used = w;
    return start;
}

size_t display_fit(struct strbuf *out, const char *s, size_t n, size_t width, bool middle,
                   bool ascii)
{
    struct strbuf clean = STRBUF_INIT;
    display_sanitize(&clean, s, n);
    const char *c = sb_str(&clean);
    size_t cn = clean.len;
    size_t w = display_width(c, cn);
    if (w <= width) {
        sb_putn(out, c, cn);
        sb_free(&clean);
        return w;
    }
    const char *mark = ascii ? "~" : "\xe2\x80\xa6";
    if (width == 0) {
        sb_free(&clean);
        return 0;
    }
    size_t room = width - 1, used_a = 0, used_b = 0;
    if (middle && room >= 2) {
        size_t head = (room + 1) / 2, tail = room - head;
        size_t hb = prefix_fitting(c, cn, head, &used_a);
        size_t tb = suffix_fitting(c, cn, tail + (head - used_a), &used_b);
        if (tb < hb)
            tb = hb;
        sb_putn(out, c, hb);
        sb_puts(out, mark);
        sb_putn(out, c + tb, cn - tb);
    } else {
        size_t hb = prefix_fitting(c, cn, room, &used_a);
        sb_putn(out, c, hb);
        sb_puts(out, mark);
    }
    sb_free(&clean);
    return used_a + used_b + 1;
}
