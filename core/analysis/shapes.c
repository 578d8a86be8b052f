/* Parsing of recorded op arguments (Input Dims / type / Strides / Concrete
 * Inputs) and the dtype table of docs/metrics.md §7.1. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/analysis/shapes.h"
#include "core/base/xalloc.h"

struct cursor {
    const char *p;
};

static void skip_ws(struct cursor *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
        c->p++;
}

/* Skip one JSON value of any kind; false on malformed text. */
static bool skip_value(struct cursor *c)
{
    skip_ws(c);
    if (*c->p == '"') {
        c->p++;
        while (*c->p && *c->p != '"') {
            if (*c->p == '\\' && c->p[1])
                c->p++;
            c->p++;
        }
        if (*c->p != '"')
            return false;
        c->p++;
        return true;
    }
    if (*c->p == '[' || *c->p == '{') {
        int depth = 0;
        while (*c->p) {
            if (*c->p == '"') {
                if (!skip_value(c))
                    return false;
                continue;
            }
            if (*c->p == '[' || *c->p == '{')
                depth++;
            else if (*c->p == ']' || *c->p == '}')
                depth--;
            c->p++;
            if (depth == 0)
                return true;
        }
        return false;
    }
    const char *start = c->p;
    while (*c->p && *c->p != ',' && *c->p != ']' && *c->p != '}')
        c->p++;
    return c->p > start;
}

static bool parse_number(struct cursor *c, int64_t *out)
{
    char *end;
    errno = 0;
    double d = strtod(c->p, &end);
    if (end == c->p || errno || !isfinite(d) || d != floor(d) || fabs(d) > 9.0e18)
        return false;
    *out = (int64_t)d;
    c->p = end;
    return true;
}

/* One element of Input Dims / Input Strides. */
static bool parse_shape(struct cursor *c, struct shape *s)
{
    s->nd = -1;
    skip_ws(c);
    if (*c->p != '[')
        return skip_value(c);
    const char *start = c->p;
    c->p++;
    int16_t nd = 0;
    skip_ws(c);
    if (*c->p == ']') {
        c->p++;
        s->nd = 0;
        return true;
    }
    for (;;) {
        skip_ws(c);
        int64_t v;
        if (nd >= SHAPES_MAX_DIMS || !parse_number(c, &v)) {
            c->p = start;
            return skip_value(c);
        }
        s->d[nd++] = v;
        skip_ws(c);
        if (*c->p == ',') {
            c->p++;
            continue;
        }
        if (*c->p == ']') {
            c->p++;
            s->nd = nd;
            return true;
        }
        c->p = start;
        return skip_value(c);
    }
}

static uint32_t parse_shapes(const char *text, struct shape *v, bool *is_list)
{
    for (uint32_t i = 0; i < SHAPES_MAX_ARGS; i++)
        v[i].nd = -1;
    *is_list = false;
    if (!text)
        return 0;
    struct cursor c = {text};
    skip_ws(&c);
    if (*c.p != '[')
        return 0;
    c.p++;
    *is_list = true;
    uint32_t n = 0;
    skip_ws(&c);
    if (*c.p == ']')
        return 0;
    for (;;) {
        struct shape tmp;
        if (!parse_shape(&c, n < SHAPES_MAX_ARGS ? &v[n] : &tmp))
            return n;
        n++;
        skip_ws(&c);
        if (*c.p != ',')
            break;
        c.p++;
    }
    return n < SHAPES_MAX_ARGS ? n : SHAPES_MAX_ARGS;
}

/* Decode one JSON string (at the opening quote) into out; non-strings are
 * stored as their raw text (numbers, null -> ""). */
