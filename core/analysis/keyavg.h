/* PyTorch's key_averages() table (docs/metrics.md §5): per op name (or
 * name + input shapes, or name + top N source frames) the self and total
 * CPU time, self and total device time and call counts.
 *
 * Rows are the events PyTorch calls FunctionEvents: cpu ops, user
 * annotations and runtime/driver calls, plus one row per GPU kernel name
 * carrying only device time. Python frames are passed through: their time
 * belongs to the ops inside them.
 *   Self CPU   = duration minus the durations of the nearest descendants
 *                that are rows themselves;
 *   Self CUDA  = sum of the durations of GPU work launched by runtime calls
 *                whose nearest enclosing op is this one;
 *   CUDA total = Self CUDA of the event and of all its descendants.
 * Columns that nothing fills are left out, as PyTorch's table does. */
#ifndef TORCHTOP_CORE_KEYAVG_H
#define TORCHTOP_CORE_KEYAVG_H

#include <stdbool.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

struct keyavg_opts {
    bool group_by_shape;   /* key: name + Input Dims */
    int group_by_stack;    /* key: name + this many nearest source frames (0 = off) */
    bool top_level_only;   /* print only the rows whose (first) event has no enclosing row
                              event; totals and percentages still count every event */
    double time_scale;     /* ns per output unit: 1e3 (µs, default), 1e6 (ms), 1e9 (s) */
    const char *time_unit; /* "us", "ms" or "s", for titles */
};

/* Rows keyed as opts says; row refs are the first instance's event;
 * instances are all events of the row. Sorted by device total, else CPU
 * total. With group_by_stack the Source Location cell holds the frames one
 * a line (COLF_LINES). */
struct table *keyavg_table(const struct trace *t, const struct keyavg_opts *opts);

/* PyTorch's EventList.table(): one row per event (cpu ops, annotations,
 * runtime calls, kernels) in start order, with the same columns for that
 * one event, its input shapes, its start, and its source frames (the
 * with_stack Python frames above it, group_by_stack or 5 of them) one a
 * line in its Source Location cell (COLF_LINES: text and md print them on
 * rows of their own below the event's). top_level_only prints only the
 * events with no enclosing op (the totals still count all). Row refs and
 * instances are the events. */
struct table *keyavg_events_table(const struct trace *t, const struct keyavg_opts *opts);

/* The column of a key_averages or events table that PyTorch's
 * table(sort_by=...) key names (self_cpu_time_total, cpu_time_total,
 * self_cuda_time_total, cuda_time_total, cpu_time, cuda_time,
 * cpu_memory_usage, self_cpu_memory_usage, cuda_memory_usage,
 * self_cuda_memory_usage, count, flops; "xpu", "privateuse1" or "device"
 * for "cuda", as PyTorch accepts them). -1 when the key is not one of
 * these, the table is another, or the column is not in it. */
int keyavg_sort_column(const struct table *tab, const char *sort_by);

#endif
