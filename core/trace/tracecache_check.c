/* The checks of a trace read from the cache (tracecache.h): every index
 * and offset within the array it points into, the call tree and the other
 * links without a cycle, every packed argument readable. What a cache must
 * pass before anyone walks the trace, whatever its checksums say: a
 * checksum finds damage, not a file made to pass it. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/base/xalloc.h"
#include "core/trace/argpack.h"
#include "core/trace/devkind.h"
#include "core/trace/tracecache.h"
#include "core/trace/tracecache_internal.h"

bool tracecache_fail(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return false;
}

/* Whether following next[] from every node ends at IDX_NONE; every value
 * is IDX_NONE or below n (checked before). */
static bool chains_end(const uint32_t *next, uint32_t n)
{
    uint8_t *state = xcalloc(n ? n : 1, 1); /* 0 unseen, 1 on the walk, 2 ends */
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        uint32_t j = i;
        while (j != IDX_NONE && state[j] == 0) {
            state[j] = 1;
            j = next[j];
        }
        if (j != IDX_NONE && state[j] == 1)
            ok = false;
        for (uint32_t k = i; k != IDX_NONE && state[k] == 1; k = next[k])
            state[k] = 2;
    }
    free(state);
    return ok;
}

/* Length of trace.launch_gpu: every launch's GPU events. */
uint64_t tracecache_launch_gpu_len(const struct trace *t)
{
    uint64_t n = 0;
    for (size_t k = 0; k < t->launches.n; k++)
        n += t->launches.v[k].gpu_count;
    return n;
}

#define IN(x, n) ((uint64_t)(x) < (uint64_t)(n))
#define IN_OR_NONE(x, n) ((x) == IDX_NONE || IN(x, n))

static bool has_aux_kind(const struct trace *t, uint32_t i, bool (*pred)(unsigned))
{
    return IN(i, t->ev.n) && pred(t->ev.v[i].kind) && t->ev.v[i].aux != IDX_NONE;
}
static bool kind_is_op(unsigned k)
{
    return k == EVK_CPU_OP || k == EVK_ANNOTATION;
}
static bool kind_is_launch(unsigned k)
{
    return evk_is_launch(k);
}
static bool kind_is_gpu(unsigned k)
{
    return evk_on_device(k);
}

/* The links of the events that must not loop (check_links), gathered by
 * check_events' pass: per event its parent, the event whose first child or
 * next sibling it is, and its Python frame's parent; IDX_NONE for none. */
struct tc_links {
    uint32_t *parent, *pred, *py_parent;
};

