/* Allocated and reserved memory over a snapshot's trace entries, as a
 * table a chart can draw (docs/metrics.md §10.6): the workbook's memory
 * chart reads it (`torchtop report SNAPSHOT --xlsx FILE`). */
#ifndef TORCHTOP_CORE_SNAPTIMELINE_H
#define TORCHTOP_CORE_SNAPTIMELINE_H

#include <stddef.h>

#include "core/base/table.h"
#include "core/snapshot/snapshot.h"

/* Table "memory_timeline": per device with trace entries, one row per
 * point (device, entry index, t_ms, allocated_bytes, reserved_bytes,
 * mark, entries: how many entries the point stands for). A device with at most max_points entries
 * gets every entry; one with more gets one point per run of ceil(n / max_points) entries, the entry
 * of the run with the most bytes allocated (so no peak is lost between points), and the note says
 * so. The entry of the device's peak allocation has mark "peak". The caller frees the table. */
struct table *snaptimeline_table(const struct snapshot *s, size_t max_points);

#endif
