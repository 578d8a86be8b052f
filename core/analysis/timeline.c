/* GPU timeline breakdown by interval-set algebra. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/interval.h"
#include "core/analysis/analysis.h"
#include "core/analysis/timeline.h"
#include "core/trace/devkind.h"
#include "core/trace/tree.h"

void timeline_breakdown(const struct trace *t, bool linked_only, int device,
                        struct timeline_breakdown *out)
{
    *out = (struct timeline_breakdown){0};
    ivals_t b[3] = {{0}, {0}, {0}}; /* COMP, COMM, MEMCPY */
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_gpu(e->kind))
            continue;
        if (linked_only && !(e->flags & EVF_LINKED))
            continue;
        if (device >= 0 && (e->aux == IDX_NONE || t->gpus.v[e->aux].device != device))
            continue;
        VEC_PUSH(&b[gpuclass_bucket(t, i)], ((struct ival){e->ts, ev_end(e)}));
        if (e->ts < first)
            first = e->ts;
        if (ev_end(e) > last)
            last = ev_end(e);
        out->n_events++;
    }
    if (!out->n_events)
        return;
    for (int k = 0; k < 3; k++)
        b[k].n = ival_normalize(b[k].v, b[k].n);
    out->total = last - first;
    out->computation = ival_length(b[0].v, b[0].n);
    out->total_comm = ival_length(b[1].v, b[1].n);
    out->total_memcpy = ival_length(b[2].v, b[2].n);

    struct ival *comm_x = xmalloc((b[1].n + b[0].n + 1) * sizeof(struct ival));
    size_t ncx = ival_subtract(b[1].v, b[1].n, b[0].v, b[0].n, comm_x);
    out->exposed_comm = ival_length(comm_x, ncx);
    free(comm_x);

    struct ival *mc = xmalloc((b[2].n + b[0].n + 1) * sizeof(struct ival));
    size_t nmc = ival_subtract(b[2].v, b[2].n, b[0].v, b[0].n, mc);
    struct ival *mc2 = xmalloc((nmc + b[1].n + 1) * sizeof(struct ival));
    size_t nmc2 = ival_subtract(mc, nmc, b[1].v, b[1].n, mc2);
    out->exposed_memcpy = ival_length(mc2, nmc2);
    free(mc);
    free(mc2);

    ivals_t all = {0};
    for (int k = 0; k < 3; k++) {
        VEC_APPEND(&all, b[k].v, b[k].n);
        VEC_FREE(&b[k]);
    }
    out->busy = ival_union_length(all.v, all.n);
    out->idle = out->total - out->busy;
    VEC_FREE(&all);
}

static const char *const row_names[] = {
    "computation_time", "exposed_comm_time", "exposed_memcpy_time", "busy_time",
    "idle_time",        "total_time",        "total_comm_time",     "total_memcpy_time",
};

static int64_t row_value(const struct timeline_breakdown *b, size_t k)
{
    const int64_t v[] = {b->computation, b->exposed_comm, b->exposed_memcpy, b->busy,
                         b->idle,        b->total,        b->total_comm,     b->total_memcpy};
    return v[k];
}

struct table *timeline_table(struct analysis *a, bool linked_only)
{
    const struct trace *t = a->t;
    static const struct table_col cols[] = {
        {"type", "type", COL_TEXT, 0, COLF_ASC},
        {"time ms", "time ms", COL_FLOAT, 3, 0},
        {"percent", "%", COL_PERCENT, 2, 0},
    };
    /* Titled by the device that ran the work: "MTIA timeline (all MTIA
     * events)" on an MTIA trace. */
    const char *dev = devkind_name(t->device_kind);
    char title[96];
    snprintf(title, sizeof(title),
             linked_only ? "%s timeline (%s events linked to a launch)"
                         : "%s timeline (all %s events)",
             dev, dev);
    struct table *tab = table_new("gpu_timeline", title, cols, ARRAY_SIZE(cols));
    tab->whole = true;
    const struct timeline_breakdown *b = analysis_breakdown(a, linked_only);
    for (size_t k = 0; k < ARRAY_SIZE(row_names); k++) {
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, row_names[k]);
        table_set_float(tab, r, 1, (double)row_value(b, k) / 1e6);
        table_set_float(tab, r, 2,
                        b->total ? 100.0 * (double)row_value(b, k) / (double)b->total : 0);
    }
    if (!b->n_events)
        table_add_note(tab, "the trace has no GPU kernels, copies or memsets");
    else if (!linked_only && t->n_unlinked)
        table_add_note(tab,
                       "%llu of %llu %s event%s %s not linked to a launch; "
                       "--linked-only leaves %s out (--linked-only --flow-links counts as "
                       "TraceLens does)",
                       (unsigned long long)t->n_unlinked, (unsigned long long)t->n_gpu, dev,
                       t->n_gpu == 1 ? "" : "s", t->n_unlinked == 1 ? "is" : "are",
                       t->n_unlinked == 1 ? "it" : "them");
    return tab;
}

struct table *timeline_device_table(const struct trace *t, bool linked_only)
{
    int devs[64];
    size_t ndev = 0;
    for (size_t k = 0; k < t->gpus.n && ndev < ARRAY_SIZE(devs); k++) {
        int d = t->gpus.v[k].device;
        size_t j = 0;
        while (j < ndev && devs[j] != d)
            j++;
        if (j == ndev)
            devs[ndev++] = d;
    }
    if (ndev < 2)
        return NULL;
    struct table_col *cols = xcalloc(ndev + 1, sizeof(*cols));
    char(*names)[32] = xcalloc(ndev, sizeof(*names));
    cols[0] = (struct table_col){"type", "type", COL_TEXT, 0, COLF_ASC};
    for (size_t j = 0; j < ndev; j++) {
        snprintf(names[j], sizeof(names[j]), "device %d ms", devs[j]);
        cols[j + 1] = (struct table_col){names[j], names[j], COL_FLOAT, 3, 0};
    }
    struct table *tab =
        table_new("gpu_timeline_per_device", "GPU timeline per device", cols, ndev + 1);
    tab->whole = true;
    /* table_new copies the column structs, not the name strings. */
    for (size_t j = 0; j < ndev; j++)
        tab->cols[j + 1].name = tab->cols[j + 1].title =
            arena_strndup(&tab->arena, names[j], strlen(names[j]));
    free(cols);
    free(names);
    struct timeline_breakdown *b = xcalloc(ndev, sizeof(*b));
    for (size_t j = 0; j < ndev; j++)
        timeline_breakdown(t, linked_only, devs[j], &b[j]);
    for (size_t k = 0; k < ARRAY_SIZE(row_names); k++) {
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, row_names[k]);
        for (size_t j = 0; j < ndev; j++)
            table_set_float(tab, r, j + 1, (double)row_value(&b[j], k) / 1e6);
    }
    free(b);
    return tab;
}
