/* Graph replays attributed through capture traces: alignment and the copy
 * of the captured subtrees into the replay trace. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/wide.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/trace/argpack.h"
#include "core/trace/capture.h"

/* What a launch call or a replayed GPU event launches. */
enum { TAG_KERNEL, TAG_MEMCPY, TAG_MEMSET, TAG_NONE };

/* A capture's launch call, in capture time order. */
struct claunch {
    int64_t ts;
    uint32_t ev;   /* event in the capture */
    uint32_t name; /* the kernel's name as a replay string id, IDX_NONE */
    uint8_t tag;
};

static inline bool claunch_less(const struct claunch *a, const struct claunch *b)
{
    return a->ts != b->ts ? a->ts < b->ts : a->ev < b->ev;
}

SORT_DEFINE(claunch_sort, struct claunch, claunch_less)

/* A replayed GPU event. */
struct rnode {
    int64_t ts;
    uint32_t ev;
    uint32_t name;
    uint8_t tag;
};

static inline bool rnode_less(const struct rnode *a, const struct rnode *b)
{
    return a->ts != b->ts ? a->ts < b->ts : a->ev < b->ev;
}

SORT_DEFINE(rnode_sort, struct rnode, rnode_less)

struct capseq {
    const struct trace *c;
    struct claunch *l;
    size_t n;
};

static bool name_has(const char *s, const char *pat)
{
    return strstr(s, pat) != NULL;
}

static bool is_graph_launch_name(const char *s)
{
    return strcmp(s, "cudaGraphLaunch") == 0 || strcmp(s, "hipGraphLaunch") == 0 ||
           strcmp(s, "cudaGraphLaunch_v10000") == 0;
}

/* The capture's launch calls, each with the replay string id of its
 * kernel's name (a name the replay does not hold cannot match). */
static void capseq_init(struct capseq *q, const struct trace *c, const struct trace *r)
{
    VEC(struct claunch) v = {0};
    for (uint32_t i = 0; i < c->ev.n; i++) {
        const struct event *e = &c->ev.v[i];
        if (!evk_is_launch(e->kind))
            continue;
        const char *nm = ev_name(c, i);
        struct claunch cl = {e->ts, i, IDX_NONE, TAG_NONE};
        struct argval a;
        if (name_has(nm, "Memcpy") || name_has(nm, "memcpy"))
            cl.tag = TAG_MEMCPY;
        else if (name_has(nm, "Memset") || name_has(nm, "memset"))
            cl.tag = TAG_MEMSET;
        else if (argpack_find(c, i, "kernel", &a) && a.type == ARG_STR) {
            const char *k = trace_str(c, a.v.s);
            cl.tag = TAG_KERNEL;
            cl.name = strtab_find(&r->strs, k, strlen(k));
        }
        if (cl.tag != TAG_NONE)
            *VEC_ADD(&v) = cl;
    }
    claunch_sort(v.v, v.n);
    q->c = c;
    q->l = v.v;
    q->n = v.n;
}

static inline bool matches(const struct claunch *c, const struct rnode *r)
{
    return c->tag == r->tag &&
           (r->tag != TAG_KERNEL || (c->name == r->name && r->name != IDX_NONE));
}

/* Greedy alignment from capture position s: al[j] = capture position of
 * replay node j or SIZE_MAX. Gives up (returns false) once it cannot beat
 * best_matched. */
static bool align_from(const struct capseq *q, size_t s, const struct rnode *r, size_t nr,
                       size_t *al, size_t *matched, size_t *skipped, size_t best_matched)
{
    size_t ci = s, m = 0, sk = 0;
    for (size_t j = 0; j < nr; j++) {
        if (m + (nr - j) < best_matched)
            return false;
        size_t p = ci;
        while (p < q->n && !matches(&q->l[p], &r[j]))
            p++;
        if (p == q->n) {
            al[j] = SIZE_MAX;
            continue;
        }
        sk += p - ci;
        al[j] = p;
        ci = p + 1;
        m++;
    }
    *matched = m;
    *skipped = sk;
    return true;
}

/* One copy of a whole capture that graph launches share once the copies
 * made per launch reach the merger's budget: every launch call of the
 * capture and its ancestors, copied once. */
struct shared_copy {
    uint64_t *corr; /* per capture position (capseq.l): the copied launch call's correlation */
    uint32_t *copy; /* ... the copied launch call */
    bool *flowed;   /* ... whether its ac2g flow start is made */
};

