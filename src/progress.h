/* Load progress on stderr for batch commands: shown only when stderr is a
 * terminal and the load takes more than half a second. */
#ifndef TORCHTOP_SRC_PROGRESS_H
#define TORCHTOP_SRC_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/trace/load.h"

struct progress {
    char name[256];     /* the input's name, sanitized (display_sanitize: a
                           file name may hold terminal escapes) and cut to 40
                           columns */
    bool enabled;       /* stderr is a terminal and not quiet */
    bool shown;         /* something was drawn (erase it when done) */
    double start, last; /* monotonic seconds */
    enum load_phase phase;
    double phase_start; /* when the phase began (shown or not) */
};

void progress_init(struct progress *p, const char *name, bool quiet);
/* A load_progress_fn (core/trace/load.h); ud is the struct progress. */
void progress_update(void *ud, enum load_phase phase, uint64_t done, uint64_t total,
                     uint64_t events);
/* A trace_index_step_fn (core/trace/tree.h) for a caller that indexes
 * after the load: the index phase on the same line. */
void progress_index_step(void *ud, unsigned done, unsigned total);
void progress_done(struct progress *p);

/* Phase timings for benchmarks: with TORCHTOP_TIMING set in the
 * environment, each mark prints "torchtop: timing NAME S s" to stderr. */
struct phase_timer {
    bool enabled;
    double last;
};

void phase_timer_init(struct phase_timer *t);
void phase_timer_mark(struct phase_timer *t, const char *name);
/* The same for a phase that ended at `at` (a monotonic time from the same
 * clock, as struct progress keeps them): the next phase starts there. */
void phase_timer_mark_at(struct phase_timer *t, const char *name, double at);

#endif
