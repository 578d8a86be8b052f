/* HTA's time-breakdown tables (docs/metrics.md §14): temporal breakdown,
 * idle time per stream, kernel types and top kernels, communication
 * overlap. The per-launch and per-operation tables are in
 * hta_report_launch.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/hta.h"
#include "core/analysis/hta_report.h"
#include "core/base/sort.h"
#include "core/trace/argpack.h"

/* HTA's threshold between a kernel wait and "other" idle time (µs): its
 * consecutive_kernel_delay default, read in the trace's µs. */
#define HTA_KERNEL_WAIT_US 30.0
/* _aggr_gpu_kernel_time's cut: HTA's outputs in ../shared list up to 30
 * names per type before "others" (its num_kernels as run there). */
#define HTA_TOP_KERNELS 30
#define HTA_TOP_RATIO 0.8

/* numpy's round(x, d): round half to even on the scaled value. */
static double round_to(double x, int decimals)
{
    double s = pow(10.0, decimals);
    return nearbyint(x * s) / s;
}

/* Merged intervals of the GPU events of one kernel type (all when ktype
 * < 0). Caller frees. */
static struct hta_iv *merged(const struct hta *h, int ktype, size_t *n)
{
    struct hta_iv *iv = xmalloc((h->gpu.n + 1) * sizeof(*iv));
    size_t m = 0;
    for (size_t i = 0; i < h->gpu.n; i++)
        if (ktype < 0 || h->gpu.v[i].ktype == ktype)
            iv[m++] = (struct hta_iv){h->gpu.v[i].ts, h->gpu.v[i].end};
    *n = hta_merge(iv, m);
    return iv;
}

static double busy(const struct hta_iv *iv, size_t n)
{
    double ends = 0, starts = 0; /* HTA: end.sum() - ts.sum() */
    for (size_t i = 0; i < n; i++) {
        ends += iv[i].e;
        starts += iv[i].s;
    }
    return ends - starts;
}

/* ------------------------------------------------------------------------ */
/* Temporal breakdown                                                       */
/* ------------------------------------------------------------------------ */

struct table *hta_report_temporal(const struct hta *h)
{
    static const struct table_col cols[] = {
        {"rank", "rank", COL_INT, 0, 0},
        {"idle_time(us)", "idle µs", COL_FLOAT, 3, 0},
        {"compute_time(us)", "compute µs", COL_FLOAT, 3, 0},
        {"non_compute_time(us)", "non-compute µs", COL_FLOAT, 3, 0},
        {"kernel_time(us)", "kernel µs", COL_FLOAT, 3, 0},
        {"idle_time_pctg", "idle %", COL_PERCENT, 2, 0},
        {"compute_time_pctg", "compute %", COL_PERCENT, 2, 0},
        {"non_compute_time_pctg", "non-compute %", COL_PERCENT, 2, 0},
    };
    struct table *tab = table_new("hta_temporal_breakdown",
                                  "HTA temporal breakdown: idle, compute and non-compute GPU time",
                                  cols, sizeof(cols) / sizeof(cols[0]));
    tab->whole = true;
    size_t n, nc;
    struct hta_iv *all = merged(h, -1, &n);
    if (n) {
        struct hta_iv *comp = merged(h, HTA_COMPUTATION, &nc);
        double kernel = all[n - 1].e - all[0].s;
        double idle = kernel - busy(all, n);
        double compute = busy(comp, nc);
        double non = kernel - compute - idle;
        size_t r = table_add_row(tab);
        table_set_int(tab, r, 0, h->rank);
        table_set_float(tab, r, 1, idle);
        table_set_float(tab, r, 2, compute);
        table_set_float(tab, r, 3, non);
        table_set_float(tab, r, 4, kernel);
        table_set_float(tab, r, 5, round_to(100 * idle / kernel, 2));
        table_set_float(tab, r, 6, round_to(100 * compute / kernel, 2));
        table_set_float(tab, r, 7, round_to(100 * non / kernel, 2));
        free(comp);
    }
    free(all);
    if (h->step_filter)
        table_add_note(tab, "as HTA: events of the last profiler step left out");
    return tab;
}

/* ------------------------------------------------------------------------ */
/* Idle time per stream                                                     */
/* ------------------------------------------------------------------------ */

