/* The explorer's critical path (tui/trace/critpath_view.h). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/critpath/cp_bounds.h"
#include "core/critpath/cp_frame.h"
#include "core/critpath/cp_whatif.h"
#include "core/critpath/critpath.h"
#include "tui/frame/text.h"
#include "tui/trace/critpath_view.h"

/* An event touched by a path: the time attributed to it (NO_TIME: none,
 * only one of its nodes is on the path). */
#define NO_TIME INT64_MIN
struct cpv_ev {
    uint32_t ev;
    int64_t us;
};

struct critpath_view {
    const struct trace *t;
    bool steps;          /* the regions are ProfilerSteps */
    struct cp_bounds cb; /* the regions' paths summed */
    struct cpv_ev *evs;  /* by ev */
    size_t nevs;
    struct cpv_ev *incl; /* by ev: with what each ran (critpath_view_subtree_us) */
    size_t nincl;
    uint64_t *in_incl; /* bit per trace event: it is in incl (most are not) */
    uint32_t *rank;    /* per word of in_incl: the bits set before it (incl's index) */
    /* The what-if on its thread (critpath_view_whatif_start). */
    pthread_t wi_th;
    bool wi_running;     /* started, not taken */
    _Atomic int wi_done; /* the thread has written wi_after */
    uint32_t wi_name, wi_ev;
    int64_t wi_after;
    struct cpv_span *spans; /* by t0 */
    int64_t max_span;       /* the longest span, ns */
    size_t nspans;
};

static int cpv_ev_cmp(const void *pa, const void *pb)
{
    const struct cpv_ev *a = pa, *b = pb;
    return (a->ev > b->ev) - (a->ev < b->ev);
}

/* Sort by ev and merge the entries of one event, summing their times (an
 * entry of NO_TIME only says the event is there). Returns the count kept. */
static size_t merge_evs(struct cpv_ev *v, size_t n)
{
    if (n)
        qsort(v, n, sizeof(*v), cpv_ev_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        struct cpv_ev x = v[i];
        if (m && v[m - 1].ev == x.ev) {
            struct cpv_ev *last = &v[m - 1];
            if (x.us != NO_TIME)
                last->us = (last->us == NO_TIME ? 0 : last->us) + x.us;
            continue;
        }
        v[m++] = x;
    }
    return m;
}

/* The time attributed to each event summed over its subtree: GPU work's
 * to its launch, each event's to its enclosing ops, in one post-order
 * pass over the call tree (first_child / next_sibling), so that a deep
 * stack costs no more than a flat one. */
static void index_subtrees(struct critpath_view *cv)
{
    const struct trace *t = cv->t;
    size_t nev = t->ev.n;
    int64_t *acc = xcalloc(nev + 1, sizeof(int64_t));
    for (size_t i = 0; i < cv->nevs; i++) {
        int64_t us = cv->evs[i].us;
        uint32_t x = cv->evs[i].ev;
        if (us == NO_TIME || !us)
            continue;
        acc[x] += us;
        const struct gpu_info *gi = ev_gpu(t, x);
        if (gi && gi->launch != IDX_NONE && gi->launch < nev)
            acc[gi->launch] += us;
    }
    /* Children before parents; the steps are bounded, against links that
     * would loop. */
    size_t steps = 0, limit = 4 * nev + 4;
    for (uint32_t root = 0; root < nev && steps < limit; root++) {
        if (t->ev.v[root].parent != IDX_NONE || t->ev.v[root].first_child == IDX_NONE)
            continue;
        uint32_t x = root;
        while (t->ev.v[x].first_child != IDX_NONE && steps++ < limit)
            x = t->ev.v[x].first_child;
        while (x != root && steps++ < limit) {
            uint32_t p = t->ev.v[x].parent;
            if (p == IDX_NONE || p >= nev)
                break;
            acc[p] += acc[x];
            if (t->ev.v[x].next_sibling != IDX_NONE) {
                x = t->ev.v[x].next_sibling;
                while (t->ev.v[x].first_child != IDX_NONE && steps++ < limit)
                    x = t->ev.v[x].first_child;
            } else {
                x = p;
            }
        }
    }
    size_t n = 0;
    for (size_t e = 0; e < nev; e++)
        n += acc[e] != 0;
    cv->incl = xmalloc((n + 1) * sizeof(*cv->incl));
    cv->in_incl = xcalloc(nev / 64 + 1, sizeof(uint64_t));
    for (size_t e = 0; e < nev; e++) {
        if (!acc[e])
            continue;
        cv->incl[cv->nincl++] = (struct cpv_ev){(uint32_t)e, acc[e]};
        cv->in_incl[e / 64] |= (uint64_t)1 << (e % 64);
    }
    free(acc);
    size_t words = nev / 64 + 1;
    cv->rank = xmalloc(words * sizeof(uint32_t));
    uint32_t before = 0;
    for (size_t w = 0; w < words; w++) {
        cv->rank[w] = before;
        before += (uint32_t)__builtin_popcountll(cv->in_incl[w]);
    }
}

