/* Grouped GEMM (TraceLens's GroupedGEMM sheet): Y (M, N) = the rows of
 * X (M, K) in G groups, each group times its own weight W[g] (K, N), as
 * Primus-Turbo's grouped_gemm ops run a MoE's experts. The formulas are
 * TraceLens's GroupedGemm (PerfModel/perf_model.py, docs/metrics.md §7.14):
 *
 *   FLOPs = 2·M·K·N
 *   bytes = (M·K + G·K·N)·bpe_in + M·N·bpe_out
 *
 * with bpe_in the size of Input type 0 and bpe_out that of Input type 1
 * (TraceLens's reading: the second argument is the weight, so bpe_out is
 * the weight's size).
 * - primus_turbo_grouped_gemm (fixed K): Input Dims [[M, K], [G, K, N]] or
 *   [[M, K], [G, N, K]] (whichever of W's dims 1 and 2 equals K, dim 1
 *   first).
 * - primus_turbo_grouped_gemm_variable_k: Input Dims [[M, K], [M, N]], one
 *   group (G = 1) summing the groups' work.
 * TraceLens also reads a per-group ("zipped") layout, a list of shapes per
 * argument; the profiler records a tensor list's shapes that way, which
 * torchtop's argument parser does not keep, so such a row is no_model. */
#include "config.h"

#include <math.h>

#include "core/roofline/perfmodel.h"

enum { P_M, P_K, P_N, P_G, P_BPE_IN, P_BPE_OUT };

/* M, K, N, G read; the rest is shared. */
static bool finish(const struct pm_ctx *c, struct pm_result *r, int64_t m, int64_t k, int64_t n,
                   int64_t g)
{
    const struct op_args *a = c->a;
    const char *din = shapes_args_type(a, 0);
    const char *dout = a->n > 1 ? shapes_args_type(a, 1) : din;
    int bin = pm_tl_dtype_bytes(din), bout = pm_tl_dtype_bytes(dout);
    if (!bin || !bout) {
        r->why = "an operand's dtype has no known size";
        return false;
    }
    pm_set_int(r, P_M, m);
    pm_set_int(r, P_K, k);
    pm_set_int(r, P_N, n);
    pm_set_int(r, P_G, g);
    pm_set_int(r, P_BPE_IN, bin);
    pm_set_int(r, P_BPE_OUT, bout);
    pm_set_spec(r, "matrix", din);
    r->model = "grouped gemm v1";
    double mk = (double)m * (double)k;
    r->flops = 2.0 * mk * (double)n;
    r->bytes = (mk + (double)g * (double)k * (double)n) * bin + (double)m * (double)n * bout;
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

static bool positive(const struct shape *s, int nd)
{
    for (int i = 0; i < nd; i++)
        if (s->d[i] <= 0)
            return false;
    return true;
}

/* primus_turbo::grouped_gemm and its aliases (a [M, K], b [G, K, N] or
 * [G, N, K], group_lens, ...). */
static bool model_grouped_gemm(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 1) || a->dims[0].nd < 2 || a->dims[1].nd != 3 ||
        !positive(&a->dims[0], 2) || !positive(&a->dims[1], 3))
        return false;
    int64_t m = a->dims[0].d[0], k = a->dims[0].d[1], g = a->dims[1].d[0], n;
    if (a->dims[1].d[1] == k)
        n = a->dims[1].d[2];
    else if (a->dims[1].d[2] == k)
        n = a->dims[1].d[1];
    else
        return false;
    return finish(c, r, m, k, n, g);
}

/* primus_turbo::grouped_gemm_variable_k and its aliases (a [M, K],
 * b [M, N], ...): one group. */
static bool model_grouped_gemm_variable_k(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 1) || a->dims[0].nd != 2 || a->dims[1].nd != 2 ||
        !positive(&a->dims[0], 2) || !positive(&a->dims[1], 2))
        return false;
    return finish(c, r, a->dims[0].d[0], a->dims[0].d[1], a->dims[1].d[1], 1);
}

const struct pm_model pm_grouped_gemm_models[] = {
    {"primus_turbo::grouped_gemm", PM_GROUPED_GEMM, PM_NONE, model_grouped_gemm, NULL},
    {"primus_turbo::grouped_gemm_impl", PM_GROUPED_GEMM, PM_NONE, model_grouped_gemm, NULL},
    {"primus_turbo_cpp_extension::grouped_gemm", PM_GROUPED_GEMM, PM_NONE, model_grouped_gemm,
     NULL},
    {"primus_turbo_cpp_extension::ck_grouped_gemm", PM_GROUPED_GEMM, PM_NONE, model_grouped_gemm,
     NULL},
    {"primus_turbo::grouped_gemm_variable_k", PM_GROUPED_GEMM, PM_NONE,
     model_grouped_gemm_variable_k, NULL},
    {"primus_turbo::grouped_gemm_variable_k_impl", PM_GROUPED_GEMM, PM_NONE,
     model_grouped_gemm_variable_k, NULL},
    {"primus_turbo_cpp_extension::grouped_gemm_variable_k", PM_GROUPED_GEMM, PM_NONE,
     model_grouped_gemm_variable_k, NULL},
    {"primus_turbo_cpp_extension::ck_grouped_gemm_variable_k", PM_GROUPED_GEMM, PM_NONE,
     model_grouped_gemm_variable_k, NULL},
};
const size_t pm_grouped_gemm_count = ARRAY_SIZE(pm_grouped_gemm_models);
