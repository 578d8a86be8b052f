/* What-if on the critical path graph: re-weight edges, recompute the
 * longest path, put the graph back (critpath.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/critpath/critpath.h"

int64_t critpath_whatif(struct cp_graph *g, critpath_factor_fn factor, void *ud, size_t *matched,
                        size_t *on_path)
{
    size_t m = 0, p = 0;
    if (matched)
        *matched = 0;
    if (on_path)
        *on_path = 0;
    if (!g->ok)
        return -1;
    uint8_t *on = xcalloc(g->edges.n + 1, 1);
    int64_t *was = xmalloc((g->edges.n + 1) * sizeof(*was));
    for (size_t k = 0; k < g->path.n; k++)
        on[g->path.v[k]] = 1;
    for (size_t e = 0; e < g->edges.n; e++)
        was[e] = g->edges.v[e].weight;
    /* a cap that keeps any path's sum of weights from overflowing */
    double cap = (double)(INT64_MAX / 4) / (double)(g->edges.n + 1);
    for (size_t e = 0; e < g->edges.n; e++) {
        double f = factor(g, (uint32_t)e, ud);
        if (f < 0)
            continue;
        m++;
        p += on[e];
        double w = (double)was[e] * f;
        critpath_set_weight(g, (uint32_t)e, llround(w > cap ? cap : w));
    }
    int64_t after = g->length;
    if (m) {
        /* the same pass over the same weights gives the same path back */
        after = critpath_longest(g) ? g->length : -1;
        for (size_t e = 0; e < g->edges.n; e++)
            g->edges.v[e].weight = was[e];
        critpath_longest(g);
    }
    free(was);
    free(on);
    if (matched)
        *matched = m;
    if (on_path)
        *on_path = p;
    return after;
}

uint32_t critpath_edge_event(const struct cp_graph *g, uint32_t e, uint32_t *launcher)
{
    const struct cp_edge *ed = &g->edges.v[e];
    *launcher = IDX_NONE;
    if (ed->type != CPE_OPERATOR || ed->attr == IDX_NONE)
        return IDX_NONE;
    const struct cp_row *rows = g->f->rows.v;
    const struct cp_row *r = &rows[ed->attr];
    if (cp_row_on_gpu(r) && r->ic >= 0)
        *launcher = g->f->t->ev.v[rows[r->ic].ev].parent;
    return r->ev;
}

bool critpath_edge_of_event(const struct cp_graph *g, uint32_t e, uint32_t ev)
{
    uint32_t op;
    if (critpath_edge_event(g, e, &op) == ev)
        return ev != IDX_NONE;
    const struct event *evs = g->f->t->ev.v;
    for (; op != IDX_NONE; op = evs[op].parent)
        if (op == ev)
            return true;
    return false;
}

struct one_event {
    uint32_t ev;
    double factor;
};

static double event_factor(const struct cp_graph *g, uint32_t e, void *ud)
{
    const struct one_event *o = ud;
    return critpath_edge_of_event(g, e, o->ev) ? o->factor : -1;
}

int64_t critpath_whatif_event(struct cp_graph *g, uint32_t ev, double factor, size_t *matched)
{
    struct one_event o = {ev, factor < 0 ? 0 : factor};
    return critpath_whatif(g, event_factor, &o, matched, NULL);
}
