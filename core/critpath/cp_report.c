/* The critical path tables: the share per bound_by, the events on the path
 * and, on request, the path's edges as HTA's get_critical_path_breakdown()
 * lists them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "core/critpath/cp_frame.h"
#include "core/critpath/cp_report.h"
#include "core/critpath/critpath.h"

/* HTA's short name as its breakdown prints it: a name with neither '<'
 * nor '(' as it is; else, with every "->" removed, each '>' drops the text
 * back to its '<' and each ')' back to its '(' (both inclusive), and the
 * part after the last space of the rest is the name. When that part is
 * empty the whole name stays ("Memcpy DtoD (Device -> Device)"), unless
 * the brackets took everything: a Python frame "<built-in method ...>"
 * gets an empty name. core/diff's short names keep the whole name in that
 * last case too. */
static void short_name(struct strbuf *out, const char *name)
{
    if (!strchr(name, '<') && !strchr(name, '(')) {
        sb_puts(out, name);
        return;
    }
    for (const char *s = name; *s; s++) {
        if (s[0] == '-' && s[1] == '>') {
            s++;
            continue;
        }
        if (*s == '>' || *s == ')') {
            char open = *s == '>' ? '<' : '(';
            while (out->len && out->s[out->len - 1] != open)
                out->len--;
            if (out->len)
                out->len--;
            continue;
        }
        sb_putc(out, *s);
    }
    if (!out->s)
        return;
    out->s[out->len] = '\0'; /* lengths were cut by hand */
    if (!out->len)
        return;
    size_t last = 0;
    for (size_t i = 0; i < out->len; i++)
        if (out->s[i] == ' ')
            last = i + 1;
    if (last == out->len) {
        sb_clear(out);
        sb_puts(out, name);
        return;
    }
    memmove(out->s, out->s + last, out->len - last);
    out->len -= last;
    out->s[out->len] = '\0'; /* lengths were cut by hand */
}

/* The label of a zero-weight edge's bound_by (HTA leaves it empty). */
static const char *bound_label(enum cp_bound b)
{
    return b == CPB_NONE ? "zero_weight" : critpath_bound_name(b);
}

static void summary_rows(struct table *tab, const struct cp_graph *g, const char *region)
{
    int64_t by[CPB__COUNT] = {0};
    size_t count[CPB__COUNT] = {0};
    for (size_t k = 0; k < g->path.n; k++) {
        const struct cp_edge *e = &g->edges.v[g->path.v[k]];
        enum cp_bound b = critpath_bound_by(g, e);
        by[b] += e->span;
        count[b]++;
    }
    int64_t total = 0;
    for (int b = 0; b < CPB__COUNT; b++)
        total += by[b];
    for (int b = 0; b < CPB__COUNT; b++) {
        if (!count[b])
            continue;
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, region);
        table_set_text(tab, r, 1, bound_label((enum cp_bound)b));
        table_set_int(tab, r, 2, (int64_t)count[b]);
        table_set_int(tab, r, 3, by[b]);
        table_set_float(tab, r, 4, total ? 100.0 * (double)by[b] / (double)total : 0);
    }
}

struct ev_time {
    uint32_t name;
    int64_t stream;
    int64_t time;
    uint32_t edges;
};
static int ev_time_cmp(const void *pa, const void *pb)
{
    const struct ev_time *a = pa, *b = pb;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    return (a->stream > b->stream) - (a->stream < b->stream);
}

