/* Counter tracks (ctracks.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/ctracks.h"
#include "core/trace/steps.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/trace/argpack.h"

static inline bool pt_before(const struct ctrack_point *a, const struct ctrack_point *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(pt_sort, struct ctrack_point, pt_before)

/* A sample while building: its series and its point. */
struct sample {
    uint32_t s;
    struct ctrack_point p;
};

struct ctracks *ctracks_build(const struct trace *t)
{
    struct ctracks *c = xcalloc(1, sizeof(*c));
    VEC(struct ctrack_series) series = {0};
    VEC(uint32_t) next = {0}; /* per series: the next one with its name and key, IDX_NONE */
    VEC(struct sample) smp = {0};
    struct hmap by_name_key = {0}; /* name << 32 | key -> first series with them */
    for (uint32_t i = 0; t->n_by_kind[EVK_COUNTER] && i < t->ev.n; i++) {
        const struct event *e = trace_ev(t, i);
        if (e->kind != EVK_COUNTER)
            continue;
        struct argiter it;
        struct argval a;
        argpack_iter_init(&it, t, i);
        while (argpack_iter_next(&it, &a)) {
            double v;
            if (a.type == ARG_INT)
                v = (double)a.v.i;
            else if (a.type == ARG_UINT)
                v = (double)a.v.u;
            else if (a.type == ARG_DOUBLE && isfinite(a.v.d))
                v = a.v.d;
            else
                continue; /* not a value: Perfetto draws numbers only */
            uint64_t nk = (uint64_t)e->name << 32 | a.key;
            uint32_t s = hmap_get(&by_name_key, nk), last = IDX_NONE;
            while (s != IDX_NONE && series.v[s].row != e->row) {
                last = s;
                s = next.v[s];
            }
            if (s == IDX_NONE) {
                s = (uint32_t)series.n;
                *VEC_ADD(&series) =
                    (struct ctrack_series){e->name, a.key, e->row, 0, 0, v, v, false};
                VEC_PUSH(&next, IDX_NONE);
                if (last == IDX_NONE)
                    hmap_put(&by_name_key, nk, s);
                else
                    next.v[last] = s;
            }
            struct ctrack_series *sr = &series.v[s];
            sr->n++;
            sr->min = v < sr->min ? v : sr->min;
            sr->max = v > sr->max ? v : sr->max;
            *VEC_ADD(&smp) = (struct sample){s, {e->ts, v}};
        }
    }
    hmap_free(&by_name_key);
    VEC_FREE(&next);
    /* Points grouped by series (file order kept), then each in time order:
     * the sort is stable, so samples at one time keep their file order. */
    uint32_t at = 0;
    for (size_t s = 0; s < series.n; s++) {
        series.v[s].first = at;
        at += series.v[s].n;
    }
    c->pts = xmalloc((smp.n + 1) * sizeof(*c->pts));
    uint32_t *fill = xmalloc((series.n + 1) * sizeof(*fill));
    for (size_t s = 0; s < series.n; s++)
        fill[s] = series.v[s].first;
    for (size_t k = 0; k < smp.n; k++)
        c->pts[fill[smp.v[k].s]++] = smp.v[k].p;
    free(fill);
    for (size_t s = 0; s < series.n; s++)
        pt_sort(c->pts + series.v[s].first, series.v[s].n);
    c->npts = smp.n;
    VEC_FREE(&smp);
    c->s = series.v;
    c->ns = series.n;
    return c;
}

