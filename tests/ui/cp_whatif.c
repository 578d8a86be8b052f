/* cp_whatif TRACE NAME: the critical paths of TRACE's ProfilerSteps (the
 * whole trace without steps), as `report -t critical-path` builds them,
 * and the same with every edge attributed to an event named NAME, or to
 * GPU work an op of that name launched, at half its weight; prints "BEFORE AFTER" (µs, summed over
 * the steps). The explorer's what-if (W) must say BEFORE - AFTER. Built on core/critpath alone,
 * apart from the explorer's code. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/critpath/cp_frame.h"
#include "core/critpath/critpath.h"
#include "core/trace/load.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: cp_whatif TRACE NAME\n");
        return 2;
    }
    struct load_opts lo = {0};
    struct errinfo err = {0};
    struct trace *t = NULL;
    if (trace_load_file(argv[1], &lo, &t, &err) != ST_OK) {
        fprintf(stderr, "cp_whatif: cannot load %s\n", argv[1]);
        return 1;
    }
    uint32_t name = strtab_find(&t->strs, argv[2], strlen(argv[2]));
    struct cp_frame *f = cp_frame_new(t);
    size_t nsteps;
    uint32_t *steps = cp_frame_step_names(f, &nsteps);
    int64_t before = 0, after = 0;
    for (size_t k = 0; k < (nsteps ? nsteps : 1); k++) {
        char msg[256];
        struct cp_graph *g = critpath_build(f, nsteps ? trace_str(t, steps[k]) : "", 0, msg);
        if (!g || !g->ok) {
            critpath_free(g);
            continue;
        }
        before += g->length;
        for (uint32_t e = 0; e < g->edges.n; e++) {
            const struct cp_edge *ed = &g->edges.v[e];
            if (ed->attr == IDX_NONE)
                continue;
            const struct cp_row *r = &f->rows.v[ed->attr];
            const struct gpu_info *gi = ev_gpu(t, r->ev);
            if (r->name == name ||
                (gi && gi->launcher != IDX_NONE && strcmp(ev_name(t, gi->launcher), argv[2]) == 0))
                critpath_set_weight(g, e, ed->weight / 2);
        }
        critpath_longest(g);
        after += g->length;
        critpath_free(g);
    }
    printf("%lld %lld\n", (long long)before, (long long)after);
    free(steps);
    cp_frame_free(f);
    trace_free(t);
    errinfo_clear(&err);
    return 0;
}
