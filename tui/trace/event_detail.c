/* The detail pane's description of a trace event (tui/frame/detail.h):
 * its time and place, shapes, the GPU work it launched, its
 * forward/backward partner, its parents, its arguments and its roofline
 * line, section by section from a registry. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/argpack.h"
#include "core/analysis/opstats.h"
#include "core/trace/tree.h"
#include "core/analysis/analysis.h"
#include "core/analysis/kernutil.h"
#include "core/analysis/rangecounters.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/detail.h"
#include "tui/trace/event_detail.h"
#include "tui/trace/knames.h"
#include "tui/trace/roofline_view.h"

/* ------------------------------------------------------------------------ */
/* Event sections                                                           */
/* ------------------------------------------------------------------------ */

static double ms_since_start(const struct trace *t, int64_t ts)
{
    return (double)(ts - t->t_start) / 1e6;
}

static void put_dur(struct detail_out *d, struct view *a, const char *key, int64_t ns)
{
    char buf[32];
    text_duration(buf, sizeof(buf), ns, a->ascii);
    detail_kv(d, key, buf, strlen(buf));
}

static void sec_event(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    const struct event *e = trace_ev(t, ev);
    char buf[256];
    if (a->kn && knames_is_kernel(a->kn, ev)) {
        /* The full demangled name here; rows show the short one. */
        size_t n;
        const char *full = knames_demangled(a->kn, e->name, &n);
        detail_wrap(d, NULL, full, n, C_THREAD);
        const char *simple = knames_simplified(a->kn, e->name, &n);
        if (strcmp(simple, full) != 0)
            detail_wrap(d, "simplified", simple, n, C_KERNEL);
        if (strcmp(full, ev_name(t, ev)) != 0)
            detail_wrap(d, "mangled", ev_name(t, ev), strtab_len(&t->strs, e->name), C_DIM);
    } else {
        detail_wrap(d, NULL, ev_name(t, ev), strtab_len(&t->strs, e->name), C_THREAD);
    }
    detail_kvf(d, "kind", "%s", ev_kind_name(e->kind));
    if (*ev_cat(t, ev) && strcmp(ev_cat(t, ev), ev_kind_name(e->kind)) != 0)
        detail_kv(d, "category", ev_cat(t, ev), strlen(ev_cat(t, ev)));
    const char *where = trace_row_label(t, e->row, buf, sizeof(buf));
    detail_kv(d, "where", where, strlen(where));
    detail_kvf(d, "start", "%.3f ms", ms_since_start(t, e->ts));
    put_dur(d, a, "duration", e->dur);
    if (evk_is_gpu(e->kind)) {
        const struct gpu_info *g = ev_gpu(t, ev);
        static const char *const buckets[] = {"computation", "communication", "memcpy"};
        detail_kv(d, "class", buckets[gpuclass_bucket(t, ev)],
                  strlen(buckets[gpuclass_bucket(t, ev)]));
        if (g) {
            detail_kvf(d, "device", "%d stream %lld", g->device, (long long)g->stream);
            if (g->corr)
                detail_kvf(d, "correlation", "%llu", (unsigned long long)g->corr);
            if (g->launch != IDX_NONE) {
                detail_kv(d, "launched by", ev_name(t, g->launch), strlen(ev_name(t, g->launch)));
                detail_link(d, g->launch);
            } else {
                detail_kvf(d, "launched by", "(no launch in the trace: unlinked)");
            }
            if (g->launcher != IDX_NONE && g->launcher != g->launch) {
                detail_kv(d, "launcher op", ev_name(t, g->launcher),
                          strlen(ev_name(t, g->launcher)));
                detail_link(d, g->launcher);
            }
        }
    } else if (evk_is_host_span(e->kind)) {
        put_dur(d, a, "GPU direct", gputime_direct(a->an->gt, ev, true));
        put_dur(d, a, "GPU subtree", gputime_subtree(a->an->gt, ev, true));
        if (e->kind == EVK_CPU_OP) {
            const char *cat = opcat_name(opstats_category(a->an->ops, ev));
            detail_kv(d, "op category", cat, strlen(cat));
        }
    }
}

/* A kernel's launch configuration and occupancy, as CUPTI recorded them
 * (docs/metrics.md §19.2); a range-profiler range's FLOPs (§19.1). */
