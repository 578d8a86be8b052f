/* Kernel categories by kernel name. */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "core/analysis/kerncat.h"
#include "core/trace/trace.h"

static const char *const kerncat_names[] = {
#define KERNCAT_NAME(id, name) name,
    KERNCAT_INFO(KERNCAT_NAME)
#undef KERNCAT_NAME
};

const char *kerncat_name(enum kerncat c)
{
    return (unsigned)c < KERNCAT__COUNT ? kerncat_names[c] : "?";
}

/* Case-insensitive substring search (names are ASCII identifiers). */
static bool has(const char *s, const char *pat)
{
    size_t n = strlen(pat);
    for (; *s; s++)
        if (strncasecmp(s, pat, n) == 0)
            return true;
    return false;
}

static bool has_any(const char *s, const char *const *pats)
{
    for (; *pats; pats++)
        if (has(s, *pats))
            return true;
    return false;
}

enum kerncat kerncat_classify(unsigned ev_kind, const char *name)
{
    /* Order matters: communication before everything (an all-reduce kernel
     * may be "fused"), MoE before GEMM (MoE GEMMs are "matmul_ogs" or
     * "fused_moe" and belong to the expert layer), attention before norm
     * ("paged_attention...norm" variants), norm before elementwise. */
    static const char *const comm[] = {
        "nccl",          "rccl",           "allreduce", "all_reduce",   "allgather", "all_gather",
        "reducescatter", "reduce_scatter", "alltoall",  "cross_device", NULL};
    static const char *const moe[] = {"moe",         "matmul_ogs", "topk",         "routing",
                                      "bitmatrix",   "expert",     "scatter_bf16", "sorttokens",
                                      "sort_tokens", NULL};
    static const char *const attn[] = {
        "attention", "attn", "flash", "fmha", "mha_", "paged", "sdpa", "reshape_and_cache", NULL};
    static const char *const gemm[] = {"gemm",     "cijk_", "gemv",    "matmul",
                                       "wvsplitk", "nvjet", "cutlass", "cublas",
                                       "hipblas",  "_mm_",  NULL};
    static const char *const norm[] = {"norm", NULL};
    static const char *const elem[] = {"elementwise", "vectorized", "triton_poi", "rotary",
                                       "copy",        "fill",       "activation", "silu",
                                       "gelu",        "unrolled",   "pad",        NULL};
    if (ev_kind == EVK_MEMCPY)
        return KERNCAT_MEMCPY;
    if (ev_kind == EVK_MEMSET)
        return KERNCAT_MEMSET;
    if (!name)
        return KERNCAT_OTHER;
    if (has_any(name, comm))
        return KERNCAT_COMMUNICATION;
    if (has_any(name, moe))
        return KERNCAT_MOE;
    if (has_any(name, attn))
        return KERNCAT_ATTENTION;
    if (has_any(name, gemm))
        return KERNCAT_GEMM;
    if (has_any(name, norm))
        return KERNCAT_NORM;
    if (has_any(name, elem))
        return KERNCAT_ELEMENTWISE;
    return KERNCAT_OTHER;
}
