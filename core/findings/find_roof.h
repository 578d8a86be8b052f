/* What the far-from-roofline rule knows before it looks at a step: every
 * GEMM, convolution and attention instance of the roofline (roofline.h)
 * below the reachable share of its roof, the factor its kernels would
 * shrink by at that share, and what is unusual in its shape
 * (docs/metrics.md §20, "far-from-roofline"). Internal to core/findings. */
#ifndef TORCHTOP_CORE_FIND_ROOF_H
#define TORCHTOP_CORE_FIND_ROOF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/analysis.h"
#include "core/base/strtab.h"
#include "core/base/vec.h"

/* The share of its roof a well-shaped GEMM or convolution reaches on every
 * device the roofline knows (large bf16 GEMMs reach 60-75 % of an H100's
 * peak, about half of an MI300X's), and an attention kernel
 * (FlashAttention 2 reaches 35-50 % of an H100's peak forward, less
 * backward): the saving is the time above roof / this. */
#define FIND_ROOF_REACHABLE_GEMM 0.5
#define FIND_ROOF_REACHABLE_ATTN 0.3

/* What is unusual in an instance's shape (find_roof_inst.flags). */
enum {
    FRF_ALIGN = 1 << 0, /* a dimension not a multiple of 8, 16 or 64 */
    FRF_FP32 = 1 << 1,  /* fp32 where most modelled time is bf16/fp16 */
    FRF_TINY = 1 << 2,  /* a tiny batch (GEMM M, conv N, attention B) */
};

/* An instance below the reachable share of its roof. */
struct find_roof_inst {
    uint32_t op;   /* the op whose arguments were modelled */
    uint32_t key;  /* find_roof.keys: "aten::mm 4100×4096×4096 bf16, 31 % of roof, ..." */
    float factor;  /* its kernels' time at the reachable share / their time, in [0, 1) */
    uint8_t flags; /* FRF_* */
};

struct find_roof {
    VEC(struct find_roof_inst) inst;
    uint32_t *inst_of; /* per event: the instance (index into inst) a GPU event runs for */
    struct strtab keys;
    double excess_us; /* the instances' kernel time above roof / reachable share, µs */
};

/* Prepare from a's roofline (arch as --arch, NULL: from the trace). False
 * with a static sentence in *why when the rule cannot run (no shapes, no
 * device peaks, no GEMM/convolution/attention instance); r is then empty
 * but safe to free. */
bool find_roof_init(struct find_roof *r, struct analysis *a, const char *arch, const char **why);
void find_roof_free(struct find_roof *r);

#endif
