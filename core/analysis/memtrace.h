/* Memory over time from a trace's `[memory]` instants (recorded with
 * profile_memory=True): one per allocation and free, with its size
 * (negative for a free), address, device and the allocator's totals
 * after it (docs/metrics.md §19.4). Kept as one compact array per trace,
 * not the events' args. */
#ifndef TORCHTOP_CORE_MEMTRACE_H
#define TORCHTOP_CORE_MEMTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

struct mem_event {
    int64_t ts;        /* ns relative to base_ns */
    int64_t bytes;     /* "Bytes": > 0 allocated, < 0 freed */
    int64_t allocated; /* "Total Allocated" after it (else the running sum of bytes) */
    int64_t reserved;  /* "Total Reserved" after it, -1 when not recorded */
    uint64_t addr;     /* "Addr", 0 when not recorded */
    uint32_t ev;       /* the [memory] event */
    uint32_t dev;      /* index into memtrace.devs */
};

struct mem_device {
    int32_t type; /* "Device Type": 0 CPU, 1 CUDA, ... */
    int32_t id;   /* "Device Id", -1 for the CPU */
    uint32_t n;   /* its events */
};

struct memtrace {
    struct mem_event *e; /* time order (file order at equal times) */
    size_t n;
    struct mem_device *devs; /* in order of first appearance */
    size_t ndevs;
    bool totals; /* the events carry Total Allocated (else running sums) */
};

/* The [memory] events of t (none: n == 0). */
struct memtrace *memtrace_build(const struct trace *t);
void memtrace_free(struct memtrace *m);

/* "cuda:0", "cpu", "type 3:1" into buf. */
const char *memtrace_device_name(const struct mem_device *d, char *buf, size_t n);

/* The op an allocation is counted for: the innermost cpu_op around the
 * event (IDX_NONE when none); *py the innermost Python frame around it
 * with a source line ("file.py(12): f", not "<built-in ...>"; IDX_NONE
 * when none). */
uint32_t memtrace_op(const struct trace *t, uint32_t ev, uint32_t *py);

/* memory_devices, memory_by_op and memory_curve into out. False, with a
 * message in err (size 256), when the trace has no [memory] event. */
bool memtrace_tables(const struct trace *t, struct table_list *out, char *err);

#endif
