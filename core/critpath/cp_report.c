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
#include "core/critpath/cp_whatif.h"

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

/* The tables being filled, and the what-if rules. */
struct cp_tables {
    struct table *sum, *evs, *edg, *lens, *wif;
    struct cp_whatif_set rules;
};

/* One row per region: its length and the share of each bound. */
static void length_row(struct table *tab, const struct cp_graph *g, const char *region)
{
    int64_t by[CPB__COUNT] = {0}, total = 0;
    for (size_t k = 0; k < g->path.n; k++) {
        const struct cp_edge *e = &g->edges.v[g->path.v[k]];
        by[critpath_bound_by(g, e)] += e->span;
        total += e->span;
    }
    size_t r = table_add_row(tab);
    table_set_text(tab, r, 0, region);
    table_set_int(tab, r, 1, (int64_t)g->path.n);
    table_set_int(tab, r, 2, total);
    for (int b = CPB_CPU; b < CPB__COUNT; b++)
        table_set_float(tab, r, (size_t)(2 + b), total ? 100.0 * (double)by[b] / (double)total : 0);
    table_set_float(tab, r, 2 + CPB__COUNT,
                    total ? 100.0 * (double)by[CPB_NONE] / (double)total : 0);
}

static void whatif_row(struct table *tab, struct cp_graph *g, const char *region, const char *what,
                       struct cp_whatif_set *rules)
{
    size_t matched, on_path;
    int64_t after = critpath_whatif(g, cp_whatif_factor, rules, &matched, &on_path);
    size_t r = table_add_row(tab);
    table_set_text(tab, r, 0, region);
    table_set_text(tab, r, 1, what);
    table_set_int(tab, r, 2, (int64_t)matched);
    table_set_int(tab, r, 3, (int64_t)on_path);
    table_set_int(tab, r, 4, g->length);
    table_set_int(tab, r, 5, after);
    table_set_int(tab, r, 6, g->length - after);
    table_set_float(tab, r, 7,
                    g->length ? 100.0 * (double)(g->length - after) / (double)g->length : 0);
}

/* Each rule alone, then all of them together (the first rule that takes
 * an edge gives its factor). */
static void whatif_rows(struct cp_tables *ct, struct cp_graph *g, const char *region)
{
    for (size_t i = 0; i < ct->rules.n; i++) {
        struct cp_whatif_set one = {&ct->rules.v[i], 1};
        whatif_row(ct->wif, g, region, ct->rules.v[i].spec, &one);
    }
    if (ct->rules.n > 1)
        whatif_row(ct->wif, g, region, "(all together)", &ct->rules);
}

static bool add_region(const struct cp_frame *f, const char *ann, unsigned inst,
                       struct cp_tables *ct, char *err)
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
    struct table *notes = ct->sum ? ct->sum : ct->lens;
    if (!g->ok) {
        table_add_note(notes, "%s: the graph has a cycle; no path", region);
    } else {
        /* HTA's length sums the edges as measured; the search counts a
         * negative span (a child outliving its parent) as 0 */
        int64_t spans = 0;
        for (size_t k = 0; k < g->path.n; k++)
            spans += g->edges.v[g->path.v[k]].span;
        if (spans != g->length)
            table_add_note(notes,
                           "%s: path of %zu edges, %lld µs (%lld µs with negative spans as 0)",
                           region, g->path.n, (long long)spans, (long long)g->length);
        else if (ct->sum)
            table_add_note(notes, "%s: path of %zu edges, %lld µs", region, g->path.n,
                           (long long)spans);
        if (ct->sum) {
            summary_rows(ct->sum, g, region);
            event_rows(ct->evs, g, region);
        } else {
            length_row(ct->lens, g, region);
        }
        if (ct->edg)
            edge_rows(ct->edg, g, region);
        if (ct->wif)
            whatif_rows(ct, g, region);
    }
    critpath_free(g);
    return true;
}

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
/* Shares in the order of enum cp_bound from CPB_CPU, then zero_weight. */
static const struct table_col len_cols[] = {
    {"region", "region", COL_TEXT, 0, COLF_ASC | COLF_NAME},
    {"edges", "edges", COL_INT, 0, 0},
    {"length_us", "length µs", COL_INT, 0, COLF_KEY},
    {"cpu_bound", "cpu %", COL_PERCENT, 1, 0},
    {"gpu_compute_bound", "gpu compute %", COL_PERCENT, 1, 0},
    {"gpu_communication_bound", "gpu comm %", COL_PERCENT, 1, 0},
    {"gpu_kernel_launch_overhead", "launch %", COL_PERCENT, 1, 0},
    {"gpu_kernel_kernel_overhead", "kernel-kernel %", COL_PERCENT, 1, 0},
    {"data_loading", "data loading %", COL_PERCENT, 1, 0},
    {"zero_weight", "zero weight %", COL_PERCENT, 1, 0},
};
static const struct table_col wif_cols[] = {
    {"region", "region", COL_TEXT, 0, COLF_ASC},
    {"what_if", "what if", COL_TEXT, 0, COLF_WIDE | COLF_NAME},
    {"edges", "edges matched", COL_INT, 0, 0},
    {"on_path", "on path", COL_INT, 0, 0},
    {"before_us", "length µs", COL_INT, 0, 0},
    {"after_us", "new length µs", COL_INT, 0, 0},
    {"saving_us", "saving µs", COL_INT, 0, COLF_KEY},
    {"saving", "saving %", COL_PERCENT, 1, COLF_KEY},
};
#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))

