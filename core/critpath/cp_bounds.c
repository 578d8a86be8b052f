/* The critical paths of a trace's regions summed per bound_by
 * (core/critpath/cp_bounds.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/critpath/cp_bounds.h"
#include "core/critpath/cp_frame.h"

void cp_bounds_add(struct cp_bounds *b, const struct cp_graph *g)
{
    if (!g->ok)
        return;
    b->regions++;
    b->length += g->length;
    for (size_t i = 0; i < g->path.n; i++) {
        const struct cp_edge *e = &g->edges.v[g->path.v[i]];
        b->by[critpath_bound_by(g, e)] += e->span;
    }
}

bool cp_bounds_of_trace(const struct trace *t, struct cp_bounds *b, char *err)
{
    *b = (struct cp_bounds){0};
    err[0] = '\0';
    struct cp_frame *f = cp_frame_new(t);
    size_t nsteps;
    uint32_t *steps = cp_frame_step_names(f, &nsteps);
    for (size_t k = 0; k < (nsteps ? nsteps : 1); k++) {
        struct cp_graph *g = critpath_build(f, nsteps ? trace_str(t, steps[k]) : "", 0, err);
        if (!g)
            break;
        cp_bounds_add(b, g);
        critpath_free(g);
    }
    free(steps);
    cp_frame_free(f);
    if (b->regions)
        return true;
    if (!err[0])
        snprintf(err, 256, "the critical path's graph has a cycle");
    *b = (struct cp_bounds){0};
    return false;
}

double cp_bounds_share(const struct cp_bounds *b, enum cp_bound c)
{
    int64_t total = 0;
    for (int k = 0; k < CPB__COUNT; k++)
        total += b->by[k];
    return total > 0 && c < CPB__COUNT ? 100.0 * (double)b->by[c] / (double)total : 0;
}

int cp_bounds_order(const struct cp_bounds *b, enum cp_bound *order)
{
    int64_t total = 0;
    for (int k = 0; k < CPB__COUNT; k++)
        total += b->by[k];
    int m = 0;
    if (total <= 0)
        return 0;
    for (int c = CPB_NONE + 1; c < CPB__COUNT; c++) {
        if (100 * b->by[c] < total)
            continue;
        int at = m++;
        while (at && b->by[order[at - 1]] < b->by[c]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = (enum cp_bound)c;
    }
    return m;
}

const char *cp_bounds_short_name(enum cp_bound c)
{
    static const char *const names[] = {"",       "CPU",         "GPU compute", "GPU comm",
                                        "launch", "kernel gaps", "data loading"};
    return c < CPB__COUNT ? names[c] : "";
}
