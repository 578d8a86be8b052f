/* The per-step table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wide.h"
#include "core/base/interval.h"
#include "core/base/xalloc.h"
#include "core/critpath/cp_report.h"
#include "core/report/steptable.h"
#include "core/trace/steps.h"

enum {
    C_STEP,
    C_START,
    C_DUR,
    C_GPU_BUSY,
    C_GPU_IDLE,
    C_GPU_UTIL,
    C_CPU,
    C_GPU_EVENTS,
    C_KERNEL_MS,
    C_CP_LEN,
    C_BOUND,
    C_BOUND_SHARE,
    C__N
};

static const struct table_col cols[C__N] = {
    {"step", "step", COL_INT, 0, COLF_ASC | COLF_NAME},
    {"start_ms", "start ms", COL_FLOAT, 3, COLF_DETAIL},
    {"duration_ms", "duration ms", COL_FLOAT, 3, COLF_KEY},
    {"gpu_busy_ms", "GPU busy ms", COL_FLOAT, 3, COLF_KEY},
    {"gpu_idle_ms", "GPU idle ms", COL_FLOAT, 3, COLF_KEY},
    {"gpu_busy_pct", "GPU busy %", COL_PERCENT, 1, 0},
    {"cpu_busy_ms", "CPU busy ms", COL_FLOAT, 3, 0},
    {"gpu_events", "GPU events", COL_INT, 0, 0},
    {"gpu_time_ms", "GPU time ms", COL_FLOAT, 3, COLF_DETAIL},
    {"critical_path_ms", "path ms", COL_FLOAT, 3, 0},
    {"bound", "bound", COL_TEXT, 0, 0},
    {"bound_pct", "bound %", COL_PERCENT, 1, 0},
};

/* The bound columns of the critical path's per-region table, in its order
 * (cp_report.h, lengths_only), from the first of them. */
static const char *const bound_names[] = {"cpu_bound", "gpu_compute_bound",
                                          "gpu_communication_bound", "gpu_kernel_launch_overhead",
                                          "gpu_kernel_kernel_overhead"};

static int col_of(const struct table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return (int)c;
    return -1;
}

/* The union length of buf's intervals clipped to [from, to). */
static int64_t union_in(ivals_t *buf, int64_t from, int64_t to)
{
    for (size_t k = 0; k < buf->n; k++) {
        buf->v[k].start = MAX(buf->v[k].start, from);
        buf->v[k].end = MIN(buf->v[k].end, to);
    }
    return ival_union_length(buf->v, buf->n);
}

/* The first of idx (n events sorted by start) starting at or after at. */
static size_t first_from(const struct trace *t, const uint32_t *idx, size_t n, int64_t at)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->ev.v[idx[mid]].ts < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int by_start(const void *a, const void *b, void *ud)
{
    const struct trace *t = ud;
    int64_t x = t->ev.v[*(const uint32_t *)a].ts, y = t->ev.v[*(const uint32_t *)b].ts;
    return (x > y) - (x < y);
}

/* Event indices of one class (GPU work, or host ops and runtime calls
 * but the steps' own spans), sorted by start, and their longest
 * duration. */
static uint32_t *collect(const struct trace *t, bool gpu, size_t *n, int64_t *max_dur)
{
    uint32_t *v = xmalloc((t->ev.n + 1) * sizeof(*v));
    size_t m = 0;
    int64_t md = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        unsigned k = t->ev.v[i].kind;
        bool want = gpu ? evk_is_gpu(k) : k == EVK_CPU_OP || evk_is_launch(k);
        if (!want || t->ev.v[i].dur <= 0)
            continue;
        /* The step itself (an op in pre-1.10 traces) is not work in it. */
        if (!gpu && strncmp(ev_name(t, i), "ProfilerStep#", 13) == 0)
            continue;
        v[m++] = i;
        md = MAX(md, t->ev.v[i].dur);
    }
    qsort_r(v, m, sizeof(*v), by_start, (void *)t);
    *n = m;
    *max_dur = md;
    return v;
}

/* Gather into buf the intervals of idx overlapping [from, to): those
 * starting before `to` and at or after from - max_dur (max_dur, the
 * longest of them, bounds how far back one can start and still reach
 * from). count and sum (when count is not NULL) get the number and the
 * summed durations of those starting within the window. */
