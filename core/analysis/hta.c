/* HTA's view of a trace: the events, times, streams and kernel types its
 * analyses see, its last-profiler-step filter, and pandas' describe(). */
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/hta.h"
#include "core/base/sort.h"
#include "core/trace/argpack.h"

/* Correlation index: host events by correlation, file order within one. */
struct corr_ent {
    int64_t corr;
    uint32_t pos; /* index into hta.cpu */
};

static inline bool corr_less(const struct corr_ent *a, const struct corr_ent *b)
{
    return a->corr < b->corr;
}
SORT_DEFINE(corr_sort, struct corr_ent, corr_less)

struct hta_priv {
    struct hta pub;
    struct corr_ent *byc; /* host events with a correlation, by correlation */
    size_t nbyc;
};

enum hta_ktype hta_kernel_type(const char *n)
{
    /* ^nccl.*Kernel */
    if (strncmp(n, "nccl", 4) == 0 && strstr(n + 4, "Kernel"))
        return HTA_COMMUNICATION;
    if (strncmp(n, "Memcpy", 6) == 0 || strncmp(n, "Memset", 6) == 0 || strncmp(n, "dma", 3) == 0)
        return HTA_MEMORY;
    /* not re.match("(^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync)"): the
     * alternation reads "contains Memcpy", "starts with Memset", "contains
     * Sync" */
    if (strstr(n, "Memcpy") || strstr(n, "Sync"))
        return HTA_OTHER;
    return HTA_COMPUTATION;
}

enum hta_ktype hta_row_kernel_type(const char *name, const char *cat)
{
    return strcmp(cat, "cuda_sync") == 0 ? HTA_OTHER : hta_kernel_type(name);
}

bool hta_kernel_category(const char *cat)
{
    /* (kernel)|(gpu_mem.+)|(mtia_ccp_events) with re.match */
    return strncmp(cat, "kernel", 6) == 0 || (strncmp(cat, "gpu_mem", 7) == 0 && cat[7]) ||
           strncmp(cat, "mtia_ccp_events", 15) == 0;
}

const char *hta_ktype_name(enum hta_ktype k)
{
    static const char *const names[] = {"COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"};
    return names[k];
}

/* Python's int(): an integer, a float truncated, a string of decimal digits
 * (blanks and one sign allowed); anything else (HIP's "0x0"), and a value
 * outside int64, is -1. 64-bit: CUDA's sync events name the stream
 * 2^32 - 1, which a 32-bit id would read as -1 and so drop. */
static int64_t stream_of(const struct trace *t, uint32_t i)
{
    struct argval a;
    if (!argpack_find(t, i, "stream", &a))
        return -1;
    switch (a.type) {
    case ARG_INT:
        return a.v.i;
    case ARG_UINT:
        return -1; /* above INT64_MAX */
    case ARG_DOUBLE:
        return isfinite(a.v.d) && fabs(a.v.d) < 9.2e18 ? (int64_t)a.v.d : -1;
    case ARG_TRUE:
        return 1;
    case ARG_FALSE:
        return 0;
    case ARG_STR: {
        const char *s = trace_str(t, a.v.s);
        while (isspace((unsigned char)*s))
            s++;
        char *end;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (end == s || !isdigit((unsigned char)end[-1]) || errno == ERANGE)
            return -1;
        while (isspace((unsigned char)*end))
            end++;
        return *end == '\0' ? (int64_t)v : -1;
    }
    default:
        return -1;
    }
}

static int64_t corr_of(const struct trace *t, uint32_t i)
{
    struct argval a;
    if (!argpack_find(t, i, "correlation", &a))
        return -1;
    if (a.type == ARG_INT)
        return a.v.i;
    if (a.type == ARG_UINT)
        return a.v.u > INT64_MAX ? -1 : (int64_t)a.v.u;
    if (a.type == ARG_DOUBLE && isfinite(a.v.d) && fabs(a.v.d) < 9e18)
        return (int64_t)a.v.d;
    return -1;
}

/* The rows of HTA's data frame: spans with a category other than "Trace"
 * (the parser drops rows without dur or cat), and the [memory] instants,
 * which it gives a zero duration. */
