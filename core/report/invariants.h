/* Invariants of the report tables (docs/metrics.md §17): what must hold
 * of a table whatever the trace, so that a broken one is said, not printed
 * as a silent wrong number.
 *
 *   nonnegative     times, bytes and percentages are >= 0
 *   whole counts    counts (columns named "count", "steps", "replays"...)
 *                   are whole numbers >= 0
 *   ratio           ratios lie in [0, 1]
 *   percent         percentages of a whole lie in [0, 100]
 *   rows add up     a breakdown's part rows add up to its total row (the
 *                   GPU timeline: computation + exposed comm + exposed
 *                   memcpy = busy, busy + idle = total), in each column
 *   columns add up  a row's part columns add up to its total column (HTA's
 *                   temporal breakdown, the per-rank job breakdown)
 *   sums to whole   a share column adds up to its whole over the rows, or
 *                   over each group of rows (ops' and categories' % of all
 *                   GPU time to 100, idle-time ratios per stream to 1, the
 *                   critical path's bound shares per region to 100)
 *   cumulative      a running percentage never falls and ends at 100
 *   ordered         quantiles (min <= 25% <= 50% <= 75% <= max)
 *
 * The rules are one list, by table name (invariants.c); counts apply to
 * every table. Tables of a ranking built from only its top rows
 * (rows_left_out) skip the sums over their rows. */
#ifndef TORCHTOP_CORE_REPORT_INVARIANTS_H
#define TORCHTOP_CORE_REPORT_INVARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/table.h"
#include "core/base/vec.h"

enum invariant {
    INV_NONNEG,
    INV_WHOLE,
    INV_RATIO,
    INV_PERCENT,
    INV_ROWS_SUM,
    INV_COLS_SUM,
    INV_SHARE_SUM,
    INV_CUMULATIVE,
    INV_ORDERED,
    INV__COUNT
};

/* "nonnegative", "whole counts", ... (the names above). */
const char *invariants_name(enum invariant k);

struct invariant_break {
    char *table;  /* the table's name */
    uint8_t kind; /* enum invariant */
    char *what;   /* the rows and values that break it */
};

struct invariants_report {
    uint64_t checked[INV__COUNT]; /* tables each invariant checked */
    VEC(struct invariant_break) broken;
};

/* Check table t against the rules for its name, counting into r. */
void invariants_check_table(const struct table *t, struct invariants_report *r);
/* Check every table of tl. */
void invariants_check(const struct table_list *tl, struct invariants_report *r);
/* Check every table of tl and add a note to each table with a broken
 * invariant, naming it and the rows ("invariant broken (rows add up): ...");
 * returns how many broke. Never aborts: the numbers stay as computed. */
size_t invariants_annotate(struct table_list *tl);
void invariants_report_free(struct invariants_report *r);

#endif
