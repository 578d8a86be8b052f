/* Error records with file name and byte offset. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/errinfo.h"
#include "core/base/xalloc.h"

const char *status_str(enum status st)
{
    static const char *const names[] = {
#define STATUS_NAME(id, text) [id] = text,
        STATUS_INFO(STATUS_NAME)
#undef STATUS_NAME
    };
    return (unsigned)st < ARRAY_SIZE(names) ? names[st] : "unknown status";
}

static void errinfo_vset(struct errinfo *e, enum status st, const char *file, const char *what,
                         bool has_offset, uint64_t offset, const char *fmt, va_list ap)
{
    if (e->status != ST_OK)
        return;
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = xstrdup("error");
    e->status = st;
    e->file = file ? xstrdup(file) : NULL;
    e->has_offset = has_offset;
    e->offset = offset;
    e->offset_what = xstrdup(what ? what : "byte");
    e->msg = msg;
}

void errinfo_set(struct errinfo *e, enum status st, const char *file, int64_t offset,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errinfo_vset(e, st, file, NULL, offset >= 0, offset >= 0 ? (uint64_t)offset : 0, fmt, ap);
    va_end(ap);
}

void errinfo_set_at(struct errinfo *e, enum status st, const char *file, const char *what,
                    uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errinfo_vset(e, st, file, what, true, offset, fmt, ap);
    va_end(ap);
}

char *errinfo_format(const struct errinfo *e)
{
    const char *file = e->file ? e->file : "(input)";
    char *raw;
    if (e->has_offset)
        raw = xasprintf("%s: %s %llu: %s", file, e->offset_what, (unsigned long long)e->offset,
                        e->msg ? e->msg : "error");
    else
        raw = xasprintf("%s: %s", file, e->msg ? e->msg : "error");
    /* Messages quote names and keys from the input: keep them printable. */
    struct strbuf sb = STRBUF_INIT;
    display_sanitize(&sb, raw, strlen(raw));
    free(raw);
    return sb_steal(&sb);
}

void errinfo_clear(struct errinfo *e)
{
    free(e->file);
    free(e->msg);
    free(e->offset_what);
    *e = (struct errinfo){0};
}
