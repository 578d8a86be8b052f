/* The profiler steps of a trace: its ProfilerStep#N host spans, in time
 * order, for the analyses that summarize a trace per step. */
#ifndef TORCHTOP_CORE_STEPS_H
#define TORCHTOP_CORE_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/trace/trace.h"

struct step_span {
    uint32_t ev;     /* the ProfilerStep#N event */
    int64_t ts, end; /* ns relative to base_ns */
};

/* The steps of t in start order, malloc'd (NULL when none); *n their
 * number. */
struct step_span *steps_find(const struct trace *t, size_t *n);

#endif
