/* Tables: construction, cells, sorting. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/table.h"

static void table_fill_cumulative(struct table *t);

struct table *table_new(const char *name, const char *title, const struct table_col *cols,
                        size_t ncols)
{
    struct table *t = xcalloc(1, sizeof(*t));
    t->name = xstrdup(name);
    t->title = xstrdup(title ? title : name);
    t->cols = xmalloc(ncols * sizeof(*cols));
    memcpy(t->cols, cols, ncols * sizeof(*cols));
    t->ncols = ncols;
    t->sorted_col = -1;
    arena_init(&t->arena, 16 * 1024);
    return t;
}

void table_free(struct table *t)
{
    if (!t)
        return;
    free(t->name);
    free(t->title);
    free(t->cols);
    free(t->cells);
    free(t->refs);
    for (size_t i = 0; i < t->notes.n; i++)
        free(t->notes.v[i]);
    VEC_FREE(&t->notes);
    VEC_FREE(&t->cumul);
    free(t->inst_first);
    free(t->inst);
    arena_free(&t->arena);
    free(t);
}

void table_reserve(struct table *t, size_t nrows)
{
    if (nrows <= t->cap)
        return;
    t->cap = nrows;
    t->cells = xreallocarray(t->cells, t->cap * t->ncols, sizeof(*t->cells));
    t->refs = xreallocarray(t->refs, t->cap, sizeof(*t->refs));
}

size_t table_add_row(struct table *t)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 32;
        t->cells = xreallocarray(t->cells, t->cap * t->ncols, sizeof(*t->cells));
        t->refs = xreallocarray(t->refs, t->cap, sizeof(*t->refs));
    }
    size_t row = t->nrows++;
    for (size_t c = 0; c < t->ncols; c++) {
        union cell *cell = &t->cells[row * t->ncols + c];
        switch (t->cols[c].kind) {
        case COL_TEXT:
            cell->s = NULL;
            break;
        case COL_INT:
            cell->i = TABLE_NO_INT;
            break;
        default:
            cell->f = NAN;
            break;
        }
    }
    t->refs[row] = UINT32_MAX;
    return row;
}

void table_set_int(struct table *t, size_t row, size_t col, int64_t v)
{
    t->cells[row * t->ncols + col].i = v;
}

void table_set_float(struct table *t, size_t row, size_t col, double v)
{
    t->cells[row * t->ncols + col].f = v;
}

static void table_set_textn(struct table *t, size_t row, size_t col, const char *s, size_t n)
{
    t->cells[row * t->ncols + col].s = s ? arena_strndup(&t->arena, s, n) : NULL;
}

void table_set_text(struct table *t, size_t row, size_t col, const char *s)
{
    table_set_textn(t, row, col, s, s ? strlen(s) : 0);
}

const char *table_copy_text(struct table *t, const char *s, size_t n)
{
    return arena_strndup(&t->arena, s, n);
}

void table_set_copied_text(struct table *t, size_t row, size_t col, const char *copy)
{
    t->cells[row * t->ncols + col].s = copy;
}

void table_set_ref(struct table *t, size_t row, uint32_t ref)
{
    t->refs[row] = ref;
}

void table_add_note(struct table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = xstrdup("");
    va_end(ap);
    VEC_PUSH(&t->notes, s);
}

int table_col_index(const struct table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return (int)c;
    return -1;
}

size_t table_name_col(const struct table *t)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (t->cols[c].flags & COLF_NAME)
            return c;
    for (size_t c = 0; c < t->ncols; c++)
        if (t->cols[c].kind == COL_TEXT && (t->cols[c].flags & COLF_WIDE))
            return c;
    for (size_t c = 0; c < t->ncols; c++)
        if (t->cols[c].kind == COL_TEXT)
            return c;
    return 0;
}

static bool cell_empty(const struct table *t, size_t col, union cell v)
{
    switch (t->cols[col].kind) {
    case COL_TEXT:
        return v.s == NULL;
    case COL_INT:
        return v.i == TABLE_NO_INT;
    default:
        return isnan(v.f);
    }
}

int table_compare_rows(const struct table *t, size_t col, size_t a, size_t b)
{
    union cell x = table_cell(t, a, col), y = table_cell(t, b, col);
    bool ex = cell_empty(t, col, x), ey = cell_empty(t, col, y);
    if (ex || ey)
        return ex == ey ? 0 : ex ? 1 : -1;
    switch (t->cols[col].kind) {
    case COL_TEXT:
        return strcmp(x.s, y.s);
    case COL_INT:
        if (t->cols[col].flags & COLF_MAGNITUDE) {
            uint64_t ax = x.i < 0 ? -(uint64_t)x.i : (uint64_t)x.i;
            uint64_t ay = y.i < 0 ? -(uint64_t)y.i : (uint64_t)y.i;
            return ax < ay ? -1 : ax > ay;
        }
        return x.i < y.i ? -1 : x.i > y.i;
    default:
        if (t->cols[col].flags & COLF_MAGNITUDE)
            return fabs(x.f) < fabs(y.f) ? -1 : fabs(x.f) > fabs(y.f);
        return x.f < y.f ? -1 : x.f > y.f;
    }
}

struct sort_ctx {
    const struct table *t;
    const struct table_sort_key *keys;
    size_t nkeys;
};

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
    const struct sort_ctx *c = arg;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    for (size_t k = 0; k < c->nkeys; k++) {
        size_t col = c->keys[k].col;
        if (col >= c->t->ncols)
            continue;
        union cell x = table_cell(c->t, a, col), y = table_cell(c->t, b, col);
        bool ex = cell_empty(c->t, col, x), ey = cell_empty(c->t, col, y);
        int r;
        if (ex || ey)
            r = ex == ey ? 0 : ex ? 1 : -1; /* empty last in both directions */
        else
            r = table_compare_rows(c->t, col, a, b);
        if (r)
            return c->keys[k].descending && !(ex || ey) ? -r : r;
    }
    return a < b ? -1 : a > b; /* stable */
}

