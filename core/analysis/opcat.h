/* Op categories (docs/metrics.md §4), by exact op name, then name
 * patterns, then the name of the op's first kernel. The same rules as
 * TraceLens's ops_summary_by_category, so the two can be compared. */
#ifndef TORCHTOP_CORE_OPCAT_H
#define TORCHTOP_CORE_OPCAT_H

/* clang-format off */
#define OPCAT_INFO(_)                                                          \
    _(OPCAT_GEMM,        "GEMM")                                               \
    _(OPCAT_CONV_FWD,    "CONV_fwd")                                           \
    _(OPCAT_CONV_BWD,    "CONV_bwd")                                           \
    _(OPCAT_SDPA_FWD,    "SDPA_fwd")                                           \
    _(OPCAT_SDPA_BWD,    "SDPA_bwd")                                           \
    _(OPCAT_NORM_FWD,    "NORM_fwd")                                           \
    _(OPCAT_NORM_BWD,    "NORM_bwd")                                           \
    _(OPCAT_ELEMENTWISE, "elementwise")                                        \
    _(OPCAT_REDUCE,      "reduce")                                             \
    _(OPCAT_MTA,         "multi_tensor_apply")                                 \
    _(OPCAT_TRITON,      "triton")                                             \
    _(OPCAT_COMMS,       "record_param_comms")                                 \
    _(OPCAT_RMSNORM,     "RMSNorm")                                            \
    _(OPCAT_INFER_ATTN,  "InferenceAttention")                                 \
    _(OPCAT_GROUPED_GEMM, "GroupedGEMM_fwd")                                   \
    _(OPCAT_MOE_FUSED,   "MoE_fused")                                          \
    _(OPCAT_MOE_UNFUSED, "MoE_unfused")                                        \
    _(OPCAT_MOE_AUX,     "MoE_aux")                                            \
    _(OPCAT_MOE_COMM_FWD, "MoE_comm_fwd")                                      \
    _(OPCAT_MOE_COMM_BWD, "MoE_comm_bwd")                                      \
    _(OPCAT_SSM_FWD,     "SSM_fwd")                                            \
    _(OPCAT_SSM_BWD,     "SSM_bwd")                                            \
    _(OPCAT_ROPE_FWD,    "RoPE_fwd")                                           \
    _(OPCAT_ROPE_BWD,    "RoPE_bwd")                                           \
    _(OPCAT_XENT_FWD,    "CrossEntropy_fwd")                                   \
    _(OPCAT_XENT_BWD,    "CrossEntropy_bwd")                                   \
    _(OPCAT_OTHER,       "other")

enum opcat {
#define OPCAT_ENUM(id, name) id,
    OPCAT_INFO(OPCAT_ENUM)
#undef OPCAT_ENUM
    OPCAT__COUNT
};
/* clang-format on */

const char *opcat_name(enum opcat c);
/* Category from an op name alone; OPCAT_OTHER when only the kernel could
 * tell. */
enum opcat opcat_of_name(const char *op);
/* Full rule: name first, then the first kernel's name (may be NULL). */
enum opcat opcat_classify(const char *op, const char *first_kernel);

#endif