static bool check_events(const struct trace *t, struct tc_links *l, char *why, size_t wn)
{
    size_t nstr = t->strs.ents.n;
    for (uint32_t i = 0; i < t->ev.n; i++)
        l->pred[i] = IDX_NONE;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!IN(e->name, nstr) || !IN(e->cat, nstr) || !IN(e->row, t->rows.n) ||
            !IN(e->kind, EVK__COUNT) || !IN(e->raw, t->raws.n) ||
            !(e->args == IDX_NONE || IN(e->args, t->argbuf.n)) || !IN_OR_NONE(e->parent, t->ev.n) ||
            !IN_OR_NONE(e->first_child, t->ev.n) || !IN_OR_NONE(e->next_sibling, t->ev.n))
            return tracecache_fail(why, wn, "event %" PRIu32 " points outside the arrays", i);
        size_t side = SIZE_MAX;
        if (kind_is_op(e->kind))
            side = t->ops.n;
        else if (evk_is_launch(e->kind))
            side = t->launches.n;
        else if (evk_on_device(e->kind))
            side = t->gpus.n;
        if (side != SIZE_MAX && !IN_OR_NONE(e->aux, side))
            return tracecache_fail(why, wn, "event %" PRIu32 " points outside its side table", i);
        l->parent[i] = e->parent;
        if (e->kind == EVK_PYTHON && e->aux != IDX_NONE &&
            (!IN(e->aux, t->ev.n) || t->ev.v[e->aux].kind != EVK_PYTHON))
            return tracecache_fail(why, wn, "python frame %" PRIu32 " has a parent that is not one",
                                   i);
        l->py_parent[i] = ev_py_parent(t, i);
        uint32_t down[2] = {e->first_child, e->next_sibling};
        for (int k = 0; k < 2; k++) {
            if (down[k] == IDX_NONE)
                continue;
            if (l->pred[down[k]] != IDX_NONE || down[k] == i)
                return tracecache_fail(
                    why, wn, "event %" PRIu32 " is reached twice in the call tree", down[k]);
            l->pred[down[k]] = i;
        }
    }
    for (size_t k = 0; k < t->ops.n; k++) {
        const struct op_info *o = &t->ops.v[k];
        size_t nv = t->vals.ents.n;
        if (!IN(o->input_dims, nv) || !IN(o->input_type, nv) || !IN(o->input_strides, nv) ||
            !IN(o->concrete_inputs, nv) || !IN_OR_NONE(o->coll, t->colls.n) ||
            (o->partner != IDX_NONE && !has_aux_kind(t, o->partner, kind_is_op)))
            return tracecache_fail(why, wn, "op record %zu points outside the arrays", k);
    }
    uint64_t nlinks = tracecache_launch_gpu_len(t);
    if (nlinks && !t->launch_gpu)
        return tracecache_fail(why, wn, "launches without their GPU events");
    for (size_t k = 0; k < t->launches.n; k++) {
        const struct launch_info *li = &t->launches.v[k];
        if ((uint64_t)li->gpu_first + li->gpu_count > nlinks)
            return tracecache_fail(why, wn, "launch record %zu points outside its GPU events", k);
    }
    for (size_t k = 0; k < nlinks; k++)
        if (!has_aux_kind(t, t->launch_gpu[k], kind_is_gpu))
            return tracecache_fail(why, wn, "launched GPU event %zu is not a GPU event", k);
    for (size_t k = 0; k < t->gpus.n; k++) {
        const struct gpu_info *g = &t->gpus.v[k];
        if ((g->launch != IDX_NONE && !has_aux_kind(t, g->launch, kind_is_launch)) ||
            !IN_OR_NONE(g->launcher, t->ev.n) || !IN_OR_NONE(g->coll, t->colls.n))
            return tracecache_fail(why, wn, "GPU record %zu points outside the arrays", k);
    }
    for (size_t k = 0; k < t->colls.n; k++) {
        const struct coll_info *c = &t->colls.v[k];
        if (!IN(c->name, nstr) || !IN(c->dtype, nstr) || !IN(c->pg_name, nstr) ||
            !IN(c->pg_desc, nstr) || !IN(c->pg_ranks, nstr))
            return tracecache_fail(why, wn, "collective record %zu points outside the strings", k);
    }
    return true;
}