static bool hta_row(const struct trace *t, uint32_t i, bool *memory)
{
    const struct event *e = trace_ev(t, i);
    *memory = false;
    if (e->ph == 'X')
        return e->cat != 0 && trace_str(t, e->cat)[0] && strcmp(trace_str(t, e->cat), "Trace");
    if (e->ph == 'i' && strcmp(ev_name(t, i), "[memory]") == 0 &&
        strcmp(ev_cat(t, i), "cpu_instant_event") == 0) {
        *memory = true;
        return true;
    }
    return false;
}

static int read_rank(const struct trace *t)
{
    const cJSON *dist = t->top ? cJSON_GetObjectItemCaseSensitive(t->top, "distributedInfo") : NULL;
    const cJSON *rank =
        cJSON_IsObject(dist) ? cJSON_GetObjectItemCaseSensitive(dist, "rank") : NULL;
    return cJSON_IsNumber(rank) ? rank->valueint : 0;
}

struct hta *hta_new(const struct trace *t)
{
    struct hta_priv *p = xcalloc(1, sizeof(*p));
    struct hta *h = &p->pub;
    h->t = t;
    h->rank = read_rank(t);

    /* HTA's GPU filter is stream >= 0 and a correlation >= 0; every other
     * row is "CPU". Kept here, file order: the rows on a stream or with a
     * correlation, the only ones any table reads. */
    VEC(struct hta_ev) all = {0};
    VEC(uint8_t) is_gpu = {0};
    /* Times relative to the earliest row, subtracted in exact ns: HTA
     * subtracts in the file's own type (Python ints stay exact), and a
     * double of an epoch timestamp in ns would not. */
    int64_t min_ns = INT64_MAX;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        bool memory;
        if (hta_row(t, i, &memory) && trace_ev(t, i)->ts < min_ns)
            min_ns = trace_ev(t, i)->ts;
    }
    /* The last-step filter (Trace._filter_irrelevant_gpu_kernels): with two
     * or more distinct ProfilerStep names, host events from the start of the
     * last step on are dropped, and GPU events whose correlation no kept
     * host event carries. */
    uint32_t step1 = 0;
    bool two_steps = false;
    double last = -INFINITY;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        bool memory;
        if (!hta_row(t, i, &memory) || memory)
            continue; /* the [memory] instants set the time origin only */
        const struct event *e = trace_ev(t, i);
        struct hta_ev r = {0};
        r.ts = (double)(e->ts - min_ns) / 1000.0;
        r.dur = (double)e->dur / 1000.0;
        r.end = r.ts + r.dur;
        r.ev = i;
        r.stream = stream_of(t, i);
        r.corr = corr_of(t, i);
        bool gpu = r.stream >= 0 && r.corr >= 0;
        if (strstr(trace_str(t, e->name), "ProfilerStep")) {
            if (!step1)
                step1 = e->name;
            else if (e->name != step1)
                two_steps = true;
            if (!gpu && r.ts > last)
                last = r.ts;
        }
        if (r.stream == -1 && r.corr == -1)
            continue;
        r.ktype = (uint8_t)hta_row_kernel_type(ev_name(t, i), ev_cat(t, i));
        r.kernel = hta_kernel_category(ev_cat(t, i));
        VEC_PUSH(&all, r);
        VEC_PUSH(&is_gpu, (uint8_t)gpu);
    }
    h->step_filter = two_steps && last > -INFINITY;
    h->last_step_ts = h->step_filter ? last : 0;
    for (size_t k = 0; k < all.n; k++)
        if (!is_gpu.v[k] && (!h->step_filter || all.v[k].ts < last))
            VEC_PUSH(&h->cpu, all.v[k]);

    p->byc = xmalloc((h->cpu.n + 1) * sizeof(*p->byc));
    for (size_t k = 0; k < h->cpu.n; k++)
        if (h->cpu.v[k].corr != -1)
            p->byc[p->nbyc++] = (struct corr_ent){h->cpu.v[k].corr, (uint32_t)k};
    corr_sort(p->byc, p->nbyc);

    /* GPU rows: in the filtered frame, the GPU-filter rows joined to the
     * kept host rows (repeated per match), then the host-class rows that
     * sit on a stream; unfiltered, every row on a stream in file order. */
    for (size_t k = 0; k < all.n; k++) {
        const struct hta_ev *r = &all.v[k];
        if (!is_gpu.v[k]) {
            if (!h->step_filter && r->stream != -1)
                VEC_PUSH(&h->gpu, *r);
            continue;
        }
        size_t copies = 1;
        if (h->step_filter) {
            copies = 0;
            size_t lo = 0, hi = p->nbyc;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (p->byc[mid].corr < r->corr)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            while (lo + copies < p->nbyc && p->byc[lo + copies].corr == r->corr)
                copies++;
        }
        for (size_t c = 0; c < copies; c++)
            VEC_PUSH(&h->gpu, *r);
    }
    if (h->step_filter)
        for (size_t k = 0; k < h->cpu.n; k++)
            if (h->cpu.v[k].stream != -1)
                VEC_PUSH(&h->gpu, h->cpu.v[k]);
    VEC_FREE(&all);
    VEC_FREE(&is_gpu);
    return h;
}