/* The replay side being built: copies of capture events. */
struct merger {
    struct trace *t;
    uint64_t next_corr;
    uint32_t rows_made;
    uint32_t *copy_of; /* capture event -> copy, valid where stamp == gen */
    uint32_t *stamp;
    uint32_t gen;
    size_t cap_n; /* size of copy_of / stamp */
    uint32_t ac2g;
    /* Events copied per launch so far, and how many may be: twice the
     * events read (replay and captures) plus 65,536. Past it, launches
     * share one copy per capture (shared[capture]), so the copies stay
     * proportional to the input however many launches replay a deep
     * capture. */
    uint64_t copied, budget;
    struct shared_copy *shared;
};

/* Room in the merger's per-capture-event maps for capture c. */
static void merger_reserve(struct merger *m, const struct trace *c)
{
    if (m->cap_n >= c->ev.n)
        return;
    free(m->copy_of);
    free(m->stamp);
    m->cap_n = c->ev.n;
    m->copy_of = xmalloc((m->cap_n + 1) * sizeof(uint32_t));
    m->stamp = xcalloc(m->cap_n + 1, sizeof(uint32_t));
    m->gen = 0;
}

static uint32_t copy_str(struct trace *t, const struct trace *c, uint32_t id)
{
    return strtab_intern(&t->strs, strtab_str(&c->strs, id), strtab_len(&c->strs, id));
}

static uint32_t copy_val(struct trace *t, const struct trace *c, uint32_t id)
{
    return id ? strtab_intern(&t->vals, strtab_str(&c->vals, id), strtab_len(&c->vals, id)) : 0;
}

static uint32_t copy_args(struct trace *t, const struct trace *c, uint32_t ev)
{
    if (c->ev.v[ev].args == IDX_NONE)
        return IDX_NONE;
    argbytes_t b = {0};
    struct argiter it;
    struct argval a;
    uint64_t count = 0;
    argpack_iter_init(&it, c, ev);
    argbytes_t body = {0};
    while (argpack_iter_next(&it, &a)) {
        a.key = copy_str(t, c, a.key);
        if (a.type == ARG_STR || a.type == ARG_JSON)
            a.v.s = copy_str(t, c, a.v.s);
        else if (a.type == ARG_VALUE)
            a.v.s = copy_val(t, c, a.v.s);
        argpack_put(&body, &a);
        count++;
    }
    argpack_put_varint(&b, count);
    VEC_APPEND(&b, body.v, body.n);
    uint32_t off = (uint32_t)t->argbuf.n;
    VEC_APPEND(&t->argbuf, b.v, b.n);
    VEC_FREE(&b);
    VEC_FREE(&body);
    return off;
}

/* Copy capture event ev onto replay row `row`, shifted by `shift` ns. */
static uint32_t copy_event(struct merger *m, const struct trace *c, uint32_t ev, uint32_t row,
                           int64_t shift)
{
    struct trace *t = m->t;
    const struct event *ce = &c->ev.v[ev];
    struct event ne = *ce;
    ne.ts = ce->ts + shift;
    ne.name = copy_str(t, c, ce->name);
    ne.cat = copy_str(t, c, ce->cat);
    ne.row = row;
    ne.args = copy_args(t, c, ev);
    ne.parent = ne.first_child = ne.next_sibling = IDX_NONE;
    ne.raw = 0;
    ne.flags =
        (uint16_t)((ce->flags & (EVF_HAS_SHAPES | EVF_MODULE | EVF_BACKWARD)) | EVF_CAPTURED);
    ne.aux = IDX_NONE;
    if ((ce->kind == EVK_CPU_OP || ce->kind == EVK_ANNOTATION) && ce->aux != IDX_NONE) {
        struct op_info o = c->ops.v[ce->aux];
        o.input_dims = copy_val(t, c, o.input_dims);
        o.input_type = copy_val(t, c, o.input_type);
        o.input_strides = copy_val(t, c, o.input_strides);
        o.concrete_inputs = copy_val(t, c, o.concrete_inputs);
        o.partner = IDX_NONE;
        o.coll = IDX_NONE;
        *VEC_ADD(&t->ops) = o;
        ne.aux = (uint32_t)t->ops.n - 1;
    } else if (ce->kind == EVK_PYTHON) {
        /* Python ids would collide with the replay's: the copy nests by
         * time (tree.c links no captured frame by its ids). */
        ne.aux = IDX_NONE;
    } else if (evk_is_launch(ce->kind)) {
        *VEC_ADD(&t->launches) = (struct launch_info){m->next_corr++, 0, 0, 0};
        ne.aux = (uint32_t)t->launches.n - 1;
    }
    uint32_t id = (uint32_t)t->ev.n;
    *VEC_ADD(&t->ev) = ne;
    t->n_by_kind[ne.kind]++;
    t->rows.v[row].nevents++;
    return id;
}

