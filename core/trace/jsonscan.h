/* Byte-level JSON structure scanning, for cutting a streamed document into
 * complete values without building them. These functions check structure
 * only (brackets and strings); cJSON validates the values later. */
#ifndef TORCHTOP_CORE_JSONSCAN_H
#define TORCHTOP_CORE_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

static inline bool json_is_ws(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Skip whitespace; returns the first other byte's position (or end). */
const char *json_skip_ws(const char *p, const char *end);

/* p points at '"'. Returns the byte after the closing quote, or NULL when
 * the string is incomplete before end. */
const char *json_scan_string(const char *p, const char *end);

/* p points at the first byte of a value. Returns the byte after the value,
 * or NULL when the value is incomplete before end. Containers end at their
 * matching bracket (mismatched brackets end the value early; the parser
 * reports them). Scalars end at the next ',', '}', ']' or whitespace; a
 * scalar that reaches `end` is incomplete unless at_eof. */
const char *json_scan_value(const char *p, const char *end, bool at_eof);

/* Where a scan of one value stands between pieces of input. Zero it before
 * the first piece. */
struct jsonscan_state {
    size_t done;  /* bytes of the value scanned so far, from its first byte */
    size_t depth; /* brackets open */
    bool in_string;
    bool escaped; /* the previous byte was a backslash inside a string */
};

/* json_scan_value for a value whose input arrives in pieces: p points at its
 * first byte, end and at_eof as there. When the value is incomplete (NULL),
 * st records how far the scan went; the next call, with p at the same value
 * (the buffer may have moved) and a later end, goes on from there instead of
 * starting over, so a value of n bytes costs O(n) however it is cut. */
const char *json_scan_resume(const char *p, const char *end, bool at_eof,
                             struct jsonscan_state *st);

/* The first "\u0000" escape in [p, end) whose backslash is not itself
 * escaped (backslashes before p, back to begin, are counted), or NULL.
 * Strings are not told from the rest: outside one the text is not JSON. */
const char *json_find_nul_escape(const char *begin, const char *p, const char *end);

/* Rewrite each such escape in s[0..n) as "\u2400" (SYMBOL FOR NULL):
 * cJSON gives C strings, which "\u0000" would cut short. Same length, so
 * offsets into s stay true. Returns how many were rewritten. */
size_t json_replace_nul_escapes(char *s, size_t n);

#endif
