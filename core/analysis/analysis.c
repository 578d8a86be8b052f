/* Shared analyses of a trace. */
#include "config.h"

#include <stdlib.h>

#include "core/analysis/analysis.h"

struct analysis *analysis_new(const struct trace *t)
{
    struct analysis *a = xcalloc(1, sizeof(*a));
    a->t = t;
    a->gt = gputime_new(t);
    a->ops = opstats_new(t, a->gt);
    return a;
}

void analysis_free(struct analysis *a)
{
    if (!a)
        return;
    opstats_free(a->ops);
    gputime_free(a->gt);
    free(a);
}
