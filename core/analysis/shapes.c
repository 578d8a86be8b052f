/* Parsing of recorded op arguments (Input Dims / type / Strides / Concrete
 * Inputs) and the dtype table of docs/metrics.md §7.1. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/analysis/shapes.h"
#include "core/base/xalloc.h"
#include "core/trace/pyval.h"

/* One element of Input Dims / Input Strides: a flat list of integers (for
 * dims, one that passes shapes_valid). */
static void parse_shape(struct pyval v, struct shape *s, bool dims)
{
    s->nd = -1;
    struct pyval_iter it;
    struct pyval x;
    if (pyval_kind(v) != PYV_LIST || !pyval_iter_init(&it, v))
        return;
    int16_t nd = 0;
    while (pyval_iter_next(&it, &x)) {
        if (nd >= SHAPES_MAX_DIMS || !pyval_int(x, &s->d[nd]))
            return;
        nd++;
    }
    s->nd = nd;
    if (dims && !shapes_valid(s))
        s->nd = -1;
}

bool shapes_valid(const struct shape *s)
{
    if (s->nd < 0)
        return false;
    bool zero = false;
    for (int i = 0; i < s->nd; i++) {
        if (s->d[i] < 0 || s->d[i] > SHAPES_MAX_NUMEL)
            return false;
        zero |= s->d[i] == 0;
    }
    if (zero)
        return true;
    int64_t n = 1;
    for (int i = 0; i < s->nd; i++) {
        if (n > SHAPES_MAX_NUMEL / s->d[i])
            return false;
        n *= s->d[i];
    }
    return true;
}

static uint32_t parse_shapes(struct pyval list, struct shape *v, bool dims, bool *is_list)
{
    for (uint32_t i = 0; i < SHAPES_MAX_ARGS; i++)
        v[i].nd = -1;
    *is_list = pyval_kind(list) == PYV_LIST;
    struct pyval_iter it;
    struct pyval x;
    if (!*is_list || !pyval_iter_init(&it, list))
        return 0;
    uint32_t n = 0;
    while (n < SHAPES_MAX_ARGS && pyval_iter_next(&it, &x))
        parse_shape(x, &v[n++], dims);
    return n;
}

/* The entries of a list into store (NUL-separated), their offsets into
 * off: strings as they are, null as "", other values as compact JSON. */
static uint32_t parse_texts(struct pyval list, struct strbuf *store, size_t *off)
{
    struct pyval_iter it;
    struct pyval x;
    if (pyval_kind(list) != PYV_LIST || !pyval_iter_init(&it, list))
        return 0;
    uint32_t n = 0;
    while (n < SHAPES_MAX_ARGS && pyval_iter_next(&it, &x)) {
        off[n++] = store->len;
        size_t len;
        const char *s = pyval_str(x, &len);
        if (s)
            sb_putn(store, s, len);
        else if (pyval_kind(x) != PYV_NONE)
            pyval_put_json(store, x);
        sb_putc(store, '\0');
    }
    return n;
}

bool shapes_args_parse(struct op_args *a, struct pyval dims, struct pyval types,
                       struct pyval strides, struct pyval concrete)
{
    memset(a, 0, sizeof(*a));
    static const char empty[] = "";
    for (uint32_t i = 0; i < SHAPES_MAX_ARGS; i++) {
        a->dims[i].nd = a->strides[i].nd = -1;
        a->type[i] = a->concrete[i] = empty;
    }
    if (pyval_kind(dims) != PYV_LIST)
        return false;
    bool is_list;
    uint32_t nd = parse_shapes(dims, a->dims, true, &a->has_dims);
    uint32_t ns = parse_shapes(strides, a->strides, false, &is_list);
    struct strbuf store = STRBUF_INIT;
    size_t toff[SHAPES_MAX_ARGS], coff[SHAPES_MAX_ARGS];
    uint32_t nt = parse_texts(types, &store, toff);
    uint32_t nc = parse_texts(concrete, &store, coff);
    sb_putc(&store, '\0');
    a->store = sb_steal(&store);
    a->n = MAX(MAX(nd, ns), MAX(nt, nc));
    for (uint32_t i = 0; i < nt; i++)
        a->type[i] = a->store + toff[i];
    for (uint32_t i = 0; i < nc; i++)
        a->concrete[i] = a->store + coff[i];
    return true;
}

bool shapes_args_of(struct op_args *a, const struct trace *t, uint32_t ev)
{
    const struct op_info *o = ev_op(t, ev);
    if (!o)
        return shapes_args_parse(a, trace_val(t, 0), trace_val(t, 0), trace_val(t, 0),
                                 trace_val(t, 0));
    return shapes_args_parse(a, trace_val(t, o->input_dims), trace_val(t, o->input_type),
                             trace_val(t, o->input_strides), trace_val(t, o->concrete_inputs));
}

void shapes_args_done(struct op_args *a)
{
    free(a->store);
    a->store = NULL;
    a->n = 0;
}

