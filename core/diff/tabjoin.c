/* Joining a report table of each side on op and shapes (tabjoin.h). */
#include "config.h"

#include "core/base/sort.h"
#include "core/diff/tabjoin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "core/base/strtab.h"
#include "core/base/xalloc.h"

/* The columns a kind joins on and reads. */
struct spec {
    const char *count; /* events */
    const char *time;  /* summed GPU time, µs */
    const char *gflop; /* GFLOP per event (roofline), or NULL */
};

static const struct spec specs[] = {
    [TABJOIN_UNIQUE_ARGS] = {"operation_count", "total_direct_kernel_time_sum", NULL},
    [TABJOIN_ROOFLINE] = {"name_count", "Kernel Time (\xc2\xb5s)_sum", "GFLOPS_first"},
};

static bool is_key(enum tabjoin_kind kind, const char *col)
{
    if (strcmp(col, "name") == 0)
        return true;
    /* Strides and the transpose flags describe layouts, which differ
     * between libraries for the same product; they are not the shape. */
    if (kind == TABJOIN_ROOFLINE)
        return strncmp(col, "param: ", 7) == 0 && !strstr(col, "stride") &&
               !strstr(col, "transpose");
    return strcmp(col, "Input Dims") == 0 || strcmp(col, "Input type") == 0 ||
           strcmp(col, "Input Strides") == 0 || strcmp(col, "Concrete Inputs") == 0;
}

/* A cell as exact text (keys compare equal only when the values are). */
static void cell_key(struct strbuf *out, const struct table *t, size_t r, size_t c)
{
    union cell v = table_cell(t, r, c);
    switch (t->cols[c].kind) {
    case COL_TEXT:
        if (v.s)
            sb_puts(out, v.s);
        break;
    case COL_INT:
        if (v.i != TABLE_NO_INT)
            sb_printf(out, "%lld", (long long)v.i);
        break;
    default:
        if (!isnan(v.f))
            sb_printf(out, "%.17g", v.f);
        break;
    }
}

static double num(const struct table *t, size_t r, int c)
{
    if (c < 0)
        return NAN;
    union cell v = table_cell(t, r, (size_t)c);
    if (t->cols[c].kind == COL_INT)
        return v.i == TABLE_NO_INT ? NAN : (double)v.i;
    return t->cols[c].kind == COL_TEXT ? NAN : v.f;
}

/* One joined row. */
struct group {
    uint32_t src_side; /* where the key cells are read from */
    uint32_t src_row;
    double count[2], time[2], gflop[2]; /* gflop: total over the events */
    bool in[2];
};

static const struct group *sort_groups; /* qsort has no context argument */

/* Largest |Δ time| first; ties in order of first appearance. */
static int cmp_groups(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    double da = fabs(sort_groups[a].time[1] - sort_groups[a].time[0]);
    double db = fabs(sort_groups[b].time[1] - sort_groups[b].time[0]);
    if (da != db)
        return da > db ? -1 : 1;
    return a < b ? -1 : a > b;
}

