/* Cross-rank tables: ranks, collectives (TraceLens's nccl_implicit_sync),
 * collectives-summary, stragglers (straggler_summary), ops across ranks. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "core/job/job_tables.h"
#include "core/report/invariants.h"

void job_view_init(struct job_view *v, const struct job *j)
{
    v->job = j;
    job_colls_build(j, &v->colls);
}

void job_view_done(struct job_view *v)
{
    job_colls_free(&v->colls);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Mean, sample standard deviation (pandas: NaN for one value), median,
 * min and max of x[0..n) (sorted in place). */
struct stats {
    double mean, std, median, min, max, sum;
};
static struct stats stats_of(double *x, size_t n)
{
    struct stats s = {NAN, NAN, NAN, NAN, NAN, 0};
    if (!n)
        return s;
    sort_items(x, n, sizeof(*x), cmp_double);
    for (size_t i = 0; i < n; i++)
        s.sum += x[i];
    s.mean = s.sum / n;
    if (n > 1) {
        double ss = 0;
        for (size_t i = 0; i < n; i++)
            ss += (x[i] - s.mean) * (x[i] - s.mean);
        s.std = sqrt(ss / (n - 1));
    }
    s.median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    s.min = x[0];
    s.max = x[n - 1];
    return s;
}

/* Columns whose names are built at run time live in the table's arena. */
static void name_col(struct table *t, size_t col, const char *name)
{
    t->cols[col].name = t->cols[col].title = arena_strndup(&t->arena, name, strlen(name));
}

static int rank_of(const struct job_view *v, size_t ix)
{
    return v->job->rank_of.v[ix];
}

size_t job_view_straggler(const struct job_view *v)
{
    const struct job_colls *c = &v->colls;
    if (!c->insts.n)
        return SIZE_MAX;
    uint32_t *present = xcalloc(v->job->ranks.n + 1, sizeof(uint32_t));
    for (size_t i = 0; i < c->parts.n; i++)
        present[c->parts.v[i].rank_ix]++;
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < v->job->ranks.n; i++) {
        if (!present[i])
            continue; /* waits nowhere because it is in no collective */
        if (best == SIZE_MAX || c->wait_total.v[i] < c->wait_total.v[best] ||
            (c->wait_total.v[i] == c->wait_total.v[best] && c->n_last.v[i] > c->n_last.v[best]))
            best = i;
    }
    free(present);
    return best;
}

/* ------------------------------------------------------------------------ */
/* ranks                                                                     */
/* ------------------------------------------------------------------------ */

/* A rank's bound from its critical path (empty when not known): the
 * largest bound_by and its share, then each one's share, from column c. */
static void bound_cells(struct table *t, size_t r, size_t c, const struct cp_bounds *b)
{
    enum cp_bound order[CPB__COUNT];
    if (!b->regions || !cp_bounds_order(b, order))
        return;
    char top[64];
    snprintf(top, sizeof(top), "%s %.0f %%", cp_bounds_short_name(order[0]),
             cp_bounds_share(b, order[0]));
    table_set_text(t, r, c, top);
    /* (a rank's trace names no data loading: it has no column) */
    for (int k = CPB_NONE + 1; k <= CPB_KERNEL_KERNEL; k++)
        table_set_float(t, r, c + (size_t)k, cp_bounds_share(b, (enum cp_bound)k));
}

