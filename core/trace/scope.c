/* Scopes: parsing, selection, and the scoped trace. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/interval.h"
#include "core/base/wide.h"
#include "core/base/source.h"
#include "core/base/xalloc.h"
#include "core/trace/export.h"
#include "core/trace/load.h"
#include "core/trace/scope.h"
#include "core/trace/steps.h"
#include "core/trace/tree.h"

void scope_init(struct scope *s)
{
    memset(s, 0, sizeof(*s));
}

bool scope_any(const struct scope *s)
{
    return s->nsteps || s->skip_steps || s->window || s->match || s->iteration;
}

/* A step number at *p (decimal, no sign), advancing *p. */
static bool parse_number(const char **p, int64_t *v)
{
    const char *q = *p;
    int64_t n = 0;
    if (*q < '0' || *q > '9')
        return false;
    for (; *q >= '0' && *q <= '9'; q++) {
        if (n > (INT64_MAX - 9) / 10)
            return false;
        n = n * 10 + (*q - '0');
    }
    *p = q;
    *v = n;
    return true;
}

bool scope_parse_steps(struct scope *s, const char *arg, char *err)
{
    const char *p = arg;
    do {
        int64_t lo, hi;
        if (!parse_number(&p, &lo)) {
            snprintf(err, 256, "--step takes step numbers and ranges: N, N,M or N-M");
            return false;
        }
        hi = lo;
        if (*p == '-') {
            p++;
            if (!parse_number(&p, &hi) || hi < lo) {
                snprintf(err, 256, "--step takes ranges N-M with N <= M");
                return false;
            }
        }
        if (*p && *p != ',') {
            snprintf(err, 256, "--step takes step numbers and ranges: N, N,M or N-M");
            return false;
        }
        if (s->nsteps == SCOPE_MAX_RANGES) {
            snprintf(err, 256, "--step takes at most %d numbers and ranges", SCOPE_MAX_RANGES);
            return false;
        }
        s->steps[s->nsteps].lo = lo;
        s->steps[s->nsteps].hi = hi;
        s->nsteps++;
    } while (*p++ == ',');
    return true;
}

bool scope_parse_skip(struct scope *s, const char *arg, char *err)
{
    const char *p = arg;
    int64_t k;
    if (!parse_number(&p, &k) || *p) {
        snprintf(err, 256, "--skip-steps takes a number of steps");
        return false;
    }
    s->skip_steps = k;
    return true;
}

/* "[stepN][+-]TIME[unit]" or "stepN" into e; text ends at end. */
static bool parse_edge(const char *p, const char *end, struct scope_edge *e)
{
    memset(e, 0, sizeof(*e));
    if (end - p > 4 && strncmp(p, "step", 4) == 0) {
        p += 4;
        if (!parse_number(&p, &e->step) || p > end)
            return false;
        e->at_step = true;
        if (p == end)
            return true;
        if (*p != '+' && *p != '-')
            return false;
    }
    char buf[64];
    size_t len = (size_t)(end - p);
    if (!len || len >= sizeof(buf))
        return false;
    memcpy(buf, p, len);
    buf[len] = '\0';
    char *q;
    double v = strtod(buf, &q);
    if (q == buf || !isfinite(v))
        return false;
    double scale;
    if (!*q || strcmp(q, "ms") == 0)
        scale = 1e6;
    else if (strcmp(q, "us") == 0 || strcmp(q, "\xc2\xb5s") == 0)
        scale = 1e3;
    else if (strcmp(q, "ns") == 0)
        scale = 1;
    else if (strcmp(q, "s") == 0)
        scale = 1e9;
    else
        return false;
    double ns = v * scale;
    /* Beyond every event's time (LOAD_MAX_TIME_NS): clamped. */
    if (ns > (double)LOAD_MAX_TIME_NS)
        ns = (double)LOAD_MAX_TIME_NS;
    if (ns < -(double)LOAD_MAX_TIME_NS)
        ns = -(double)LOAD_MAX_TIME_NS;
    e->off_ns = llround(ns);
    return true;
}

