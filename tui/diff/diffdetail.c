/* Both sides' detail of a diff's selection (tui/diff/diffdetail.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/base/display.h"
#include "core/base/sort.h"
#include "core/base/wide.h"
#include "core/base/xalloc.h"
#include "core/diff/shortname.h"
#include "core/roofline/perfmodel.h"
#include "core/roofline/roofline.h"
#include "core/trace/pyval.h"
#include "tui/diff/diffdetail.h"
#include "tui/frame/detail.h"
#include "tui/frame/text.h"

/* Kernels and shapes listed per side. */
#define TOP_KERNELS 5
#define TOP_SHAPES 3
/* Instances whose shapes are read: enough to rank the common ones. */
#define SHAPE_INSTANCES 4096
/* Instances tried for a roofline line. */
#define MODEL_TRIES 64

/* A kernel name's launches under the selection, or a shape's instances. */
struct tally {
    char *key;   /* kernel name or shapes repr (owned) */
    int64_t n;   /* count */
    int64_t dur; /* ns (kernels) */
};

struct tallies {
    struct tally *v;
    size_t n, cap;
};

/* One side's numbers for the selection. */
struct side_sum {
    int64_t count, cpu, gpu; /* events; ns of host spans, ns of GPU time */
    bool on_gpu;             /* the events are GPU events themselves */
    struct tallies kernels;
    uint32_t *kernel_at; /* per string id of the side's trace: its tally in kernels + 1, 0:
                            none yet (made on the first kernel): one lookup a kernel */
    struct tallies shapes;
    uint32_t first; /* first instance, IDX_NONE */
    uint32_t tried[MODEL_TRIES];
    size_t ntried;
    uint32_t modelled_name; /* string id whose answer `modelled` holds, IDX_NONE: none */
    bool modelled;          /* the roofline models ops of that name */
};

static void tally_add(struct tallies *v, const char *key, size_t n, int64_t dur)
{
    for (size_t i = 0; i < v->n; i++)
        if (strlen(v->v[i].key) == n && memcmp(v->v[i].key, key, n) == 0) {
            v->v[i].n++;
            v->v[i].dur = wide_add_sat(v->v[i].dur, dur);
            return;
        }
    struct tally t = {xstrndup(key, n), 1, dur};
    VEC_PUSH(v, t);
}

static int cmp_tally_dur(const void *x, const void *y)
{
    const struct tally *a = x, *b = y;
    if (a->dur != b->dur)
        return a->dur > b->dur ? -1 : 1;
    if (a->n != b->n)
        return a->n > b->n ? -1 : 1;
    return strcmp(a->key, b->key);
}

static void side_free(struct side_sum *s)
{
    for (size_t i = 0; i < s->kernels.n; i++)
        free(s->kernels.v[i].key);
    for (size_t i = 0; i < s->shapes.n; i++)
        free(s->shapes.v[i].key);
    VEC_FREE(&s->kernels);
    free(s->kernel_at);
    VEC_FREE(&s->shapes);
}

