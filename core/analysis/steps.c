/* The profiler steps of a trace (steps.h). */
#include "config.h"

#include <string.h>

#include "core/analysis/steps.h"
#include "core/base/sort.h"
#include "core/base/vec.h"

static inline bool step_before(const struct step_span *a, const struct step_span *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(step_sort, struct step_span, step_before)

struct step_span *steps_find(const struct trace *t, size_t *n)
{
    VEC(struct step_span) v = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = trace_ev(t, i);
        if (evk_is_host_span(e->kind) && strncmp(ev_name(t, i), "ProfilerStep#", 13) == 0)
            *VEC_ADD(&v) = (struct step_span){i, e->ts, ev_end(e)};
    }
    step_sort(v.v, v.n);
    *n = v.n;
    return v.v;
}
