/* What-if rules for the critical path (`--what-if TARGET=FACTOR`,
 * docs/metrics.md §18.5): which edges of a graph run FACTOR times as long.
 *
 * TARGET is, tried in this order:
 *   - a bound class (critpath_bound_name: cpu_bound, gpu_compute_bound,
 *     gpu_communication_bound, gpu_kernel_launch_overhead,
 *     gpu_kernel_kernel_overhead, data_loading): every edge of the graph
 *     HTA would classify so;
 *   - an edge type (critpath_edge_type_name: critical_path_operator, ...):
 *     every edge of that type;
 *   - re:REGEX: a POSIX extended regular expression (regcomp), matched
 *     anywhere in event names, with the name rule below;
 *   - else an event name, matched whole: the operator edges attributed to
 *     an event of that name (its own time, not its children's) and the
 *     spans of GPU work launched inside such an op, at any depth
 *     (critpath_edge_of_event). A kernel name scales that kernel's spans;
 *     a launch call's name only the calls' own spans.
 * FACTOR is a decimal number from 0 to 1000. */
#ifndef TORCHTOP_CORE_CP_WHATIF_H
#define TORCHTOP_CORE_CP_WHATIF_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/critpath/critpath.h"

#define CP_WHATIF_MAX_FACTOR 1000.0

enum cp_whatif_kind { CPW_BOUND, CPW_EDGE_TYPE, CPW_REGEX, CPW_NAME };

struct cp_whatif_rule {
    const char *spec; /* as given (borrowed) */
    char *target;     /* the part before the last '=' (for CPW_REGEX, after "re:") */
    double factor;
    uint8_t kind;  /* enum cp_whatif_kind */
    uint8_t cls;   /* CPW_BOUND: enum cp_bound; CPW_EDGE_TYPE: enum cp_edge_type */
    regex_t re;    /* CPW_REGEX */
    uint8_t *memo; /* per strtab id of memo_for: 0 not tried, 1 no match, 2 match */
    size_t nmemo;
    const struct trace *memo_for;
};

/* Parse `spec` (TARGET=FACTOR, split at the last '='); false with a
 * message in err (size 256) naming the fault. The rule borrows spec. */
bool cp_whatif_parse(const char *spec, struct cp_whatif_rule *r, char *err);
void cp_whatif_free(struct cp_whatif_rule *r);
/* The rule that `name` (an event name taken whole, whatever it looks like:
 * never a bound, an edge type or a regex) runs `factor` times as long:
 * what the explorer asks of a row. Free with cp_whatif_free. */
void cp_whatif_name_rule(struct cp_whatif_rule *r, const char *name, double factor);

/* Whether rule r takes edge e of g. */
bool cp_whatif_matches(struct cp_whatif_rule *r, const struct cp_graph *g, uint32_t e);

/* A critpath_factor_fn over rules (ud: struct cp_whatif_set): the factor
 * of the first rule that takes the edge, -1 when none does. */
struct cp_whatif_set {
    struct cp_whatif_rule *v;
    size_t n;
};
double cp_whatif_factor(const struct cp_graph *g, uint32_t e, void *set);

#endif