/* Add event ev of side k (an instance of the selection) to s. */
static void add_instance(const struct diffdata *dd, int k, uint32_t ev, struct side_sum *s)
{
    const struct trace *t = dd->td->t[k];
    const struct event *e = trace_ev(t, ev);
    struct gputime *g = dd->ctx.dt->g[k];
    if (s->first == IDX_NONE)
        s->first = ev;
    s->count++;
    if (evk_on_device(e->kind)) {
        s->on_gpu = true;
        s->gpu = wide_add_sat(s->gpu, e->dur);
        return;
    }
    s->cpu = wide_add_sat(s->cpu, e->dur);
    s->gpu = wide_add_sat(s->gpu, gputime_subtree(g, ev, true));
    uint32_t nk = 0;
    const uint32_t *ks = gputime_subtree_events(g, ev, &nk);
    for (uint32_t i = 0; i < nk; i++) {
        const struct event *ke = trace_ev(t, ks[i]);
        if (!s->kernel_at)
            s->kernel_at = xcalloc(strtab_count(&t->strs) + 1, sizeof(uint32_t));
        uint32_t *at = &s->kernel_at[ke->name];
        if (*at) {
            s->kernels.v[*at - 1].n++;
            s->kernels.v[*at - 1].dur = wide_add_sat(s->kernels.v[*at - 1].dur, ke->dur);
            continue;
        }
        struct tally fresh = {xstrndup(trace_str(t, ke->name), strtab_len(&t->strs, ke->name)), 1,
                              ke->dur};
        VEC_PUSH(&s->kernels, fresh);
        *at = (uint32_t)s->kernels.n;
    }
    const struct op_info *o = ev_op(t, ev);
    if (o && o->input_dims && s->count <= SHAPE_INSTANCES) {
        struct strbuf sb = STRBUF_INIT;
        pyval_repr(&sb, trace_val(t, o->input_dims), PYVAL_TUPLES);
        tally_add(&s->shapes, sb.s ? sb.s : "", sb.len, 0);
        sb_free(&sb);
    }
    /* The instances of a name share the answer (thousands of them, and a
     * lookup compares names). */
    if (s->ntried < MODEL_TRIES && e->name != s->modelled_name) {
        s->modelled_name = e->name;
        s->modelled = pm_find(trace_str(t, e->name)) != NULL;
    }
    if (s->ntried < MODEL_TRIES && s->modelled)
        s->tried[s->ntried++] = ev;
}

/* Every event of side k counted by the per-name diff under `name` (the
 * name or, with --short-names, the short name). */
static void name_instances(const struct diffdata *dd, int k, const char *name, struct side_sum *s)
{
    const struct trace *t = dd->td->t[k];
    size_t nstr = strtab_count(&t->strs);
    uint8_t *memo = xcalloc(nstr ? nstr : 1, 1); /* 0 unknown, 1 no, 2 yes */
    size_t len = strlen(name);
    struct strbuf sb = STRBUF_INIT;
    /* The name first (a byte per string id), the per-name diff's rule
     * only for the events of that name. */
    for (uint32_t i = 0; i < t->ev.n; i++) {
        uint32_t id = trace_ev(t, i)->name;
        if (!memo[id]) {
            const char *s2 = trace_str(t, id);
            size_t n2 = strtab_len(&t->strs, id);
            if (dd->td->o.short_names) {
                sb_clear(&sb);
                shortname_hta(&sb, s2, n2);
                s2 = sb_str(&sb);
                n2 = sb.len;
            }
            memo[id] = n2 == len && memcmp(s2, name, len) == 0 ? 2 : 1;
        }
        if (memo[id] == 2 && tracediff_counts(dd->td, k, i))
            add_instance(dd, k, i, s);
    }
    sb_free(&sb);
    free(memo);
}

