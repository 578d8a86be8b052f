/* HTA's TraceDiff: per-name counts and durations of two traces' chosen
 * iterations, and their differences (tracediff.h). */
#include "config.h"

#include "core/base/display.h"
#include "core/base/sort.h"
#include "core/base/wide.h"
#include "core/diff/tracediff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/diff/shortname.h"

static const char *const side_word[2] = {"control", "test"};

/* Resolve the step asked for on side k; false with a message in s->err
 * when the trace has no such step. */
static bool pick_step(const struct iters *it, int64_t want, int k, struct tracediff_side *s)
{
    s->step = -1;
    if (it->n == 0) {
        s->nsteps = 0;
        if (want == TRACEDIFF_STEP_FIRST || want == TRACEDIFF_STEP_ALL)
            return true;
        snprintf(s->err, sizeof(s->err),
                 "the %s trace has no ProfilerStep, so no step %lld to take", side_word[k],
                 (long long)want);
        return false;
    }
    if (want == TRACEDIFF_STEP_ALL) {
        s->nsteps = it->n;
        return true;
    }
    s->step = want == TRACEDIFF_STEP_FIRST ? 0 : iters_find(it, want);
    s->nsteps = 1;
    if (s->step >= 0)
        return true;
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < it->n && i < 12; i++)
        sb_printf(&sb, "%s%lld", i ? ", " : "", (long long)it->nums[i]);
    if (it->n > 12)
        sb_printf(&sb, ", ... (%zu steps)", it->n);
    snprintf(s->err, sizeof(s->err), "the %s trace has no ProfilerStep#%lld (its steps: %s)",
             side_word[k], (long long)want, sb_str(&sb));
    sb_free(&sb);
    return false;
}

/* Whether event i is in the chosen steps and device. */
static bool taken(const struct iters *it, const struct tracediff_opts *o, int32_t step, uint32_t i)
{
    uint8_t side = it->side[i];
    if (side == ITERS_NONE)
        return false;
    if (o->device == TRACEDIFF_CPU && side != ITERS_CPU)
        return false;
    if (o->device == TRACEDIFF_GPU && side != ITERS_GPU)
        return false;
    if (it->n == 0)
        return true; /* no steps: the whole trace */
    if (step < 0)
        return it->of_ev[i] >= 0;
    return it->of_ev[i] == step;
}

static const struct tracediff *sort_td; /* qsort has no context argument */