void hta_free(struct hta *h)
{
    if (!h)
        return;
    struct hta_priv *p = (struct hta_priv *)h;
    VEC_FREE(&h->gpu);
    VEC_FREE(&h->cpu);
    free(p->byc);
    free(p);
}

const struct hta_ev *hta_launch_of(const struct hta *h, const struct hta_ev *g)
{
    const struct hta_priv *p = (const struct hta_priv *)h;
    if (g->corr < 0)
        return NULL;
    size_t lo = 0, hi = p->nbyc;
    while (lo < hi) { /* first entry past g->corr */
        size_t mid = (lo + hi) / 2;
        if (p->byc[mid].corr <= g->corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || p->byc[lo - 1].corr != g->corr)
        return NULL;
    const struct hta_ev *c = &h->cpu.v[p->byc[lo - 1].pos];
    /* A host-class row on a stream is not a launch (HTA's CPU filter). */
    return c->stream == -1 || c->corr < 0 ? c : NULL;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *xs, size_t n, double q)
{
    double pos = (double)(n - 1) * q;
    size_t lo = (size_t)floor(pos), hi = lo + 1 < n ? lo + 1 : n - 1;
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - (double)lo);
}

struct hta_describe hta_describe(double *xs, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(xs[i]))
            xs[m++] = xs[i];
    struct hta_describe d = {(double)m, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    if (!m)
        return d;
    sort_items(xs, m, sizeof(*xs), dbl_cmp);
    double sum = 0;
    for (size_t i = 0; i < m; i++)
        sum += xs[i];
    d.mean = sum / (double)m;
    if (m > 1) {
        double ss = 0;
        for (size_t i = 0; i < m; i++)
            ss += (xs[i] - d.mean) * (xs[i] - d.mean);
        d.std = sqrt(ss / (double)(m - 1));
    }
    d.min = xs[0];
    d.max = xs[m - 1];
    d.q25 = quantile(xs, m, 0.25);
    d.q50 = quantile(xs, m, 0.5);
    d.q75 = quantile(xs, m, 0.75);
    return d;
}

static inline bool iv_less(const struct hta_iv *a, const struct hta_iv *b)
{
    return a->s < b->s;
}
SORT_DEFINE(iv_sort, struct hta_iv, iv_less)

size_t hta_merge(struct hta_iv *iv, size_t n)
{
    if (!n)
        return 0;
    iv_sort(iv, n);
    size_t m = 0;
    for (size_t i = 1; i < n; i++) {
        if (iv[i].s <= iv[m].e) {
            if (iv[i].e > iv[m].e)
                iv[m].e = iv[i].e;
        } else {
            iv[++m] = iv[i];
        }
    }
    return m + 1;
}

int64_t *hta_streams(const struct hta *h, bool kernels_only, size_t *n)
{
    int64_t *s = xmalloc((h->gpu.n + 1) * sizeof(*s));
    size_t m = 0;
    for (size_t i = 0; i < h->gpu.n; i++) {
        if (kernels_only && !h->gpu.v[i].kernel)
            continue;
        size_t j = 0;
        while (j < m && s[j] != h->gpu.v[i].stream)
            j++;
        if (j == m)
            s[m++] = h->gpu.v[i].stream;
    }
    *n = m;
    return s;
}
