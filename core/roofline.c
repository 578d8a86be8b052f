/* Roofline analysis: modelled instances, their grouping into parameter
 * combinations per sheet, the report tables and the per-instance line. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/opstats.h"
#include "core/roofline_internal.h"
#include "core/sort.h"

/* ------------------------------------------------------------------------ */
/* Models per event                                                         */
/* ------------------------------------------------------------------------ */

const struct pm_model *rf_model(struct roofline *r, uint32_t ev)
{
    const struct event *e = &r->t->ev.v[ev];
    if (e->kind != EVK_CPU_OP)
        return NULL;
    uint32_t k = u64map_get(&r->model_of, e->name);
    if (k == IDX_NONE) {
        const struct pm_model *m = pm_find(trace_str(r->t, e->name));
        VEC_PUSH(&r->models, m);
        k = (uint32_t)r->models.n - 1;
        u64map_put(&r->model_of, e->name, k);
    }
    return r->models.v[k];
}

/* Families, for "does this backward node hold an op of the same family". */
static int family(enum pm_sheet s)
{
    switch (s) {
    case PM_GEMM:
    case PM_GEMM_BWD:
        return 0;
    case PM_CONV_FWD:
    case PM_CONV_BWD:
        return 1;
    case PM_SDPA_FWD:
    case PM_SDPA_BWD:
        return 2;
    case PM_BINARY:
    case PM_UNARY:
        return 3;
    case PM_REDUCE_FWD:
    case PM_REDUCE_BWD:
        return 4;
    default:
        return 5;
    }
}

