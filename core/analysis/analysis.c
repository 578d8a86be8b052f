/* Shared analyses of a trace. */
#include "config.h"

#include <stdlib.h>

#include "core/analysis/analysis.h"
#include "core/analysis/recompute.h"

struct analysis *analysis_new(const struct trace *t)
{
    struct analysis *a = xcalloc(1, sizeof(*a));
    a->t = t;
    a->gt = gputime_new(t);
    a->ops = opstats_new(t, a->gt);
    return a;
}

void analysis_mark_recompute(struct analysis *a)
{
    if (a->recompute_on)
        return;
    a->recompute_on = true;
    a->recompute = recompute_marks(a->t, &a->recompute_regions);
    a->ops->recompute_on = true;
    a->ops->recompute = a->recompute;
}

const struct timeline_breakdown *analysis_breakdown(struct analysis *a, bool linked_only)
{
    if (!a->have_bd[linked_only]) {
        timeline_breakdown(a->t, linked_only, -1, &a->bd[linked_only]);
        a->have_bd[linked_only] = true;
    }
    return &a->bd[linked_only];
}

void analysis_put_breakdown(struct analysis *a, bool linked_only,
                            const struct timeline_breakdown *bd)
{
    a->bd[linked_only] = *bd;
    a->have_bd[linked_only] = true;
}

const struct hta *analysis_hta(struct analysis *a)
{
    if (!a->hta)
        a->hta = hta_new(a->t);
    return a->hta;
}

void analysis_hta_drop(struct analysis *a)
{
    hta_free(a->hta);
    a->hta = NULL;
}

void analysis_free(struct analysis *a)
{
    if (!a)
        return;
    analysis_hta_drop(a);
    free(a->recompute);
    opstats_free(a->ops);
    gputime_free(a->gt);
    free(a);
}
