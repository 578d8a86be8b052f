/* Busy intervals per lane, binning into columns, and event lookup. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/trace/tree.h"
#include "tui/trace/lanes.h"

static bool lane_kind_ok(const struct trace *t, uint32_t ev, bool cpu)
{
    const struct event *e = &t->ev.v[ev];
    if (cpu)
        return e->kind == EVK_CPU_OP && e->ph == 'X';
    return evk_is_gpu(e->kind);
}

bool lane_has_event(const struct lane *l, const struct trace *t, uint32_t ev)
{
    return ev < t->ev.n && t->ev.v[ev].row == l->row && lane_kind_ok(t, ev, l->cpu);
}

void lane_build(struct lane *l, const struct trace *t, uint32_t row, bool cpu)
{
    for (int c = 0; c < LC__COUNT; c++)
        l->iv[c].n = 0;
    l->row = row;
    l->cpu = cpu;
    const struct row *r = &t->rows.v[row];
    for (uint32_t k = 0; k < r->nevents; k++) {
        uint32_t ev = r->order[k];
        if (!lane_kind_ok(t, ev, cpu))
            continue;
        const struct event *e = &t->ev.v[ev];
        int c = cpu ? LC_CPU : (int)gpuclass_bucket(t, ev);
        VEC_PUSH(&l->iv[c], ((struct ival){e->ts, ev_end(e)}));
    }
    for (int c = 0; c < LC__COUNT; c++)
        l->iv[c].n = ival_normalize(l->iv[c].v, l->iv[c].n);
}

void lane_free(struct lane *l)
{
    for (int c = 0; c < LC__COUNT; c++)
        VEC_FREE(&l->iv[c]);
}

/* First interval of a set ending after t. */
static size_t first_after(const ivals_t *s, int64_t t)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->v[mid].end <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void lane_bins(const struct lane *l, int64_t t0, int64_t t1, int ncols, float *occ)
{
    memset(occ, 0, sizeof(float) * (size_t)LC__COUNT * (size_t)ncols);
    if (ncols <= 0 || t1 <= t0)
        return;
    /* Times relative to t0: epoch timestamps (~1.7e18 ns) are beyond a
     * double's integer range, which would lose whole columns at fine zoom. */
    double span = (double)(t1 - t0);
    double col_ns = span / ncols;
    for (int c = 0; c < LC__COUNT; c++) {
        const ivals_t *s = &l->iv[c];
        float *o = occ + (size_t)c * (size_t)ncols;
        for (size_t i = first_after(s, t0); i < s->n && s->v[i].start < t1; i++) {
            double a = (double)(MAX(s->v[i].start, t0) - t0);
            double b = (double)(MIN(s->v[i].end, t1) - t0);
            int ca = (int)(a / col_ns);
            int cb = (int)(b / col_ns);
            if (ca >= ncols)
                ca = ncols - 1;
            if (cb >= ncols)
                cb = ncols - 1;
            for (int col = ca; col <= cb; col++) {
                double cs = col * col_ns, ce = cs + col_ns;
                double ov = MIN(b, ce) - MAX(a, cs);
                if (ov > 0)
                    o[col] += (float)(ov / col_ns);
            }
        }
        for (int col = 0; col < ncols; col++)
            if (o[col] > 1)
                o[col] = 1;
    }
}

