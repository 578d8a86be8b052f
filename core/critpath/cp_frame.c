/* HTA's data frame for the critical path: rows, whole-µs times, the
 * correlation index and the queue length per launch and GPU row. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/critpath/cp_frame.h"
#include "core/trace/argpack.h"

/* An integer argument as HTA's frame reads it; -1 when not a number that
 * fits. */
static int64_t int_val(const struct trace *t, struct argval a)
{
    int64_t v;
    switch (a.type) {
    case ARG_INT:
        return a.v.i;
    case ARG_DOUBLE:
        return isfinite(a.v.d) && fabs(a.v.d) < 9e18 ? (int64_t)a.v.d : -1;
    case ARG_STR:
        return argpack_val_int(t, &a, &v) ? v : -1;
    default:
        return -1;
    }
}

/* The integer arguments the frame reads, by key (strtab ids, IDX_NONE for
 * a key no event has). */
enum { ARG_STREAM, ARG_CORR, ARG_WAIT_STREAM, ARG_WAIT_CORR, NARGS };
static const char *const arg_keys[NARGS] = {"stream", "correlation", "wait_on_stream",
                                            "wait_on_cuda_event_record_corr_id"};

/* Event ev's integer arguments of keys `kid` in one pass over its
 * arguments (the first of each key, as argpack_find finds it); -1 for
 * those it lacks. */
static void int_args(const struct trace *t, uint32_t ev, const uint32_t *kid, int64_t *out)
{
    bool seen[NARGS] = {false};
    for (int k = 0; k < NARGS; k++)
        out[k] = -1;
    struct argiter it;
    struct argval a;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a))
        for (int k = 0; k < NARGS; k++)
            if (a.key == kid[k] && !seen[k]) {
                seen[k] = true;
                out[k] = int_val(t, a);
            }
}

/* The launch calls of HTA's get_runtime_launch_events_query. */
static bool launch_call(const char *n)
{
    static const char *const names[] = {
        "cudaLaunchKernel",
        "cudaLaunchKernelExC",
        "cuLaunchKernel",
        "cudaMemcpyAsync",
        "cudaMemsetAsync",
        "hipLaunchKernel",
        "hipExtModuleLaunchKernel",
        "hipMemsetAsync",
        "hipMemcpyAsync",
        "hipMemcpyWithStream",
        "runFunction - job_prep_and_submit_for_execution",
        "cuLaunchKernelEx",
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
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(n, names[i]))
            return true;
    return false;
}

/* The calls HTA treats as blocking on the GPU (CPGraph.BLOCKING_SYNC_CALLS). */
static bool blocking_call(const char *n)
{
    static const char *const names[] = {
        "cudaDeviceSynchronize",
        "cudaStreamSynchronize",
        "cudaEventQuery",
        "cudaEventSynchronize",
        "cudaMemcpy",
        "cudaMemcpyAsync",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(n, names[i]))
            return true;
    return false;
}

static enum cp_name_role name_role(const char *n)
{
    if (!strcmp(n, "Stream Sync"))
        return CPN_STREAM_SYNC;
    if (!strcmp(n, "Context Sync"))
        return CPN_CONTEXT_SYNC;
    if (!strcmp(n, "Event Sync"))
        return CPN_EVENT_SYNC;
    if (!strcmp(n, "Stream Wait Event"))
        return CPN_STREAM_WAIT_EVENT;
    if (!strcmp(n, "cudaEventRecord"))
        return CPN_EVENT_RECORD;
    if (!strcmp(n, "cudaStreamWaitEvent"))
        return CPN_WAIT_EVENT_CALL;
    return CPN_OTHER;
}

/* HTA's rows: spans with a category other than "Trace"; the [memory]
 * instants only move the time origin. */