/* Time on the path per event name and stream (-1: CPU). */
static void event_rows(struct table *tab, const struct cp_graph *g, const char *region)
{
    const struct cp_frame *f = g->f;
    struct ev_time *et = xmalloc((g->path.n + 1) * sizeof(*et));
    size_t n = 0;
    for (size_t k = 0; k < g->path.n; k++) {
        const struct cp_edge *e = &g->edges.v[g->path.v[k]];
        if (e->attr == IDX_NONE)
            continue;
        const struct cp_row *r = &f->rows.v[e->attr];
        et[n++] = (struct ev_time){r->name, r->stream < 0 ? -1 : r->stream, e->span, 1};
    }
    qsort(et, n, sizeof(*et), ev_time_cmp);
    size_t first = tab->nrows;
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && !ev_time_cmp(&et[a], &et[b])) {
            et[a].time += et[b].time;
            et[a].edges++;
            b++;
        }
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, region);
        table_set_text(tab, r, 1, trace_str(f->t, et[a].name));
        table_set_int(tab, r, 2, et[a].stream);
        table_set_int(tab, r, 3, et[a].edges);
        table_set_int(tab, r, 4, et[a].time);
        table_set_float(tab, r, 5, g->length ? 100.0 * (double)et[a].time / (double)g->length : 0);
        a = b;
    }
    (void)first;
    free(et);
}

static void edge_rows(struct table *tab, const struct cp_graph *g, const char *region)
{
    const struct cp_frame *f = g->f;
    struct strbuf sb = STRBUF_INIT;
    for (size_t k = 0; k < g->path.n; k++) {
        const struct cp_edge *e = &g->edges.v[g->path.v[k]];
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, region);
        table_set_int(tab, r, 1, e->span);
        table_set_text(tab, r, 2, critpath_edge_type_name((enum cp_edge_type)e->type));
        table_set_text(tab, r, 7, critpath_bound_name(critpath_bound_by(g, e)));
        if (e->attr == IDX_NONE) {
            table_set_text(tab, r, 3, "");
            for (int c = 4; c <= 6; c++)
                table_set_int(tab, r, (size_t)c, TABLE_NO_INT);
            table_set_int(tab, r, 8, TABLE_NO_INT);
            table_set_int(tab, r, 9, TABLE_NO_INT);
            continue;
        }
        const struct cp_row *row = &f->rows.v[e->attr];
        const char *name = trace_str(f->t, row->name);
        sb_clear(&sb);
        short_name(&sb, name);
        table_set_text(tab, r, 3, sb_str(&sb));
        table_set_int(tab, r, 4, cp_row_pid(f, row));
        table_set_int(tab, r, 5, cp_row_tid(f, row));
        table_set_int(tab, r, 6, row->stream);
        table_set_int(tab, r, 8, row->ts);
        table_set_int(tab, r, 9, row->dur);
        table_set_ref(tab, r, row->ev);
    }
    sb_free(&sb);
}

/* ANNOTATION[:INSTANCE]: the instance after the last ':' when it is all
 * digits. */
static void parse_region(const char *spec, char *ann, size_t n, unsigned *inst)
{
    *inst = 0;
    snprintf(ann, n, "%s", spec);
    char *colon = strrchr(ann, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        *inst = (unsigned)strtoul(colon + 1, NULL, 10);
        *colon = '\0';
    }
}

static bool add_region(const struct cp_frame *f, const char *ann, unsigned inst, struct table *sum,
                       struct table *evs, struct table *edg, char *err)
{
    struct cp_graph *g = critpath_build(f, ann, inst, err);
    if (!g)
        return false;
    char region[300];
    if (!ann[0])
        snprintf(region, sizeof(region), "(whole trace)");
    else if (inst)
        snprintf(region, sizeof(region), "%.280s:%u", ann, inst);
    else
        snprintf(region, sizeof(region), "%.280s", ann);
    if (!g->ok) {
        table_add_note(sum, "%s: the graph has a cycle; no path", region);
    } else {
        /* HTA's length sums the edges as measured; the search counts a
         * negative span (a child outliving its parent) as 0 */
        int64_t spans = 0;
        for (size_t k = 0; k < g->path.n; k++)
            spans += g->edges.v[g->path.v[k]].span;
        if (spans == g->length)
            table_add_note(sum, "%s: path of %zu edges, %lld µs", region, g->path.n,
                           (long long)spans);
        else
            table_add_note(sum, "%s: path of %zu edges, %lld µs (%lld µs with negative spans as 0)",
                           region, g->path.n, (long long)spans, (long long)g->length);
        summary_rows(sum, g, region);
        event_rows(evs, g, region);
        if (edg)
            edge_rows(edg, g, region);
    }
    critpath_free(g);
    return true;
}