/* A host row for one graph launch's copy of the capture thread crow: the
 * launch's pid, thread id text "capture TID" (rows of one capture thread
 * share it, so that tables grouping by thread see one thread). */
static uint32_t new_row(struct merger *m, const struct trace *c, uint32_t crow, uint32_t launch)
{
    struct trace *t = m->t;
    const struct row *lr = &t->rows.v[t->ev.v[launch].row];
    const struct row *cr = &c->rows.v[crow];
    struct row nr = *lr;
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "capture %s", strtab_str(&c->strs, cr->tid_str));
    nr.tid = cr->tid;
    nr.tid_str = strtab_intern(&t->strs, sb_str(&sb), sb.len);
    nr.flags = (uint8_t)((lr->flags & ROW_PID_TEXT) | ROW_TID_TEXT);
    sb_clear(&sb);
    const char *base = strrchr(c->path, '/');
    sb_printf(&sb, "capture %s", base ? base + 1 : c->path);
    nr.thread_name = strtab_intern(&t->strs, sb_str(&sb), sb.len);
    sb_free(&sb);
    nr.thread_sort = INT64_MAX;
    nr.nevents = 0;
    nr.first_root = IDX_NONE;
    nr.order = NULL;
    m->rows_made++;
    *VEC_ADD(&t->rows) = nr;
    /* Launches are merged in event order and their rows made in turn: the
     * grafts come sorted by launch and by row at once. */
    *VEC_ADD(&t->grafts) = (struct capture_graft){launch, (uint32_t)t->rows.n - 1};
    return (uint32_t)t->rows.n - 1;
}

/* The lowest common ancestor of the capture events at[0..n) (IDX_NONE
 * when they have none in common: different threads). */
static uint32_t common_ancestor(const struct trace *c, const uint32_t *at, size_t n)
{
    if (!n)
        return IDX_NONE;
    VEC(uint32_t) chain = {0};
    for (uint32_t e = at[0]; e != IDX_NONE; e = c->ev.v[e].parent)
        *VEC_ADD(&chain) = e;
    size_t top = 0; /* index into chain of the lowest common one so far */
    for (size_t k = 1; k < n && top != SIZE_MAX; k++) {
        size_t found = SIZE_MAX;
        for (uint32_t e = at[k]; e != IDX_NONE && found == SIZE_MAX; e = c->ev.v[e].parent)
            for (size_t q = top; q < chain.n; q++)
                if (chain.v[q] == e) {
                    found = q;
                    break;
                }
        top = found;
    }
    uint32_t r = top == SIZE_MAX ? IDX_NONE : chain.v[top];
    VEC_FREE(&chain);
    return r;
}

/* Copy ev and its ancestors up to (and including) stop, top first. A loop
 * over the chain, not a recursion: a capture may nest ops as deep as its
 * input allows. */
static uint32_t copy_chain(struct merger *m, const struct trace *c, uint32_t ev, uint32_t stop,
                           uint32_t row, int64_t shift)
{
    if (m->stamp[ev] == m->gen)
        return m->copy_of[ev];
    /* The events still to copy, ev first: up to stop, the root, or the
     * lowest ancestor already copied. */
    VEC(uint32_t) todo = {0};
    for (uint32_t e = ev;;) {
        *VEC_ADD(&todo) = e;
        uint32_t p = c->ev.v[e].parent;
        if (e == stop || p == IDX_NONE || m->stamp[p] == m->gen)
            break;
        e = p;
    }
    for (size_t k = todo.n; k-- > 0;) {
        uint32_t e = todo.v[k];
        m->copy_of[e] = copy_event(m, c, e, row, shift);
        m->stamp[e] = m->gen;
    }
    VEC_FREE(&todo);
    return m->copy_of[ev];
}

/* Copy the whole capture once into sc: each thread's launch calls and
 * their ancestors on a row of its own grafted under `launch`, placed so
 * that the earliest event of those threads starts at the launch's start. */
