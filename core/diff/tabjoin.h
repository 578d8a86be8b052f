/* Shape-level diffs: a report table of each trace (unique-args, or the
 * roofline sheets) joined on op and shapes, with both sides' counts, GPU
 * time and rate and the change (docs/metrics.md §12.2).
 *
 * The tables returned are new and owned by the caller; the inputs are only
 * read. */
#ifndef TORCHTOP_CORE_TABJOIN_H
#define TORCHTOP_CORE_TABJOIN_H

#include "core/base/table.h"

enum tabjoin_kind {
    TABJOIN_UNIQUE_ARGS, /* ops_unique_args: name and the four argument columns */
    TABJOIN_ROOFLINE,    /* a roofline sheet: name and the "param: " columns but strides
                            and transpose flags (layouts differ between libraries) */
};

/* Join c (control) and t (test), either of which may be NULL (the sheet is
 * missing on that side), into a table named "diff_<name>": the key
 * columns, in (both or the label of the one side), each side's count,
 * GPU time sum and mean (µs) (roofline: and TFLOP/s, total FLOPs over total
 * kernel time), and test - control; largest |Δ time| first. Rows of one
 * side with the same key (another thread) are summed. labels: the column
 * prefixes of control and test. */
struct table *tabjoin_tables(enum tabjoin_kind kind, const struct table *c, const struct table *t,
                             const char *const labels[2]);

#endif
