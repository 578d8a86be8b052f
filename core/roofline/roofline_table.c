/* Roofline report tables: one per sheet, rows = parameter combinations
 * sorted by kernel time, and the GPU time no model covers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/opstats.h"
#include "core/roofline/roofline_internal.h"
#include "core/base/sort.h"
#include "core/trace/opname.h"

struct gorder {
    double kt_sum;
    uint32_t first_ev;
    uint32_t g;
};

/* Total kernel time descending, then the first instance's event (file
 * order), as TraceLens sorts its sheets. */
static inline bool gorder_less(const struct gorder *a, const struct gorder *b)
{
    if (a->kt_sum != b->kt_sum)
        return a->kt_sum > b->kt_sum;
    return a->first_ev < b->first_ev;
}

SORT_DEFINE(gorder_sort, struct gorder, gorder_less)

/* ------------------------------------------------------------------------ */
/* Tables                                                                   */
/* ------------------------------------------------------------------------ */

enum {
    M_GFLOPS,
    M_MB,
    M_INTENSITY,
    M_TFLOPS_MEAN,
    M_TFLOPS_MIN,
    M_TFLOPS_MAX,
    M_TBPS_MEAN,
    M_KT_SUM,
    M_KT_MEAN,
    M_COUNT,
    M_SPEC,
    M_ROOF,
    M_BOUND,
    M_PCT,
    M_MODEL,
    M_DIFFERS,
    M_TL_GFLOPS,
    M_TL_MB,
    M__N
};

static const struct table_col metric_cols[M__N] = {
    [M_GFLOPS] = {"GFLOPS_first", "GFLOP", COL_FLOAT, 4, 0},
    [M_MB] = {"Data Moved (MB)_first", "MB", COL_FLOAT, 3, 0},
    [M_INTENSITY] = {"FLOPS/Byte_first", "FLOP/B", COL_FLOAT, 2, 0},
    [M_TFLOPS_MEAN] = {"TFLOPS/s_mean", "TFLOP/s", COL_FLOAT, 3, 0},
    [M_TFLOPS_MIN] = {"TFLOPS/s_min", "min TFLOP/s", COL_FLOAT, 3, COLF_DETAIL},
    [M_TFLOPS_MAX] = {"TFLOPS/s_max", "max TFLOP/s", COL_FLOAT, 3, COLF_DETAIL},
    [M_TBPS_MEAN] = {"TB/s_mean", "TB/s", COL_FLOAT, 3, 0},
    [M_KT_SUM] = {"Kernel Time (µs)_sum", "total µs", COL_FLOAT, 1, 0},
    [M_KT_MEAN] = {"Kernel Time (µs)_mean", "mean µs", COL_FLOAT, 2, 0},
    [M_COUNT] = {"name_count", "count", COL_INT, 0, 0},
    [M_SPEC] = {"Compute Spec", "spec", COL_TEXT, 0, 0},
    [M_ROOF] = {"Roofline Time (µs)_first", "roof µs", COL_FLOAT, 2, COLF_DETAIL},
    [M_BOUND] = {"Roofline Bound_first", "bound", COL_TEXT, 0, 0},
    [M_PCT] = {"Pct Roofline_mean", "% roof", COL_PERCENT, 1, 0},
    [M_MODEL] = {"Model", "model", COL_TEXT, 0, COLF_DETAIL},
    [M_DIFFERS] = {"Differs from TraceLens", "differs", COL_TEXT, 0, COLF_DETAIL},
    [M_TL_GFLOPS] = {"TraceLens GFLOPS_first", "TL GFLOP", COL_FLOAT, 4, COLF_DETAIL},
    [M_TL_MB] = {"TraceLens Data Moved (MB)_first", "TL MB", COL_FLOAT, 3, COLF_DETAIL},
};

/* Parameters shown in text output; the rest (strides, layouts, the GEMM
 * kernel's transpose flags) only in CSV / JSON. */
