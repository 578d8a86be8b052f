/* What kind of GPU work an event is (docs/metrics.md §2): the GPU
 * timeline's buckets. Kernels are classified by name when the trace is
 * indexed (trace_index): collective kernels count as communication, the
 * copy kernels some runtimes name as such, and MTIA's DMA transfers, as
 * memcpy. */
#ifndef TORCHTOP_CORE_GPUCLASS_H
#define TORCHTOP_CORE_GPUCLASS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/trace/trace.h"

enum gpu_bucket { BUCKET_COMP, BUCKET_COMM, BUCKET_MEMCPY };

/* The bucket of a GPU work event of an indexed trace. */
enum gpu_bucket gpuclass_bucket(const struct trace *t, uint32_t ev);

/* Whether a kernel name is a collective's (NCCL, RCCL, vLLM's custom
 * all-reduce) or a copy's (ROCm's copy kernels). */
bool gpuclass_name_is_comm(const char *name);
bool gpuclass_name_is_memcpy(const char *name);
/* Whether an MTIA kernel's name is a DMA transfer's ("dma_request"): HTA's
 * MEMORY kernels of MTIA traces, which the timeline counts as copies. */
bool gpuclass_name_is_mtia_copy(const char *name);

/* Mark t's kernels EVF_COMM or EVF_MEMCPY_LIKE by name, each distinct name
 * classified once; MTIA's kernels (devkind.h) by the MTIA rule alone. */
void gpuclass_classify(struct trace *t);

#endif
