/* Recompute marking (recompute.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/analysis/recompute.h"
#include "core/base/vec.h"

bool recompute_is_root_name(const char *s)
{
    return s && strstr(s, "torch/utils/checkpoint.py") && strstr(s, "recompute_fn");
}

uint8_t *recompute_marks(const struct trace *t, uint32_t *nregions)
{
    uint8_t *marks = NULL;
    uint32_t roots = 0;
    VEC(uint32_t) stack = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind != EVK_PYTHON || !recompute_is_root_name(trace_str(t, e->name)))
            continue;
        if (!marks)
            marks = xcalloc(t->ev.n, 1);
        roots++;
        /* A root under another root's subtree is marked already, and so is
         * its subtree: skip it. */
        if (marks[i])
            continue;
        VEC_PUSH(&stack, i);
        while (stack.n) {
            uint32_t x = stack.v[--stack.n];
            marks[x] = 1;
            for (uint32_t c = t->ev.v[x].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
                VEC_PUSH(&stack, c);
        }
    }
    VEC_FREE(&stack);
    if (nregions)
        *nregions = roots;
    return marks;
}