enum { IDLE_HOST, IDLE_KERNEL, IDLE_OTHER, IDLE__N };
static const char *const idle_names[IDLE__N] = {"host_wait", "kernel_wait", "other"};

struct gref {
    double ts;
    uint32_t k; /* index into hta.gpu */
};
static inline bool gref_less(const struct gref *a, const struct gref *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(gref_sort, struct gref, gref_less)

void hta_report_idle(const struct hta *h, bool intervals, struct table_list *out)
{
    static const struct table_col cols[] = {
        {"rank", "rank", COL_INT, 0, 0},
        {"stream", "stream", COL_INT, 0, 0},
        {"idle_category", "category", COL_TEXT, 0, COLF_ASC | COLF_NAME},
        {"idle_time", "idle µs", COL_FLOAT, 2, 0},
        {"idle_time_ratio", "ratio", COL_FLOAT, 2, 0},
    };
    static const struct table_col icols[] = {
        {"idle_category", "category", COL_TEXT, 0, COLF_ASC | COLF_NAME},
        {"rank", "rank", COL_INT, 0, 0},
        {"stream", "stream", COL_INT, 0, 0},
        {"count", "count", COL_INT, 0, 0},
        {"mean", "mean µs", COL_FLOAT, 2, 0},
        {"std", "std µs", COL_FLOAT, 2, 0},
        {"min", "min µs", COL_FLOAT, 2, 0},
        {"25%", "25%", COL_FLOAT, 2, 0},
        {"50%", "50%", COL_FLOAT, 2, 0},
        {"75%", "75%", COL_FLOAT, 2, 0},
        {"max", "max µs", COL_FLOAT, 2, 0},
    };
    struct table *tab = table_new("hta_idle_time_breakdown",
                                  "HTA idle time per stream: host wait, kernel wait, other", cols,
                                  sizeof(cols) / sizeof(cols[0]));
    tab->whole = true;
    struct table *it = intervals ? table_new("hta_idle_interval_stats",
                                             "HTA idle intervals per stream and category (µs)",
                                             icols, sizeof(icols) / sizeof(icols[0]))
                                 : NULL;
    if (it)
        it->whole = true;
    /* HTA's idle time reads the GPU kernels by category (kernels, memcpys,
     * memsets, MTIA's device events): sync events and other rows that carry
     * a stream are not kernels and make no gaps. */
    size_t ns;
    int64_t *streams = hta_streams(h, true, &ns);
    struct gref *g = xmalloc((h->gpu.n + 1) * sizeof(*g));
    double *gaps[IDLE__N];
    for (int c = 0; c < IDLE__N; c++)
        gaps[c] = xmalloc((h->gpu.n + 1) * sizeof(double));
    for (size_t s = 0; s < ns; s++) {
        size_t m = 0;
        for (size_t i = 0; i < h->gpu.n; i++)
            if (h->gpu.v[i].kernel && h->gpu.v[i].stream == streams[s])
                g[m++] = (struct gref){h->gpu.v[i].ts, (uint32_t)i};
        gref_sort(g, m);
        size_t cnt[IDLE__N] = {0};
        double sum[IDLE__N] = {0};
        /* The first event has no previous end: HTA leaves it in "other"
         * with no interval (NaN, which sums to 0 and counts for nothing). */
        gaps[IDLE_OTHER][cnt[IDLE_OTHER]++] = NAN;
        /* The gap is measured from the latest end of the rows before it,
         * not from the end of the one that started just before it as in
         * HTA: a row that starts while earlier work still runs has no gap
         * (0), where HTA counts a negative one. So every part is >= 0 and
         * the parts add up to the stream's idle time, its span less the
         * union of its rows (docs/metrics.md §14.2). Streams whose rows do
         * not overlap get HTA's numbers. */
        double busy_until = m ? h->gpu.v[g[0].k].end : 0;
        for (size_t k = 1; k < m; k++) {
            const struct hta_ev *e = &h->gpu.v[g[k].k];
            double gap = e->ts > busy_until ? e->ts - busy_until : 0;
            const struct hta_ev *l = hta_launch_of(h, e);
            int c = l && l->ts > busy_until    ? IDLE_HOST
                    : gap < HTA_KERNEL_WAIT_US ? IDLE_KERNEL
                                               : IDLE_OTHER;
            gaps[c][cnt[c]++] = gap;
            sum[c] += gap;
            if (e->end > busy_until)
                busy_until = e->end;
        }
        double total = sum[0] + sum[1] + sum[2];
        for (int c = 0; c < IDLE__N; c++) {
            if (!cnt[c])
                continue;
            size_t r = table_add_row(tab);
            table_set_int(tab, r, 0, h->rank);
            table_set_int(tab, r, 1, streams[s]);
            table_set_text(tab, r, 2, idle_names[c]);
            table_set_float(tab, r, 3, sum[c]);
            table_set_float(tab, r, 4, total != 0 ? sum[c] / total : NAN);
            if (!it)
                continue;
            struct hta_describe d = hta_describe(gaps[c], cnt[c]);
            r = table_add_row(it);
            table_set_text(it, r, 0, idle_names[c]);
            table_set_int(it, r, 1, h->rank);
            table_set_int(it, r, 2, streams[s]);
            table_set_int(it, r, 3, (int64_t)d.count);
            double v[] = {d.mean, d.std, d.min, d.q25, d.q50, d.q75, d.max};
            for (int j = 0; j < 7; j++)
                table_set_float(it, r, (size_t)(4 + j), v[j]);
        }
    }
    for (int c = 0; c < IDLE__N; c++)
        free(gaps[c]);
    free(g);
    free(streams);
    table_add_note(tab, "kernel wait: a gap under %.0f µs not caused by a late launch",
                   HTA_KERNEL_WAIT_US);
    table_list_add(out, tab);
    if (it)
        table_list_add(out, it);
}

/* ------------------------------------------------------------------------ */
/* Communication / computation overlap                                      */
/* ------------------------------------------------------------------------ */

struct sweep {
    double t;
    int d; /* +bit at a start, -bit at an end */
};
/* Starts before ends at equal times: HTA's sort leaves such ties in no
 * defined order; this one reproduces the zero-length overlap rows its
 * output shows where intervals of two types touch. */
static inline bool sweep_less(const struct sweep *a, const struct sweep *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    return a->d > 0 && b->d < 0;
}
SORT_DEFINE(sweep_sort, struct sweep, sweep_less)

struct table *hta_report_overlap(const struct hta *h)
{
    static const struct table_col cols[] = {
        {"rank", "rank", COL_INT, 0, 0},
        {"comp_comm_overlap_pctg", "comm overlapped by compute %", COL_PERCENT, 2, 0},
    };
    struct table *tab =
        table_new("hta_comm_comp_overlap", "HTA communication time overlapped by computation", cols,
                  sizeof(cols) / sizeof(cols[0]));
    tab->whole = true;
    size_t ncomm, ncomp;
    struct hta_iv *comm = merged(h, HTA_COMMUNICATION, &ncomm);
    struct hta_iv *comp = merged(h, HTA_COMPUTATION, &ncomp);
    struct sweep *sw = xmalloc((2 * (ncomm + ncomp) + 1) * sizeof(*sw));
    size_t n = 0;
    for (size_t i = 0; i < ncomm; i++) {
        sw[n++] = (struct sweep){comm[i].s, 1};
        sw[n++] = (struct sweep){comm[i].e, -1};
    }
    for (size_t i = 0; i < ncomp; i++) {
        sw[n++] = (struct sweep){comp[i].s, 2};
        sw[n++] = (struct sweep){comp[i].e, -2};
    }
    sweep_sort(sw, n);
    double overlap = 0;
    int run = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        run += sw[i].d;
        if (run == 3)
            overlap += sw[i + 1].t - sw[i].t;
    }
    double total = 0;
    for (size_t i = 0; i < ncomm; i++)
        total += comm[i].e - comm[i].s;
    size_t r = table_add_row(tab);
    table_set_int(tab, r, 0, h->rank);
    table_set_float(tab, r, 1, total > 0 ? round_to(100 * overlap / total, 2) : NAN);
    free(sw);
    free(comm);
    free(comp);
    return tab;
}

