/* Per-kernel GPU time (TraceLens's kernel_summary, PyTorch's device kernel
 * table): every kernel grouped by launcher category, launcher name,
 * kernel name and stream (docs/metrics.md §3.6). */
#ifndef TORCHTOP_CORE_KERNSTATS_H
#define TORCHTOP_CORE_KERNSTATS_H

#include <stdbool.h>

#include "core/analysis/analysis.h"
#include "core/analysis/opstats.h"
#include "core/base/table.h"

/* Kernels only (copies and memsets are in the timeline), as TraceLens's
 * kernel_summary: every kernel, linked or not; unlinked ones have a blank
 * category and launcher. Names are demangled when Kineto left them mangled.
 * Percent of total time is against the timeline's total span (linked_only
 * picks which timeline). Row refs are kernel name string ids; instances are
 * the kernel events. */
struct table *kernstats_table(struct analysis *a, bool linked_only);

/* The display name of a kernel name: demangled when it is mangled. The
 * result is owned by the caller (free). */
char *kernstats_display_name(const char *name);

#endif