void ctracks_add_series(struct ctracks *c, const char *label, const struct ctrack_point *pts,
                        size_t n, bool bytes)
{
    struct ctrack_series sr = {IDX_NONE,    IDX_NONE, IDX_NONE, (uint32_t)c->npts,
                               (uint32_t)n, 0,        0,        bytes};
    for (size_t k = 0; k < n; k++) {
        sr.min = k == 0 || pts[k].v < sr.min ? pts[k].v : sr.min;
        sr.max = k == 0 || pts[k].v > sr.max ? pts[k].v : sr.max;
    }
    c->pts = xreallocarray(c->pts, c->npts + n + 1, sizeof(*c->pts));
    memcpy(c->pts + c->npts, pts, n * sizeof(*pts));
    c->npts += n;
    c->s = xreallocarray(c->s, c->ns + 1, sizeof(*c->s));
    if (!c->labels) /* the series so far are labelled from the trace */
        c->labels = xcalloc(c->ns + 1, sizeof(*c->labels));
    else
        c->labels = xreallocarray(c->labels, c->ns + 1, sizeof(*c->labels));
    c->s[c->ns] = sr;
    c->labels[c->ns] = xstrdup(label);
    c->ns++;
}

void ctracks_free(struct ctracks *c)
{
    if (!c)
        return;
    for (size_t s = 0; c->labels && s < c->ns; s++)
        free(c->labels[s]);
    free(c->labels);
    free(c->s);
    free(c->pts);
    free(c);
}

uint32_t ctracks_at(const struct ctracks *c, size_t s, int64_t ts)
{
    const struct ctrack_series *sr = &c->s[s];
    /* The first point after ts; the one before it holds. */
    size_t lo = 0, hi = sr->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->pts[sr->first + mid].ts <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? sr->first + (uint32_t)lo - 1 : IDX_NONE;
}

void ctracks_stats(const struct ctracks *c, size_t s, int64_t from, int64_t to, bool closed,
                   struct ctrack_stats *out)
{
    *out = (struct ctrack_stats){0, NAN, NAN, NAN};
    const struct ctrack_series *sr = &c->s[s];
    const struct ctrack_point *p = c->pts + sr->first;
    /* From the last sample before `from` (carried in), so that samples
     * at `from` itself are all seen. */
    uint32_t k = from > INT64_MIN ? ctracks_at(c, s, from - 1) : IDX_NONE;
    size_t i = k == IDX_NONE ? 0 : k - sr->first;
    double sum = 0, dur = 0;
    /* Each sample from the one carried in at `from` holds until the next
     * later sample, or the end of the range. */
    for (; i < sr->n && (p[i].ts < to || (closed && p[i].ts == to)); i++) {
        if (p[i].ts >= from)
            out->samples++;
        int64_t a = p[i].ts > from ? p[i].ts : from;
        int64_t b = i + 1 < sr->n && p[i + 1].ts < to ? p[i + 1].ts : to;
        if (b <= a)
            continue; /* superseded at its own time */
        double v = p[i].v;
        if (isnan(out->min) || v < out->min)
            out->min = v;
        if (isnan(out->max) || v > out->max)
            out->max = v;
        sum += v * (double)(b - a);
        dur += (double)(b - a);
    }
    if (dur > 0)
        out->mean = sum / dur;
}

void ctracks_columns(const struct ctracks *c, size_t s, int64_t t0, int64_t t1, int ncols,
                     float *out)
{
    const struct ctrack_series *sr = &c->s[s];
    const struct ctrack_point *p = c->pts + sr->first;
    for (int col = 0; col < ncols; col++)
        out[col] = NAN;
    if (ncols <= 0 || t1 <= t0)
        return;
    double cns = (double)(t1 - t0) / ncols;
    uint32_t k = t0 > INT64_MIN ? ctracks_at(c, s, t0 - 1) : IDX_NONE;
    size_t i = k == IDX_NONE ? 0 : k - sr->first;
    /* Each sample holds [a, b): it shows in the columns it overlaps. */
    for (; i < sr->n && p[i].ts < t1; i++) {
        int64_t a = p[i].ts > t0 ? p[i].ts : t0;
        int64_t b = i + 1 < sr->n && p[i + 1].ts < t1 ? p[i + 1].ts : t1;
        if (b <= a)
            continue;
        int c0 = (int)((double)(a - t0) / cns), c1 = (int)((double)(b - 1 - t0) / cns);
        c0 = c0 < 0 ? 0 : c0;
        c1 = c1 >= ncols ? ncols - 1 : c1;
        float v = (float)p[i].v;
        for (int col = c0; col <= c1; col++)
            if (isnan(out[col]) || v > out[col])
                out[col] = v;
    }
}

