/* Fuzz target: names. The input is one name (NUL bytes end it, as in C
 * strings from a trace): demangled, simplified, and fitted for display.
 * Oracles from kname.h and display.h: a non-empty name simplifies to a
 * non-empty name no longer than its demangled form, and display text is
 * valid UTF-8 without control characters, within the width asked for.
 * (That simplifying twice changes nothing is tested on real kernel names
 * in test_kname; arbitrary bytes make the heuristics pick differently.) */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols/demangle.h"
#include "core/base/display.h"
#include "core/symbols/kname.h"
#include "core/base/xalloc.h"
#include "tests/fuzz/fuzz.h"

/* Display text: valid UTF-8 without C0/C1 controls or DEL. */
static void check_clean(const struct strbuf *sb, const char *what)
{
    const unsigned char *p = (const unsigned char *)sb_str(sb), *end = p + sb->len;
    while (p < end) {
        unsigned c = *p;
        size_t len = c < 0x80             ? 1
                     : (c & 0xe0) == 0xc0 ? 2
                     : (c & 0xf0) == 0xe0 ? 3
                     : (c & 0xf8) == 0xf0 ? 4
                                          : 0;
        if (!len || (size_t)(end - p) < len)
            fuzz_fail("%s: invalid UTF-8", what);
        uint32_t cp = len == 1 ? c : c & (0x7f >> len);
        for (size_t i = 1; i < len; i++) {
            if ((p[i] & 0xc0) != 0x80)
                fuzz_fail("%s: invalid UTF-8", what);
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
            fuzz_fail("%s: control character U+%04X", what, (unsigned)cp);
        p += len;
    }
}

static void check_display(const char *s, size_t n)
{
    struct strbuf sb = STRBUF_INIT;
    display_sanitize(&sb, s, n);
    check_clean(&sb, "display_sanitize");
    display_width(sb_str(&sb), sb.len);
    size_t widths[] = {0, 1, 2, 10, 40};
    for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
        for (int middle = 0; middle < 2; middle++) {
            sb_clear(&sb);
            size_t w = display_fit(&sb, s, n, widths[i], middle, middle);
            if (w > widths[i])
                fuzz_fail("display_fit wrote %zu columns for a width of %zu", w, widths[i]);
            check_clean(&sb, "display_fit");
        }
    }
    sb_free(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    char *name = xstrndup((const char *)data, size);
    size_t n = strlen(name);

    char *d = demangle(name);
    char *full = demangle_or_copy(name);
    if (d && strcmp(d, full) != 0)
        fuzz_fail("demangle and demangle_or_copy disagree");
    struct strbuf sb = STRBUF_INIT;
    demangle_put(&sb, name);
    if (strcmp(sb_str(&sb), full) != 0)
        fuzz_fail("demangle_put and demangle_or_copy disagree");
    sb_free(&sb);

    char *simple = kname_simplify(name);
    bool blank = true; /* names of white space alone are trimmed away */
    for (size_t i = 0; i < n && blank; i++)
        blank = isspace((unsigned char)name[i]);
    if (!blank && !*simple)
        fuzz_fail("a non-empty name simplified to an empty one");
    /* kname trims white space before demangling; compare with that. */
    size_t lo = 0, hi = n;
    while (lo < hi && isspace((unsigned char)name[lo]))
        lo++;
    while (hi > lo && isspace((unsigned char)name[hi - 1]))
        hi--;
    char *trimmed = xstrndup(name + lo, hi - lo);
    char *full_trimmed = demangle_or_copy(trimmed);
    if (strlen(simple) > strlen(full_trimmed))
        fuzz_fail("the simplified name is longer than the demangled one");
    free(full_trimmed);
    free(trimmed);
    struct strbuf part = STRBUF_INIT;
    kname_simplify_put(&part, name, n / 2);
    sb_free(&part);

    check_display(name, n);
    check_display((const char *)data, size);
    check_display(simple, strlen(simple));

    free(simple);
    free(full);
    free(d);
    free(name);
    return 0;
}
