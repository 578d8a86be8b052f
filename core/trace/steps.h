/* Profiler steps: the spans named "ProfilerStep#N" that torch.profiler
 * writes around each step (user annotations; ops in pre-1.10 traces).
 * One definition for every part of torchtop that picks a step by number
 * (export, scopes) or summarizes a trace per step. */
#ifndef TORCHTOP_CORE_STEPS_H
#define TORCHTOP_CORE_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "core/trace/trace.h"

struct trace_step {
    int64_t n;        /* N of ProfilerStep#N */
    int64_t from, to; /* ns, event clock: from the earliest start of a span of
                         that name to the latest end (a step written on two
                         threads covers both) */
};

/* The steps of t, by number; *out (caller frees) gets the array. Spans
 * named "ProfilerStep#N" with N a decimal integer that are host spans with
 * phase X count; others are ignored. */
size_t steps_list(const struct trace *t, struct trace_step **out);

/* One ProfilerStep#N host span as recorded (a step written on two threads
 * is two spans), for the analyses that summarize a trace per step span. */
struct step_span {
    uint32_t ev;     /* the ProfilerStep#N event */
    int64_t ts, end; /* ns relative to base_ns */
};

/* The ProfilerStep spans of t in start order, malloc'd (NULL when none);
 * *n their number. Any host span whose name starts "ProfilerStep#" counts. */
struct step_span *steps_spans(const struct trace *t, size_t *n);

/* Step n's window into *from, *to; false when t has no such step. */
bool steps_find(const struct trace *t, int64_t n, int64_t *from, int64_t *to);

#endif
