/* MoE token routing (TraceLens's MoE_comm sheet): MoEDispatch sends each
 * rank's tokens to the ranks holding their experts, MoECombine brings the
 * experts' outputs back. Pure communication, as TraceLens's MoEComm
 * (PerfModel/perf_model.py, docs/metrics.md §7.15) models it:
 *
 *   FLOPs = 0
 *   bytes = tokens · hidden · bpe      (Input Dims 0 = [tokens, hidden])
 *
 * with no compute spec, hence no roofline time. */
#include "config.h"

#include "core/roofline/perfmodel.h"

enum { P_TOKENS, P_HIDDEN, P_BPE };

static bool model_moe_comm(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 0) || a->dims[0].nd < 2 || a->dims[0].d[0] < 0 ||
        a->dims[0].d[1] < 0)
        return false;
    int64_t tokens = a->dims[0].d[0], hidden = a->dims[0].d[1];
    int bpe = pm_tl_dtype_bytes(shapes_args_type(a, 0));
    if (!bpe) {
        r->why = "the tokens' dtype has no known size";
        return false;
    }
    pm_set_int(r, P_TOKENS, tokens);
    pm_set_int(r, P_HIDDEN, hidden);
    pm_set_int(r, P_BPE, bpe);
    r->model = "moe comm v1";
    r->flops = 0;
    r->bytes = (double)tokens * (double)hidden * bpe;
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

const struct pm_model pm_moe_comm_models[] = {
    {"MoEDispatch", PM_MOE_COMM, PM_NONE, model_moe_comm, NULL},
    {"MoECombine", PM_MOE_COMM, PM_NONE, model_moe_comm, NULL},
};
const size_t pm_moe_comm_count = ARRAY_SIZE(pm_moe_comm_models);
