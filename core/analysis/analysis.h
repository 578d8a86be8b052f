/* The analyses of one loaded trace, built once and shared by the report
 * command and the explorer so both show the same numbers. */
#ifndef TORCHTOP_CORE_ANALYSIS_H
#define TORCHTOP_CORE_ANALYSIS_H

#include "core/analysis/gputime.h"
#include "core/analysis/opstats.h"
#include "core/trace/trace.h"

struct analysis {
    const struct trace *t;      /* borrowed; must outlive the analysis */
    struct gputime *gt;         /* GPU time per host event (lazy) */
    struct opstats *ops;        /* launcher instances */
};

/* Build for an indexed trace. */
struct analysis *analysis_new(const struct trace *t);
void analysis_free(struct analysis *a);

#endif
