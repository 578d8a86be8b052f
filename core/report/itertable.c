/* The serving iterations table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wide.h"
#include "core/analysis/graphs.h"
#include "core/base/xalloc.h"
#include "core/report/itertable.h"
#include "core/roofline/iterations.h"

enum {
    C_ITER,
    C_START,
    C_DUR,
    C_KIND,
    C_C_REQ,
    C_G_REQ,
    C_C_TOK,
    C_G_TOK,
    C_GPU_EVENTS,
    C_GPU_MS,
    C_US_PER_TOK,
    C_GRAPHS,
    C_NAME,
    C__N
};

static const struct table_col cols[C__N] = {
    {"iteration", "iteration", COL_INT, 0, COLF_ASC | COLF_NAME},
    {"start_ms", "start ms", COL_FLOAT, 3, 0},
    {"duration_ms", "duration ms", COL_FLOAT, 3, COLF_KEY},
    {"kind", "kind", COL_TEXT, 0, COLF_KEY},
    {"prefill_requests", "prefill reqs", COL_INT, 0, 0},
    {"decode_requests", "decode reqs", COL_INT, 0, 0},
    {"prefill_tokens", "prefill tokens", COL_INT, 0, COLF_KEY},
    {"decode_tokens", "decode tokens", COL_INT, 0, COLF_KEY},
    {"gpu_events", "GPU events", COL_INT, 0, 0},
    {"gpu_time_ms", "GPU time ms", COL_FLOAT, 3, COLF_KEY},
    {"gpu_us_per_token", "GPU µs/token", COL_FLOAT, 3, 0},
    {"graph_replays", "graph replays", COL_INT, 0, 0},
    {"annotation", "annotation", COL_TEXT, 0, COLF_WIDE | COLF_DETAIL},
};

/* The iteration whose span holds time ts (iterations by start, not
 * nested), or -1. */
static long iteration_at(const struct iteration *v, size_t n, int64_t ts)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid].from <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* The last to start at or before ts; an earlier one may still hold ts
     * when spans overlap, so look back while they could. */
    for (size_t k = lo; k-- > 0;) {
        if (ts < v[k].to)
            return (long)k;
        if (k + 1 < n && v[k].to <= v[k + 1].from)
            break;
    }
    return -1;
}

bool itertable_build(const struct trace *t, struct table_list *out, char *err)
{
    struct iteration *v;
    size_t n = iterations_list(t, &v);
    if (!n) {
        free(v);
        snprintf(err, 256,
                 "the trace has no iteration annotations (vLLM execute_..., SGLang step[...], "
                 "ATOM prefill[...] / decode[...] with their sums)");
        return false;
    }
    int64_t *gpu_ns = xcalloc(n + 1, sizeof(*gpu_ns));
    uint64_t *gpu_n = xcalloc(n + 1, sizeof(*gpu_n));
    uint64_t *graphs = xcalloc(n + 1, sizeof(*graphs));
    int64_t all_ns = 0, out_ns = 0;
    uint64_t out_n = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (evk_is_launch(e->kind) && graphs_is_launch(t, i)) {
            long k = iteration_at(v, n, e->ts);
            if (k >= 0)
                graphs[k]++;
        }
        if (!evk_is_gpu(e->kind))
            continue;
        /* GPU work counts for the iteration that launched it: its launch's
         * start, its own when no launch claimed it. */
        const struct gpu_info *g = ev_gpu(t, i);
        int64_t at = g && g->launch != IDX_NONE ? t->ev.v[g->launch].ts : e->ts;
        long k = iteration_at(v, n, at);
        all_ns = wide_add_sat(all_ns, e->dur);
        if (k < 0) {
            out_ns = wide_add_sat(out_ns, e->dur);
            out_n++;
            continue;
        }
        gpu_ns[k] = wide_add_sat(gpu_ns[k], e->dur);
        gpu_n[k]++;
    }
    struct table *tab =
        table_new("iterations",
                  "Serving iterations: kind, requests, tokens, GPU time they launched", cols, C__N);
    for (size_t k = 0; k < n; k++) {
        const struct iteration *it = &v[k];
        size_t r = table_add_row(tab);
        table_set_ref(tab, r, it->ev);
        table_set_int(tab, r, C_ITER, (int64_t)k);
        table_set_float(tab, r, C_START, (double)(it->from - t->t_start) / 1e6);
        table_set_float(tab, r, C_DUR, (double)(it->to - it->from) / 1e6);
        table_set_text(tab, r, C_KIND, iterations_kind_name(it->kind));
        table_set_int(tab, r, C_C_REQ, it->sums.c_n);
        table_set_int(tab, r, C_G_REQ, it->sums.g_n);
        table_set_int(tab, r, C_C_TOK, it->sums.c_sq);
        table_set_int(tab, r, C_G_TOK, it->sums.g_sq);
        table_set_int(tab, r, C_GPU_EVENTS, (int64_t)gpu_n[k]);
        table_set_float(tab, r, C_GPU_MS, (double)gpu_ns[k] / 1e6);
        int64_t tokens = it->sums.c_sq + it->sums.g_sq;
        if (tokens > 0)
            table_set_float(tab, r, C_US_PER_TOK, (double)gpu_ns[k] / 1e3 / (double)tokens);
        table_set_int(tab, r, C_GRAPHS, (int64_t)graphs[k]);
        table_set_text(tab, r, C_NAME, ev_name(t, it->ev));
    }
    tab->sorted_col = C_ITER;
    tab->sorted_desc = false;
    table_add_note(tab,
                   "GPU time of the trace: %.3f ms, of which %.3f ms (%llu GPU events) launched "
                   "outside every iteration",
                   (double)all_ns / 1e6, (double)out_ns / 1e6, (unsigned long long)out_n);
    free(gpu_ns);
    free(gpu_n);
    free(graphs);
    free(v);
    table_list_add(out, tab);
    return true;
}