bool tracecache_check_rows(const struct trace *t, char *why, size_t wn)
{
    size_t nstr = t->strs.ents.n;
    for (uint32_t r = 0; r < t->rows.n; r++) {
        const struct row *row = &t->rows.v[r];
        if (!IN(row->pid_str, nstr) || !IN(row->tid_str, nstr) || !IN(row->process_name, nstr) ||
            !IN(row->process_label, nstr) || !IN(row->thread_name, nstr) || row->cls > ROW_DEVICE ||
            !IN_OR_NONE(row->first_root, t->ev.n))
            return tracecache_fail(why, wn, "row %" PRIu32 " points outside the arrays", r);
        for (uint32_t k = 0; k < row->nevents; k++) {
            uint32_t i = row->order[k];
            if (!IN(i, t->ev.n) || t->ev.v[i].row != r || t->ev.v[i].kind == EVK_META)
                return tracecache_fail(why, wn, "row %" PRIu32 " lists an event not on it", r);
        }
    }
    for (size_t k = 0; k < t->flows.n; k++) {
        const struct flow *f = &t->flows.v[k];
        if (!IN(f->cat, nstr) || !IN(f->name, nstr) || !IN(f->row, t->rows.n) ||
            !IN(f->raw, t->raws.n))
            return tracecache_fail(why, wn, "flow point %zu points outside the arrays", k);
    }
    for (size_t k = 0; k < t->devices.n; k++)
        if (!IN(t->devices.v[k].name, nstr) || !IN(t->devices.v[k].arch, nstr))
            return tracecache_fail(why, wn, "device %zu points outside the strings", k);
    for (size_t k = 0; k < t->others.n; k++)
        if (!IN(t->others.v[k], t->raws.n))
            return tracecache_fail(why, wn, "event of another phase %zu points outside the texts",
                                   k);
    for (size_t k = 1; k < t->raws.n; k++) {
        const struct rawtext *rt = &t->raws.v[k];
        if (rt->len ? (uint64_t)rt->at + rt->len > t->json_bytes : !IN(rt->at, nstr))
            return tracecache_fail(why, wn, "kept text %zu lies outside the trace", k);
    }
    for (size_t k = 0; k < t->grafts.n; k++)
        if (!IN(t->grafts.v[k].launch, t->ev.n) || !IN(t->grafts.v[k].row, t->rows.n))
            return tracecache_fail(why, wn, "graft %zu points outside the arrays", k);
    return true;
}

/* The tree's links (each event is some event's first child or next sibling
 * at most once: check_events): neither the descent nor the parents, nor
 * the Python frames' parents, loop. Python parents are checked to be
 * Python events with check_events. */
static bool check_links(const struct trace *t, const struct tc_links *l, char *why, size_t wn)
{
    uint32_t n = (uint32_t)t->ev.n;
    if (!chains_end(l->parent, n))
        return tracecache_fail(why, wn, "the call tree's parents loop");
    if (!chains_end(l->pred, n))
        return tracecache_fail(why, wn, "the call tree loops");
    for (uint32_t i = 0; i < n; i++)
        if (l->py_parent[i] != IDX_NONE && !IN(l->py_parent[i], n))
            return tracecache_fail(why, wn,
                                   "python frame %" PRIu32 " has its parent outside the events", i);
    if (!chains_end(l->py_parent, n))
        return tracecache_fail(why, wn, "the Python frames' parents loop");
    return true;
}

/* check_events, then check_links over what it gathered. */
bool tracecache_check_tree(const struct trace *t, char *why, size_t wn)
{
    size_t n = t->ev.n ? t->ev.n : 1;
    struct tc_links l = {xmalloc(n * sizeof(uint32_t)), xmalloc(n * sizeof(uint32_t)),
                         xmalloc(n * sizeof(uint32_t))};
    bool ok = check_events(t, &l, why, wn) && check_links(t, &l, why, wn);
    free(l.parent);
    free(l.pred);
    free(l.py_parent);
    return ok;
}

bool tracecache_check_args(const struct trace *t, char *why, size_t wn)
{
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (t->ev.v[i].args != IDX_NONE && !argpack_valid(t, i))
            return tracecache_fail(why, wn, "the arguments of event %" PRIu32 " do not read", i);
    return true;
}

bool tracecache_check_counts(const struct trace *t, char *why, size_t whylen)
{
    if (t->ev.n >= IDX_NONE || t->rows.n >= IDX_NONE || t->raws.n == 0 || t->strs.ents.n == 0 ||
        t->vals.ents.n == 0 || t->device_kind > DEVKIND_MIXED)
        return tracecache_fail(why, whylen, "the trace's counts are out of range");
    return true;
}

bool tracecache_check(const struct trace *t, char *why, size_t whylen)
{
    return tracecache_check_counts(t, why, whylen) && tracecache_check_tree(t, why, whylen) &&
           tracecache_check_rows(t, why, whylen) && tracecache_check_args(t, why, whylen);
}
