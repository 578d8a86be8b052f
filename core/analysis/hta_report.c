/* HTA's analysis tables (docs/metrics.md §14): temporal breakdown, idle
 * time per stream, kernel types and top kernels, communication overlap,
 * launch statistics, queue length and memory bandwidth. */
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
/* get_cuda_kernel_launch_stats' outlier cutoffs (µs). */
#define HTA_RUNTIME_CUTOFF_US 50.0
#define HTA_LAUNCH_DELAY_CUTOFF_US 100.0
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

/* Streams in order of first appearance in HTA's frame. Caller frees. */
static int32_t *streams_of(const struct hta *h, size_t *n)
{
    int32_t *s = xmalloc((h->gpu.n + 1) * sizeof(*s));
    size_t m = 0;
    for (size_t i = 0; i < h->gpu.n; i++) {
        size_t j = 0;
        while (j < m && s[j] != h->gpu.v[i].stream)
            j++;
        if (j == m)
            s[m++] = h->gpu.v[i].stream;
    }
    *n = m;
    return s;
}

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
    size_t ns;
    int32_t *streams = streams_of(h, &ns);
    struct gref *g = xmalloc((h->gpu.n + 1) * sizeof(*g));
    double *gaps[IDLE__N];
    for (int c = 0; c < IDLE__N; c++)
        gaps[c] = xmalloc((h->gpu.n + 1) * sizeof(double));
    for (size_t s = 0; s < ns; s++) {
        size_t m = 0;
        for (size_t i = 0; i < h->gpu.n; i++)
            if (h->gpu.v[i].stream == streams[s])
                g[m++] = (struct gref){h->gpu.v[i].ts, (uint32_t)i};
        gref_sort(g, m);
        size_t cnt[IDLE__N] = {0};
        double sum[IDLE__N] = {0};
        /* The first event has no previous end: HTA leaves it in "other"
         * with no interval (NaN, which sums to 0 and counts for nothing). */
        gaps[IDLE_OTHER][cnt[IDLE_OTHER]++] = NAN;
        for (size_t k = 1; k < m; k++) {
            const struct hta_ev *e = &h->gpu.v[g[k].k];
            double prev_end = h->gpu.v[g[k - 1].k].end;
            double gap = e->ts - prev_end;
            const struct hta_ev *l = hta_launch_of(h, e);
            int c = l && l->ts > prev_end      ? IDLE_HOST
                    : gap < HTA_KERNEL_WAIT_US ? IDLE_KERNEL
                                               : IDLE_OTHER;
            gaps[c][cnt[c]++] = gap;
            sum[c] += gap;
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
    uint32_t name; /* strtab id; 0 for "others" */
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

static inline bool kagg_less(const struct kagg *a, const struct kagg *b)
{
    return a->sum > b->sum;
}
SORT_DEFINE(kagg_sort, struct kagg, kagg_less)

/* pandas agg(["sum", "max", "min", "mean", "std"]) of xs, std 0 for one. */
static struct kagg agg(uint32_t name, const double *xs, size_t n)
{
    struct kagg a = {name, 0, -INFINITY, INFINITY, 0, 0};
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
        g[m++] = agg(kd[a].name, xs, b - a);
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

/* ------------------------------------------------------------------------ */
/* Launch statistics                                                        */
/* ------------------------------------------------------------------------ */

/* The calls get_cuda_kernel_launch_stats pairs with their GPU work. */
static bool launch_stats_call(const char *n)
{
    return !strcmp(n, "cudaLaunchKernel") || !strcmp(n, "cudaLaunchKernelExC") ||
           !strcmp(n, "cudaMemcpyAsync") || !strcmp(n, "cudaMemsetAsync");
}

/* The calls the queue length counts as enqueueing work: the CUDA ones
 * above, the driver's cuLaunchKernel and the HIP calls HTA counts
 * (hipExtLaunchKernel is not one). */
static bool queue_call(const char *n)
{
    return launch_stats_call(n) || !strcmp(n, "cuLaunchKernel") || !strcmp(n, "hipLaunchKernel") ||
           !strcmp(n, "hipExtModuleLaunchKernel") || !strcmp(n, "hipMemcpyAsync") ||
           !strcmp(n, "hipMemsetAsync") || !strcmp(n, "hipMemcpyWithStream");
}

struct launch_row {
    int64_t corr;
    double cpu, gpu, delay;
};

static inline bool corr64_less(const int64_t *a, const int64_t *b)
{
    return *a < *b;
}
SORT_DEFINE(corr64_sort, int64_t, corr64_less)

static bool has_corr(const int64_t *v, size_t n, int64_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == c;
}

struct gcorr {
    int64_t corr;
    uint32_t k; /* index into hta.gpu */
};
static inline bool gcorr_less(const struct gcorr *a, const struct gcorr *b)
{
    return a->corr < b->corr;
}
SORT_DEFINE(gcorr_sort, struct gcorr, gcorr_less)

/* GPU events by correlation (stable: frame order within one). */
static struct gcorr *gpu_by_corr(const struct hta *h)
{
    struct gcorr *gc = xmalloc((h->gpu.n + 1) * sizeof(*gc));
    for (size_t i = 0; i < h->gpu.n; i++)
        gc[i] = (struct gcorr){h->gpu.v[i].corr, (uint32_t)i};
    gcorr_sort(gc, h->gpu.n);
    return gc;
}

static size_t gcorr_first(const struct gcorr *gc, size_t n, int64_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (gc[mid].corr < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void hta_report_launch_stats(const struct hta *h, struct table_list *out)
{
    const struct trace *t = h->t;
    /* Correlations of the listed calls, host or device rows alike. */
    int64_t *corrs = xmalloc((h->cpu.n + h->gpu.n + 1) * sizeof(*corrs));
    size_t nc = 0;
    for (size_t i = 0; i < h->cpu.n; i++)
        if (launch_stats_call(ev_name(t, h->cpu.v[i].ev)))
            corrs[nc++] = h->cpu.v[i].corr;
    for (size_t i = 0; i < h->gpu.n; i++)
        if (launch_stats_call(ev_name(t, h->gpu.v[i].ev)))
            corrs[nc++] = h->gpu.v[i].corr;
    corr64_sort(corrs, nc);
    struct gcorr *gc = gpu_by_corr(h);
    VEC(struct launch_row) rows = {0};
    for (size_t i = 0; i < h->cpu.n; i++) {
        const struct hta_ev *c = &h->cpu.v[i];
        if (!has_corr(corrs, nc, c->corr))
            continue;
        for (size_t k = gcorr_first(gc, h->gpu.n, c->corr); k < h->gpu.n && gc[k].corr == c->corr;
             k++) {
            const struct hta_ev *g = &h->gpu.v[gc[k].k];
            double delay = g->ts - (c->ts + c->dur);
            /* a GPU start before the call returns counts as no delay */
            VEC_PUSH(&rows, ((struct launch_row){c->corr, c->dur, g->dur, delay > 0 ? delay : 0}));
        }
    }
    static const struct table_col dcols[] = {
        {"stat", "stat", COL_TEXT, 0, COLF_NAME},
        {"correlation", "correlation", COL_FLOAT, 1, 0},
        {"cpu_duration", "cpu µs", COL_FLOAT, 3, 0},
        {"gpu_duration", "gpu µs", COL_FLOAT, 3, 0},
        {"launch_delay", "delay µs", COL_FLOAT, 3, 0},
    };
    struct table *dt = table_new("hta_cuda_kernel_launch_stats_describe",
                                 "HTA kernel launch statistics: CPU call, GPU duration, delay (µs)",
                                 dcols, sizeof(dcols) / sizeof(dcols[0]));
    dt->whole = true;
    static const char *const stats[] = {"count", "mean", "std", "min", "25%", "50%", "75%", "max"};
    for (int s = 0; s < 8; s++)
        table_set_text(dt, table_add_row(dt), 0, stats[s]);
    double *xs = xmalloc((rows.n + 1) * sizeof(*xs));
    for (int col = 0; col < 4; col++) {
        for (size_t i = 0; i < rows.n; i++) {
            const struct launch_row *r = &rows.v[i];
            xs[i] = col == 0 ? (double)r->corr : col == 1 ? r->cpu : col == 2 ? r->gpu : r->delay;
        }
        struct hta_describe d = hta_describe(xs, rows.n);
        double v[] = {d.count, d.mean, d.std, d.min, d.q25, d.q50, d.q75, d.max};
        for (int s = 0; s < 8; s++)
            table_set_float(dt, (size_t)s, (size_t)(1 + col), v[s]);
    }
    free(xs);
    table_list_add(out, dt);

    static const struct table_col ocols[] = {
        {"correlation", "correlation", COL_INT, 0, 0},
        {"cpu_duration", "cpu µs", COL_FLOAT, 3, 0},
        {"gpu_duration", "gpu µs", COL_FLOAT, 3, 0},
        {"launch_delay", "delay µs", COL_FLOAT, 3, 0},
        {"outlier", "outlier", COL_TEXT, 0, COLF_ASC},
    };
    struct table *ot = table_new("hta_cuda_kernel_launch_outliers",
                                 "HTA launch outliers: CPU call over 50 µs or delay over 100 µs",
                                 ocols, sizeof(ocols) / sizeof(ocols[0]));
    for (size_t i = 0; i < rows.n; i++) {
        const struct launch_row *r = &rows.v[i];
        bool rt = r->cpu > HTA_RUNTIME_CUTOFF_US, ld = r->delay > HTA_LAUNCH_DELAY_CUTOFF_US;
        if (!rt && !ld)
            continue;
        size_t k = table_add_row(ot);
        table_set_int(ot, k, 0, r->corr);
        table_set_float(ot, k, 1, r->cpu);
        table_set_float(ot, k, 2, r->gpu);
        table_set_float(ot, k, 3, r->delay);
        table_set_text(ot, k, 4,
                       rt && ld ? "runtime,launch_delay"
                       : rt     ? "runtime"
                                : "launch_delay");
    }
    table_sort(ot, 3, true);
    table_list_add(out, ot);
    VEC_FREE(&rows);
    free(gc);
    free(corrs);
}

/* ------------------------------------------------------------------------ */
/* Queue length                                                             */
/* ------------------------------------------------------------------------ */

struct qpt {
    double ts;
    int32_t stream;
    int8_t d;
};
static inline bool qpt_less(const struct qpt *a, const struct qpt *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(qpt_sort, struct qpt, qpt_less)

static void stat_row(struct table *tab, size_t first_stat_col, const struct hta_describe *d,
                     size_t r)
{
    double v[] = {d->count, d->mean, d->std, d->min, d->q25, d->q50, d->q75, d->max};
    for (int j = 0; j < 8; j++)
        table_set_float(tab, r, first_stat_col + (size_t)j, v[j]);
}

#define STAT_COLS(unit)                                                                            \
    {"count", "count", COL_FLOAT, 0, 0}, {"mean", "mean" unit, COL_FLOAT, 3, 0},                   \
        {"std", "std", COL_FLOAT, 3, 0}, {"min", "min", COL_FLOAT, 3, 0},                          \
        {"25%", "25%", COL_FLOAT, 3, 0}, {"50%", "50%", COL_FLOAT, 3, 0},                          \
        {"75%", "75%", COL_FLOAT, 3, 0},                                                           \
    {                                                                                              \
        "max", "max", COL_FLOAT, 3, 0                                                              \
    }

struct table *hta_report_queue_length(const struct hta *h)
{
    const struct trace *t = h->t;
    static const struct table_col cols[] = {
        {"rank", "rank", COL_INT, 0, 0},
        {"stream", "stream", COL_INT, 0, 0},
        STAT_COLS(""),
    };
    struct table *tab =
        table_new("hta_queue_length_summary",
                  "HTA queue length: GPU operations outstanding per stream (describe())", cols,
                  sizeof(cols) / sizeof(cols[0]));
    tab->whole = true;
    struct gcorr *gc = gpu_by_corr(h);
    VEC(struct qpt) pts = {0};
    /* +1 when a listed call that launched GPU work runs (on the stream of
     * each event it launched), -1 when a GPU event starts. */
    for (size_t i = 0; i < h->cpu.n; i++) {
        const struct hta_ev *c = &h->cpu.v[i];
        if (c->corr < 0 || !queue_call(ev_name(t, c->ev)))
            continue;
        size_t k = gcorr_first(gc, h->gpu.n, c->corr);
        bool launched = false;
        for (size_t j = k; j < h->gpu.n && gc[j].corr == c->corr; j++)
            launched |= h->gpu.v[gc[j].k].stream >= 0;
        if (!launched)
            continue;
        for (; k < h->gpu.n && gc[k].corr == c->corr; k++)
            VEC_PUSH(&pts, ((struct qpt){c->ts, h->gpu.v[gc[k].k].stream, 1}));
    }
    for (size_t i = 0; i < h->gpu.n; i++)
        VEC_PUSH(&pts, ((struct qpt){h->gpu.v[i].ts, h->gpu.v[i].stream, -1}));
    qpt_sort(pts.v, pts.n);
    size_t ns;
    int32_t *streams = streams_of(h, &ns);
    /* pandas groupby: streams ascending */
    for (size_t a = 1; a < ns; a++)
        for (size_t b = a; b > 0 && streams[b - 1] > streams[b]; b--) {
            int32_t tmp = streams[b - 1];
            streams[b - 1] = streams[b];
            streams[b] = tmp;
        }
    double *xs = xmalloc((pts.n + 1) * sizeof(*xs));
    for (size_t s = 0; s < ns; s++) {
        size_t m = 0, enq = 0;
        double q = 0;
        for (size_t i = 0; i < pts.n; i++)
            if (pts.v[i].stream == streams[s]) {
                q += pts.v[i].d;
                xs[m++] = q;
                enq += pts.v[i].d > 0;
            }
        /* HTA's series holds only the streams some listed call fed */
        if (!enq)
            continue;
        struct hta_describe d = hta_describe(xs, m);
        size_t r = table_add_row(tab);
        table_set_int(tab, r, 0, h->rank);
        table_set_int(tab, r, 1, streams[s]);
        stat_row(tab, 2, &d, r);
    }
    free(xs);
    free(streams);
    VEC_FREE(&pts);
    free(gc);
    return tab;
}

/* ------------------------------------------------------------------------ */
/* Memory bandwidth                                                         */
/* ------------------------------------------------------------------------ */

/* get_memory_kernel_type: "Memset", the first 11 characters of a memcpy
 * ("Memcpy DtoD"), or "Memcpy Unknown". */
static void memory_kind(const char *n, char out[16])
{
    if (!strncmp(n, "Memset", 6))
        strcpy(out, "Memset");
    else if (strncmp(n, "Memcpy", 6))
        strcpy(out, "Memcpy Unknown");
    else
        snprintf(out, 16, "%.11s", n);
}

struct bwpt {
    double ts, bw;
    char kind[16];
};
static inline bool bwpt_less(const struct bwpt *a, const struct bwpt *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(bwpt_sort, struct bwpt, bwpt_less)

struct table *hta_report_memory_bw(const struct hta *h)
{
    const struct trace *t = h->t;
    static const struct table_col cols[] = {
        {"rank", "rank", COL_INT, 0, 0},
        {"name", "kind", COL_TEXT, 0, COLF_ASC | COLF_NAME},
        STAT_COLS(" GB/s"),
    };
    struct table *tab = table_new("hta_memory_bw_summary",
                                  "HTA memory copy/set bandwidth over time (GB/s, describe())",
                                  cols, sizeof(cols) / sizeof(cols[0]));
    tab->whole = true;
    VEC(struct bwpt) pts = {0};
    for (size_t i = 0; i < h->gpu.n; i++) {
        const struct hta_ev *g = &h->gpu.v[i];
        if (g->ktype != HTA_MEMORY)
            continue;
        struct argval a;
        double bw = 0;
        if (argpack_find(t, g->ev, "memory bandwidth (GB/s)", &a) &&
            !argpack_val_number(t, &a, &bw))
            bw = 0;
        struct bwpt p = {g->ts, bw, ""};
        memory_kind(ev_name(t, g->ev), p.kind);
        VEC_PUSH(&pts, p);
    }
    /* the end points follow the start points, as HTA concatenates them */
    size_t nstart = pts.n;
    for (size_t i = 0; i < nstart; i++) {
        struct bwpt p = pts.v[i];
        VEC_PUSH(&pts, p);
    }
    size_t k = 0;
    for (size_t i = 0; i < h->gpu.n; i++)
        if (h->gpu.v[i].ktype == HTA_MEMORY) {
            pts.v[nstart + k].ts = h->gpu.v[i].end;
            pts.v[nstart + k].bw = -pts.v[nstart + k].bw;
            k++;
        }
    bwpt_sort(pts.v, pts.n);
    static const char *const kinds[] = {"Memcpy DtoD", "Memcpy DtoH", "Memcpy HtoD",
                                        "Memcpy Unknown", "Memset"};
    double *xs = xmalloc((pts.n + 1) * sizeof(*xs));
    /* other 11-character prefixes ("Memcpy PtoP", ...) in order of
     * appearance after the common ones */
    VEC(const char *) extra = {0};
    for (size_t i = 0; i < pts.n; i++) {
        bool known = false;
        for (size_t j = 0; j < 5 && !known; j++)
            known = !strcmp(pts.v[i].kind, kinds[j]);
        for (size_t j = 0; j < extra.n && !known; j++)
            known = !strcmp(pts.v[i].kind, extra.v[j]);
        if (!known)
            VEC_PUSH(&extra, pts.v[i].kind);
    }
    size_t nk = 5 + extra.n;
    const char **all = xmalloc(nk * sizeof(*all));
    for (size_t j = 0; j < nk; j++)
        all[j] = j < 5 ? kinds[j] : extra.v[j - 5];
    for (size_t a = 1; a < nk; a++) /* Python's string order */
        for (size_t b = a; b > 0 && strcmp(all[b - 1], all[b]) > 0; b--) {
            const char *tmp = all[b - 1];
            all[b - 1] = all[b];
            all[b] = tmp;
        }
    for (size_t j = 0; j < nk; j++) {
        double run = 0;
        size_t m = 0;
        for (size_t i = 0; i < pts.n; i++)
            if (!strcmp(pts.v[i].kind, all[j])) {
                run += pts.v[i].bw;
                if (run > 0) /* HTA leaves out the zero points */
                    xs[m++] = run;
            }
        if (!m)
            continue;
        struct hta_describe d = hta_describe(xs, m);
        size_t r = table_add_row(tab);
        table_set_int(tab, r, 0, h->rank);
        table_set_text(tab, r, 1, all[j]);
        stat_row(tab, 2, &d, r);
    }
    free(all);
    VEC_FREE(&extra);
    free(xs);
    VEC_FREE(&pts);
    return tab;
}