static void gather(const struct trace *t, const uint32_t *idx, size_t n, int64_t max_dur,
                   int64_t from, int64_t to, ivals_t *buf, uint64_t *count, int64_t *sum)
{
    buf->n = 0;
    for (size_t k = first_from(t, idx, n, from - max_dur); k < n; k++) {
        const struct event *e = &t->ev.v[idx[k]];
        if (e->ts >= to)
            break;
        if (ev_end(e) <= from)
            continue;
        VEC_PUSH(buf, ((struct ival){e->ts, ev_end(e)}));
        if (count && e->ts >= from) {
            (*count)++;
            *sum = wide_add_sat(*sum, e->dur);
        }
    }
}

bool steptable_build(const struct trace *t, struct table_list *out, char *err)
{
    struct trace_step *steps;
    size_t n = steps_list(t, &steps);
    if (!n) {
        free(steps);
        snprintf(err, 256, "the trace has no ProfilerStep#N spans");
        return false;
    }
    /* The critical path's length and bounds per step, by its region name. */
    struct table_list cp = {0};
    struct cp_report_opts co = {.lengths_only = true};
    char cperr[256];
    bool have_cp = cp_report_tables(t, &co, &cp, cperr) && cp.items.n;
    const struct table *lens = have_cp ? cp.items.v[0] : NULL;
    struct table *tab =
        table_new("steps", "Per profiler step: time, GPU and CPU busy, critical path", cols, C__N);
    size_t ng, nh;
    int64_t mdg, mdh;
    uint32_t *gpu = collect(t, true, &ng, &mdg);
    uint32_t *host = collect(t, false, &nh, &mdh);
    ivals_t buf = {0};
    for (size_t s = 0; s < n; s++) {
        int64_t from = steps[s].from, to = steps[s].to;
        size_t r = table_add_row(tab);
        table_set_int(tab, r, C_STEP, steps[s].n);
        table_set_float(tab, r, C_START, (double)(from - t->t_start) / 1e6);
        table_set_float(tab, r, C_DUR, (double)(to - from) / 1e6);
        uint64_t count = 0;
        int64_t sum = 0;
        gather(t, gpu, ng, mdg, from, to, &buf, &count, &sum);
        int64_t busy = union_in(&buf, from, to);
        table_set_float(tab, r, C_GPU_BUSY, (double)busy / 1e6);
        table_set_float(tab, r, C_GPU_IDLE, (double)(to - from - busy) / 1e6);
        table_set_float(tab, r, C_GPU_UTIL,
                        to > from ? 100.0 * (double)busy / (double)(to - from) : 0);
        table_set_int(tab, r, C_GPU_EVENTS, (int64_t)count);
        table_set_float(tab, r, C_KERNEL_MS, (double)sum / 1e6);
        gather(t, host, nh, mdh, from, to, &buf, NULL, NULL);
        table_set_float(tab, r, C_CPU, (double)union_in(&buf, from, to) / 1e6);
        char name[48];
        snprintf(name, sizeof(name), "ProfilerStep#%lld", (long long)steps[s].n);
        size_t row = SIZE_MAX;
        for (size_t k = 0; lens && k < lens->nrows && row == SIZE_MAX; k++)
            if (strcmp(table_cell(lens, k, 0).s, name) == 0)
                row = k;
        if (row == SIZE_MAX)
            continue; /* no path: HTA leaves the last step out */
        int lc = col_of(lens, "length_us");
        if (lc >= 0)
            table_set_float(tab, r, C_CP_LEN, (double)table_cell(lens, row, (size_t)lc).i / 1e3);
        const char *best = NULL;
        double share = -1;
        for (size_t b = 0; b < ARRAY_SIZE(bound_names); b++) {
            int c = col_of(lens, bound_names[b]);
            if (c >= 0 && table_cell(lens, row, (size_t)c).f > share) {
                share = table_cell(lens, row, (size_t)c).f;
                best = bound_names[b];
            }
        }
        if (best) {
            table_set_text(tab, r, C_BOUND, best);
            table_set_float(tab, r, C_BOUND_SHARE, share);
        }
    }
    if (!have_cp)
        table_add_note(tab, "No critical path: %s", cperr);
    VEC_FREE(&buf);
    free(gpu);
    free(host);
    free(steps);
    table_list_free(&cp);
    table_list_add(out, tab);
    return true;
}
