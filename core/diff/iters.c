/* Which events HTA's TraceDiff counts, on which side, in which iteration
 * (iters.h). */
#include "config.h"

#include "core/diff/iters.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "core/trace/argpack.h"

/* A step span as found in the file. */
struct step_span {
    int64_t ts, end;
    int64_t num;
    uint32_t order; /* file order among the steps */
};

/* HTA's re.match(r"ProfilerStep\s*#\s*(\d+)", name): the step number of a
 * name, false when the name is not a step. */
static bool step_number(const char *s, int64_t *num)
{
    static const char pre[] = "ProfilerStep";
    if (strncmp(s, pre, sizeof(pre) - 1) != 0)
        return false;
    s += sizeof(pre) - 1;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
        s++;
    if (*s++ != '#')
        return false;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
        s++;
    if (*s < '0' || *s > '9')
        return false;
    int64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (INT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (*s - '0');
    }
    *num = v;
    return true;
}

/* A numeric arg of event ev under key id kid (IDX_NONE: a key no event
 * has), or dflt when absent or not a number. The key is looked up once per
 * trace, not once per event. */
static int64_t arg_int(const struct trace *t, uint32_t ev, uint32_t kid, int64_t dflt)
{
    struct argiter it;
    struct argval a;
    int64_t v;
    if (kid == IDX_NONE)
        return dflt;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a))
        if (a.key == kid)
            return argpack_val_int(t, &a, &v) ? v : dflt;
    return dflt;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The boundaries of all step spans cut time into segments; each segment's
 * step is the last one in file order covering it, so that an event's step
 * is one binary search away however the spans overlap. */
struct segmap {
    int64_t *at;   /* nb boundaries, ascending */
    int32_t *step; /* per segment [at[k], at[k+1]): index into nums, -1 */
    size_t nb;
};

static void segmap_build(struct segmap *m, const struct step_span *sp, size_t n,
                         const struct iters *it)
{
    m->at = xmalloc((2 * n + 1) * sizeof(*m->at));
    m->nb = 0;
    for (size_t i = 0; i < n; i++) {
        m->at[m->nb++] = sp[i].ts;
        m->at[m->nb++] = sp[i].end;
    }
    sort_items(m->at, m->nb, sizeof(*m->at), cmp_i64);
    size_t u = 0;
    for (size_t i = 0; i < m->nb; i++)
        if (u == 0 || m->at[u - 1] != m->at[i])
            m->at[u++] = m->at[i];
    m->nb = u;
    m->step = xmalloc((m->nb + 1) * sizeof(*m->step));
    int64_t *order = xmalloc((m->nb + 1) * sizeof(*order));
    for (size_t k = 0; k < m->nb; k++) {
        m->step[k] = -1;
        order[k] = -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (sp[i].end <= sp[i].ts)
            continue; /* an empty span holds no start */
        for (size_t k = 0; k + 1 < m->nb; k++) {
            if (m->at[k] < sp[i].ts || m->at[k] >= sp[i].end)
                continue;
            if ((int64_t)sp[i].order > order[k]) {
                order[k] = sp[i].order;
                m->step[k] = iters_find(it, sp[i].num);
            }
        }
    }
    free(order);
}

/* The step of a start time: the segment holding ts. */
static int32_t segmap_at(const struct segmap *m, int64_t ts)
{
    if (m->nb < 2 || ts < m->at[0] || ts >= m->at[m->nb - 1])
        return -1;
    size_t lo = 0, hi = m->nb - 1; /* at[lo] <= ts < at[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->at[mid] <= ts)
            lo = mid;
        else
            hi = mid;
    }
    return m->step[lo];
}

void iters_assign(const struct trace *t, struct iters *out)
{
    memset(out, 0, sizeof(*out));
    size_t nev = t->ev.n;
    out->side = xcalloc(nev ? nev : 1, sizeof(*out->side));
    out->of_ev = xmalloc((nev ? nev : 1) * sizeof(*out->of_ev));
    uint32_t trace_cat = strtab_find(&t->strs, "Trace", 5);
    uint32_t k_stream = strtab_find(&t->strs, "stream", 6);
    uint32_t k_corr = strtab_find(&t->strs, "correlation", 11);
    VEC(struct step_span) spans = {0};
    for (uint32_t i = 0; i < nev; i++) {
        const struct event *e = trace_ev(t, i);
        out->of_ev[i] = -1;
        /* "cat" absent and "cat": "" are one here: the loader keeps no
         * difference, and an empty category is not written by Kineto. */
        if (e->ph != 'X' || e->cat == 0 || e->cat == trace_cat)
            continue;
        out->side[i] = arg_int(t, i, k_stream, -1) == -1 ? ITERS_CPU : ITERS_GPU;
        int64_t num;
        if (step_number(ev_name(t, i), &num)) {
            struct step_span s = {e->ts, ev_end(e), num, (uint32_t)spans.n};
            VEC_PUSH(&spans, s);
        }
    }
    /* Step numbers, ascending and unique. */
    out->nums = xmalloc((spans.n ? spans.n : 1) * sizeof(*out->nums));
    for (size_t i = 0; i < spans.n; i++)
        out->nums[i] = spans.v[i].num;
    sort_items(out->nums, spans.n, sizeof(*out->nums), cmp_i64);
    for (size_t i = 0; i < spans.n; i++)
        if (out->n == 0 || out->nums[out->n - 1] != out->nums[i])
            out->nums[out->n++] = out->nums[i];

    struct segmap m;
    segmap_build(&m, spans.v, spans.n, out);
    /* CPU side by start time; the last CPU-side event of each correlation
     * id is the one a GPU event takes its iteration from (HTA's merge
     * keeps the last match). */
    struct hmap corr = {0};
    uint32_t cpu_op = strtab_find(&t->strs, "cpu_op", 6);
    for (uint32_t i = 0; i < nev; i++) {
        if (out->side[i] == ITERS_NONE)
            continue;
        const struct event *e = trace_ev(t, i);
        if (out->side[i] == ITERS_CPU || e->cat == cpu_op)
            out->of_ev[i] = segmap_at(&m, e->ts);
        if (out->side[i] == ITERS_CPU) {
            int64_t c = arg_int(t, i, k_corr, -1);
            if (c != -1)
                hmap_put(&corr, (uint64_t)c, i);
        }
    }
    for (uint32_t i = 0; i < nev; i++) {
        if (out->side[i] != ITERS_GPU || trace_ev(t, i)->cat == cpu_op)
            continue;
        int64_t c = arg_int(t, i, k_corr, -1);
        uint32_t cpu = c == -1 ? IDX_NONE : hmap_get(&corr, (uint64_t)c);
        out->of_ev[i] = cpu == IDX_NONE ? -1 : out->of_ev[cpu];
    }
    hmap_free(&corr);
    free(m.at);
    free(m.step);
    VEC_FREE(&spans);
}

void iters_free(struct iters *it)
{
    free(it->nums);
    free(it->side);
    free(it->of_ev);
    memset(it, 0, sizeof(*it));
}

int32_t iters_find(const struct iters *it, int64_t num)
{
    size_t lo = 0, hi = it->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (it->nums[mid] < num)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < it->n && it->nums[lo] == num ? (int32_t)lo : -1;
}