void table_sort(struct table *t, size_t col, bool descending)
{
    struct table_sort_key key = {col, descending};
    table_sort_keys(t, &key, 1);
}

void table_sort_keys(struct table *t, const struct table_sort_key *keys, size_t nkeys)
{
    for (size_t k = 0; k < nkeys; k++)
        if (keys[k].col < t->ncols) {
            t->sorted_col = (int)keys[k].col;
            t->sorted_desc = keys[k].descending;
            break;
        }
    if (t->nrows < 2)
        return;
    size_t *perm = xmalloc(t->nrows * sizeof(*perm));
    for (size_t i = 0; i < t->nrows; i++)
        perm[i] = i;
    struct sort_ctx ctx = {t, keys, nkeys};
    qsort_r(perm, t->nrows, sizeof(*perm), cmp_rows, &ctx);

    union cell *cells = xmalloc(t->nrows * t->ncols * sizeof(*cells));
    uint32_t *refs = xmalloc(t->nrows * sizeof(*refs));
    for (size_t i = 0; i < t->nrows; i++) {
        memcpy(cells + i * t->ncols, t->cells + perm[i] * t->ncols, t->ncols * sizeof(*cells));
        refs[i] = t->refs[perm[i]];
    }
    free(t->cells);
    free(t->refs);
    t->cells = cells;
    t->refs = refs;
    t->cap = t->nrows;
    if (t->inst_first) {
        uint32_t *first = xmalloc((t->nrows + 1) * sizeof(*first));
        uint32_t *inst = xmalloc((t->inst_first[t->nrows] + 1) * sizeof(*inst));
        uint32_t k = 0;
        for (size_t i = 0; i < t->nrows; i++) {
            first[i] = k;
            for (uint32_t j = t->inst_first[perm[i]]; j < t->inst_first[perm[i] + 1]; j++)
                inst[k++] = t->inst[j];
        }
        first[t->nrows] = k;
        free(t->inst_first);
        free(t->inst);
        t->inst_first = first;
        t->inst = inst;
    }
    free(perm);
    table_fill_cumulative(t);
}

