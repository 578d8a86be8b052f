/* Findings: the few things worth fixing first in a trace, each with what
 * fixing it would save on the critical path and the events behind it
 * (docs/metrics.md, "Findings").
 *
 * Each rule picks, in every step's critical-path graph (critpath.h), the
 * edges its problem costs (a sync's exposed drain, a data loader's wait,
 * ...) and asks the path's what-if (critpath_whatif) how long the step
 * would be with those edges at 0: the saving, an upper bound. Savings are
 * per step; a finding never claims more than its step, and the findings
 * together are what-if'ed too, so that overlaps are said, not summed.
 *
 * Ownership: a struct findings owns its strings and arrays;
 * findings_free releases them. The trace must be indexed. */
#ifndef TORCHTOP_CORE_FINDINGS_H
#define TORCHTOP_CORE_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/analysis.h"
#include "core/base/table.h"
#include "core/base/vec.h"
#include "core/trace/trace.h"

/* clang-format off */
#define FINDING_KIND_INFO(_)                                                    \
    _(FK_SYNC,           "sync")           /* syncs that drain the GPU */         \
    _(FK_DATA_LOADING,   "data-loading")   /* waiting for the next batch */       \
    _(FK_COPY,           "copy")           /* memcpy on the path, pageable H2D */ \
    _(FK_LAUNCH_BOUND,   "launch-bound")   /* short kernels waiting for launch */ \
    _(FK_EXPOSED_COMM,   "exposed-comm")   /* collectives nothing overlaps */     \
    _(FK_CPU_BOUND,      "cpu-bound")      /* other host time on the path */      \
    _(FK_FAR_FROM_ROOF,  "far-from-roofline") /* GEMM/conv/attention far below roof */ \
    _(FK_RECOMPUTE,      "recompute")      /* checkpointing's recomputed forward */ \
    _(FK_STRAGGLER,      "straggler")      /* a job's rank the others wait for */
/* clang-format on */

enum finding_kind {
#define FK_ENUM(id, name) id,
    FINDING_KIND_INFO(FK_ENUM)
#undef FK_ENUM
        FK__COUNT
};

const char *findings_kind_name(enum finding_kind k);

/* Smallest saving a rule reports, in % of the step: below it the rule's
 * status says how much it found instead. */
#define FINDINGS_MIN_PCT 1.0

/* One evidence row: events of one name (or one kernel sequence) behind a
 * finding, with their time on the path. */
struct finding_evidence {
    char *text;     /* "name ×N, T µs on the path, at file.py(L): func" */
    uint32_t ev;    /* a representative event (trace.ev index) */
    int64_t ns;     /* time on the critical path, summed over the steps, ns */
    uint32_t count; /* occurrences */
};

struct finding {
    uint8_t kind;                          /* enum finding_kind */
    int64_t saving_us;                     /* per step (mean over the steps), an upper bound */
    double saving_pct;                     /* of the steps' path length */
    char *statement;                       /* one line with numbers */
    VEC(struct finding_evidence) evidence; /* most time first */
};

/* What happened to each rule: found, nothing found, or why it could not
 * run. */
struct finding_status {
    uint8_t kind;
    bool ran;
    int64_t saving_us; /* per step, when it ran (may be below the threshold) */
    double saving_pct;
    char *note; /* why it could not run, or what it found below the threshold */
};

struct findings {
    VEC(struct finding) v; /* largest saving first */
    struct finding_status status[FK__COUNT];
    char *region; /* the steps the numbers are over, "(whole trace)" */
    unsigned nsteps;
    int64_t step_us;      /* mean critical-path length per step */
    int64_t together_us;  /* all findings' edges at 0 together, per step */
    int rank;             /* distributedInfo.rank, -1 */
    bool no_sync;         /* the trace has no cuda_sync events */
    unsigned short_steps; /* steps left out: a truncated last step */
};

/* Run every rule over every ProfilerStep of a's trace (the whole trace
 * when there is none); arch is --arch for the roofline (NULL: from the
 * trace). A trace where no step has a path gets no finding and nsteps 0,
 * each rule's status saying why; the straggler rule runs on jobs only
 * (job_findings.h). False with a message in err (size 256) only when the
 * graph cannot be built at all. */
bool findings_run(struct analysis *a, const char *arch, struct findings *out, char *err);
void findings_free(struct findings *fs);

/* The findings as a table (kind, rank, region, saving_us, saving_pct,
 * statement, evidence), refs and instances the evidence events, and the
 * rules' status as a second table. */
void findings_tables(const struct trace *t, const struct findings *fs, struct table_list *out);

#endif