struct table *job_tables_ranks(const struct job_view *v)
{
    static const struct table_col cols[] = {
        {"rank", NULL, COL_INT, 0, COLF_ASC},
        {"trace", NULL, COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        {"computation_ms", "comp ms", COL_FLOAT, 3, 0},
        {"exposed_comm_ms", "exp comm ms", COL_FLOAT, 3, 0},
        {"exposed_memcpy_ms", "exp memcpy ms", COL_FLOAT, 3, 0},
        {"idle_ms", "idle ms", COL_FLOAT, 3, 0},
        {"total_ms", "total ms", COL_FLOAT, 3, 0},
        {"steps", NULL, COL_INT, 0, 0},
        {"step_time_ms", "step ms", COL_FLOAT, 3, 0},
        {"collectives", "colls", COL_INT, 0, 0},
        {"collective_wait_ms", "wait ms", COL_FLOAT, 3, 0},
        {"wait_pct", "wait %", COL_PERCENT, 2, 0},
        {"bound", NULL, COL_TEXT, 0, COLF_ASC},
        {"cp_cpu_pct", "cp cpu %", COL_PERCENT, 1, 0},
        {"cp_gpu_compute_pct", "cp gpu %", COL_PERCENT, 1, 0},
        {"cp_gpu_comm_pct", "cp comm %", COL_PERCENT, 1, 0},
        {"cp_launch_pct", "cp launch %", COL_PERCENT, 1, 0},
        {"cp_kernel_gaps_pct", "cp gaps %", COL_PERCENT, 1, 0},
        {"mark", NULL, COL_TEXT, 0, COLF_ASC},
    };
    enum { C_BOUND = 12, C_MARK = 18 };
    const struct job *j = v->job;
    struct table *t = table_new("ranks", "Ranks side by side", cols, ARRAY_SIZE(cols));
    t->whole = true;
    /* The slowest rank by step time: by mean step time when every rank
     * has steps, else by the span of GPU activity. It is not the
     * straggler: the rank the others wait for finishes its steps when
     * they do, and a rank that waits most has the longest steps. */
    bool by_step = j->ranks.n > 0;
    for (size_t i = 0; i < j->ranks.n; i++)
        by_step &= j->ranks.v[i]->nsteps > 0;
    double *key = xcalloc(j->ranks.n + 1, sizeof(double));
    double *sorted = xcalloc(j->ranks.n + 1, sizeof(double));
    size_t slowest = 0;
    for (size_t i = 0; i < j->ranks.n; i++) {
        const struct ranksum *s = j->ranks.v[i];
        key[i] = by_step ? (double)s->steps_ns / s->nsteps : (double)s->tl.total;
        sorted[i] = key[i];
        if (key[i] > key[slowest])
            slowest = i;
        size_t r = table_add_row(t);
        table_set_int(t, r, 0, rank_of(v, i));
        table_set_text(t, r, 1, s->source);
        table_set_float(t, r, 2, s->tl.computation / 1e6);
        table_set_float(t, r, 3, s->tl.exposed_comm / 1e6);
        table_set_float(t, r, 4, s->tl.exposed_memcpy / 1e6);
        table_set_float(t, r, 5, s->tl.idle / 1e6);
        table_set_float(t, r, 6, s->tl.total / 1e6);
        table_set_int(t, r, 7, s->nsteps);
        if (s->nsteps)
            table_set_float(t, r, 8, (double)s->steps_ns / s->nsteps / 1e6);
        table_set_int(t, r, 9, (int64_t)s->colls.n);
        table_set_float(t, r, 10, v->colls.wait_total.v[i] / 1e6);
        if (s->tl.total > 0)
            table_set_float(t, r, 11, 100.0 * v->colls.wait_total.v[i] / s->tl.total);
        bound_cells(t, r, C_BOUND, &s->cp);
        table_set_ref(t, r, (uint32_t)i);
    }
    if (j->ranks.n) {
        struct stats st = stats_of(sorted, j->ranks.n);
        const char *by = by_step ? "mean step time" : "GPU span (total)";
        size_t sg = job_view_straggler(v);
        if (sg != SIZE_MAX) {
            table_set_text(t, sg, C_MARK, sg == slowest ? "straggler, slowest step" : "straggler");
            if (sg != slowest)
                table_set_text(t, slowest, C_MARK, "slowest step");
            table_add_note(t,
                           "straggler rank %d: waits least in collectives (%.3f ms), arrives "
                           "last in %u of %zu",
                           rank_of(v, sg), v->colls.wait_total.v[sg] / 1e6, v->colls.n_last.v[sg],
                           v->colls.insts.n);
            table_add_note(t, "slowest by %s: rank %d (spread max / median %.3f)", by,
                           rank_of(v, slowest), st.median > 0 ? st.max / st.median : NAN);
        } else {
            table_set_text(t, slowest, C_MARK, "slowest step");
            table_add_note(t,
                           "no collectives matched, so no straggler; slowest by %s: rank %d "
                           "(spread max / median %.3f)",
                           by, rank_of(v, slowest), st.median > 0 ? st.max / st.median : NAN);
        }
    }
    free(key);
    free(sorted);
    return t;
}

/* ------------------------------------------------------------------------ */
/* collectives                                                               */
/* ------------------------------------------------------------------------ */

/* The metadata of an instance: its first part's (TraceLens's reference). */
static const struct rank_coll *ref_coll(const struct job_view *v, const struct coll_inst *x,
                                        const struct ranksum **s)
{
    const struct coll_part *p = &v->colls.parts.v[x->first];
    *s = v->job->ranks.v[p->rank_ix];
    return &(*s)->colls.v[p->coll];
}

static const char *str_or_null(const struct ranksum *s, uint32_t id)
{
    return id ? strtab_str(&s->strs, id) : NULL;
}

/* Message sizes in MB (2^20 bytes) and bandwidths of an instance; NaN
 * where the metadata does not give them. */
struct sizes {
    double in_mb, out_mb, full_mb, algo_bw, bus_bw;
};
static struct sizes sizes_of(const struct coll_inst *x, const struct ranksum *s,
                             const struct rank_coll *c)
{
    struct sizes z = {NAN, NAN, NAN, NAN, NAN};
    int b = job_colls_dtype_bytes(str_or_null(s, c->dtype));
    if (!b || c->in_nelems < 0 || c->out_nelems < 0)
        return z;
    z.in_mb = (double)c->in_nelems * b / (1024.0 * 1024.0);
    z.out_mb = (double)c->out_nelems * b / (1024.0 * 1024.0);
    if (x->kind == COLL_UNKNOWN || x->kind == COLL_OTHER)
        return z;
    z.full_mb = x->kind == COLL_ALLGATHER ? z.out_mb : z.in_mb;
    double lat_us = x->comm_latency / 1e3;
    if (lat_us > 0)
        z.algo_bw = (z.full_mb / 1024.0) / (lat_us / 1e6);
    z.bus_bw = z.algo_bw * job_colls_bus_factor(x->kind, c->group_size);
    return z;
}

enum {
    CC_ID,
    CC_PG,
    CC_PGRANKS,
    CC_NAME,
    CC_GSIZE,
    CC_DTYPE,
    CC_IN,
    CC_OUT,
    CC_INMB,
    CC_OUTMB,
    CC_FULLMB,
    CC_LAT,
    CC_SKEWS,
    CC_EARLY,
    CC_AVGW,
    CC_SKEWE,
    CC_ALGO,
    CC_BUS,
    CC__COUNT
};

/* Whether the collectives table has its three columns per rank. They are
 * dense (instances x ranks cells) while instances are sparse (a part per
 * rank that ran the collective): with process groups that differ between
 * ranks the instances grow with the ranks, and the cells with their
 * square. The columns are kept while at most 4 of their cells go to each
 * part (most are filled), or while there are at most 2^16 of them (a
 * small job), so the table stays within a bound proportional to the
 * collectives read. */
static bool per_rank_columns(const struct job_view *v)
{
    uint64_t cells = (uint64_t)v->colls.insts.n * v->job->ranks.n;
    return cells <= 4 * (uint64_t)v->colls.parts.n || cells <= 1u << 16;
}

struct table *job_tables_collectives(const struct job_view *v)
{
    static const struct table_col base[CC__COUNT] = {
        {"collective_id", "id", COL_TEXT, 0, COLF_ASC | COLF_NAME},
        {"Process Group Name", "pg", COL_TEXT, 0, COLF_ASC},
        {"Process Group Ranks", "pg ranks", COL_TEXT, 0, COLF_ASC | COLF_DETAIL},
        {"Collective name", "collective", COL_TEXT, 0, COLF_ASC},
        {"Group size", "n", COL_INT, 0, 0},
        {"dtype", NULL, COL_TEXT, 0, COLF_ASC},
        {"In msg nelems", "in nelems", COL_INT, 0, COLF_DETAIL},
        {"Out msg nelems", "out nelems", COL_INT, 0, COLF_DETAIL},
        {"In msg size (MB)", "in MB", COL_FLOAT, 3, COLF_DETAIL},
        {"Out msg size (MB)", "out MB", COL_FLOAT, 3, COLF_DETAIL},
        {"Full msg size (MB)", "MB", COL_FLOAT, 3, 0},
        {"comm_latency", "latency us", COL_FLOAT, 3, 0},
        {"skew in start time", "start skew us", COL_FLOAT, 3, 0},
        {"earliest arrival rank", "first", COL_INT, 0, 0},
        {"avg_wait_time", "avg wait us", COL_FLOAT, 3, 0},
        {"skew in end time", "end skew us", COL_FLOAT, 3, 0},
        {"algo bw (GB/s)", "algo GB/s", COL_FLOAT, 2, 0},
        {"bus bw (GB/s)", "bus GB/s", COL_FLOAT, 2, 0},
    };
    const struct job *j = v->job;
    bool per_rank = per_rank_columns(v);
    size_t nr = j->ranks.n, ncols = CC__COUNT + (per_rank ? 3 * nr : 0);
    struct table_col *cols = xcalloc(ncols, sizeof(*cols));
    memcpy(cols, base, sizeof(base));
    for (size_t i = 0; per_rank && i < nr; i++)
        for (size_t k = 0; k < 3; k++)
            cols[CC__COUNT + 3 * i + k] = (struct table_col){"", NULL, COL_FLOAT, 3, COLF_DETAIL};
    struct table *t =
        table_new("collectives",
                  v->colls.by_seq ? "Collectives across ranks (matched by Comms Id and Seq)"
                  : v->colls.simplified
                      ? "Collectives across ranks (matched by order: no process group metadata)"
                      : "Collectives across ranks (matched by process group)",
                  cols, ncols);
    free(cols);
    char nm[64];
    static const char *const what[3] = {"ts", "dur", "wait_time"};
    for (size_t i = 0; per_rank && i < nr; i++)
        for (size_t k = 0; k < 3; k++) {
            snprintf(nm, sizeof(nm), "rank_%d_%s", rank_of(v, i), what[k]);
            name_col(t, CC__COUNT + 3 * i + k, nm);
        }
    size_t incomplete = 0;
    for (size_t n = 0; n < v->colls.insts.n; n++) {
        const struct coll_inst *x = &v->colls.insts.v[n];
        const struct ranksum *s;
        const struct rank_coll *c = ref_coll(v, x, &s);
        struct sizes z = sizes_of(x, s, c);
        size_t r = table_add_row(t);
        const char *cname = str_or_null(s, c->name);
        table_set_text(t, r, CC_ID, x->id);
        table_set_text(t, r, CC_PG, x->pg_name);
        table_set_text(t, r, CC_PGRANKS, str_or_null(s, c->pg_ranks));
        table_set_text(t, r, CC_NAME, cname ? cname : "Unknown");
        if (c->group_size >= 0)
            table_set_int(t, r, CC_GSIZE, c->group_size);
        table_set_text(t, r, CC_DTYPE, str_or_null(s, c->dtype));
        if (c->in_nelems >= 0)
            table_set_int(t, r, CC_IN, c->in_nelems);
        if (c->out_nelems >= 0)
            table_set_int(t, r, CC_OUT, c->out_nelems);
        table_set_float(t, r, CC_INMB, z.in_mb);
        table_set_float(t, r, CC_OUTMB, z.out_mb);
        table_set_float(t, r, CC_FULLMB, z.full_mb);
        table_set_float(t, r, CC_LAT, x->comm_latency / 1e3);
        table_set_float(t, r, CC_SKEWS, x->skew_start / 1e3);
        table_set_int(t, r, CC_EARLY, rank_of(v, x->earliest_rank_ix));
        table_set_float(t, r, CC_AVGW, x->avg_wait / 1e3);
        table_set_float(t, r, CC_SKEWE, x->skew_end / 1e3);
        table_set_float(t, r, CC_ALGO, z.algo_bw);
        table_set_float(t, r, CC_BUS, z.bus_bw);
        for (uint32_t k = 0; per_rank && k < x->count; k++) {
            const struct coll_part *p = &v->colls.parts.v[x->first + k];
            const struct rank_coll *rc = &j->ranks.v[p->rank_ix]->colls.v[p->coll];
            size_t col = CC__COUNT + 3 * p->rank_ix;
            table_set_float(t, r, col, rc->ts / 1e3);
            table_set_float(t, r, col + 1, rc->dur / 1e3);
            table_set_float(t, r, col + 2, (x->latest_start - rc->ts) / 1e3);
        }
        incomplete += x->count != nr;
        table_set_ref(t, r, (uint32_t)n);
    }
    if (incomplete)
        table_add_note(t,
                       "%zu of %zu collectives are missing on some ranks (their cells are "
                       "empty): the ranks ran different collectives or the traces cover "
                       "different windows",
                       incomplete, v->colls.insts.n);
    if (!per_rank)
        table_add_note(t,
                       "the per-rank columns (rank_N_ts, rank_N_dur, rank_N_wait_time) are "
                       "left out: %zu collectives on %zu ranks have %zu parts, so most of "
                       "their %zu cells would be empty",
                       v->colls.insts.n, nr, v->colls.parts.n, v->colls.insts.n * nr * 3);
    if (!v->colls.insts.n)
        table_add_note(t, "no collective kernels (NCCL/RCCL) in these traces");
    return t;
}

/* ------------------------------------------------------------------------ */
/* collectives-summary                                                       */
/* ------------------------------------------------------------------------ */

struct table *job_tables_coll_summary(const struct job_view *v)
{
    static const char *const measures[] = {"comm_latency", "skew in start time",
                                           "skew in end time"};
    static const char *const aggs[] = {"mean", "std", "median", "min", "max"};
    enum { NKEY = 6, NSTAT = 3 * 5 };
    struct table_col cols[NKEY + NSTAT + 4] = {
        {"Collective name", "collective", COL_TEXT, 0, COLF_ASC | COLF_NAME},
        {"dtype", NULL, COL_TEXT, 0, COLF_ASC},
        {"In msg nelems", "in nelems", COL_INT, 0, 0},
        {"Process Group Name", "pg", COL_TEXT, 0, COLF_ASC},
        {"Group size", "n", COL_INT, 0, 0},
        {"Full msg size (MB)", "MB", COL_FLOAT, 3, 0},
    };
    for (size_t k = 0; k < NSTAT; k++)
        cols[NKEY + k] =
            (struct table_col){"", NULL, COL_FLOAT, 3, k % 5 == 0 || k % 5 == 4 ? 0 : COLF_DETAIL};
    cols[NKEY + NSTAT] = (struct table_col){"algo bw (GB/s)_mean", "algo GB/s", COL_FLOAT, 2, 0};
    cols[NKEY + NSTAT + 1] = (struct table_col){"bus bw (GB/s)_mean", "bus GB/s", COL_FLOAT, 2, 0};
    cols[NKEY + NSTAT + 2] = (struct table_col){"count", NULL, COL_INT, 0, 0};
    cols[NKEY + NSTAT + 3] =
        (struct table_col){"Total comm latency (ms)", "total ms", COL_FLOAT, 3, 0};
    struct table *t = table_new("collectives_summary", "Collectives by name, dtype and size", cols,
                                ARRAY_SIZE(cols));
    char nm[64];
    for (size_t m = 0; m < 3; m++)
        for (size_t a = 0; a < 5; a++) {
            snprintf(nm, sizeof(nm), "%s_%s", measures[m], aggs[a]);
            name_col(t, NKEY + m * 5 + a, nm);
        }
    /* Groups: (name, dtype, in nelems) by text key, in order of first
     * appearance; each lists its instances. */
    size_t n = v->colls.insts.n;
    uint32_t *group = xcalloc(n + 1, sizeof(uint32_t));
    VEC(uint32_t) firsts = {0};
    struct strtab keys;
    strtab_init(&keys);
    struct hmap idx;
    hmap_init(&idx, 64);
    for (size_t i = 0; i < n; i++) {
        const struct ranksum *s;
        const struct rank_coll *c = ref_coll(v, &v->colls.insts.v[i], &s);
        char *key =
            xasprintf("%s\x1f%s\x1f%lld", c->name ? strtab_str(&s->strs, c->name) : "",
                      c->dtype ? strtab_str(&s->strs, c->dtype) : "", (long long)c->in_nelems);
        uint32_t kid = strtab_intern_cstr(&keys, key);
        free(key);
        uint32_t g = hmap_get(&idx, kid);
        if (g == IDX_NONE) {
            g = (uint32_t)firsts.n;
            hmap_put(&idx, kid, g);
            VEC_PUSH(&firsts, (uint32_t)i);
        }
        group[i] = g;
    }
    hmap_free(&idx);
    strtab_free(&keys);
    /* Each group's instances, ascending (a CSR index): every instance is
     * visited once per measure, not once per group. */
    size_t ng = firsts.n;
    uint32_t *gfirst = xcalloc(ng + 2, sizeof(uint32_t)),
             *ginst = xmalloc((n + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++)
        gfirst[group[i] + 2]++;
    for (size_t g = 0; g < ng; g++)
        gfirst[g + 2] += gfirst[g + 1];
    for (size_t i = 0; i < n; i++)
        ginst[gfirst[group[i] + 1]++] = (uint32_t)i;
    double *x = xcalloc(n + 1, sizeof(double));
    for (size_t g = 0; g < ng; g++) {
        const uint32_t *members = ginst + gfirst[g];
        size_t nmem = gfirst[g + 1] - gfirst[g];
        const struct coll_inst *x0 = &v->colls.insts.v[firsts.v[g]];
        const struct ranksum *s;
        const struct rank_coll *c = ref_coll(v, x0, &s);
        size_t r = table_add_row(t);
        const char *cname = str_or_null(s, c->name), *dt = str_or_null(s, c->dtype);
        table_set_text(t, r, 0, cname ? cname : "Unknown");
        table_set_text(t, r, 1, dt ? dt : "Unknown");
        if (c->in_nelems >= 0)
            table_set_int(t, r, 2, c->in_nelems);
        table_set_text(t, r, 3, x0->pg_name);
        if (c->group_size >= 0)
            table_set_int(t, r, 4, c->group_size);
        table_set_float(t, r, 5, sizes_of(x0, s, c).full_mb);
        size_t cnt = 0;
        double total = 0, algo = 0, bus = 0;
        size_t nalgo = 0, nbus = 0;
        for (size_t m = 0; m < 3; m++) {
            cnt = 0;
            for (size_t k = 0; k < nmem; k++) {
                const struct coll_inst *xi = &v->colls.insts.v[members[k]];
                int64_t val = m == 0 ? xi->comm_latency : m == 1 ? xi->skew_start : xi->skew_end;
                x[cnt++] = val / 1e3;
            }
            struct stats st = stats_of(x, cnt);
            const double agg[5] = {st.mean, st.std, st.median, st.min, st.max};
            for (size_t a = 0; a < 5; a++)
                table_set_float(t, r, NKEY + m * 5 + a, agg[a]);
            if (m == 0)
                total = st.sum;
        }
        for (size_t k = 0; k < nmem; k++) {
            const struct coll_inst *xi = &v->colls.insts.v[members[k]];
            const struct ranksum *si;
            const struct rank_coll *ci = ref_coll(v, xi, &si);
            struct sizes z = sizes_of(xi, si, ci);
            if (!isnan(z.algo_bw)) {
                algo += z.algo_bw;
                nalgo++;
            }
            if (!isnan(z.bus_bw)) {
                bus += z.bus_bw;
                nbus++;
            }
        }
        table_set_float(t, r, NKEY + NSTAT, nalgo ? algo / nalgo : NAN);
        table_set_float(t, r, NKEY + NSTAT + 1, nbus ? bus / nbus : NAN);
        table_set_int(t, r, NKEY + NSTAT + 2, (int64_t)cnt);
        table_set_float(t, r, NKEY + NSTAT + 3, total / 1e3);
    }
    free(x);
    free(group);
    free(gfirst);
    free(ginst);
    VEC_FREE(&firsts);
    table_sort(t, NKEY + NSTAT + 3, true);
    return t;
}

/* ------------------------------------------------------------------------ */
/* stragglers                                                                */
/* ------------------------------------------------------------------------ */

struct table *job_tables_stragglers(const struct job_view *v)
{
    static const struct table_col cols[] = {
        {"rank", NULL, COL_INT, 0, COLF_ASC},
        {"total_wait_time_us", "total wait us", COL_FLOAT, 1, 0},
        {"mean_wait_time_us", "mean wait us", COL_FLOAT, 1, 0},
        {"times_arrived_last", "last", COL_INT, 0, 0},
        {"times_arrived_first", "first", COL_INT, 0, 0},
        {"pct_arrived_last", "last %", COL_PERCENT, 1, 0},
        {"num_collectives", "colls", COL_INT, 0, 0},
        {"total_nccl_dur_us", "nccl us", COL_FLOAT, 1, 0},
    };
    const struct job_colls *c = &v->colls;
    struct table *t =
        table_new("stragglers", "Stragglers: wait in collectives per rank", cols, ARRAY_SIZE(cols));
    t->whole = true;
    if (!c->insts.n) {
        table_add_note(t, "no collectives matched across ranks");
        return t;
    }
    uint32_t *present = xcalloc(v->job->ranks.n + 1, sizeof(uint32_t));
    for (size_t i = 0; i < c->parts.n; i++)
        present[c->parts.v[i].rank_ix]++;
    for (size_t i = 0; i < v->job->ranks.n; i++) {
        size_t r = table_add_row(t);
        table_set_int(t, r, 0, rank_of(v, i));
        table_set_float(t, r, 1, c->wait_total.v[i] / 1e3);
        table_set_float(t, r, 2, present[i] ? c->wait_total.v[i] / 1e3 / present[i] : NAN);
        table_set_int(t, r, 3, c->n_last.v[i]);
        table_set_int(t, r, 4, c->n_first.v[i]);
        table_set_float(t, r, 5, 100.0 * c->n_last.v[i] / c->insts.n);
        table_set_int(t, r, 6, (int64_t)c->insts.n);
        table_set_float(t, r, 7, c->coll_dur.v[i] / 1e3);
        table_set_ref(t, r, (uint32_t)i);
    }
    free(present);
    table_sort(t, 1, false);
    size_t sg = job_view_straggler(v);
    if (sg != SIZE_MAX)
        table_add_note(t, "the straggler waits least and arrives last most often: rank %d",
                       rank_of(v, sg));
    return t;
}

/* ------------------------------------------------------------------------ */
/* ops across ranks                                                          */
/* ------------------------------------------------------------------------ */

/* One op name's GPU time on one rank. */
struct op_entry {
    uint32_t name;    /* id in the table's name list */
    uint32_t rank_ix; /* index into job.ranks */
    int64_t gpu_ns;
};
#define OP_ENTRY_LESS(a, b)                                                                        \
    ((a)->name != (b)->name ? (a)->name < (b)->name : (a)->rank_ix < (b)->rank_ix)
SORT_DEFINE(op_entry_sort, struct op_entry, OP_ENTRY_LESS)

/* The spread of one name over all nr ranks, ms. */
struct op_spread {
    double min, median, max;
    size_t atmax; /* the lowest rank index with the most time */
};

/* The k-th smallest (from 0) of the ranks' values: the n sorted values of
 * the ranks that have the op, merged with nr - n zeros (the ranks
 * without it spent no GPU time on it). */
static double kth_with_zeros(const double *sorted, size_t n, size_t nr, size_t k)
{
    size_t below = 0; /* the values below zero come first */
    while (below < n && sorted[below] < 0)
        below++;
    if (k < below)
        return sorted[k];
    if (k < below + (nr - n))
        return 0;
    return sorted[k - (nr - n)];
}

/* e[0..n): one name's entries, ascending rank; x has room for n values. */
static struct op_spread op_spread_of(const struct op_entry *e, size_t n, size_t nr, double *x)
{
    struct op_spread sp;
    int64_t best = e[0].gpu_ns;
    size_t best_ix = e[0].rank_ix;
    for (size_t k = 0; k < n; k++) {
        x[k] = e[k].gpu_ns / 1e6;
        if (e[k].gpu_ns > best) {
            best = e[k].gpu_ns;
            best_ix = e[k].rank_ix;
        }
    }
    /* Ranks without the op hold 0: the lowest such index wins when 0 is
     * the most, or ties the most and comes first. */
    if (n < nr && (best < 0 || (best == 0 && best_ix > 0))) {
        size_t gap = 0; /* the lowest rank index missing from e */
        while (gap < n && e[gap].rank_ix == gap)
            gap++;
        if (best < 0 || gap < best_ix) {
            best = 0;
            best_ix = gap;
        }
    }
    sp.atmax = best_ix;
    sort_items(x, n, sizeof(*x), cmp_double);
    sp.min = kth_with_zeros(x, n, nr, 0);
    sp.max = kth_with_zeros(x, n, nr, nr - 1);
    sp.median = nr % 2
                    ? kth_with_zeros(x, n, nr, nr / 2)
                    : (kth_with_zeros(x, n, nr, nr / 2 - 1) + kth_with_zeros(x, n, nr, nr / 2)) / 2;
    return sp;
}

struct table *job_tables_ops(const struct job_view *v)
{
    static const struct table_col cols[] = {
        {"name", NULL, COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        {"ranks", NULL, COL_INT, 0, 0},
        {"min_ms", "min ms", COL_FLOAT, 3, 0},
        {"median_ms", "median ms", COL_FLOAT, 3, 0},
        {"max_ms", "max ms", COL_FLOAT, 3, 0},
        {"rank_at_max", "max rank", COL_INT, 0, 0},
        {"spread_ms", "spread ms", COL_FLOAT, 3, 0},
        {"max_over_median", "max/med", COL_FLOAT, 2, 0},
    };
    const struct job *j = v->job;
    size_t nr = j->ranks.n;
    struct table *t =
        table_new("ops_across_ranks", "GPU time by op across ranks", cols, ARRAY_SIZE(cols));
    /* Names across ranks, then one (name, rank, GPU time) entry per op of
     * each rank, sorted by name and rank: a name's row reads its entries
     * alone, and the ranks without the op count as zeros without being
     * stored (memory and time follow the ops read, not names x ranks). */
    struct strtab names;
    strtab_init(&names);
    VEC(struct op_entry) es = {0};
    for (size_t i = 0; i < nr; i++)
        for (size_t k = 0; k < j->ranks.v[i]->ops.n; k++) {
            const struct ranksum *s = j->ranks.v[i];
            uint32_t id = s->ops.v[k].name;
            uint32_t nid =
                strtab_intern(&names, strtab_str(&s->strs, id), strtab_len(&s->strs, id));
            *VEC_ADD(&es) = (struct op_entry){nid, (uint32_t)i, s->ops.v[k].gpu_ns};
        }
    op_entry_sort(es.v, es.n);
    /* A rank that lists a name twice has the sum. */
    size_t ne = 0;
    for (size_t k = 0; k < es.n; k++) {
        if (ne && es.v[ne - 1].name == es.v[k].name && es.v[ne - 1].rank_ix == es.v[k].rank_ix)
            es.v[ne - 1].gpu_ns += es.v[k].gpu_ns;
        else
            es.v[ne++] = es.v[k];
    }
    double *x = xcalloc(nr + 1, sizeof(double));
    for (size_t a = 0; a < ne;) {
        size_t b = a;
        while (b < ne && es.v[b].name == es.v[a].name)
            b++;
        size_t cnt = b - a;
        struct op_spread sp = op_spread_of(es.v + a, cnt, nr, x);
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, strtab_str(&names, es.v[a].name));
        table_set_int(t, r, 1, (int64_t)cnt);
        table_set_float(t, r, 2, sp.min);
        table_set_float(t, r, 3, sp.median);
        table_set_float(t, r, 4, sp.max);
        table_set_int(t, r, 5, rank_of(v, sp.atmax));
        table_set_float(t, r, 6, sp.max - sp.min);
        table_set_float(t, r, 7, sp.median > 0 ? sp.max / sp.median : NAN);
        a = b;
    }
    free(x);
    VEC_FREE(&es);
    strtab_free(&names);
    table_sort(t, 6, true);
    t->top_default = 30;
    return t;
}

/* ------------------------------------------------------------------------ */
/* Registry and header                                                       */
/* ------------------------------------------------------------------------ */

const struct job_table job_tables[] = {
    {"ranks", "per rank: GPU timeline, step time, wait in collectives", job_tables_ranks},
    {"collectives", "collectives matched across ranks (TraceLens's nccl_implicit_sync)",
     job_tables_collectives},
    {"collectives-summary", "collectives by name, dtype and size: latency and skew",
     job_tables_coll_summary},
    {"stragglers", "per rank: wait time, arrived last / first", job_tables_stragglers},
    {"ops", "GPU time by op across ranks: min / median / max, sorted by spread", job_tables_ops},
    {NULL, NULL, NULL},
};

bool job_tables_build(const struct job_view *v, const char *names, struct table_list *out,
                      char *err_msg)
{
    char *copy = xstrdup(names && *names ? names : "all"), *save = NULL;
    bool ok = true;
    for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
        bool all = strcmp(tok, "all") == 0, found = all;
        for (const struct job_table *jt = job_tables; jt->name; jt++)
            if (all || strcmp(tok, jt->name) == 0) {
                table_list_add(out, jt->build(v));
                found = true;
            }
        if (!found) {
            struct strbuf sb = STRBUF_INIT;
            display_sanitize(&sb, tok, strlen(tok));
            snprintf(err_msg, 256,
                     "unknown table '%.60s' for a job (tables: ranks, collectives, "
                     "collectives-summary, stragglers, ops)",
                     sb_str(&sb));
            sb_free(&sb);
            ok = false;
        }
    }
    free(copy);
    /* A broken invariant is said on its table, not left a silent wrong number. */
    invariants_annotate(out);
    return ok;
}

void job_tables_header_text(struct strbuf *out, const struct job_view *v)
{
    const struct job *j = v->job;
    sb_printf(out, "Job: %zu ranks, numbered by %s", j->ranks.n,
              job_rank_source_name(j->rank_source));
    if (j->world_size >= 0)
        sb_printf(out, "; world_size %d", j->world_size);
    sb_printf(out, "; collectives matched by %s\n",
              v->colls.by_seq       ? "Comms Id and Seq"
              : v->colls.simplified ? "order (no process group metadata)"
                                    : "process group");
    if (j->world_size >= 0 && (size_t)j->world_size != j->ranks.n)
        sb_printf(out, "  note: %zu of %d ranks given\n", j->ranks.n, j->world_size);
}

void job_tables_header_json(struct strbuf *out, const struct job_view *v)
{
    const struct job *j = v->job;
    sb_printf(out, "{\"ranks\": %zu, \"rank_source\": ", j->ranks.n);
    const char *src = job_rank_source_name(j->rank_source);
    sb_put_json_string(out, src, strlen(src));
    sb_printf(out, ", \"world_size\": ");
    if (j->world_size >= 0)
        sb_printf(out, "%d", j->world_size);
    else
        sb_puts(out, "null");
    sb_printf(out, ", \"matching\": \"%s\", \"files\": [",
              v->colls.by_seq       ? "seq"
              : v->colls.simplified ? "order"
                                    : "process_group");
    for (size_t i = 0; i < j->ranks.n; i++) {
        if (i)
            sb_puts(out, ", ");
        sb_put_json_string(out, j->ranks.v[i]->source, strlen(j->ranks.v[i]->source));
    }
    sb_puts(out, "]}");
}
