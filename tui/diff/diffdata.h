/* What a trace diff's document shows, shared by its panes and its detail:
 * the two traces compared, the per-name diff, the merged call tree (core/diff),
 * each side's GPU total in the steps compared and, built when the detail
 * first needs one, each side's roofline. */
#ifndef TORCHTOP_TUI_DIFFDATA_H
#define TORCHTOP_TUI_DIFFDATA_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/base/table.h"
#include "core/diff/diffreport.h"
#include "core/diff/difftree.h"
#include "core/diff/tracediff.h"

struct roofline;

struct diffdata {
    struct trace *t[2];        /* control, test (owned) */
    struct tracediff *td;      /* owned */
    struct diffreport_ctx ctx; /* the merged tree and each side's analysis (owned) */
    int64_t gpu_total[2];      /* ns of GPU events in the steps compared (§12.3) */
    struct roofline *rl[2];    /* each side's roofline for the detail, NULL until needed */
};

/* The data of td (taken over, with the two traces it compares, which must
 * be indexed; td made with opts.keep_events): builds the merged tree and
 * the GPU totals. */
struct diffdata *diffdata_new(struct tracediff *td);
void diffdata_free(struct diffdata *dd);

/* Whether a column of a diff table holds a change (test - control). */
bool diffdata_change_col(const struct table_col *c);

/* The roofline of side k, built (with its analysis) on first use; NULL
 * when it cannot be. */
struct roofline *diffdata_roofline(struct diffdata *dd, int k);

/* "+1.23 ms (+4.5 %)": the change from a to b with its sign and its share
 * of a. */
void diffdata_change_text(struct strbuf *out, int64_t a, int64_t b, bool ascii);
/* "control: LABEL  GPU 1.23 ms  ProfilerStep#6  DEVICE  FILE", text from
 * the trace sanitized; what is cut on a narrow screen comes last. */
void diffdata_side_text(const struct diffdata *dd, int k, struct strbuf *out, bool ascii);

#endif
