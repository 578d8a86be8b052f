/* Findings: run the rules over each step's critical path, what-if each
 * rule's edges away, and gather the evidence (findings.h). */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/recompute.h"
#include "core/critpath/cp_frame.h"
#include "core/critpath/critpath.h"
#include "core/findings/find_rules.h"
#include "core/findings/findings.h"
#include "core/base/wide.h"

const char *findings_kind_name(enum finding_kind k)
{
    static const char *const names[] = {
#define FK_NAME(id, name) name,
        FINDING_KIND_INFO(FK_NAME)
#undef FK_NAME
    };
    return k < FK__COUNT ? names[k] : "";
}

/* Evidence rows a finding keeps. */
#define FINDINGS_MAX_EVIDENCE 5
/* A step whose path is shorter than this share of the longest one is a
 * truncated step: left out, as is the last step when HTA's filter left its
 * events out (cp_frame.step_filter). */
#define FINDINGS_SHORT_STEP 0.1

/* The edges a what-if changes and the share of each one's weight left. */
struct sel_ud {
    const uint8_t *sel;
    const float *factor;
};

static double sel_factor(const struct cp_graph *g, uint32_t e, void *ud)
{
    (void)g;
    const struct sel_ud *u = ud;
    return u->sel[e] ? (double)u->factor[e] : -1.0;
}

static int rank_of(const struct trace *t)
{
    const cJSON *d = t->top ? cJSON_GetObjectItemCaseSensitive(t->top, "distributedInfo") : NULL;
    const cJSON *r = d ? cJSON_GetObjectItemCaseSensitive(d, "rank") : NULL;
    if (cJSON_IsNumber(r) && r->valuedouble >= 0 && r->valuedouble < 1e9)
        return (int)r->valuedouble;
    return -1;
}

/* The rules in the order they claim edges: the specific ones first, so
 * that cpu-bound keeps only the host time no other rule explains. */
static const enum finding_kind rule_order[FK__COUNT - 1] = {
    FK_SYNC,         FK_DATA_LOADING, FK_COPY,          FK_LAUNCH_BOUND,
    FK_EXPOSED_COMM, FK_RECOMPUTE,    FK_FAR_FROM_ROOF, FK_CPU_BOUND,
};

struct run {
    const struct trace *t;
    struct cp_frame *f;
    struct find_rule_acc acc[FK__COUNT];
    struct find_memo memo;
    struct find_roof roof;
    uint8_t *recompute;
    bool can[FK__COUNT];
    int64_t total_len, together;
    unsigned nsteps;
};

/* Every rule over one region's graph. */
static void run_step(struct run *r, struct cp_graph *g)
{
    size_t ne = g->edges.n + 1, nr = r->f->rows.n + 1;
    struct find_step s = {.g = g,
                          .t = r->t,
                          .on_path = xcalloc(ne, 1),
                          .op_edge = xmalloc(nr * sizeof(uint32_t)),
                          .claimed = xcalloc(ne, 1),
                          .sel = xcalloc(ne, 1),
                          .factor = xcalloc(ne, sizeof(float)),
                          .memo = &r->memo,
                          .roof = r->can[FK_FAR_FROM_ROOF] ? &r->roof : NULL,
                          .recompute = r->recompute};
    /* all rules' edges together: each at the smallest share any rule leaves */
    float *together = xmalloc(ne * sizeof(float));
    for (size_t e = 0; e < ne; e++)
        together[e] = 1.0f;
    for (size_t k = 0; k < g->path.n; k++)
        s.on_path[g->path.v[k]] = 1;
    for (size_t i = 0; i < nr; i++)
        s.op_edge[i] = IDX_NONE;
    for (size_t e = 0; e < g->edges.n; e++)
        if (g->edges.v[e].type == CPE_OPERATOR && g->edges.v[e].attr != IDX_NONE)
            s.op_edge[g->edges.v[e].attr] = (uint32_t)e;
    bool any = false;
    for (size_t i = 0; i < ARRAY_SIZE(rule_order); i++) {
        enum finding_kind k = rule_order[i];
        if (!r->can[k])
            continue;
        memset(s.sel, 0, ne);
        memset(s.factor, 0, ne * sizeof(float));
        find_rule_select(k, &s, &r->acc[k]);
        bool some = false;
        for (size_t e = 0; e < g->edges.n; e++)
            if (s.sel[e]) {
                some = true;
                s.claimed[e] = 1;
                if (s.factor[e] < together[e])
                    together[e] = s.factor[e];
            }
        if (!some)
            continue;
        any = true;
        struct sel_ud ud = {s.sel, s.factor};
        int64_t after = critpath_whatif(g, sel_factor, &ud, NULL, NULL);
        if (after >= 0 && after < g->length)
            r->acc[k].saving_us += g->length - after;
    }
    if (any) {
        struct sel_ud ud = {s.claimed, together};
        int64_t after = critpath_whatif(g, sel_factor, &ud, NULL, NULL);
        if (after >= 0 && after < g->length)
            r->together += g->length - after;
    }
    r->total_len += g->length;
    r->nsteps++;
    free(s.on_path);
    free(s.op_edge);
    free(s.claimed);
    free(s.sel);
    free(s.factor);
    free(together);
}

