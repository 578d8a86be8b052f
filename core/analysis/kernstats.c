/* Kernel summary table. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols/demangle.h"
#include "core/analysis/kernstats.h"
#include "core/analysis/kernutil.h"
#include "core/base/sort.h"
#include "core/analysis/timeline.h"
#include "core/trace/opname.h"

char *kernstats_display_name(const char *name)
{
    return demangle_or_copy(name);
}

struct kkey {
    uint8_t cat;
    uint32_t launcher_name;
    uint32_t kernel;
    uint32_t ev;
    int64_t stream;
};

static inline bool kkey_less(const struct kkey *a, const struct kkey *b)
{
    if (a->cat != b->cat)
        return a->cat < b->cat;
    if (a->launcher_name != b->launcher_name)
        return a->launcher_name < b->launcher_name;
    if (a->kernel != b->kernel)
        return a->kernel < b->kernel;
    if (a->stream != b->stream)
        return a->stream < b->stream;
    return a->ev < b->ev;
}

static inline bool kkey_same(const struct kkey *a, const struct kkey *b)
{
    return a->cat == b->cat && a->launcher_name == b->launcher_name && a->kernel == b->kernel &&
           a->stream == b->stream;
}

SORT_DEFINE(kkey_sort, struct kkey, kkey_less)

enum {
    K_CAT,
    K_PARENT,
    K_NAME,
    K_STREAM,
    K_SUM,
    K_COUNT,
    K_MEAN,
    K_MIN,
    K_MAX,
    K_PCT_KERNELS,
    K_PCT_TOTAL,
    K_UTIL, /* kernutil_cols */
    K__N = K_UTIL + KUC__N
};

#define CAT_UNLINKED OPCAT__COUNT

struct table *kernstats_table(struct analysis *an, bool linked_only)
{
    const struct opstats *s = an->ops;
    static const struct table_col tl_cols[K_UTIL] = {
        [K_CAT] = {"Parent op category", "category", COL_TEXT, 0, COLF_ASC},
        [K_PARENT] = {"Parent cpu_op", "launcher", COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        [K_NAME] = {"Kernel name", "kernel", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        [K_STREAM] = {"Kernel stream", "stream", COL_INT, 0, 0},
        [K_SUM] = {"Kernel duration (µs)_sum", "total µs", COL_FLOAT, 3, 0},
        [K_COUNT] = {"Kernel duration (µs)_count", "count", COL_INT, 0, 0},
        [K_MEAN] = {"Kernel duration (µs)_mean", "mean µs", COL_FLOAT, 3, 0},
        [K_MIN] = {"Kernel duration (µs)_min", "min µs", COL_FLOAT, 3, 0},
        [K_MAX] = {"Kernel duration (µs)_max", "max µs", COL_FLOAT, 3, 0},
        [K_PCT_KERNELS] = {"Percent of kernels time (%)", "% kernels", COL_PERCENT, 2, 0},
        [K_PCT_TOTAL] = {"Percent of total time (%)", "% span", COL_PERCENT, 2, 0},
    };
    struct table_col cols[K__N];
    memcpy(cols, tl_cols, sizeof(tl_cols));
    memcpy(cols + K_UTIL, kernutil_cols, sizeof(kernutil_cols));
    const struct trace *t = s->t;
    struct table *tab = table_new("kernel_summary", "GPU time by kernel", cols, K__N);
    struct kernutil_keys uk;
    kernutil_keys_init(&uk, t);
    uint8_t util_has = 0;
    VEC(struct kkey) keys = {0};
    uint64_t n_unlinked = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind != EVK_KERNEL || e->aux == IDX_NONE)
            continue;
        const struct gpu_info *g = &t->gpus.v[e->aux];
        if (g->launch == IDX_NONE)
            n_unlinked++;
        struct kkey k = {CAT_UNLINKED, 0, e->name, i, g->stream};
        if (g->launcher != IDX_NONE) {
            k.launcher_name = opname_of(t, g->launcher);
            k.cat = (uint8_t)opstats_category(s, g->launcher);
        }
        VEC_PUSH(&keys, k);
    }
    kkey_sort(keys.v, keys.n);
    const struct timeline_breakdown *b = analysis_breakdown(an, linked_only);
    double all = 0;
    for (size_t k = 0; k < keys.n; k++)
        all += (double)t->ev.v[keys.v[k].ev].dur;
    uint32_t *first = xcalloc(keys.n + 2, sizeof(uint32_t));
    uint32_t *inst = xmalloc((keys.n + 1) * sizeof(uint32_t));
    size_t nrows = 0;
    for (size_t a = 0; a < keys.n;) {
        size_t bnd = a + 1;
        while (bnd < keys.n && kkey_same(&keys.v[a], &keys.v[bnd]))
            bnd++;
        double sum = 0, mn = INFINITY, mx = -INFINITY;
        struct kernutil_acc util = {0};
        for (size_t k = a; k < bnd; k++) {
            struct kernutil u;
            bool has = kernutil_read(t, &uk, keys.v[k].ev, &u);
            kernutil_acc_add(&util, has ? &u : NULL, t->ev.v[keys.v[k].ev].dur);
            double d = (double)t->ev.v[keys.v[k].ev].dur / 1e3;
            sum += d;
            mn = fmin(mn, d);
            mx = fmax(mx, d);
            inst[k] = keys.v[k].ev;
        }
        const struct kkey *k0 = &keys.v[a];
        size_t r = table_add_row(tab);
        table_set_text(tab, r, K_CAT, k0->cat == CAT_UNLINKED ? "" : opcat_name(k0->cat));
        table_set_text(tab, r, K_PARENT,
                       k0->cat == CAT_UNLINKED ? "" : trace_str(t, k0->launcher_name));
        char *name = kernstats_display_name(trace_str(t, k0->kernel));
        table_set_text(tab, r, K_NAME, name);
        free(name);
        table_set_int(tab, r, K_STREAM, k0->stream);
        table_set_float(tab, r, K_SUM, sum);
        table_set_int(tab, r, K_COUNT, (int64_t)(bnd - a));
        table_set_float(tab, r, K_MEAN, sum / (double)(bnd - a));
        table_set_float(tab, r, K_MIN, mn);
        table_set_float(tab, r, K_MAX, mx);
        table_set_float(tab, r, K_PCT_KERNELS, all > 0 ? 100.0 * sum * 1e3 / all : 0);
        table_set_float(tab, r, K_PCT_TOTAL, b->total ? 100.0 * sum * 1e3 / (double)b->total : 0);
        kernutil_acc_put(&util, tab, r, K_UTIL);
        util_has |= util.has;
        table_set_ref(tab, r, k0->kernel);
        first[nrows + 1] = first[nrows] + (uint32_t)(bnd - a);
        nrows++;
        a = bnd;
    }
    table_set_instances(tab, first, inst);
    kernutil_hide_empty(tab, K_UTIL, util_has);
    VEC_FREE(&keys);
    /* A total order on the row keys first, so ties do not depend on
     * string ids (which parsing threads assign in any order). */
    static const struct table_sort_key order[] = {
        {K_SUM, true}, {K_CAT, false}, {K_PARENT, false}, {K_NAME, false}, {K_STREAM, false}};
    table_sort_keys(tab, order, ARRAY_SIZE(order));
    if (n_unlinked)
        table_add_note(tab, "%llu %s not linked to a launch: %s category and launcher are blank",
                       (unsigned long long)n_unlinked,
                       n_unlinked == 1 ? "kernel is" : "kernels are",
                       n_unlinked == 1 ? "its" : "their");
    return tab;
}
