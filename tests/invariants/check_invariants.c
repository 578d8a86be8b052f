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
#include "core/base/errinfo.h"
#include "core/job/job.h"
#include "core/job/job_hta.h"
#include "core/job/job_inputs.h"
#include "core/job/job_tables.h"
#include "core/report/invariants.h"
#include "core/report/report.h"
#include "core/trace/load.h"
#include "core/trace/tree.h"

/* Expected failures: invariants that break today only for reasons being
 * fixed elsewhere, by trace (base name), table and invariant. The checks
 * stay as they are; remove an entry when its fix merges (an entry that no
 * longer breaks fails the test). */
#define QUEUE_NEGATIVE "HTA's queue length goes negative (a fix of queue_length is pending)"
static const struct expected_break {
    const char *trace;
    const char *table;
    enum invariant kind;
    const char *reason;
} expected_breaks[] = {
    {"param-dlrm-v100-8rank-rank1.pt.trace.json", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"param-dlrm-v100-8rank-rank3.pt.trace.json", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"hta-a100-alexnet-cudasync.json.gz", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"hta-cp-event-sync-multistream.json.gz", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"hta-cp-event-sync.json.gz", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"hta-cp-simple-add.json.gz", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"tracelens-mi300-normalization-layers.json.gz", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"tracelens-mi300-sglang-prefilldecode.json.gz", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"tracelens-mi300-torch-compile-triton.json.gz", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"tracelens-mi300-vllm-graph-replay.json.gz", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"tracelens-mi300-vllm-piecewise-replay.json.gz", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"param-dlrm-8rank", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"gen-model.json", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"gen-conv.json.gz", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"gen-small.json", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"bare-array-open.json", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"bare-array.json", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"gzip-hta-a100-alexnet-cudasync.json.gz", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
    {"hta-a100-alexnet-cudasync.json", "hta_queue_length_summary", INV_NONNEG, QUEUE_NEGATIVE},
    {"tracelens-mi300-vllm-graph-replay.json", "hta_queue_length_summary", INV_NONNEG,
     QUEUE_NEGATIVE},
};

#define NEXPECTED (sizeof(expected_breaks) / sizeof(expected_breaks[0]))

static const char TRACE_TABLES[] = "all,temporal,idle-time,kernel-types,overlap,launch-stats,"
                                   "queue-length,memory-bw";
static const char JOB_HTA_TABLES[] = "temporal,idle-time,kernel-types,queue-length";

struct totals {
    uint64_t tables[INV__COUNT]; /* tables each invariant checked */
    uint64_t traces[INV__COUNT]; /* traces (or jobs) where it checked one or more */
    uint64_t ntraces, nskipped, nunexpected, nexpected;
    bool seen[NEXPECTED];
};

static const char *base_name(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *b = path;
    for (size_t i = 0; i + 1 < n; i++)
        if (path[i] == '/')
            b = path + i + 1;
    return b;
}

static int expected_index(const char *trace, const struct invariant_break *b)
{
    for (size_t i = 0; i < NEXPECTED; i++) {
        const struct expected_break *e = &expected_breaks[i];
        size_t n = strlen(e->trace);
        if (strncmp(trace, e->trace, n) == 0 && (trace[n] == '\0' || trace[n] == '/') &&
            strcmp(b->table, e->table) == 0 && b->kind == e->kind)
            return (int)i;
    }
    return -1;
}

static void account(struct totals *tot, const char *path, const struct table_list *tl)
{
    struct invariants_report r = {0};
    invariants_check(tl, &r);
    const char *name = base_name(path);
    for (int k = 0; k < INV__COUNT; k++) {
        tot->tables[k] += r.checked[k];
        tot->traces[k] += r.checked[k] > 0;
    }
    for (size_t i = 0; i < r.broken.n; i++) {
        const struct invariant_break *b = &r.broken.v[i];
        int e = expected_index(name, b);
        if (e >= 0) {
            tot->seen[e] = true;
            tot->nexpected++;
            printf("expected failure: %s: %s: %s: %s (%s)\n", path, b->table,
                   invariants_name(b->kind), b->what, expected_breaks[e].reason);
        } else {
            tot->nunexpected++;
            printf("FAIL: %s: %s: %s: %s\n", path, b->table, invariants_name(b->kind), b->what);
        }
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
    struct report_opts ro = {.idle_intervals = true};
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
    int rc = tot.nunexpected ? 1 : 0;
    for (size_t i = 0; i < NEXPECTED; i++) {
        bool given = false;
        for (int a = 1; a < argc && !given; a++)
            given = strncmp(base_name(argv[a]), expected_breaks[i].trace,
                            strlen(expected_breaks[i].trace)) == 0;
        if (given && !tot.seen[i]) {
            printf("FAIL: expected failure no longer breaks, remove it: %s: %s: %s\n",
                   expected_breaks[i].trace, expected_breaks[i].table,
                   invariants_name(expected_breaks[i].kind));
            rc = 1;
        }
    }
    printf("%llu traces checked, %llu not loadable (left out); %llu broken invariants, %llu "
           "expected\n",
           (unsigned long long)tot.ntraces, (unsigned long long)tot.nskipped,
           (unsigned long long)tot.nunexpected, (unsigned long long)tot.nexpected);
    for (int k = 0; k < INV__COUNT; k++)
        printf("invariant %-20s %6llu tables in %4llu traces\n", invariants_name(k),
               (unsigned long long)tot.tables[k], (unsigned long long)tot.traces[k]);
    return rc;
}
