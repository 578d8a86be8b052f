/* Memory over time from [memory] instants (memtrace.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/wide.h"
#include "core/analysis/memtrace.h"
#include "core/trace/steps.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/trace/argpack.h"
#include "core/trace/opname.h"

static inline bool mev_before(const struct mem_event *a, const struct mem_event *b)
{
    return a->ts < b->ts;
}
SORT_DEFINE(mev_sort, struct mem_event, mev_before)

static uint32_t key_id(const struct trace *t, const char *k)
{
    return strtab_find(&t->strs, k, strlen(k));
}

struct memtrace *memtrace_build(const struct trace *t)
{
    struct memtrace *m = xcalloc(1, sizeof(*m));
    uint32_t name = key_id(t, "[memory]");
    if (name == IDX_NONE || !t->n_by_kind[EVK_INSTANT])
        return m;
    uint32_t k_bytes = key_id(t, "Bytes"), k_alloc = key_id(t, "Total Allocated");
    uint32_t k_res = key_id(t, "Total Reserved"), k_addr = key_id(t, "Addr");
    uint32_t k_id = key_id(t, "Device Id"), k_type = key_id(t, "Device Type");
    VEC(struct mem_event) v = {0};
    VEC(struct mem_device) devs = {0};
    bool all_totals = true;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = trace_ev(t, i);
        if (e->kind != EVK_INSTANT || e->name != name)
            continue;
        struct mem_event me = {e->ts, 0, INT64_MIN, -1, 0, i, 0};
        int64_t id = -1, type = 0, x;
        bool has_bytes = false;
        struct argiter it;
        struct argval a;
        argpack_iter_init(&it, t, i);
        while (argpack_iter_next(&it, &a)) {
            if (!argpack_val_int(t, &a, &x)) {
                if (a.key == k_addr && a.type == ARG_UINT)
                    me.addr = a.v.u;
                continue;
            }
            if (a.key == k_bytes)
                me.bytes = x, has_bytes = true;
            else if (a.key == k_alloc)
                me.allocated = x;
            else if (a.key == k_res)
                me.reserved = x;
            else if (a.key == k_addr)
                me.addr = (uint64_t)x;
            else if (a.key == k_id)
                id = x;
            else if (a.key == k_type)
                type = x;
        }
        if (!has_bytes)
            continue; /* not an allocation record */
        size_t d = 0;
        while (d < devs.n && (devs.v[d].type != type || devs.v[d].id != id))
            d++;
        if (d == devs.n)
            *VEC_ADD(&devs) = (struct mem_device){(int32_t)type, (int32_t)id, 0};
        devs.v[d].n++;
        me.dev = (uint32_t)d;
        all_totals &= me.allocated != INT64_MIN;
        VEC_PUSH(&v, me);
    }
    mev_sort(v.v, v.n);
    /* Without the allocator's totals (older traces), the curve is the
     * running sum of the sizes from 0 at the first event. */
    if (!all_totals) {
        int64_t *run = xcalloc(devs.n + 1, sizeof(*run));
        for (size_t k = 0; k < v.n; k++) {
            run[v.v[k].dev] = wide_add_sat(run[v.v[k].dev], v.v[k].bytes);
            v.v[k].allocated = run[v.v[k].dev];
        }
        free(run);
    }
    m->totals = all_totals && v.n;
    m->e = v.v;
    m->n = v.n;
    m->devs = devs.v;
    m->ndevs = devs.n;
    return m;
}

void memtrace_free(struct memtrace *m)
{
    if (!m)
        return;
    free(m->e);
    free(m->devs);
    free(m);
}

const char *memtrace_device_name(const struct mem_device *d, char *buf, size_t n)
{
    if (d->type == 0)
        snprintf(buf, n, "cpu");
    else if (d->type == 1)
        snprintf(buf, n, "cuda:%d", d->id);
    else
        snprintf(buf, n, "type %d:%d", d->type, d->id);
    return buf;
}