void table_set_cumulative(struct table *t, size_t col, size_t of)
{
    if (col >= t->ncols || of >= t->ncols || t->cols[col].kind == COL_TEXT ||
        t->cols[of].kind == COL_TEXT)
        return;
    t->cols[col].flags |= COLF_CUMUL;
    VEC_PUSH(&t->cumul, ((struct table_cumul){(uint32_t)col, (uint32_t)of}));
    table_fill_cumulative(t);
}

/* Recompute every cumulative column in the current row order; empty
 * cells of the summed column add nothing. */
static void table_fill_cumulative(struct table *t)
{
    for (size_t k = 0; k < t->cumul.n; k++) {
        size_t col = t->cumul.v[k].col, of = t->cumul.v[k].of;
        double run = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            union cell v = table_cell(t, r, of);
            if (!cell_empty(t, of, v))
                run += t->cols[of].kind == COL_INT ? (double)v.i : v.f;
            if (t->cols[col].kind == COL_INT)
                table_set_int(t, r, col, (int64_t)run);
            else
                table_set_float(t, r, col, run);
        }
    }
}

void table_set_instances(struct table *t, uint32_t *first, uint32_t *inst)
{
    free(t->inst_first);
    free(t->inst);
    t->inst_first = first;
    t->inst = inst;
}

struct table *table_with_col(const struct table *t, size_t at, const struct table_col *col)
{
    size_t nc = t->ncols + 1;
    struct table_col *cols = xmalloc(nc * sizeof(*cols));
    for (size_t c = 0, k = 0; c < nc; c++)
        cols[c] = c == at ? *col : t->cols[k++];
    struct table *o = table_new(t->name, t->title, cols, nc);
    free(cols);
    table_reserve(o, t->nrows);
    for (size_t r = 0; r < t->nrows; r++) {
        table_add_row(o);
        for (size_t c = 0; c < t->ncols; c++) {
            size_t oc = c < at ? c : c + 1;
            o->cells[r * nc + oc] = table_cell(t, r, c);
        }
        o->refs[r] = t->refs[r];
    }
    for (size_t i = 0; i < t->notes.n; i++)
        VEC_PUSH(&o->notes, xstrdup(t->notes.v[i]));
    for (size_t i = 0; i < t->cumul.n; i++) {
        struct table_cumul cu = t->cumul.v[i];
        cu.col += cu.col >= at;
        cu.of += cu.of >= at;
        VEC_PUSH(&o->cumul, cu);
    }
    o->sorted_col = t->sorted_col < 0 ? -1 : t->sorted_col + ((size_t)t->sorted_col >= at);
    o->sorted_desc = t->sorted_desc;
    o->whole = t->whole;
    o->top_default = t->top_default;
    o->rows_left_out = t->rows_left_out;
    if (t->inst_first) {
        size_t ni = t->inst_first[t->nrows];
        o->inst_first = xmalloc((t->nrows + 1) * sizeof(uint32_t));
        memcpy(o->inst_first, t->inst_first, (t->nrows + 1) * sizeof(uint32_t));
        o->inst = xmalloc((ni + 1) * sizeof(uint32_t));
        memcpy(o->inst, t->inst, ni * sizeof(uint32_t));
    }
    return o;
}

void table_list_add(struct table_list *l, struct table *t)
{
    VEC_PUSH(&l->items, t);
}

void table_list_free(struct table_list *l)
{
    for (size_t i = 0; i < l->items.n; i++)
        table_free(l->items.v[i]);
    VEC_FREE(&l->items);
}
