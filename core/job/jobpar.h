/* Work on several inputs at once: one thread per input up to a cap, each
 * taking the next index in turn. The loaders of multi-rank jobs and of the
 * two sides of a diff use it, so that traces are read concurrently in one
 * way only (parse threads per trace, the cap on traces in memory).
 *
 * fn may run on any of the threads; begin (optional) runs under the
 * runner's lock just before fn takes an index, one call at a time. fn
 * returning false stops the runner handing out further indices (those
 * under way finish). Indices are handed out in ascending order. */
#ifndef TORCHTOP_CORE_JOBPAR_H
#define TORCHTOP_CORE_JOBPAR_H

#include <stdbool.h>
#include <stddef.h>

typedef bool (*jobpar_fn)(void *ud, size_t i);
typedef void (*jobpar_begin_fn)(void *ud, size_t i, size_t n);

/* Threads worth starting for n inputs: one per core, at most max, at most
 * n, at least 1. */
size_t jobpar_workers(size_t n, size_t max);

/* Parser threads for each of `workers` traces read at once: total (the
 * --threads given, 0 = none) shared out, rounded up; without it the cores
 * shared out, at most 4 a trace (as one trace read alone gets), at least
 * 1. With one worker, total as it is (0 leaves the loader's default). */
unsigned jobpar_parse_threads(size_t workers, unsigned total);

/* Run fn over [0, n) on `workers` threads (1: on the calling thread);
 * returns whether every call ran and returned true. A thread that cannot
 * be started leaves its share to the others (to the caller when none
 * starts). */
bool jobpar_run(size_t n, size_t workers, jobpar_fn fn, jobpar_begin_fn begin, void *ud);

#endif
