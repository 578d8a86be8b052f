/* The straggler finding of a job (job_findings.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errinfo.h"
#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/base/strtab.h"
#include "core/base/wide.h"
#include "core/job/job_findings.h"
#include "core/job/ranksum_trace.h"
#include "core/trace/trace.h"

/* Evidence rows the straggler finding keeps, as the other findings. */
#define STRAG_MAX_EVIDENCE 5
/* Below this share of the step the straggler is said, not a finding
 * (findings.h's FINDINGS_MIN_PCT). */
#define STRAG_MIN_PCT 1.0

static struct table *find_table(struct table_list *tl, const char *name)
{
    for (size_t i = 0; i < tl->items.n; i++)
        if (strcmp(tl->items.v[i]->name, name) == 0)
            return tl->items.v[i];
    return NULL;
}

/* The windows in which every other rank waits for the straggler: from the
 * last of the others' arrival to its own, at the collectives it arrives
 * last at; absolute ns, ascending start. */
struct window {
    int64_t lo, hi;
};
typedef VEC(struct window) windows_t;

static int window_cmp(const void *pa, const void *pb)
{
    const struct window *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

static int64_t late_windows(const struct job_view *v, size_t sg, windows_t *out)
{
    const struct job_colls *c = &v->colls;
    int64_t late = 0;
    for (size_t i = 0; i < c->insts.n; i++) {
        const struct coll_inst *x = &c->insts.v[i];
        if (x->last_rank_ix != sg || x->count < 2)
            continue;
        int64_t others = INT64_MIN, mine = INT64_MIN;
        for (uint32_t k = x->first; k < x->first + x->count; k++) {
            const struct coll_part *p = &c->parts.v[k];
            int64_t ts = v->job->ranks.v[p->rank_ix]->colls.v[p->coll].ts;
            if (p->rank_ix == sg)
                mine = ts;
            else if (ts > others)
                others = ts;
        }
        if (mine == INT64_MIN || others == INT64_MIN || mine <= others)
            continue;
        late = wide_add_sat(late, mine - others);
        VEC_PUSH(out, ((struct window){others, mine}));
    }
    if (out->n)
        qsort(out->v, out->n, sizeof(*out->v), window_cmp);
    return late;
}

/* Time of [lo, hi) inside the windows (disjoint or not: each counts). */
static int64_t overlap(const struct window *w, size_t n, int64_t lo, int64_t hi)
{
    int64_t sum = 0;
    for (size_t i = 0; i < n && w[i].lo < hi; i++) {
        int64_t a = w[i].lo > lo ? w[i].lo : lo, b = w[i].hi < hi ? w[i].hi : hi;
        if (b > a)
            sum += b - a;
    }
    return sum;
}

struct busy {
    uint32_t key; /* keys id */
    uint32_t count;
    int64_t ns;
    bool gpu;
};

static int busy_cmp(const void *pa, const void *pb)
{
    const struct busy *a = pa, *b = pb;
    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

static bool outermost_op(const struct trace *t, uint32_t ev)
{
    if (t->ev.v[ev].kind != EVK_CPU_OP)
        return false;
    for (uint32_t p = t->ev.v[ev].parent; p != IDX_NONE; p = t->ev.v[p].parent)
        if (t->ev.v[p].kind == EVK_CPU_OP)
            return false;
    return true;
}

/* The straggler's GPU work and outermost ops in the windows, most time
 * first, as evidence lines into sb (one a line). */
static void evidence(const struct trace *t, const struct window *w, size_t nw, unsigned nsteps,
                     struct strbuf *sb)
{
    struct strtab keys;
    strtab_init(&keys);
    VEC(struct busy) by = {0};
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        bool gpu = evk_is_gpu(e->kind);
        if ((!gpu && !outermost_op(t, i)) || e->dur <= 0 || (gpu && (e->flags & EVF_COMM)))
            continue;
        int64_t lo = t->base_ns + e->ts;
        int64_t ns = overlap(w, nw, lo, lo + e->dur);
        if (ns <= 0)
            continue;
        uint32_t k = strtab_intern_cstr(&keys, trace_str(t, e->name));
        while (by.n <= k) {
            struct busy b = {(uint32_t)by.n, 0, 0, false};
            VEC_PUSH(&by, b);
        }
        by.v[k].count++;
        by.v[k].ns += ns;
        by.v[k].gpu = gpu;
    }
    if (by.n)
        qsort(by.v, by.n, sizeof(*by.v), busy_cmp);
    unsigned n = nsteps ? nsteps : 1;
    for (size_t i = 0, kept = 0; i < by.n && kept < STRAG_MAX_EVIDENCE; i++) {
        if (!by.v[i].ns)
            break;
        double per = (double)by.v[i].count / n;
        sb_printf(sb, "%s%s (%s) ×%.*f/step, %lld µs/step while the others wait", kept ? "\n" : "",
                  strtab_str(&keys, by.v[i].key), by.v[i].gpu ? "GPU" : "host",
                  per >= 10 || per == floor(per) ? 0 : 1, per, (long long)(by.v[i].ns / n / 1000));
        kept++;
    }
    VEC_FREE(&by);
    strtab_free(&keys);
}

/* The straggler's trace, read again; NULL with why in *why (owned). */
static struct trace *load_straggler(const struct ranksum *s, const struct job_load_opts *lo,
                                    char **why)
{
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct ranksum *sum = NULL;
    char *path = ranksum_trace_path(s, &err);
    if (path) {
        struct job_input in = {.path = path, .name_rank = -1};
        if (job_load_rank(&in, lo ? &lo->load : NULL, 1, &t, &sum, &err) != ST_OK)
            t = NULL;
        ranksum_free(sum);
        free(path);
    }
    if (!t)
        *why = errinfo_format(&err);
    errinfo_clear(&err);
    return t;
}

static void rules_row(struct table *rules, int rank, const char *status, int64_t us, double pct,
                      const char *note)
{
    if (!rules)
        return;
    size_t r = table_add_row(rules);
    for (size_t c = 0; c < rules->ncols; c++) {
        const char *col = rules->cols[c].name;
        if (!strcmp(col, "rank"))
            table_set_int(rules, r, c, rank >= 0 ? rank : TABLE_NO_INT);
        else if (!strcmp(col, "kind"))
            table_set_text(rules, r, c, "straggler");
        else if (!strcmp(col, "status"))
            table_set_text(rules, r, c, status);
        else if (!strcmp(col, "saving_us"))
            table_set_int(rules, r, c, us >= 0 ? us : TABLE_NO_INT);
        else if (!strcmp(col, "saving_pct"))
            table_set_float(rules, r, c, us >= 0 ? pct : (double)NAN);
        else if (!strcmp(col, "note"))
            table_set_text(rules, r, c, note);
    }
    table_set_ref(rules, r, IDX_NONE);
}

void job_findings_straggler(const struct job_view *v, const struct job_load_opts *lo,
                            struct table_list *tables)
{
    struct table *fnd = find_table(tables, "findings"),
                 *rules = find_table(tables, "findings_rules");
    if (!fnd && !rules)
        return;
    size_t sg = job_view_straggler(v);
    if (sg == SIZE_MAX || v->job->ranks.n < 2) {
        rules_row(rules, -1, "not run", -1, 0,
                  v->job->ranks.n < 2 ? "one rank: no other rank waits for it"
                                      : "no collective matched across the ranks (-t collectives)");
        return;
    }
    const struct ranksum *s = v->job->ranks.v[sg];
    int rank = v->job->rank_of.v[sg];
    windows_t w = {0};
    int64_t late = late_windows(v, sg, &w);
    unsigned nsteps = s->nsteps ? s->nsteps : 1;
    int64_t step_ns = s->nsteps ? s->steps_ns / s->nsteps : 0;
    int64_t per = late / nsteps;
    if (step_ns > 0 && per > step_ns)
        per = step_ns; /* never more than the step */
    double pct = step_ns > 0 ? 100.0 * (double)per / (double)step_ns : 100.0;
    int64_t us = per / 1000;
    struct strbuf sb = STRBUF_INIT, ev = STRBUF_INIT;
    if (!w.n || pct < STRAG_MIN_PCT) {
        sb_printf(&sb,
                  "rank %d waits least in collectives; it arrives last by %lld µs/step, "
                  "%.2f %% of the step, below the %.0f %% threshold",
                  rank, (long long)us, pct, STRAG_MIN_PCT);
        rules_row(rules, rank, "ran", us, pct, sb_str(&sb));
        goto out;
    }
    char *why = NULL;
    struct trace *t = load_straggler(s, lo, &why);
    if (t)
        evidence(t, w.v, w.n, nsteps, &ev);
    if (!ev.len)
        sb_printf(&ev, "rank %d arrives last at %zu collectives%s%s", rank, w.n,
                  why ? "; its trace could not be read again: " : "", why ? why : "");
    sb_clear(&sb);
    sb_printf(&sb,
              "rank %d is the straggler: it arrives last at %zu collectives, %lld µs/step after "
              "the last of the others, who wait for it (their exposed communication); fix what "
              "it does before them",
              rank, w.n, (long long)us);
    if (fnd) {
        size_t r = table_add_row(fnd);
        for (size_t c = 0; c < fnd->ncols; c++) {
            const char *col = fnd->cols[c].name;
            if (!strcmp(col, "rank"))
                table_set_int(fnd, r, c, rank);
            else if (!strcmp(col, "kind"))
                table_set_text(fnd, r, c, "straggler");
            else if (!strcmp(col, "region"))
                table_set_text(fnd, r, c, "(job)");
            else if (!strcmp(col, "saving_us"))
                table_set_int(fnd, r, c, us);
            else if (!strcmp(col, "saving_pct"))
                table_set_float(fnd, r, c, pct);
            else if (!strcmp(col, "statement"))
                table_set_text(fnd, r, c, sb_str(&sb));
            else if (!strcmp(col, "evidence"))
                table_set_text(fnd, r, c, sb_str(&ev));
        }
        table_set_ref(fnd, r, IDX_NONE);
        table_add_note(fnd,
                       "straggler (job): its saving is the time the collectives it arrives last "
                       "at could start earlier were it no later than the last of the others, per "
                       "step of rank %d (%u steps), at most its step; the other ranks' findings "
                       "may hold the same time as exposed communication",
                       rank, nsteps);
    }
    rules_row(rules, rank, "found", us, pct, NULL);
    trace_free(t);
    free(why);
out:
    VEC_FREE(&w);
    sb_free(&sb);
    sb_free(&ev);
}