uint32_t memtrace_op(const struct trace *t, uint32_t ev, uint32_t *py)
{
    uint32_t op = IDX_NONE;
    *py = IDX_NONE;
    for (uint32_t p = trace_ev(t, ev)->parent; p != IDX_NONE; p = trace_ev(t, p)->parent) {
        unsigned k = trace_ev(t, p)->kind;
        if (k == EVK_CPU_OP && op == IDX_NONE)
            op = p;
        else if (k == EVK_PYTHON && *py == IDX_NONE && strncmp(ev_name(t, p), "<built-in", 9) != 0)
            *py = p; /* a frame with a source line, not a C function */
        if (op != IDX_NONE && *py != IDX_NONE)
            break;
    }
    return op;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                   */
/* ------------------------------------------------------------------------ */

/* The bytes a free returns (its Bytes negated; INT64_MIN, which has no
 * negation, as INT64_MAX). */
static inline int64_t freed_bytes(const struct mem_event *e)
{
    return e->bytes == INT64_MIN ? INT64_MAX : -e->bytes;
}

static double ms_of(const struct trace *t, int64_t ts)
{
    return (double)(ts - t->t_start) / 1e6;
}

enum {
    D_DEVICE,
    D_EVENTS,
    D_ALLOCS,
    D_ALLOC_BYTES,
    D_FREES,
    D_FREED_BYTES,
    D_PEAK,
    D_PEAK_MS,
    D_PEAK_OP,
    D_PEAK_PY,
    D_LAST,
    D_PEAK_RES,
    D_LAST_RES,
    D__N
};

static struct table *devices_table(const struct trace *t, const struct memtrace *m)
{
    static const struct table_col cols[D__N] = {
        [D_DEVICE] = {"device", "device", COL_TEXT, 0, COLF_ASC | COLF_NAME},
        [D_EVENTS] = {"events", "events", COL_INT, 0, COLF_DETAIL},
        [D_ALLOCS] = {"allocs", "allocs", COL_INT, 0, 0},
        [D_ALLOC_BYTES] = {"alloc_bytes", "allocated", COL_INT, 0, COLF_BYTES},
        [D_FREES] = {"frees", "frees", COL_INT, 0, 0},
        [D_FREED_BYTES] = {"freed_bytes", "freed", COL_INT, 0, COLF_BYTES},
        [D_PEAK] = {"peak_allocated", "peak", COL_INT, 0, COLF_BYTES},
        [D_PEAK_MS] = {"peak_at_ms", "peak at ms", COL_FLOAT, 3, 0},
        [D_PEAK_OP] = {"peak_op", "peak op", COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        [D_PEAK_PY] = {"peak_python", "peak Python frame", COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        [D_LAST] = {"last_allocated", "last", COL_INT, 0, COLF_BYTES},
        [D_PEAK_RES] = {"peak_reserved", "peak reserved", COL_INT, 0, COLF_BYTES},
        [D_LAST_RES] = {"last_reserved", "last reserved", COL_INT, 0, COLF_BYTES | COLF_DETAIL},
    };
    struct table *tab = table_new("memory_devices",
                                  "Memory per device from [memory] events: allocations and the "
                                  "peak, with the op that reached it",
                                  cols, D__N);
    tab->whole = true;
    for (size_t d = 0; d < m->ndevs; d++) {
        int64_t allocs = 0, frees = 0, ab = 0, fb = 0, peak = INT64_MIN, peak_res = -1;
        size_t at = 0, last = 0;
        for (size_t k = 0; k < m->n; k++) {
            const struct mem_event *e = &m->e[k];
            if (e->dev != d)
                continue;
            if (e->bytes >= 0)
                allocs++, ab = wide_add_sat(ab, e->bytes);
            else
                frees++, fb = wide_add_sat(fb, freed_bytes(e));
            if (e->allocated > peak)
                peak = e->allocated, at = k; /* the first event reaching it */
            if (e->reserved > peak_res)
                peak_res = e->reserved;
            last = k;
        }
        char name[48];
        size_t r = table_add_row(tab);
        table_set_text(tab, r, D_DEVICE, memtrace_device_name(&m->devs[d], name, sizeof(name)));
        table_set_int(tab, r, D_EVENTS, m->devs[d].n);
        table_set_int(tab, r, D_ALLOCS, allocs);
        table_set_int(tab, r, D_ALLOC_BYTES, ab);
        table_set_int(tab, r, D_FREES, frees);
        table_set_int(tab, r, D_FREED_BYTES, fb);
        table_set_int(tab, r, D_PEAK, peak);
        table_set_float(tab, r, D_PEAK_MS, ms_of(t, m->e[at].ts));
        uint32_t py, op = memtrace_op(t, m->e[at].ev, &py);
        if (op != IDX_NONE)
            table_set_text(tab, r, D_PEAK_OP, trace_str(t, opname_of(t, op)));
        if (py != IDX_NONE)
            table_set_text(tab, r, D_PEAK_PY, ev_name(t, py));
        table_set_ref(tab, r, m->e[at].ev);
        table_set_int(tab, r, D_LAST, m->e[last].allocated);
        if (peak_res >= 0) {
            table_set_int(tab, r, D_PEAK_RES, peak_res);
            table_set_int(tab, r, D_LAST_RES, m->e[last].reserved);
        }
    }
    if (!m->totals)
        table_add_note(tab, "the events carry no Total Allocated: the curve is the running sum of "
                            "their sizes from 0 at the first event");
    return tab;
}

enum {
    O_DEVICE,
    O_OP,
    O_ALLOCS,
    O_ALLOC_BYTES,
    O_FREES,
    O_FREED_BYTES,
    O_LIVE,
    O_LIVE_BYTES,
    O__N
};

/* Per allocation, whether it is still live at the end of its step (of the
 * trace when it falls in none): its free, matched by address on its
 * device, comes later or never. */
static bool *live_at_step_end(const struct trace *t, const struct memtrace *m)
{
    bool *live = xcalloc(m->n + 1, sizeof(*live));
    int64_t *freed = xmalloc((m->n + 1) * sizeof(*freed));
    struct hmap open = {0}; /* addr ^ device -> allocation index */
    for (size_t k = 0; k < m->n; k++) {
        const struct mem_event *e = &m->e[k];
        freed[k] = INT64_MAX;
        uint64_t key = e->addr ^ ((uint64_t)e->dev << 56);
        if (e->bytes > 0) {
            hmap_put(&open, key, (uint32_t)k);
        } else if (e->bytes < 0) {
            uint32_t a = hmap_get(&open, key);
            if (a != IDX_NONE) {
                freed[a] = e->ts;
                hmap_put(&open, key, (uint32_t)k); /* the address is free again */
                freed[k] = INT64_MIN;              /* marks a free, never an allocation */
            }
        }
    }
    hmap_free(&open);
    size_t nsteps, s = 0;
    struct step_span *steps = steps_spans(t, &nsteps);
    for (size_t k = 0; k < m->n; k++) {
        const struct mem_event *e = &m->e[k];
        if (e->bytes <= 0)
            continue;
        while (s < nsteps && steps[s].end <= e->ts)
            s++;
        int64_t end = s < nsteps && steps[s].ts <= e->ts ? steps[s].end : t->t_end;
        live[k] = freed[k] > end;
    }
    free(steps);
    free(freed);
    return live;
}

struct opkey {
    uint32_t dev, op; /* op: name id, IDX_NONE = none */
};

static struct table *by_op_table(const struct trace *t, const struct memtrace *m)
{
    static const struct table_col cols[O__N] = {
        [O_DEVICE] = {"device", "device", COL_TEXT, 0, COLF_ASC},
        [O_OP] = {"op", "op", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_NAME},
        [O_ALLOCS] = {"allocs", "allocs", COL_INT, 0, 0},
        [O_ALLOC_BYTES] = {"alloc_bytes", "allocated", COL_INT, 0, COLF_BYTES},
        [O_FREES] = {"frees", "frees", COL_INT, 0, 0},
        [O_FREED_BYTES] = {"freed_bytes", "freed", COL_INT, 0, COLF_BYTES},
        [O_LIVE] = {"live_at_step_end", "live", COL_INT, 0, 0},
        [O_LIVE_BYTES] = {"live_bytes_at_step_end", "live bytes", COL_INT, 0, COLF_BYTES},
    };
    struct table *tab = table_new("memory_by_op",
                                  "Allocations and frees per device and innermost op; what is "
                                  "still allocated at the end of the step",
                                  cols, O__N);
    bool *live = live_at_step_end(t, m);
    struct hmap row_of = {0}; /* dev << 32 | op -> row */
    uint32_t *row_ev = xmalloc((m->n + 1) * sizeof(*row_ev));
    char name[48];
    for (size_t k = 0; k < m->n; k++) {
        const struct mem_event *e = &m->e[k];
        uint32_t py, op = memtrace_op(t, e->ev, &py);
        uint32_t opname = op == IDX_NONE ? IDX_NONE : opname_of(t, op);
        uint64_t key = (uint64_t)e->dev << 32 | opname;
        uint32_t r = hmap_get(&row_of, key);
        if (r == IDX_NONE) {
            r = (uint32_t)table_add_row(tab);
            hmap_put(&row_of, key, r);
            table_set_text(tab, r, O_DEVICE,
                           memtrace_device_name(&m->devs[e->dev], name, sizeof(name)));
            table_set_text(tab, r, O_OP, opname == IDX_NONE ? NULL : trace_str(t, opname));
            table_set_ref(tab, r, opname);
            for (size_t c = O_ALLOCS; c < O__N; c++)
                table_set_int(tab, r, c, 0);
        }
        row_ev[k] = r;
        union cell *row = &tab->cells[(size_t)r * O__N];
        if (e->bytes >= 0) {
            row[O_ALLOCS].i++;
            row[O_ALLOC_BYTES].i = wide_add_sat(row[O_ALLOC_BYTES].i, e->bytes);
        } else {
            row[O_FREES].i++;
            row[O_FREED_BYTES].i = wide_add_sat(row[O_FREED_BYTES].i, freed_bytes(e));
        }
        if (live[k]) {
            row[O_LIVE].i++;
            row[O_LIVE_BYTES].i = wide_add_sat(row[O_LIVE_BYTES].i, e->bytes);
        }
    }
    uint32_t *first = xcalloc(tab->nrows + 1, sizeof(*first));
    for (size_t k = 0; k < m->n; k++)
        first[row_ev[k] + 1]++;
    for (size_t r = 0; r < tab->nrows; r++)
        first[r + 1] += first[r];
    uint32_t *inst = xmalloc((m->n + 1) * sizeof(*inst));
    uint32_t *fill = xmalloc((tab->nrows + 1) * sizeof(*fill));
    memcpy(fill, first, (tab->nrows + 1) * sizeof(*fill));
    for (size_t k = 0; k < m->n; k++)
        inst[fill[row_ev[k]]++] = m->e[k].ev;
    free(fill);
    table_set_instances(tab, first, inst);
    static const struct table_sort_key order[] = {
        {O_ALLOC_BYTES, true}, {O_DEVICE, false}, {O_OP, false}};
    table_sort_keys(tab, order, ARRAY_SIZE(order));
    hmap_free(&row_of);
    free(row_ev);
    free(live);
    return tab;
}

#define CURVE_POINTS 100

enum { C_DEVICE, C_MS, C_ALLOC, C_MAX, C_RES, C__N };

static struct table *curve_table(const struct trace *t, const struct memtrace *m)
{
    static const struct table_col cols[C__N] = {
        [C_DEVICE] = {"device", "device", COL_TEXT, 0, COLF_ASC},
        [C_MS] = {"t_ms", "until ms", COL_FLOAT, 3, COLF_ASC},
        [C_ALLOC] = {"allocated", "allocated", COL_INT, 0, COLF_BYTES},
        [C_MAX] = {"max_allocated", "max allocated", COL_INT, 0, COLF_BYTES},
        [C_RES] = {"reserved", "reserved", COL_INT, 0, COLF_BYTES},
    };
    struct table *tab = table_new("memory_curve",
                                  "Allocated and reserved memory over time per device (at the "
                                  "end of each of 100 slices, and the most in it)",
                                  cols, C__N);
    tab->whole = true;
    char name[48];
    for (size_t d = 0; d < m->ndevs; d++) {
        int64_t t0 = INT64_MAX, t1 = INT64_MIN;
        for (size_t k = 0; k < m->n; k++)
            if (m->e[k].dev == d) {
                t0 = m->e[k].ts < t0 ? m->e[k].ts : t0;
                t1 = m->e[k].ts > t1 ? m->e[k].ts : t1;
            }
        int slices = t1 > t0 ? CURVE_POINTS : 1;
        size_t k = 0;
        int64_t cur = 0, res = -1;
        bool any = false;
        memtrace_device_name(&m->devs[d], name, sizeof(name));
        for (int s = 0; s < slices; s++) {
            /* slice s ends at t0 + (s + 1) * span / slices; the last at t1 */
            int64_t end =
                s + 1 == slices ? t1 : t0 + (int64_t)((double)(t1 - t0) * (s + 1) / slices);
            int64_t mx = any ? cur : INT64_MIN;
            for (; k < m->n && m->e[k].ts <= end; k++) {
                if (m->e[k].dev != d)
                    continue;
                cur = m->e[k].allocated;
                res = m->e[k].reserved;
                mx = cur > mx ? cur : mx;
                any = true;
            }
            size_t r = table_add_row(tab);
            table_set_text(tab, r, C_DEVICE, name);
            table_set_float(tab, r, C_MS, ms_of(t, end));
            if (any) {
                table_set_int(tab, r, C_ALLOC, cur);
                table_set_int(tab, r, C_MAX, mx);
                if (res >= 0)
                    table_set_int(tab, r, C_RES, res);
            }
        }
    }
    return tab;
}

bool memtrace_tables(const struct trace *t, struct table_list *out, char *err)
{
    struct memtrace *m = memtrace_build(t);
    if (!m->n) {
        memtrace_free(m);
        snprintf(err, 256,
                 "no [memory] events: the trace was recorded without profile_memory=True");
        return false;
    }
    table_list_add(out, devices_table(t, m));
    table_list_add(out, by_op_table(t, m));
    table_list_add(out, curve_table(t, m));
    memtrace_free(m);
    return true;
}