/* Index in row order of the last event starting at or before `at`, or -1. */
static long last_start_before(const struct trace *t, const struct row *r, int64_t at)
{
    long lo = 0, hi = (long)r->nevents;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (t->ev.v[r->order[mid]].ts <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

uint32_t lane_event_at(const struct lane *l, const struct trace *t, int64_t at, int64_t slack)
{
    const struct row *r = &t->rows.v[l->row];
    long k = last_start_before(t, r, at);
    if (l->cpu) {
        for (; k >= 0; k--) {
            uint32_t ev = r->order[k];
            if (evk_is_host_span(t->ev.v[ev].kind))
                break;
        }
        if (k < 0)
            return IDX_NONE;
        for (uint32_t ev = r->order[k]; ev != IDX_NONE; ev = t->ev.v[ev].parent) {
            const struct event *e = &t->ev.v[ev];
            if (e->kind == EVK_CPU_OP && e->ts <= at && ev_end(e) > at)
                return ev;
        }
        return IDX_NONE;
    }
    /* GPU: a covering event among the few starting just before `at`. */
    for (long j = k, steps = 0; j >= 0 && steps < 64; j--, steps++) {
        uint32_t ev = r->order[j];
        const struct event *e = &t->ev.v[ev];
        if (lane_kind_ok(t, ev, false) && ev_end(e) > at)
            return ev;
    }
    /* Else the nearest start within slack, on either side. */
    uint32_t best = IDX_NONE;
    int64_t best_d = slack + 1;
    for (long j = k + 1; j < (long)r->nevents; j++) {
        uint32_t ev = r->order[j];
        if (!lane_kind_ok(t, ev, false))
            continue;
        int64_t d = t->ev.v[ev].ts - at;
        if (d < best_d) {
            best = ev;
            best_d = d;
        }
        break;
    }
    for (long j = k; j >= 0; j--) {
        uint32_t ev = r->order[j];
        if (!lane_kind_ok(t, ev, false))
            continue;
        int64_t d = at - ev_end(&t->ev.v[ev]);
        if (d < best_d) {
            best = ev;
            best_d = d;
        }
        break;
    }
    return best;
}

uint32_t lane_event_step(const struct lane *l, const struct trace *t, int64_t at, int dir)
{
    const struct row *r = &t->rows.v[l->row];
    long k = last_start_before(t, r, at);
    if (dir > 0) {
        for (long j = k + 1; j < (long)r->nevents; j++)
            if (lane_kind_ok(t, r->order[j], l->cpu) && t->ev.v[r->order[j]].ts > at)
                return r->order[j];
        return IDX_NONE;
    }
    for (long j = k; j >= 0; j--)
        if (lane_kind_ok(t, r->order[j], l->cpu) && t->ev.v[r->order[j]].ts < at)
            return r->order[j];
    return IDX_NONE;
}

struct stream_key {
    int32_t device, stream;
    uint32_t row;
};

static int stream_cmp(const void *pa, const void *pb)
{
    const struct stream_key *x = pa, *y = pb;
    if (x->device != y->device)
        return x->device < y->device ? -1 : 1;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

struct lane *lanes_build_all(const struct trace *t, int *nlanes)
{
    /* Streams with GPU work, and the CPU ops per thread: one pass over the
     * events. */
    bool *has = xcalloc(t->rows.n + 1, sizeof(bool));
    uint32_t *ops = xcalloc(t->rows.n + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (evk_is_gpu(e->kind))
            has[e->row] = true;
        else if (e->kind == EVK_CPU_OP)
            ops[e->row]++;
    }
    struct stream_key *keys = xmalloc((t->rows.n + 1) * sizeof(*keys));
    int n = 0;
    for (uint32_t r = 0; r < t->rows.n; r++)
        if (has[r])
            keys[n++] = (struct stream_key){t->rows.v[r].device, t->rows.v[r].stream, r};
    sort_items(keys, (size_t)n, sizeof(*keys), stream_cmp);
    struct lane *lanes = xcalloc((size_t)n + 1, sizeof(struct lane));
    for (int i = 0; i < n; i++)
        lane_build(&lanes[i], t, keys[i].row, false);
    free(keys);
    free(has);
    /* The CPU lane starts on the thread with the most cpu ops. */
    uint32_t best = 0;
    for (uint32_t r = 0; r < t->rows.n; r++)
        if (ops[r] > ops[best])
            best = r;
    free(ops);
    lane_build(&lanes[n], t, t->rows.n ? best : 0, true);
    *nlanes = n + 1;
    return lanes;
}
