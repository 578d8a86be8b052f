/* Property test: every report table of every trace given keeps the
 * invariants of core/report/invariants.h.
 *
 *   check_invariants PATH...
 *
 * A file is one trace: every table of `torchtop report` is built (the
 * default set, and HTA's and the graph tables, with idle intervals). A
 * directory is one multi-rank job: its job tables and HTA's per rank. A
 * trace that does not load is left out (the fuzz corpora hold broken
 * ones); one that loads in part is checked on what loaded.
 *
 * Prints each broken invariant (trace, table, rows) and, at the end, how
 * many tables and traces each invariant checked. Exits 1 when one broke
 * that is not an expected failure below, or when an expected failure no
 * longer breaks (remove its entry). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/base/common.h"
#include "core/base/errinfo.h"
#include "core/job/job.h"
#include "core/job/job_hta.h"
#include "core/job/job_inputs.h"
#include "core/job/job_tables.h"
#include "core/report/invariants.h"
#include "core/report/report.h"
#include "core/trace/load.h"
#include "core/trace/tree.h"

static const char TRACE_TABLES[] = "all,temporal,idle-time,kernel-types,overlap,launch-stats,"
                                   "queue-length,memory-bw";
static const char JOB_HTA_TABLES[] = "temporal,idle-time,kernel-types,queue-length,critical-path";
/* A what-if on the critical path, so that its table is checked too. */
static const char *const WHATIF[] = {"gpu_compute_bound=0.5", "re:^aten::=2"};

struct totals {
    uint64_t tables[INV__COUNT]; /* tables each invariant checked */
    uint64_t traces[INV__COUNT]; /* traces (or jobs) where it checked one or more */
    uint64_t ntraces, nskipped, nbroken;
};

static void account(struct totals *tot, const char *path, const struct table_list *tl)
{
    struct invariants_report r = {0};
    invariants_check(tl, &r);
    for (int k = 0; k < INV__COUNT; k++) {
        tot->tables[k] += r.checked[k];
        tot->traces[k] += r.checked[k] > 0;
    }
    for (size_t i = 0; i < r.broken.n; i++) {
        const struct invariant_break *b = &r.broken.v[i];
        tot->nbroken++;
        printf("FAIL: %s: %s: %s: %s\n", path, b->table, invariants_name(b->kind), b->what);
    }
    invariants_report_free(&r);
    tot->ntraces++;
}

static void check_trace(struct totals *tot, const char *path)
{
    struct load_opts lo = {.threads = 1};
    struct trace *t = NULL;
    struct errinfo err = {0};
    enum status st = trace_load_file(path, &lo, &t, &err);
    errinfo_clear(&err);
    if (!t) {
        tot->nskipped++;
        return;
    }
    (void)st; /* a trace kept in part is checked on what loaded */
    trace_index_steps(t, NULL, NULL);
    struct analysis *a = analysis_new(t);
    struct report_opts ro = {.idle_intervals = true};
    struct table_list tl = {0};
    char msg[256];
    if (!report_build(a, TRACE_TABLES, &ro, &tl, msg))
        printf("note: %s: %s\n", path, msg);
    /* Graph tables, where the trace has graph replays (an error otherwise). */
    report_build(a, "graphs", &ro, &tl, msg);
    /* The critical path of each step, its edges too (an error where the
     * trace has no events). */
    ro.cp_edges = true;
    ro.cp_whatif = WHATIF;
    ro.cp_nwhatif = ARRAY_SIZE(WHATIF);
    report_build(a, "critical-path", &ro, &tl, msg);
    account(tot, path, &tl);
    table_list_free(&tl);
    analysis_free(a);
    trace_free(t);
}

static void check_job(struct totals *tot, const char *dir)
{
    struct job_inputs in;
    struct errinfo err = {0};
    const char *args[1] = {dir};
    if (job_inputs_resolve(args, 1, &in, &err) != ST_OK) {
        errinfo_clear(&err);
        tot->nskipped++;
        return;
    }
    struct job_load_opts lo = {.load = {.threads = 1}};
    struct report_opts ro = {
        .idle_intervals = true, .cp_whatif = WHATIF, .cp_nwhatif = ARRAY_SIZE(WHATIF)};
    struct job_hta_opts ho = {JOB_HTA_TABLES, &ro, NULL, SIZE_MAX};
    struct job *j = NULL;
    struct table_list tl = {0};
    bool sorted = false;
    if (job_hta_load(&in, &lo, &ho, &j, &tl, &sorted, &err) != ST_OK) {
        errinfo_clear(&err);
        table_list_free(&tl);
        job_inputs_free(&in);
        tot->nskipped++;
        return;
    }
    struct job_view v;
    job_view_init(&v, j);
    char msg[256];
    if (!job_tables_build(&v, "all", &tl, msg))
        printf("note: %s: %s\n", dir, msg);
    account(tot, dir, &tl);
    table_list_free(&tl);
    job_view_done(&v);
    job_free(j);
    job_inputs_free(&in);
}

int main(int argc, char **argv)
{
    struct totals tot = {0};
    for (int i = 1; i < argc; i++) {
        if (job_inputs_is_dir(argv[i]))
            check_job(&tot, argv[i]);
        else
            check_trace(&tot, argv[i]);
    }
    printf("%llu traces checked, %llu not loadable (left out); %llu broken invariants\n",
           (unsigned long long)tot.ntraces, (unsigned long long)tot.nskipped,
           (unsigned long long)tot.nbroken);
    for (int k = 0; k < INV__COUNT; k++)
        printf("invariant %-20s %6llu tables in %4llu traces\n", invariants_name(k),
               (unsigned long long)tot.tables[k], (unsigned long long)tot.traces[k]);
    return tot.nbroken ? 1 : 0;
}