static bool frame_row(const struct trace *t, uint32_t i, bool *memory)
{
    const struct event *e = trace_ev(t, i);
    *memory = false;
    if (e->ph == 'X')
        return e->cat != 0 && trace_str(t, e->cat)[0] && strcmp(trace_str(t, e->cat), "Trace");
    if (e->ph == 'i' && !strcmp(ev_name(t, i), "[memory]") &&
        !strcmp(ev_cat(t, i), "cpu_instant_event")) {
        *memory = true;
        return true;
    }
    return false;
}

/* HTA's whole µs of an event, from the file's own µs (event.ts is relative
 * to baseTimeNanoseconds as the file's values are): the start rounded up, the end (start plus
 * duration, added in doubles as pandas adds the file's values) rounded
 * down, the duration their difference (negative for an event shorter than
 * the gap to its next whole µs). */
static void whole_us(const struct trace *t, const struct event *e, int64_t *ts, int64_t *end)
{
    (void)t;
    int64_t ns = e->ts;
    if (ns % 1000 == 0 &&
        e->dur % 1000 == 0) { /* whole µs: exact (epoch µs exceed a double's ns) */
        *ts = ns / 1000;
        *end = *ts + e->dur / 1000;
        return;
    }
    double s = (double)ns / 1000.0;
    double d = (double)e->dur / 1000.0;
    *ts = (int64_t)ceil(s);
    *end = (int64_t)floor(s + d);
}

struct corr_pos {
    int64_t corr;
    uint32_t row;
};
static inline bool corr_pos_less(const struct corr_pos *a, const struct corr_pos *b)
{
    return a->corr < b->corr || (a->corr == b->corr && a->row < b->row);
}
SORT_DEFINE(corr_pos_sort, struct corr_pos, corr_pos_less)

/* HTA's GPU side of the correlation merge: GPU work and GPU syncs on a
 * stream above 0, and the device-wide Event Sync and Context Sync. Work on
 * stream 0 (ROCm's null stream) stays unlinked, so no launch in the region
 * claims it and the graph leaves it out, as HTA's does. */
static bool gpu_side(const struct cp_row *r)
{
    return (r->stream > 0 && r->corr >= 0) || r->role == CPN_EVENT_SYNC ||
           r->role == CPN_CONTEXT_SYNC;
}

/* index_correlation: each launch gets the last GPU row of its correlation,
 * each GPU row the last host row of it (pandas' merge, then assignment by
 * index, keeps the last match). */
static void link_correlations(struct cp_frame *f)
{
    struct cp_row *rows = f->rows.v;
    size_t n = f->rows.n, m = 0;
    struct corr_pos *cp = xmalloc((n + 1) * sizeof(*cp));
    for (size_t i = 0; i < n; i++) {
        rows[i].ic = rows[i].corr >= 0 ? CP_IC_UNMATCHED : CP_IC_NONE;
        if (rows[i].corr != -1)
            cp[m++] = (struct corr_pos){rows[i].corr, (uint32_t)i};
    }
    corr_pos_sort(cp, m);
    for (size_t a = 0; a < m;) {
        size_t b = a;
        int64_t last_cpu = -1, last_gpu = -1;
        while (b < m && cp[b].corr == cp[a].corr) {
            if (gpu_side(&rows[cp[b].row]))
                last_gpu = cp[b].row;
            else
                last_cpu = cp[b].row;
            b++;
        }
        if (last_cpu >= 0 && last_gpu >= 0)
            for (size_t k = a; k < b; k++)
                rows[cp[k].row].ic = (int32_t)(gpu_side(&rows[cp[k].row]) ? last_cpu : last_gpu);
        a = b;
    }
    free(cp);
}

struct qpt {
    int64_t ts;
    int64_t stream;
    uint32_t row;
    int8_t d;
};
/* At equal times the enqueue first (the order HTA's queue-length table
 * follows too, core/analysis/hta_report_launch.c). */
