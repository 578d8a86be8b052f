/* The cross-rank tables of a job (docs/metrics.md §15): ranks,
 * collectives, collectives-summary, stragglers, ops. A registry like
 * report.h's, for jobs: `torchtop report TRACE...` and the explorer's job
 * view build from it. */
#ifndef TORCHTOP_CORE_JOB_TABLES_H
#define TORCHTOP_CORE_JOB_TABLES_H

#include <stdbool.h>

#include "core/base/strbuf.h"
#include "core/base/table.h"
#include "core/job/job.h"
#include "core/job/job_colls.h"

/* A job and its matched collectives, built once for every table. */
struct job_view {
    const struct job *job; /* borrowed */
    struct job_colls colls;
};

void job_view_init(struct job_view *v, const struct job *j);
void job_view_done(struct job_view *v);

/* The straggler (docs/metrics.md §15): the index into job.ranks of the
 * rank in some matched collective that waits least in them in all (the
 * others wait for it); ties go to the rank that arrived last more often,
 * then to the lower index. SIZE_MAX when no collective matched. */
size_t job_view_straggler(const struct job_view *v);

typedef struct table *(*job_table_fn)(const struct job_view *v);

struct job_table {
    const char *name;    /* --table NAME */
    const char *summary; /* one line for --help */
    job_table_fn build;
};

/* The registry, terminated by a NULL name. */
extern const struct job_table job_tables[];

/* Build the tables named in `names` (comma-separated; "all" for every
 * one) into out. An unknown name is reported in err_msg (size 256) and
 * makes it return false. */
bool job_tables_build(const struct job_view *v, const char *names, struct table_list *out,
                      char *err_msg);

/* Each table alone (owned by the caller). */
struct table *job_tables_ranks(const struct job_view *v);
struct table *job_tables_collectives(const struct job_view *v);
struct table *job_tables_coll_summary(const struct job_view *v);
struct table *job_tables_stragglers(const struct job_view *v);
struct table *job_tables_ops(const struct job_view *v);

/* The job's header: ranks, how they were numbered, world size, files;
 * text (sanitized) or JSON (an object). */
void job_tables_header_text(struct strbuf *out, const struct job_view *v);
void job_tables_header_json(struct strbuf *out, const struct job_view *v);

#endif
