/* A strict JSON parser for trace events, building the same cJSON trees as
 * cJSON_ParseWithLengthOpts in an arena. It takes only the common, plainly
 * valid case and declines the rest (returns NULL) for cJSON to parse and to
 * report: anything it accepts, cJSON accepts and reads the same way. */
#ifndef TORCHTOP_CORE_JSONFAST_H
#define TORCHTOP_CORE_JSONFAST_H

#include <stddef.h>

#include "core/base/arena.h"

struct cJSON;

/* Parse the value at text[0..len) (no leading whitespace) into nodes
 * allocated from a, at most `budget` bytes of them. Returns the value, with
 * *end just after it, or NULL when the value is not strict JSON (RFC 8259)
 * or uses what this parser leaves to cJSON: "\u" escapes, control bytes,
 * numbers over 60 bytes (cJSON reads 63 of them), nesting beyond 512, or
 * more memory than the budget. Numbers are read exactly and without the
 * locale (numparse.h), as cJSON's strtod reads them in the C locale. The
 * tree lives until the arena is reset. */
struct cJSON *jsonfast_parse(const char *text, size_t len, struct arena *a, size_t budget,
                             const char **end);

#endif
