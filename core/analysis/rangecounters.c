/* Hardware counters of CUPTI range-profiler traces (rangecounters.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/rangecounters.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/trace/argpack.h"

#define RANGE_CAT "cuda_profiler_range"
#define LAUNCH_PREFIX "cudaLaunchKernel"

bool rangecounters_is_range(const struct trace *t, uint32_t i)
{
    const struct event *e = trace_ev(t, i);
    return e->kind == EVK_DEVICE_OTHER && strcmp(trace_str(t, e->cat), RANGE_CAT) == 0;
}

size_t rangecounters_count(const struct trace *t)
{
    size_t n = 0;
    for (uint32_t i = 0; t->n_by_kind[EVK_DEVICE_OTHER] && i < t->ev.n; i++)
        n += rangecounters_is_range(t, i);
    return n;
}

/* Events in time order, ties in file order. */
static const struct trace *sort_trace;
static inline bool by_ts(const uint32_t *a, const uint32_t *b)
{
    return sort_trace->ev.v[*a].ts < sort_trace->ev.v[*b].ts;
}
SORT_DEFINE(ev_sort_ts, uint32_t, by_ts)

static void sort_by_ts(const struct trace *t, uint32_t *v, size_t n)
{
    sort_trace = t;
    ev_sort_ts(v, n);
    sort_trace = NULL;
}

/* A counter's value in one range: exact when it is an integer. */
struct cval {
    int64_t i;
    double d;
    uint8_t has; /* 0 none, 1 integer (i), 2 real (d) */
};

#define SASS_PRE "smsp__sass_thread_inst_executed_op_"
#define SASS_POST "_pred_on.sum"

/* The instruction of a SASS instruction counter
 * ("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": "ffma"), its
 * length in *n; NULL when key is no such counter. */
static const char *sass_op(const char *key, size_t *n)
{
    size_t len = strlen(key), pre = sizeof(SASS_PRE) - 1, post = sizeof(SASS_POST) - 1;
    if (len <= pre + post || strncmp(key, SASS_PRE, pre) != 0 ||
        strcmp(key + len - post, SASS_POST) != 0)
        return NULL;
    *n = len - pre - post;
    return key + pre;
}

/* FLOPs per SASS instruction counted, as HTA's
 * CUDA_SASS_INSTRUCTION_COUNTER_FLOPS weighs them: 2 for a fused
 * multiply-add, 1 otherwise (floating point: half, single, double). 0 when
 * `key` is no such counter. */
static int flop_weight(const char *key)
{
    static const char *const ops[] = {"ffma", "fmul", "fadd", "hfma", "hmul",
                                      "hadd", "dfma", "dmul", "dadd"};
    size_t n;
    const char *op = sass_op(key, &n);
    for (size_t k = 0; op && n == 4 && k < sizeof(ops) / sizeof(ops[0]); k++)
        if (strncmp(op, ops[k], 4) == 0)
            return strstr(ops[k], "fma") ? 2 : 1;
    return 0;
}

bool rangecounters_flops(const struct trace *t, uint32_t ev, double *flops)
{
    if (!rangecounters_is_range(t, ev))
        return false;
    struct argiter it;
    struct argval a;
    bool any = false;
    double d;
    *flops = 0;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a)) {
        int w = flop_weight(trace_str(t, a.key));
        if (w && argpack_val_number(t, &a, &d) && isfinite(d)) {
            *flops += w * d;
            any = true;
        }
    }
    return any;
}

/* One counter: its key and whether every value is an integer. */
struct counter {
    uint32_t key; /* strtab id */
    bool real;    /* some value is not an integer: a float column */
    int flops;    /* flop_weight */
};

struct ranges {
    uint32_t *ev; /* ranges, time order */
    size_t n;
    VEC(struct counter) ctr;
    struct cval *vals; /* n * ctr.n, row-major; grown as counters appear */
    bool any_flops;
    uint32_t *top, *bottom; /* per range: name ids of its outermost and innermost
                               cpu_op, IDX_NONE = none */
};

/* Read every range's numeric args into r->vals (counters in the order
 * they first appear). */
