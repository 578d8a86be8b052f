/* Load progress on stderr for batch commands: shown only when stderr is a
 * terminal and the load takes more than half a second. */
#ifndef TORCHTOP_SRC_PROGRESS_H
#define TORCHTOP_SRC_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
    const char *name;   /* borrowed */
    bool enabled;       /* stderr is a terminal and not quiet */
    bool shown;         /* something was drawn (erase it when done) */
    double start, last; /* monotonic seconds */
};

void progress_init(struct progress *p, const char *name, bool quiet);
/* A load_progress_fn (core/trace/load.h); ud is the struct progress. */
void progress_update(void *ud, uint64_t done, uint64_t total, uint64_t events);
void progress_done(struct progress *p);

/* Phase timings for benchmarks: with TORCHTOP_TIMING set in the
 * environment, each mark prints "torchtop: timing NAME S s" to stderr. */
struct phase_timer {
    bool enabled;
    double last;
};

void phase_timer_init(struct phase_timer *t);
void phase_timer_mark(struct phase_timer *t, const char *name);

#endif
