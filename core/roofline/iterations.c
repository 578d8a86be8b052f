/* Serving iterations and their kinds. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "core/roofline/iterations.h"
#include "core/roofline/steady.h"

static const char *const kind_names[ITER__COUNT] = {"prefill", "decode", "mixed", "empty"};

const char *iterations_kind_name(unsigned kind)
{
    return kind < ITER__COUNT ? kind_names[kind] : "?";
}

bool iterations_kind_parse(const char *name, unsigned *kind)
{
    for (unsigned k = 0; k < ITER__COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0) {
            *kind = k;
            return true;
        }
    return false;
}

/* Prefill when the step runs context (prompt) tokens only, decode when it
 * runs generation tokens only, mixed when both. */
static unsigned kind_of(const struct iterann *a)
{
    bool c = a->c_sq > 0 || a->c_n > 0, g = a->g_sq > 0 || a->g_n > 0;
    return c && g ? ITER_MIXED : c ? ITER_PREFILL : g ? ITER_DECODE : ITER_EMPTY;
}

static int by_start(const void *pa, const void *pb)
{
    const struct iteration *a = pa, *b = pb;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    /* The longer first, so that an outer span comes before what it holds. */
    if (a->to != b->to)
        return a->to > b->to ? -1 : 1;
    return (a->ev > b->ev) - (a->ev < b->ev);
}

size_t iterations_list(const struct trace *t, struct iteration **out)
{
    struct iteration *v = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_host_span(e->kind) || e->ph != 'X')
            continue;
        const char *name = trace_str(t, e->name);
        /* Cheap first test: the three forms start so. */
        if (strncmp(name, "execute_", 8) != 0 && strncmp(name, "step[", 5) != 0 &&
            strncmp(name, "prefill[", 8) != 0 && strncmp(name, "decode[", 7) != 0)
            continue;
        struct iterann a;
        if (!iterann_parse(name, &a))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            v = xreallocarray(v, cap, sizeof(*v));
        }
        v[n++] = (struct iteration){i, e->ts, ev_end(e), (uint8_t)kind_of(&a), a};
    }
    if (n)
        qsort(v, n, sizeof(*v), by_start);
    /* Drop spans inside an earlier one (an annotation nested in another). */
    size_t m = 0;
    int64_t end = INT64_MIN;
    for (size_t k = 0; k < n; k++) {
        if (m && v[k].to <= end && v[k].from >= v[m - 1].from)
            continue;
        v[m++] = v[k];
        end = MAX(end, v[k].to);
    }
    *out = v;
    return m;
}

struct scope iterations_scope(const struct trace *t, const struct scope *s,
                              struct export_window **w)
{
    struct scope with = *s;
    *w = NULL;
    if (!s->iteration)
        return with;
    struct iteration *it;
    size_t n = iterations_list(t, &it);
    *w = xmalloc((n + 1) * sizeof(**w));
    size_t m = 0, from = 0, to = n;
    bool steady = strcmp(s->iteration, ITERATIONS_STEADY) == 0;
    struct steady st;
    if (steady && steady_window(it, n, &st)) {
        from = st.from;
        to = st.to;
        if (to - from == 1)
            snprintf(with.iter_text, sizeof(with.iter_text),
                     "steady state: iteration %zu (%s) of %zu", from, iterations_kind_name(st.kind),
                     n);
        else
            snprintf(with.iter_text, sizeof(with.iter_text),
                     "steady state: iterations %zu-%zu (%s) of %zu", from, to - 1,
                     iterations_kind_name(st.kind), n);
    }
    for (size_t k = from; k < to; k++)
        if ((steady || strcmp(iterations_kind_name(it[k].kind), s->iteration) == 0) &&
            it[k].to > it[k].from)
            (*w)[m++] = (struct export_window){it[k].from, it[k].to};
    free(it);
    with.iter_windows = *w;
    with.n_iter_windows = m;
    return with;
}