static bool param_detail(const char *key)
{
    return strstr(key, "stride") != NULL || strcmp(key, "output_padding") == 0 ||
           strcmp(key, "transpose") == 0 || strcmp(key, "dilation") == 0 ||
           strcmp(key, "convNd") == 0 || strcmp(key, "flash_impl") == 0 ||
           strcmp(key, "dropout") == 0;
}

static const char *sheet_note(enum pm_sheet s)
{
    switch (s) {
    case PM_GEMM:
        return "model v1 = TraceLens 171dd74's, except aten::_scaled_mm: bias counted, each "
               "operand at its own dtype";
    case PM_GEMM_BWD:
        return "backward of the GEMM through the forward<->backward link: kernel time of the "
               "backward node, 4MNK FLOPs (TraceLens has no GEMM backward)";
    case PM_CONV_FWD:
        return "model v1: bias counted when present (TraceLens never counts it)";
    case PM_CONV_BWD:
        return "model v1: only the gradients output_mask asks for, bias gradient counted "
               "(TraceLens: input and weight gradients always, bias never)";
    case PM_SDPA_FWD:
    case PM_SDPA_BWD:
        return "model v1: bytes at the real dtype (TraceLens: 2 bytes per element)";
    case PM_REDUCE_FWD:
        return "model v1: output size from dim/keepdim (TraceLens: 1 element)";
    case PM_REDUCE_BWD:
        return "backward through the forward<->backward link: kernel time of the backward node "
               "of each forward op; output size from dim/keepdim (TraceLens: 1 element)";
    case PM_NORM:
        return "model v1: affine, bias and training read from the arguments (TraceLens: always "
               "affine with bias, batch norm always training)";
    case PM_RMSNORM:
        return "model v1 = TraceLens's RMSNorm extensions: the norm as aten::_fused_rms_norm, "
               "plus the fused residual add, quantization or padding (docs/metrics.md §7.8)";
    case PM_ROPE:
        return "model v1 = TraceLens's RoPE: the rotated slice of each query and key head, "
               "read and written (docs/metrics.md §7.10)";
    case PM_MOE_UNFUSED:
        return "model v1 = TraceLens's unfused MoE: each grouped-GEMM kernel of vllm::moe_forward "
               "and of vllm::outplace_fused_experts a row of its own (pseudo ops), up (the first) "
               "or down, timed by that kernel; aiter's two-stage and SGLang's Triton MoE GEMM ops "
               "whole (docs/metrics.md §7.12)";
    case PM_MOE_FUSED:
        return "model v1 = TraceLens's FusedMoE: both projections and the weighted sum in one "
               "kernel; vllm::rocm_aiter_fused_moe as its pseudo op, timed by its fmoe kernel "
               "(docs/metrics.md §7.13)";
    case PM_GROUPED_GEMM:
        return "model v1 = TraceLens's GroupedGemm: 2MKN FLOPs, X and the G weights read, Y "
               "written (docs/metrics.md §7.14)";
    case PM_MOE_COMM:
        return "model v1 = TraceLens's MoEComm: the tokens' bytes, no FLOPs, no compute spec "
               "(docs/metrics.md §7.15)";
    case PM_XENT:
        return "model v1 = TraceLens's CrossEntropy: 5 FLOPs per logit, logits, targets and "
               "losses (docs/metrics.md §7.16)";
    case PM_SOFTMAX:
        return "model v1, torchtop's own (TraceLens has none): 3 FLOPs per element, input read "
               "and output written (docs/metrics.md §7.17)";
    case PM_TRITON:
        return "model v1 = TraceLens's Triton model (V2, from the trace's arguments): FLOPs per "
               "element of the fused ops in the kernel name, the tensors' bytes (docs/metrics.md "
               "§7.11)";
    case PM_INFER_ATTN:
        return "model v1 = TraceLens's InferenceAttention: token counts from the serving step's "
               "iteration annotation (docs/metrics.md §7.9)";
    default:
        return "model v1 = TraceLens 171dd74's";
    }
}

