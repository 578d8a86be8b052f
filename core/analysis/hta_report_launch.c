/* HTA's per-launch and per-operation tables (docs/metrics.md §14): launch
 * statistics and outliers, queue length per stream, memory bandwidth. The
 * time-breakdown tables are in hta_report.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/hta.h"
#include "core/analysis/hta_report.h"
#include "core/base/sort.h"
#include "core/trace/argpack.h"

/* get_cuda_kernel_launch_stats' outlier cutoffs (µs). */
#define HTA_RUNTIME_CUTOFF_US 50.0
#define HTA_LAUNCH_DELAY_CUTOFF_US 100.0

/* ------------------------------------------------------------------------ */
/* Launch statistics                                                        */
/* ------------------------------------------------------------------------ */

/* The calls get_cuda_kernel_launch_stats pairs with their GPU work. */
static bool launch_stats_call(const char *n)
{
    return !strcmp(n, "cudaLaunchKernel") || !strcmp(n, "cudaLaunchKernelExC") ||
           !strcmp(n, "cudaMemcpyAsync") || !strcmp(n, "cudaMemsetAsync");
}

/* The calls the queue length counts as enqueueing work
 * (get_runtime_launch_events_mask): the CUDA ones above, the driver's
 * cuLaunchKernel and cuLaunchKernelEx, MTIA's submit, the HIP calls HTA
 * lists (hipExtLaunchKernel is not one) and the XPU (Unified Runtime)
 * enqueue calls. */
static bool queue_call(const char *n)
{
    static const char *const names[] = {
        "cuLaunchKernel",
        "cuLaunchKernelEx",
        "runFunction - job_prep_and_submit_for_execution",
        "hipLaunchKernel",
        "hipExtModuleLaunchKernel",
        "hipMemcpyAsync",
        "hipMemsetAsync",
        "hipMemcpyWithStream",
        "urEnqueueUSMFill",
        "urEnqueueUSMFill2D",
        "urEnqueueUSMMemcpy",
        "urEnqueueUSMMemcpy2D",
        "urEnqueueKernelLaunch",
        "urEnqueueKernelLaunchExp",
        "urEnqueueKernelLaunchCustomExp",
        "urEnqueueKernelLaunchWithArgsExp",
        "urEnqueueCooperativeKernelLaunchExp",
        "urEnqueueMemBufferFill",
        "urEnqueueMemBufferRead",
        "urEnqueueMemBufferWrite",
        "urEnqueueMemBufferCopy",
        "urUSMHostAlloc",
        "urUSMSharedAlloc",
        "urUSMDeviceAlloc",
    };
    if (launch_stats_call(n))
        return true;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(n, names[i]))
            return true;
    return false;
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
    int64_t stream;
    int8_t d;
};
/* At equal times the enqueue comes first: HTA sorts with an unstable sort
 * and leaves such ties in no defined order; this order keeps the length
 * >= 0 whenever no GPU row starts before its call. */
static inline bool qpt_less(const struct qpt *a, const struct qpt *b)
{
    if (a->ts != b->ts)
        return a->ts < b->ts;
    return a->d > b->d;
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
    /* HTA's series: +1 when a listed call that launched GPU work runs (one
     * per GPU row of its correlation, on that row's stream), -1 when such
     * a GPU row starts. Only the GPU rows a listed call launched count: a
     * sync event, or a kernel whose launch is not in the list, moves
     * nothing, so every -1 has its +1. */
    VEC(int64_t) fed = {0}; /* correlations of the counted calls */
    for (size_t i = 0; i < h->cpu.n; i++) {
        const struct hta_ev *c = &h->cpu.v[i];
        if (c->corr < 0 || !queue_call(ev_name(t, c->ev)))
            continue;
        size_t k = gcorr_first(gc, h->gpu.n, c->corr);
        bool launched = false; /* HTA's index_correlation > 0 */
        for (size_t j = k; j < h->gpu.n && gc[j].corr == c->corr; j++)
            launched |= h->gpu.v[gc[j].k].stream >= 0;
        if (!launched)
            continue;
        VEC_PUSH(&fed, c->corr);
        for (; k < h->gpu.n && gc[k].corr == c->corr; k++)
            VEC_PUSH(&pts, ((struct qpt){c->ts, h->gpu.v[gc[k].k].stream, 1}));
    }
    corr64_sort(fed.v, fed.n);
    for (size_t i = 0; i < h->gpu.n; i++)
        if (has_corr(fed.v, fed.n, h->gpu.v[i].corr))
            VEC_PUSH(&pts, ((struct qpt){h->gpu.v[i].ts, h->gpu.v[i].stream, -1}));
    VEC_FREE(&fed);
    qpt_sort(pts.v, pts.n);
    size_t ns;
    int64_t *streams = hta_streams(h, false, &ns);
    /* pandas groupby: streams ascending */
    for (size_t a = 1; a < ns; a++)
        for (size_t b = a; b > 0 && streams[b - 1] > streams[b]; b--) {
            int64_t tmp = streams[b - 1];
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
