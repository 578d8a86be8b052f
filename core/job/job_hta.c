/* HTA's tables per rank of a job (job_hta.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/base/common.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/report/invariants.h"
#include "core/job/job.h"
#include "core/job/job_hta.h"
#include "core/job/jobpar.h"
#include "core/job/ranksum.h"
#include "core/trace/load.h"

/* The report registry's tables that come from HTA's analyses
 * (core/report/report.c, docs/metrics.md §14 and §18). */
static const char *const hta_names[] = {
    "temporal",     "idle-time", "kernel-types",  "overlap",  "launch-stats",
    "queue-length", "memory-bw", "critical-path", "findings", NULL,
};

bool job_hta_is_table(const char *name)
{
    for (size_t i = 0; hta_names[i]; i++)
        if (strcmp(name, hta_names[i]) == 0)
            return true;
    return false;
}

/* The ranks being read (jobpar hands out the inputs). */
struct hta_loading {
    const struct job_inputs *in;
    const struct job_load_opts *lo;
    const struct job_hta_opts *o;
    unsigned parse_threads;
    struct ranksum **sums;     /* per input */
    struct table_list *tables; /* per input */
    bool *sorted;              /* per input */
    enum status *st;           /* per input */
    struct errinfo *errs;      /* per input */
};

static bool hta_load_one(void *ud, size_t i)
{
    struct hta_loading *L = ud;
    const char *path = L->in->v.v[i].path;
    struct trace *t = NULL;
    L->st[i] = job_load_rank(&L->in->v.v[i], L->lo ? &L->lo->load : NULL, L->parse_threads, &t,
                             &L->sums[i], &L->errs[i]);
    if (L->st[i] == ST_OK) {
        struct analysis *a = analysis_new(t);
        char msg[256];
        /* the critical path per rank: one row per region */
        struct report_opts ro = {0};
        if (L->o->report)
            ro = *L->o->report;
        ro.cp_lengths_only = true;
        if (!report_build(a, L->o->names, &ro, &L->tables[i], msg)) {
            L->st[i] = ST_FORMAT;
            errinfo_set(&L->errs[i], ST_FORMAT, path, -1, "%s", msg);
        }
        analysis_free(a);
        if (L->st[i] == ST_OK && L->o->sort)
            for (size_t k = 0; k < L->tables[i].items.n; k++)
                L->sorted[i] |= report_sort_table(L->tables[i].items.v[k], L->o->sort);
    }
    trace_free(t);
    return L->st[i] == ST_OK;
}

static void hta_load_begin(void *ud, size_t i, size_t n)
{
    struct hta_loading *L = ud;
    if (L->lo && L->lo->progress)
        L->lo->progress(L->lo->progress_ud, i, n, L->in->v.v[i].path);
}

/* Rows of src kept for one rank: the cut a single trace's report makes. */
static size_t rows_kept(const struct table *src, size_t top)
{
    if (src->whole || top == SIZE_MAX)
        return src->nrows;
    size_t k = top ? top : src->top_default;
    return k && k < src->nrows ? k : src->nrows;
}

/* Append rank's rows of src to dst (a leading rank column, then src's
 * but its own rank column). */
static void append_rows(struct table *dst, const struct table *src, int rank, size_t top)
{
    size_t n = rows_kept(src, top);
    int own = table_col_index(src, "rank");
    for (size_t r = 0; r < n; r++) {
        size_t row = table_add_row(dst);
        table_set_int(dst, row, 0, rank);
        for (size_t c = 0, d = 1; c < src->ncols; c++) {
            if ((int)c == own)
                continue;
            union cell v = table_cell(src, r, c);
            switch (src->cols[c].kind) {
            case COL_TEXT:
                table_set_text(dst, row, d++, v.s);
                break;
            case COL_INT:
                table_set_int(dst, row, d++, v.i);
                break;
            default:
                table_set_float(dst, row, d++, v.f);
                break;
            }
        }
        table_set_ref(dst, row, IDX_NONE);
    }
    for (size_t k = 0; k < src->notes.n; k++)
        table_add_note(dst, "rank %d: %s", rank, src->notes.v[k]);
}

/* Columns of the merged table for src: a leading rank, then src's but
 * its own rank column (HTA's, from distributedInfo), which the job's rank
 * numbering replaces. */
static size_t merged_ncols(const struct table *src)
{
    return src->ncols + (table_col_index(src, "rank") < 0);
}

/* The merged table for the tables named like first (merged_ncols);
 * refs, instances and sort state are per trace and dropped, and a
 * running-sum column keeps each rank's own sums. */