static double mean_of(const double *v, size_t n, double *mn, double *mx)
{
    double s = 0;
    size_t k = 0;
    *mn = NAN;
    *mx = NAN;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        s += v[i];
        *mn = k && *mn <= v[i] ? *mn : v[i];
        *mx = k && *mx >= v[i] ? *mx : v[i];
        k++;
    }
    return k ? s / (double)k : NAN;
}

static struct table *sheet_table(const struct roofline *r, enum pm_sheet s, const uint32_t *gs,
                                 size_t ng)
{
    size_t nall;
    const struct pm_param_def *all = pm_sheet_params(s, &nall);
    /* The sheet's columns less the optional ones no group sets; pi maps a
     * kept column to its parameter. */
    size_t pi[PM_MAX_PARAMS], np = 0;
    for (size_t i = 0; i < nall && i < PM_MAX_PARAMS; i++) {
        bool set = !all[i].optional;
        for (size_t k = 0; k < ng && !set; k++)
            set = r->groups.v[gs[k]].params[i] != NULL;
        if (set)
            pi[np++] = i;
    }
    struct pm_param_def defs[PM_MAX_PARAMS];
    for (size_t i = 0; i < np; i++)
        defs[i] = all[pi[i]];
    /* is_recompute last, when recompute marking is on. */
    bool rc = r->a->recompute_on;
    size_t ncols = 1 + np + M__N + (rc ? 1 : 0);
    struct table_col *cols = xcalloc(ncols, sizeof(*cols));
    if (rc)
        cols[ncols - 1] = (struct table_col){"is_recompute", "recompute", COL_TEXT, 0, COLF_ASC};
    cols[0] = (struct table_col){"name", "op", COL_TEXT, 0, COLF_WIDE | COLF_ASC};
    /* The parameters that name a combination, its time, throughput, share
     * of the roof and bound make the first screen (COLF_KEY); dtype tuples
     * are cut between items (COLF_SHAPES). */
    for (size_t i = 0; i < np; i++) {
        bool detail = param_detail(defs[i].key);
        /* A parameter a row's model does not set is NaN in TraceLens's
         * sheets (its rows are dicts of the models' parameters). */
        uint16_t f = (detail ? COLF_DETAIL : COLF_KEY) | COLF_CSV_NAN;
        if (!defs[i].is_int && strncmp(defs[i].key, "dtype", 5) == 0)
            f |= COLF_SHAPES;
        cols[1 + i] =
            (struct table_col){defs[i].col, defs[i].key, defs[i].is_int ? COL_INT : COL_TEXT, 0, f};
    }
    memcpy(cols + 1 + np, metric_cols, sizeof(metric_cols));
    cols[1 + np + M_KT_SUM].flags |= COLF_KEY;
    cols[1 + np + M_BOUND].flags |= COLF_KEY;
    cols[1 + np + M_PCT].flags |= COLF_KEY;
    char title[128];
    snprintf(title, sizeof(title), "Roofline: %s (%s)", pm_sheet_name(s),
             r->have_dev ? r->dev.name : "no device peaks");
    struct table *tab = table_new(pm_sheet_name(s), title, cols, ncols);
    free(cols);
    VEC(double) tf = {0}, tb = {0}, pc = {0};
    double mem_us = 0, all_us = 0; /* kernel time of memory-bound rows, of all */
    uint32_t *first = xmalloc((ng + 1) * sizeof(*first));
    VEC(uint32_t) inst = {0};
    for (size_t k = 0; k < ng; k++) {
        const struct rf_group *g = &r->groups.v[gs[k]];
        size_t row = table_add_row(tab);
        table_set_text(tab, row, 0, rf_group_name(r, g));
        for (size_t i = 0; i < np; i++) {
            const char *p = g->params[pi[i]];
            if (!p)
                continue;
            int64_t v;
            if (defs[i].is_int && shapes_parse_int(p, &v))
                table_set_int(tab, row, 1 + i, v);
            else if (!defs[i].is_int)
                table_set_text(tab, row, 1 + i, p);
        }
        size_t m0 = 1 + np;
        const struct rf_inst *fi = &r->inst.v[g->first];
        table_set_float(tab, row, m0 + M_GFLOPS, fi->flops / 1e9);
        table_set_float(tab, row, m0 + M_MB, fi->bytes / (1024.0 * 1024.0));
        table_set_float(tab, row, m0 + M_INTENSITY, fi->bytes > 0 ? fi->flops / fi->bytes : NAN);
        tf.n = tb.n = pc.n = 0;
        first[k] = (uint32_t)inst.n;
        double kt_sum = 0;
        for (uint32_t m = r->mem_first[gs[k]]; m < r->mem_first[gs[k] + 1]; m++) {
            const struct rf_inst *in = &r->inst.v[r->mem[m]];
            VEC_PUSH(&inst, in->time_ev);
            kt_sum += in->kernel_us;
            double kt = in->kernel_us;
            VEC_PUSH(&tf, kt > 0 ? in->flops / (kt * 1e6) : NAN);
            VEC_PUSH(&tb, kt > 0 ? in->bytes / (kt * 1e6) : NAN);
            bool cb;
            double roof = rf_roof_us(r, g->spec, in->flops, in->bytes, &cb);
            VEC_PUSH(&pc, kt > 0 ? roof / kt * 100 : NAN);
        }
        double mn, mx;
        table_set_float(tab, row, m0 + M_TFLOPS_MEAN, mean_of(tf.v, tf.n, &mn, &mx));
        table_set_float(tab, row, m0 + M_TFLOPS_MIN, mn);
        table_set_float(tab, row, m0 + M_TFLOPS_MAX, mx);
        table_set_float(tab, row, m0 + M_TBPS_MEAN, mean_of(tb.v, tb.n, &mn, &mx));
        table_set_float(tab, row, m0 + M_KT_SUM, kt_sum);
        table_set_float(tab, row, m0 + M_KT_MEAN, g->count ? kt_sum / g->count : NAN);
        table_set_int(tab, row, m0 + M_COUNT, g->count);
        if (g->spec[0])
            table_set_text(tab, row, m0 + M_SPEC, g->spec);
        bool cb;
        double roof = rf_roof_us(r, g->spec, fi->flops, fi->bytes, &cb);
        table_set_float(tab, row, m0 + M_ROOF, roof);
        if (!isnan(roof))
            table_set_text(tab, row, m0 + M_BOUND, cb ? "COMPUTE_BOUND" : "MEMORY_BOUND");
        all_us += kt_sum;
        mem_us += !isnan(roof) && !cb ? kt_sum : 0;
        table_set_float(tab, row, m0 + M_PCT, mean_of(pc.v, pc.n, &mn, &mx));
        table_set_text(tab, row, m0 + M_MODEL, g->model);
        table_set_text(tab, row, m0 + M_DIFFERS, g->differs);
        table_set_float(tab, row, m0 + M_TL_GFLOPS, g->tl_flops / 1e9);
        table_set_float(tab, row, m0 + M_TL_MB, g->tl_bytes / (1024.0 * 1024.0));
        table_set_ref(tab, row, fi->time_ev);
        if (rc)
            table_set_text(tab, row, ncols - 1, g->recompute ? "True" : "False");
    }
    first[ng] = (uint32_t)inst.n;
    table_set_instances(tab, first, inst.v);
    /* Throughput in the unit of the model's roof: FLOP/s where the model
     * counts FLOPs for matrix units, else in the unit of what bounds most
     * of the kernel time. */
    bool flops = s == PM_GEMM || s == PM_GEMM_BWD || s == PM_CONV_FWD || s == PM_CONV_BWD ||
                 s == PM_SDPA_FWD || s == PM_SDPA_BWD || s == PM_INFER_ATTN || mem_us * 2 <= all_us;
    tab->cols[1 + np + (flops ? M_TFLOPS_MEAN : M_TBPS_MEAN)].flags |= COLF_KEY;
    tab->sorted_col = (int)(1 + np + M_KT_SUM);
    tab->sorted_desc = true;
    VEC_FREE(&tf);
    VEC_FREE(&tb);
    VEC_FREE(&pc);
    table_add_note(tab, "%s", r->note);
    table_add_note(tab, "%s", sheet_note(s));
    if (r->nested[s])
        table_add_note(tab,
                       "%u instance%s of ops inside an op of the same family (%s, ...) count in "
                       "the outermost op only",
                       r->nested[s], r->nested[s] == 1 ? "" : "s",
                       trace_str(r->t, r->nested_name[s]));
    return tab;
}