static void sec_utilization(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    double flops;
    if (rangecounters_flops(t, ev, &flops)) {
        detail_heading(d, "Counters");
        detail_kvf(d, "FLOPs", "%.0f (SASS instruction counters, FMA counted twice)", flops);
        return;
    }
    struct kernutil_keys uk;
    struct kernutil u;
    kernutil_keys_init(&uk, t);
    if (trace_ev(t, ev)->kind != EVK_KERNEL || !kernutil_read(t, &uk, ev, &u))
        return;
    detail_heading(d, "Utilization");
    char grid[80] = "", block[80] = "";
    if (u.has & KU_GRID)
        snprintf(grid, sizeof(grid), "grid [%lld, %lld, %lld]", (long long)u.grid[0],
                 (long long)u.grid[1], (long long)u.grid[2]);
    if (u.has & KU_BLOCK)
        snprintf(block, sizeof(block), "block [%lld, %lld, %lld]", (long long)u.block[0],
                 (long long)u.block[1], (long long)u.block[2]);
    if (*grid || *block)
        detail_kvf(d, "launch", "%s%s%s", grid, *grid && *block ? " x " : "", block);
    if (u.has & (KU_REGS | KU_SMEM)) {
        char regs[48] = "", smem[48] = "";
        if (u.has & KU_REGS)
            snprintf(regs, sizeof(regs), "%lld regs/thread", (long long)u.regs);
        if (u.has & KU_SMEM)
            snprintf(smem, sizeof(smem), "%lld B smem", (long long)u.smem);
        detail_kvf(d, "resources", "%s%s%s", regs, *regs && *smem ? ", " : "", smem);
    }
    if (u.has & KU_OCC)
        detail_kvf(d, "occupancy", "%.0f %% est. achieved", u.occupancy);
    if (u.has & (KU_BPS | KU_WPS)) {
        char bps[48] = "", wps[48] = "";
        if (u.has & KU_BPS)
            snprintf(bps, sizeof(bps), "%.2f blocks", u.blocks_per_sm);
        if (u.has & KU_WPS)
            snprintf(wps, sizeof(wps), "%.2f warps", u.warps_per_sm);
        detail_kvf(d, "per SM", "%s%s%s", bps, *bps && *wps ? ", " : "", wps);
    }
    if (u.has & KU_BPS)
        detail_kvf(d, "SM efficiency", "%.0f %% est. (blocks per SM, at most 1)",
                   100.0 * kernutil_sm_efficiency(&u));
}

static void sec_shapes(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    const struct op_info *o = ev_op(t, ev);
    if (!o || !o->input_dims)
        return;
    detail_heading(d, "Shapes");
    struct strbuf sb = STRBUF_INIT;
    pyval_repr(&sb, trace_val(t, o->input_dims), PYVAL_TUPLES);
    detail_wrap(d, "dims", sb_str(&sb), sb.len, C_DEFAULT);
    if (o->input_type) {
        sb_clear(&sb);
        pyval_repr(&sb, trace_val(t, o->input_type), PYVAL_TUPLES);
        detail_wrap(d, "types", sb_str(&sb), sb.len, C_DEFAULT);
    }
    if (o->input_strides) {
        sb_clear(&sb);
        pyval_repr(&sb, trace_val(t, o->input_strides), PYVAL_TUPLES);
        detail_wrap(d, "strides", sb_str(&sb), sb.len, C_DEFAULT);
    }
    /* The param-combo line: the unique-args key of this op. */
    sb_clear(&sb);
    sb_puts(&sb, ev_name(t, ev));
    sb_putc(&sb, ' ');
    pyval_repr(&sb, trace_val(t, o->input_dims), PYVAL_TUPLES);
    if (o->input_type) {
        sb_putc(&sb, ' ');
        pyval_repr(&sb, trace_val(t, o->input_type), PYVAL_TUPLES);
    }
    if (o->concrete_inputs) {
        sb_putc(&sb, ' ');
        pyval_repr(&sb, trace_val(t, o->concrete_inputs), PYVAL_TUPLES);
    }
    detail_wrap(d, "params", sb_str(&sb), sb.len, C_OP);
    sb_free(&sb);
}

