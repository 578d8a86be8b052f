/* Column-exact text for the explorer: cleaning, fitting, wrapping, glyphs
 * and number formatting. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "core/base/display.h"
#include "core/base/utf8.h"
#include "tui/frame/text.h"

const struct glyphs glyphs_utf8 = {
    .ellipsis = "\xe2\x80\xa6",
    .tree_vert = "\xe2\x94\x82 ",
    .tree_tee = "\xe2\x94\x9c\xe2\x94\x80",
    .tree_end = "\xe2\x94\x94\xe2\x94\x80",
    .expanded = "\xe2\x96\xbe",
    .collapsed = "\xe2\x96\xb8",
    .leaf = "\xc2\xb7",
    .sort_desc = "\xe2\x96\xbc",
    .sort_asc = "\xe2\x96\xb2",
    .vline = "\xe2\x94\x82",
    .times = "\xc3\x97",
    .levels = {" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84", "\xe2\x96\x85",
               "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"},
    .bar_start = "\xe2\x96\x90",
    .crit_wait = "\xe2\x94\x80",
    .shade_comm = "\xe2\x96\x93",
    .shade_memcpy = "\xe2\x96\x92",
    .shade_idle = "\xe2\x96\x91",
    .full = "\xe2\x96\x88",
    .cursor = "\xe2\x96\xb2",
    .tick = "\xe2\x94\xbc",
    .axis = "\xe2\x94\x80",
    .mu = "\xc2\xb5",
    .more_left = "\xe2\x80\xb9",
    .more_right = "\xe2\x80\xba",
};

const struct glyphs glyphs_ascii = {
    .ellipsis = "~",
    .tree_vert = "| ",
    .tree_tee = "|-",
    .tree_end = "`-",
    .expanded = "v",
    .collapsed = ">",
    .leaf = " ",
    .sort_desc = "v",
    .sort_asc = "^",
    .vline = "|",
    .times = "x",
    .levels = {" ", ".", ".", ":", ":", "#", "#", "#", "#"},
    .bar_start = "[",
    .crit_wait = "-",
    .shade_comm = "=",
    .shade_memcpy = "~",
    .shade_idle = ".",
    .full = "#",
    .cursor = "^",
    .tick = "+",
    .axis = "-",
    .mu = "u",
    .more_left = "<",
    .more_right = ">",
};

/* ASCII look-alikes for the few non-ASCII characters the explorer's own
 * labels and common trace names use. */
static const char *ascii_alike(uint32_t cp)
{
    switch (cp) {
    case 0xb5:
        return "u"; /* µ */
    case 0x3bc:
        return "u"; /* μ */
    case 0xd7:
        return "x"; /* × */
    case 0x2026:
        return "~"; /* … */
    case 0x2013:
    case 0x2014:
    case 0x2500:
        return "-";
    case 0x2502:
        return "|";
    default:
        return "?";
    }
}

/* Sanitized UTF-8 -> what the terminal gets: in ascii mode every non-ASCII
 * character becomes one ASCII byte; in UTF-8 mode characters the locale
 * cannot show (wcwidth < 0) or that take no column (combining marks, which
 * would attach to a neighbouring cell) become U+FFFD, so one character is
 * always at least one column. */
static void normalize(struct strbuf *out, const char *s, size_t n, bool ascii)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && (unsigned char)s[j] < 0x80)
            j++;
        sb_putn(out, s + i, j - i);
        if (j >= n)
            break;
        uint32_t cp;
        size_t len = utf8_decode(s + j, n - j, &cp);
        if (!len) {
            sb_puts(out, ascii ? "?" : "\xef\xbf\xbd");
            i = j + 1;
            continue;
        }
        if (ascii) {
            sb_puts(out, ascii_alike(cp));
        } else {
            int w = wcwidth((wchar_t)cp);
            if (w <= 0)
                sb_puts(out, "\xef\xbf\xbd");
            else
                sb_putn(out, s + j, len);
        }
        i = j + len;
    }
}

void text_clean(struct strbuf *out, const char *s, size_t n, bool ascii)
{
    struct strbuf tmp = STRBUF_INIT;
    display_sanitize(&tmp, s, n);
    normalize(out, sb_str(&tmp), tmp.len, ascii);
    sb_free(&tmp);
}

size_t text_width(const char *clean, size_t n)
{
    return display_width(clean, n);
}

/* Start of the code point holding byte i (at most 3 bytes back). */
static size_t cp_start(const char *s, size_t i)
{
    size_t k = 0;
    while (i > 0 && k < 3 && ((unsigned char)s[i] & 0xc0) == 0x80) {
        i--;
        k++;
    }
    return i;
}