static void tables_free(struct cp_tables *ct)
{
    table_free(ct->sum);
    table_free(ct->evs);
    table_free(ct->edg);
    table_free(ct->lens);
    table_free(ct->wif);
}

/* Each ProfilerStep#N, in the order they appear; the whole trace when
 * there is none. */
static bool add_steps(const struct cp_frame *f, struct cp_tables *ct, char *err)
{
    bool ok = true;
    size_t n;
    uint32_t *steps = cp_frame_step_names(f, &n);
    for (size_t k = 0; k < n && ok; k++)
        ok = add_region(f, trace_str(f->t, steps[k]), 0, ct, err);
    if (!n && ok)
        ok = add_region(f, "", 0, ct, err);
    free(steps);
    return ok;
}

bool cp_report_data_load_compile(const struct cp_report_opts *o, regex_t *re, char *err)
{
    for (size_t i = 0; i < o->ndata_load; i++) {
        int rc = regcomp(&re[i], o->data_load[i], REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char why[128];
            regerror(rc, &re[i], why, sizeof(why));
            snprintf(err, 256, "--cp-data-load '%.80s': %s", o->data_load[i], why);
            for (size_t k = 0; k < i; k++)
                regfree(&re[k]);
            return false;
        }
    }
    return true;
}

bool cp_report_tables(const struct trace *t, const struct cp_report_opts *o, struct table_list *out,
                      char *err)
{
    regex_t *re = xcalloc(o->ndata_load + 1, sizeof(*re));
    if (!cp_report_data_load_compile(o, re, err)) {
        free(re);
        return false;
    }
    struct cp_tables ct = {0};
    ct.rules.v = xcalloc(o->nwhatif + 1, sizeof(*ct.rules.v));
    bool ok = true;
    for (size_t i = 0; i < o->nwhatif && ok; i++) {
        ok = cp_whatif_parse(o->whatif[i], &ct.rules.v[i], err);
        ct.rules.n += ok;
    }
    if (!ok) {
        for (size_t i = 0; i < ct.rules.n; i++)
            cp_whatif_free(&ct.rules.v[i]);
        free(ct.rules.v);
        for (size_t i = 0; i < o->ndata_load; i++)
            regfree(&re[i]);
        free(re);
        return false;
    }
    if (o->lengths_only) {
        ct.lens = table_new("critical_path_regions",
                            "HTA critical path per region: length and share of each bound",
                            len_cols, NCOLS(len_cols));
        ct.lens->whole = true;
    } else {
        ct.sum =
            table_new("critical_path", "HTA critical path: share of its length by what bounds it",
                      sum_cols, NCOLS(sum_cols));
        ct.sum->whole = true;
        ct.evs = table_new("critical_path_events",
                           "Ops and GPU work on the critical path, by time on it", ev_cols,
                           NCOLS(ev_cols));
    }
    if (o->edges) {
        ct.edg = table_new("critical_path_edges", "The critical path's edges, first to last",
                           edge_cols, NCOLS(edge_cols));
        ct.edg->whole = true;
    }
    if (ct.rules.n) {
        ct.wif = table_new("critical_path_what_if",
                           "HTA critical path if some edges ran FACTOR times as long", wif_cols,
                           NCOLS(wif_cols));
        ct.wif->whole = true;
    }
    struct cp_frame *f = cp_frame_new(t);
    size_t marked = cp_frame_mark_data_loading(f, re, o->ndata_load);
    for (size_t i = 0; i < o->ndata_load; i++)
        regfree(&re[i]);
    free(re);
    if (o->ndata_load && !marked)
        table_add_note(ct.sum ? ct.sum : ct.lens,
                       "--cp-data-load: no CPU event's name matches; nothing is data loading");
    if (!f->has_sync)
        table_add_note(ct.sum ? ct.sum : ct.lens,
                       "The trace has no CUDA synchronization events: the path has no sync "
                       "edges and may be inaccurate (HTA says the same)");
    if (o->region) {
        char ann[256];
        unsigned inst;
        parse_region(o->region, ann, sizeof(ann), &inst);
        ok = add_region(f, ann, inst, &ct, err);
    } else {
        ok = add_steps(f, &ct, err);
    }
    cp_frame_free(f);
    for (size_t i = 0; i < ct.rules.n; i++)
        cp_whatif_free(&ct.rules.v[i]);
    free(ct.rules.v);
    if (!ok) {
        tables_free(&ct);
        return false;
    }
    if (ct.evs) {
        /* Ties by region, name and stream: the order of equal times must
         * not follow the string ids, which depend on the load. */
        static const struct table_sort_key keys[] = {{4, true}, {0, false}, {1, false}, {2, false}};
        table_sort_keys(ct.evs, keys, 4);
    }
    struct table *order[] = {ct.sum, ct.lens, ct.evs, ct.edg, ct.wif};
    for (size_t i = 0; i < NCOLS(order); i++)
        if (order[i])
            table_list_add(out, order[i]);
    return true;
}
