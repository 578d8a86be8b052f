/* Packed event arguments: every arg of every event, compactly.
 *
 * Layout of one event's args in trace.argbuf:
 *   varint count, then count entries of
 *   varint (key_strid << 3 | tag), payload
 * The tag is the arg_type, except that ARG_NULL and ARG_VALUE share tag 0
 * (three bits hold eight tags) with a varint payload: 0 for null, else the
 * value's id in trace.vals, which is never 0. Other payloads: ARG_INT
 * zigzag varint; ARG_UINT varint (integers above INT64_MAX); ARG_DOUBLE 8
 * raw bytes; ARG_STR and ARG_JSON varint strtab id (ARG_JSON holds the
 * compact JSON text of an array or object); the booleans have none. Keys
 * keep their file order. */
#ifndef TORCHTOP_CORE_ARGPACK_H
#define TORCHTOP_CORE_ARGPACK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/trace/trace.h"

enum arg_type {
    ARG_NULL,
    ARG_FALSE,
    ARG_TRUE,
    ARG_INT,
    ARG_UINT,
    ARG_DOUBLE,
    ARG_STR,
    ARG_JSON,
    ARG_VALUE, /* an op argument list, parsed (pyval.h) */
};

struct argval {
    uint32_t key; /* strtab id of the key */
    uint8_t type; /* enum arg_type */
    union {
        int64_t i;  /* ARG_INT */
        uint64_t u; /* ARG_UINT */
        double d;   /* ARG_DOUBLE */
        uint32_t s; /* ARG_STR, ARG_JSON: strtab id; ARG_VALUE: id in trace.vals */
    } v;
};

/* --- writing (the loader) --- */
typedef VEC(uint8_t) argbytes_t;
void argpack_put_varint(argbytes_t *b, uint64_t v);
void argpack_put(argbytes_t *b, const struct argval *a);

/* --- reading --- */
struct argiter {
    const uint8_t *p, *end;
    uint64_t left;
};

/* Iterate over the args of event ev (none when it has no args). */
void argpack_iter_init(struct argiter *it, const struct trace *t, uint32_t ev);
/* Next arg, or false at the end (or on a corrupt pack). */
bool argpack_iter_next(struct argiter *it, struct argval *out);
/* The arg named key of event ev. */
bool argpack_find(const struct trace *t, uint32_t ev, const char *key, struct argval *out);
/* Whether the args of event ev read to their end, every key and string id
 * within trace.strs and every value id within trace.vals: what a trace
 * from an untrusted store (tracecache.h) must hold. */
bool argpack_valid(const struct trace *t, uint32_t ev);
/* Numeric value of an arg (ints, doubles, and numeric strings such as HIP's
 * "0x0" or "2560"); false when it has none. */
bool argpack_val_number(const struct trace *t, const struct argval *a, double *out);
bool argpack_val_int(const struct trace *t, const struct argval *a, int64_t *out);
/* An id (correlation, Python id, ...): a non-negative int, or a string of
 * one number in any base strtoull reads ("0x1f", "2560"); false otherwise. */
bool argpack_val_id(const struct trace *t, const struct argval *a, uint64_t *out);
/* The string rule of argpack_val_id, for text not yet in a trace. */
bool argpack_id_text(const char *s, uint64_t *out);
/* Append the value as JSON text (ARG_VALUE: compact, as ARG_JSON). */
void argpack_val_put_json(struct strbuf *sb, const struct trace *t, const struct argval *a);
/* Append the value as display text (strings without quotes). */
void argpack_val_put_text(struct strbuf *sb, const struct trace *t, const struct argval *a);
/* Append all args of ev as a JSON object ("{}" when none). */
void argpack_put_json(struct strbuf *sb, const struct trace *t, uint32_t ev);

#endif
