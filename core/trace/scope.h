/* Scopes: the part of a trace a report covers. Every table of a scoped
 * report is the table of the trace that `torchtop export` writes for the
 * same scope: scope_apply() selects the events with export's rules
 * (export.h), writes them as export would, and loads that document back in
 * place of the whole trace, so there is one definition of what a scope
 * holds and every table is computed unchanged on it.
 *
 * Parts, which combine (an event is in the scope when every part given
 * keeps it):
 *   steps       ProfilerStep#N for N in a list of numbers and ranges
 *               ("3", "3,5", "3-5", "1,4-6"): what their windows keep;
 *   skip-steps  every step but the first K (by number): warm-up left out;
 *   window      A:B, each edge a time from the trace's first event or from
 *               the start of a step ("step5+2ms"); numbers without a unit
 *               are milliseconds (export's --window); units ns, us, ms, s;
 *   match       the subtrees of host spans (ops, annotations, ...) whose
 *               name matches a POSIX extended regular expression, with the
 *               GPU work launched inside them;
 *   iteration   the serving iterations of one kind (prefill, decode,
 *               mixed) or the steady-state window (steady): what their
 *               windows keep. Which spans they are is
 *               the caller's to find (core/roofline/iterations.h, a layer
 *               above this one), given as windows. */
#ifndef TORCHTOP_CORE_SCOPE_H
#define TORCHTOP_CORE_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/errinfo.h"
#include "core/base/strbuf.h"
#include "core/trace/export.h"
#include "core/trace/load.h"
#include "core/trace/trace.h"

#define SCOPE_MAX_RANGES 64

/* A window's edge: off_ns after the trace's first event, or after the
 * start of step `step` when at_step. */
struct scope_edge {
    bool at_step;
    int64_t step;
    int64_t off_ns;
};

struct scope {
    struct {
        int64_t lo, hi;
    } steps[SCOPE_MAX_RANGES]; /* inclusive ranges of step numbers */
    size_t nsteps;
    int64_t skip_steps; /* 0 = none */
    bool window;
    struct scope_edge from, to;
    const char *match;                        /* borrowed; NULL = none */
    const char *iteration;                    /* the kind's name, or "steady"; NULL = none */
    const struct export_window *iter_windows; /* the spans of those iterations */
    size_t n_iter_windows;                    /* (borrowed), set by the caller */
    char iter_text[96]; /* which iterations, in words ("" : "KIND iterations"), set with them */
};

/* A scope that holds the whole trace: scope_any() is false. */
void scope_init(struct scope *s);
bool scope_any(const struct scope *s);

/* Option parsers. Each returns false with a one-line message in err (size
 * 256) when the text is not what the option takes. */
bool scope_parse_steps(struct scope *s, const char *arg, char *err);
bool scope_parse_skip(struct scope *s, const char *arg, char *err);
bool scope_parse_window(struct scope *s, const char *arg, char *err);

/* The scope in words, as its options would say it: "steps 3-5, window
 * step3+2ms:step3+8ms, match 'aten::mm'" (the regular expression as given:
 * the caller sanitizes for a terminal). */
void scope_describe(const struct scope *s, struct strbuf *out);

/* Mark the events of the scope: keep[i] = 1 (keep has t->ev.n + 1
 * bytes), as export_select marks them for one selection. False with a
 * message in err (size 256) when a step is not in the trace, the regular
 * expression is bad or nothing is selected. */
bool scope_select(const struct trace *t, const struct scope *s, uint8_t *keep, char *err);

enum scope_result {
    SCOPE_OK,
    SCOPE_EMPTY, /* the scope cannot be taken (msg says why) */
    SCOPE_IO,    /* the input could not be read again (err says why) */
};

/* The trace of t's scope (t indexed) into *out: loaded with lo's linking
 * rules and threads, indexed, its path and file facts (size, gzip,
 * truncation) those of t and its scope_text set to the scope's
 * description with how much of the trace it covers. On failure *out is
 * NULL, with a message in msg (256 bytes) or err. */
enum scope_result scope_load(const struct trace *t, const struct scope *s,
                             const struct load_opts *lo, struct trace **out, char *msg,
                             struct errinfo *err);

/* scope_load in place: *t replaced by its scope. The scope is read while
 * the whole trace is still there (its events are written out as they are
 * read back, never held as a whole document), so the peak memory is the
 * two traces. When the scope cannot be taken (SCOPE_EMPTY) *t is left as
 * it was; when reading it fails (SCOPE_IO) *t is NULL. */
enum scope_result scope_apply(struct trace **t, const struct scope *s, const struct load_opts *lo,
                              char *msg, struct errinfo *err);

#endif
