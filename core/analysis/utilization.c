/* Occupancy per op and the GPU summary per device (utilization.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wide.h"
#include "core/analysis/kernutil.h"
#include "core/trace/steps.h"
#include "core/analysis/utilization.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/trace/opname.h"

/* One end of a kernel on the SM-efficiency sweep. */
struct endpoint {
    int64_t t;
    double delta; /* + blocks per SM at the start, - at the end */
    uint8_t end;  /* 0 start, 1 end: starts first at equal times */
};
static inline bool ep_before(const struct endpoint *a, const struct endpoint *b)
{
    return a->t != b->t ? a->t < b->t : a->end < b->end;
}
SORT_DEFINE(ep_sort, struct endpoint, ep_before)

struct ival {
    int64_t a, b;
};
static inline bool ival_before(const struct ival *x, const struct ival *y)
{
    return x->a < y->a;
}
SORT_DEFINE(ival_sort, struct ival, ival_before)

void utilization_device(const struct trace *t, int32_t device, int64_t from, int64_t to,
                        struct utilization_device *out)
{
    *out = (struct utilization_device){NAN, NAN, NAN};
    if (to <= from)
        return;
    struct kernutil_keys uk;
    kernutil_keys_init(&uk, t);
    VEC(struct ival) busy = {0};
    VEC(struct endpoint) eps = {0};
    double occ_ns = 0, occ_sum = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = trace_ev(t, i);
        const struct gpu_info *g;
        if (e->kind != EVK_KERNEL || !(g = ev_gpu(t, i)) || g->device != device)
            continue;
        int64_t a = e->ts > from ? e->ts : from, b = ev_end(e) < to ? ev_end(e) : to;
        if (b > a)
            *VEC_ADD(&busy) = (struct ival){a, b};
        struct kernutil u;
        if (!kernutil_read(t, &uk, i, &u))
            continue;
        /* The sweep sees every kernel, also those out of the span, so that
         * what runs at once is summed right; only time in it counts. */
        if ((u.has & KU_BPS) && u.blocks_per_sm > 0) {
            *VEC_ADD(&eps) = (struct endpoint){e->ts, u.blocks_per_sm, 0};
            *VEC_ADD(&eps) = (struct endpoint){ev_end(e), -u.blocks_per_sm, 1};
        }
        if ((u.has & KU_OCC) && b > a) {
            occ_ns += (double)(b - a);
            occ_sum += (double)(b - a) * u.occupancy;
        }
    }
    double span = (double)((__int128)to - from);
    ival_sort(busy.v, busy.n);
    int64_t busy_ns = 0, cur_a = 0, cur_b = INT64_MIN;
    for (size_t k = 0; k < busy.n; k++) {
        if (busy.v[k].a > cur_b) {
            if (cur_b > cur_a)
                busy_ns = wide_add_sat(busy_ns, wide_clamp((__int128)cur_b - cur_a));
            cur_a = busy.v[k].a;
            cur_b = busy.v[k].b;
        } else if (busy.v[k].b > cur_b) {
            cur_b = busy.v[k].b;
        }
    }
    if (cur_b > cur_a)
        busy_ns = wide_add_sat(busy_ns, wide_clamp((__int128)cur_b - cur_a));
    if (busy.n)
        out->busy = (double)busy_ns / span;
    if (eps.n) {
        ep_sort(eps.v, eps.n);
        double level = 0, eff = 0;
        for (size_t k = 0; k + 1 <= eps.n; k++) {
            level += eps.v[k].delta;
            if (k + 1 == eps.n)
                break;
            int64_t a = eps.v[k].t > from ? eps.v[k].t : from;
            int64_t b = eps.v[k + 1].t < to ? eps.v[k + 1].t : to;
            if (b > a && level > 1e-12)
                eff += (double)(b - a) * (level < 1.0 ? level : 1.0);
        }
        out->sm_efficiency = eff / span;
    }
    if (occ_ns > 0)
        out->occupancy = occ_sum / occ_ns / 100.0;
    VEC_FREE(&busy);
    VEC_FREE(&eps);
}

enum { O_OP, O_KERNELS, O_TIME, O_UTIL, O__N = O_UTIL + KUC__N };

