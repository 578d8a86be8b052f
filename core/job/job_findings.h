/* Findings on a job (docs/metrics.md §20.2): each rank's findings come
 * from its own trace (job_hta.h, as `report -t findings` on it alone);
 * this adds the job's own one, the straggler: the rank the others wait
 * for at collectives (job_view_straggler), how much earlier the
 * collectives it arrives last at could start were it no later than the
 * last of the others, and what it was doing while they all waited. */
#ifndef TORCHTOP_CORE_JOB_FINDINGS_H
#define TORCHTOP_CORE_JOB_FINDINGS_H

#include "core/base/table.h"
#include "core/job/job.h"
#include "core/job/job_inputs.h"
#include "core/job/job_tables.h"

/* Add the straggler's row to the merged `findings` table in tables (a
 * leading rank column, then findings.h's schema) and its rule's row to
 * `findings_rules`; a table not in the list is left alone. The
 * straggler's trace is read again (lo as job_load's) for its evidence;
 * when it cannot be, the finding says so and keeps its saving. */
void job_findings_straggler(const struct job_view *v, const struct job_load_opts *lo,
                            struct table_list *tables);

#endif