static void make_shared(struct merger *m, const struct capseq *q, struct shared_copy *sc,
                        uint32_t launch)
{
    struct trace *t = m->t;
    const struct trace *c = q->c;
    sc->corr = xmalloc((q->n + 1) * sizeof(uint64_t));
    sc->copy = xmalloc((q->n + 1) * sizeof(uint32_t));
    sc->flowed = xcalloc(q->n + 1, sizeof(bool));
    uint32_t *rows = xmalloc((c->rows.n + 1) * sizeof(uint32_t));
    memset(rows, 0xff, (c->rows.n + 1) * sizeof(uint32_t));
    for (size_t k = 0; k < q->n; k++)
        rows[c->ev.v[q->l[k].ev].row] = 0; /* a thread with launch calls */
    int64_t c0 = INT64_MAX;
    for (uint32_t i = 0; i < c->ev.n; i++)
        if (rows[c->ev.v[i].row] != IDX_NONE && c->ev.v[i].ts < c0)
            c0 = c->ev.v[i].ts;
    memset(rows, 0xff, (c->rows.n + 1) * sizeof(uint32_t));
    int64_t shift = q->n ? t->ev.v[launch].ts - c0 : 0;
    merger_reserve(m, c);
    m->gen++; /* one generation: ancestors are copied once for all */
    for (size_t k = 0; k < q->n; k++) {
        uint32_t crow = c->ev.v[q->l[k].ev].row;
        if (rows[crow] == IDX_NONE)
            rows[crow] = new_row(m, c, crow, launch);
        uint32_t cl = copy_chain(m, c, q->l[k].ev, IDX_NONE, rows[crow], shift);
        sc->copy[k] = cl;
        sc->corr[k] = t->launches.v[t->ev.v[cl].aux].corr;
    }
    free(rows);
}

/* Attribute a launch's aligned GPU events (best[j]: capture position of
 * replay node j, or SIZE_MAX) to the shared copy of capture q, made on
 * first use. */
static void share_launch(struct merger *m, const struct capseq *q, struct shared_copy *sc,
                         uint32_t launch, const struct rnode *r, size_t nr, const size_t *best)
{
    struct trace *t = m->t;
    if (!sc->corr)
        make_shared(m, q, sc, launch);
    for (size_t j = 0; j < nr; j++) {
        if (best[j] == SIZE_MAX)
            continue;
        struct event *g = &t->ev.v[r[j].ev];
        t->gpus.v[g->aux].corr = sc->corr[best[j]];
        t->gpus.v[g->aux].ext_id = 0;
        if (!sc->flowed[best[j]]) {
            const struct event *le = &t->ev.v[sc->copy[best[j]]];
            *VEC_ADD(&t->flows) =
                (struct flow){le->ts, sc->corr[best[j]], m->ac2g, m->ac2g, le->row, 's', 1, 0, 0};
            sc->flowed[best[j]] = true;
        }
        t->graph_aligned++;
        t->graph_aligned_ns = wide_add_sat(t->graph_aligned_ns, g->dur);
    }
}