static void read_counters(const struct trace *t, struct ranges *r)
{
    struct hmap col = {0}; /* key id -> counter index */
    size_t cap = 0;
    for (size_t k = 0; k < r->n; k++) {
        struct argiter it;
        struct argval a;
        argpack_iter_init(&it, t, r->ev[k]);
        while (argpack_iter_next(&it, &a)) {
            struct cval v = {0};
            if (a.type == ARG_INT)
                v = (struct cval){.i = a.v.i, .has = 1};
            else if (a.type == ARG_DOUBLE && isfinite(a.v.d) && a.v.d == floor(a.v.d) &&
                     fabs(a.v.d) < 9.2e18)
                v = (struct cval){.i = (int64_t)a.v.d, .has = 1};
            else if (a.type == ARG_UINT)
                v = (struct cval){.d = (double)a.v.u, .has = 2};
            else if (a.type == ARG_DOUBLE && isfinite(a.v.d))
                v = (struct cval){.d = a.v.d, .has = 2};
            else
                continue; /* text, null, lists: not a counter */
            uint32_t c = hmap_get(&col, a.key);
            if (c == IDX_NONE) {
                c = (uint32_t)r->ctr.n;
                hmap_put(&col, a.key, c);
                const char *name = trace_str(t, a.key);
                *VEC_ADD(&r->ctr) = (struct counter){a.key, false, flop_weight(name)};
                r->any_flops |= r->ctr.v[c].flops != 0;
                if (r->ctr.n > cap) {
                    /* Widen every row: a counter first seen late is empty before. */
                    size_t ncap = cap ? 2 * cap : 16;
                    struct cval *nv = xcalloc(r->n * ncap, sizeof(*nv));
                    for (size_t row = 0; row < r->n && cap; row++)
                        memcpy(nv + row * ncap, r->vals + row * cap, cap * sizeof(*nv));
                    free(r->vals);
                    r->vals = nv;
                    cap = ncap;
                }
            }
            if (v.has == 2)
                r->ctr.v[c].real = true;
            r->vals[k * cap + c] = v;
        }
    }
    hmap_free(&col);
    /* Pack the rows to ctr.n counters each. */
    if (cap && cap != r->ctr.n)
        for (size_t row = 0; row < r->n; row++)
            memmove(r->vals + row * r->ctr.n, r->vals + row * cap, r->ctr.n * sizeof(*r->vals));
}

/* The cudaLaunchKernel* runtime calls, in time order. */
static uint32_t *kernel_launches(const struct trace *t, size_t *n)
{
    VEC(uint32_t) v = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = trace_ev(t, i);
        if (e->kind == EVK_RUNTIME &&
            strncmp(trace_str(t, e->name), LAUNCH_PREFIX, sizeof(LAUNCH_PREFIX) - 1) == 0)
            VEC_PUSH(&v, i);
    }
    sort_by_ts(t, v.v, v.n);
    *n = v.n;
    return v.v;
}

typedef VEC(uint32_t) idx_vec_t;

/* The cpu_op spans around event i, outermost first, into st. */
static void op_stack(const struct trace *t, uint32_t i, idx_vec_t *st)
{
    st->n = 0;
    for (uint32_t p = trace_ev(t, i)->parent; p != IDX_NONE; p = trace_ev(t, p)->parent)
        if (trace_ev(t, p)->kind == EVK_CPU_OP)
            VEC_PUSH(st, p);
    for (size_t a = 0, b = st->n; a + 1 < b; a++, b--) {
        uint32_t x = st->v[a];
        st->v[a] = st->v[b - 1];
        st->v[b - 1] = x;
    }
}

/* Columns of the per-range table before and after the counters. */
enum { R_NAME, R_TS, R_DUR, R__LEAD };
enum { R_FLOPS, R_TOP, R_BOTTOM, R_STACK, R__TAIL };

/* Column col of tab is counter c: named with its key, titled with the
 * instruction alone for a SASS instruction counter ("sass ffma"). */
static void set_counter_col(struct table *tab, size_t col, const struct trace *t,
                            const struct counter *c)
{
    const char *name = trace_str(t, c->key);
    struct table_col *tc = &tab->cols[col];
    *tc = (struct table_col){arena_strndup(&tab->arena, name, strlen(name)), NULL,
                             c->real ? COL_FLOAT : COL_INT, c->real ? 3 : 0, 0};
    size_t n;
    const char *op = sass_op(name, &n);
    if (op) {
        char title[64];
        snprintf(title, sizeof(title), "sass %.*s", (int)(n < 50 ? n : 50), op);
        tc->title = arena_strndup(&tab->arena, title, strlen(title));
    } else {
        tc->title = tc->name;
    }
}