bool scope_parse_window(struct scope *s, const char *arg, char *err)
{
    const char *colon = strchr(arg, ':');
    if (!colon || !parse_edge(arg, colon, &s->from) ||
        !parse_edge(colon + 1, colon + 1 + strlen(colon + 1), &s->to)) {
        snprintf(err, 256,
                 "--window takes START:END, each a time after the trace's first event "
                 "(ms, or with a unit: ns, us, ms, s) or stepN+TIME");
        return false;
    }
    s->window = true;
    return true;
}

static void put_edge(struct strbuf *out, const struct scope_edge *e)
{
    if (e->at_step) {
        sb_printf(out, "step%" PRId64, e->step);
        if (!e->off_ns)
            return;
        sb_putc(out, e->off_ns < 0 ? '-' : '+');
    } else if (e->off_ns < 0) {
        sb_putc(out, '-');
    }
    uint64_t a = e->off_ns < 0 ? 0 - (uint64_t)e->off_ns : (uint64_t)e->off_ns;
    /* Milliseconds, exact: as many decimals as the nanoseconds need. */
    sb_printf(out, "%" PRIu64, a / 1000000);
    if (a % 1000000) {
        char frac[8];
        snprintf(frac, sizeof(frac), "%06" PRIu64, a % 1000000);
        size_t n = strlen(frac);
        while (n > 1 && frac[n - 1] == '0')
            n--;
        sb_printf(out, ".%.*s", (int)n, frac);
    }
    sb_puts(out, "ms");
}

void scope_describe(const struct scope *s, struct strbuf *out)
{
    const char *sep = "";
    if (s->nsteps) {
        bool one = s->nsteps == 1 && s->steps[0].lo == s->steps[0].hi;
        sb_puts(out, one ? "step " : "steps ");
        for (size_t k = 0; k < s->nsteps; k++) {
            sb_printf(out, "%s%" PRId64, k ? "," : "", s->steps[k].lo);
            if (s->steps[k].hi != s->steps[k].lo)
                sb_printf(out, "-%" PRId64, s->steps[k].hi);
        }
        sep = ", ";
    }
    if (s->skip_steps) {
        sb_printf(out, "%sthe first %" PRId64 " step%s skipped", sep, s->skip_steps,
                  s->skip_steps == 1 ? "" : "s");
        sep = ", ";
    }
    if (s->window) {
        sb_printf(out, "%swindow ", sep);
        put_edge(out, &s->from);
        sb_putc(out, ':');
        put_edge(out, &s->to);
        sep = ", ";
    }
    if (s->match) {
        sb_printf(out, "%smatch '%s'", sep, s->match);
        sep = ", ";
    }
    if (s->iteration && s->iter_text[0])
        sb_printf(out, "%s%s", sep, s->iter_text);
    else if (s->iteration)
        sb_printf(out, "%s%s iterations", sep, s->iteration);
}

static bool step_wanted(const struct scope *s, int64_t n)
{
    if (!s->nsteps)
        return true;
    for (size_t k = 0; k < s->nsteps; k++)
        if (n >= s->steps[k].lo && n <= s->steps[k].hi)
            return true;
    return false;
}

/* The windows of the steps the scope names into *out (caller frees);
 * false with a message when one it names alone is not in the trace or
 * none is left. */