/* ------------------------------------------------------------------------ */
/* Kernel types and top kernels                                             */
/* ------------------------------------------------------------------------ */

static struct table *kernel_type_table(const struct hta *h)
{
    static const struct table_col cols[] = {
        {"kernel_type", "kernel type", COL_TEXT, 0, COLF_ASC | COLF_NAME | COLF_WIDE},
        {"sum", "µs", COL_INT, 0, 0},
        {"percentage", "%", COL_PERCENT, 1, 0},
    };
    struct table *tab = table_new("hta_kernel_type_breakdown",
                                  "HTA GPU time by kernel type and overlaps of types (µs)", cols,
                                  sizeof(cols) / sizeof(cols[0]));
    tab->whole = true;
    static const int types[3] = {HTA_COMPUTATION, HTA_COMMUNICATION, HTA_MEMORY};
    struct sweep *sw = xmalloc((2 * h->gpu.n + 1) * sizeof(*sw));
    size_t n = 0;
    for (int k = 0; k < 3; k++) {
        size_t m;
        struct hta_iv *iv = merged(h, types[k], &m);
        for (size_t i = 0; i < m; i++) {
            sw[n++] = (struct sweep){iv[i].s, 1 << k};
            sw[n++] = (struct sweep){iv[i].e, -(1 << k)};
        }
        free(iv);
    }
    sweep_sort(sw, n);
    /* Each segment's length truncated to whole µs, as HTA's astype(int). */
    int64_t sums[8] = {0};
    bool seen[8] = {false};
    int run = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        run += sw[i].d;
        if (run > 0) {
            sums[run] += (int64_t)(sw[i + 1].t - sw[i].t);
            seen[run] = true;
        }
    }
    int64_t total = 0;
    for (int m = 1; m < 8; m++)
        total += sums[m];
    for (int m = 1; m < 8; m++) {
        if (!seen[m])
            continue;
        char label[80] = "";
        for (int k = 0; k < 3; k++)
            if (m & (1 << k)) {
                if (label[0])
                    strcat(label, " overlapping ");
                strcat(label, hta_ktype_name(types[k]));
            }
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, label);
        table_set_int(tab, r, 1, sums[m]);
        table_set_float(tab, r, 2,
                        total ? round_to(100.0 * (double)sums[m] / (double)total, 1) : NAN);
    }
    free(sw);
    table_sort(tab, 1, true);
    return tab;
}