size_t text_fit(struct strbuf *out, const char *s, size_t n, size_t width, bool middle, bool ascii)
{
    /* Every input character becomes at least one column, and at most four
     * bytes make one character; so when the text is far longer than the
     * room, the part that can never show (the middle, or the tail of an
     * end cut) is dropped before cleaning, which keeps 100 KB names cheap. */
    size_t keep = 4 * width + 8;
    struct strbuf clean = STRBUF_INIT;
    if (n > 2 * keep + 16) {
        size_t head = cp_start(s, keep);
        text_clean(&clean, s, head, ascii);
        if (middle) {
            size_t tail = cp_start(s, n - keep);
            sb_puts(&clean, "...");
            text_clean(&clean, s + tail, n - tail, ascii);
        } else {
            sb_puts(&clean, "...");
        }
    } else {
        text_clean(&clean, s, n, ascii);
    }
    size_t w = display_fit(out, sb_str(&clean), clean.len, width, middle, ascii);
    sb_free(&clean);
    return w;
}

void text_pad(struct strbuf *out, size_t cols)
{
    static const char spaces[] = "                                ";
    while (cols > 0) {
        size_t k = cols < sizeof(spaces) - 1 ? cols : sizeof(spaces) - 1;
        sb_putn(out, spaces, k);
        cols -= k;
    }
}

void text_fit_pad(struct strbuf *out, const char *s, size_t n, size_t width, bool middle,
                  bool right, bool ascii)
{
    if (right) {
        struct strbuf tmp = STRBUF_INIT;
        size_t w = text_fit(&tmp, s, n, width, middle, ascii);
        text_pad(out, width - w);
        sb_putn(out, sb_str(&tmp), tmp.len);
        sb_free(&tmp);
        return;
    }
    size_t w = text_fit(out, s, n, width, middle, ascii);
    text_pad(out, width - w);
}

size_t text_wrap(const char *clean, size_t n, size_t width, size_t *starts, size_t max)
{
    size_t lines = 0;
    if (max == 0)
        return 0;
    if (width == 0)
        width = 1;
    starts[lines++] = 0;
    /* brk: where the line may break, and the
     * columns before it; used when it keeps at least half the line. */
    size_t col = 0, i = 0, brk = 0, brk_col = 0;
    while (i < n) {
        uint32_t cp = (unsigned char)clean[i];
        size_t len = cp < 0x80 ? 1 : utf8_decode(clean + i, n - i, &cp);
        if (!len) {
            len = 1;
            cp = 0xfffd;
        }
        size_t cw = display_width(clean + i, len);
        if (col + cw > width && col > 0) {
            if (lines == max)
                break;
            if (brk > starts[lines - 1] && brk_col * 2 >= width) {
                starts[lines++] = brk;
                col -= brk_col;
            } else {
                starts[lines++] = i;
                col = 0;
            }
            brk = 0;
        }
        col += cw;
        i += len;
        /* After a space, or after a comma not followed by one (the space
         * would start the next line). */
        if (cp == ' ' || (cp == ',' && (i >= n || clean[i] != ' '))) {
            brk = i;
            brk_col = col;
        }
    }
    return lines;
}

void text_duration(char *buf, size_t n, int64_t ns, bool ascii)
{
    const char *mu = ascii ? "u" : "\xc2\xb5";
    if (ns < 0)
        snprintf(buf, n, "-");
    else if (ns < 1000)
        snprintf(buf, n, "%lld ns", (long long)ns);
    else if (ns < 1000000)
        snprintf(buf, n, "%.2f %ss", (double)ns / 1e3, mu);
    else if (ns < 1000000000)
        snprintf(buf, n, "%.2f ms", (double)ns / 1e6);
    else
        snprintf(buf, n, "%.3f s", (double)ns / 1e9);
}

void text_percent(char *buf, size_t n, double pct)
{
    if (!isfinite(pct))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", pct);
}

void text_count(char *buf, size_t n, uint64_t v)
{
    char raw[32];
    int len = snprintf(raw, sizeof(raw), "%llu", (unsigned long long)v);
    char tmp[48];
    int k = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            tmp[k++] = ',';
        tmp[k++] = raw[i];
    }
    tmp[k] = '\0';
    snprintf(buf, n, "%s", tmp);
}

void text_bytes(char *buf, size_t n, uint64_t bytes)
{
    if (bytes < 1000)
        snprintf(buf, n, "%llu B", (unsigned long long)bytes);
    else if (bytes < 1000000)
        snprintf(buf, n, "%.1f kB", (double)bytes / 1e3);
    else if (bytes < 1000000000)
        snprintf(buf, n, "%.1f MB", (double)bytes / 1e6);
    else
        snprintf(buf, n, "%.2f GB", (double)bytes / 1e9);
}
