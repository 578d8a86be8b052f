/* Per-kernel GPU time (TraceLens's kernel_summary, PyTorch's device kernel
 * table): every GPU event grouped by launcher category, launcher name,
 * kernel name and stream. */
#ifndef TORCHTOP_CORE_KERNSTATS_H
#define TORCHTOP_CORE_KERNSTATS_H

#include <stdbool.h>

#include "core/opstats.h"
#include "core/table.h"

/* Kernel names are shown as written (demangled first when Kineto left them
 * mangled). With linked_only, GPU events no launch claimed are left out
 * (TraceLens's default); otherwise they form rows of category "unlinked".
 * Percent of total time is against the timeline's total span. Row refs are
 * kernel name string ids; instances are the GPU events. */
struct table *kernel_summary_table(const struct opstats *s, bool linked_only);

/* The display name of a kernel name: demangled when it is mangled. The
 * result is owned by the caller (free). */
char *kernel_display_name(const char *name);

#endif