static void merge_launch(struct merger *m, const struct capseq *qs, size_t nq, uint32_t launch,
                         struct rnode *r, size_t nr)
{
    struct trace *t = m->t;
    size_t *al = xmalloc((nr + 1) * sizeof(size_t)), *best = xmalloc((nr + 1) * sizeof(size_t));
    size_t best_m = 0, best_sk = SIZE_MAX, best_q = SIZE_MAX;
    for (size_t qi = 0; qi < nq; qi++) {
        const struct capseq *q = &qs[qi];
        /* Start points: where the first replay node that occurs at all does. */
        for (size_t j0 = 0; j0 < nr && j0 < 8; j0++) {
            bool any = false;
            for (size_t s = 0; s < q->n; s++) {
                if (!matches(&q->l[s], &r[j0]))
                    continue;
                any = true;
                size_t mm, sk;
                if (!align_from(q, s, r, nr, al, &mm, &sk, best_m))
                    continue;
                if (mm > best_m || (mm == best_m && mm && sk < best_sk)) {
                    best_m = mm;
                    best_sk = sk;
                    best_q = qi;
                    memcpy(best, al, nr * sizeof(size_t));
                }
            }
            if (any)
                break;
        }
    }
    for (size_t j = 0; j < nr; j++)
        t->graph_ns += t->ev.v[r[j].ev].dur;
    t->graph_kernels += nr;
    if (best_q != SIZE_MAX && m->copied >= m->budget) {
        share_launch(m, &qs[best_q], &m->shared[best_q], launch, r, nr, best);
    } else if (best_q != SIZE_MAX) {
        size_t ev_before = t->ev.n;
        const struct capseq *q = &qs[best_q];
        const struct trace *c = q->c;
        uint32_t *at = xmalloc((nr + 1) * sizeof(uint32_t));
        size_t na = 0;
        for (size_t j = 0; j < nr; j++)
            if (best[j] != SIZE_MAX)
                at[na++] = q->l[best[j]].ev;
        uint32_t lca = common_ancestor(c, at, na);
        int64_t c0 = INT64_MAX;
        if (lca != IDX_NONE)
            c0 = c->ev.v[lca].ts;
        else
            for (size_t k = 0; k < na; k++) {
                uint32_t e = at[k];
                while (c->ev.v[e].parent != IDX_NONE)
                    e = c->ev.v[e].parent;
                c0 = c->ev.v[e].ts < c0 ? c->ev.v[e].ts : c0;
            }
        int64_t shift = t->ev.v[launch].ts - c0;
        merger_reserve(m, c);
        m->gen++;
        /* One row per capture thread (launches may be issued from several). */
        uint32_t *rows = xmalloc((c->rows.n + 1) * sizeof(uint32_t));
        memset(rows, 0xff, (c->rows.n + 1) * sizeof(uint32_t));
        for (size_t j = 0; j < nr; j++) {
            if (best[j] == SIZE_MAX)
                continue;
            uint32_t crow = c->ev.v[q->l[best[j]].ev].row;
            if (rows[crow] == IDX_NONE)
                rows[crow] = new_row(m, c, crow, launch);
            uint32_t row = rows[crow];
            /* Up to the thread's root: the nn.Module frames above the
             * common ancestor name the ops' parent modules. */
            uint32_t cl = copy_chain(m, c, q->l[best[j]].ev, IDX_NONE, row, shift);
            const struct event *le = &t->ev.v[cl];
            uint64_t corr = t->launches.v[le->aux].corr;
            struct event *g = &t->ev.v[r[j].ev];
            t->gpus.v[g->aux].corr = corr;
            t->gpus.v[g->aux].ext_id = 0;
            /* An ac2g start, so that flow-requiring linking (TraceLens's rule)
             * links it too. */
            *VEC_ADD(&t->flows) = (struct flow){le->ts, corr, m->ac2g, m->ac2g, row, 's', 1, 0, 0};
            t->graph_aligned++;
            t->graph_aligned_ns = wide_add_sat(t->graph_aligned_ns, g->dur);
        }
        free(rows);
        free(at);
        m->copied += t->ev.n - ev_before;
    }
    free(al);
    free(best);
}

void capture_merge(struct trace *t, struct trace *const *caps, size_t ncaps)
{
    trace_own_arrays(t); /* events, rows and flows are added */
    t->n_captures += (uint32_t)ncaps;
    struct merger m = {.t = t, .ac2g = strtab_intern_cstr(&t->strs, "ac2g")};
    /* Fresh correlations above every one in the replay. */
    uint64_t maxc = 0;
    for (size_t k = 0; k < t->launches.n; k++)
        maxc = t->launches.v[k].corr > maxc ? t->launches.v[k].corr : maxc;
    for (size_t k = 0; k < t->gpus.n; k++)
        maxc = t->gpus.v[k].corr > maxc ? t->gpus.v[k].corr : maxc;
    m.next_corr = maxc + 1;

    struct capseq *qs = xcalloc(ncaps + 1, sizeof(*qs));
    m.budget = 2 * (uint64_t)t->ev.n + 65536;
    for (size_t k = 0; k < ncaps; k++) {
        capseq_init(&qs[k], caps[k], t);
        m.budget += 2 * (uint64_t)caps[k]->ev.n;
    }
    m.shared = xcalloc(ncaps + 1, sizeof(*m.shared));

    /* Graph launches by correlation, then their GPU events. */
    struct hmap g;
    hmap_init(&g, 16);
    uint32_t nev = (uint32_t)t->ev.n; /* copies are appended past it */
    for (uint32_t i = 0; i < nev; i++) {
        const struct event *e = &t->ev.v[i];
        if (evk_is_launch(e->kind) && e->aux != IDX_NONE && t->launches.v[e->aux].corr &&
            is_graph_launch_name(ev_name(t, i)))
            hmap_put_first(&g, t->launches.v[e->aux].corr, i);
    }
    size_t nl = hmap_count(&g);
    if (nl) {
        uint32_t *cnt = xcalloc(nev + 1, sizeof(uint32_t));
        VEC(struct rnode) *per = xcalloc(nev + 1, sizeof(*per));
        for (uint32_t i = 0; i < nev; i++) {
            const struct event *e = &t->ev.v[i];
            if (!evk_is_gpu(e->kind) || e->aux == IDX_NONE || !t->gpus.v[e->aux].corr)
                continue;
            uint32_t l = hmap_get(&g, t->gpus.v[e->aux].corr);
            if (l == IDX_NONE)
                continue;
            uint8_t tag = e->kind == EVK_MEMCPY   ? TAG_MEMCPY
                          : e->kind == EVK_MEMSET ? TAG_MEMSET
                                                  : TAG_KERNEL;
            *VEC_ADD(&per[l]) = (struct rnode){e->ts, i, e->name, tag};
            cnt[l]++;
        }
        for (uint32_t l = 0; l < nev; l++) {
            if (!per[l].n)
                continue;
            rnode_sort(per[l].v, per[l].n);
            merge_launch(&m, qs, ncaps, l, per[l].v, per[l].n);
            VEC_FREE(&per[l]);
        }
        free(per);
        free(cnt);
    }
    hmap_free(&g);
    for (size_t k = 0; k < ncaps; k++) {
        free(qs[k].l);
        free(m.shared[k].corr);
        free(m.shared[k].copy);
        free(m.shared[k].flowed);
    }
    free(m.shared);
    free(qs);
    free(m.copy_of);
    free(m.stamp);
}