static inline bool qpt_less(const struct qpt *a, const struct qpt *b)
{
    if (a->stream != b->stream)
        return a->stream < b->stream;
    if (a->ts != b->ts)
        return a->ts < b->ts;
    return a->d > b->d;
}
SORT_DEFINE(qpt_sort, struct qpt, qpt_less)

/* HTA's queue length per stream: +1 when a launch call runs, -1 when the
 * GPU row it launched starts; each gets the length right after it. */
static void queue_lengths(struct cp_frame *f)
{
    struct cp_row *rows = f->rows.v;
    VEC(struct qpt) pts = {0};
    for (size_t i = 0; i < f->rows.n; i++) {
        rows[i].qlen = CP_QLEN_NONE;
        const struct cp_row *r = &rows[i];
        if (!(r->flags & CPR_LAUNCH) || r->ic < 0 || r->stream != -1)
            continue;
        const struct cp_row *g = &rows[r->ic];
        if (g->stream < 0)
            continue;
        VEC_PUSH(&pts, ((struct qpt){r->ts, g->stream, (uint32_t)i, 1}));
        VEC_PUSH(&pts, ((struct qpt){g->ts, g->stream, (uint32_t)r->ic, -1}));
    }
    qpt_sort(pts.v, pts.n);
    int32_t q = 0;
    for (size_t k = 0; k < pts.n; k++) {
        if (k == 0 || pts.v[k].stream != pts.v[k - 1].stream)
            q = 0;
        q += pts.v[k].d;
        rows[pts.v[k].row].qlen = q;
    }
    VEC_FREE(&pts);
}

static int i64_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The calls HTA models as taking the CUDA runtime's lock
 * (CUDA_RUNTIME_EVENTS). */
static bool lock_call(const char *n)
{
    return !strcmp(n, "cudaHostAlloc") || !strcmp(n, "cudaLaunchKernel") ||
           !strcmp(n, "cudaMemcpyAsync");
}

struct ts_pos {
    int64_t ts;
    uint32_t row;
};
static inline bool ts_pos_less(const struct ts_pos *a, const struct ts_pos *b)
{
    return a->ts < b->ts || (a->ts == b->ts && a->row < b->row);
}
SORT_DEFINE(ts_pos_sort, struct ts_pos, ts_pos_less)

/* The frame's indexes (struct cp_frame): host rows by time, the Stream
 * Wait Events, the first row of each ProfilerStep name. */
static void index_rows(struct cp_frame *f)
{
    const struct cp_row *rows = f->rows.v;
    size_t n = f->rows.n, nhost = 0;
    for (size_t i = 0; i < n; i++)
        nhost += rows[i].stream == -1;
    struct ts_pos *tp = xmalloc((nhost + 1) * sizeof(*tp));
    VEC(uint32_t) swe = {0};
    VEC(struct cp_name_first) firsts = {0};
    size_t nstr = strtab_count(&f->t->strs);
    uint8_t *step_name = xcalloc(nstr + 1, 1); /* 0 not tried, 1 no, 2 yes, 3 yes and seen */
    nhost = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cp_row *r = &rows[i];
        if (r->stream == -1)
            tp[nhost++] = (struct ts_pos){r->ts, (uint32_t)i};
        else if (r->role == CPN_STREAM_WAIT_EVENT)
            VEC_PUSH(&swe, (uint32_t)i);
        if (r->name >= nstr)
            continue;
        uint8_t *m = &step_name[r->name];
        if (!*m)
            *m = strstr(trace_str(f->t, r->name), "ProfilerStep") ? 2 : 1;
        if (*m == 2) {
            *m = 3;
            VEC_PUSH(&firsts, ((struct cp_name_first){r->name, (uint32_t)i}));
        }
    }
    free(step_name);
    ts_pos_sort(tp, nhost);
    f->host_by_ts = xmalloc((nhost + 1) * sizeof(*f->host_by_ts));
    for (size_t k = 0; k < nhost; k++)
        f->host_by_ts[k] = tp[k].row;
    f->nhost = nhost;
    free(tp);
    f->stream_waits = swe.v;
    f->nstream_waits = swe.n;
    f->step_firsts = firsts.v;
    f->nstep_firsts = firsts.n;
}