struct kagg {
    uint32_t name;    /* strtab id; 0 for "others" */
    const char *text; /* the name's text (ties of sum), NULL for "others" */
    double sum, max, min, mean, std;
};

struct kdur {
    uint32_t name;
    double dur;
};
static inline bool kdur_less(const struct kdur *a, const struct kdur *b)
{
    return a->name < b->name;
}
SORT_DEFINE(kdur_sort, struct kdur, kdur_less)

/* Equal sums in name order: string ids follow the parser's threads, so
 * an id order would let the top cut differ from run to run. */
static inline bool kagg_less(const struct kagg *a, const struct kagg *b)
{
    if (a->sum != b->sum)
        return a->sum > b->sum;
    return a->text && b->text && strcmp(a->text, b->text) < 0;
}
SORT_DEFINE(kagg_sort, struct kagg, kagg_less)

/* pandas agg(["sum", "max", "min", "mean", "std"]) of xs, std 0 for one. */
static struct kagg agg(uint32_t name, const double *xs, size_t n)
{
    struct kagg a = {name, NULL, 0, -INFINITY, INFINITY, 0, 0};
    for (size_t i = 0; i < n; i++) {
        a.sum += xs[i];
        a.max = xs[i] > a.max ? xs[i] : a.max;
        a.min = xs[i] < a.min ? xs[i] : a.min;
    }
    a.mean = a.sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (xs[i] - a.mean) * (xs[i] - a.mean);
    a.std = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    return a;
}

/* _aggr_gpu_kernel_time for one kernel type: per-name statistics by sum,
 * and past HTA_TOP_KERNELS names (or past the HTA_TOP_RATIO quantile of
 * the running sum) one "others" row whose statistics are over the
 * per-name sums. Rows in name order, "others" among them (name 0 sorts by
 * its text). Caller frees. */