/* Launcher ops no model covers (nor an op above them), and modelled ops
 * whose model could not be evaluated, with their kernel time. */
enum { U_NAME, U_CAT, U_WHY, U_COUNT, U_SUM, U_MEAN, U__N };

struct ukey {
    uint32_t name;
    const char *why;
    uint32_t ev;
    double us;
};

static inline bool ukey_less(const struct ukey *a, const struct ukey *b)
{
    if (a->name != b->name)
        return a->name < b->name;
    if (a->why != b->why)
        return strcmp(a->why, b->why) < 0;
    return a->ev < b->ev;
}

SORT_DEFINE(ukey_sort, struct ukey, ukey_less)

struct urow {
    size_t first, n;
    double sum;
    uint32_t ev; /* first instance: ties keep file order, not string ids */
};

static inline bool urow_less(const struct urow *a, const struct urow *b)
{
    if (a->sum != b->sum)
        return a->sum > b->sum;
    return a->ev < b->ev;
}

SORT_DEFINE(urow_sort, struct urow, urow_less)

static struct table *unmodelled_table(const struct roofline *r)
{
    static const struct table_col cols[U__N] = {
        [U_NAME] = {"name", "op", COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        [U_CAT] = {"op category", "category", COL_TEXT, 0, COLF_ASC},
        [U_WHY] = {"reason", "reason", COL_TEXT, 0, COLF_ASC},
        [U_COUNT] = {"name_count", "count", COL_INT, 0, 0},
        [U_SUM] = {"Kernel Time (µs)_sum", "total µs", COL_FLOAT, 1, 0},
        [U_MEAN] = {"Kernel Time (µs)_mean", "mean µs", COL_FLOAT, 2, 0},
    };
    const struct trace *t = r->t;
    struct table *tab =
        table_new("no_model", "Roofline: kernel time of ops no model covers", cols, U__N);
    uint8_t *covered = xcalloc(t->ev.n ? t->ev.n : 1, 1);
    for (size_t i = 0; i < r->inst.n; i++) {
        covered[r->inst.v[i].ev] = 1;
        covered[r->inst.v[i].time_ev] = 1;
    }
    /* A launcher under an op whose model failed is that op's row. */
    for (size_t f = 0; f < r->fails.n; f++)
        covered[r->fails.v[f].ev] |= 2;
    VEC(struct ukey) keys = {0};
    const struct opstats *s = r->a->ops;
    for (size_t k = 0; k < s->n; k++) {
        uint32_t e = s->l[k].ev;
        bool cov = false;
        for (uint32_t p = e; p != IDX_NONE && !cov; p = t->ev.v[p].parent)
            cov = covered[p] != 0;
        if (cov)
            continue;
        /* Kernel time as in the sheets (memsets included, §6.3); a
         * launcher with no GPU time has nothing a roofline could cover. */
        struct ukey u = {opname_of(t, e), "no model", e, rf_kernel_us(r, e)};
        if (u.us > 0)
            VEC_PUSH(&keys, u);
    }
    for (size_t f = 0; f < r->fails.n; f++) {
        uint32_t e = r->fails.v[f].ev;
        struct ukey u = {opname_of(t, e), r->fails.v[f].why, e, rf_kernel_us(r, e)};
        VEC_PUSH(&keys, u);
    }
    free(covered);
    ukey_sort(keys.v, keys.n);
    VEC(struct urow) rows = {0};
    for (size_t i = 0; i < keys.n;) {
        size_t j = i;
        double sum = 0;
        while (j < keys.n && keys.v[j].name == keys.v[i].name && keys.v[j].why == keys.v[i].why)
            sum += keys.v[j++].us;
        struct urow u = {i, j - i, sum, keys.v[i].ev};
        for (size_t k = i; k < j; k++)
            if (keys.v[k].ev < u.ev)
                u.ev = keys.v[k].ev;
        VEC_PUSH(&rows, u);
        i = j;
    }
    urow_sort(rows.v, rows.n);
    uint32_t *first = xmalloc((rows.n + 1) * sizeof(*first));
    uint32_t *inst = xmalloc((keys.n + 1) * sizeof(*inst));
    size_t ni = 0;
    for (size_t k = 0; k < rows.n; k++) {
        const struct ukey *u = &keys.v[rows.v[k].first];
        size_t row = table_add_row(tab);
        table_set_text(tab, row, U_NAME, trace_str(t, u->name));
        table_set_text(tab, row, U_CAT, opcat_name(opstats_category(s, u->ev)));
        table_set_text(tab, row, U_WHY, u->why);
        table_set_int(tab, row, U_COUNT, (int64_t)rows.v[k].n);
        table_set_float(tab, row, U_SUM, rows.v[k].sum);
        table_set_float(tab, row, U_MEAN, rows.v[k].sum / (double)rows.v[k].n);
        table_set_ref(tab, row, u->ev);
        first[k] = (uint32_t)ni;
        for (size_t i = 0; i < rows.v[k].n; i++)
            inst[ni++] = keys.v[rows.v[k].first + i].ev;
    }
    first[rows.n] = (uint32_t)ni;
    table_set_instances(tab, first, inst);
    VEC_FREE(&rows);
    VEC_FREE(&keys);
    return tab;
}

static void message_table(struct table_list *out, const char *msg)
{
    static const struct table_col col = {"message", "message", COL_TEXT, 0, 0};
    struct table *tab = table_new("roofline", "Roofline", &col, 1);
    size_t row = table_add_row(tab);
    table_set_text(tab, row, 0, msg);
    table_list_add(out, tab);
}

void roofline_tables(const struct roofline *r, struct table_list *out)
{
    if (!r->has_shapes) {
        message_table(out, "no roofline: the trace was recorded without record_shapes=True, so "
                           "its ops have no Input Dims to model; profile with "
                           "torch.profiler.profile(record_shapes=True)");
        return;
    }
    const uint64_t *nk = r->t->n_by_kind;
    if (!nk[EVK_KERNEL] && !nk[EVK_MEMCPY]) {
        message_table(out, "no roofline: no GPU kernels in this trace (a CPU-only profile), so "
                           "there is no kernel time to set against the models; profile with "
                           "ProfilerActivity.CUDA");
        return;
    }
    size_t ng = r->groups.n;
    struct gorder *keys = xmalloc((ng + 1) * sizeof(*keys));
    uint32_t *order = xmalloc((ng + 1) * sizeof(*order));
    for (int s = 0; s < PM__COUNT; s++) {
        size_t n = 0;
        for (uint32_t g = 0; g < ng; g++)
            if (r->groups.v[g].sheet == s)
                keys[n++] =
                    (struct gorder){r->groups.v[g].kt_sum, r->inst.v[r->groups.v[g].first].ev, g};
        if (!n)
            continue;
        gorder_sort(keys, n);
        for (size_t i = 0; i < n; i++)
            order[i] = keys[i].g;
        table_list_add(out, sheet_table(r, (enum pm_sheet)s, order, n));
    }
    free(keys);
    free(order);
    table_list_add(out, unmodelled_table(r));
}
