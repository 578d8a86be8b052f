/* What is wrong with a JSON text, in words, where cJSON is lax (it reads
 * "0001" and "5." as numbers) or terse (it stops at the '[' past its
 * nesting limit, or at the '\' of a lone surrogate, without saying why).
 * Used by the trace loader for events and top-level values. */
#ifndef TORCHTOP_CORE_JSONFAULT_H
#define TORCHTOP_CORE_JSONFAULT_H

#include <stddef.h>

/* The first number in [p, end) that JSON does not allow but cJSON reads: a
 * leading zero ("0001", "-01") or a '.' with no digit after it ("5.",
 * "5.e3"). Strings are skipped. Returns its first byte and writes the
 * reason to why (size n), or returns NULL. */
const char *jsonfault_number(const char *p, const char *end, char *why, size_t n);

/* Why cJSON stopped at `at` in [text, end): "nested deeper than 1000
 * levels" (when at opens a container past cJSON's CJSON_NESTING_LIMIT), "a lone surrogate
 * \ud800" (a UTF-16 surrogate escape without its pair), "unexpected 'c'",
 * "unexpected byte 0xNN", or "" when at is not inside the text. Written to
 * why (size n). Returns 1 for the nesting limit (valid JSON, too deep for
 * torchtop), 0 otherwise (invalid JSON). */
int jsonfault_describe(const char *text, const char *at, const char *end, char *why, size_t n);

#endif