static struct kagg *top_kernels(const struct hta *h, int ktype, size_t *n)
{
    struct kdur *kd = xmalloc((h->gpu.n + 1) * sizeof(*kd));
    size_t nk = 0;
    for (size_t i = 0; i < h->gpu.n; i++)
        if (h->gpu.v[i].ktype == ktype)
            kd[nk++] = (struct kdur){trace_ev(h->t, h->gpu.v[i].ev)->name, h->gpu.v[i].dur};
    kdur_sort(kd, nk);
    struct kagg *g = xmalloc((nk + 2) * sizeof(*g));
    double *xs = xmalloc((nk + 1) * sizeof(*xs));
    size_t m = 0;
    for (size_t a = 0; a < nk;) {
        size_t b = a;
        while (b < nk && kd[b].name == kd[a].name) {
            xs[b - a] = kd[b].dur;
            b++;
        }
        g[m] = agg(kd[a].name, xs, b - a);
        g[m++].text = trace_str(h->t, kd[a].name);
        a = b;
    }
    kagg_sort(g, m);
    if (m > HTA_TOP_KERNELS) {
        double *cum = xmalloc(m * sizeof(*cum));
        double run = 0;
        for (size_t i = 0; i < m; i++)
            cum[i] = run += g[i].sum;
        /* quantile of the running sums (sorted already: they increase) */
        double pos = (double)(m - 1) * HTA_TOP_RATIO;
        size_t lo = (size_t)pos, hi = lo + 1 < m ? lo + 1 : m - 1;
        double q = cum[lo] + (cum[hi] - cum[lo]) * (pos - (double)lo);
        size_t kept = 0, no = 0;
        for (size_t i = 0; i < m; i++) {
            if (cum[i] > q || i >= HTA_TOP_KERNELS)
                xs[no++] = g[i].sum;
            else
                g[kept++] = g[i];
        }
        for (size_t i = 0; i < kept; i++) {
            /* regrouped over their sums: one value each */
            double s = g[i].sum;
            g[i].max = g[i].min = g[i].mean = s;
            g[i].std = 0;
        }
        if (no)
            g[kept++] = agg(0, xs, no);
        m = kept;
        free(cum);
    }
    free(xs);
    free(kd);
    *n = m;
    return g;
}

static const char *kagg_name(const struct hta *h, const struct kagg *a)
{
    return a->name ? trace_str(h->t, a->name) : "others";
}

void hta_report_kernel_types(const struct hta *h, struct table_list *out)
{
    table_list_add(out, kernel_type_table(h));
    static const struct table_col cols[] = {
        {"name", "kernel", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        {"sum (us)", "total µs", COL_FLOAT, 3, 0},
        {"max (us)", "max µs", COL_FLOAT, 3, 0},
        {"min (us)", "min µs", COL_FLOAT, 3, 0},
        {"stddev", "std µs", COL_FLOAT, 3, 0},
        {"mean (us)", "mean µs", COL_FLOAT, 3, 0},
        {"kernel_type", "type", COL_TEXT, 0, COLF_ASC},
        {"rank", "rank", COL_INT, 0, 0},
    };
    struct table *tab =
        table_new("hta_kernel_breakdown_top", "HTA top kernels by type (the rest as \"others\")",
                  cols, sizeof(cols) / sizeof(cols[0]));
    tab->whole = true;
    /* HTA sorts by kernel_type, name, rank: COMMUNICATION, COMPUTATION,
     * MEMORY, names as strings. */
    static const int order[3] = {HTA_COMMUNICATION, HTA_COMPUTATION, HTA_MEMORY};
    for (int k = 0; k < 3; k++) {
        size_t m;
        struct kagg *g = top_kernels(h, order[k], &m);
        size_t first = tab->nrows;
        for (size_t i = 0; i < m; i++) {
            size_t r = table_add_row(tab);
            table_set_text(tab, r, 0, kagg_name(h, &g[i]));
            double v[] = {g[i].sum, g[i].max, g[i].min, g[i].std, g[i].mean};
            for (int j = 0; j < 5; j++)
                table_set_float(tab, r, (size_t)(1 + j), v[j]);
            table_set_text(tab, r, 6, hta_ktype_name(order[k]));
            table_set_int(tab, r, 7, h->rank);
        }
        /* names ascending within the type (byte order, as Python's) */
        for (size_t a = first + 1; a < tab->nrows; a++)
            for (size_t b = a;
                 b > first && strcmp(table_cell(tab, b - 1, 0).s, table_cell(tab, b, 0).s) > 0; b--)
                for (size_t c = 0; c < tab->ncols; c++) {
                    union cell tmp = tab->cells[(b - 1) * tab->ncols + c];
                    tab->cells[(b - 1) * tab->ncols + c] = tab->cells[b * tab->ncols + c];
                    tab->cells[b * tab->ncols + c] = tmp;
                }
        free(g);
    }
    table_list_add(out, tab);
}
