/* Tables per profiler step, put together. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/base/xalloc.h"
#include "core/report/perstep.h"
#include "core/trace/scope.h"
#include "core/trace/steps.h"

static const struct table_col step_col = {"step", "step", COL_INT, 0, COLF_ASC};

/* The merged table named like src in out, made on first sight: src's
 * columns after a step column. */
static struct table *merged_for(struct table_list *out, const struct table *src)
{
    for (size_t i = 0; i < out->items.n; i++)
        if (strcmp(out->items.v[i]->name, src->name) == 0)
            return out->items.v[i];
    struct table_col *cols = xmalloc((src->ncols + 1) * sizeof(*cols));
    cols[0] = step_col;
    memcpy(cols + 1, src->cols, src->ncols * sizeof(*cols));
    /* A running sum runs within its step: a plain number once merged. */
    for (size_t c = 1; c <= src->ncols; c++)
        cols[c].flags &= (uint16_t)~COLF_CUMUL;
    struct table *m = table_new(src->name, src->title, cols, src->ncols + 1);
    free(cols);
    m->whole = true; /* each step's rows were cut already */
    table_list_add(out, m);
    return m;
}

/* src's notes that m does not have yet: as they are when m is new (the
 * first step's), else each after the step it is about. */
static void add_notes(struct table *m, const struct table *src, int64_t n, bool first)
{
    for (size_t k = 0; k < src->notes.n; k++) {
        const char *note = src->notes.v[k];
        bool have = false;
        for (size_t j = 0; j < m->notes.n && !have; j++) {
            const char *x = m->notes.v[j];
            const char *colon = strstr(x, ": ");
            have = strcmp(x, note) == 0 ||
                   (strncmp(x, "step ", 5) == 0 && colon && strcmp(colon + 2, note) == 0);
        }
        if (have)
            continue;
        if (first)
            table_add_note(m, "%s", note);
        else
            table_add_note(m, "step %lld: %s", (long long)n, note);
    }
}

/* Append src's rows (at most top of a ranking) to m under step n; columns
 * matched by name (a step whose table has other columns, such as one per
 * device, leaves the others empty). */
static void append_rows(struct table *m, const struct table *src, int64_t n, size_t top)
{
    int *map = xmalloc((m->ncols + 1) * sizeof(*map));
    for (size_t c = 1; c < m->ncols; c++)
        map[c] = table_col_index(src, m->cols[c].name);
    size_t rows = src->nrows;
    if (top && !src->whole && rows > top)
        rows = top;
    for (size_t r = 0; r < rows; r++) {
        size_t row = table_add_row(m);
        table_set_int(m, row, 0, n);
        for (size_t c = 1; c < m->ncols; c++) {
            if (map[c] < 0 || src->cols[map[c]].kind != m->cols[c].kind)
                continue;
            union cell v = table_cell(src, r, (size_t)map[c]);
            switch (m->cols[c].kind) {
            case COL_TEXT:
                table_set_text(m, row, c, v.s);
                break;
            case COL_INT:
                table_set_int(m, row, c, v.i);
                break;
            default:
                table_set_float(m, row, c, v.f);
                break;
            }
        }
    }
    free(map);
}

bool perstep_build(const struct trace *t, const char *names, const struct report_opts *o,
                   const struct load_opts *lo, size_t top, struct table_list *out, char *err)
{
    struct trace_step *steps;
    size_t n = steps_list(t, &steps);
    if (!n) {
        free(steps);
        snprintf(err, 256, "--per-step: the trace has no ProfilerStep#N spans");
        return false;
    }
    bool ok = true;
    struct table_list merged = {0};
    for (size_t k = 0; k < n && ok; k++) {
        struct scope s;
        scope_init(&s);
        s.steps[0].lo = s.steps[0].hi = steps[k].n;
        s.nsteps = 1;
        struct trace *sub = NULL;
        struct errinfo lerr = {0};
        char msg[256];
        enum scope_result r = scope_load(t, &s, lo, &sub, msg, &lerr);
        if (r != SCOPE_OK) {
            char *m = r == SCOPE_IO ? errinfo_format(&lerr) : NULL;
            snprintf(err, 256, "step %lld: %.200s", (long long)steps[k].n, m ? m : msg);
            free(m);
            errinfo_clear(&lerr);
            ok = false;
            break;
        }
        errinfo_clear(&lerr);
        struct analysis *a = analysis_new(sub);
        struct table_list tl = {0};
        ok = report_build(a, names, o, &tl, err);
        for (size_t i = 0; ok && i < tl.items.n; i++) {
            size_t before = merged.items.n;
            struct table *m = merged_for(&merged, tl.items.v[i]);
            add_notes(m, tl.items.v[i], steps[k].n, merged.items.n > before);
            append_rows(m, tl.items.v[i], steps[k].n, top);
        }
        table_list_free(&tl);
        analysis_free(a);
        trace_free(sub);
    }
    free(steps);
    if (!ok) {
        table_list_free(&merged);
        return false;
    }
    for (size_t i = 0; i < merged.items.n; i++)
        table_list_add(out, merged.items.v[i]);
    free(merged.items.v);
    return true;
}