struct merged {
    uint32_t key, ev, count;
    int64_t us;
};
static int item_key_cmp(const void *pa, const void *pb)
{
    const struct find_item *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->ev > b->ev) - (a->ev < b->ev);
}
static int merged_cmp(const void *pa, const void *pb)
{
    const struct merged *a = pa, *b = pb;
    if (a->us != b->us)
        return a->us > b->us ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

/* The rule's evidence rows: its items merged by key, most time first. */
static void build_evidence(const struct trace *t, struct find_rule_acc *acc, unsigned nsteps,
                           struct finding *fd)
{
    struct find_item *it = acc->items.v;
    size_t n = acc->items.n;
    if (!n)
        return;
    qsort(it, n, sizeof(*it), item_key_cmp);
    struct merged *m = xmalloc(n * sizeof(*m));
    size_t nm = 0;
    for (size_t a = 0; a < n;) {
        struct merged cur = {it[a].key, it[a].ev, 0, 0};
        size_t b = a;
        for (; b < n && it[b].key == it[a].key; b++) {
            cur.us += it[b].us;
            /* events, not edges: an op's several edges count once */
            cur.count += b == a || it[b].ev != it[b - 1].ev;
        }
        m[nm++] = cur;
        a = b;
    }
    qsort(m, nm, sizeof(*m), merged_cmp);
    struct strbuf sb = STRBUF_INIT, py = STRBUF_INIT;
    for (size_t i = 0; i < nm && i < FINDINGS_MAX_EVIDENCE; i++) {
        sb_clear(&sb);
        double per_step = nsteps ? (double)m[i].count / nsteps : 0;
        sb_printf(&sb, "%s ×%.*f/step, %lld µs/step on the path", strtab_str(&acc->keys, m[i].key),
                  per_step >= 10 || per_step == (double)(int64_t)per_step ? 0 : 1, per_step,
                  (long long)(nsteps ? m[i].us / nsteps : 0));
        const char *line = find_rule_python_line(t, m[i].ev, &py);
        if (line)
            sb_printf(&sb, ", at %s", line);
        struct finding_evidence *ev = VEC_ADD(&fd->evidence);
        ev->ev = m[i].ev;
        ev->ns = wide_clamp((__int128)m[i].us * 1000); /* saturates, as the path's sums do */
        ev->count = m[i].count;
        ev->text = sb_steal(&sb);
    }
    sb_free(&sb);
    sb_free(&py);
    free(m);
}

static int finding_cmp(const void *pa, const void *pb)
{
    const struct finding *a = pa, *b = pb;
    if (a->saving_us != b->saving_us)
        return a->saving_us > b->saving_us ? -1 : 1;
    return (a->kind > b->kind) - (a->kind < b->kind);
}

static void set_region(struct findings *out, const struct trace *t, const uint32_t *steps,
                       size_t nsteps)
{
    struct strbuf sb = STRBUF_INIT;
    if (!nsteps)
        sb_puts(&sb, "(whole trace)");
    else if (nsteps == 1)
        sb_puts(&sb, trace_str(t, steps[0]));
    else
        sb_printf(&sb, "%s..%s", trace_str(t, steps[0]), trace_str(t, steps[nsteps - 1]));
    out->region = sb_steal(&sb);
}

/* The region of step k (NULL steps: the whole trace) as critpath_build
 * takes it. */
static struct cp_graph *build_region(const struct cp_frame *f, const uint32_t *steps, size_t k,
                                     char *err)
{
    return critpath_build(f, steps ? trace_str(f->t, steps[k]) : "", 0, err);
}

bool findings_run(struct analysis *a, const char *arch, struct findings *out, char *err)
{
    const struct trace *t = a->t;
    memset(out, 0, sizeof(*out));
    out->rank = rank_of(t);
    struct run r = {.t = t, .f = cp_frame_new(t)};
    find_rule_memo_init(&r.memo, t);
    r.recompute = recompute_marks(t, NULL);
    const char *roof_why = NULL;
    bool roof_ok = find_roof_init(&r.roof, a, arch, &roof_why);
    out->no_sync = !r.f->has_sync;
    for (int k = 0; k < FK__COUNT; k++) {
        strtab_init(&r.acc[k].keys);
        const char *why = k == FK_FAR_FROM_ROOF ? (roof_ok ? NULL : roof_why)
                                                : find_rule_cannot((enum finding_kind)k, t,
                                                                   r.f->has_sync, r.recompute);
        r.can[k] = !why;
        out->status[k].kind = (uint8_t)k;
        out->status[k].ran = !why;
        if (why)
            out->status[k].note = xstrdup(why);
    }
    find_rule_recompute_scan(t, r.recompute, &r.acc[FK_RECOMPUTE]);
    size_t nsteps;
    uint32_t *steps = cp_frame_step_names(r.f, &nsteps);
    size_t nregions = nsteps ? nsteps : 1;
    /* The lengths first: a truncated step is left out. */
    int64_t *len = xcalloc(nregions, sizeof(*len)), longest = 0;
    bool ok = true;
    for (size_t k = 0; k < nregions && ok; k++) {
        struct cp_graph *g = build_region(r.f, steps, k, err);
        if (!g) {
            ok = false;
            break;
        }
        len[k] = g->ok ? g->length : -1;
        longest = len[k] > longest ? len[k] : longest;
        critpath_free(g);
    }
    uint32_t *kept = xcalloc(nregions, sizeof(*kept));
    size_t nkept = 0;
    for (size_t k = 0; k < nregions && ok; k++) {
        /* HTA's filter left the last step's events out: its region is not
         * a step */
        bool filtered = r.f->step_filter && nsteps > 1 && k == nsteps - 1;
        if (filtered || len[k] <= 0 || (double)len[k] < FINDINGS_SHORT_STEP * (double)longest) {
            out->short_steps++;
            continue;
        }
        struct cp_graph *g = build_region(r.f, steps, k, err);
        run_step(&r, g);
        critpath_free(g);
        if (steps)
            kept[nkept++] = steps[k];
    }
    if (ok && !r.nsteps) {
        /* as the critical path's report: said, not an error */
        out->region = xstrdup(nsteps ? "(no step)" : "(whole trace)");
        for (int k = 0; k < FK__COUNT; k++) {
            if (!out->status[k].ran)
                continue; /* its own reason stands */
            out->status[k].ran = false;
            free(out->status[k].note);
            out->status[k].note = xstrdup("no step of the trace has a critical path (a graph with "
                                          "a cycle, or no event in it)");
        }
    }
    if (ok && r.nsteps) {
        set_region(out, t, steps ? kept : NULL, nkept);
        out->nsteps = r.nsteps;
        out->step_us = r.total_len / r.nsteps;
        out->together_us = r.together / r.nsteps;
        struct strbuf sb = STRBUF_INIT;
        for (int k = 0; k < FK__COUNT; k++) {
            struct finding_status *st = &out->status[k];
            if (!st->ran)
                continue;
            struct find_rule_acc *acc = &r.acc[k];
            st->saving_us = acc->saving_us / r.nsteps;
            st->saving_pct = r.total_len ? 100.0 * (double)acc->saving_us / (double)r.total_len : 0;
            struct finding fd = {.kind = (uint8_t)k};
            fd.saving_us = st->saving_us;
            fd.saving_pct = st->saving_pct;
            build_evidence(t, acc, r.nsteps, &fd);
            if (fd.saving_pct >= FINDINGS_MIN_PCT && fd.evidence.n) {
                sb_clear(&sb);
                find_rule_statement((enum finding_kind)k, acc, r.nsteps, &fd, &sb);
                fd.statement = sb_steal(&sb);
                VEC_PUSH(&out->v, fd);
                continue;
            }
            sb_clear(&sb);
            if (find_rule_status_note((enum finding_kind)k, acc, r.nsteps,
                                      r.can[FK_FAR_FROM_ROOF] ? &r.roof : NULL, &sb))
                sb_puts(&sb, fd.saving_pct > 0 ? ", below the threshold" : "");
            else if (!acc->items.n)
                sb_puts(&sb, "nothing on the critical path");
            else
                sb_printf(&sb, "%.2f %% of the step, below the %.0f %% threshold", fd.saving_pct,
                          FINDINGS_MIN_PCT);
            st->note = sb_steal(&sb);
            for (size_t i = 0; i < fd.evidence.n; i++)
                free(fd.evidence.v[i].text);
            VEC_FREE(&fd.evidence);
        }
        sb_free(&sb);
        if (out->v.n)
            qsort(out->v.v, out->v.n, sizeof(*out->v.v), finding_cmp);
    }
    for (int k = 0; k < FK__COUNT; k++) {
        VEC_FREE(&r.acc[k].items);
        strtab_free(&r.acc[k].keys);
    }
    find_rule_memo_free(&r.memo);
    find_roof_free(&r.roof);
    free(r.recompute);
    free(kept);
    free(len);
    free(steps);
    cp_frame_free(r.f);
    if (!ok)
        findings_free(out);
    return ok;
}

void findings_free(struct findings *fs)
{
    for (size_t i = 0; i < fs->v.n; i++) {
        struct finding *f = &fs->v.v[i];
        free(f->statement);
        for (size_t j = 0; j < f->evidence.n; j++)
            free(f->evidence.v[j].text);
        VEC_FREE(&f->evidence);
    }
    VEC_FREE(&fs->v);
    for (int k = 0; k < FK__COUNT; k++)
        free(fs->status[k].note);
    free(fs->region);
    memset(fs, 0, sizeof(*fs));
}
