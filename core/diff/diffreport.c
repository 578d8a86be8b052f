/* The registry of diff tables and the diff header (diffreport.h). */
#include "config.h"

#include "core/diff/diffreport.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/xalloc.h"
#include "core/diff/tabjoin.h"
#include "core/job/jobpar.h"
#include "core/report/report.h"
#include "core/report/tabfmt.h"

static void build_ops(struct diffreport_ctx *c, struct table_list *out)
{
    table_list_add(out, tracediff_table(c->td));
}

static void build_ops_diff(struct diffreport_ctx *c, struct table_list *out)
{
    table_list_add(out, tracediff_ops_table(c->td));
}

static struct difftree *tree_of(struct diffreport_ctx *c)
{
    if (!c->dt) {
        const char *labels[2] = {c->td->label[0], c->td->label[1]};
        c->dt = difftree_new(c->td->t[0], c->td->t[1], labels);
    }
    return c->dt;
}

static void build_tree(struct diffreport_ctx *c, struct table_list *out)
{
    table_list_add(out, difftree_table_top(tree_of(c), c->top));
}

static void build_lca(struct diffreport_ctx *c, struct table_list *out)
{
    table_list_add(out, difftree_lca_table(tree_of(c)));
}

/* One side's report table, built on a side's own thread. */
struct side_report {
    struct diffreport_ctx *c;
    const char *report_name;
    struct table_list side[2];
    char msg[2][256];
};

static bool build_side_report(void *ud, size_t s)
{
    struct side_report *R = ud;
    if (!R->c->an[s])
        R->c->an[s] = analysis_new(R->c->td->t[s]);
    struct report_opts ro = {0};
    if (!report_build(R->c->an[s], R->report_name, &ro, &R->side[s], R->msg[s]))
        table_list_free(&R->side[s]);
    return true;
}

/* A report table (or sheets) of each whole trace, joined sheet by sheet on
 * op and shapes; a side whose report cannot be built (no shapes) joins as
 * empty, with its reason as a note. The two sides are built at once (each
 * side's analysis is its own, kept for the next joined table). */
static void build_joined(struct diffreport_ctx *c, const char *report_name, enum tabjoin_kind kind,
                         struct table_list *out)
{
    struct side_report R;
    memset(&R, 0, sizeof(R));
    R.c = c;
    R.report_name = report_name;
    jobpar_run(2, jobpar_workers(2, 2), build_side_report, NULL, &R);
    struct table_list *side = R.side;
    char(*msg)[256] = R.msg;
    const char *labels[2] = {c->td->label[0], c->td->label[1]};
    size_t first = out->items.n;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < side[s].items.n; i++) {
            const struct table *x = side[s].items.v[i], *other = NULL;
            for (size_t j = 0; j < side[!s].items.n; j++)
                if (strcmp(side[!s].items.v[j]->name, x->name) == 0)
                    other = side[!s].items.v[j];
            if (s == 1 && other)
                continue; /* joined from the control's side */
            table_list_add(out, tabjoin_tables(kind, s ? other : x, s ? x : other, labels));
        }
    if (out->items.n == first)
        table_list_add(out, tabjoin_tables(kind, NULL, NULL, labels));
    for (int s = 0; s < 2; s++)
        if (msg[s][0])
            table_add_note(out->items.v[first], "%s: %s", labels[s], msg[s]);
    table_list_free(&side[0]);
    table_list_free(&side[1]);
}

static void build_unique_args(struct diffreport_ctx *c, struct table_list *out)
{
    build_joined(c, "unique-args", TABJOIN_UNIQUE_ARGS, out);
}

static void build_roofline(struct diffreport_ctx *c, struct table_list *out)
{
    build_joined(c, "roofline", TABJOIN_ROOFLINE, out);
}

const struct diffreport_table diffreport_tables[] = {
    {"ops", "per name: counts, total durations and their differences (HTA's compare_traces)",
     build_ops, false},
    {"ops-diff", "names added, deleted, increased, decreased, unchanged (HTA's ops_diff)",
     build_ops_diff, false},
    {"tree", "the merged call trees: CPU and GPU time of each node on each side, and the change",
     build_tree, true},
    {"lca", "each side's GPU work under the lowest matched ancestor of the merged tree", build_lca,
     true},
    {"unique-args", "GPU time by op and input shapes, joined on op and shapes", build_unique_args,
     true},
    {"roofline", "the roofline sheets joined on op and parameters: time and TFLOP/s of each side",
     build_roofline, true},
    {NULL, NULL, NULL, false},
};

static const struct diffreport_table *find(const char *name, size_t n)
{
    for (const struct diffreport_table *r = diffreport_tables; r->name; r++)
        if (strlen(r->name) == n && memcmp(r->name, name, n) == 0)
            return r;
    return NULL;
}

bool diffreport_check_names(const char *names, char *err, size_t errn)
{
    const char *p = names;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (!(n == 3 && memcmp(p, "all", 3) == 0) && !find(p, n)) {
            struct strbuf sb = STRBUF_INIT, list = STRBUF_INIT;
            display_sanitize(&sb, p, n);
            for (const struct diffreport_table *r = diffreport_tables; r->name; r++)
                sb_printf(&list, "%s, ", r->name);
            snprintf(err, errn, "unknown table '%s' (tables: %sall)", sb_str(&sb), sb_str(&list));
            sb_free(&sb);
            sb_free(&list);
            return false;
        }
        if (!comma)
            return true;
        p = comma + 1;
    }
}

