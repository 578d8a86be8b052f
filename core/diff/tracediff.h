/* The HTA trace diff (TraceDiff.compare_traces and ops_diff): per name,
 * the counts and total durations of one or more iterations of a control
 * and a test trace, and their differences. docs/metrics.md §12.
 *
 * Ownership: a struct tracediff borrows both traces (they must outlive it)
 * and owns its names and rows; tracediff_free releases them. The tables it
 * builds are new and owned by the caller. */
#ifndef TORCHTOP_CORE_TRACEDIFF_H
#define TORCHTOP_CORE_TRACEDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strtab.h"
#include "core/base/table.h"
#include "core/base/vec.h"
#include "core/diff/iters.h"
#include "core/trace/trace.h"

enum tracediff_device {
    TRACEDIFF_ALL, /* both sides */
    TRACEDIFF_CPU, /* events without a GPU stream (ops, annotations, runtime calls) */
    TRACEDIFF_GPU, /* events on a GPU stream (kernels, memcpy, memset) */
};

/* Step choices besides a step number. */
#define TRACEDIFF_STEP_FIRST INT64_MIN     /* the lowest step number (HTA's default) */
#define TRACEDIFF_STEP_ALL (INT64_MIN + 1) /* every step, summed */

struct tracediff_opts {
    enum tracediff_device device;
    bool short_names;     /* group by HTA's shortened names (shortname.h) */
    bool per_step;        /* divide counts and durations by the steps taken */
    int64_t step[2];      /* control, test: a step number or TRACEDIFF_STEP_* */
    const char *label[2]; /* column prefixes; NULL for "control" and "test" */
    bool keep_events;     /* keep each event's side and step (tracediff_counts and
                             tracediff_in_step need them; the report does not) */
};

/* One name's numbers, both sides. */
struct tracediff_row {
    uint32_t name;     /* strtab id in tracediff.names */
    int64_t count[2];  /* events, control and test */
    int64_t dur_ns[2]; /* summed durations, ns */
};

struct tracediff {
    const struct trace *t[2]; /* control, test (borrowed) */
    struct tracediff_opts o;
    char *label[2];                 /* column prefixes */
    struct iters it[2];             /* steps of each side (side and of_ev only
                                       with opts.keep_events) */
    int32_t step[2];                /* index into it[k].nums; -1 for all steps or none */
    size_t nsteps[2];               /* steps taken on each side (0 when the trace has none) */
    struct strtab names;            /* names (or short names) of both sides */
    VEC(struct tracediff_row) rows; /* by name, byte order */
};

/* One side's share of a diff, computed from its trace alone so that each
 * side's can be computed on its own thread (as the trace is loaded): its
 * iterations, the step taken and, per name id of its own string table,
 * the counted events. Moved into a tracediff by tracediff_new_sides. */
struct tracediff_side {
    int64_t *nums;    /* step numbers present, ascending, each once (iters.nums) */
    size_t n;         /* count of nums */
    int32_t step;     /* index into nums; -1 for all steps or none */
    size_t nsteps;    /* steps taken (0 when the trace has none) */
    char err[320];    /* why the step asked for is not in the trace; "" when it is */
    uint32_t *ids;    /* trace strtab ids of the names counted, first seen first */
    size_t nids;      /* count of ids */
    int64_t *count;   /* per trace strtab id: events counted (NULL when nids == 0) */
    int64_t *dur_ns;  /* per trace strtab id: their summed durations, ns */
    uint8_t *ev_side; /* per event: enum iters_side, when o->keep_events; else NULL */
    int32_t *of_ev;   /* per event: index into nums or -1, when o->keep_events */
};

/* Side k (0 control, 1 test) of a diff under o: classify t's events
 * (indexed or not), pick the step and count. The result owns its arrays
 * (tracediff_side_free); a step t lacks leaves a message in out->err. */
void tracediff_side_prepare(const struct trace *t, const struct tracediff_opts *o, int k,
                            struct tracediff_side *out);
void tracediff_side_free(struct tracediff_side *s);

/* tracediff_new from sides prepared with the same options (side[0] of
 * control, side[1] of test); takes over their contents (each is left
 * empty, to be freed or not) whether or not it succeeds. */
struct tracediff *tracediff_new_sides(const struct trace *control, const struct trace *test,
                                      const struct tracediff_opts *o, struct tracediff_side side[2],
                                      char *err, size_t errn);

/* Compare control and test (both loaded; indexed or not). Returns NULL
 * with a one-line message in err (size errn) when a step asked for is not
 * in its trace or the labels are the same. A trace without any
 * ProfilerStep is taken whole (HTA refuses it); --step then refers to no
 * step and is an error. */
struct tracediff *tracediff_new(const struct trace *control, const struct trace *test,
                                const struct tracediff_opts *o, char *err, size_t errn);
void tracediff_free(struct tracediff *td);

/* What each side covers, e.g. "ProfilerStep#6", "ProfilerStep#1009-1014
 * (6 steps)" or "the whole trace (no ProfilerStep)"; into out. */
void tracediff_describe_side(const struct tracediff *td, int side, struct strbuf *out);

/* When the two sides ran on different devices (the names in their
 * deviceProperties differ), a note saying which, e.g. "the sides ran on
 * different devices: NVIDIA A100-SXM4-40GB (control), Tesla V100-SXM2-32GB
 * (test); their times compare hardware as well as code", into out; true.
 * False (out untouched) when they match or a side has no device names. */
bool tracediff_devices_note(const struct tracediff *td, struct strbuf *out);

/* HTA's compare_traces table "trace_diff": name (or short_name),
 * <control>_counts, <control>_total_duration, <test>_counts,
 * <test>_total_duration, diff_counts, diff_duration (µs),
 * counts_change_categories ("+", "-", "="); rows by name. Counts are
 * floats when per_step divides them. */
struct table *tracediff_table(const struct tracediff *td);

/* HTA's ops_diff as a table "ops_diff": change (added, deleted, increased,
 * decreased, unchanged), name, both counts and diff_counts; by change in
 * that order, then by name. */
struct table *tracediff_ops_table(const struct tracediff *td);

/* Whether event ev of side (0 control, 1 test) is in the steps compared,
 * whatever the device filter; an event HTA does not count is in none.
 * These two need a diff made with opts.keep_events. */
bool tracediff_in_step(const struct tracediff *td, int side, uint32_t ev);
/* Whether the per-name diff counts event ev of side: in the steps compared
 * and on the device asked for. */
bool tracediff_counts(const struct tracediff *td, int side, uint32_t ev);

#endif
