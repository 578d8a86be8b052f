/* Graph replays grouped per graph: the "graphs" and "graph_nodes" tables. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wide.h"
#include "core/analysis/graphs.h"
#include "core/analysis/kerncat.h"
#include "core/analysis/kernstats.h"
#include "core/base/sort.h"
#include "core/trace/argpack.h"

/* One replayed GPU event, in the order that numbers node positions. */
struct gnode {
    int64_t key; /* "graph node id", else the start */
    int64_t ts;
    uint32_t ev;
};

static inline bool gnode_less(const struct gnode *a, const struct gnode *b)
{
    return a->key != b->key ? a->key < b->key : a->ts < b->ts;
}

SORT_DEFINE(gnode_sort, struct gnode, gnode_less)

/* Per node position: its statistics over the replays. */
struct gpos {
    uint32_t ev; /* the event in the first replay */
    uint32_t n;
    VEC(uint32_t) evs; /* the event in each replay (the row's instances) */
    int64_t sum, min, max;
};

struct ggroup {
    bool by_id;       /* keyed by "graph id" */
    int64_t id;       /* the graph id, or the group's ordinal */
    uint64_t hash;    /* of the kernel-name sequence */
    uint32_t first;   /* first launch */
    uint32_t nnodes;  /* GPU events of the first replay */
    uint32_t *names;  /* their name ids (sequence grouping) */
    struct gpos *pos; /* nnodes */
    uint32_t replays;
    int64_t sum, min, max;  /* time per replay: sum of its events' durations */
    VEC(uint32_t) launches; /* every replay's graph launch (the row's instances) */
};

bool graphs_is_launch(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    if (!evk_is_launch(e->kind) || e->aux == IDX_NONE)
        return false;
    const struct launch_info *li = &t->launches.v[e->aux];
    for (uint32_t k = 0; k < li->gpu_count; k++)
        if (t->ev.v[t->launch_gpu[li->gpu_first + k]].flags & EVF_GRAPH)
            return true;
    return false;
}

bool graphs_share(const struct trace *t, struct graph_share *out)
{
    memset(out, 0, sizeof(*out));
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (graphs_is_launch(t, i))
            out->launches++;
        if (!evk_is_gpu(e->kind))
            continue;
        out->gpu_ns = wide_add_sat(out->gpu_ns, e->dur);
        if (!(e->flags & EVF_GRAPH))
            continue;
        out->kernels++;
        out->ns = wide_add_sat(out->ns, e->dur);
    }
    return out->kernels > 0;
}

bool graphs_by_category(const struct trace *t, int64_t ns[], size_t n)
{
    bool any = false;
    memset(ns, 0, n * sizeof(ns[0]));
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_gpu(e->kind) || !(e->flags & EVF_GRAPH))
            continue;
        size_t c = kerncat_classify(e->kind, ev_name(t, i));
        if (c < n)
            ns[c] = wide_add_sat(ns[c], e->dur);
        any = true;
    }
    return any;
}

static int64_t arg_int(const struct trace *t, uint32_t ev, const char *key, int64_t dflt)
{
    struct argval a;
    int64_t v;
    if (argpack_find(t, ev, key, &a) && argpack_val_int(t, &a, &v))
        return v;
    return dflt;
}

/* The launch's GPU events in node order; *n of them (caller frees). */
static struct gnode *replay_nodes(const struct trace *t, uint32_t launch, uint32_t *n)
{
    const struct launch_info *li = &t->launches.v[t->ev.v[launch].aux];
    struct gnode *v = xmalloc((li->gpu_count + 1) * sizeof(*v));
    for (uint32_t k = 0; k < li->gpu_count; k++) {
        uint32_t g = t->launch_gpu[li->gpu_first + k];
        v[k] = (struct gnode){arg_int(t, g, "graph node id", 0), t->ev.v[g].ts, g};
    }
    gnode_sort(v, li->gpu_count);
    *n = li->gpu_count;
    return v;
}

static uint64_t names_hash(const struct trace *t, const struct gnode *v, uint32_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t k = 0; k < n; k++)
        h = (h ^ t->ev.v[v[k].ev].name) * 1099511628211ull;
    return h ^ n;
}

static struct ggroup *find_group(const struct trace *t, struct ggroup *gs, size_t ngs, bool by_id,
                                 int64_t id, uint64_t hash, const struct gnode *v, uint32_t n)
{
    for (size_t g = 0; g < ngs; g++) {
        struct ggroup *G = &gs[g];
        if (G->by_id != by_id)
            continue;
        if (by_id) {
            if (G->id == id)
                return G;
            continue;
        }
        if (G->hash != hash || G->nnodes != n)
            continue;
        uint32_t k = 0;
        while (k < n && G->names[k] == t->ev.v[v[k].ev].name)
            k++;
        if (k == n)
            return G;
    }
    return NULL;
}