bool cp_report_tables(const struct trace *t, const char *region, bool edges, struct table_list *out,
                      char *err)
{
    static const struct table_col sum_cols[] = {
        {"region", "region", COL_TEXT, 0, COLF_ASC},
        {"bound_by", "bound by", COL_TEXT, 0, COLF_NAME | COLF_KEY},
        {"edges", "edges", COL_INT, 0, 0},
        {"duration_us", "time µs", COL_INT, 0, COLF_KEY},
        {"share", "share %", COL_PERCENT, 1, COLF_KEY},
    };
    static const struct table_col ev_cols[] = {
        {"region", "region", COL_TEXT, 0, COLF_ASC},
        {"name", "name", COL_TEXT, 0, COLF_WIDE | COLF_NAME},
        {"stream", "stream", COL_INT, 0, 0},
        {"edges", "edges", COL_INT, 0, 0},
        {"duration_us", "time on path µs", COL_INT, 0, COLF_KEY},
        {"share", "share %", COL_PERCENT, 1, COLF_KEY},
    };
    static const struct table_col edge_cols[] = {
        {"region", "region", COL_TEXT, 0, COLF_ASC},
        {"duration", "duration µs", COL_INT, 0, 0},
        {"type", "type", COL_TEXT, 0, 0},
        {"s_name", "name", COL_TEXT, 0, COLF_WIDE | COLF_NAME},
        {"pid", "pid", COL_INT, 0, 0},
        {"tid", "tid", COL_INT, 0, 0},
        {"stream", "stream", COL_INT, 0, 0},
        {"bound_by", "bound by", COL_TEXT, 0, 0},
        {"ts", "ts µs", COL_INT, 0, 0},
        {"dur", "dur µs", COL_INT, 0, 0},
    };
    struct cp_frame *f = cp_frame_new(t);
    struct table *sum =
        table_new("critical_path", "HTA critical path: share of its length by what bounds it",
                  sum_cols, sizeof(sum_cols) / sizeof(sum_cols[0]));
    sum->whole = true;
    struct table *evs =
        table_new("critical_path_events", "Ops and GPU work on the critical path, by time on it",
                  ev_cols, sizeof(ev_cols) / sizeof(ev_cols[0]));
    struct table *edg =
        edges ? table_new("critical_path_edges", "The critical path's edges, first to last",
                          edge_cols, sizeof(edge_cols) / sizeof(edge_cols[0]))
              : NULL;
    if (edg)
        edg->whole = true;
    if (!f->has_sync)
        table_add_note(sum, "The trace has no CUDA synchronization events: the path has no sync "
                            "edges and may be inaccurate (HTA says the same)");
    bool ok = true;
    if (region) {
        char ann[256];
        unsigned inst;
        parse_region(region, ann, sizeof(ann), &inst);
        ok = add_region(f, ann, inst, sum, evs, edg, err);
    } else {
        /* each ProfilerStep#N, in the order they appear */
        size_t n;
        uint32_t *steps = cp_frame_step_names(f, &n);
        for (size_t k = 0; k < n && ok; k++)
            ok = add_region(f, trace_str(t, steps[k]), 0, sum, evs, edg, err);
        if (!n && ok)
            ok = add_region(f, "", 0, sum, evs, edg, err);
        free(steps);
    }
    cp_frame_free(f);
    if (!ok) {
        table_free(sum);
        table_free(evs);
        table_free(edg);
        return false;
    }
    table_sort(evs, 4, true);
    table_list_add(out, sum);
    table_list_add(out, evs);
    if (edg)
        table_list_add(out, edg);
    return true;
}
