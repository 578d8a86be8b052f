/* Busy intervals per lane, binning into columns, and event lookup. */
#include "config.h"

#include <math.h>
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
    l->evs.n = 0;
    l->row = row;
    l->cpu = cpu;
    l->only_kernels = !cpu;
    const struct row *r = &t->rows.v[row];
    for (uint32_t k = 0; k < r->nevents; k++) {
        uint32_t ev = r->order[k];
        if (!lane_kind_ok(t, ev, cpu))
            continue;
        const struct event *e = &t->ev.v[ev];
        int c = cpu ? LC_CPU : (int)gpuclass_bucket(t, ev);
        VEC_PUSH(&l->iv[c], ((struct ival){e->ts, ev_end(e)}));
        if (!cpu) {
            VEC_PUSH(&l->evs, ev);
            if (e->kind != EVK_KERNEL)
                l->only_kernels = false;
        }
    }
    for (int c = 0; c < LC__COUNT; c++)
        l->iv[c].n = ival_normalize(l->iv[c].v, l->iv[c].n);
}

void lane_free(struct lane *l)
{
    for (int c = 0; c < LC__COUNT; c++)
        VEC_FREE(&l->iv[c]);
    VEC_FREE(&l->evs);
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

/* Columns of a view for lane_bars: times relative to t0 (see lane_bins). */
struct cols {
    int64_t t0;
    double cns; /* ns per column */
    int n;
};

/* The column of time x: may be < 0 or >= n. */
static double col_at(const struct cols *c, int64_t x)
{
    return (double)(x - c->t0) / c->cns;
}

/* The first of the lane's events (from index lo) starting in a column
 * after `col`, i.e. at or past its right edge. */
static size_t first_past_col(const struct lane *l, const struct trace *t, const struct cols *c,
                             size_t lo, int col)
{
    size_t hi = l->evs.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (col_at(c, t->ev.v[l->evs.v[mid]].ts) < col + 1)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* What lane_bars knows of a column. */
struct bar_col {
    uint32_t own;  /* the event covering more than half of it, else IDX_NONE */
    uint32_t last; /* the last event seen touching it */
    uint8_t touch; /* events touching it, up to 2 (2: several) */
};

/* Pass 1 of lane_bars: the events touching each column, and its owner. */
static void bar_columns(const struct lane *l, const struct trace *t, const struct cols *c,
                        int64_t t1, struct bar_col *bc)
{
    /* From the last event starting by t0 (on a stream, the one that may
     * cover t0). */
    size_t i = first_past_col(l, t, c, 0, -1);
    if (i > 0 && ev_end(&t->ev.v[l->evs.v[i - 1]]) > c->t0)
        i--;
    int col_seen = -1, in_col = 0;
    while (i < l->evs.n) {
        const struct event *e = &t->ev.v[l->evs.v[i]];
        if (e->ts >= t1)
            break;
        double a = col_at(c, MAX(e->ts, c->t0)), b = col_at(c, MIN(ev_end(e), t1));
        int ca = MIN((int)a, c->n - 1);
        int cb = b > a ? MIN((int)ceil(b) - 1, c->n - 1) : ca;
        for (int col = MAX(ca, 0); col <= cb; col++) {
            bc[col].last = l->evs.v[i];
            bc[col].touch = (uint8_t)MIN(bc[col].touch + 1, 2);
            if ((MIN(b, col + 1.0) - MAX(a, (double)col)) * 2 > 1)
                bc[col].own = l->evs.v[i];
        }
        /* The fourth event starting in one column: on to the last one
         * starting there, the one that may reach into the next columns. */
        in_col = ca == col_seen ? in_col + 1 : 0;
        col_seen = ca;
        size_t next = i + 1;
        if (in_col == 3) {
            size_t past = first_past_col(l, t, c, next, ca);
            if (past - 1 > i)
                next = past - 1;
        }
        i = next;
    }
    /* An edge column of an event's bar that nothing else touches is the
     * event's too: one event, one bar. */
    for (int col = 0; col < c->n; col++) {
        struct bar_col *x = &bc[col];
        if (x->own == IDX_NONE && x->touch == 1 &&
            ((col > 0 && bc[col - 1].own == x->last) ||
             (col + 1 < c->n && bc[col + 1].own == x->last)))
            x->own = x->last;
    }
}

void lane_bars(const struct lane *l, const struct trace *t, int64_t t0, int64_t t1, int ncols,
               uint32_t mark, lane_bars_t *out)
{
    out->n = 0;
    if (l->cpu || ncols <= 0 || t1 <= t0 || l->evs.n == 0)
        return;
    struct cols c = {t0, (double)(t1 - t0) / ncols, ncols};
    struct bar_col *bc = xmalloc((size_t)ncols * sizeof(*bc));
    for (int col = 0; col < ncols; col++)
        bc[col] = (struct bar_col){IDX_NONE, IDX_NONE, 0};
    bar_columns(l, t, &c, t1, bc);
    for (int col = 0; col < ncols;) {
        if (!bc[col].touch) {
            col++;
            continue;
        }
        struct lane_bar *b = VEC_ADD(out);
        b->c0 = col;
        if (bc[col].own != IDX_NONE) {
            while (col + 1 < ncols && bc[col + 1].own == bc[col].own)
                col++;
            b->c1 = col++;
            b->n = 1;
            b->ev = bc[b->c0].own;
            continue;
        }
        while (col + 1 < ncols && bc[col + 1].touch && bc[col + 1].own == IDX_NONE)
            col++;
        b->c1 = col++;
        /* Held: the events starting in its columns but the one going on to
         * own the next column, and one from before reaching in that owns
         * no column before it. */
        size_t lo = first_past_col(l, t, &c, 0, b->c0 - 1);
        size_t hi = first_past_col(l, t, &c, lo, b->c1);
        size_t n = hi - lo;
        if (n && b->c1 + 1 < ncols && bc[b->c1 + 1].own == l->evs.v[hi - 1])
            n--;
        b->ev = lo < l->evs.n ? l->evs.v[lo] : IDX_NONE;
        if (lo > 0) {
            uint32_t prev = l->evs.v[lo - 1];
            if (ev_end(&t->ev.v[prev]) > t0 + (int64_t)(b->c0 * c.cns) &&
                (b->c0 == 0 || bc[b->c0 - 1].own != prev)) {
                n++;
                b->ev = prev;
            }
        }
        if (n == 0) /* only reached into by events counted elsewhere */
            b->ev = bc[b->c0].last;
        b->n = (uint32_t)MAX(n, (size_t)1);
    }
    free(bc);
    if (mark == IDX_NONE || !lane_has_event(l, t, mark))
        return;
    const struct event *m = &t->ev.v[mark];
    if (m->ts >= t1 || ev_end(m) < t0)
        return;
    int m0 = MAX((int)col_at(&c, MAX(m->ts, t0)), 0);
    int m1 = MIN((int)col_at(&c, MIN(ev_end(m), t1)), ncols - 1);
    /* Its own bar, else the merged bar it falls in, else the first it
     * touches. */
    struct lane_bar *own_bar = NULL, *merged = NULL, *first = NULL;
    for (size_t k = 0; k < out->n; k++) {
        struct lane_bar *b = &out->v[k];
        if (b->c1 < m0 || b->c0 > m1)
            continue;
        if (b->ev == mark && b->n == 1 && !own_bar)
            own_bar = b;
        if (b->n > 1 && !merged)
            merged = b;
        if (!first)
            first = b;
    }
    struct lane_bar *b = own_bar ? own_bar : merged ? merged : first;
    if (b)
        b->marked = true;
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
    int32_t device;
    int64_t stream;
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

int lanes_cpu_threads(const struct trace *t)
{
    /* A thread's first cpu op is usually among its first events: each
     * host row is read up to it. */
    int n = 0;
    for (uint32_t r = 0; r < t->rows.n; r++) {
        const struct row *row = &t->rows.v[r];
        if (row->cls != ROW_HOST)
            continue;
        for (uint32_t k = 0; k < row->nevents; k++)
            if (t->ev.v[row->order[k]].kind == EVK_CPU_OP) {
                n++;
                break;
            }
    }
    return n;
}
