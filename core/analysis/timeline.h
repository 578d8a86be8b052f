/* GPU timeline breakdown (docs/metrics.md §2): how the span of GPU
 * activity divides into computation, exposed communication, exposed
 * memcpy and idle time. */
#ifndef TORCHTOP_CORE_TIMELINE_H
#define TORCHTOP_CORE_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

struct timeline_breakdown {
    int64_t computation;    /* |∪COMP| */
    int64_t exposed_comm;   /* |∪COMM − ∪COMP| */
    int64_t exposed_memcpy; /* |(∪MEMCPY − ∪COMP) − ∪COMM| */
    int64_t busy;           /* |∪ALL| */
    int64_t idle;           /* total − busy */
    int64_t total;          /* last GPU end − first GPU start */
    int64_t total_comm;     /* |∪COMM| */
    int64_t total_memcpy;   /* |∪MEMCPY| */
    uint64_t n_events;      /* GPU events counted */
};

/* Breakdown over GPU events of `device` (-1: all devices merged), every
 * GPU event or, with linked_only, only those a runtime call launched
 * (TraceLens's default). All zero when there is no GPU work. */
void timeline_breakdown(const struct trace *t, bool linked_only, int device,
                        struct timeline_breakdown *out);

struct analysis;

/* TraceLens's gpu_timeline table: type, time ms, percent. */
struct table *timeline_table(struct analysis *a, bool linked_only);
/* One column per device (only when there are several devices). NULL when
 * there are fewer than two. */
struct table *timeline_device_table(const struct trace *t, bool linked_only);

#endif