uint32_t capture_graft_launch(const struct trace *t, uint32_t row)
{
    size_t a = 0, b = t->grafts.n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (t->grafts.v[m].row < row)
            a = m + 1;
        else
            b = m;
    }
    return a < t->grafts.n && t->grafts.v[a].row == row ? t->grafts.v[a].launch : IDX_NONE;
}

const struct capture_graft *capture_grafts(const struct trace *t, uint32_t ev, uint32_t *n)
{
    size_t a = 0, b = t->grafts.n;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (t->grafts.v[m].launch < ev)
            a = m + 1;
        else
            b = m;
    }
    size_t e = a;
    while (e < t->grafts.n && t->grafts.v[e].launch == ev)
        e++;
    *n = (uint32_t)(e - a);
    return e > a ? &t->grafts.v[a] : NULL;
}

static bool is_trace_name(const char *s)
{
    size_t n = strlen(s);
    return (n > 5 && strcmp(s + n - 5, ".json") == 0) ||
           (n > 8 && strcmp(s + n - 8, ".json.gz") == 0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

enum status capture_list(const char *path, char ***files, size_t *n, struct errinfo *err)
{
    struct stat st;
    VEC(char *) v = {0};
    *files = NULL;
    *n = 0;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d) {
            errinfo_set(err, ST_IO, path, -1, "cannot read the capture directory");
            return ST_IO;
        }
        for (struct dirent *de; (de = readdir(d));) {
            if (de->d_name[0] == '.' || !is_trace_name(de->d_name))
                continue;
            struct strbuf sb = STRBUF_INIT;
            sb_printf(&sb, "%s/%s", path, de->d_name);
            *VEC_ADD(&v) = xstrdup(sb_str(&sb));
            sb_free(&sb);
        }
        closedir(d);
        if (!v.n) {
            errinfo_set(err, ST_FORMAT, path, -1,
                        "expected capture traces (*.json, *.json.gz) in the directory, found none");
            return ST_FORMAT;
        }
        sort_items(v.v, v.n, sizeof(char *), cmp_str);
    } else {
        *VEC_ADD(&v) = xstrdup(path);
    }
    *files = v.v;
    *n = v.n;
    return ST_OK;
}

enum status capture_load(const char *path, const struct load_opts *opts, struct trace ***caps,
                         size_t *n, struct errinfo *err)
{
    char **files;
    size_t nfiles;
    enum status rc = capture_list(path, &files, &nfiles, err);
    if (rc != ST_OK)
        return rc;
    /* A file of a directory the user did not name: a regular file only. */
    bool listed = nfiles > 1 || strcmp(files[0], path) != 0;
    for (size_t k = 0; k < nfiles; k++) {
        if (rc == ST_OK) {
            struct trace *c = NULL;
            struct load_opts lo = opts ? *opts : (struct load_opts){0};
            lo.no_index = false;
            lo.progress = NULL;
            lo.regular_only = listed;
            rc = trace_load_file(files[k], &lo, &c, err);
            if (rc == ST_OK) {
                *caps = xreallocarray(*caps, *n + 1, sizeof(**caps));
                (*caps)[(*n)++] = c;
            } else {
                trace_free(c);
            }
        }
        free(files[k]);
    }
    free(files);
    return rc;
}