static bool step_windows(const struct scope *s, const struct trace_step *steps, size_t nsteps,
                         struct export_window **out, size_t *n, char *err)
{
    for (size_t k = 0; k < s->nsteps; k++) {
        bool found = false;
        for (size_t i = 0; i < nsteps && !found; i++)
            found = steps[i].n >= s->steps[k].lo && steps[i].n <= s->steps[k].hi;
        if (!found) {
            if (s->steps[k].lo == s->steps[k].hi)
                snprintf(err, 256, "the trace has no ProfilerStep#%" PRId64, s->steps[k].lo);
            else
                snprintf(err, 256, "the trace has no step from %" PRId64 " to %" PRId64,
                         s->steps[k].lo, s->steps[k].hi);
            return false;
        }
    }
    struct export_window *w = xmalloc((nsteps + 1) * sizeof(*w));
    size_t m = 0;
    for (size_t i = 0; i < nsteps; i++)
        if ((int64_t)i >= s->skip_steps && step_wanted(s, steps[i].n) &&
            steps[i].to > steps[i].from)
            w[m++] = (struct export_window){steps[i].from, steps[i].to};
    if (!m) {
        if (s->skip_steps && (size_t)s->skip_steps >= nsteps)
            snprintf(err, 256, "the trace has %zu step%s: none is left after skipping %" PRId64,
                     nsteps, nsteps == 1 ? "" : "s", s->skip_steps);
        else
            snprintf(err, 256, "the steps asked for hold no time");
        free(w);
        return false;
    }
    *out = w;
    *n = m;
    return true;
}

/* An edge's time on the event clock. */
static bool edge_time(const struct trace *t, const struct scope_edge *e, int64_t *ns, char *err)
{
    int64_t base = t->t_start;
    if (e->at_step) {
        int64_t to;
        if (!steps_find(t, e->step, &base, &to)) {
            snprintf(err, 256, "the trace has no ProfilerStep#%" PRId64, e->step);
            return false;
        }
    }
    /* Both within +-2^62 (LOAD_MAX_TIME_NS): the sum fits. */
    *ns = base + e->off_ns;
    return true;
}

/* keep &= what sel keeps. */
static bool narrow(const struct trace *t, const struct export_sel *sel, uint8_t *keep, uint8_t *tmp,
                   char *err)
{
    if (!export_select(t, sel, tmp, err))
        return false;
    for (uint32_t i = 0; i < t->ev.n; i++)
        keep[i] &= tmp[i];
    return true;
}

/* set = set ∩ the union of windows w[0..n) (set: a normalized VEC). */
static void clip_to(ivals_t *set, const struct export_window *w, size_t n)
{
    struct ival *u = xmalloc((n + 1) * sizeof(*u));
    for (size_t k = 0; k < n; k++)
        u[k] = (struct ival){w[k].from, w[k].to};
    size_t nu = ival_normalize(u, n);
    struct ival *out = xmalloc((set->n + nu + 1) * sizeof(*out));
    size_t m = ival_intersect(set->v, set->n, u, nu, out);
    set->n = 0;
    for (size_t k = 0; k < m; k++)
        VEC_PUSH(set, out[k]);
    free(out);
    free(u);
}

/* scope_select, and, when cover is not NULL, cover (a normalized set, the
 * trace's span on entry) clipped to each window part of the scope (its
 * steps, its window, its iterations): the time they cover together. */