static bool subtree_has_family(struct roofline *r, uint32_t root, int fam)
{
    const struct trace *t = r->t;
    VEC(uint32_t) stack = {0};
    bool found = false;
    for (uint32_t c = t->ev.v[root].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
        VEC_PUSH(&stack, c);
    while (stack.n && !found) {
        uint32_t e = stack.v[--stack.n];
        const struct pm_model *m = rf_model(r, e);
        if (m && family(m->sheet) == fam)
            found = true;
        for (uint32_t c = t->ev.v[e].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
            VEC_PUSH(&stack, c);
    }
    VEC_FREE(&stack);
    return found;
}

static bool parse_op(const struct trace *t, uint32_t ev, struct op_args *a)
{
    const struct op_info *o = ev_op(t, ev);
    if (!o || !o->input_dims) {
        memset(a, 0, sizeof(*a));
        return false;
    }
    return op_args_parse(a, trace_str(t, o->input_dims), trace_str(t, o->input_type),
                         trace_str(t, o->input_strides), trace_str(t, o->concrete_inputs));
}

/* For a forward op recorded without Concrete Inputs: the arguments of the
 * backward op of the same family under the backward node linked to it (or
 * to the op it is nested in). */
static bool find_linked(struct roofline *r, uint32_t ev, enum pm_sheet bwd_sheet,
                        struct op_args *out)
{
    const struct trace *t = r->t;
    uint32_t b = IDX_NONE;
    for (uint32_t e = ev, depth = 0; e != IDX_NONE && depth < 8 && b == IDX_NONE;
         e = t->ev.v[e].parent, depth++) {
        const struct op_info *o = ev_op(t, e);
        if (o && o->partner != IDX_NONE && (t->ev.v[o->partner].flags & EVF_BACKWARD))
            b = o->partner;
    }
    if (b == IDX_NONE)
        return false;
    VEC(uint32_t) stack = {0};
    bool found = false;
    VEC_PUSH(&stack, b);
    while (stack.n && !found) {
        uint32_t e = stack.v[--stack.n];
        const struct pm_model *m = rf_model(r, e);
        if (m && m->sheet == bwd_sheet && e != b) {
            if (parse_op(t, e, out))
                found = true;
            else
                op_args_done(out);
        }
        for (uint32_t c = t->ev.v[e].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
            VEC_PUSH(&stack, c);
    }
    VEC_FREE(&stack);
    return found;
}

/* ------------------------------------------------------------------------ */
/* Grouping                                                                 */
/* ------------------------------------------------------------------------ */

static void slots_grow(struct roofline *r)
{
    size_t cap = r->slots ? (r->slot_mask + 1) * 2 : 1024;
    free(r->slots);
    r->slots = xmalloc(cap * sizeof(*r->slots));
    memset(r->slots, 0xff, cap * sizeof(*r->slots));
    r->slot_mask = cap - 1;
    for (uint32_t g = 0; g < r->groups.n; g++) {
        size_t s = r->groups.v[g].hash & r->slot_mask;
        while (r->slots[s] != IDX_NONE)
            s = (s + 1) & r->slot_mask;
        r->slots[s] = g;
    }
}

static uint32_t group_of(struct roofline *r, uint32_t name, const struct pm_result *res)
{
    struct strbuf key = STRBUF_INIT;
    sb_printf(&key, "%u\x1f%u", (unsigned)res->sheet, (unsigned)name);
    for (size_t i = 0; i < res->nparams; i++) {
        const char *p = pm_param(res, i);
        sb_putc(&key, '\x1f');
        sb_puts(&key, p ? p : "\x1e");
    }
    uint64_t h = hash_bytes(key.s, key.len);
    if (!r->slots || (r->groups.n + 1) * 2 > r->slot_mask + 1)
        slots_grow(r);
    size_t s = h & r->slot_mask;
    for (; r->slots[s] != IDX_NONE; s = (s + 1) & r->slot_mask) {
        const struct rf_group *g = &r->groups.v[r->slots[s]];
        if (g->hash == h && strcmp(g->key, sb_str(&key)) == 0) {
            sb_free(&key);
            return r->slots[s];
        }
    }
    struct rf_group *g = VEC_ADD(&r->groups);
    g->sheet = (uint8_t)res->sheet;
    g->name = name;
    g->hash = h;
    g->key = arena_strndup(&r->arena, sb_str(&key), key.len);
    g->nparams = res->nparams;
    g->params = arena_alloc(&r->arena, (res->nparams + 1) * sizeof(*g->params));
    for (size_t i = 0; i < res->nparams; i++) {
        const char *p = pm_param(res, i);
        g->params[i] = p ? arena_strndup(&r->arena, p, strlen(p)) : NULL;
    }
    g->first = (uint32_t)r->inst.n;
    g->tl_flops = res->tl_flops;
    g->tl_bytes = res->tl_bytes;
    memcpy(g->spec, res->spec, sizeof(g->spec));
    g->model = res->model;
    g->differs = res->differs;
    r->slots[s] = (uint32_t)r->groups.n - 1;
    sb_free(&key);
    return (uint32_t)r->groups.n - 1;
}

static void add_inst(struct roofline *r, uint32_t ev, uint32_t time_ev, bool bwd,
                     const struct pm_result *res)
{
    uint32_t g = group_of(r, r->t->ev.v[ev].name, res);
    struct rf_inst *in = VEC_ADD(&r->inst);
    in->ev = ev;
    in->time_ev = time_ev;
    in->group = g;
    in->bwd = bwd;
    in->flops = res->flops;
    in->bytes = res->bytes;
    in->kernel_us = (double)gputime_subtree(r->a->gt, time_ev, false) / 1000.0;
    struct rf_group *gr = &r->groups.v[g];
    gr->count++;
    gr->kt_sum += in->kernel_us;
    u64map_put(&r->by_time_ev, time_ev, (uint32_t)r->inst.n - 1);
}

static void model_event(struct roofline *r, uint32_t ev, const struct pm_model *m)
{
    const struct trace *t = r->t;
    struct op_args args, linked;
    if (!parse_op(t, ev, &args)) {
        op_args_done(&args);
        struct rf_fail f = {ev, "no shapes recorded for this op"};
        VEC_PUSH(&r->fails, f);
        return;
    }
    struct pm_ctx c = {.op = trace_str(t, t->ev.v[ev].name), .a = &args};
    bool have_linked = false;
    if (m->sheet == PM_CONV_FWD && args.n && !*args.concrete[3] && !*args.concrete[2])
        have_linked = find_linked(r, ev, PM_CONV_BWD, &linked);
    if (have_linked)
        c.linked = &linked;
    struct pm_result *res = xmalloc(sizeof(*res));
    if (pm_eval(m, &c, res)) {
        add_inst(r, ev, ev, false, res);
    } else {
        struct rf_fail f = {ev, "arguments do not fit the model"};
        VEC_PUSH(&r->fails, f);
    }
    const struct op_info *o = ev_op(t, ev);
    uint32_t b = o ? o->partner : IDX_NONE;
    if (m->bwd_sheet != PM_NONE && b != IDX_NONE && (t->ev.v[b].flags & EVF_BACKWARD) &&
        u64map_get(&r->by_time_ev, b) == IDX_NONE && !subtree_has_family(r, b, family(m->sheet))) {
        c.bwd = true;
        if (pm_eval(m, &c, res))
            add_inst(r, ev, b, true, res);
    }
    free(res);
    if (have_linked)
        op_args_done(&linked);
    op_args_done(&args);
}

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

static void build_members(struct roofline *r)
{
    size_t ng = r->groups.n;
    r->mem_first = xcalloc(ng + 1, sizeof(*r->mem_first));
    r->mem = xmalloc((r->inst.n + 1) * sizeof(*r->mem));
    for (size_t i = 0; i < r->inst.n; i++)
        r->mem_first[r->inst.v[i].group + 1]++;
    for (size_t g = 0; g < ng; g++)
        r->mem_first[g + 1] += r->mem_first[g];
    uint32_t *fill = xmalloc((ng + 1) * sizeof(*fill));
    memcpy(fill, r->mem_first, (ng + 1) * sizeof(*fill));
    for (size_t i = 0; i < r->inst.n; i++)
        r->mem[fill[r->inst.v[i].group]++] = (uint32_t)i;
    free(fill);
}

struct roofline *roofline_new(struct analysis *a, const char *arch, char *err)
{
    err[0] = '\0';
    struct roofline *r = xcalloc(1, sizeof(*r));
    r->a = a;
    r->t = a->t;
    const struct trace *t = r->t;
    char msg[sizeof(r->note)];
    r->have_dev = devices_resolve(t, arch, &r->dev, msg, sizeof(msg));
    if (!r->have_dev && arch && *arch) {
        snprintf(err, 256, "%.255s", msg);
        free(r);
        return NULL;
    }
    if (r->have_dev)
        snprintf(r->note, sizeof(r->note), "device: %s (%s), memory %.0f GB/s", r->dev.name,
                 r->dev.origin, r->dev.mem_bw_gbps);
    else
        snprintf(r->note, sizeof(r->note), "roofline columns are empty: %.570s", msg);
    arena_init(&r->arena, 0);
    u64map_init(&r->model_of, 256);
    u64map_init(&r->by_time_ev, 1024);
    for (uint32_t i = 0; i < t->ev.n && !r->has_shapes; i++)
        r->has_shapes = (t->ev.v[i].flags & EVF_HAS_SHAPES) != 0;
    if (r->has_shapes)
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct pm_model *m = rf_model(r, i);
            if (m)
                model_event(r, i, m);
        }
    build_members(r);
    return r;
}

void roofline_free(struct roofline *r)
{
    if (!r)
        return;
    VEC_FREE(&r->inst);
    VEC_FREE(&r->groups);
    VEC_FREE(&r->fails);
    VEC_FREE(&r->models);
    u64map_free(&r->by_time_ev);
    u64map_free(&r->model_of);
    free(r->mem_first);
    free(r->mem);
    free(r->slots);
    arena_free(&r->arena);
    free(r);
}

bool roofline_has_shapes(const struct roofline *r)
{
    return r->has_shapes;
}

const struct device_peaks *roofline_device(const struct roofline *r)
{
    return r->have_dev ? &r->dev : NULL;
}

const char *roofline_device_note(const struct roofline *r)
{
    return r->note;
}

double rf_roof_us(const struct roofline *r, const char *spec, double flops, double bytes,
                  bool *compute_bound)
{
    *compute_bound = false;
    if (!r->have_dev || !spec || !*spec || isnan(flops) || isnan(bytes))
        return NAN;
    double peak = devices_peak(&r->dev, spec);
    if (peak <= 0 || r->dev.mem_bw_gbps <= 0)
        return NAN;
    double compute = flops / (peak * 1e6); /* TFLOP/s -> µs */
    double memory = bytes / (r->dev.mem_bw_gbps * 1e3);
    *compute_bound = compute > memory;
    return compute > memory ? compute : memory;
}

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

/* Parameters shown in text output; the rest (strides, layouts) only in
 * CSV / JSON. */
static bool param_detail(const char *key)
{
    return strstr(key, "stride") != NULL || strcmp(key, "output_padding") == 0 ||
           strcmp(key, "dilation") == 0 || strcmp(key, "convNd") == 0 ||
           strcmp(key, "flash_impl") == 0 || strcmp(key, "dropout") == 0;
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
    size_t np;
    const struct pm_param_def *defs = pm_sheet_params(s, &np);
    size_t ncols = 1 + np + M__N;
    struct table_col *cols = xcalloc(ncols, sizeof(*cols));
    cols[0] = (struct table_col){"name", "op", COL_TEXT, 0, COLF_WIDE | COLF_ASC};
    for (size_t i = 0; i < np; i++)
        cols[1 + i] =
            (struct table_col){defs[i].col, defs[i].key, defs[i].is_int ? COL_INT : COL_TEXT, 0,
                               param_detail(defs[i].key) ? COLF_DETAIL : 0};
    memcpy(cols + 1 + np, metric_cols, sizeof(metric_cols));
    char title[128];
    snprintf(title, sizeof(title), "Roofline: %s (%s)", pm_sheet_name(s),
             r->have_dev ? r->dev.name : "no device peaks");
    struct table *tab = table_new(pm_sheet_name(s), title, cols, ncols);
    free(cols);
    VEC(double) tf = {0}, tb = {0}, pc = {0};
    uint32_t *first = xmalloc((ng + 1) * sizeof(*first));
    VEC(uint32_t) inst = {0};
    for (size_t k = 0; k < ng; k++) {
        const struct rf_group *g = &r->groups.v[gs[k]];
        size_t row = table_add_row(tab);
        table_set_text(tab, row, 0, trace_str(r->t, g->name));
        for (size_t i = 0; i < np; i++) {
            const char *p = g->params[i];
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
        table_set_float(tab, row, m0 + M_PCT, mean_of(pc.v, pc.n, &mn, &mx));
        table_set_text(tab, row, m0 + M_MODEL, g->model);
        table_set_text(tab, row, m0 + M_DIFFERS, g->differs);
        table_set_float(tab, row, m0 + M_TL_GFLOPS, g->tl_flops / 1e9);
        table_set_float(tab, row, m0 + M_TL_MB, g->tl_bytes / (1024.0 * 1024.0));
        table_set_ref(tab, row, fi->time_ev);
    }
    first[ng] = (uint32_t)inst.n;
    table_set_instances(tab, first, inst.v);
    VEC_FREE(&tf);
    VEC_FREE(&tb);
    VEC_FREE(&pc);
    table_add_note(tab, "%s", r->note);
    table_add_note(tab, "%s", sheet_note(s));
    return tab;
}

/* Launcher ops no model covers (nor an op above them), and modelled ops
 * whose model could not be evaluated. */
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
};

static inline bool urow_less(const struct urow *a, const struct urow *b)
{
    return a->sum > b->sum;
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
        table_new("no_model", "Roofline: GPU time of ops no model covers", cols, U__N);
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
        if (!cov) {
            struct ukey u = {t->ev.v[e].name, "no model", e, (double)s->l[k].subtree / 1000.0};
            VEC_PUSH(&keys, u);
        }
    }
    for (size_t f = 0; f < r->fails.n; f++) {
        uint32_t e = r->fails.v[f].ev;
        struct ukey u = {t->ev.v[e].name, r->fails.v[f].why, e,
                         (double)gputime_subtree(r->a->gt, e, false) / 1000.0};
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
        struct urow u = {i, j - i, sum};
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

void roofline_tables(const struct roofline *r, struct table_list *out)
{
    if (!r->has_shapes) {
        static const struct table_col col = {"message", "message", COL_TEXT, 0, 0};
        struct table *tab = table_new("roofline", "Roofline", &col, 1);
        size_t row = table_add_row(tab);
        table_set_text(tab, row, 0,
                       "no roofline: the trace was recorded without record_shapes=True, so its "
                       "ops have no Input Dims to model; profile with "
                       "torch.profiler.profile(record_shapes=True)");
        table_list_add(out, tab);
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

bool roofline_report_build(struct analysis *a, const struct report_opts *o, struct table_list *out,
                           char *err_msg)
{
    struct roofline *r = roofline_new(a, o ? o->arch : NULL, err_msg);
    if (!r)
        return false;
    roofline_tables(r, out);
    roofline_free(r);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Instances                                                                */
/* ------------------------------------------------------------------------ */

bool roofline_instance(const struct roofline *r, uint32_t ev, struct pm_result *res,
                       struct roofline_point *pt)
{
    uint32_t k = u64map_get(&r->by_time_ev, ev);
    if (k == IDX_NONE)
        return false;
    const struct rf_inst *in = &r->inst.v[k];
    const struct rf_group *g = &r->groups.v[in->group];
    if (res) {
        /* An instance's parameters are its group's. */
        memset(res, 0, offsetof(struct pm_result, text));
        res->sheet = g->sheet;
        res->nparams = g->nparams;
        for (size_t i = 0; i < PM_MAX_PARAMS; i++)
            res->off[i] = UINT16_MAX;
        for (size_t i = 0; i < g->nparams; i++)
            pm_set_text(res, i, g->params[i]);
        memcpy(res->spec, g->spec, sizeof(res->spec));
        res->model = g->model;
        res->differs = g->differs;
        res->tl_flops = g->tl_flops;
        res->tl_bytes = g->tl_bytes;
        res->flops = in->flops;
        res->bytes = in->bytes;
    }
    if (pt) {
        memset(pt, 0, sizeof(*pt));
        pt->flops = in->flops;
        pt->bytes = in->bytes;
        pt->kernel_us = in->kernel_us;
        pt->intensity = in->bytes > 0 ? in->flops / in->bytes : NAN;
        pt->tflops = in->kernel_us > 0 ? in->flops / (in->kernel_us * 1e6) : NAN;
        pt->tbps = in->kernel_us > 0 ? in->bytes / (in->kernel_us * 1e6) : NAN;
        pt->peak_tflops = r->have_dev ? devices_peak(&r->dev, g->spec) : 0;
        pt->roof_us = rf_roof_us(r, g->spec, in->flops, in->bytes, &pt->compute_bound);
        pt->pct = in->kernel_us > 0 ? pt->roof_us / in->kernel_us * 100 : NAN;
    }
    return true;
}

/* Shape text of a Python tuple param, "(4096, 4096)" -> "4096×4096". */
static void put_dims(struct strbuf *out, const char *tuple, const char *times)
{
    if (!tuple)
        return;
    bool any = false;
    for (const char *p = tuple; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            sb_putc(out, *p);
            any = true;
        } else if (*p == ',' && any && p[1] && p[1] != ')') {
            sb_puts(out, times);
        }
    }
    if (!any)
        sb_puts(out, "scalar");
}

static void put_num(struct strbuf *out, double v)
{
    if (isnan(v))
        sb_puts(out, "?");
    else if (v >= 100 || v == floor(v))
        sb_printf(out, "%.0f", v);
    else
        sb_printf(out, "%.3g", v);
}

bool roofline_summary_line(struct strbuf *out, const struct roofline *r, uint32_t ev, bool ascii)
{
    struct pm_result *res = xmalloc(sizeof(*res));
    struct roofline_point pt;
    if (!roofline_instance(r, ev, res, &pt)) {
        free(res);
        return false;
    }
    const char *x = ascii ? "x" : "\u00d7", *dot = ascii ? " - " : " \u00b7 ";
    uint32_t k = u64map_get(&r->by_time_ev, ev);
    const struct rf_inst *in = &r->inst.v[k];
    sb_puts(out, trace_str(r->t, r->t->ev.v[in->ev].name));
    if (in->bwd)
        sb_puts(out, " (backward)");
    sb_putc(out, ' ');
    switch (res->sheet) {
    case PM_GEMM:
    case PM_GEMM_BWD: {
        const char *b = pm_param(res, 7);
        if (b && strcmp(b, "1") != 0)
            sb_printf(out, "%s%s", b, x);
        sb_printf(out, "%s%s%s%s%s", pm_param(res, 0) ? pm_param(res, 0) : "?", x,
                  pm_param(res, 1) ? pm_param(res, 1) : "?", x,
                  pm_param(res, 2) ? pm_param(res, 2) : "?");
        break;
    }
    case PM_CONV_FWD:
    case PM_CONV_BWD:
        put_dims(out, pm_param(res, 1), x);
        sb_puts(out, " * ");
        put_dims(out, pm_param(res, 2), x);
        break;
    case PM_SDPA_FWD:
    case PM_SDPA_BWD:
        sb_printf(out, "B%s H%s/%s N%s/%s d%s", pm_param(res, 0), pm_param(res, 2),
                  pm_param(res, 4), pm_param(res, 1), pm_param(res, 3), pm_param(res, 5));
        if (pm_param(res, 8) && strcmp(pm_param(res, 8), "True") == 0)
            sb_puts(out, " causal");
        break;
    case PM_BINARY:
        put_dims(out, pm_param(res, 0), x);
        sb_puts(out, ", ");
        put_dims(out, pm_param(res, 1), x);
        break;
    case PM_REDUCE_FWD:
    case PM_REDUCE_BWD:
        sb_printf(out, "%s -> %s", pm_param(res, 0), pm_param(res, 1));
        break;
    default:
        put_dims(out, pm_param(res, 0), x);
        break;
    }
    const char *us = strchr(res->spec, '_');
    if (us)
        sb_printf(out, " %s", us + 1);
    sb_puts(out, dot);
    if (pt.flops >= 1e9 || pt.flops == 0)
        sb_printf(out, "%.4g GFLOP", pt.flops / 1e9);
    else
        sb_printf(out, "%.4g MFLOP", pt.flops / 1e6);
    sb_puts(out, dot);
    put_num(out, pt.intensity);
    sb_puts(out, " FLOP/B");
    sb_puts(out, dot);
    if (isnan(pt.tflops))
        sb_puts(out, "no kernel time");
    else if (pt.tflops >= 0.1)
        sb_printf(out, "%.4g TFLOP/s", pt.tflops);
    else
        sb_printf(out, "%.4g GFLOP/s", pt.tflops * 1e3);
    if (!isnan(pt.pct)) {
        sb_puts(out, dot);
        sb_printf(out, pt.pct < 10 ? "%.2g %% of roofline, %s" : "%.0f %% of roofline, %s", pt.pct,
                  pt.compute_bound ? "compute-bound" : "memory-bound");
    }
    free(res);
    return true;
}
