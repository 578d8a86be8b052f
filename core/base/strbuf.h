/* Growable byte strings for building text. The buffer is always
 * NUL-terminated; sb.s may be NULL until something is appended. */
#ifndef TORCHTOP_CORE_STRBUF_H
#define TORCHTOP_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/common.h"

struct strbuf {
    char *s;
    size_t len, cap;
};

#define STRBUF_INIT                                                                                \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

void sb_reserve(struct strbuf *sb, size_t extra);
void sb_putn(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_putc(struct strbuf *sb, char c);
void sb_printf(struct strbuf *sb, const char *fmt, ...) ATTR_FORMAT(2, 3);
void sb_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* Append an integer in decimal, as "%llu" / "%lld" write it, without
 * printf's format parsing (the export writes millions of them). */
void sb_put_u64(struct strbuf *sb, uint64_t v);
void sb_put_i64(struct strbuf *sb, int64_t v);
/* Append s[0..n) as a JSON string literal, quotes included. Invalid UTF-8
 * bytes become U+FFFD; C0 controls, DEL, C1 controls (U+0080-U+009F),
 * bidirectional controls and U+2028/U+2029 are written as \uXXXX escapes,
 * so the string reads back exactly and the JSON text is safe to print. */
void sb_put_json_string(struct strbuf *sb, const char *s, size_t n);
/* Never NULL: "" for an empty buffer. */
const char *sb_str(const struct strbuf *sb);
void sb_clear(struct strbuf *sb);
void sb_free(struct strbuf *sb);
/* Hand the string over (caller frees); the buffer becomes empty. */
char *sb_steal(struct strbuf *sb);

#endif