const char *ctracks_label(const struct trace *t, const struct ctracks *c, size_t s, char *buf,
                          size_t n)
{
    const struct ctrack_series *sr = &c->s[s];
    if (c->labels && c->labels[s]) {
        snprintf(buf, n, "%s", c->labels[s]);
        return buf;
    }
    bool alone = true;
    for (size_t o = 0; o < c->ns && alone; o++)
        alone = o == s || c->s[o].name != sr->name || c->s[o].row != sr->row;
    if (alone || sr->key == sr->name)
        snprintf(buf, n, "%s", trace_str(t, sr->name));
    else
        snprintf(buf, n, "%s: %s", trace_str(t, sr->name), trace_str(t, sr->key));
    return buf;
}

enum { T_SERIES, T_PID, T_STEP, T_SAMPLES, T_MIN, T_MEAN, T_MAX, T__N };

bool ctracks_tables(const struct trace *t, struct table_list *out, char *err)
{
    if (!t->n_by_kind[EVK_COUNTER]) {
        snprintf(err, 256, "the trace has no counter (ph \"C\") events");
        return false;
    }
    static const struct table_col cols[T__N] = {
        [T_SERIES] = {"series", "series", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        [T_PID] = {"pid", "pid", COL_TEXT, 0, COLF_ASC},
        [T_STEP] = {"step", "step", COL_TEXT, 0, COLF_ASC},
        [T_SAMPLES] = {"samples", "samples", COL_INT, 0, 0},
        [T_MIN] = {"min", "min", COL_FLOAT, 4, 0},
        [T_MEAN] = {"mean", "mean", COL_FLOAT, 4, 0},
        [T_MAX] = {"max", "max", COL_FLOAT, 4, 0},
    };
    struct table *tab = table_new("counter_tracks",
                                  "Counter tracks: each series' values per step (time-weighted "
                                  "mean)",
                                  cols, T__N);
    tab->whole = true;
    struct ctracks *c = ctracks_build(t);
    size_t nsteps;
    struct step_span *steps = steps_spans(t, &nsteps);
    char label[512];
    for (size_t s = 0; s < c->ns; s++) {
        const struct row *row = &t->rows.v[c->s[s].row];
        /* Each step, then the whole trace (the series' time outside the
         * steps too). */
        for (size_t k = 0; k <= nsteps; k++) {
            bool whole = k == nsteps;
            int64_t from = whole ? t->t_start : steps[k].ts;
            int64_t to = whole ? t->t_end : steps[k].end;
            if (whole && c->s[s].n) {
                /* the whole trace holds every sample, its last included */
                const struct ctrack_point *p = c->pts + c->s[s].first;
                from = p[0].ts < from ? p[0].ts : from;
                to = p[c->s[s].n - 1].ts > to ? p[c->s[s].n - 1].ts : to;
            }
            struct ctrack_stats st;
            ctracks_stats(c, s, from, to, whole, &st);
            size_t r = table_add_row(tab);
            table_set_text(tab, r, T_SERIES, ctracks_label(t, c, s, label, sizeof(label)));
            table_set_text(tab, r, T_PID, trace_str(t, row->pid_str));
            table_set_text(tab, r, T_STEP, whole ? "whole trace" : ev_name(t, steps[k].ev));
            table_set_int(tab, r, T_SAMPLES, st.samples);
            table_set_float(tab, r, T_MIN, st.min);
            table_set_float(tab, r, T_MEAN, st.mean);
            table_set_float(tab, r, T_MAX, st.max);
        }
    }
    if (!c->ns)
        table_add_note(tab, "the counter events carry no numeric value");
    free(steps);
    ctracks_free(c);
    table_list_add(out, tab);
    return true;
}