/* Per name id: role and flags, worked out once per distinct name. */
struct name_info {
    uint8_t known, role, flags, step; /* step: the name contains "ProfilerStep" */
};

struct cp_frame *cp_frame_new(const struct trace *t)
{
    struct cp_frame *f = xcalloc(1, sizeof(*f));
    f->t = t;
    size_t nstr = strtab_count(&t->strs);
    struct name_info *ni = xcalloc(nstr + 1, sizeof(*ni));
    uint32_t cat_op = strtab_find(&t->strs, "cpu_op", 6);
    uint32_t cat_rt = strtab_find(&t->strs, "cuda_runtime", 12);
    uint32_t cat_drv = strtab_find(&t->strs, "cuda_driver", 11);
    uint32_t cat_sync = strtab_find(&t->strs, "cuda_sync", 9);
    uint32_t cat_ann = strtab_find(&t->strs, "user_annotation", 15);
    uint32_t kid[NARGS];
    for (int k = 0; k < NARGS; k++)
        kid[k] = strtab_find(&t->strs, arg_keys[k], strlen(arg_keys[k]));

    int64_t min_us = INT64_MAX;
    size_t nrows = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        bool memory;
        if (frame_row(t, i, &memory) && !memory) {
            nrows++;
            int64_t us, end;
            whole_us(t, trace_ev(t, i), &us, &end);
            if (us < min_us)
                min_us = us;
        }
    }
    /* HTA's last-step filter (as core/analysis/hta.c reads it): with two or
     * more ProfilerStep names, host rows from the last step's start on are
     * left out, and GPU rows whose correlation no kept host row carries. */
    uint32_t step1 = 0;
    bool two_steps = false;
    int64_t last = INT64_MIN;
    VEC(struct cp_row) all = {0};
    /* the rows take most of the frame: no slack */
    all.v = xmalloc((nrows + 1) * sizeof(*all.v));
    all.cap = nrows + 1;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        bool memory;
        if (!frame_row(t, i, &memory) || memory)
            continue;
        const struct event *e = trace_ev(t, i);
        struct cp_row r = {0};
        int64_t ts, end;
        whole_us(t, e, &ts, &end);
        r.ts = ts - min_us;
        r.dur = end - ts;
        r.ev = i;
        r.name = e->name;
        r.trow = e->row;
        int64_t args[NARGS];
        int_args(t, i, kid, args);
        r.stream = args[ARG_STREAM];
        r.corr = args[ARG_CORR];
        r.wait_stream = args[ARG_WAIT_STREAM];
        r.wait_corr = args[ARG_WAIT_CORR];
        if (r.wait_corr != -1)
            f->has_wait_fields = true;
        if (e->name < nstr) {
            struct name_info *n = &ni[e->name];
            if (!n->known) {
                const char *s = trace_str(t, e->name);
                n->known = 1;
                n->role = (uint8_t)name_role(s);
                n->flags = (uint8_t)((launch_call(s) ? CPR_LAUNCH : 0) |
                                     (blocking_call(s) ? CPR_BLOCKING : 0) |
                                     (lock_call(s) ? CPR_RUNTIME_LOCK : 0));
                n->step = strstr(s, "ProfilerStep") != NULL;
            }
            r.role = n->role;
            r.flags = n->flags;
        }
        bool step = e->name < nstr ? ni[e->name].step
                                   : strstr(trace_str(t, e->name), "ProfilerStep") != NULL;
        if (e->cat == cat_op || e->cat == cat_rt || e->cat == cat_drv)
            r.flags |= CPR_OP_OR_RUNTIME;
        if (e->cat == cat_op || (e->cat == cat_ann && cat_ann != IDX_NONE))
            r.flags |= CPR_OP_OR_ANNOTATION;
        if (e->cat == cat_sync && cat_sync != IDX_NONE) {
            r.flags |= CPR_SYNC_CAT;
            f->has_sync = true;
        }
        if (step) {
            if (!step1)
                step1 = e->name;
            else if (e->name != step1)
                two_steps = true;
            if (!(r.stream >= 0 && r.corr >= 0) && r.ts > last)
                last = r.ts;
        }
        VEC_PUSH(&all, r);
    }
    free(ni);
    f->step_filter = two_steps && last > INT64_MIN;
    if (!f->step_filter) {
        f->rows.v = all.v;
        f->rows.n = all.n;
        f->rows.cap = all.cap;
    } else {
        VEC(int64_t) kept = {0};
        for (size_t k = 0; k < all.n; k++) {
            const struct cp_row *r = &all.v[k];
            if (!(r->stream >= 0 && r->corr >= 0) && r->ts < last && r->corr != -1)
                VEC_PUSH(&kept, r->corr);
        }
        /* (qsort and bsearch take no NULL array, even of no items) */
        if (kept.n)
            qsort(kept.v, kept.n, sizeof(*kept.v), i64_cmp);
        /* in place: one copy of the rows at a time */
        size_t m = 0;
        for (size_t k = 0; k < all.n; k++) {
            const struct cp_row *r = &all.v[k];
            bool gpu = r->stream >= 0 && r->corr >= 0;
            if (gpu ? kept.n && bsearch(&r->corr, kept.v, kept.n, sizeof(*kept.v), i64_cmp)
                    : r->ts < last)
                all.v[m++] = *r;
        }
        VEC_FREE(&kept);
        f->rows.v = m ? xreallocarray(all.v, m, sizeof(*all.v)) : all.v;
        f->rows.n = m;
        f->rows.cap = m ? m : all.cap;
    }
    link_correlations(f);
    queue_lengths(f);
    index_rows(f);
    cp_links_build(f, &f->links);
    return f;
}