static void put(struct detail_out *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line of the detail (the pane cleans and fits it when drawn). */
static void put(struct detail_out *d, const char *fmt, ...)
{
    struct strbuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    detail_kv(d, NULL, sb_str(&sb), sb.len);
    sb_free(&sb);
}

static void side_text(struct diffdata *dd, int k, struct side_sum *s, struct detail_out *out,
                      bool a)
{
    char cpu[40], gpu[40];
    text_duration(cpu, sizeof(cpu), s->cpu, a);
    text_duration(gpu, sizeof(gpu), s->gpu, a);
    const char *lab = dd->td->label[k];
    if (!s->count) {
        put(out, "%s: absent", lab);
        return;
    }
    if (s->on_gpu)
        put(out, "%s: %lld GPU events, %s", lab, (long long)s->count, gpu);
    else
        put(out, "%s: %lld calls, CPU %s, GPU %s", lab, (long long)s->count, cpu, gpu);
    sort_items(s->shapes.v, s->shapes.n, sizeof(*s->shapes.v), cmp_tally_dur);
    for (size_t i = 0; i < s->shapes.n && i < TOP_SHAPES; i++)
        put(out, "  shapes x%lld %s", (long long)s->shapes.v[i].n, s->shapes.v[i].key);
    if (s->shapes.n > TOP_SHAPES)
        put(out, "  ... %zu input shapes in all", s->shapes.n);
    sort_items(s->kernels.v, s->kernels.n, sizeof(*s->kernels.v), cmp_tally_dur);
    for (size_t i = 0; i < s->kernels.n && i < TOP_KERNELS; i++) {
        char d[40];
        text_duration(d, sizeof(d), s->kernels.v[i].dur, a);
        int pad = 10 + (int)(strlen(d) - display_width(d, strlen(d)));
        put(out, "  %*s x%-5lld %s", pad, d, (long long)s->kernels.v[i].n, s->kernels.v[i].key);
    }
    if (s->kernels.n > TOP_KERNELS)
        put(out, "  ... %zu kernel names in all", s->kernels.n);
    if (!s->ntried)
        return;
    struct roofline *r = diffdata_roofline(dd, k);
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; r && i < s->ntried; i++)
        if (roofline_summary_line(&sb, r, s->tried[i], a))
            break;
    if (sb.len)
        put(out, "  roofline: %s", sb_str(&sb));
    else
        put(out, "  roofline: no instance modelled (shapes not recorded?)");
    sb_free(&sb);
}

static void both_sides(struct diffdata *dd, struct side_sum *s, struct detail_out *out, bool ascii)
{
    for (int k = 0; k < 2; k++)
        side_text(dd, k, &s[k], out, ascii);
    char d[48];
    int64_t dg = s[1].gpu - s[0].gpu, dc = s[1].cpu - s[0].cpu;
    text_duration(d, sizeof(d), dg < 0 ? -dg : dg, ascii);
    char c[48];
    text_duration(c, sizeof(c), dc < 0 ? -dc : dc, ascii);
    put(out, "change: count %+lld, GPU %s%s, CPU %s%s", (long long)(s[1].count - s[0].count),
        dg < 0 ? "-" : "+", d, dc < 0 ? "-" : "+", c);
    for (int k = 0; k < 2; k++)
        side_free(&s[k]);
}

static void sides_init(struct side_sum *s)
{
    memset(s, 0, 2 * sizeof(*s));
    s[0].first = s[1].first = IDX_NONE;
    s[0].modelled_name = s[1].modelled_name = IDX_NONE;
}

void diffdetail_name(struct detail_out *d, struct diffdata *dd, const char *name, bool ascii)
{
    struct side_sum s[2];
    sides_init(s);
    detail_heading(d, "Both sides: the events of this name in the steps compared");
    for (int k = 0; k < 2; k++)
        name_instances(dd, k, name, &s[k]);
    both_sides(dd, s, d, ascii);
}

void diffdetail_node(struct detail_out *d, struct diffdata *dd, uint32_t node, bool ascii)
{
    const struct difftree *dt = dd->ctx.dt;
    if (node >= dt->nodes.n)
        return;
    const struct difftree_node *nd = &dt->nodes.v[node];
    struct side_sum s[2];
    sides_init(s);
    const char *name = difftree_name(dt, node);
    detail_heading(d, "Merged call tree node");
    detail_wrap(d, "name", name, strlen(name), C_DEFAULT);
    put(d, "%s; depth %u",
        nd->ev[0] == IDX_NONE   ? "test only"
        : nd->ev[1] == IDX_NONE ? "control only"
                                : "on both sides",
        nd->depth);
    for (int k = 0; k < 2; k++)
        if (nd->ev[k] != IDX_NONE)
            add_instance(dd, k, nd->ev[k], &s[k]);
    both_sides(dd, s, d, ascii);
}