static struct table *range_table(const struct trace *t, struct ranges *r, const uint32_t *launch,
                                 size_t *ncols_out)
{
    size_t nc = r->ctr.n, ncols = R__LEAD + nc + R__TAIL;
    struct table_col *cols = xcalloc(ncols, sizeof(*cols));
    cols[R_NAME] = (struct table_col){"name", "kernel", COL_TEXT, 0,
                                      COLF_WIDE | COLF_ASC | COLF_NAME | COLF_KEY};
    cols[R_TS] = (struct table_col){"ts", "ts µs", COL_FLOAT, 3, COLF_ASC | COLF_DETAIL};
    cols[R_DUR] = (struct table_col){"dur", "dur µs", COL_FLOAT, 3, 0};
    size_t tail = R__LEAD + nc;
    cols[tail + R_FLOPS] = (struct table_col){"flops", "FLOPs", COL_FLOAT, 0, COLF_KEY};
    cols[tail + R_TOP] =
        (struct table_col){"top_level_op", "top op", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_KEY};
    cols[tail + R_BOTTOM] = (struct table_col){"bottom_level_op", "bottom op", COL_TEXT, 0,
                                               COLF_WIDE | COLF_ASC | COLF_KEY};
    cols[tail + R_STACK] =
        (struct table_col){"op_stack", "op stack", COL_TEXT, 0, COLF_WIDE | COLF_DETAIL};
    struct table *tab = table_new("cupti_counters",
                                  "CUPTI range-profiler counters per kernel, with the operators "
                                  "that launched it",
                                  cols, ncols);
    free(cols);
    for (size_t c = 0; c < nc; c++)
        set_counter_col(tab, R__LEAD + c, t, &r->ctr.v[c]);

    idx_vec_t st = {0};
    struct strbuf sb = STRBUF_INIT;
    table_reserve(tab, r->n);
    for (size_t k = 0; k < r->n; k++) {
        uint32_t i = r->ev[k];
        const struct event *e = trace_ev(t, i);
        size_t row = table_add_row(tab);
        table_set_ref(tab, row, i);
        table_set_text(tab, row, R_NAME, trace_str(t, e->name));
        table_set_float(tab, row, R_TS, (double)(t->base_ns + e->ts) / 1e3);
        table_set_float(tab, row, R_DUR, (double)e->dur / 1e3);
        double flops = 0;
        bool has_flops = false;
        for (size_t c = 0; c < nc; c++) {
            const struct cval *v = &r->vals[k * nc + c];
            const struct counter *ctr = &r->ctr.v[c];
            if (!v->has)
                continue;
            double d = v->has == 1 ? (double)v->i : v->d;
            if (ctr->real)
                table_set_float(tab, row, R__LEAD + c, d);
            else
                table_set_int(tab, row, R__LEAD + c, v->i);
            if (ctr->flops) {
                flops += ctr->flops * d;
                has_flops = true;
            }
        }
        if (has_flops)
            table_set_float(tab, row, tail + R_FLOPS, flops);
        r->top[k] = r->bottom[k] = IDX_NONE;
        if (!launch)
            continue;
        op_stack(t, launch[k], &st);
        if (!st.n)
            continue;
        r->top[k] = trace_ev(t, st.v[0])->name;
        r->bottom[k] = trace_ev(t, st.v[st.n - 1])->name;
        table_set_text(tab, row, tail + R_TOP, ev_name(t, st.v[0]));
        table_set_text(tab, row, tail + R_BOTTOM, ev_name(t, st.v[st.n - 1]));
        sb_clear(&sb);
        for (size_t s = 0; s < st.n; s++)
            sb_printf(&sb, "%s%s", s ? " > " : "", ev_name(t, st.v[s]));
        table_set_text(tab, row, tail + R_STACK, sb_str(&sb));
    }
    sb_free(&sb);
    VEC_FREE(&st);
    if (!r->any_flops) /* no SASS instruction counter: no FLOPs to show */
        tab->cols[tail + R_FLOPS].flags |= COLF_DETAIL;
    *ncols_out = ncols;
    return tab;
}

/* Counters of the per-range table rt summed per operator: names[k] is the
 * name id of range k's operator (IDX_NONE: none). */