static struct table *merged_new(const struct table *first)
{
    struct table_col *cols = xmalloc((first->ncols + 1) * sizeof(*cols));
    cols[0] = (struct table_col){"rank", NULL, COL_INT, 0, COLF_ASC | COLF_KEY};
    int own = table_col_index(first, "rank");
    size_t d = 1;
    for (size_t c = 0; c < first->ncols; c++) {
        if ((int)c == own)
            continue;
        cols[d] = first->cols[c];
        cols[d++].flags &= (uint16_t)~COLF_CUMUL;
    }
    struct table *t = table_new(first->name, first->title, cols, d);
    free(cols);
    t->whole = true;
    return t;
}

/* One table per name, in the order a rank's list gives them, rows in rank
 * order; the per-rank lists are emptied. */
static void merge(const struct job *j, struct ranksum **sums, struct table_list *tables, size_t n,
                  size_t top, struct table_list *out)
{
    /* Input index of each rank, in rank order. */
    size_t *at = xmalloc((n ? n : 1) * sizeof(*at));
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < n; i++)
            if (sums[i] == j->ranks.v[k])
                at[k] = i;
    struct table_list merged = {0};
    for (size_t k = 0; k < n; k++) {
        struct table_list *l = &tables[at[k]];
        for (size_t m = 0; m < l->items.n; m++) {
            const struct table *src = l->items.v[m];
            struct table *dst = NULL;
            for (size_t q = 0; q < merged.items.n && !dst; q++)
                if (strcmp(merged.items.v[q]->name, src->name) == 0)
                    dst = merged.items.v[q];
            if (!dst) {
                dst = merged_new(src);
                table_list_add(&merged, dst);
            }
            if (dst->ncols == merged_ncols(src))
                append_rows(dst, src, j->rank_of.v[k], top);
        }
    }
    /* A broken invariant is said on its table, not left a silent wrong number. */
    invariants_annotate(&merged);
    for (size_t q = 0; q < merged.items.n; q++)
        table_list_add(out, merged.items.v[q]);
    VEC_FREE(&merged.items);
    free(at);
}

enum status job_hta_load(const struct job_inputs *in, const struct job_load_opts *lo,
                         const struct job_hta_opts *o, struct job **job, struct table_list *out,
                         bool *sorted, struct errinfo *err)
{
    *job = NULL;
    *sorted = false;
    size_t n = in->v.n;
    for (size_t i = 0; i < n; i++)
        if (ranksum_is_summary(in->v.v[i].path)) {
            errinfo_set(err, ST_UNSAFE, in->v.v[i].path, -1,
                        "a rank summary, but HTA's table%s '%s' need%s each rank's trace (a "
                        "summary keeps no events): give the traces",
                        strchr(o->names, ',') ? "s" : "", o->names,
                        strchr(o->names, ',') ? "" : "s");
            return ST_UNSAFE;
        }
    struct hta_loading L = {.in = in, .lo = lo, .o = o};
    L.sums = xcalloc(n + 1, sizeof(*L.sums));
    L.tables = xcalloc(n + 1, sizeof(*L.tables));
    L.sorted = xcalloc(n + 1, sizeof(*L.sorted));
    L.st = xcalloc(n + 1, sizeof(*L.st));
    L.errs = xcalloc(n + 1, sizeof(*L.errs));
    size_t workers = job_load_workers(in, lo ? lo->load.threads : 0, &L.parse_threads);
    jobpar_run(n, workers, hta_load_one, hta_load_begin, &L);
    enum status st = job_first_fault(n, L.st, L.errs, err);
    for (size_t i = 0; i < n; i++)
        *sorted |= L.sorted[i];
    if (st == ST_OK)
        for (size_t i = 0; i < n; i++)
            if (!L.sums[i]) {
                st = ST_IO;
                errinfo_set(err, ST_IO, in->v.v[i].path, -1, "not read");
                break;
            }
    struct job *j = NULL;
    if (st != ST_OK) {
        for (size_t i = 0; i < n; i++)
            ranksum_free(L.sums[i]);
    } else {
        /* job_from_summaries keeps the summaries (freeing them on failure)
         * and puts them in rank order; their addresses tie them back to
         * the inputs' tables. */
        struct ranksum **sums = xmalloc((n + 1) * sizeof(*sums));
        memcpy(sums, L.sums, n * sizeof(*sums));
        st = job_from_summaries(sums, n, &j, err);
        if (st == ST_OK)
            merge(j, L.sums, L.tables, n, o->top, out);
        free(sums);
    }
    for (size_t i = 0; i < n; i++)
        table_list_free(&L.tables[i]);
    free(L.sums);
    free(L.tables);
    free(L.sorted);
    free(L.st);
    free(L.errs);
    *job = j;
    return st;
}
