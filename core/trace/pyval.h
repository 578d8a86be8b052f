/* Op argument values: "Input Dims", "Input type", "Input Strides" and
 * "Concrete Inputs" as the loader parsed them, once, from the event's JSON.
 * A value is kept as a compact tagged encoding, interned in trace.vals so
 * that equal values share one id (trace_val() in trace.h); everyone reads
 * it through the cursor below, and writes it back as compact JSON or as
 * the text Python's repr() gives the value json.load makes of it.
 *
 * Encoding of one value (counts and lengths are LEB128 varints):
 *   PYV_NONE, PYV_FALSE, PYV_TRUE   the tag alone
 *   PYV_INT    tag, zigzag varint: a JSON number that is an integer below
 *              2^53 in magnitude (so 1.0 reads as 1: the parser does not
 *              keep how a number was written)
 *   PYV_FLOAT  tag, the 8 bytes of the double in host order: other numbers
 *   PYV_STR    tag, varint byte length, the raw UTF-8 bytes, a NUL
 *   PYV_LIST   tag, varint item count, varint byte length of the items,
 *              the items
 *   PYV_DICT   tag, varint entry count, varint byte length of the entries,
 *              then a PYV_STR key and a value per entry, in file order
 * The empty encoding is "absent" (id 0 of trace.vals). Equal JSON values
 * encode to equal bytes. */
#ifndef TORCHTOP_CORE_PYVAL_H
#define TORCHTOP_CORE_PYVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strbuf.h"

struct cJSON;

enum pyval_kind {
    PYV_ABSENT, /* no value (empty or malformed encoding) */
    PYV_NONE,
    PYV_FALSE,
    PYV_TRUE,
    PYV_INT,
    PYV_FLOAT,
    PYV_STR,
    PYV_LIST,
    PYV_DICT,
};

/* One encoded value: p at its tag; end bounds what it may read. Borrowed:
 * valid while the bytes it points into are. */
struct pyval {
    const uint8_t *p, *end;
};

static inline struct pyval pyval_of(const void *bytes, size_t len)
{
    const uint8_t *p = (const uint8_t *)bytes;
    return (struct pyval){p, p ? p + len : p};
}

/* --- writing (the loader) --- */

/* Append the encoding of a parsed JSON value to out. Strings are taken as
 * the bytes cJSON holds; anything cJSON cannot represent is None. */
void pyval_encode(struct strbuf *out, const struct cJSON *v);

/* --- reading --- */

enum pyval_kind pyval_kind(struct pyval v);
/* An integer: PYV_INT, or a PYV_FLOAT holding an integer within 9e18 in
 * magnitude. False for anything else (bools included). */
bool pyval_int(struct pyval v, int64_t *out);
/* A number: PYV_INT or PYV_FLOAT. */
bool pyval_number(struct pyval v, double *out);
/* A string's bytes (NUL-terminated, *len without the NUL; len may be
 * NULL), or NULL when v is not a string. Points into v's bytes. */
const char *pyval_str(struct pyval v, size_t *len);
/* Items of a list, entries of a dict; 0 for anything else. */
uint32_t pyval_count(struct pyval v);

/* Walk over the items of a list, or over the keys and values of a dict
 * (key, value, key, value, ...). */
struct pyval_iter {
    const uint8_t *p, *end;
    uint32_t left; /* items (dict: keys and values) still to come */
};

/* False (and an empty walk) when v is neither a list nor a dict. */
bool pyval_iter_init(struct pyval_iter *it, struct pyval v);
/* The next item, or false at the end (or at malformed bytes). */
bool pyval_iter_next(struct pyval_iter *it, struct pyval *item);

/* --- text --- */

/* Append v as compact JSON (as cJSON_PrintUnformatted writes it; numbers
 * that are not finite as null). Nothing for an absent value. */
void pyval_put_json(struct strbuf *out, struct pyval v);

enum pyval_repr_flags {
    PYVAL_TUPLES = 1 << 0, /* lists as tuples, except inside a dict: what
                              TraceLens's list_to_tuple() makes of them */
};

/* Append Python's repr() of the value json.load makes of v (flags: enum
 * pyval_repr_flags): None, True, False, integers, floats as repr() prints
 * them, strings as pyval_repr_str, [a, b] or (a, b) / (a,), and
 * {'k': v}. Nothing for an absent value. */
void pyval_repr(struct strbuf *out, struct pyval v, unsigned flags);
/* Python 3's repr() of the str s[0..n) (UTF-8): single quotes unless s
 * holds a ' and no ", backslash and the quote escaped, \t \n \r, other
 * characters that are not printable as \xNN, \uNNNN or \UNNNNNNNN, and
 * printable non-ASCII kept. Bytes that are not UTF-8 become U+FFFD. */
void pyval_repr_str(struct strbuf *out, const char *s, size_t n);
/* Python's repr() of a float: the shortest digits that read back as d,
 * "1.0", "1e-05", "1e+16", "inf", "-inf", "nan". */
void pyval_repr_float(struct strbuf *out, double d);
/* Whether Python's str.isprintable() holds for the code point cp. */
bool pyval_printable(uint32_t cp);

#endif
