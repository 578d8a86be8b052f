/* Which accelerator ran a trace's device work (docs/metrics.md §1.7):
 * GPUs (CUDA, ROCm) or Meta's MTIA. Everything torchtop calls GPU work
 * (evk_is_gpu) is the work of that device; the kind only changes what
 * reports and the explorer call it.
 *
 * MTIA traces record the accelerator's work as `mtia_ccp_events` on the
 * device's pid; the ones that carry `args.stream` ran on a stream and are
 * its kernels, linked to their `mtia_runtime` launch by correlation id as
 * CUDA kernels are. */
#ifndef TORCHTOP_CORE_DEVKIND_H
#define TORCHTOP_CORE_DEVKIND_H

#include <stdbool.h>

#include "core/trace/trace.h"

/* The category of MTIA's device events. */
#define DEVKIND_MTIA_CATEGORY "mtia_ccp_events"

/* Whether an event of category cat is MTIA device work: an
 * `mtia_ccp_events` event on a stream (has_stream: it carries
 * args.stream). The same category without a stream (the DMA queue's own
 * row) stays an other device event. */
bool devkind_is_mtia_work(const char *cat, bool has_stream);

/* A trace's device kind from the counts of its GPU work (evk_is_gpu) by
 * category, MTIA's (DEVKIND_MTIA_CATEGORY) and the rest: MTIA when all of
 * it is MTIA's, GPU when none is (and when there is none), MIXED else. */
enum device_kind devkind_of_counts(uint64_t n_mtia, uint64_t n_gpu);

/* What reports call the device and its work: "GPU", "MTIA" or "device". */
const char *devkind_name(enum device_kind k);

#endif