static bool select_scope(const struct trace *t, const struct scope *s, uint8_t *keep, char *err,
                         ivals_t *cover)
{
    err[0] = '\0';
    memset(keep, 1, t->ev.n);
    if (!scope_any(s)) {
        struct export_sel all = {.kind = EXPORT_ALL};
        return export_select(t, &all, keep, err);
    }
    uint8_t *tmp = xmalloc(t->ev.n + 1);
    bool ok = true;
    if (s->nsteps || s->skip_steps) {
        struct trace_step *steps;
        size_t nsteps = steps_list(t, &steps);
        struct export_window *w = NULL;
        size_t nw = 0;
        ok = step_windows(s, steps, nsteps, &w, &nw, err);
        if (ok) {
            struct export_sel sel = {.kind = EXPORT_WINDOWS, .windows = w, .nwindows = nw};
            ok = narrow(t, &sel, keep, tmp, err);
            if (cover)
                clip_to(cover, w, nw);
        }
        free(w);
        free(steps);
    }
    if (ok && s->window) {
        struct export_sel sel = {.kind = EXPORT_WINDOW};
        ok = edge_time(t, &s->from, &sel.from, err) && edge_time(t, &s->to, &sel.to, err);
        ok = ok && narrow(t, &sel, keep, tmp, err);
        if (ok && cover)
            clip_to(cover, &(struct export_window){sel.from, sel.to}, 1);
    }
    if (ok && s->match) {
        struct export_sel sel = {.kind = EXPORT_MATCH, .regex = s->match};
        ok = narrow(t, &sel, keep, tmp, err);
    }
    if (ok && s->iteration) {
        if (!s->n_iter_windows) {
            snprintf(err, 256, "the trace has no %s iterations", s->iteration);
            ok = false;
        } else {
            struct export_sel sel = {
                .kind = EXPORT_WINDOWS, .windows = s->iter_windows, .nwindows = s->n_iter_windows};
            ok = narrow(t, &sel, keep, tmp, err);
            if (cover)
                clip_to(cover, s->iter_windows, s->n_iter_windows);
        }
    }
    free(tmp);
    if (!ok)
        return false;
    bool any = false;
    for (uint32_t i = 0; i < t->ev.n && !any; i++)
        any = keep[i] && t->ev.v[i].kind != EVK_META;
    if (!any) {
        snprintf(err, 256, "the scope holds no events");
        return false;
    }
    return true;
}

bool scope_select(const struct trace *t, const struct scope *s, uint8_t *keep, char *err)
{
    return select_scope(t, s, keep, err, NULL);
}

/* GPU work time (the sum of its durations) of the kept events, and of all. */
static void gpu_time(const struct trace *t, const uint8_t *keep, int64_t *kept, int64_t *all)
{
    *kept = *all = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_gpu(e->kind))
            continue;
        *all = wide_add_sat(*all, e->dur); /* untrusted durations: saturate */
        if (keep[i])
            *kept = wide_add_sat(*kept, e->dur);
    }
}

static void put_share(struct strbuf *out, int64_t part, int64_t whole, const char *of)
{
    double pct = whole > 0 ? 100.0 * (double)part / (double)whole : 0;
    sb_printf(out, "%.1f %% of %s", pct, of);
}

/* The facts of the whole trace the scoped one keeps. */
struct whole {
    int64_t t_start, t_end;
    bool windowed;   /* the scope has windows: */
    int64_t time_ns; /* the time they cover together */
    size_t nev;
    int64_t gpu_kept, gpu_all; /* GPU work time in the scope, in all */
};

/* The scope's events (keep, caller frees) and the facts that go with them. */
static enum scope_result scope_pick(const struct trace *t, const struct scope *s, uint8_t **keep,
                                    struct whole *w, char *msg)
{
    msg[0] = '\0';
    *keep = NULL;
    if (!t->ev.n) {
        snprintf(msg, 256, "the trace holds no events to scope");
        return SCOPE_EMPTY;
    }
    *keep = xmalloc(t->ev.n + 1);
    ivals_t cover = {0};
    VEC_PUSH(&cover, ((struct ival){t->t_start, t->t_end}));
    if (!select_scope(t, s, *keep, msg, &cover)) {
        VEC_FREE(&cover);
        free(*keep);
        *keep = NULL;
        return SCOPE_EMPTY;
    }
    *w = (struct whole){.t_start = t->t_start, .t_end = t->t_end, .nev = t->ev.n};
    gpu_time(t, *keep, &w->gpu_kept, &w->gpu_all);
    /* A scope of matches alone has no window: its share of the span is the
     * span its events cover. */
    w->windowed = s->nsteps || s->skip_steps || s->window || s->iteration;
    w->time_ns = ival_length(cover.v, cover.n);
    VEC_FREE(&cover);
    return SCOPE_OK;
}