static bool parse_string(struct cursor *c, struct strbuf *out)
{
    skip_ws(c);
    if (*c->p != '"') {
        const char *start = c->p;
        if (!skip_value(c))
            return false;
        if (!(c->p - start == 4 && strncmp(start, "null", 4) == 0))
            sb_putn(out, start, (size_t)(c->p - start));
        return true;
    }
    c->p++;
    while (*c->p && *c->p != '"') {
        if (*c->p != '\\') {
            sb_putc(out, *c->p++);
            continue;
        }
        c->p++;
        switch (*c->p) {
        case 'n':
            sb_putc(out, '\n');
            break;
        case 't':
            sb_putc(out, '\t');
            break;
        case 'r':
            sb_putc(out, '\r');
            break;
        case 'b':
            sb_putc(out, '\b');
            break;
        case 'f':
            sb_putc(out, '\f');
            break;
        case 'u': {
            unsigned v = 0;
            for (int k = 1; k <= 4; k++) {
                char h = c->p[k];
                if (!isxdigit((unsigned char)h))
                    return false;
                v = v * 16 +
                    (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower(h) - 'a' + 10));
            }
            c->p += 4;
            /* Arguments are ASCII in practice; others become '?'. */
            sb_putc(out, v && v < 0x80 ? (char)v : '?');
            break;
        }
        case '\0':
            return false;
        default:
            sb_putc(out, *c->p);
            break;
        }
        c->p++;
    }
    if (*c->p != '"')
        return false;
    c->p++;
    return true;
}

/* Strings of a JSON list into store (NUL-separated); offsets into off. */
static uint32_t parse_strings(const char *text, struct strbuf *store, size_t *off)
{
    if (!text)
        return 0;
    struct cursor c = {text};
    skip_ws(&c);
    if (*c.p != '[')
        return 0;
    c.p++;
    skip_ws(&c);
    if (*c.p == ']')
        return 0;
    uint32_t n = 0;
    for (;;) {
        size_t at = store->len;
        struct strbuf tmp = STRBUF_INIT;
        bool ok = parse_string(&c, n < SHAPES_MAX_ARGS ? store : &tmp);
        sb_free(&tmp);
        if (!ok)
            return n;
        if (n < SHAPES_MAX_ARGS) {
            sb_putc(store, '\0');
            off[n] = at;
        }
        n++;
        skip_ws(&c);
        if (*c.p != ',')
            break;
        c.p++;
    }
    return n < SHAPES_MAX_ARGS ? n : SHAPES_MAX_ARGS;
}

bool op_args_parse(struct op_args *a, const char *dims, const char *types, const char *strides,
                   const char *concrete)
{
    memset(a, 0, sizeof(*a));
    bool strides_list;
    uint32_t nd = parse_shapes(dims, a->dims, &a->has_dims);
    uint32_t ns = parse_shapes(strides, a->strides, &strides_list);
    struct strbuf store = STRBUF_INIT;
    size_t toff[SHAPES_MAX_ARGS], coff[SHAPES_MAX_ARGS];
    uint32_t nt = parse_strings(types, &store, toff);
    uint32_t nc = parse_strings(concrete, &store, coff);
    sb_putc(&store, '\0');
    a->store = sb_steal(&store);
    a->n = MAX(MAX(nd, ns), MAX(nt, nc));
    static const char empty[] = "";
    for (uint32_t i = 0; i < SHAPES_MAX_ARGS; i++) {
        a->type[i] = i < nt ? a->store + toff[i] : empty;
        a->concrete[i] = i < nc ? a->store + coff[i] : empty;
    }
    return a->has_dims;
}

void op_args_done(struct op_args *a)
{
    free(a->store);
    a->store = NULL;
    a->n = 0;
}

int64_t shape_numel(const struct shape *s)
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

void shapes_put_pystr(struct strbuf *out, const char *s)
{
    if (!s) {
        sb_puts(out, "None");
        return;
    }
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    sb_putc(out, q);
    for (const char *p = s; *p; p++) {
        if (*p == '\\' || *p == q)
            sb_putc(out, '\\');
        sb_putc(out, *p);
    }
    sb_putc(out, q);
}

void shapes_put_pystr_tuple(struct strbuf *out, const char *const *v, int n)
{
    sb_putc(out, '(');
    for (int i = 0; i < n; i++) {
        if (i)
            sb_puts(out, ", ");
        shapes_put_pystr(out, v[i]);
    }
    if (n == 1)
        sb_putc(out, ',');
    sb_putc(out, ')');
}
