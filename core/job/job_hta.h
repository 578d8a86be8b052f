/* HTA's tables (docs/metrics.md §14) for every rank of a job: each rank's
 * trace loaded and its tables built with the same code as `report -t T`
 * on that trace alone, then flattened into one table per table name with
 * a leading `rank` column (HTA's TraceAnalysis over a directory returns
 * one frame per rank). Ranks are numbered as job_load numbers them
 * (job.h), and read with the same parallel runner and cap on traces in
 * memory; each trace is freed once its tables and summary are made.
 *
 * The critical path gives one row per rank and region (its length and
 * the share of each bound: report_opts.cp_lengths_only), and its what-if
 * rows per rank.
 *
 * Rank summaries (`*.summary`) hold no events, so they cannot give these
 * tables: job_hta_load refuses them. */
#ifndef TORCHTOP_CORE_JOB_HTA_H
#define TORCHTOP_CORE_JOB_HTA_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/errinfo.h"
#include "core/base/table.h"
#include "core/job/job.h"
#include "core/job/job_inputs.h"
#include "core/report/report.h"

struct job_hta_opts {
    const char *names;                /* comma-separated HTA table names (job_hta_is_table) */
    const struct report_opts *report; /* as for one trace; NULL = defaults */
    const char *sort; /* sort each rank's tables first (report_sort_table), or NULL */
    /* Rows kept per rank of a ranking table (one not marked whole): 0 =
     * the table's own default, SIZE_MAX = every row. The merged table is
     * marked whole, so that a later cut does not drop whole ranks. */
    size_t top;
};

/* Whether name is one of the HTA tables of the report registry. */
bool job_hta_is_table(const char *name);

/* Load the inputs as job_load does and build the HTA tables o->names per
 * rank into out (one merged table per table name, in the order one trace
 * gives them). On ST_OK *job holds the job (free with job_free); on a
 * fault *job is NULL, out is left as it was and err says why: a rank
 * summary among the inputs (ST_UNSAFE, naming the table and the
 * file), a trace that does not load whole (as job_load), a table that
 * cannot be built for a rank (ST_FORMAT, naming the file).
 * *sorted receives whether o->sort named a column of any table. */
enum status job_hta_load(const struct job_inputs *in, const struct job_load_opts *lo,
                         const struct job_hta_opts *o, struct job **job, struct table_list *out,
                         bool *sorted, struct errinfo *err);

#endif
