/* The analyses of one loaded trace, built once and shared by the report
 * command and the explorer so both show the same numbers. */
#ifndef TORCHTOP_CORE_ANALYSIS_H
#define TORCHTOP_CORE_ANALYSIS_H

#include "core/analysis/gputime.h"
#include "core/analysis/hta.h"
#include "core/analysis/opstats.h"
#include "core/analysis/timeline.h"
#include "core/trace/trace.h"

struct analysis {
    const struct trace *t;           /* borrowed; must outlive the analysis */
    struct gputime *gt;              /* GPU time per host event (lazy) */
    struct opstats *ops;             /* launcher instances */
    struct timeline_breakdown bd[2]; /* all devices: [0] every GPU event, [1] linked only */
    bool have_bd[2];                 /* bd[i] computed */
    struct hta *hta;                 /* HTA's view (analysis_hta), NULL: not built or dropped */
    bool recompute_on;               /* analysis_mark_recompute was called: tables
                                        tell recomputed ops apart */
    uint8_t *recompute;              /* per event, 1 = recomputed (recompute.h);
                                        NULL when off or the trace has none */
    uint32_t recompute_regions;      /* recompute_fn frames found */
};

/* Mark activation checkpointing's recomputed ops (recompute.h): the ops,
 * unique-args and roofline tables built afterwards get an is_recompute
 * column and split their rows by it, as TraceLens's detect_recompute.
 * Idempotent. */
void analysis_mark_recompute(struct analysis *a);
/* Whether event ev is recomputed (false when marking is off). */
static inline bool analysis_is_recompute(const struct analysis *a, uint32_t ev)
{
    return a->recompute && a->recompute[ev];
}

/* Build for an indexed trace. */
struct analysis *analysis_new(const struct trace *t);
void analysis_free(struct analysis *a);

/* The GPU timeline breakdown of all devices merged, over every GPU event
 * or, with linked_only, those a runtime call launched; computed on first
 * use and owned by a. Not thread-safe. */
const struct timeline_breakdown *analysis_breakdown(struct analysis *a, bool linked_only);
/* Keep bd as that breakdown: one computed by timeline_breakdown(a->t,
 * linked_only, -1, bd) elsewhere, e.g. on another thread while a was
 * built. */
void analysis_put_breakdown(struct analysis *a, bool linked_only,
                            const struct timeline_breakdown *bd);

/* HTA's view of the trace (core/analysis/hta.h), built on first use and
 * owned by a, so that every HTA table of one analysis reads one view.
 * Read-only once returned; not thread-safe to build. */
const struct hta *analysis_hta(struct analysis *a);
/* Free HTA's view (its memory back once no more HTA table is to be
 * built); the next analysis_hta builds it again. */
void analysis_hta_drop(struct analysis *a);

#endif
