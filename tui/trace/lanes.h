/* Timeline lanes: the busy intervals of one GPU stream (per class:
 * computation, communication, memcpy; gpuclass_bucket() of core/trace/tree.h) or of
 * one thread's CPU ops, binned into screen columns, and the event at a
 * time. Pure (no curses). */
#ifndef TORCHTOP_TUI_LANES_H
#define TORCHTOP_TUI_LANES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/interval.h"
#include "core/base/vec.h"
#include "core/trace/trace.h"

enum lane_class { LC_COMP, LC_COMM, LC_MEMCPY, LC_CPU, LC__COUNT };

struct lane {
    uint32_t row;          /* trace row */
    bool cpu;              /* a thread's CPU ops, else a GPU stream */
    bool only_kernels;     /* a GPU lane without copies or sets */
    ivals_t iv[LC__COUNT]; /* disjoint busy intervals per class */
    VEC(uint32_t) evs;     /* a GPU lane's events by start (a CPU lane: none) */
};

/* One bar of a GPU lane drawn in ncols columns over [t0, t1): columns
 * [c0, c1] show one event (n == 1; an event that covers more than half of
 * a column has those columns to itself) or n events none of which covers
 * half of any of them (merged). Bars are in time order and never share a
 * column; idle columns are in none. */
struct lane_bar {
    int c0, c1;
    uint32_t n;  /* events the bar holds */
    uint32_t ev; /* the event of a bar of one, else the first held */
    bool marked; /* holds the event `mark` given to lane_bars */
};
typedef VEC(struct lane_bar) lane_bars_t;

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

/* The bars of a GPU lane (none for a CPU lane) in ncols columns over
 * [t0, t1), into out (emptied first). At most a few events per column are
 * looked at, so the cost follows the columns, not the events in view: in a
 * column where many start, the skipped ones are counted (by position) but
 * taken to cover less than half of it. The bar holding `mark` (an event,
 * or IDX_NONE) is marked: the merged bar it falls in, else the bar of its
 * first column. */
void lane_bars(const struct lane *l, const struct trace *t, int64_t t0, int64_t t1, int ncols,
               uint32_t mark, lane_bars_t *out);

/* Threads with CPU ops: the CPU lanes a timeline can show. */
int lanes_cpu_threads(const struct trace *t);

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
