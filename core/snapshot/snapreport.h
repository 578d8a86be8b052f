/* Report tables of a CUDA memory snapshot (`torchtop report SNAPSHOT.pickle`).
 *
 * Tables (machine names; docs/metrics.md §10):
 *   summary   memory_summary: one row per device and an "all" row: segment
 *             totals (reserved, allocated, active, requested), block bytes
 *             by state, trace entries by action, peak allocated and when;
 *             allocator_settings: key, value (when the file has them).
 *   sites     allocation_sites: allocations grouped by traceback, largest
 *             bytes live at the peak first.
 *   segments  segments: each segment's blocks as allocated / pending-free /
 *             free bytes, the largest free block and fragmentation.
 *   trace     trace_entries: one row per trace entry (time, action, address,
 *             size, allocated bytes after it, top frame).
 * Every table owns its strings (core/base/table.h). */
#ifndef TORCHTOP_CORE_SNAPREPORT_H
#define TORCHTOP_CORE_SNAPREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot/snapshot.h"
#include "core/base/table.h"

/* Names accepted by snapshot_tables, for usage messages. */
#define SNAPSHOT_TABLE_NAMES "summary, sites, segments, trace"

/* A sites table's row ref with this bit is a free stack (see snapreport_sites);
 * stack ids stay below it (2^31 distinct stacks would take 8 GiB of offsets
 * alone). */
#define SNAPREPORT_FREE_STACK_REF 0x80000000u
/* How the sites of allocations made before recording start their name. */
#define SNAPREPORT_FREED_PREFIX "<allocated before recording> freed at "

/* Whether name is one of SNAPSHOT_TABLE_NAMES. */
bool snapshot_table_known(const char *name);

/* Append to out the tables named `table` (see above); NULL appends summary,
 * sites and segments (the trace table has one row per entry, millions in
 * large files, so it is produced only when named). The sites table holds
 * every site and prints `sites_shown` of them when no --top is given
 * (top_default; 0 = every site). Unknown names append nothing. */
void snapshot_tables(const struct snapshot *s, const char *table, size_t sites_shown,
                     struct table_list *out);

/* The single tables, for the explorer views. Each returns a new table the
 * caller frees with table_free (or hands to a table_list). */
struct table *snapreport_summary(const struct snapshot *s);
/* NULL when the file has no allocator_settings. */
struct table *snapreport_settings(const struct snapshot *s);
/* Sites of device dev (IDX_NONE = all), grouped by the whole stack (depth
 * 0) or its first `depth` visible frames; every site, `printed` of them
 * printed when no --top is given (top_default; 0 = all). Row refs are
 * stack ids: the site's allocation stack, or for a site of allocations made
 * before recording (snap_site.free_stack) SNAPREPORT_FREE_STACK_REF | the
 * stack of their free; such a site is named SNAPREPORT_FREED_PREFIX and the
 * frame of its free. */
struct table *snapreport_sites(const struct snapshot *s, uint32_t dev, unsigned depth,
                               size_t printed);
/* Row refs are segment indices. */
struct table *snapreport_segments(const struct snapshot *s);
/* Entries of device dev (IDX_NONE = all). Row refs are indices into s->entries. */
struct table *snapreport_trace(const struct snapshot *s, uint32_t dev);

#endif