bool diffreport_needs_index(const char *names)
{
    const char *p = names;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const struct diffreport_table *r = find(p, n);
        if ((n == 3 && memcmp(p, "all", 3) == 0) || (r && r->indexed))
            return true;
        if (!comma)
            return false;
        p = comma + 1;
    }
}

void diffreport_build(const struct tracediff *td, const char *names, struct table_list *out)
{
    diffreport_build_top(td, names, SIZE_MAX, out);
}

void diffreport_build_top(const struct tracediff *td, const char *names, size_t top,
                          struct table_list *out)
{
    struct diffreport_ctx c = {td, NULL, {NULL, NULL}, top};
    const char *p = names;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if (n == 3 && memcmp(p, "all", 3) == 0) {
            for (const struct diffreport_table *r = diffreport_tables; r->name; r++)
                r->build(&c, out);
        } else {
            const struct diffreport_table *r = find(p, n);
            if (r)
                r->build(&c, out);
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    difftree_free(c.dt);
    analysis_free(c.an[0]);
    analysis_free(c.an[1]);
}

static const char *device_name(enum tracediff_device d)
{
    return d == TRACEDIFF_CPU ? "cpu" : d == TRACEDIFF_GPU ? "gpu" : "all";
}

void diffreport_header(struct strbuf *out, const struct tracediff *td, bool markdown)
{
    struct strbuf steps = STRBUF_INIT;
    if (markdown)
        sb_puts(out, "## Trace diff\n\n");
    for (int k = 0; k < 2; k++) {
        sb_clear(&steps);
        tracediff_describe_side(td, k, &steps);
        const char *path = td->t[k]->path ? td->t[k]->path : "-";
        if (markdown) {
            sb_puts(out, "- ");
            tabfmt_md_text(out, td->label[k], strlen(td->label[k]));
            sb_puts(out, ": ");
            tabfmt_md_text(out, path, strlen(path));
            sb_printf(out, ", %s", sb_str(&steps));
            if (td->t[k]->scope_text) {
                sb_puts(out, "; scope: ");
                tabfmt_md_text(out, td->t[k]->scope_text, strlen(td->t[k]->scope_text));
            }
            sb_putc(out, '\n');
        } else {
            display_sanitize(out, td->label[k], strlen(td->label[k]));
            sb_puts(out, ": ");
            display_sanitize(out, path, strlen(path));
            sb_printf(out, "  (%s", sb_str(&steps));
            if (td->t[k]->scope_text) {
                sb_puts(out, "; scope: ");
                display_sanitize(out, td->t[k]->scope_text, strlen(td->t[k]->scope_text));
            }
            sb_puts(out, ")\n");
        }
    }
    sb_printf(out, "%sdevice: %s%s\n", markdown ? "- " : "", device_name(td->o.device),
              td->o.short_names ? ", short names" : "");
    sb_clear(&steps);
    if (tracediff_devices_note(td, &steps))
        sb_printf(out, "%snote: %s\n", markdown ? "- " : "", sb_str(&steps));
    sb_free(&steps);
}

void diffreport_header_json(struct strbuf *out, const struct tracediff *td)
{
    struct strbuf steps = STRBUF_INIT;
    sb_putc(out, '{');
    for (int k = 0; k < 2; k++) {
        const struct trace *t = td->t[k];
        const char *path = t->path ? t->path : "-";
        sb_puts(out, k ? ", \"test\": {\"label\": " : "\"control\": {\"label\": ");
        sb_put_json_string(out, td->label[k], strlen(td->label[k]));
        sb_puts(out, ", \"file\": ");
        sb_put_json_string(out, path, strlen(path));
        sb_puts(out, ", \"steps\": [");
        const struct iters *it = &td->it[k];
        for (size_t i = 0; i < it->n; i++)
            if (td->step[k] < 0 || (size_t)td->step[k] == i)
                sb_printf(out, "%s%lld", sb_str(out)[out->len - 1] == '[' ? "" : ", ",
                          (long long)it->nums[i]);
        sb_clear(&steps);
        tracediff_describe_side(td, k, &steps);
        sb_puts(out, "], \"covers\": ");
        sb_put_json_string(out, sb_str(&steps), steps.len);
        if (t->scope_text) {
            sb_puts(out, ", \"scope\": ");
            sb_put_json_string(out, t->scope_text, strlen(t->scope_text));
        }
        sb_putc(out, '}');
    }
    sb_printf(out, ", \"device\": \"%s\", \"short_names\": %s, \"per_step\": %s",
              device_name(td->o.device), td->o.short_names ? "true" : "false",
              td->o.per_step ? "true" : "false");
    sb_clear(&steps);
    sb_puts(out, ", \"devices_differ\": ");
    if (tracediff_devices_note(td, &steps))
        sb_put_json_string(out, sb_str(&steps), steps.len);
    else
        sb_puts(out, "null");
    sb_putc(out, '}');
    sb_free(&steps);
}
