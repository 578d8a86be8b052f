/* The job side of `torchtop report`: several traces (or rank summaries)
 * of one multi-rank job read together into the cross-rank tables. */
#ifndef TORCHTOP_SRC_CMD_JOB_H
#define TORCHTOP_SRC_CMD_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "core/report/report.h"
#include "core/report/tabfmt.h"

struct job_report_opts {
    const char *tables; /* -t, NULL = all */
    const struct tabfmt_opts *fmt;
    const char *sort;     /* -s, NULL = none */
    const char *out_path; /* -o, NULL = stdout */
    bool no_header;
    bool quiet;
    unsigned threads;
    bool flow_links;
    const char *xlsx_path;           /* --xlsx: a workbook (Charts first) instead of text */
    const struct report_opts *ropts; /* for HTA's per-rank tables (job_hta.h) */
};

/* Whether the TRACE arguments make a job: more than one, a directory, a
 * glob pattern that names no file, or a rank summary. */
bool job_report_wanted(char *const *args, size_t n);

/* Report the job; returns the exit status (2 for bad input, with the
 * file named; 64 for an unknown table or sort column). */
int job_report(char *const *args, size_t n, const struct job_report_opts *o);

struct tui_opts;
/* The explorer's job view of the job the arguments name (tui/job/job_doc.h);
 * returns the exit status. */
int job_explore(char *const *args, size_t n, const struct tui_opts *o);

#endif
