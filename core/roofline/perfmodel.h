/* Performance models (docs/metrics.md §7): op name -> model; a model turns
 * one op instance's recorded arguments into the parameters that identify its
 * "parameter combination", its FLOPs, bytes moved and compute spec.
 *
 * Each op family lives in its own file (perf_gemm.c, perf_conv.c,
 * perf_attn.c, perf_eltwise.c, perf_reduce.c, perf_norm.c, perf_rope.c,
 * perf_triton.c, perf_moe.c, perf_moe_fused.c, perf_grouped_gemm.c,
 * perf_moe_comm.c, perf_xent.c, perf_softmax.c) as a table of
 * struct pm_model; adding an op is one line there, adding a family is one
 * file plus one line in perfmodel.c (perf_infattn.c: inference attention). The sheets (tables) and
 * their parameter columns are TraceLens's, so its CSVs can be diffed.
 *
 * Model version "v1" follows TraceLens 171dd74 except where docs/metrics.md §7 and
 * the man page say otherwise: convolution bias counted, attention bytes at
 * the real dtype, reductions' output size from their dim/keepdim
 * arguments, convolution backward honouring output_mask. Every result also
 * carries TraceLens's own FLOPs and bytes (tl_flops, tl_bytes) so a report
 * can show both. */
#ifndef TORCHTOP_CORE_PERFMODEL_H
#define TORCHTOP_CORE_PERFMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis/shapes.h"
#include "core/roofline/inductor_cache.h"
#include "core/roofline/iterann.h"

/* Sheets, in report order; the names are TraceLens's sheet names. */
#define PM_SHEET_INFO(_)                                                                           \
    _(PM_GEMM, "GEMM")                                                                             \
    _(PM_GEMM_BWD, "GEMM_bwd")                                                                     \
    _(PM_CONV_FWD, "CONV_fwd")                                                                     \
    _(PM_CONV_BWD, "CONV_bwd")                                                                     \
    _(PM_SDPA_FWD, "SDPA_fwd")                                                                     \
    _(PM_SDPA_BWD, "SDPA_bwd")                                                                     \
    _(PM_BINARY, "BinaryElementwise")                                                              \
    _(PM_UNARY, "UnaryElementwise")                                                                \
    _(PM_REDUCE_FWD, "Reduce_fwd")                                                                 \
    _(PM_REDUCE_BWD, "Reduce_bwd")                                                                 \
    _(PM_NORM, "Normalization")                                                                    \
    _(PM_INFER_ATTN, "InferenceAttention_fwd")                                                     \
    _(PM_RMSNORM, "RMSNorm_fwd")                                                                   \
    _(PM_ROPE, "RoPE_fwd")                                                                         \
    _(PM_TRITON, "triton")                                                                         \
    _(PM_MOE_UNFUSED, "MoE_unfused_fwd")                                                           \
    _(PM_MOE_FUSED, "MoE_fused_fwd")                                                               \
    _(PM_GROUPED_GEMM, "GroupedGEMM_fwd")                                                          \
    _(PM_MOE_COMM, "MoE_comm_fwd")                                                                 \
    _(PM_XENT, "CrossEntropy_fwd")                                                                 \
    _(PM_SOFTMAX, "Softmax_fwd")

enum pm_sheet {
#define PM_SHEET_ENUM(id, name) id,
    PM_SHEET_INFO(PM_SHEET_ENUM)
#undef PM_SHEET_ENUM
        PM__COUNT,
    PM_NONE = PM__COUNT
};

const char *pm_sheet_name(enum pm_sheet s);

/* A parameter column of a sheet. */
struct pm_param_def {
    const char *col; /* column name, "param: M" */
    const char *key; /* short name, "M" */
    bool is_int;     /* an integer column (else Python-repr text) */
    bool optional;   /* a column of one model of a sheet shared by several:
                        tables leave it out where no row sets it, as
                        TraceLens's sheets have the columns of the models
                        they hold */
};

/* The parameter columns of a sheet, in TraceLens's order; *n gets the count. */
const struct pm_param_def *pm_sheet_params(enum pm_sheet s, size_t *n);

#define PM_MAX_PARAMS 28
#define PM_TEXT_MAX 2048

