/* A strict JSON parser for trace events, building the same cJSON trees as
 * cJSON_ParseWithLengthOpts in an arena. It takes only the common, plainly
 * valid case and declines the rest (returns NULL) for cJSON to parse and to
 * report: anything it accepts, cJSON accepts and reads the same way. */
#ifndef TORCHTOP_CORE_JSONFAST_H
#define TORCHTOP_CORE_JSONFAST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/arena.h"

struct cJSON;

/* Parse the value at text[0..len) (no leading whitespace) into nodes
 * allocated from a, at most `budget` bytes of them. Returns the value, with
 * *end just after it, or NULL when the value is not strict JSON (RFC 8259)
 * or uses what this parser leaves to cJSON: "\u" escapes, control bytes,
 * numbers that are not exact in one IEEE operation (over 2^53 in their
 * digits, or a power of ten beyond 1e22), nesting beyond 512, or more
 * memory than the budget. The tree lives until the arena is reset. */
struct cJSON *jsonfast_parse(const char *text, size_t len, struct arena *a, size_t budget,
                             const char **end);

/* The JSON number at s[0..n) as strtod reads it, when that is exact in one
 * IEEE operation (the digits, without dot, below 2^53 and the power of ten
 * within 1e22): true and *out. False for any other text. */
bool jsonfast_number(const char *s, size_t n, double *out);

#endif
