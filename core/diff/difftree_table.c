/* The tables of the merged call tree: per node, and GPU work grouped under
 * the lowest matched ancestor (difftree.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/base/wide.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/diff/difftree.h"

/* Give column c of t the name "<label>_<suffix>", kept in t's arena. */
static void label_col(struct table *t, size_t c, const char *label, const char *suffix)
{
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s_%s", label, suffix);
    t->cols[c].name = arena_strndup(&t->arena, sb_str(&sb), sb.len);
    t->cols[c].title = t->cols[c].name;
    sb_free(&sb);
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

/* Rows ordered by |key1| then |key2|, largest first; ties by index. */
struct order_key {
    int64_t k1, k2;
    uint32_t idx;
};

static int cmp_keys(const void *x, const void *y)
{
    const struct order_key *a = x, *b = y;
    if (a->k1 != b->k1)
        return a->k1 > b->k1 ? -1 : 1;
    if (a->k2 != b->k2)
        return a->k2 > b->k2 ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Where a node is: 0 the control only, 1 the test only, 2 both. */
static int node_in(const struct difftree *dt, uint32_t node)
{
    const struct difftree_node *n = &dt->nodes.v[node];
    return n->ev[0] == IDX_NONE ? 1 : n->ev[1] == IDX_NONE ? 0 : 2;
}

static uint32_t gpu_events(const struct difftree *dt, uint32_t node, int side)
{
    uint32_t e = dt->nodes.v[node].ev[side], n = 0;
    if (e != IDX_NONE)
        gputime_subtree_events(dt->g[side], e, &n);
    return n;
}

/* Node names as table strings, copied once per name of each side. */
struct name_copies {
    const char **of[2]; /* per trace string id */
};

static const char *node_name(struct table *t, struct name_copies *nc, const struct difftree *dt,
                             uint32_t node)
{
    const struct difftree_node *n = &dt->nodes.v[node];
    int s = n->ev[0] != IDX_NONE ? 0 : 1;
    const struct trace *tr = dt->t[s];
    uint32_t name = tr->ev.v[n->ev[s]].name;
    if (!nc->of[s][name])
        nc->of[s][name] = table_copy_text(t, trace_str(tr, name), strtab_len(&tr->strs, name));
    return nc->of[s][name];
}

/* A node's numbers, both sides. */
struct node_vals {
    int64_t cpu[2], gdirect[2], gsub[2];
    uint32_t gevents[2];
    const char *name; /* in the table's arena */
};

/* A node's place in the table's order. */
static void node_keys(const struct difftree *dt, uint32_t i, struct order_key *k)
{
    k->k1 = abs64(difftree_gpu_subtree(dt, i, 1) - difftree_gpu_subtree(dt, i, 0));
    k->k2 = abs64(difftree_cpu(dt, i, 1) - difftree_cpu(dt, i, 0));
    k->idx = i;
}

/* A node's numbers and name (copied into t once per name). */
static void node_values(struct table *t, struct name_copies *nc, const struct difftree *dt,
                        uint32_t i, struct node_vals *v)
{
    for (int s = 0; s < 2; s++) {
        v->cpu[s] = difftree_cpu(dt, i, s);
        v->gdirect[s] = difftree_gpu_direct(dt, i, s);
        v->gsub[s] = difftree_gpu_subtree(dt, i, s);
        v->gevents[s] = gpu_events(dt, i, s);
    }
    v->name = node_name(t, nc, dt, i);
}

struct table *difftree_table(const struct difftree *dt)
{
    return difftree_table_top(dt, SIZE_MAX);
}

struct table *difftree_table_top(const struct difftree *dt, size_t top)
{
    const struct table_col cols[] = {
        {"name", NULL, COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        {"in", NULL, COL_TEXT, 0, COLF_ASC},
        {"depth", NULL, COL_INT, 0, COLF_DETAIL},
        {"parent", NULL, COL_TEXT, 0, COLF_DETAIL},
        {"control_cpu_time", NULL, COL_FLOAT, 3, 0},
        {"test_cpu_time", NULL, COL_FLOAT, 3, 0},
        {"diff_cpu_time", NULL, COL_FLOAT, 3, 0},
        {"control_gpu_direct", NULL, COL_FLOAT, 3, COLF_DETAIL},
        {"test_gpu_direct", NULL, COL_FLOAT, 3, COLF_DETAIL},
        {"control_gpu_time", NULL, COL_FLOAT, 3, 0},
        {"test_gpu_time", NULL, COL_FLOAT, 3, 0},
        {"diff_gpu_time", NULL, COL_FLOAT, 3, 0},
        {"control_gpu_events", NULL, COL_INT, 0, COLF_DETAIL},
        {"test_gpu_events", NULL, COL_INT, 0, COLF_DETAIL},
    };
    struct table *t = table_new("diff_tree",
                                "Merged call tree: per node, CPU and GPU time (us) of each side "
                                "and test - control, largest |GPU difference| first",
                                cols, ARRAY_SIZE(cols));
    static const size_t labelled[] = {4, 5, 7, 8, 9, 10, 12, 13};
    static const char *const suffix[] = {"cpu_time", "cpu_time", "gpu_direct", "gpu_direct",
                                         "gpu_time", "gpu_time", "gpu_events", "gpu_events"};
    for (size_t i = 0; i < ARRAY_SIZE(labelled); i++)
        label_col(t, labelled[i], dt->label[i % 2], suffix[i]);
    t->top_default = 50;
    size_t n = dt->nodes.n;
    size_t rows = top == 0 ? t->top_default : top;
    rows = rows < n ? rows : n;
    /* Every node is asked for: GPU times of both sides cached densely. */
    for (int s = 0; s < 2; s++)
        gputime_dense(dt->g[s]);
    /* Every node's order keys, gathered in node order (events in pre-order,
     * so mostly sequential reads); the values of the rows built, then
     * written out in table order. */
    struct order_key *ord = xmalloc((n ? n : 1) * sizeof(*ord));
    struct name_copies nc;
    for (int s = 0; s < 2; s++)
        nc.of[s] = xcalloc(strtab_count(&dt->t[s]->strs) + 1, sizeof(*nc.of[s]));
    for (uint32_t i = 0; i < n; i++)
        node_keys(dt, i, &ord[i]);
    sort_items(ord, n, sizeof(*ord), cmp_keys);
    /* Values by node (every node when all rows are built, so that a
     * parent's name is at hand), else by row. */
    bool all = rows == n;
    struct node_vals *v = xmalloc((rows ? rows : 1) * sizeof(*v));
    for (size_t x = 0; x < rows; x++)
        node_values(t, &nc, dt, all ? (uint32_t)x : ord[x].idx, &v[x]);
    /* "in": both, or the one side's label. */
    const char *in[3] = {table_copy_text(t, dt->label[0], strlen(dt->label[0])),
                         table_copy_text(t, dt->label[1], strlen(dt->label[1])),
                         table_copy_text(t, "both", 4)};
    table_reserve(t, rows);
    for (size_t x = 0; x < rows; x++) {
        uint32_t id = ord[x].idx;
        const struct difftree_node *nd = &dt->nodes.v[id];
        const struct node_vals *nv = &v[all ? id : x];
        size_t r = table_add_row(t);
        table_set_ref(t, r, id);
        table_set_copied_text(t, r, 0, nv->name);
        table_set_copied_text(t, r, 1, in[node_in(dt, id)]);
        table_set_int(t, r, 2, nd->depth);
        const char *parent = nd->parent == IDX_NONE ? NULL
                             : all                  ? v[nd->parent].name
                                                    : node_name(t, &nc, dt, nd->parent);
        table_set_copied_text(t, r, 3, parent);
        table_set_float(t, r, 4, (double)nv->cpu[0] / 1e3);
        table_set_float(t, r, 5, (double)nv->cpu[1] / 1e3);
        table_set_float(t, r, 6, (double)(nv->cpu[1] - nv->cpu[0]) / 1e3);
        table_set_float(t, r, 7, (double)nv->gdirect[0] / 1e3);
        table_set_float(t, r, 8, (double)nv->gdirect[1] / 1e3);
        table_set_float(t, r, 9, (double)nv->gsub[0] / 1e3);
        table_set_float(t, r, 10, (double)nv->gsub[1] / 1e3);
        table_set_float(t, r, 11, (double)(nv->gsub[1] - nv->gsub[0]) / 1e3);
        table_set_int(t, r, 12, nv->gevents[0]);
        table_set_int(t, r, 13, nv->gevents[1]);
    }
    t->rows_left_out = n - rows;
    free(v);
    free(nc.of[0]);
    free(nc.of[1]);
    free(ord);
    return t;
}

/* One LCA group, per side. */
struct lca_group {
    int64_t dur[2];      /* summed GPU event durations, ns */
    uint32_t count[2];   /* GPU events */
    uint32_t longest[2]; /* longest GPU event, IDX_NONE */
};

/* The group of a GPU event: the lowest matched node above its launch, or
 * when the launch itself is matched, the node of its launcher op (the
 * launch's parent when it has no op). IDX_NONE: not linked to a launch. */
static uint32_t lca_of(const struct difftree *dt, int side, uint32_t gpu_ev)
{
    const struct trace *t = dt->t[side];
    const struct gpu_info *gi = ev_gpu(t, gpu_ev);
    if (!gi || gi->launch == IDX_NONE)
        return IDX_NONE;
    uint32_t node = dt->node_of[side][gi->launch];
    if (node == IDX_NONE)
        return IDX_NONE;
    const struct difftree_node *n = &dt->nodes.v[node];
    if (n->ev[0] != IDX_NONE && n->ev[1] != IDX_NONE) {
        uint32_t op = gi->launcher != IDX_NONE && gi->launcher != gi->launch
                          ? dt->node_of[side][gi->launcher]
                          : IDX_NONE;
        if (op != IDX_NONE)
            return op;
        return n->parent != IDX_NONE ? n->parent : node;
    }
    while (node != IDX_NONE &&
           (dt->nodes.v[node].ev[0] == IDX_NONE || dt->nodes.v[node].ev[1] == IDX_NONE))
        node = dt->nodes.v[node].parent;
    return node;
}

struct table *difftree_lca_table(const struct difftree *dt)
{
    const struct table_col cols[] = {
        {"name", NULL, COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        {"depth", NULL, COL_INT, 0, COLF_DETAIL},
        {"control_gpu_time", NULL, COL_FLOAT, 3, 0},
        {"test_gpu_time", NULL, COL_FLOAT, 3, 0},
        {"diff_gpu_time", NULL, COL_FLOAT, 3, 0},
        {"control_gpu_events", NULL, COL_INT, 0, 0},
        {"test_gpu_events", NULL, COL_INT, 0, 0},
        {"control_longest_kernel", NULL, COL_TEXT, 0, COLF_WIDE | COLF_DETAIL},
        {"test_longest_kernel", NULL, COL_TEXT, 0, COLF_WIDE | COLF_DETAIL},
    };
    struct table *t = table_new("diff_lca",
                                "GPU work under the lowest matched ancestor: GPU time (us, summed "
                                "event durations) of each side and test - control",
                                cols, ARRAY_SIZE(cols));
    for (int s = 0; s < 2; s++) {
        label_col(t, 2 + (size_t)s, dt->label[s], "gpu_time");
        label_col(t, 5 + (size_t)s, dt->label[s], "gpu_events");
        label_col(t, 7 + (size_t)s, dt->label[s], "longest_kernel");
    }
    /* Groups by node; the last slot holds GPU work linked to no launch. */
    size_t n = dt->nodes.n;
    struct lca_group *g = xcalloc(n + 1, sizeof(*g));
    for (size_t i = 0; i <= n; i++)
        g[i].longest[0] = g[i].longest[1] = IDX_NONE;
    for (int s = 0; s < 2; s++) {
        const struct trace *tr = dt->t[s];
        for (uint32_t e = 0; e < tr->ev.n; e++) {
            const struct event *ev = trace_ev(tr, e);
            if (!evk_is_gpu(ev->kind))
                continue;
            uint32_t node = lca_of(dt, s, e);
            struct lca_group *x = &g[node == IDX_NONE ? n : node];
            x->dur[s] = wide_add_sat(x->dur[s], ev->dur);
            x->count[s]++;
            if (x->longest[s] == IDX_NONE || trace_ev(tr, x->longest[s])->dur < ev->dur)
                x->longest[s] = e;
        }
    }
    struct order_key *ord = xmalloc((n + 1) * sizeof(*ord));
    size_t m = 0;
    for (uint32_t i = 0; i <= n; i++)
        if (g[i].count[0] || g[i].count[1])
            ord[m++] = (struct order_key){abs64(g[i].dur[1] - g[i].dur[0]),
                                          (int64_t)g[i].count[1] - g[i].count[0], i};
    for (size_t x = 0; x < m; x++)
        ord[x].k2 = abs64(ord[x].k2);
    sort_items(ord, m, sizeof(*ord), cmp_keys);
    for (size_t x = 0; x < m; x++) {
        uint32_t id = ord[x].idx;
        const struct lca_group *q = &g[id];
        size_t r = table_add_row(t);
        if (id == n) {
            table_set_text(t, r, 0, "(GPU work linked to no launch)");
        } else {
            table_set_ref(t, r, id);
            table_set_text(t, r, 0, difftree_name(dt, id));
            table_set_int(t, r, 1, dt->nodes.v[id].depth);
        }
        table_set_float(t, r, 2, (double)q->dur[0] / 1e3);
        table_set_float(t, r, 3, (double)q->dur[1] / 1e3);
        table_set_float(t, r, 4, (double)(q->dur[1] - q->dur[0]) / 1e3);
        table_set_int(t, r, 5, q->count[0]);
        table_set_int(t, r, 6, q->count[1]);
        for (int s = 0; s < 2; s++)
            table_set_text(t, r, 7 + (size_t)s,
                           q->longest[s] == IDX_NONE ? NULL : ev_name(dt->t[s], q->longest[s]));
    }
    free(ord);
    free(g);
    t->top_default = 50;
    return t;
}
