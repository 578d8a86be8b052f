/* `torchtop report -t critical-path`: HTA's critical path per region as
 * tables (docs/metrics.md, "Critical path"). */
#ifndef TORCHTOP_CORE_CP_REPORT_H
#define TORCHTOP_CORE_CP_REPORT_H

#include <regex.h>
#include <stdbool.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

struct cp_report_opts {
    /* ANNOTATION[:INSTANCE] (HTA's annotation and instance, 0-based; "" for
     * the whole trace), NULL for every ProfilerStep#N in turn (the whole
     * trace when there is none) */
    const char *region;
    bool edges;                /* the path's edges too */
    bool lengths_only;         /* one row per region (length, share per bound) instead of
                                  the summary and the events: the per-rank view of a job */
    const char *const *whatif; /* --what-if rules (cp_whatif.h), nwhatif of them */
    size_t nwhatif;
    const char *const *data_load; /* --cp-data-load: POSIX extended regular expressions
                                     naming the data loading events
                                     (cp_frame_mark_data_loading), ndata_load of them */
    size_t ndata_load;
};

/* Compile the --cp-data-load expressions of o into re (o->ndata_load of
 * them); false with a message in err (size 256) naming the bad one, none
 * left to free. */
bool cp_report_data_load_compile(const struct cp_report_opts *o, regex_t *re, char *err);

/* Tables of the critical path of each region: the summary per bound_by
 * and the events on the path, or with lengths_only one row per region;
 * the path's edges on request; with what-if rules, each rule's new path
 * length per region (alone, and all together when there are several).
 * False with a message in err (size 256): a missing region, a bad rule. */
bool cp_report_tables(const struct trace *t, const struct cp_report_opts *o, struct table_list *out,
                      char *err);

#endif