/* Node n of g in trace time (ns): its row's event's time, moved by the
 * node's offset in HTA's whole microseconds. */
static int64_t node_ns(const struct critpath_view *cv, const struct cp_frame *f,
                       const struct cp_graph *g, uint32_t n)
{
    const struct cp_node *nd = &g->nodes.v[n];
    const struct cp_row *r = &f->rows.v[nd->row];
    return cv->t->ev.v[r->ev].ts + (nd->ts - r->ts) * 1000;
}

static int span_cmp(const void *pa, const void *pb)
{
    const struct cpv_span *a = pa, *b = pb;
    return (a->t0 > b->t0) - (a->t0 < b->t0);
}

/* Spans and events collected from the regions' paths, one graph at a
 * time (critpath_view_new). */
struct collected {
    VEC(struct cpv_span) spans;
    VEC(struct cpv_ev) evs;
};

/* Take what the explorer keeps of g's path: each edge's span on a lane
 * and the events it touches, with the time attributed to each. */
static void collect_path(struct critpath_view *cv, const struct cp_frame *f,
                         const struct cp_graph *g, struct collected *c)
{
    for (size_t i = 0; i < g->path.n; i++) {
        const struct cp_edge *e = &g->edges.v[g->path.v[i]];
        uint32_t row = e->attr != IDX_NONE ? e->attr : g->nodes.v[e->dst].row;
        int64_t t0 = node_ns(cv, f, g, e->src), t1 = node_ns(cv, f, g, e->dst);
        VEC_PUSH(&c->spans, ((struct cpv_span){MIN(t0, t1), MAX(t0, t1), f->rows.v[row].ev}));
        cv->max_span = MAX(cv->max_span, MAX(t0, t1) - MIN(t0, t1));
        if (e->attr != IDX_NONE)
            VEC_PUSH(&c->evs, ((struct cpv_ev){f->rows.v[e->attr].ev, e->span}));
        VEC_PUSH(&c->evs, ((struct cpv_ev){f->rows.v[g->nodes.v[e->src].row].ev, NO_TIME}));
        VEC_PUSH(&c->evs, ((struct cpv_ev){f->rows.v[g->nodes.v[e->dst].row].ev, NO_TIME}));
    }
}

const struct cpv_span *critpath_view_spans(const struct critpath_view *cv, int64_t from, size_t *n)
{
    /* The first span that starts at from - max_span or later. */
    size_t lo = 0, hi = cv->nspans;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cv->spans[mid].t0 < from - cv->max_span)
            lo = mid + 1;
        else
            hi = mid;
    }
    *n = cv->nspans - lo;
    return cv->spans + lo;
}

/* The regions the explorer shows: each ProfilerStep#N, or the whole trace
 * when there is none (*nsteps 0). Returns the step names (free them). */
static uint32_t *regions(const struct cp_frame *f, size_t *nsteps, size_t *nregions)
{
    uint32_t *steps = cp_frame_step_names(f, nsteps);
    *nregions = *nsteps ? *nsteps : 1;
    return steps;
}

/* Each region's graph is built, read and freed in turn: what the
 * explorer keeps is the paths' events and spans, not the graphs (they
 * take several times the trace's own memory on a large trace); the
 * what-if builds them again. */
struct critpath_view *critpath_view_new(const struct trace *t, char *err)
{
    struct critpath_view *cv = xcalloc(1, sizeof(*cv));
    cv->t = t;
    struct cp_frame *f = cp_frame_new(t);
    size_t nsteps, nregions;
    uint32_t *steps = regions(f, &nsteps, &nregions);
    cv->steps = nsteps > 0;
    err[0] = '\0';
    struct collected c = {0};
    for (size_t k = 0; k < nregions; k++) {
        struct cp_graph *g = critpath_build(f, nsteps ? trace_str(t, steps[k]) : "", 0, err);
        if (!g)
            break;
        cp_bounds_add(&cv->cb, g);
        if (g->ok)
            collect_path(cv, f, g, &c);
        critpath_free(g);
    }
    free(steps);
    cp_frame_free(f);
    cv->spans = c.spans.v;
    cv->nspans = c.spans.n;
    if (cv->nspans)
        qsort(cv->spans, cv->nspans, sizeof(*cv->spans), span_cmp);
    cv->evs = c.evs.v;
    cv->nevs = merge_evs(c.evs.v, c.evs.n);
    if (!cv->cb.regions) {
        if (!err[0])
            snprintf(err, 256, "the critical path's graph has a cycle");
        critpath_view_free(cv);
        return NULL;
    }
    index_subtrees(cv);
    return cv;
}

void critpath_view_free(struct critpath_view *cv)
{
    if (!cv)
        return;
    if (cv->wi_running)
        pthread_join(cv->wi_th, NULL);
    free(cv->evs);
    free(cv->spans);
    free(cv->incl);
    free(cv->in_incl);
    free(cv->rank);
    free(cv);
}

