/* key_averages: self/total CPU and device time per op name. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/keyavg.h"
#include "core/kernstats.h"
#include "core/sort.h"
#include "core/strbuf.h"
#include "core/u64map.h"

static bool is_row_event(const struct event *e)
{
    return e->ph == 'X' && (e->kind == EVK_CPU_OP || e->kind == EVK_ANNOTATION ||
                            evk_is_launch(e->kind) || evk_is_gpu(e->kind));
}

static bool is_host_row_event(const struct event *e)
{
    return is_row_event(e) && !evk_is_gpu(e->kind);
}

/* Nearest enclosing host row event, Python frames and others passed over. */
static uint32_t row_parent(const struct trace *t, uint32_t i)
{
    for (uint32_t p = t->ev.v[i].parent; p != IDX_NONE; p = t->ev.v[p].parent)
        if (is_host_row_event(&t->ev.v[p]))
            return p;
    return IDX_NONE;
}

/* Nearest enclosing op (cpu_op or annotation) of a launch. */
static uint32_t owner_op(const struct trace *t, uint32_t launch)
{
    for (uint32_t p = t->ev.v[launch].parent; p != IDX_NONE; p = t->ev.v[p].parent)
        if (t->ev.v[p].kind == EVK_CPU_OP || t->ev.v[p].kind == EVK_ANNOTATION)
            return p;
    return IDX_NONE;
}

/* Source frames of an event: the nearest Python frames above it, leaving
 * out nn.Module frames and the profiler's own. */
static void stack_key(const struct trace *t, uint32_t i, int depth, struct strbuf *out)
{
    int n = 0;
    for (uint32_t p = t->ev.v[i].parent; p != IDX_NONE && n < depth; p = t->ev.v[p].parent) {
        const struct event *e = &t->ev.v[p];
        if (e->kind != EVK_PYTHON || (e->flags & EVF_MODULE))
            continue;
        const char *name = trace_str(t, e->name);
        if (strstr(name, "torch/profiler/") || strstr(name, "torch/autograd/profiler"))
            continue;
        if (n++)
            sb_putc(out, '\n');
        sb_puts(out, name);
    }
}

struct kagg {
    int64_t self_cpu, cpu_total, self_dev, dev_total;
    uint64_t calls;
    uint32_t first;         /* first instance */
    uint32_t name;          /* strtab id */
    uint32_t shapes;        /* strtab id of Input Dims, 0 */
    char *stack;            /* source frames (malloc), or NULL */
    bool gpu;               /* a kernel row */
};

struct inst {
    uint32_t agg, ev;
};

static inline bool inst_less(const struct inst *a, const struct inst *b)
{
    return a->agg < b->agg || (a->agg == b->agg && a->ev < b->ev);
}

SORT_DEFINE(inst_sort, struct inst, inst_less)

enum {
    KA_NAME, KA_SELF_CPU_PCT, KA_SELF_CPU, KA_CPU_TOTAL_PCT, KA_CPU_TOTAL, KA_CPU_AVG,
    KA_SELF_DEV, KA_SELF_DEV_PCT, KA_DEV_TOTAL, KA_DEV_AVG, KA_CALLS, KA_SHAPES, KA_STACK, KA__N
};

struct table *keyavg_table(const struct trace *t, const struct keyavg_opts *opts)
{
    double scale = opts->time_scale > 0 ? opts->time_scale : 1e3;
    const char *unit = opts->time_unit ? opts->time_unit : "us";
    size_t n = t->ev.n;
    /* The row (group) of every row event; times go straight to groups, so
     * no per-event time arrays are needed. */
    uint32_t *group = xmalloc((n + 1) * sizeof(uint32_t));
    memset(group, 0xff, (n + 1) * sizeof(uint32_t));