/* What a model says about one instance. */
struct pm_result {
    enum pm_sheet sheet;
    double flops;    /* NaN when it cannot be known */
    double bytes;    /* NaN when it cannot be known */
    double tl_flops; /* TraceLens 171dd74's value (NaN: it has none) */
    double tl_bytes;
    char spec[24];               /* compute spec, "matrix_bf16"; "" when none */
    const char *model;           /* static: model id and version, "conv v1" */
    const char *name;            /* static: the pseudo op the instance is
                                    (one kernel of the op, perf_moe.c),
                                    NULL for the op itself */
    const char *differs;         /* static: why flops/bytes differ from
                                    TraceLens's, NULL when they do not */
    const char *why;             /* static: why the model could not be
                                    evaluated (pm_eval false), NULL when
                                    the arguments just do not fit */
    uint8_t nparams;             /* = the sheet's parameter count */
    uint16_t off[PM_MAX_PARAMS]; /* into text; UINT16_MAX = empty */
    size_t len;
    char text[PM_TEXT_MAX]; /* parameter values, NUL-separated */
};

/* Value of parameter i as text (ints in decimal), NULL when empty. */
const char *pm_param(const struct pm_result *r, size_t i);

/* What the caller knows beyond the op's own arguments. */
struct pm_ctx {
    const char *op;               /* op name */
    const struct op_args *a;      /* its arguments */
    bool bwd;                     /* model the backward of this forward op
                                     (through the forward<->backward link);
                                     the kernel time is the backward's */
    const struct op_args *linked; /* optional: the arguments of the op on the
                                     other side of the link (for a forward
                                     op, the backward op of the same family
                                     under its backward node), or NULL */
    const char *linked_op;        /* that op's name (with linked) */
    const char *const *kernels;   /* names of the kernels the op runs, in
                                     launch order (nkernels of them) */
    size_t nkernels;
    const struct iterann *iter; /* the sums of the serving step the op
                                   runs under (iterann.h), NULL when no
                                   iteration annotation encloses it */
    double inductor_flop;       /* Inductor's estimates recorded with a
                                   Triton op (args kernel_flop, kernel_num_gb);
                                   0 when absent or not estimated */
    double inductor_num_gb;
    const char *pseudo_kernel;              /* a pseudo op (perf_moe.c): the name of the
                                               one kernel of the op it stands for, NULL
                                               when the op has none of the kind */
    uint32_t pseudo_index;                  /* that kernel's index among the op's
                                               kernels of the kind, in time order */
    uint32_t pseudo_count;                  /* how many kernels of the kind ran under
                                               the op */
    int64_t moe_topk;                       /* experts per token: the k of the TopK op
                                               under the MoE op, 4 when there is none */
    const struct inductor_kernel *inductor; /* a Triton op's kernel in the
                                               --inductor-cache directory
                                               (inductor_cache.h), NULL when
                                               none */
};

typedef bool (*pm_model_fn)(const struct pm_ctx *c, struct pm_result *r);

struct pm_model {
    const char *op;          /* exact op name */
    enum pm_sheet sheet;     /* sheet of an instance of this op */
    enum pm_sheet bwd_sheet; /* sheet of its backward through the link,
                                PM_NONE when the family has no backward
                                model or the op is itself a backward */
    pm_model_fn fn;
    /* An op modelled by parts (TraceLens's pseudo ops): the kernels under
     * it this accepts are each an instance of their own, timed by that
     * kernel (pm_ctx.pseudo_kernel); NULL for an op modelled whole. */
    bool (*part_kernel)(const char *kernel);
};

/* The model of an op name, NULL when there is none: an exact name, else
 * a name prefix (torch.compile's triton_poi_ / triton_red_ / triton_per_
 * kernels, whose names carry what they fuse). */
const struct pm_model *pm_find(const char *op);

/* Evaluate: initialise *r for the sheet (bwd ? m->bwd_sheet : m->sheet) and
 * run the model. False when the arguments do not fit the model (missing or
 * malformed shapes) or a parameter it needs was not recorded (r->why says
 * which); *r then holds whatever was filled. */
bool pm_eval(const struct pm_model *m, const struct pm_ctx *c, struct pm_result *r);

/* ------------------------------------------------------------------------ */
/* For the model files                                                      */
/* ------------------------------------------------------------------------ */

