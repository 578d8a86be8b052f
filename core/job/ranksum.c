/* Rank summaries built from a loaded trace: the GPU timeline, profiler
 * steps, collective kernels with their metadata, GPU time by op. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "core/base/wide.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "core/job/job_colls.h"
#include "core/job/ranksum.h"
#include "core/trace/argpack.h"

struct ranksum *ranksum_new(const char *source)
{
    struct ranksum *s = xcalloc(1, sizeof(*s));
    s->source = xstrdup(source ? source : "");
    s->dist_rank = s->world_size = s->name_rank = -1;
    strtab_init(&s->strs);
    return s;
}

const char *ranksum_file(const struct ranksum *s)
{
    return s->file ? s->file : s->source;
}

void ranksum_free(struct ranksum *s)
{
    if (!s)
        return;
    free(s->source);
    free(s->file);
    strtab_free(&s->strs);
    VEC_FREE(&s->colls);
    VEC_FREE(&s->ops);
    VEC_FREE(&s->busy);
    free(s);
}

void ranksum_coarsen_busy(struct ranksum *s)
{
    int64_t gap = 0;
    while (s->busy.n > RANKSUM_MAX_BUSY) {
        gap = gap ? (gap > INT64_MAX / 2 ? INT64_MAX : gap * 2) : 1000;
        size_t k = 0;
        for (size_t i = 1; i < s->busy.n; i++) {
            if (s->busy.v[i].start - s->busy.v[k].end < gap)
                s->busy.v[k].end = s->busy.v[i].end;
            else
                s->busy.v[++k] = s->busy.v[i];
        }
        s->busy.n = k + 1;
    }
    s->busy_gap_ns = gap;
}

/* A string of the trace interned in the summary; 0 stays absent. */
static uint32_t copy_str(struct ranksum *s, const struct trace *t, uint32_t id)
{
    if (!id)
        return 0;
    return strtab_intern(&s->strs, trace_str(t, id), strtab_len(&t->strs, id));
}

static void read_dist(struct ranksum *s, const struct trace *t)
{
    const cJSON *d = t->top ? cJSON_GetObjectItemCaseSensitive(t->top, "distributedInfo") : NULL;
    if (!cJSON_IsObject(d))
        return;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(d, "rank");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(d, "world_size");
    if (cJSON_IsNumber(r) && r->valuedouble >= 0 && r->valuedouble < 1e9)
        s->dist_rank = (int)r->valuedouble;
    if (cJSON_IsNumber(w) && w->valuedouble >= 1 && w->valuedouble < 1e9)
        s->world_size = (int)w->valuedouble;
}

static void add_coll(struct ranksum *s, const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    const struct gpu_info *g = ev_gpu(t, i);
    struct rank_coll *c = VEC_ADD(&s->colls);
    c->ts = t->base_ns + e->ts;
    c->dur = e->dur;
    c->stream = g ? g->stream : t->rows.v[e->row].tid;
    c->group_size = -1;
    c->in_nelems = c->out_nelems = -1;
    if (g && g->coll != IDX_NONE) {
        const struct coll_info *ci = &t->colls.v[g->coll];
        c->name = copy_str(s, t, ci->name);
        c->dtype = copy_str(s, t, ci->dtype);
        c->pg_name = copy_str(s, t, ci->pg_name);
        c->pg_ranks = copy_str(s, t, ci->pg_ranks);
        c->group_size = ci->group_size;
        c->in_nelems = ci->in_nelems;
        c->out_nelems = ci->out_nelems;
    }
    struct argval a;
    if (argpack_find(t, i, "Seq", &a) && argpack_val_int(t, &a, &c->seq))
        c->has_seq = true;
    if (argpack_find(t, i, "Comms Id", &a)) {
        struct strbuf sb = STRBUF_INIT;
        argpack_val_put_text(&sb, t, &a);
        c->comms_id = strtab_intern(&s->strs, sb_str(&sb), sb.len);
        sb_free(&sb);
    }
    /* Without a "Collective name" the kernel's name says which collective
     * it runs (and the reduction's element type); the element count is
     * not in it, so sizes stay unknown. */
    const char *nm, *dt;
    if (!c->name && job_colls_from_kernel(ev_name(t, i), &nm, &dt)) {
        c->name = strtab_intern_cstr(&s->strs, nm);
        if (!c->dtype && dt)
            c->dtype = strtab_intern_cstr(&s->strs, dt);
    }
}

#define COLL_LESS(a, b) ((a)->ts < (b)->ts)
SORT_DEFINE(coll_sort, struct rank_coll, COLL_LESS)
#define OP_LESS(a, b)                                                                              \
    ((a)->gpu_ns > (b)->gpu_ns || ((a)->gpu_ns == (b)->gpu_ns && (a)->name < (b)->name))
SORT_DEFINE(op_sort, struct rank_op, OP_LESS)

struct ranksum *ranksum_from_trace(const struct trace *t)
{
    struct ranksum *s = ranksum_new(t->path);
    read_dist(s, t);
    timeline_breakdown(t, false, -1, &s->tl);
    struct hmap byname; /* summary name id -> index into ops */
    hmap_init(&byname, 256);
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (evk_is_host_span(e->kind) && strncmp(ev_name(t, i), "ProfilerStep#", 13) == 0) {
            s->nsteps++;
            s->steps_ns = wide_add_sat(s->steps_ns, e->dur);
            continue;
        }
        if (!evk_is_gpu(e->kind))
            continue;
        const struct gpu_info *g = ev_gpu(t, i);
        if (!(e->flags & EVF_COMM) && e->dur > 0)
            *VEC_ADD(&s->busy) =
                (struct ival){t->base_ns + e->ts, wide_add_sat(t->base_ns + e->ts, e->dur)};
        /* TraceLens counts a collective kernel only when it is linked
         * (a correlation or an External id). */
        if (e->kind == EVK_KERNEL && (e->flags & EVF_COMM) && g && (g->corr || g->ext_id))
            add_coll(s, t, i);
        uint32_t launcher = g ? g->launcher : IDX_NONE;
        bool by_op = launcher != IDX_NONE && t->ev.v[launcher].kind == EVK_CPU_OP;
        uint32_t nm = copy_str(s, t, by_op ? t->ev.v[launcher].name : e->name);
        uint32_t k = hmap_get(&byname, nm);
        if (k == IDX_NONE) {
            k = (uint32_t)s->ops.n;
            hmap_put(&byname, nm, k);
            *VEC_ADD(&s->ops) = (struct rank_op){.name = nm};
        }
        s->ops.v[k].count++;
        s->ops.v[k].gpu_ns = wide_add_sat(s->ops.v[k].gpu_ns, e->dur);
    }
    hmap_free(&byname);
    s->busy.n = ival_normalize(s->busy.v, s->busy.n);
    ranksum_coarsen_busy(s);
    coll_sort(s->colls.v, s->colls.n);
    op_sort(s->ops.v, s->ops.n);
    char err[256];
    cp_bounds_of_trace(t, &s->cp, err); /* (none kept when it has no path) */
    return s;
}