    VEC(struct kagg) aggs = {0};
    VEC(struct inst) insts = {0};
    struct u64map by_key;
    u64map_init(&by_key, 1024);
    struct strbuf sk = STRBUF_INIT;
    bool any_shapes = false, any_stack = false, any_dev = false;
    for (uint32_t i = 0; i < n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!is_row_event(e))
            continue;
        bool gpu = evk_is_gpu(e->kind);
        any_dev |= gpu;
        if (opts->top_level_only && !gpu && row_parent(t, i) != IDX_NONE)
            continue;
        const struct op_info *o = ev_op(t, i);
        uint32_t shapes = opts->group_by_shape && o ? o->input_dims : 0;
        sb_clear(&sk);
        if (opts->group_by_stack > 0 && !gpu)
            stack_key(t, i, opts->group_by_stack, &sk);
        uint64_t key = ((uint64_t)e->name << 1 | gpu) * 0x9e3779b97f4a7c15ULL ^
                       (uint64_t)shapes * 0xc2b2ae3d27d4eb4fULL ^
                       (sk.len ? hash_bytes(sk.s, sk.len) : 0);
        uint32_t a = u64map_get(&by_key, key);
        if (a != IDX_NONE) {
            /* Verify: a 64-bit key collision must not merge distinct rows. */
            const struct kagg *g = &aggs.v[a];
            if (g->name != e->name || g->gpu != gpu || g->shapes != shapes ||
                strcmp(g->stack ? g->stack : "", sb_str(&sk)) != 0)
                a = IDX_NONE;
        }
        if (a == IDX_NONE) {
            a = (uint32_t)aggs.n;
            struct kagg *g = VEC_ADD(&aggs);
            g->first = i;
            g->name = e->name;
            g->shapes = shapes;
            g->gpu = gpu;
            g->stack = sk.len ? xstrdup(sk.s) : NULL;
            u64map_put(&by_key, key, a);
        }
        struct kagg *g = &aggs.v[a];
        g->calls++;
        if (!gpu) {
            g->self_cpu += e->dur;
            g->cpu_total += e->dur;
        } else {
            g->self_dev += e->dur;
            g->dev_total += e->dur;
        }
        any_shapes |= shapes != 0;
        any_stack |= g->stack != NULL;
        group[i] = a;
        VEC_PUSH(&insts, ((struct inst){a, i}));
    }
    u64map_free(&by_key);
    sb_free(&sk);

    /* Self CPU: a row event's time minus its nearest row descendants'. */
    for (uint32_t i = 0; i < n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!is_host_row_event(e))
            continue;
        uint32_t p = row_parent(t, i);
        if (p != IDX_NONE && group[p] != IDX_NONE)
            aggs.v[group[p]].self_cpu -= e->dur;
    }
    /* Device time: self for the op owning the launch, total for it and
     * every row event above it. */
    for (uint32_t i = 0; i < n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_gpu(e->kind) || e->aux == IDX_NONE)
            continue;
        uint32_t launch = t->gpus.v[e->aux].launch;
        uint32_t op = launch != IDX_NONE ? owner_op(t, launch) : IDX_NONE;
        if (op == IDX_NONE)
            continue;
        if (group[op] != IDX_NONE)
            aggs.v[group[op]].self_dev += e->dur;
        for (uint32_t p = op; p != IDX_NONE; p = row_parent(t, p))
            if (group[p] != IDX_NONE)
                aggs.v[group[p]].dev_total += e->dur;
    }
    free(group);
    for (size_t a = 0; a < aggs.n; a++)
        if (aggs.v[a].self_cpu < 0)
            aggs.v[a].self_cpu = 0;

    int64_t total_self_cpu = 0, total_self_dev = 0;
    for (size_t a = 0; a < aggs.n; a++) {
        total_self_cpu += aggs.v[a].self_cpu;
        if (aggs.v[a].gpu)
            total_self_dev += aggs.v[a].self_dev;
    }

    /* Columns: leave out what nothing fills. */
    static char titles[KA__N][40];
    static const struct {
        const char *name;
        uint8_t kind, decimals, flags;
        bool timed;
    } all[KA__N] = {
        [KA_NAME] = {"Name", COL_TEXT, 0, COLF_WIDE | COLF_ASC, false},
        [KA_SELF_CPU_PCT] = {"Self CPU %", COL_PERCENT, 2, 0, false},
        [KA_SELF_CPU] = {"Self CPU", COL_FLOAT, 3, 0, true},
        [KA_CPU_TOTAL_PCT] = {"CPU total %", COL_PERCENT, 2, 0, false},
        [KA_CPU_TOTAL] = {"CPU total", COL_FLOAT, 3, 0, true},
        [KA_CPU_AVG] = {"CPU time avg", COL_FLOAT, 3, 0, true},
        [KA_SELF_DEV] = {"Self CUDA", COL_FLOAT, 3, 0, true},
        [KA_SELF_DEV_PCT] = {"Self CUDA %", COL_PERCENT, 2, 0, false},
        [KA_DEV_TOTAL] = {"CUDA total", COL_FLOAT, 3, 0, true},
        [KA_DEV_AVG] = {"CUDA time avg", COL_FLOAT, 3, 0, true},
        [KA_CALLS] = {"# of Calls", COL_INT, 0, 0, false},
        [KA_SHAPES] = {"Input Shapes", COL_TEXT, 0, COLF_WIDE | COLF_ASC, false},
        [KA_STACK] = {"Source Location", COL_TEXT, 0, COLF_WIDE | COLF_ASC, false},
    };
    bool on[KA__N];
    for (int c = 0; c < KA__N; c++)
        on[c] = true;
    if (!any_dev)
        on[KA_SELF_DEV] = on[KA_SELF_DEV_PCT] = on[KA_DEV_TOTAL] = on[KA_DEV_AVG] = false;
    on[KA_SHAPES] = any_shapes;
    on[KA_STACK] = any_stack;
    struct table_col cols[KA__N];
    int colmap[KA__N];
    size_t nc = 0;
    for (int c = 0; c < KA__N; c++) {
        colmap[c] = -1;
        if (!on[c])
            continue;
        snprintf(titles[c], sizeof(titles[c]), all[c].timed ? "%s (%s)" : "%s", all[c].name, unit);
        cols[nc] = (struct table_col){all[c].name, titles[c], all[c].kind, all[c].decimals,
                                      all[c].flags};
        colmap[c] = (int)nc++;
    }
    struct table *tab = table_new("key_averages", "Key averages (PyTorch profiler table)", cols, nc);
    /* Titles point at static storage overwritten by the next call: copy. */
    for (size_t c = 0; c < nc; c++)
        tab->cols[c].title = arena_strndup(&tab->arena, cols[c].title, strlen(cols[c].title));

    struct strbuf sb = STRBUF_INIT;
    for (size_t a = 0; a < aggs.n; a++) {
        const struct kagg *g = &aggs.v[a];
        size_t r = table_add_row(tab);
#define SETF(col, v) if (colmap[col] >= 0) table_set_float(tab, r, (size_t)colmap[col], (v))
        if (g->gpu) {
            char *name = kernel_display_name(trace_str(t, g->name));
            table_set_text(tab, r, (size_t)colmap[KA_NAME], name);
            free(name);
        } else {
            table_set_text(tab, r, (size_t)colmap[KA_NAME], trace_str(t, g->name));
            SETF(KA_SELF_CPU_PCT, total_self_cpu ? 100.0 * g->self_cpu / total_self_cpu : 0);
            SETF(KA_SELF_CPU, g->self_cpu / scale);
            SETF(KA_CPU_TOTAL_PCT, total_self_cpu ? 100.0 * g->cpu_total / total_self_cpu : 0);
            SETF(KA_CPU_TOTAL, g->cpu_total / scale);
            SETF(KA_CPU_AVG, g->cpu_total / scale / (double)g->calls);
        }
        if (g->self_dev || g->dev_total) {
            SETF(KA_SELF_DEV, g->self_dev / scale);
            SETF(KA_SELF_DEV_PCT, total_self_dev ? 100.0 * g->self_dev / total_self_dev : 0);
            SETF(KA_DEV_TOTAL, g->dev_total / scale);
            SETF(KA_DEV_AVG, g->dev_total / scale / (double)g->calls);
        }
#undef SETF
        table_set_int(tab, r, (size_t)colmap[KA_CALLS], (int64_t)g->calls);
        if (colmap[KA_SHAPES] >= 0 && g->shapes) {
            sb_clear(&sb);
            sb_puts(&sb, trace_str(t, g->shapes));
            table_set_text(tab, r, (size_t)colmap[KA_SHAPES], sb_str(&sb));
        }
        if (colmap[KA_STACK] >= 0 && g->stack)
            table_set_text(tab, r, (size_t)colmap[KA_STACK], g->stack);
        table_set_ref(tab, r, g->first);
    }
    sb_free(&sb);

    inst_sort(insts.v, insts.n);
    uint32_t *first = xcalloc(aggs.n + 1, sizeof(uint32_t));
    uint32_t *list = xmalloc((insts.n + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < insts.n; k++) {
        first[insts.v[k].agg + 1]++;
        list[k] = insts.v[k].ev;
    }
    for (size_t a = 0; a < aggs.n; a++)
        first[a + 1] += first[a];
    table_set_instances(tab, first, list);

    for (size_t a = 0; a < aggs.n; a++)
        free(aggs.v[a].stack);
    VEC_FREE(&aggs);
    VEC_FREE(&insts);

    table_sort(tab, (size_t)colmap[KA_NAME], false);
    if (colmap[KA_DEV_TOTAL] >= 0)
        table_sort(tab, (size_t)colmap[KA_DEV_TOTAL], true);
    else
        table_sort(tab, (size_t)colmap[KA_CPU_TOTAL], true);
    table_add_note(tab, "times in %s; Self CPU total %.3f %s", unit, total_self_cpu / scale, unit);
    return tab;
}