struct table *tabjoin_tables(enum tabjoin_kind kind, const struct table *c, const struct table *t,
                             const char *const labels[2])
{
    const struct table *side[2] = {c, t};
    const struct table *shape = c ? c : t;
    const struct spec *sp = &specs[kind];
    /* Key columns: those of the control's sheet (the test's when it has
     * none), found by name in the other. */
    VEC(size_t) keys = {0};
    for (size_t k = 0; shape && k < shape->ncols; k++)
        if (is_key(kind, shape->cols[k].name))
            VEC_PUSH(&keys, k);
    int kcol[2][64];
    size_t nk = keys.n < 64 ? keys.n : 64;
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < nk; k++)
            kcol[s][k] = side[s] ? table_col_index(side[s], shape->cols[keys.v[k]].name) : -1;

    struct strtab ids;
    strtab_init(&ids);
    VEC(struct group) groups = {0};
    struct strbuf sb = STRBUF_INIT;
    for (int s = 0; s < 2; s++) {
        const struct table *x = side[s];
        if (!x)
            continue;
        int cc = table_col_index(x, sp->count), tc = table_col_index(x, sp->time);
        int gc = sp->gflop ? table_col_index(x, sp->gflop) : -1;
        if (cc < 0 || tc < 0)
            continue; /* a sheet that is a message (a trace without shapes) */
        for (size_t r = 0; r < x->nrows; r++) {
            sb_clear(&sb);
            for (size_t k = 0; k < nk; k++) {
                if (kcol[s][k] >= 0)
                    cell_key(&sb, x, r, (size_t)kcol[s][k]);
                sb_putc(&sb, '\x1f');
            }
            uint32_t id = strtab_intern(&ids, sb_str(&sb), sb.len);
            while (groups.n <= id) {
                struct group g = {(uint32_t)s, (uint32_t)r, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
                VEC_PUSH(&groups, g);
            }
            struct group *g = &groups.v[id];
            if (!g->in[0] && !g->in[1]) {
                g->src_side = (uint32_t)s;
                g->src_row = (uint32_t)r;
            }
            double n = num(x, r, cc), tm = num(x, r, tc), gf = num(x, r, gc);
            g->in[s] = true;
            g->count[s] += isnan(n) ? 0 : n;
            g->time[s] += isnan(tm) ? 0 : tm;
            g->gflop[s] += isnan(gf) || isnan(n) ? 0 : gf * n;
        }
    }
    sb_free(&sb);

    /* Columns: the keys, then the numbers. */
    bool rate = sp->gflop != NULL;
    static const char *const suffix[] = {"count", "time", "mean", "tflops_per_s"};
    size_t nnum = rate ? 4 : 3;
    size_t ncols = nk + 1 + 2 * nnum + 2 + (rate ? 1 : 0);
    struct table_col *cols = xcalloc(ncols, sizeof(*cols));
    for (size_t k = 0; k < nk; k++) {
        cols[k] = shape->cols[keys.v[k]];
        cols[k].flags &= (uint8_t)~COLF_CUMUL;
    }
    size_t ci = nk;
    cols[ci++] = (struct table_col){"in", NULL, COL_TEXT, 0, COLF_ASC};
    size_t first_num = ci;
    for (size_t q = 0; q < nnum; q++)
        for (int s = 0; s < 2; s++)
            cols[ci++] = (struct table_col){suffix[q], NULL, q == 0 ? COL_FLOAT : COL_FLOAT,
                                            q == 0 ? 0 : 3, 0};
    size_t diff_count = ci, diff_time = ci + 1;
    cols[ci++] = (struct table_col){"diff_count", NULL, COL_FLOAT, 0, 0};
    cols[ci++] = (struct table_col){"diff_time", NULL, COL_FLOAT, 3, 0};
    size_t diff_rate = ci;
    if (rate)
        cols[ci++] = (struct table_col){"diff_tflops_per_s", NULL, COL_FLOAT, 3, 0};
    char name[128], title[256];
    snprintf(name, sizeof(name), "diff_%s", shape ? shape->name : "empty");
    snprintf(title, sizeof(title),
             "%s, control and test joined on op and shapes: count, GPU time "
             "(us) and test - control",
             shape ? shape->title : "");
    struct table *out = table_new(name, title, cols, ncols);
    free(cols);
    /* A side's sheet that holds a message instead of rows says it here. */
    for (int s = 0; s < 2; s++) {
        const struct table *x = side[s];
        if (x && (table_col_index(x, sp->count) < 0 || table_col_index(x, sp->time) < 0) &&
            x->nrows && x->cols[0].kind == COL_TEXT && table_cell(x, 0, 0).s)
            table_add_note(out, "%s: %s", labels[s], table_cell(x, 0, 0).s);
    }
    for (size_t q = 0; q < nnum; q++)
        for (int s = 0; s < 2; s++) {
            struct strbuf cn = STRBUF_INIT;
            sb_printf(&cn, "%s_%s", labels[s], suffix[q]);
            size_t k = first_num + 2 * q + (size_t)s;
            out->cols[k].name = arena_strndup(&out->arena, sb_str(&cn), cn.len);
            out->cols[k].title = out->cols[k].name;
            sb_free(&cn);
        }
    if (!shape) {
        strtab_free(&ids);
        VEC_FREE(&keys);
        VEC_FREE(&groups);
        return out;
    }

    size_t ng = groups.n;
    uint32_t *order = xmalloc((ng ? ng : 1) * sizeof(*order));
    size_t m = 0;
    for (uint32_t g = 0; g < ng; g++)
        if (groups.v[g].in[0] || groups.v[g].in[1])
            order[m++] = g;
    sort_groups = groups.v;
    sort_items(order, m, sizeof(*order), cmp_groups);
    sort_groups = NULL;
    for (size_t x = 0; x < m; x++) {
        const struct group *g = &groups.v[order[x]];
        size_t r = table_add_row(out);
        const struct table *src = side[g->src_side];
        for (size_t k = 0; k < nk; k++) {
            int sc = kcol[g->src_side][k];
            if (sc < 0)
                continue;
            union cell v = table_cell(src, g->src_row, (size_t)sc);
            if (src->cols[sc].kind == COL_TEXT)
                table_set_text(out, r, k, v.s);
            else if (src->cols[sc].kind == COL_INT)
                table_set_int(out, r, k, v.i);
            else
                table_set_float(out, r, k, v.f);
        }
        table_set_text(out, r, nk, g->in[0] && g->in[1] ? "both" : labels[g->in[0] ? 0 : 1]);
        double tf[2];
        for (int s = 0; s < 2; s++) {
            tf[s] = g->time[s] > 0 ? g->gflop[s] * 1e3 / g->time[s] : NAN;
            table_set_float(out, r, first_num + (size_t)s, g->count[s]);
            table_set_float(out, r, first_num + 2 + (size_t)s, g->time[s]);
            table_set_float(out, r, first_num + 4 + (size_t)s,
                            g->count[s] > 0 ? g->time[s] / g->count[s] : NAN);
            if (rate)
                table_set_float(out, r, first_num + 6 + (size_t)s, tf[s]);
        }
        table_set_float(out, r, diff_count, g->count[1] - g->count[0]);
        table_set_float(out, r, diff_time, g->time[1] - g->time[0]);
        if (rate)
            table_set_float(out, r, diff_rate, isnan(tf[0]) || isnan(tf[1]) ? NAN : tf[1] - tf[0]);
    }
    free(order);
    strtab_free(&ids);
    VEC_FREE(&keys);
    VEC_FREE(&groups);
    return out;
}
