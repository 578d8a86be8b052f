/* Timeline lanes: the busy intervals of one GPU stream (per class:
 * computation, communication, memcpy; gpuclass_bucket() of core/trace/tree.h) or of
 * one thread's CPU ops, binned into screen columns, and the event at a
 * time. Pure (no curses). */
#ifndef TORCHTOP_TUI_LANES_H
#define TORCHTOP_TUI_LANES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/interval.h"
#include "core/trace/trace.h"

enum lane_class { LC_COMP, LC_COMM, LC_MEMCPY, LC_CPU, LC__COUNT };

struct lane {
    uint32_t row;          /* trace row */
    bool cpu;              /* a thread's CPU ops, else a GPU stream */
    ivals_t iv[LC__COUNT]; /* disjoint busy intervals per class */
};

/* Build the lane of a row (cpu: the row's cpu ops; else its GPU work). */
void lane_build(struct lane *l, const struct trace *t, uint32_t row, bool cpu);
void lane_free(struct lane *l);
/* The timeline's lanes of a trace: one per stream with GPU work (by
 * device, then stream), then the CPU lane of the thread with the most CPU
 * ops (last); *nlanes gets the count (at least 1). The caller frees each
 * with lane_free, then the array. Reads only t: safe on any thread while
 * nothing writes t. */
struct lane *lanes_build_all(const struct trace *t, int *nlanes);

/* Occupancy of ncols columns covering [t0, t1): occ[c * ncols + col] is
 * the busy fraction (0..1) of class c in column col. */
void lane_bins(const struct lane *l, int64_t t0, int64_t t1, int ncols, float *occ);

/* The lane's event at time `at`: the GPU event covering it (else the
 * nearest starting within slack ns), or the innermost CPU op covering it.
 * IDX_NONE when there is none. */
uint32_t lane_event_at(const struct lane *l, const struct trace *t, int64_t at, int64_t slack);
/* The lane's next (dir > 0) or previous event starting after / before
 * `at`; IDX_NONE at the ends. */
uint32_t lane_event_step(const struct lane *l, const struct trace *t, int64_t at, int dir);

/* Whether event ev is drawn on this lane. */
bool lane_has_event(const struct lane *l, const struct trace *t, uint32_t ev);

#endif