static struct table *by_op_table(const struct trace *t, const struct table *rt,
                                 const uint32_t *names, const char *name, const char *title,
                                 const char *what)
{
    size_t nc = rt->ncols - R__LEAD - R__TAIL, tail = R__LEAD + nc;
    enum { O_OP, O_COUNT, O_DUR, O__LEAD };
    size_t ncols = O__LEAD + nc + 1;
    struct table_col *cols = xcalloc(ncols, sizeof(*cols));
    cols[O_OP] =
        (struct table_col){"op", what, COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME | COLF_KEY};
    cols[O_COUNT] = (struct table_col){"ranges", "kernels", COL_INT, 0, COLF_KEY};
    cols[O_DUR] = (struct table_col){"dur_sum", "dur µs", COL_FLOAT, 3, 0};
    for (size_t c = 0; c < nc; c++)
        cols[O__LEAD + c] = rt->cols[R__LEAD + c];
    cols[O__LEAD + nc] = rt->cols[tail + R_FLOPS];
    struct table *tab = table_new(name, title, cols, ncols);
    free(cols);
    for (size_t c = 0; c < nc; c++) {
        const struct table_col *src = &rt->cols[R__LEAD + c];
        tab->cols[O__LEAD + c].name = arena_strndup(&tab->arena, src->name, strlen(src->name));
        tab->cols[O__LEAD + c].title = arena_strndup(&tab->arena, src->title, strlen(src->title));
    }

    struct hmap row_of_name = {0}; /* name id (UINT64_MAX: none) -> row */
    uint32_t *row_of = xmalloc((rt->nrows + 1) * sizeof(*row_of));
    for (size_t r = 0; r < rt->nrows; r++) {
        uint64_t key = names[r] == IDX_NONE ? UINT64_MAX : names[r];
        uint32_t o = hmap_get(&row_of_name, key);
        if (o == IDX_NONE) {
            o = (uint32_t)table_add_row(tab);
            hmap_put(&row_of_name, key, o);
            table_set_text(tab, o, O_OP, names[r] == IDX_NONE ? NULL : trace_str(t, names[r]));
            table_set_int(tab, o, O_COUNT, 0);
            table_set_float(tab, o, O_DUR, 0);
        }
        row_of[r] = o;
        union cell *dst = &tab->cells[(size_t)o * ncols];
        dst[O_COUNT].i++;
        dst[O_DUR].f += table_cell(rt, r, R_DUR).f;
        for (size_t c = 0; c <= nc; c++) {
            size_t src = c < nc ? R__LEAD + c : tail + R_FLOPS, d = O__LEAD + c;
            union cell v = table_cell(rt, r, src);
            if (rt->cols[src].kind == COL_INT) {
                if (v.i != TABLE_NO_INT)
                    dst[d].i = dst[d].i == TABLE_NO_INT ? v.i : dst[d].i + v.i;
            } else if (!isnan(v.f)) {
                dst[d].f = isnan(dst[d].f) ? v.f : dst[d].f + v.f;
            }
        }
    }
    hmap_free(&row_of_name);
    /* Each op row's ranges, for the explorer. */
    uint32_t *ifirst = xcalloc(tab->nrows + 1, sizeof(*ifirst));
    for (size_t r = 0; r < rt->nrows; r++)
        ifirst[row_of[r] + 1]++;
    for (size_t o = 0; o < tab->nrows; o++)
        ifirst[o + 1] += ifirst[o];
    uint32_t *iv = xmalloc((rt->nrows + 1) * sizeof(*iv));
    uint32_t *fill = xmalloc((tab->nrows + 1) * sizeof(*fill));
    memcpy(fill, ifirst, (tab->nrows + 1) * sizeof(*fill));
    for (size_t r = 0; r < rt->nrows; r++)
        iv[fill[row_of[r]]++] = table_ref(rt, r);
    free(fill);
    free(row_of);
    table_set_instances(tab, ifirst, iv);
    /* Ranked by FLOPs where the counters give them, else by kernels. */
    bool flops = (rt->cols[tail + R_FLOPS].flags & COLF_DETAIL) == 0;
    table_sort(tab, flops ? O__LEAD + nc : O_COUNT, true);
    return tab;
}

bool rangecounters_tables(const struct trace *t, struct table_list *out, char *err)
{
    struct ranges r = {0};
    VEC(uint32_t) v = {0};
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (rangecounters_is_range(t, i))
            VEC_PUSH(&v, i);
    if (!v.n) {
        snprintf(err, 256,
                 "no cuda_profiler_range events: the trace was not recorded in CUPTI "
                 "range-profiler mode");
        return false;
    }
    sort_by_ts(t, v.v, v.n);
    r.ev = v.v;
    r.n = v.n;
    read_counters(t, &r);

    size_t nl = 0;
    uint32_t *launch = kernel_launches(t, &nl);
    r.top = xmalloc(r.n * sizeof(*r.top));
    r.bottom = xmalloc(r.n * sizeof(*r.bottom));
    size_t ncols;
    struct table *rt = range_table(t, &r, nl == r.n ? launch : NULL, &ncols);
    if (nl != r.n)
        table_add_note(rt,
                       "%zu ranges but %zu cudaLaunchKernel calls: ranges pair with launches by "
                       "their order only when the counts agree, so no operator is given",
                       r.n, nl);
    table_list_add(out, rt);
    table_list_add(out, by_op_table(t, rt, r.bottom, "cupti_counters_by_op",
                                    "CUPTI range-profiler counters summed per bottom-level op "
                                    "(the op that launched the kernel)",
                                    "bottom op"));
    table_list_add(out,
                   by_op_table(t, rt, r.top, "cupti_counters_by_top_op",
                               "CUPTI range-profiler counters summed per top-level op", "top op"));
    free(launch);
    free(r.top);
    free(r.bottom);
    free(r.vals);
    VEC_FREE(&r.ctr);
    VEC_FREE(&v);
    return true;
}