static int cmp_rows(const void *a, const void *b)
{
    const struct tracediff_row *x = a, *y = b;
    const struct strtab *st = &sort_td->names;
    uint32_t lx = strtab_len(st, x->name), ly = strtab_len(st, y->name);
    int c = memcmp(strtab_str(st, x->name), strtab_str(st, y->name), lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

void tracediff_side_prepare(const struct trace *t, const struct tracediff_opts *o, int k,
                            struct tracediff_side *out)
{
    memset(out, 0, sizeof(*out));
    struct iters it;
    iters_assign(t, &it);
    if (pick_step(&it, o->step[k], k, out)) {
        size_t nstr = strtab_count(&t->strs);
        out->count = xcalloc(nstr ? nstr : 1, sizeof(*out->count));
        out->dur_ns = xcalloc(nstr ? nstr : 1, sizeof(*out->dur_ns));
        VEC(uint32_t) ids = {0};
        for (uint32_t i = 0; i < t->ev.n; i++) {
            if (!taken(&it, o, out->step, i))
                continue;
            const struct event *e = trace_ev(t, i);
            if (!out->count[e->name]++)
                VEC_PUSH(&ids, e->name);
            out->dur_ns[e->name] = wide_add_sat(out->dur_ns[e->name], e->dur);
        }
        out->ids = ids.v;
        out->nids = ids.n;
    }
    /* Only the step numbers outlive the counting, unless the caller asked
     * for each event's membership. */
    out->nums = it.nums;
    out->n = it.n;
    it.nums = NULL;
    if (o->keep_events) {
        out->ev_side = it.side;
        out->of_ev = it.of_ev;
        it.side = NULL;
        it.of_ev = NULL;
    }
    iters_free(&it);
}

void tracediff_side_free(struct tracediff_side *s)
{
    free(s->nums);
    free(s->ids);
    free(s->count);
    free(s->dur_ns);
    free(s->ev_side);
    free(s->of_ev);
    memset(s, 0, sizeof(*s));
}

/* Add side k's counts to the per-name slots (by id in td->names): one
 * intern, so one hash, per distinct name of the side. */
static void merge_side(struct tracediff *td, int k, const struct tracediff_side *s,
                       struct tracediff_row **slots, size_t *nslots)
{
    const struct trace *t = td->t[k];
    struct strbuf sb = STRBUF_INIT;
    for (size_t j = 0; j < s->nids; j++) {
        uint32_t name = s->ids[j];
        const char *str = trace_str(t, name);
        size_t n = strtab_len(&t->strs, name);
        uint32_t id;
        if (td->o.short_names) {
            sb_clear(&sb);
            shortname_hta(&sb, str, n);
            id = strtab_intern(&td->names, sb_str(&sb), sb.len);
        } else {
            id = strtab_intern(&td->names, str, n);
        }
        if (id >= *nslots) {
            size_t want = *nslots ? *nslots : 256;
            while (want <= id)
                want *= 2;
            *slots = xreallocarray(*slots, want, sizeof(**slots));
            memset(*slots + *nslots, 0, (want - *nslots) * sizeof(**slots));
            *nslots = want;
        }
        struct tracediff_row *r = &(*slots)[id];
        r->count[k] += s->count[name];
        r->dur_ns[k] = wide_add_sat(r->dur_ns[k], s->dur_ns[name]);
    }
    sb_free(&sb);
}

struct tracediff *tracediff_new_sides(const struct trace *control, const struct trace *test,
                                      const struct tracediff_opts *o, struct tracediff_side side[2],
                                      char *err, size_t errn)
{
    const char *lab[2] = {o->label[0] ? o->label[0] : "control",
                          o->label[1] ? o->label[1] : "test"};
    struct tracediff *td = NULL;
    if (strcmp(lab[0], lab[1]) == 0) {
        snprintf(err, errn, "the two labels are the same ('%s'): the columns need two names",
                 lab[0]);
        goto out;
    }
    for (int k = 0; k < 2; k++) {
        if (side[k].err[0]) {
            snprintf(err, errn, "%s", side[k].err);
            goto out;
        }
    }
    td = xcalloc(1, sizeof(*td));
    td->t[0] = control;
    td->t[1] = test;
    td->o = *o;
    strtab_init(&td->names);
    struct tracediff_row *slots = NULL;
    size_t nslots = 0;
    for (int k = 0; k < 2; k++) {
        td->label[k] = xstrdup(lab[k]);
        td->o.label[k] = td->label[k];
        td->it[k].nums = side[k].nums;
        td->it[k].n = side[k].n;
        td->it[k].side = side[k].ev_side;
        td->it[k].of_ev = side[k].of_ev;
        side[k].nums = NULL;
        side[k].ev_side = NULL;
        side[k].of_ev = NULL;
        td->step[k] = side[k].step;
        td->nsteps[k] = side[k].nsteps;
        merge_side(td, k, &side[k], &slots, &nslots);
    }
    for (size_t id = 0; id < nslots; id++) {
        if (slots[id].count[0] || slots[id].count[1]) {
            slots[id].name = (uint32_t)id;
            VEC_PUSH(&td->rows, slots[id]);
        }
    }
    free(slots);
    sort_td = td;
    sort_items(td->rows.v, td->rows.n, sizeof(*td->rows.v), cmp_rows);
    sort_td = NULL;
out:
    tracediff_side_free(&side[0]);
    tracediff_side_free(&side[1]);
    return td;
}

struct tracediff *tracediff_new(const struct trace *control, const struct trace *test,
                                const struct tracediff_opts *o, char *err, size_t errn)
{
    struct tracediff_side side[2];
    tracediff_side_prepare(control, o, 0, &side[0]);
    tracediff_side_prepare(test, o, 1, &side[1]);
    return tracediff_new_sides(control, test, o, side, err, errn);
}

void tracediff_free(struct tracediff *td)
{
    if (!td)
        return;
    for (int k = 0; k < 2; k++) {
        free(td->label[k]);
        iters_free(&td->it[k]);
    }
    strtab_free(&td->names);
    VEC_FREE(&td->rows);
    free(td);
}

void tracediff_describe_side(const struct tracediff *td, int side, struct strbuf *out)
{
    const struct iters *it = &td->it[side];
    if (it->n == 0) {
        sb_puts(out, "the whole trace (it has no ProfilerStep)");
        return;
    }
    if (td->step[side] >= 0) {
        sb_printf(out, "ProfilerStep#%lld", (long long)it->nums[td->step[side]]);
        return;
    }
    if (it->n == 1)
        sb_printf(out, "ProfilerStep#%lld (all steps: 1)", (long long)it->nums[0]);
    else
        sb_printf(out, "ProfilerStep#%lld to #%lld (all steps: %zu)", (long long)it->nums[0],
                  (long long)it->nums[it->n - 1], it->n);
    if (td->o.per_step)
        sb_puts(out, ", per step");
}

/* Per-step divisor of side k. */
static double divisor(const struct tracediff *td, int k)
{
    return td->o.per_step && td->nsteps[k] > 1 ? (double)td->nsteps[k] : 1.0;
}

/* Give column c of t the name "<label>_<suffix>", kept in t's arena. */
static void label_col(struct table *t, size_t c, const char *label, const char *suffix)
{
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s_%s", label, suffix);
    t->cols[c].name = arena_strndup(&t->arena, sb_str(&sb), sb.len);
    t->cols[c].title = t->cols[c].name;
    sb_free(&sb);
}

/* A count cell: an int, or a float when --per-step divides it. */
static void set_count(struct table *t, size_t r, size_t c, double v, bool as_float)
{
    if (as_float)
        table_set_float(t, r, c, v);
    else
        table_set_int(t, r, c, (int64_t)v);
}

struct table *tracediff_table(const struct tracediff *td)
{
    bool fc = divisor(td, 0) != 1.0 || divisor(td, 1) != 1.0;
    uint8_t ck = fc ? COL_FLOAT : COL_INT;
    const struct table_col cols[] = {
        {td->o.short_names ? "short_name" : "name", NULL, COL_TEXT, 0,
         COLF_WIDE | COLF_ASC | COLF_NAME},
        {"control_counts", NULL, ck, 2, 0},
        {"control_total_duration", NULL, COL_FLOAT, 3, 0},
        {"test_counts", NULL, ck, 2, 0},
        {"test_total_duration", NULL, COL_FLOAT, 3, 0},
        {"diff_counts", NULL, ck, 2, 0},
        {"diff_duration", NULL, COL_FLOAT, 3, 0},
        {"counts_change_categories", "change", COL_TEXT, 0, COLF_ASC},
    };
    struct table *t = table_new("trace_diff",
                                "Trace diff: per name, counts and total durations (us) of the "
                                "control and the test, and test - control",
                                cols, ARRAY_SIZE(cols));
    label_col(t, 1, td->label[0], "counts");
    label_col(t, 2, td->label[0], "total_duration");
    label_col(t, 3, td->label[1], "counts");
    label_col(t, 4, td->label[1], "total_duration");
    double d0 = divisor(td, 0), d1 = divisor(td, 1);
    for (size_t i = 0; i < td->rows.n; i++) {
        const struct tracediff_row *row = &td->rows.v[i];
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, strtab_str(&td->names, row->name));
        double c0 = (double)row->count[0] / d0, c1 = (double)row->count[1] / d1;
        double u0 = (double)row->dur_ns[0] / 1e3 / d0, u1 = (double)row->dur_ns[1] / 1e3 / d1;
        set_count(t, r, 1, c0, fc);
        table_set_float(t, r, 2, u0);
        set_count(t, r, 3, c1, fc);
        table_set_float(t, r, 4, u1);
        if (fc)
            table_set_float(t, r, 5, c1 - c0);
        else
            table_set_int(t, r, 5, row->count[1] - row->count[0]);
        /* In ns, then µs: a name with equal sums has a Δ of exactly 0. */
        table_set_float(t, r, 6,
                        d0 == 1.0 && d1 == 1.0
                            ? (double)((__int128)row->dur_ns[1] - row->dur_ns[0]) / 1e3
                            : u1 - u0);
        table_set_text(t, r, 7, c1 > c0 ? "+" : c1 < c0 ? "-" : "=");
    }
    return t;
}

struct table *tracediff_ops_table(const struct tracediff *td)
{
    static const char *const change[] = {"added", "deleted", "increased", "decreased", "unchanged"};
    const struct table_col cols[] = {
        {"change", NULL, COL_TEXT, 0, COLF_ASC},
        {td->o.short_names ? "short_name" : "name", NULL, COL_TEXT, 0,
         COLF_WIDE | COLF_ASC | COLF_NAME},
        {"control_counts", NULL, COL_INT, 0, 0},
        {"test_counts", NULL, COL_INT, 0, 0},
        {"diff_counts", NULL, COL_INT, 0, 0},
    };
    struct table *t = table_new("ops_diff",
                                "Ops diff: names added, deleted, increased, decreased and "
                                "unchanged in count from the control to the test",
                                cols, ARRAY_SIZE(cols));
    label_col(t, 2, td->label[0], "counts");
    label_col(t, 3, td->label[1], "counts");
    /* HTA's five lists, each by name; counts as counted (never per step). */
    for (int c = 0; c < 5; c++) {
        for (size_t i = 0; i < td->rows.n; i++) {
            const struct tracediff_row *row = &td->rows.v[i];
            int64_t n0 = row->count[0], n1 = row->count[1], d = n1 - n0;
            bool in = c == 0   ? n0 == 0 && n1 > 0
                      : c == 1 ? n0 > 0 && n1 == 0
                      : c == 2 ? n0 > 0 && d > 0
                      : c == 3 ? n1 > 0 && d < 0
                               : n1 > 0 && d == 0;
            if (!in)
                continue;
            size_t r = table_add_row(t);
            table_set_text(t, r, 0, change[c]);
            table_set_text(t, r, 1, strtab_str(&td->names, row->name));
            table_set_int(t, r, 2, n0);
            table_set_int(t, r, 3, n1);
            table_set_int(t, r, 4, d);
        }
    }
    return t;
}

bool tracediff_in_step(const struct tracediff *td, int side, uint32_t ev)
{
    const struct iters *it = &td->it[side];
    if (it->side[ev] == ITERS_NONE)
        return false;
    if (it->n == 0)
        return true;
    return td->step[side] < 0 ? it->of_ev[ev] >= 0 : it->of_ev[ev] == td->step[side];
}

bool tracediff_counts(const struct tracediff *td, int side, uint32_t ev)
{
    return taken(&td->it[side], &td->o, td->step[side], ev);
}

/* A trace's device names, distinct, in first-seen order and joined with
 * " + "; false when it names none. */
static bool device_names(const struct trace *t, struct strbuf *out)
{
    for (size_t d = 0; d < t->devices.n; d++) {
        uint32_t nm = t->devices.v[d].name;
        bool seen = !nm;
        for (size_t e = 0; e < d && !seen; e++)
            seen = t->devices.v[e].name == nm;
        if (!seen)
            sb_printf(out, "%s%s", out->len ? " + " : "", trace_str(t, nm));
    }
    return out->len > 0;
}

bool tracediff_devices_note(const struct tracediff *td, struct strbuf *out)
{
    struct strbuf n[2] = {STRBUF_INIT, STRBUF_INIT};
    bool differ = device_names(td->t[0], &n[0]) && device_names(td->t[1], &n[1]) &&
                  strcmp(sb_str(&n[0]), sb_str(&n[1])) != 0;
    if (differ) {
        sb_puts(out, "the sides ran on different devices: ");
        display_sanitize(out, sb_str(&n[0]), n[0].len);
        sb_puts(out, " (");
        display_sanitize(out, td->label[0], strlen(td->label[0]));
        sb_puts(out, "), ");
        display_sanitize(out, sb_str(&n[1]), n[1].len);
        sb_puts(out, " (");
        display_sanitize(out, td->label[1], strlen(td->label[1]));
        sb_puts(out, "); their times compare hardware as well as code");
    }
    sb_free(&n[0]);
    sb_free(&n[1]);
    return differ;
}