void critpath_view_bound_text(const struct critpath_view *cv, int width, bool ascii, char *out,
                              size_t n)
{
    out[0] = '\0';
    enum cp_bound order[CPB__COUNT];
    int m = cp_bounds_order(&cv->cb, order);
    if (!m || n < 2)
        return;
    const char *sep = ascii ? " / " : " \xc2\xb7 ";
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "bound:");
    size_t kept = 0;
    for (int k = 0; k < m; k++) {
        size_t before = sb.len;
        sb_printf(&sb, "%s%s %.0f %%", k ? sep : " ", cp_bounds_short_name(order[k]),
                  cp_bounds_share(&cv->cb, order[k]));
        if ((int)text_width(sb_str(&sb), sb.len) > width) {
            sb.len = before;
            break;
        }
        kept = sb.len;
    }
    if (kept && kept < n) {
        memcpy(out, sb_str(&sb), kept);
        out[kept] = '\0';
    }
    sb_free(&sb);
}

size_t critpath_view_regions(const struct critpath_view *cv, bool *steps)
{
    *steps = cv->steps;
    return cv->cb.regions;
}

int64_t critpath_view_length(const struct critpath_view *cv)
{
    return cv->cb.length;
}

static const struct cpv_ev *find_ev(const struct critpath_view *cv, uint32_t ev)
{
    struct cpv_ev key = {ev, 0};
    return cv->nevs ? bsearch(&key, cv->evs, cv->nevs, sizeof(key), cpv_ev_cmp) : NULL;
}

int64_t critpath_view_event_us(const struct critpath_view *cv, uint32_t ev)
{
    const struct cpv_ev *x = find_ev(cv, ev);
    return x && x->us != NO_TIME ? x->us : -1;
}

int64_t critpath_view_subtree_us(const struct critpath_view *cv, uint32_t ev)
{
    if (ev >= cv->t->ev.n)
        return 0;
    uint64_t word = cv->in_incl[ev / 64], bit = (uint64_t)1 << (ev % 64);
    if (!(word & bit))
        return 0;
    /* incl is by ev: the event's index is the count of events before it. */
    return cv->incl[cv->rank[ev / 64] + (uint32_t)__builtin_popcountll(word & (bit - 1))].us;
}

bool critpath_view_on_path(const struct critpath_view *cv, uint32_t ev)
{
    return find_ev(cv, ev) != NULL;
}

/* The report's what-if (`--what-if NAME=0.5`, core/critpath/cp_whatif.h)
 * over each region's graph, built again. */
int64_t critpath_view_whatif_half(struct critpath_view *cv, uint32_t name)
{
    const struct trace *t = cv->t;
    struct cp_whatif_rule rule;
    cp_whatif_name_rule(&rule, trace_str(t, name), 0.5);
    struct cp_whatif_set set = {&rule, 1};
    struct cp_frame *f = cp_frame_new(t);
    size_t nsteps, nregions;
    uint32_t *steps = regions(f, &nsteps, &nregions);
    char err[256];
    int64_t total = 0;
    for (size_t k = 0; k < nregions; k++) {
        struct cp_graph *g = critpath_build(f, nsteps ? trace_str(t, steps[k]) : "", 0, err);
        if (!g)
            break;
        if (g->ok) {
            int64_t len = critpath_whatif(g, cp_whatif_factor, &set, NULL, NULL);
            total += len >= 0 ? len : g->length;
        }
        critpath_free(g);
    }
    free(steps);
    cp_frame_free(f);
    cp_whatif_free(&rule);
    return total;
}

static void *whatif_thread(void *arg)
{
    struct critpath_view *cv = arg;
    cv->wi_after = critpath_view_whatif_half(cv, cv->wi_name);
    atomic_store_explicit(&cv->wi_done, 1, memory_order_release);
    return NULL;
}

bool critpath_view_whatif_start(struct critpath_view *cv, uint32_t name, uint32_t ev)
{
    if (cv->wi_running)
        return false;
    cv->wi_name = name;
    cv->wi_ev = ev;
    atomic_store(&cv->wi_done, 0);
    cv->wi_running = true;
    if (pthread_create(&cv->wi_th, NULL, whatif_thread, cv) != 0) {
        cv->wi_running = false;
        cv->wi_after = critpath_view_whatif_half(cv, name);
        atomic_store(&cv->wi_done, 1);
    }
    return true;
}

bool critpath_view_whatif_busy(const struct critpath_view *cv)
{
    return cv->wi_running || atomic_load(&cv->wi_done);
}

bool critpath_view_whatif_take(struct critpath_view *cv, bool wait, int64_t *after, uint32_t *ev)
{
    if (!critpath_view_whatif_busy(cv))
        return false;
    if (!wait && !atomic_load_explicit(&cv->wi_done, memory_order_acquire))
        return false;
    if (cv->wi_running)
        pthread_join(cv->wi_th, NULL);
    cv->wi_running = false;
    atomic_store(&cv->wi_done, 0);
    *after = cv->wi_after;
    *ev = cv->wi_ev;
    return true;
}