static struct table *occupancy_by_op(const struct trace *t)
{
    struct table_col cols[O__N] = {
        [O_OP] = {"op", "launcher", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        [O_KERNELS] = {"kernels", "kernels", COL_INT, 0, 0},
        [O_TIME] = {"kernel_time_us", "kernel µs", COL_FLOAT, 3, 0},
    };
    memcpy(cols + O_UTIL, kernutil_cols, sizeof(kernutil_cols));
    /* The launch configuration differs from kernel to kernel of an op:
     * the kernels table has it. */
    for (size_t c = KUC_GRID; c <= KUC_SMEM; c++)
        cols[O_UTIL + c].flags |= COLF_DETAIL;
    struct table *tab = table_new("occupancy_by_op",
                                  "Kernel occupancy per launching op, time-weighted", cols, O__N);
    struct kernutil_keys uk;
    kernutil_keys_init(&uk, t);
    struct hmap row_of = {0}; /* op name id (UINT64_MAX: none) -> row */
    VEC(struct kernutil_acc) acc = {0};
    VEC(uint32_t) kev = {0}, krow = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = trace_ev(t, i);
        const struct gpu_info *g;
        if (e->kind != EVK_KERNEL || !(g = ev_gpu(t, i)))
            continue;
        uint64_t key = g->launcher == IDX_NONE ? UINT64_MAX : opname_of(t, g->launcher);
        uint32_t r = hmap_get(&row_of, key);
        if (r == IDX_NONE) {
            r = (uint32_t)table_add_row(tab);
            hmap_put(&row_of, key, r);
            table_set_text(tab, r, O_OP, key == UINT64_MAX ? NULL : trace_str(t, (uint32_t)key));
            table_set_ref(tab, r, key == UINT64_MAX ? IDX_NONE : (uint32_t)key);
            *VEC_ADD(&acc) = (struct kernutil_acc){0};
        }
        struct kernutil u;
        bool has = kernutil_read(t, &uk, i, &u);
        kernutil_acc_add(&acc.v[r], has ? &u : NULL, e->dur);
        VEC_PUSH(&kev, i);
        VEC_PUSH(&krow, r);
    }
    uint8_t all_has = 0;
    for (size_t r = 0; r < tab->nrows; r++) {
        table_set_int(tab, r, O_KERNELS, 0);
        table_set_float(tab, r, O_TIME, (double)acc.v[r].ns / 1e3);
        kernutil_acc_put(&acc.v[r], tab, r, O_UTIL);
        all_has |= acc.v[r].has;
    }
    uint32_t *first = xcalloc(tab->nrows + 1, sizeof(*first));
    for (size_t k = 0; k < kev.n; k++) {
        first[krow.v[k] + 1]++;
        tab->cells[(size_t)krow.v[k] * O__N + O_KERNELS].i++;
    }
    for (size_t r = 0; r < tab->nrows; r++)
        first[r + 1] += first[r];
    uint32_t *inst = xmalloc((kev.n + 1) * sizeof(*inst));
    uint32_t *fill = xmalloc((tab->nrows + 1) * sizeof(*fill));
    memcpy(fill, first, (tab->nrows + 1) * sizeof(*fill));
    for (size_t k = 0; k < kev.n; k++)
        inst[fill[krow.v[k]]++] = kev.v[k];
    free(fill);
    table_set_instances(tab, first, inst);
    kernutil_hide_empty(tab, O_UTIL, all_has);
    if (all_has & KU_OCC) {
        static const struct table_sort_key order[] = {{O_UTIL + KUC_UNOCC, true}, {O_OP, false}};
        table_sort_keys(tab, order, ARRAY_SIZE(order));
    } else {
        static const struct table_sort_key order[] = {{O_TIME, true}, {O_OP, false}};
        table_sort_keys(tab, order, ARRAY_SIZE(order));
        table_add_note(tab, "the kernels record no est. achieved occupancy: ranked by kernel time");
    }
    hmap_free(&row_of);
    VEC_FREE(&acc);
    VEC_FREE(&kev);
    VEC_FREE(&krow);
    return tab;
}

