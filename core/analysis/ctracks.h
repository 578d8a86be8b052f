/* Counter tracks: the series of a trace's `ph: "C"` events (GPU
 * utilization, SM efficiency, Kineto's PM-sampling counters...), kept as
 * compact (time, value) arrays (docs/metrics.md §19.3).
 *
 * Each numeric arg of a counter event is one sample of the series named
 * by the event's name and that arg's key, on the event's (pid, tid) row.
 * A series is a step function: a sample holds from its time until the
 * next sample at a later time; of samples at one time, the last in the
 * file holds (the earlier ones never take effect). */
#ifndef TORCHTOP_CORE_CTRACKS_H
#define TORCHTOP_CORE_CTRACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

struct ctrack_point {
    int64_t ts; /* ns relative to base_ns */
    double v;
};

struct ctrack_series {
    uint32_t name;     /* strtab id of the event name */
    uint32_t key;      /* strtab id of the arg key */
    uint32_t row;      /* the events' row */
    uint32_t first, n; /* its points: ctracks.pts[first .. first + n), time order */
    double min, max;   /* over all its samples */
    bool bytes;        /* values are byte counts (memory) */
};

struct ctracks {
    struct ctrack_series *s;
    size_t ns;
    struct ctrack_point *pts;
    size_t npts;
    char **labels; /* per series: its own label (ctracks_add_series), NULL = from the trace */
};

/* The counter tracks of t (none: ns == 0), series in order of first
 * appearance. */
struct ctracks *ctracks_build(const struct trace *t);
void ctracks_free(struct ctracks *c);

/* Append a series of n points (time order) labelled `label` (copied),
 * made elsewhere than from counter events (memory over time); its name
 * and key are IDX_NONE. */
void ctracks_add_series(struct ctracks *c, const char *label, const struct ctrack_point *pts,
                        size_t n, bool bytes);

/* Index into c->pts of the sample of series s in effect at ts (the last at
 * or before it), or IDX_NONE before its first. */
uint32_t ctracks_at(const struct ctracks *c, size_t s, int64_t ts);

/* The series over [from, to) ([from, to] when closed: a sample at `to`
 * counts, holding for no time): samples that fall in it, and the min, max
 * and time-weighted mean of the values in effect for some time in it (the
 * one carried in at `from` included; before the first sample the series
 * has no value). NaN when no value is in effect in the range. */
struct ctrack_stats {
    uint32_t samples;
    double min, mean, max;
};
void ctracks_stats(const struct ctracks *c, size_t s, int64_t from, int64_t to, bool closed,
                   struct ctrack_stats *out);

/* The series drawn in ncols columns over [t0, t1): out[col] is the
 * largest value in effect for some time in the column (NaN: none). */
void ctracks_columns(const struct ctracks *c, size_t s, int64_t t0, int64_t t1, int ncols,
                     float *out);

/* The series' display name: its own label when it has one, else "NAME"
 * when the event has one arg named like it or the series is its event's
 * only one, else "NAME: KEY"; into buf. */
const char *ctracks_label(const struct trace *t, const struct ctracks *c, size_t s, char *buf,
                          size_t n);

/* The counter_tracks table (one row per series and step) into out. False,
 * with a message in err (size 256), when the trace has no counter event. */
bool ctracks_tables(const struct trace *t, struct table_list *out, char *err);

#endif