/* Setters of parameter i (index into the sheet's parameter list). */
void pm_set_text(struct pm_result *r, size_t i, const char *s);
void pm_set_int(struct pm_result *r, size_t i, int64_t v);
void pm_set_bool(struct pm_result *r, size_t i, bool v);
/* Python's repr of a float: 0.0, 0.1, 1e-05. */
void pm_set_float(struct pm_result *r, size_t i, double v);
void pm_set_tuple(struct pm_result *r, size_t i, const struct shape *s);
/* Python tuple of dtype names, NULL entries as None: ('float', None). */
void pm_set_dtypes(struct pm_result *r, size_t i, const char *const *v, int n);
/* Compute spec "<unit>_<precision of dtype>"; left empty when the dtype has
 * no precision. */
void pm_set_spec(struct pm_result *r, const char *unit, const char *dtype);
/* Bytes per element as TraceLens 171dd74 counts them, for tl_bytes:
 * shapes_dtype_bytes, except bool, which it has no size for (0). */
int pm_tl_dtype_bytes(const char *type);
/* The differs text of a result whose tl_bytes are unknown because of
 * pm_tl_dtype_bytes. */
#define PM_DIFFERS_BOOL "bool at 1 byte per element (TraceLens has no size for it)"

/* Family tables (one per model file). */
extern const struct pm_model pm_gemm_models[];
extern const size_t pm_gemm_count;
extern const struct pm_model pm_conv_models[];
extern const size_t pm_conv_count;
extern const struct pm_model pm_attn_models[];
extern const size_t pm_attn_count;
extern const struct pm_model pm_eltwise_models[];
extern const size_t pm_eltwise_count;
extern const struct pm_model pm_reduce_models[];
extern const size_t pm_reduce_count;
extern const struct pm_model pm_norm_models[];
extern const size_t pm_norm_count;
extern const struct pm_model pm_infattn_models[];
extern const size_t pm_infattn_count;
extern const struct pm_model pm_rmsnorm_models[];
extern const size_t pm_rmsnorm_count;
extern const struct pm_model pm_rope_models[];
extern const size_t pm_rope_count;
extern const struct pm_model pm_moe_models[];
extern const size_t pm_moe_count;
/* Whether a kernel is one of the grouped GEMMs of an unfused MoE op
 * (Triton's matmul_ogs), each a pseudo op of its own. */
bool perf_moe_is_gemm_kernel(const char *kernel);
/* The dimensions of a MoE op or stage, TraceLens's names: M tokens, K the
 * hidden size, N the intermediate size, E experts, topk experts per token,
 * gated (gate and up projections in one). */
struct perf_moe_dims {
    int64_t m, k, n, e, topk;
    bool gated;
};
/* TraceLens's DTYPE_TO_BYTES: bytes per element of the exact dtype names
 * its MoE models know, dflt for any other. */
double perf_moe_dtype_bytes(const char *dtype, double dflt);
/* Whether a weight's rows are 2·n (gate and up projections stacked: a
 * gated MoE), without overflowing. */
bool perf_moe_twice(int64_t rows, int64_t n);
/* E_active: the experts m tokens reach under uniform routing,
 * E·(1 − ((E − topk)/E)^m). */
double perf_moe_active_experts(int64_t e, int64_t topk, int64_t m);
/* FLOPs and bytes of one stage (TraceLens 171dd74's UnfusedMoE_Up when
 * up, else UnfusedMoE_Down), with the input's, weights' and output's bytes
 * per element: the intermediate activations (up's output, down's input)
 * are M·N·topk elements. */
void perf_moe_stage_cost(bool up, const struct perf_moe_dims *d, double ibpe, double wbpe,
                         double obpe, double *flops, double *bytes);
/* Parameters 0..7 of the MoE sheets (num_tokens, hidden_dim, inter_dim,
 * num_experts, topk, gated unless !set_gated, input_dtype, weight_dtype
 * unless NULL). */
void perf_moe_set_dims(struct pm_result *r, const struct perf_moe_dims *d, bool set_gated,
                       const char *in_dtype, const char *w_dtype);
extern const struct pm_model pm_moe_fused_models[];
extern const size_t pm_moe_fused_count;
extern const struct pm_model pm_grouped_gemm_models[];
extern const size_t pm_grouped_gemm_count;
extern const struct pm_model pm_moe_comm_models[];
extern const size_t pm_moe_comm_count;
extern const struct pm_model pm_xent_models[];
extern const size_t pm_xent_count;
extern const struct pm_model pm_softmax_models[];
extern const size_t pm_softmax_count;
/* op is a name prefix (pm_find) */
extern const struct pm_model pm_triton_models[];
extern const size_t pm_triton_count;

#endif
