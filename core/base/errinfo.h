/* Error reports from core: what went wrong, in which file, at which byte.
 *
 * Core never prints or exits; it fills a struct errinfo and returns a
 * status. The front end prints errinfo_format() and picks the exit code. */
#ifndef TORCHTOP_CORE_ERRINFO_H
#define TORCHTOP_CORE_ERRINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/common.h"

/* clang-format off */
#define STATUS_INFO(_)                                                         \
    _(ST_OK,        "ok")                                                      \
    _(ST_IO,        "I/O error")                                               \
    _(ST_FORMAT,    "malformed input")                                         \
    _(ST_TRUNCATED, "truncated input")                                         \
    _(ST_GZIP,      "corrupt gzip data")                                       \
    _(ST_UNSAFE,    "refused input")                                           \
    _(ST_CANCELLED, "cancelled")                                               \
    _(ST_LIMIT,     "input exceeds a limit")
/* clang-format on */

enum status {
#define STATUS_ENUM(id, text) id,
    STATUS_INFO(STATUS_ENUM)
#undef STATUS_ENUM
};

const char *status_str(enum status st);

struct errinfo {
    enum status status; /* ST_OK when nothing went wrong */
    char *file;         /* path as the user gave it, or NULL */
    bool has_offset;    /* offset is meaningful */
    uint64_t offset;    /* byte offset where the fault was found */
    char *offset_what;  /* what the offset counts, e.g. "compressed byte" */
    char *msg;          /* what was expected / what happened */
};

/* Record an error; the first one recorded wins, later calls are ignored.
 * offset < 0 means "no offset". */
void errinfo_set(struct errinfo *e, enum status st, const char *file, int64_t offset,
                 const char *fmt, ...) ATTR_FORMAT(5, 6);
/* Like errinfo_set but offset counts bytes of the named kind
 * ("compressed byte", "byte"). */
void errinfo_set_at(struct errinfo *e, enum status st, const char *file, const char *what,
                    uint64_t offset, const char *fmt, ...) ATTR_FORMAT(6, 7);
/* One line, "FILE: byte N: MSG", malloc'd, with anything unprintable
 * escaped (display_sanitize). */
char *errinfo_format(const struct errinfo *e);
void errinfo_clear(struct errinfo *e);

#endif