enum {
    GR_GRAPH,
    GR_LAUNCH,
    GR_REPLAYS,
    GR_NODES,
    GR_MEAN,
    GR_MIN,
    GR_MAX,
    GR_TOTAL,
    GR_PCT,
    GR__N
};
enum {
    GN_GRAPH,
    GN_NODE,
    GN_KERNEL,
    GN_CAT,
    GN_COUNT,
    GN_MEAN,
    GN_MIN,
    GN_MAX,
    GN_SUM,
    GN_PCT,
    GN__N
};

static void group_label(const struct ggroup *G, char *buf, size_t n)
{
    if (G->by_id)
        snprintf(buf, n, "id %lld", (long long)G->id);
    else
        snprintf(buf, n, "#%lld", (long long)G->id);
}

static void emit(const struct trace *t, struct ggroup *gs, size_t ngs, int64_t gpu_ns,
                 struct table_list *out)
{
    static const struct table_col gcols[GR__N] = {
        [GR_GRAPH] = {"graph", "graph", COL_TEXT, 0, COLF_ASC | COLF_NAME},
        [GR_LAUNCH] = {"launch", "launch", COL_TEXT, 0, COLF_ASC},
        [GR_REPLAYS] = {"replays", "replays", COL_INT, 0, 0},
        [GR_NODES] = {"kernels_per_replay", "kernels", COL_INT, 0, 0},
        [GR_MEAN] = {"replay_time_mean_us", "mean µs", COL_FLOAT, 3, 0},
        [GR_MIN] = {"replay_time_min_us", "min µs", COL_FLOAT, 3, 0},
        [GR_MAX] = {"replay_time_max_us", "max µs", COL_FLOAT, 3, 0},
        [GR_TOTAL] = {"total_time_ms", "total ms", COL_FLOAT, 3, 0},
        [GR_PCT] = {"gpu_time_pct", "% GPU", COL_PERCENT, 2, 0},
    };
    static const struct table_col ncols[GN__N] = {
        [GN_GRAPH] = {"graph", "graph", COL_TEXT, 0, COLF_ASC},
        [GN_NODE] = {"node", "node", COL_INT, 0, COLF_ASC},
        [GN_KERNEL] = {"kernel", "kernel", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        [GN_CAT] = {"category", "category", COL_TEXT, 0, COLF_ASC},
        [GN_COUNT] = {"replays", "replays", COL_INT, 0, 0},
        [GN_MEAN] = {"time_mean_us", "mean µs", COL_FLOAT, 3, 0},
        [GN_MIN] = {"time_min_us", "min µs", COL_FLOAT, 3, 0},
        [GN_MAX] = {"time_max_us", "max µs", COL_FLOAT, 3, 0},
        [GN_SUM] = {"time_sum_us", "sum µs", COL_FLOAT, 3, COLF_DETAIL},
        [GN_PCT] = {"graph_time_pct", "% graph", COL_PERCENT, 2, 0},
    };
    struct table *tg = table_new("graphs", "GPU graph replays per graph", gcols, GR__N);
    struct table *tn =
        table_new("graph_nodes", "GPU graph replays per graph node position", ncols, GN__N);
    tg->whole = true;
    /* Instances (the explorer's Enter): a graph's launches, a node
     * position's event in each replay. */
    VEC(uint32_t) gi = {0}, ni = {0};
    uint32_t *gfirst = xmalloc((ngs + 2) * sizeof(uint32_t));
    size_t nrows = 0;
    for (size_t g = 0; g < ngs; g++)
        nrows += gs[g].nnodes;
    uint32_t *nfirst = xmalloc((nrows + 2) * sizeof(uint32_t));
    size_t nq = 0;
    char label[48];
    for (size_t g = 0; g < ngs; g++) {
        const struct ggroup *G = &gs[g];
        group_label(G, label, sizeof(label));
        size_t r = table_add_row(tg);
        table_set_text(tg, r, GR_GRAPH, label);
        table_set_text(tg, r, GR_LAUNCH, ev_name(t, G->first));
        table_set_int(tg, r, GR_REPLAYS, G->replays);
        table_set_int(tg, r, GR_NODES, G->nnodes);
        table_set_float(tg, r, GR_MEAN, (double)G->sum / G->replays / 1e3);
        table_set_float(tg, r, GR_MIN, (double)G->min / 1e3);
        table_set_float(tg, r, GR_MAX, (double)G->max / 1e3);
        table_set_float(tg, r, GR_TOTAL, (double)G->sum / 1e6);
        table_set_float(tg, r, GR_PCT, gpu_ns > 0 ? 100.0 * (double)G->sum / (double)gpu_ns : 0);
        table_set_ref(tg, r, G->first);
        gfirst[r] = (uint32_t)gi.n;
        VEC_APPEND(&gi, G->launches.v, G->launches.n);
        for (uint32_t k = 0; k < G->nnodes; k++) {
            const struct gpos *p = &G->pos[k];
            nfirst[nq++] = (uint32_t)ni.n;
            VEC_APPEND(&ni, p->evs.v, p->evs.n);
            const struct event *e = &t->ev.v[p->ev];
            size_t q = table_add_row(tn);
            char *kname = kernstats_display_name(ev_name(t, p->ev));
            table_set_text(tn, q, GN_GRAPH, label);
            table_set_int(tn, q, GN_NODE, k);
            table_set_text(tn, q, GN_KERNEL, kname);
            free(kname);
            table_set_text(tn, q, GN_CAT,
                           kerncat_name(kerncat_classify(e->kind, ev_name(t, p->ev))));
            table_set_int(tn, q, GN_COUNT, p->n);
            table_set_float(tn, q, GN_MEAN, p->n ? (double)p->sum / p->n / 1e3 : NAN);
            table_set_float(tn, q, GN_MIN, p->n ? (double)p->min / 1e3 : NAN);
            table_set_float(tn, q, GN_MAX, p->n ? (double)p->max / 1e3 : NAN);
            table_set_float(tn, q, GN_SUM, (double)p->sum / 1e3);
            table_set_float(tn, q, GN_PCT,
                            G->sum > 0 ? 100.0 * (double)p->sum / (double)G->sum : 0);
            table_set_ref(tn, q, p->ev);
        }
    }
    gfirst[ngs] = (uint32_t)gi.n;
    nfirst[nq] = (uint32_t)ni.n;
    VEC_RESERVE(&gi, 1);
    VEC_RESERVE(&ni, 1);
    table_set_instances(tg, gfirst, gi.v);
    table_set_instances(tn, nfirst, ni.v);
    table_add_note(tg,
                   "graphs are keyed by \"graph id\" where the kernels carry it (id N), else by "
                   "the kernel-name sequence of the launch (#N); time per replay is the sum of "
                   "its GPU events' durations");
    table_list_add(out, tg);
    table_list_add(out, tn);
}

bool graphs_tables(const struct trace *t, struct table_list *out, char *err)
{
    VEC(struct ggroup) gs = {0};
    int64_t ordinal = 0, gpu_ns = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (evk_is_gpu(e->kind))
            gpu_ns = wide_add_sat(gpu_ns, e->dur);
    }
    for (uint32_t i = 0; i < t->ev.n; i++) {
        if (!graphs_is_launch(t, i))
            continue;
        uint32_t n;
        struct gnode *v = replay_nodes(t, i, &n);
        int64_t id = arg_int(t, v[0].ev, "graph id", -1);
        bool by_id = id >= 0;
        uint64_t hash = by_id ? 0 : names_hash(t, v, n);
        struct ggroup *G = find_group(t, gs.v, gs.n, by_id, id, hash, v, n);
        if (!G) {
            G = VEC_ADD(&gs);
            memset(G, 0, sizeof(*G));
            G->by_id = by_id;
            G->id = by_id ? id : ++ordinal;
            G->hash = hash;
            G->first = i;
            G->nnodes = n;
            G->names = xmalloc((n + 1) * sizeof(uint32_t));
            G->pos = xcalloc(n + 1, sizeof(struct gpos));
            for (uint32_t k = 0; k < n; k++) {
                G->names[k] = t->ev.v[v[k].ev].name;
                G->pos[k].ev = v[k].ev;
                G->pos[k].min = INT64_MAX;
            }
            G->min = INT64_MAX;
        }
        int64_t sum = 0;
        for (uint32_t k = 0; k < n; k++) {
            int64_t d = t->ev.v[v[k].ev].dur;
            sum = wide_add_sat(sum, d);
            if (k >= G->nnodes)
                continue; /* a replay of a graph id with more nodes than the first */
            struct gpos *p = &G->pos[k];
            p->n++;
            VEC_PUSH(&p->evs, v[k].ev);
            p->sum = wide_add_sat(p->sum, d);
            p->min = d < p->min ? d : p->min;
            p->max = d > p->max ? d : p->max;
        }
        G->replays++;
        VEC_PUSH(&G->launches, i);
        G->sum = wide_add_sat(G->sum, sum);
        G->min = sum < G->min ? sum : G->min;
        G->max = sum > G->max ? sum : G->max;
        free(v);
    }
    bool ok = gs.n > 0 || t->graph_kernels > 0;
    if (ok)
        emit(t, gs.v, gs.n, gpu_ns, out);
    if (t->graph_kernels && ok)
        table_add_note(out->items.v[out->items.n - 2],
                       "%llu of the %llu GPU events of graph replays were attributed through the "
                       "capture and count under the captured ops; this table lists the rest "
                       "(without --capture it lists them all)",
                       (unsigned long long)t->graph_aligned, (unsigned long long)t->graph_kernels);
    if (!ok)
        snprintf(err, 256,
                 "no graph launch (cudaGraphLaunch, hipGraphLaunch) owns GPU work in "
                 "this trace");
    for (size_t g = 0; g < gs.n; g++) {
        for (uint32_t k = 0; k < gs.v[g].nnodes; k++)
            VEC_FREE(&gs.v[g].pos[k].evs);
        VEC_FREE(&gs.v[g].launches);
        free(gs.v[g].names);
        free(gs.v[g].pos);
    }
    VEC_FREE(&gs);
    return ok;
}