enum { D_DEVICE, D_FROM, D_SPAN, D_BUSY, D_SM_EFF, D_OCC, D__N };

static struct table *gpu_utilization(const struct trace *t)
{
    static const struct table_col cols[D__N] = {
        [D_DEVICE] = {"device", "device", COL_INT, 0, COLF_ASC},
        [D_FROM] = {"over", "over", COL_TEXT, 0, COLF_ASC},
        [D_SPAN] = {"span_us", "span µs", COL_FLOAT, 3, 0},
        [D_BUSY] = {"GPU utilization %", "GPU util %", COL_PERCENT, 2, 0},
        [D_SM_EFF] = {"est. SM efficiency %", "SM eff %", COL_PERCENT, 2, 0},
        [D_OCC] = {"est. achieved occupancy %", "occ %", COL_PERCENT, 2, 0},
    };
    struct table *tab =
        table_new("gpu_utilization", "GPU summary per device, over the steps", cols, D__N);
    tab->whole = true;
    size_t nsteps;
    struct step_span *steps = steps_spans(t, &nsteps);
    /* Devices in order of id, each over the steps or, without steps, over
     * its own span of kernels. */
    VEC(int32_t) devs = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct gpu_info *g;
        if (trace_ev(t, i)->kind != EVK_KERNEL || !(g = ev_gpu(t, i)))
            continue;
        size_t k = 0;
        while (k < devs.n && devs.v[k] != g->device)
            k++;
        if (k == devs.n)
            VEC_PUSH(&devs, g->device);
    }
    for (size_t a = 1; a < devs.n; a++)
        for (size_t b = a; b > 0 && devs.v[b - 1] > devs.v[b]; b--) {
            int32_t x = devs.v[b];
            devs.v[b] = devs.v[b - 1];
            devs.v[b - 1] = x;
        }
    for (size_t k = 0; k < devs.n; k++) {
        int64_t from = INT64_MAX, to = INT64_MIN;
        if (nsteps) {
            from = steps[0].ts;
            for (size_t s = 0; s < nsteps; s++)
                to = steps[s].end > to ? steps[s].end : to;
        } else {
            for (uint32_t i = 0; i < t->ev.n; i++) {
                const struct event *e = trace_ev(t, i);
                const struct gpu_info *g;
                if (e->kind != EVK_KERNEL || !(g = ev_gpu(t, i)) || g->device != devs.v[k])
                    continue;
                from = e->ts < from ? e->ts : from;
                to = ev_end(e) > to ? ev_end(e) : to;
            }
        }
        struct utilization_device u;
        utilization_device(t, devs.v[k], from, to, &u);
        size_t r = table_add_row(tab);
        table_set_int(tab, r, D_DEVICE, devs.v[k]);
        char buf[64];
        if (nsteps)
            snprintf(buf, sizeof(buf), "%zu step%s", nsteps, nsteps == 1 ? "" : "s");
        table_set_text(tab, r, D_FROM, nsteps ? buf : "kernels' span");
        table_set_float(tab, r, D_SPAN, to > from ? (double)(to - from) / 1e3 : NAN);
        table_set_float(tab, r, D_BUSY, 100.0 * u.busy);
        table_set_float(tab, r, D_SM_EFF, 100.0 * u.sm_efficiency);
        table_set_float(tab, r, D_OCC, 100.0 * u.occupancy);
    }
    /* Columns no kernel gives a value for (ROCm records neither blocks
     * per SM nor occupancy) stay out of text output. */
    for (size_t c = D_SM_EFF; c <= D_OCC; c++) {
        bool any = false;
        for (size_t r = 0; r < tab->nrows && !any; r++)
            any = !isnan(table_cell(tab, r, c).f);
        if (!any)
            tab->cols[c].flags |= COLF_DETAIL;
    }
    free(steps);
    VEC_FREE(&devs);
    return tab;
}

bool utilization_tables(const struct trace *t, struct table_list *out, char *err)
{
    if (!t->n_by_kind[EVK_KERNEL]) {
        snprintf(err, 256, "the trace has no kernel events");
        return false;
    }
    table_list_add(out, occupancy_by_op(t));
    table_list_add(out, gpu_utilization(t));
    return true;
}
