/* Reports: named tables built from an analysis, and the header that
 * describes the trace. `torchtop report` and the explorer's table views use
 * the same registry, so a table is defined once. */
#ifndef TORCHTOP_CORE_REPORT_H
#define TORCHTOP_CORE_REPORT_H

#include <stdbool.h>

#include "core/analysis/analysis.h"
#include "core/analysis/keyavg.h"
#include "core/base/strbuf.h"
#include "core/base/table.h"

struct report_opts {
    bool linked_only;             /* only GPU events linked to a launch (TraceLens's default) */
    bool recompute;               /* ops, unique-args, roofline: split rows by recompute
                                     (analysis_mark_recompute) */
    struct keyavg_opts keyavg;    /* key-averages grouping and time unit */
    const char *arch;             /* device peaks: built-in name or TraceLens arch JSON path */
    const char *inductor_cache;   /* roofline: Inductor cache directory for Triton kernels
                                     without recorded numels; NULL: none */
    bool idle_intervals;          /* idle-time: add HTA's idle interval statistics */
    const char *cp_region;        /* critical-path: ANNOTATION[:INSTANCE], NULL = each step */
    bool cp_edges;                /* critical-path: list the path's edges too */
    bool cp_lengths_only;         /* critical-path: one row per region (a job's view per rank) */
    const char *const *cp_whatif; /* critical-path: --what-if rules (cp_whatif.h) */
    size_t cp_nwhatif;
    const char *const *cp_data_load; /* critical-path: --cp-data-load expressions */
    size_t cp_ndata_load;
};

/* Builds one or more tables into out. Returns false with a message in
 * err_msg (size 256) when the table cannot be built for this trace. */
typedef bool (*report_build_fn)(struct analysis *a, const struct report_opts *o,
                                struct table_list *out, char *err_msg);

struct report_table {
    const char *name;    /* --table NAME */
    const char *summary; /* one line for --help and the man page */
    report_build_fn build;
    bool in_all; /* part of the default "all" */
};

/* The registry, terminated by a NULL name. */
extern const struct report_table report_tables[];

/* Build the tables named in `names` (comma-separated; "all" for the
 * default set) into out. Unknown names and failed builds are reported in
 * err_msg (size 256) and make it return false. HTA's tables share one
 * view of the trace: freed before returning unless the caller built it
 * first with analysis_hta (then kept for its next call). */
bool report_build(struct analysis *a, const char *names, const struct report_opts *o,
                  struct table_list *out, char *err_msg);

/* The trace header: file, devices, event counts, links and span; names
 * from the trace sanitized (text) or escaped (Markdown: a "Trace" heading
 * and a list). */
void report_header_text(struct strbuf *out, const struct trace *t);
void report_header_md(struct strbuf *out, const struct trace *t);
void report_header_json(struct strbuf *out, const struct trace *t);

/* Sort a table by the column whose machine name or title matches `col`
 * (case-insensitive), or for the key_averages and events tables the
 * column PyTorch's sort_by key `col` names (keyavg_sort_column); numbers
 * descending, text ascending. False when no column matches. */
bool report_sort_table(struct table *tab, const char *col);

#endif