void cp_frame_free(struct cp_frame *f)
{
    if (!f)
        return;
    VEC_FREE(&f->rows);
    free(f->host_by_ts);
    free(f->stream_waits);
    free(f->step_firsts);
    cp_links_free(&f->links);
    free(f);
}

size_t cp_frame_mark_data_loading(struct cp_frame *f, const regex_t *re, size_t n)
{
    if (!n)
        return 0;
    size_t nstr = strtab_count(&f->t->strs), marked = 0;
    uint8_t *memo = xcalloc(nstr + 1, 1); /* per name: 0 not tried, 1 no, 2 yes */
    for (size_t i = 0; i < f->rows.n; i++) {
        struct cp_row *r = &f->rows.v[i];
        if (r->stream != -1)
            continue;
        uint8_t m = r->name < nstr ? memo[r->name] : 0;
        if (!m) {
            const char *s = trace_str(f->t, r->name);
            m = 1;
            for (size_t k = 0; k < n && m == 1; k++)
                if (regexec(&re[k], s, 0, NULL, 0) == 0)
                    m = 2;
            if (r->name < nstr)
                memo[r->name] = m;
        }
        if (m == 2) {
            r->flags |= CPR_DATA_LOAD;
            marked++;
        }
    }
    free(memo);
    return marked;
}

uint32_t *cp_frame_step_names(const struct cp_frame *f, size_t *n)
{
    VEC(uint32_t) seen = {0};
    for (size_t i = 0; i < f->rows.n; i++) {
        const struct cp_row *r = &f->rows.v[i];
        if (r->stream != -1 || strncmp(trace_str(f->t, r->name), "ProfilerStep#", 13))
            continue;
        bool dup = false;
        for (size_t k = 0; k < seen.n && !dup; k++)
            dup = seen.v[k] == r->name;
        if (!dup)
            VEC_PUSH(&seen, r->name);
    }
    *n = seen.n;
    return seen.v;
}
