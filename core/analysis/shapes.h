/* An op instance's recorded arguments, parsed for the performance models:
 * the parsed values (pyval.h) of "Input Dims", "Input type", "Input Strides" and
 * "Concrete Inputs" (op_info in trace.h) -> per-argument shapes, strides,
 * type names and concrete values; dtype names -> bytes per element and
 * compute precision (docs/metrics.md §7.1); and the Python-style text
 * TraceLens prints for shapes and dtype tuples, so that parameter columns
 * can be compared with its sheets. */
#ifndef TORCHTOP_CORE_SHAPES_H
#define TORCHTOP_CORE_SHAPES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/trace/pyval.h"
#include "core/trace/trace.h"

#define SHAPES_MAX_DIMS 8  /* longer shapes are kept as "not a shape" */
#define SHAPES_MAX_ARGS 48 /* arguments beyond this are dropped */

/* One argument's dims (or strides). */
struct shape {
    int16_t nd; /* number of dims; -1 when the entry is not
                   a flat list of integers (nested lists,
                   null, text) or has too many dims */
    int64_t d[SHAPES_MAX_DIMS];
};

/* The four recorded lists of one op instance, aligned by argument index. */
struct op_args {
    uint32_t n;                         /* arguments (longest list) */
    struct shape dims[SHAPES_MAX_ARGS]; /* nd = -1 past a list's end */
    struct shape strides[SHAPES_MAX_ARGS];
    const char *type[SHAPES_MAX_ARGS];     /* never NULL; "" when absent */
    const char *concrete[SHAPES_MAX_ARGS]; /* never NULL; "" when absent */
    bool has_dims;                         /* Input Dims was a list */
    char *store;                           /* owned text of type/concrete */
};

/* Read the four values (each may be absent) into a, which the caller
 * releases with shapes_args_done. Returns false when `dims` is absent or not a
 * list (a is still valid and empty then). Entries of the wrong kind become
 * nd = -1 / "" rather than errors: trace values are untrusted. type and
 * concrete hold strings as they are, null as "", other values as compact
 * JSON. */
bool shapes_args_parse(struct op_args *a, struct pyval dims, struct pyval types,
                       struct pyval strides, struct pyval concrete);
/* shapes_args_parse on the recorded lists of event ev (false for an event that
 * is not an op). */
bool shapes_args_of(struct op_args *a, const struct trace *t, uint32_t ev);
void shapes_args_done(struct op_args *a);

/* Whether argument i exists and is a flat shape (nd >= 0). */
static inline bool shapes_args_shape(const struct op_args *a, uint32_t i)
{
    return i < a->n && a->dims[i].nd >= 0;
}
/* Whether argument i is a tensor with at least one dim. */
static inline bool shapes_args_tensor(const struct op_args *a, uint32_t i)
{
    return i < a->n && a->dims[i].nd > 0;
}
static inline const char *shapes_args_type(const struct op_args *a, uint32_t i)
{
    return i < a->n ? a->type[i] : "";
}
static inline const char *shapes_args_concrete(const struct op_args *a, uint32_t i)
{
    return i < a->n ? a->concrete[i] : "";
}

/* The largest dim and element count of a shape. Recorded dims that are
 * negative or larger, or whose product is (no tensor has them), make the
 * entry "not a shape" (nd = -1), so that element counts, and the models'
 * products of dims with their parameters, stay far from int64's limits. */
#define SHAPES_MAX_NUMEL (INT64_C(1) << 62)

/* Whether nd >= 0, every dim is in [0, SHAPES_MAX_NUMEL] and their product
 * is at most SHAPES_MAX_NUMEL. A shape built from others (an output shape)
 * must pass this before shapes_numel. */
bool shapes_valid(const struct shape *s);

/* Number of elements: the product of the dims (1 for a 0-d shape); 0 when
 * nd < 0. s is a parsed Input Dims entry or passes shapes_valid. */
int64_t shapes_numel(const struct shape *s);

/* Bytes per element of a recorded dtype name (docs/metrics.md §7.1): 8
 * double / long int; 4 float / int / Scalar; 2 c10::Half / c10::BFloat16;
 * 1 float8 types, unsigned/signed char, bool. 0 when unknown.
 * Case-insensitive, except "bool" ("Bool" is a scalar argument's type). */
int shapes_dtype_bytes(const char *type);

/* Compute precision of a dtype name: "fp64", "fp32", "fp16", "bf16",
 * "fp8" (also for unsigned char, as TraceLens maps it) or "int8" (signed
 * char); NULL when none applies (integers, bool, Scalar, unknown). */
const char *shapes_dtype_precision(const char *type);

/* Concrete-input texts. Each returns false when s does not have the form. */
/* "[1, 2]" / "[]" -> up to max values; *n gets the count. */
bool shapes_parse_int_list(const char *s, int64_t *out, int max, int *n);
/* "True" / "False" (also "true"/"false", "1"/"0"). */
bool shapes_parse_bool(const char *s, bool *out);
/* An integer, e.g. "1" or "-2". */
bool shapes_parse_int(const char *s, int64_t *out);
/* A number, e.g. "0.", "0.125", "1e-05". */
bool shapes_parse_double(const char *s, double *out);

/* Python reprs, as TraceLens writes its parameter columns. */
/* (10, 64, 56, 56), (128,), (); "None" when nd < 0. */
void shapes_put_tuple(struct strbuf *out, const struct shape *s);
/* ('a', 'b', None): n strings (pyval_repr_str), NULL entries as None. */
void shapes_put_pystr_tuple(struct strbuf *out, const char *const *v, int n);

#endif