/* The loader's input: export's document of the scope, as it is written. */
static ssize_t scope_pull(void *doc, void *buf, size_t cap, struct errinfo *err)
{
    return export_stream_read(doc, buf, cap, err);
}

/* Load the kept events of t as the scoped trace: export's document, read
 * back as it is written (what makes a scoped table equal the table of the
 * exported scope), never held whole. */
static enum scope_result scope_read(const struct trace *t, const uint8_t *keep,
                                    const struct whole *w, const struct scope *s,
                                    const struct load_opts *lo, struct trace **out,
                                    struct errinfo *err)
{
    struct load_opts o = {.threads = lo ? lo->threads : 0,
                          .link_require_flow = lo && lo->link_require_flow,
                          .cancel = lo ? lo->cancel : NULL};
    struct export_stream *doc = export_stream_open(t, keep);
    struct source src;
    source_open_pull(&src, t->path, scope_pull, doc);
    struct trace *sub = NULL;
    struct errinfo lerr = {0};
    enum status st = trace_load_source(&src, &o, &sub, &lerr);
    source_close(&src);
    /* A kept text the input no longer holds: told as export tells it. */
    bool unreadable = export_stream_fault(doc, err);
    export_stream_close(doc);
    if (unreadable) {
        errinfo_clear(&lerr);
        trace_free(sub);
        return SCOPE_IO;
    }
    /* A fault that dropped nothing is the input's own, written back as it
     * was read (an event's text or a top-level key kept as written): the
     * whole trace's load told it already, and the scope holds every event. */
    if (st != ST_OK && (!sub || sub->partial || sub->truncated)) {
        /* What export wrote does not load: report it as the read error. */
        errinfo_set(err, st, t->path, -1, "the scope's events do not load back: %s",
                    lerr.msg ? lerr.msg : "?");
        errinfo_clear(&lerr);
        trace_free(sub);
        return SCOPE_IO;
    }
    errinfo_clear(&lerr);
    /* How much of the trace the scope covers. */
    struct strbuf text = STRBUF_INIT;
    scope_describe(s, &text);
    sb_puts(&text, " \xc2\xb7 ");
    if (w->gpu_all > 0)
        put_share(&text, w->gpu_kept, w->gpu_all, "GPU time");
    else
        sb_printf(&text, "%zu of %zu events", sub->ev.n, w->nev);
    if (w->t_end > w->t_start) {
        sb_puts(&text, ", ");
        put_share(&text, w->windowed ? w->time_ns : sub->t_end - sub->t_start,
                  w->t_end - w->t_start, "the span");
    }
    sub->gzip = t->gzip;
    sub->file_bytes = t->file_bytes;
    sub->json_bytes = t->json_bytes;
    sub->truncated = t->truncated;
    sub->lost_bytes = t->lost_bytes;
    sub->partial = t->partial;
    free(sub->scope_text);
    sub->scope_text = sb_steal(&text);
    *out = sub;
    return SCOPE_OK;
}

enum scope_result scope_load(const struct trace *t, const struct scope *s,
                             const struct load_opts *lo, struct trace **out, char *msg,
                             struct errinfo *err)
{
    *out = NULL;
    uint8_t *keep;
    struct whole w;
    enum scope_result r = scope_pick(t, s, &keep, &w, msg);
    if (r == SCOPE_OK)
        r = scope_read(t, keep, &w, s, lo, out, err);
    free(keep);
    return r;
}

enum scope_result scope_apply(struct trace **tp, const struct scope *s, const struct load_opts *lo,
                              char *msg, struct errinfo *err)
{
    /* The whole trace is read while the scope loads, so it goes after:
     * the peak is the two traces, never the scope's text. */
    struct trace *sub = NULL;
    enum scope_result r = scope_load(*tp, s, lo, &sub, msg, err);
    if (r == SCOPE_EMPTY)
        return r;
    trace_free(*tp);
    *tp = sub; /* NULL when the scope did not load */
    return r;
}