int64_t shapes_numel(const struct shape *s)
{
    if (s->nd < 0)
        return 0;
    int64_t n = 1;
    for (int i = 0; i < s->nd; i++)
        n *= s->d[i];
    return n;
}

/* ------------------------------------------------------------------------ */
/* Dtypes                                                                   */
/* ------------------------------------------------------------------------ */

struct dtype_entry {
    const char *name; /* lowercase */
    int bytes;
    const char *precision; /* NULL = no compute precision */
    bool exact;            /* case matters: "Bool" is a scalar argument's type
                              in traces before PyTorch 1.10, not a tensor's */
};

static const struct dtype_entry dtypes[] = {
    {"double", 8, "fp64", false},
    {"long int", 8, NULL, false},
    {"float", 4, "fp32", false},
    {"int", 4, NULL, false},
    {"scalar", 4, NULL, false},
    {"c10::half", 2, "fp16", false},
    {"c10::bfloat16", 2, "bf16", false},
    {"c10::float8_e4m3fn", 1, "fp8", false},
    {"c10::float8_e4m3fnuz", 1, "fp8", false},
    {"c10::float8_e5m2", 1, "fp8", false},
    {"c10::float8_e5m2fnuz", 1, "fp8", false},
    {"c10::float8_e8m0fnu", 1, "fp8", false},
    {"fp8", 1, "fp8", false},
    {"unsigned char", 1, "fp8", false},
    {"signed char", 1, "int8", false},
    {"bool", 1, NULL, true},
};

static const struct dtype_entry *dtype_find(const char *type)
{
    if (!type)
        return NULL;
    for (size_t i = 0; i < ARRAY_SIZE(dtypes); i++)
        if ((dtypes[i].exact ? strcmp : strcasecmp)(type, dtypes[i].name) == 0)
            return &dtypes[i];
    return NULL;
}

int shapes_dtype_bytes(const char *type)
{
    const struct dtype_entry *e = dtype_find(type);
    return e ? e->bytes : 0;
}

const char *shapes_dtype_precision(const char *type)
{
    const struct dtype_entry *e = dtype_find(type);
    return e ? e->precision : NULL;
}

/* ------------------------------------------------------------------------ */
/* Concrete inputs                                                          */
/* ------------------------------------------------------------------------ */

static const char *skip_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

bool shapes_parse_int(const char *s, int64_t *out)
{
    if (!s)
        return false;
    s = skip_blank(s);
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno || *skip_blank(end))
        return false;
    *out = v;
    return true;
}

bool shapes_parse_double(const char *s, double *out)
{
    if (!s)
        return false;
    s = skip_blank(s);
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || *skip_blank(end) || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool shapes_parse_bool(const char *s, bool *out)
{
    if (!s)
        return false;
    if (strcmp(s, "True") == 0 || strcmp(s, "true") == 0 || strcmp(s, "1") == 0) {
        *out = true;
        return true;
    }
    if (strcmp(s, "False") == 0 || strcmp(s, "false") == 0 || strcmp(s, "0") == 0) {
        *out = false;
        return true;
    }
    return false;
}

bool shapes_parse_int_list(const char *s, int64_t *out, int max, int *n)
{
    *n = 0;
    if (!s)
        return false;
    s = skip_blank(s);
    if (*s != '[' && *s != '(')
        return false;
    char close = *s == '[' ? ']' : ')';
    s = skip_blank(s + 1);
    if (*s == close)
        return !*skip_blank(s + 1);
    for (;;) {
        char *end;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (end == s || errno || *n >= max)
            return false;
        out[(*n)++] = v;
        s = skip_blank(end);
        if (*s == ',') {
            s = skip_blank(s + 1);
            if (*s == close) /* (1,) */
                return !*skip_blank(s + 1);
            continue;
        }
        if (*s == close)
            return !*skip_blank(s + 1);
        return false;
    }
}

/* ------------------------------------------------------------------------ */
/* Python reprs                                                             */
/* ------------------------------------------------------------------------ */

void shapes_put_tuple(struct strbuf *out, const struct shape *s)
{
    if (s->nd < 0) {
        sb_puts(out, "None");
        return;
    }
    sb_putc(out, '(');
    for (int i = 0; i < s->nd; i++)
        sb_printf(out, "%s%lld", i ? ", " : "", (long long)s->d[i]);
    if (s->nd == 1)
        sb_putc(out, ',');
    sb_putc(out, ')');
}

void shapes_put_pystr_tuple(struct strbuf *out, const char *const *v, int n)
{
    sb_putc(out, '(');
    for (int i = 0; i < n; i++) {
        if (i)
            sb_puts(out, ", ");
        if (v[i])
            pyval_repr_str(out, v[i], strlen(v[i]));
        else
            sb_puts(out, "None");
    }
    if (n == 1)
        sb_putc(out, ',');
    sb_putc(out, ')');
}
