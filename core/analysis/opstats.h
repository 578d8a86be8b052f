/* GPU time by launcher op (docs/metrics.md §3): TraceLens's ops_summary,
 * ops_summary_by_category and ops_unique_args tables.
 *
 * A launcher instance is an op (or, with no op above it, a runtime call)
 * that launched GPU work directly. Communication kernels are left out of
 * these tables; a launcher whose only GPU work is communication is not a
 * row. Times are union lengths (gputime.h), so concurrent kernels on two
 * streams count once. */
#ifndef TORCHTOP_CORE_OPSTATS_H
#define TORCHTOP_CORE_OPSTATS_H

#include <stdint.h>

#include "core/analysis/gputime.h"
#include "core/analysis/opcat.h"
#include "core/base/strbuf.h"
#include "core/base/table.h"
#include "core/trace/trace.h"

struct launcher {
    uint32_t ev;           /* the launcher event */
    int64_t direct;        /* ns, union of its own non-comm GPU work */
    int64_t subtree;       /* ns, union of non-comm GPU work in its subtree */
    uint32_t first_kernel; /* its earliest GPU event */
    uint8_t cat;           /* enum opcat */
};

struct opstats {
    const struct trace *t;
    struct gputime *gt; /* borrowed */
    struct launcher *l; /* launcher instances, event order */
    size_t n;
    bool recompute_on;        /* tables split rows by recompute (is_recompute
                                 column), analysis_mark_recompute */
    const uint8_t *recompute; /* borrowed marks per event, NULL: none */
};

/* Collect launcher instances; borrows t and gt (which must outlive it). */
struct opstats *opstats_new(const struct trace *t, struct gputime *gt);
void opstats_free(struct opstats *s);

/* The launcher record of event ev, or NULL (a binary search of l). */
const struct launcher *opstats_find(const struct opstats *s, uint32_t ev);
/* Category of any op event: the launcher's when it is one, else by name. */
enum opcat opstats_category(const struct opstats *s, uint32_t ev);

/* ops_summary: name, count, direct/subtree time (µs sums and ms), the
 * categories seen, percent and cumulative percent of direct time. Sorted by
 * direct time. Row refs are name string ids; instances are the launchers. */
struct table *opstats_ops_table(const struct opstats *s);
/* ops_summary_by_category. Row refs are enum opcat values. */
struct table *opstats_category_table(const struct opstats *s);
/* ops_unique_args: per name + thread + Input Dims/type/Strides/Concrete
 * Inputs, count and mean/median/std/min/max/sum of direct and subtree
 * time in µs. The four lists are written as TraceLens writes them,
 * Python reprs with lists as tuples (pyval_repr): ((512,), (141, 512)),
 * ('', "it's"); empty when not recorded. */
struct table *opstats_unique_args_table(const struct opstats *s);

#endif
