/* The job view as a document of the app (tui/job/job_doc.h): the ranks
 * table above the collectives table, the selected collective's lanes
 * across the ranks below, the selected row in the detail pane. Enter on a
 * rank opens its trace as a view on top (app_push); q or Backspace there
 * comes back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "core/job/job.h"
#include "core/job/job_tables.h"
#include "core/job/ranksum.h"
#include "core/job/ranksum_trace.h"
#include "core/report/report.h"
#include "tui/frame/app.h"
#include "tui/frame/colors.h"
#include "tui/frame/draw.h"
#include "tui/frame/help.h"
#include "tui/frame/keymap.h"
#include "tui/frame/table_pane.h"
#include "tui/job/job_doc.h"
#include "tui/job/joblanes_pane.h"
#include "tui/trace/tui.h"

enum { JT_RANKS, JT_COLLS, JT__COUNT };

static const char *const ranks_name[] = {"ranks"};
static const char *const colls_name[] = {"collectives"};

struct job_doc {
    struct job *job; /* owned */
    struct job_view v;
    struct table *tabs[JT__COUNT]; /* owned */
    char *errs[JT__COUNT];         /* none: both tables always build */
    struct tui_opts rank_opts;     /* how a rank's trace is opened (its path set then) */
    struct strbuf cell;            /* a path cell as shown */
    size_t common;                 /* bytes of prefix every rank's base name shares, cut
                                      where a word ends ("param-dlrm-v100-8rank-"), 0: none */
};

static struct job_doc *jd_of(struct app *a)
{
    return a->v.doc_state;
}

/* Whether column col of tab holds file paths: shown by their base names,
 * the whole path in the detail pane. */
static bool path_col(const struct table *tab, size_t col)
{
    const char *n = tab->cols[col].name;
    return strcmp(n, "trace") == 0 || strcmp(n, "source") == 0 || strcmp(n, "path") == 0;
}

static const char *base_name(const char *s, size_t n)
{
    const char *base = s;
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == '/')
            base = s + i + 1;
    return base;
}

/* What every rank's base name starts with, up to the end of its last word
 * (a '-', '_' or '.'), when that is long enough to be worth leaving out. */
static size_t common_prefix(const struct job *j)
{
    if (j->ranks.n < 2)
        return 0;
    const char *first = base_name(j->ranks.v[0]->source, strlen(j->ranks.v[0]->source));
    size_t n = strlen(first);
    for (size_t i = 1; i < j->ranks.n && n; i++) {
        const char *b = base_name(j->ranks.v[i]->source, strlen(j->ranks.v[i]->source));
        size_t k = 0;
        while (k < n && b[k] == first[k])
            k++;
        n = k;
    }
    while (n && !strchr("-_.", first[n - 1]))
        n--;
    return n >= 6 ? n : 0;
}

/* Paths as base names, less the prefix all ranks share ("…rank3.json");
 * the detail pane (full) has the whole path. */
static const char *cell_text(struct view *a, const struct table *tab, size_t row, size_t col,
                             const char *s, size_t n, size_t *len, bool full)
{
    *len = n;
    if (full || col >= tab->ncols || !path_col(tab, col))
        return s;
    struct job_doc *jd = a->doc_state;
    const char *base = base_name(s, n);
    *len = n - (size_t)(base - s);
    if (!jd->common || *len <= jd->common)
        return base;
    sb_clear(&jd->cell);
    sb_puts(&jd->cell, a->ascii ? "~" : "\xe2\x80\xa6");
    sb_putn(&jd->cell, base + jd->common, *len - jd->common);
    *len = jd->cell.len;
    return sb_str(&jd->cell);
}

static void job_open(struct app *a)
{
    struct job_doc *jd = jd_of(a);
    jd->common = common_prefix(jd->job);
    jd->tabs[JT_RANKS] = job_tables_ranks(&jd->v);
    jd->tabs[JT_COLLS] = job_tables_collectives(&jd->v);
    /* Collectives open sorted by the wait they cost, the largest first. */
    report_sort_table(jd->tabs[JT_COLLS], "avg_wait_time");
    const struct table_pane_views ranks = {
        .n = 1,
        .names = ranks_name,
        .tabs = &jd->tabs[JT_RANKS],
        .errs = &jd->errs[JT_RANKS],
        .keytab = KEYS_JOB_TABLE,
        .enter = REQ_OPEN,
        .text = cell_text,
        .text_widths = true,
    };
    const struct table_pane_views colls = {
        .n = 1,
        .names = colls_name,
        .tabs = &jd->tabs[JT_COLLS],
        .errs = &jd->errs[JT_COLLS],
        .keytab = KEYS_JOB_TABLE,
        .enter = REQ_OPEN,
        .text = cell_text,
        .text_widths = true,
    };
    a->panes[PANE_TABLE] = table_pane_new(&a->v, &ranks);
    /* The collectives sit in the tree's slot: a table pane there. */
    a->panes[PANE_TREE] = table_pane_new(&a->v, &colls);
    a->panes[PANE_TREE]->id = PANE_TREE;
    a->panes[PANE_TIMELINE] = joblanes_pane_new(&jd->v);
    app_message(a, "%zu ranks (numbered by %s), %zu collectives matched", jd->job->ranks.n,
                job_rank_source_name(jd->job->rank_source), jd->v.colls.insts.n);
}

/* The lanes follow the collectives table's cursor. */
static void follow_collective(struct app *a)
{
    const struct table *tab;
    size_t row;
    uint32_t inst = IDX_NONE;
    if (table_pane_current_row(a->panes[PANE_TREE], &tab, &row))
        inst = table_ref(tab, row);
    joblanes_pane_show(a->panes[PANE_TIMELINE], inst);
}

