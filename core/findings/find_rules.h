/* The findings' rules (docs/metrics.md, "Findings"): what each one takes
 * out of a step's critical-path graph and the evidence it keeps.
 * Internal to core/findings. */
#ifndef TORCHTOP_CORE_FIND_RULES_H
#define TORCHTOP_CORE_FIND_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/base/strtab.h"
#include "core/base/vec.h"
#include "core/critpath/critpath.h"
#include "core/findings/find_roof.h"
#include "core/findings/findings.h"

/* One piece of evidence as a rule sees it in one step: time on the path
 * under a key (an event name, a kernel sequence), interned in keys. */
struct find_item {
    uint32_t key; /* find_rule_acc.keys id */
    uint32_t ev;  /* a representative event */
    int64_t us;   /* time on the path */
};

/* What a rule gathers over the steps. */
struct find_rule_acc {
    VEC(struct find_item) items;
    struct strtab keys;
    int64_t saving_us; /* summed over the steps */
    int64_t extra[4];  /* rule-specific counts summed over the steps (find_rules.c) */
};

/* The outermost ancestors the rules ask for again and again (the op a
 * user's line called, the DataLoader around an op), remembered per event
 * so that a deep call tree costs linear time. */
struct find_memo {
    uint32_t *outer_op; /* per event, FIND_UNKNOWN until asked */
    uint32_t *loader;
    VEC(uint32_t) chain; /* scratch */
};
#define FIND_UNKNOWN (IDX_NONE - 1)
void find_rule_memo_init(struct find_memo *m, const struct trace *t);
void find_rule_memo_free(struct find_memo *m);

/* A step being examined: its graph and what the rules read of it. */
struct find_step {
    struct cp_graph *g;
    const struct trace *t;
    uint8_t *on_path;  /* per edge: on the longest path */
    uint32_t *op_edge; /* per frame row: its operator edge, IDX_NONE */
    uint8_t *claimed;  /* per edge: taken by an earlier rule (for cpu-bound) */
    uint8_t *sel;      /* per edge: what this rule takes (1) */
    float *factor;     /* per edge taken: the share of its weight left (0: all of it saved) */
    struct find_memo *memo;
    const struct find_roof *roof; /* far-from-roofline's instances, NULL when it cannot run */
    const uint8_t *recompute;     /* per event: recomputed (recompute.h), NULL: none */
};

/* Why rule k cannot run on t (a static sentence), NULL when it can; the
 * far-from-roofline rule's reason comes from find_roof_init. */
const char *find_rule_cannot(enum finding_kind k, const struct trace *t, bool has_sync,
                             const uint8_t *recompute);
/* Mark in s->sel the edges rule k takes in this step and add its evidence
 * (from the path's edges) to acc. */
void find_rule_select(enum finding_kind k, struct find_step *s, struct find_rule_acc *acc);
/* The finding's one-line statement, from what the rule gathered over
 * nsteps steps and the evidence rows (most time first). */
void find_rule_statement(enum finding_kind k, const struct find_rule_acc *acc, unsigned nsteps,
                         const struct finding *f, struct strbuf *out);

/* The recompute rule's whole-trace sum: GPU time launched by recomputed
 * ops (marks: recompute_marks), into acc before the steps. */
void find_rule_recompute_scan(const struct trace *t, const uint8_t *marks,
                              struct find_rule_acc *acc);

/* What rule k, which ran, found that is worth saying when it makes no
 * finding (recompute: the recomputed GPU time off the path;
 * far-from-roofline: the instances below the reachable share, roof NULL
 * when it cannot run), appended to
 * out; false when nothing. */
bool find_rule_status_note(enum finding_kind k, const struct find_rule_acc *acc, unsigned nsteps,
                           const struct find_roof *roof, struct strbuf *out);

/* The Python line behind event ev ("file.py(12): func"), the innermost
 * frame outside torch/ when there is one; NULL when the trace has none. */
const char *find_rule_python_line(const struct trace *t, uint32_t ev, struct strbuf *buf);

#endif