static void sec_kernels(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    uint32_t n = 0;
    const uint32_t *k = NULL;
    const struct launch_info *li = ev_launch(t, ev);
    if (li && li->gpu_count) {
        n = li->gpu_count;
        k = t->launch_gpu + li->gpu_first;
    } else if (evk_is_host_span(trace_ev(t, ev)->kind)) {
        k = gputime_launched(a->an->gt, ev, &n);
    }
    uint32_t nsub = 0;
    if (evk_is_host_span(trace_ev(t, ev)->kind))
        gputime_subtree_events(a->an->gt, ev, &nsub);
    if (!n && !nsub)
        return;
    detail_heading(d, "GPU work launched");
    if (nsub > n)
        detail_kvf(d, "in subtree", "%u GPU event%s", nsub, nsub == 1 ? "" : "s");
    enum { SHOW = 24 };
    for (uint32_t i = 0; i < n && i < SHOW; i++) {
        const struct event *g = trace_ev(t, k[i]);
        const struct gpu_info *gi = ev_gpu(t, k[i]);
        char dur[32], key[64];
        text_duration(dur, sizeof(dur), g->dur, a->ascii);
        snprintf(key, sizeof(key), "%9s s%-3lld", dur, gi ? (long long)gi->stream : -1LL);
        size_t nl = strtab_len(&t->strs, g->name);
        const char *nm = a->kn ? knames_row_name(a->kn, k[i], &nl) : ev_name(t, k[i]);
        detail_kv(d, key, nm, nl);
        d->lines.v[d->lines.n - 1].elem = C_KERNEL;
        detail_link(d, k[i]);
    }
    if (n > SHOW)
        detail_textf(d, C_DIM, "... and %u more", n - SHOW);
}

static void sec_partner(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    const struct op_info *o = ev_op(t, ev);
    if (!o || o->partner == IDX_NONE)
        return;
    const struct event *e = trace_ev(t, ev);
    const struct event *p = trace_ev(t, o->partner);
    detail_heading(d, (e->flags & EVF_BACKWARD) ? "Forward op" : "Backward op");
    detail_wrap(d, NULL, ev_name(t, o->partner), strtab_len(&t->strs, p->name), C_OP);
    detail_link(d, o->partner);
    char buf[256];
    const char *where = trace_row_label(t, p->row, buf, sizeof(buf));
    detail_kv(d, "where", where, strlen(where));
    detail_kvf(d, "start", "%.3f ms", ms_since_start(t, p->ts));
    put_dur(d, a, "duration", p->dur);
    put_dur(d, a, "GPU subtree", gputime_subtree(a->an->gt, o->partner, true));
    if (o->seq >= 0)
        detail_kvf(d, "sequence", "%lld", (long long)o->seq);
}

static void sec_parents(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    const struct event *e = trace_ev(t, ev);
    uint32_t p = e->parent;
    if (evk_is_gpu(e->kind)) {
        const struct gpu_info *g = ev_gpu(t, ev);
        p = g ? g->launch : IDX_NONE;
    }
    if (p == IDX_NONE)
        return;
    detail_heading(d, "Parents");
    enum { SHOW = 40 };
    int shown = 0;
    for (; p != IDX_NONE && shown < SHOW; p = trace_ev(t, p)->parent, shown++) {
        char dur[32];
        text_duration(dur, sizeof(dur), trace_ev(t, p)->dur, a->ascii);
        detail_kv(d, dur, ev_name(t, p), strtab_len(&t->strs, trace_ev(t, p)->name));
        detail_link(d, p);
        uint8_t k = trace_ev(t, p)->kind;
        d->lines.v[d->lines.n - 1].elem = k == EVK_PYTHON    ? C_PYTHON
                                          : k == EVK_RUNTIME ? C_RUNTIME
                                                             : C_OP;
    }
    if (p != IDX_NONE)
        detail_textf(d, C_DIM, "...");
}

static void sec_args(struct detail_out *d, struct view *a, uint32_t ev)
{
    const struct trace *t = a->t;
    struct argiter it;
    struct argval v;
    argpack_iter_init(&it, t, ev);
    bool any = false;
    struct strbuf sb = STRBUF_INIT;
    while (argpack_iter_next(&it, &v)) {
        if (!any)
            detail_heading(d, "Args");
        any = true;
        sb_clear(&sb);
        argpack_val_put_text(&sb, t, &v);
        struct strbuf key = STRBUF_INIT;
        text_clean(&key, trace_str(t, v.key), strtab_len(&t->strs, v.key), a->ascii);
        detail_wrap(d, sb_str(&key), sb_str(&sb), sb.len, C_DEFAULT);
        sb_free(&key);
    }
    sb_free(&sb);
}

/* Sections in display order. Tracebacks and source previews are further
 * entries of this table. */
const struct event_detail_section event_detail_sections[] = {
    {"event", sec_event},
    {"shapes", sec_shapes},
    {"roofline", roofline_view_detail},
    {"kernels", sec_kernels},
    {"partner", sec_partner},
    {"parents", sec_parents},
    {"utilization", sec_utilization},
    {"args", sec_args},
    {NULL, NULL},
};

void event_detail(struct detail_out *d, struct view *a, uint32_t ev)
{
    if (ev == IDX_NONE || !a->t || ev >= a->t->ev.n)
        return;
    for (const struct event_detail_section *s = event_detail_sections; s->fn; s++)
        s->fn(d, a, ev);
}