static void job_opened(struct app *a)
{
    follow_collective(a);
}

static void job_selected(struct app *a, struct pane *src)
{
    if (src == a->panes[PANE_TREE])
        follow_collective(a);
}

/* Enter on a rank: its trace as a view on top. A rank read from a
 * summary names its trace in the summary's "source", which is data: it is
 * resolved beside the summary and opened only when it is a regular file
 * (ranksum_trace_path), so that a FIFO there cannot hold the view. */
static unsigned open_rank(struct app *a, uint32_t row)
{
    struct job_doc *jd = jd_of(a);
    const struct table *t = jd->tabs[JT_RANKS];
    uint32_t ix = row < t->nrows ? table_ref(t, row) : IDX_NONE;
    if (ix >= jd->job->ranks.n) {
        app_error(a, "this row names no trace");
        return R_HANDLED;
    }
    struct errinfo err = {0};
    char *path = ranksum_trace_path(jd->job->ranks.v[ix], &err);
    if (!path) {
        char *m = errinfo_format(&err);
        app_error(a, "%s", m);
        free(m);
        errinfo_clear(&err);
        return R_HANDLED;
    }
    if (ranksum_is_summary(path)) {
        app_error(a, "%s is a rank summary: open its trace itself", path);
        free(path);
        return R_HANDLED;
    }
    struct tui_opts o = jd->rank_opts;
    o.path = path;
    unsigned r = tui_push_view(a, &o, "the job");
    free(path);
    return r;
}

static unsigned job_route(struct app *a, struct pane_request *req)
{
    if (req->kind != REQ_OPEN)
        return R_NONE;
    if (a->v.focus == PANE_TREE) {
        app_message(a, "the lanes below show this collective on every rank; Tab to the ranks "
                       "and Enter opens one");
        return R_HANDLED;
    }
    return open_rank(a, req->ev);
}

static unsigned job_action(struct app *a, enum action act)
{
    switch (act) {
    case A_ROOFLINE:
    case A_TRACEBACK:
    case A_KERNEL_NAMES:
    case A_EXPORT:
    case A_CRITPATH:
    case A_WHATIF:
    case A_FINDINGS:
    case A_EXPORT_SUBTREE:
    case A_EXPORT_WINDOW:
        app_message(a, "%s works in a rank's view: Enter on a rank opens it", action_name(act));
        return R_HANDLED;
    default:
        return R_NONE;
    }
}

static int job_timeline_lines(struct app *a)
{
    return joblanes_pane_lines(a->panes[PANE_TIMELINE]);
}

static bool job_header(struct app *a, WINDOW *w, int cols)
{
    struct job_doc *jd = jd_of(a);
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, " torchtop job  %zu ranks  %zu collectives matched", jd->job->ranks.n,
              jd->v.colls.insts.n);
    /* The straggler as the stragglers table defines it, where the screen
     * shows it first: the ranks table's note may sit below its rows. */
    size_t sg = job_view_straggler(&jd->v);
    if (sg != SIZE_MAX)
        sb_printf(&sb, "  straggler rank %d (last in %u of %zu)", jd->job->rank_of.v[sg],
                  jd->v.colls.n_last.v[sg], jd->v.colls.insts.n);
    draw_fit(w, 0, 0, cols, sb_str(&sb), sb.len, false, false, color_attr(C_TITLE_FOCUS),
             a->v.ascii);
    sb_clear(&sb);
    job_tables_header_text(&sb, &jd->v);
    /* The first line of the job's own header: its span and ranks. */
    const char *s = sb_str(&sb);
    const char *nl = strchr(s, '\n');
    size_t n = nl ? (size_t)(nl - s) : sb.len;
    draw_fit(w, 1, 1, cols - 1, s, n, false, false, A_NORMAL, a->v.ascii);
    sb_free(&sb);
    return true;
}

static void job_close(struct app *a)
{
    struct job_doc *jd = jd_of(a);
    if (!jd)
        return;
    for (int i = 0; i < JT__COUNT; i++) {
        table_free(jd->tabs[i]);
        free(jd->errs[i]);
    }
    job_view_done(&jd->v);
    job_free(jd->job);
    sb_free(&jd->cell);
    free(jd);
    a->v.doc_state = NULL;
}

static const char *const job_views[] = {"ranks", "collectives"};

const struct doc_ops job_doc_ops = {
    .open = job_open,
    .opened = job_opened,
    .close = job_close,
    .route = job_route,
    .action = job_action,
    .selected = job_selected,
    .timeline_lines = job_timeline_lines,
    /* Two lanes a rank: the lanes are what the job view is read by. */
    .timeline_pct = 50,
    .header = job_header,
    .help_mode = HELP_TABLES,
    .view_names = job_views,
    .nviews = 2,
};

int job_doc_run(struct job *j, const struct tui_opts *o)
{
    bool ascii;
    bool ok = tui_term_open(o, &ascii);
    if (!ok) {
        job_free(j);
        return 1;
    }
    struct job_doc *jd = xcalloc(1, sizeof(*jd));
    jd->job = j;
    job_view_init(&jd->v, j);
    jd->rank_opts = *o;
    jd->rank_opts.src = NULL;
    jd->rank_opts.snapshot = false;
    jd->rank_opts.name = NULL;
    jd->rank_opts.mem = NULL;
    jd->rank_opts.script = NULL;
    struct app a = {0};
    a.v.doc_state = jd;
    a.name = xstrdup("job");
    app_init(&a, &job_doc_ops, ascii, o->script != NULL);
    return tui_run(&a, o);
}
