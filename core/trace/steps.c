/* Profiler steps of a trace, by number. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"
#include "core/trace/steps.h"

#define STEP_PREFIX "ProfilerStep#"

/* N when name is "ProfilerStep#N" (N decimal, no sign, no blanks). */
static bool step_number(const char *name, size_t len, int64_t *n)
{
    size_t p = sizeof(STEP_PREFIX) - 1;
    if (len <= p || len > p + 18 || memcmp(name, STEP_PREFIX, p) != 0)
        return false;
    if (name[p] == '0' && len > p + 1)
        return false; /* "ProfilerStep#01" is not step 1 */
    int64_t v = 0;
    for (size_t k = p; k < len; k++) {
        if (name[k] < '0' || name[k] > '9')
            return false;
        v = v * 10 + (name[k] - '0');
    }
    *n = v;
    return true;
}

static int by_number(const void *a, const void *b)
{
    const struct trace_step *x = a, *y = b;
    return (x->n > y->n) - (x->n < y->n);
}

size_t steps_list(const struct trace *t, struct trace_step **out)
{
    /* name id -> slot in the array, each name decided once */
    struct hmap slot;
    hmap_init(&slot, 64);
    struct trace_step *v = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_host_span(e->kind) || e->ph != 'X')
            continue;
        uint32_t k = hmap_get(&slot, e->name);
        if (k == IDX_NONE) {
            int64_t num;
            if (!step_number(trace_str(t, e->name), strtab_len(&t->strs, e->name), &num)) {
                hmap_put(&slot, e->name, IDX_NONE - 1);
                continue;
            }
            if (n == cap) {
                cap = cap ? cap * 2 : 16;
                v = xreallocarray(v, cap, sizeof(*v));
            }
            v[n] = (struct trace_step){num, e->ts, ev_end(e)};
            hmap_put(&slot, e->name, (uint32_t)n);
            n++;
            continue;
        }
        if (k == IDX_NONE - 1)
            continue;
        v[k].from = MIN(v[k].from, e->ts);
        v[k].to = MAX(v[k].to, ev_end(e));
    }
    hmap_free(&slot);
    if (n)
        qsort(v, n, sizeof(*v), by_number);
    *out = v;
    return n;
}

bool steps_find(const struct trace *t, int64_t n, int64_t *from, int64_t *to)
{
    struct trace_step *v;
    size_t m = steps_list(t, &v);
    bool found = false;
    for (size_t k = 0; k < m && !found; k++)
        if (v[k].n == n) {
            *from = v[k].from;
            *to = v[k].to;
            found = true;
        }
    free(v);
    return found;
}

static inline bool span_before(const struct step_span *a, const struct step_span *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(span_sort, struct step_span, span_before)

struct step_span *steps_spans(const struct trace *t, size_t *n)
{
    VEC(struct step_span) v = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = trace_ev(t, i);
        if (evk_is_host_span(e->kind) && strncmp(ev_name(t, i), STEP_PREFIX, 13) == 0)
            *VEC_ADD(&v) = (struct step_span){i, e->ts, ev_end(e)};
    }
    span_sort(v.v, v.n);
    *n = v.n;
    return v.v;
}
