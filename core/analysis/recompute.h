/* Activation checkpointing's recomputed forward ops (docs/metrics.md §3.8):
 * torch.utils.checkpoint runs a checkpointed region's forward again during
 * the backward pass, under its Python frame `recompute_fn`
 * (torch/utils/checkpoint.py). As TraceLens's detect_recompute, every
 * event in the call tree under such a frame is marked recomputed; the
 * first forward is not. */
#ifndef TORCHTOP_CORE_RECOMPUTE_H
#define TORCHTOP_CORE_RECOMPUTE_H

#include <stdint.h>

#include "core/trace/trace.h"

/* Marks per event (1 = recomputed), t->ev.n of them, owned by the caller
 * (free); NULL when the trace has no recompute_fn frame. *nregions (may be
 * NULL) gets the number of such frames. */
uint8_t *recompute_marks(const struct trace *t, uint32_t *nregions);

/* Whether event name s is torch.utils.checkpoint's recompute frame. */
bool recompute_is_root_name(const char *s);

#endif
