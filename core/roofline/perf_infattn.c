/* Inference attention models (TraceLens's InferenceAttention): paged or
 * varlen attention over a whole serving step, vllm::unified_attention_with_output,
 * aiter::mha_varlen_fwd, aiter::fmha_v3_varlen_fwd, aiter::mha_batch_prefill;
 * and sglang's KV-cache store, on the same sheet as in TraceLens.
 * Token counts come from the iteration annotation the op runs under
 * (iterann.h): the arguments only hold the packed token tensors. FLOPs and
 * bytes are TraceLens's (docs/metrics.md §7.9). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum {
    I_SHAPE,
    I_NELEMS,
    I_DTYPE,
    I_B,
    I_NQ,
    I_HQ,
    I_HV,
    I_HK,
    I_NKV,
    I_HKV,
    I_DQK,
    I_DV,
    I_DROPOUT,
    I_CAUSAL,
    I_FLASH,
    I_CSQ,
    I_CSK,
    I_CSQSQ,
    I_CSQSK,
    I_GSQ,
    I_GSK,
    I_GSQSQ,
    I_GSQSK,
    I_DTQ,
    I_DTKV
};

/* Non-causal attention between a chunk and the cached tokens before it,
 * causal within the chunk: for the context requests, QK^T and PV over
 * sum(sq*sk) pairs less half of sum(sq^2); decode requests over sum(sq*sk). */
static double infattn_flops(double hq, double dqk, double dv, const struct iterann *s)
{
    double ctx = hq * (2.0 * (double)s->c_sqsk * dqk) + hq * (2.0 * (double)s->c_sqsk * dv) -
                 hq * ((double)s->c_sqsq * dqk) - hq * ((double)s->c_sqsq * dv);
    double gen = hq * (2.0 * (double)s->g_sqsk * dqk) + hq * (2.0 * (double)s->g_sqsk * dv);
    return ctx + gen;
}

/* Q read, output written and the step's new K/V read at the query dtype;
 * cached K/V (sk - sq tokens) at the cache dtype. */
static double infattn_bytes(double hq, double hkv, double dqk, double dv, const struct iterann *s,
                            int bpe, int bpe_kv)
{
    double sq = (double)s->c_sq + (double)s->g_sq;
    double cached = (double)(s->c_sk - s->c_sq) + (double)(s->g_sk - s->g_sq);
    double q = sq * hq * dqk + sq * hq * dv + sq * hkv * dqk + sq * hkv * dv;
    double kv = cached * hkv * dqk + cached * hkv * dv;
    return q * bpe + kv * bpe_kv;
}

/* q at argument 0 (tokens, heads, head dim), k at 1 (..., tokens, heads,
 * head dim); d_h_v from k's last dim, or from argument 2's when v_from_2. */
static bool infattn_model(const struct pm_ctx *c, struct pm_result *r, bool v_from_2)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 0) || !shapes_args_tensor(a, 1) || a->dims[0].nd != 3 ||
        a->dims[1].nd < 3)
        return false;
    const struct shape *q = &a->dims[0], *k = &a->dims[1];
    int64_t nq = q->d[0], hq = q->d[1], dqk = q->d[2];
    int64_t nkv = k->d[k->nd - 3], hkv = k->d[k->nd - 2], dv = k->d[k->nd - 1];
    if (v_from_2 && shapes_args_tensor(a, 2))
        dv = a->dims[2].d[a->dims[2].nd - 1];
    if (!c->iter) {
        r->why = "no iteration annotation with query/key sums (vLLM execute_..._context_"
                 "(sq..sk..sqsq..sqsk..), SGLang step[...], ATOM prefill/decode[...]) encloses it";
        return false;
    }
    const struct iterann *s = c->iter;
    const char *dtq = shapes_args_type(a, 0);
    const char *dtkv = a->n > 1 ? shapes_args_type(a, 1) : dtq;
    pm_set_int(r, I_B, 1);
    pm_set_int(r, I_NQ, nq);
    pm_set_int(r, I_HQ, hq);
    pm_set_int(r, I_HV, hkv);
    pm_set_int(r, I_HK, hkv);
    pm_set_int(r, I_NKV, nkv);
    pm_set_int(r, I_HKV, hkv);
    pm_set_int(r, I_DQK, dqk);
    pm_set_int(r, I_DV, dv);
    pm_set_float(r, I_DROPOUT, 0.0);
    pm_set_bool(r, I_CAUSAL, false);
    pm_set_bool(r, I_FLASH, true);
    pm_set_int(r, I_CSQ, s->c_sq);
    pm_set_int(r, I_CSK, s->c_sk);
    pm_set_int(r, I_CSQSQ, s->c_sqsq);
    pm_set_int(r, I_CSQSK, s->c_sqsk);
    pm_set_int(r, I_GSQ, s->g_sq);
    pm_set_int(r, I_GSK, s->g_sk);
    pm_set_int(r, I_GSQSQ, s->g_sqsq);
    pm_set_int(r, I_GSQSK, s->g_sqsk);
    pm_set_text(r, I_DTQ, *dtq ? dtq : "None");
    pm_set_text(r, I_DTKV, *dtkv ? dtkv : "None");
    pm_set_spec(r, "matrix", dtq);
    r->model = "infattn v1";
    int bpe = shapes_dtype_bytes(dtq);
    if (!bpe)
        bpe = 2; /* TraceLens's default */
    int bpe_kv = *dtkv ? shapes_dtype_bytes(dtkv) : 0;
    if (!bpe_kv)
        bpe_kv = bpe;
    /* A step with neither context nor generation tokens has no FLOPs
     * TraceLens will state (it raises for it). */
    if (s->c_sq != 0 || s->g_sq != 0)
        r->flops = infattn_flops((double)hq, (double)dqk, (double)dv, s);
    r->bytes = infattn_bytes((double)hq, (double)hkv, (double)dqk, (double)dv, s, bpe, bpe_kv);
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

static bool model_infattn(const struct pm_ctx *c, struct pm_result *r)
{
    return infattn_model(c, r, false);
}

static bool model_infattn_v2(const struct pm_ctx *c, struct pm_result *r)
{
    return infattn_model(c, r, true);
}

/* sglang::store_cache(k, v, k_cache, v_cache, indices, ...): the step's K
 * and V rows scattered into the paged cache, no arithmetic. TraceLens's
 * sglang_store_cache: the row keyed by k's shape, its element count n and
 * dtype; k and v read and n elements of each cache written, 4·n·bpe (bpe
 * 2 where the dtype has no size). */
static bool model_store_cache(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_shape(a, 0))
        return false;
    const char *dt = shapes_args_type(a, 0);
    double n = (double)shapes_numel(&a->dims[0]);
    pm_set_tuple(r, I_SHAPE, &a->dims[0]);
    pm_set_int(r, I_NELEMS, shapes_numel(&a->dims[0]));
    pm_set_text(r, I_DTYPE, *dt ? dt : "None");
    pm_set_spec(r, "vector", dt);
    r->model = "store_cache v1";
    int bpe = shapes_dtype_bytes(dt);
    r->flops = r->tl_flops = 0;
    r->bytes = r->tl_bytes = 4 * n * (bpe ? bpe : 2);
    return true;
}

const struct pm_model pm_infattn_models[] = {
    {"vllm::unified_attention_with_output", PM_INFER_ATTN, PM_NONE, model_infattn, NULL},
    {"aiter::mha_varlen_fwd", PM_INFER_ATTN, PM_NONE, model_infattn, NULL},
    {"aiter::fmha_v3_varlen_fwd", PM_INFER_ATTN, PM_NONE, model_infattn_v2, NULL},
    {"aiter::mha_batch_prefill", PM_INFER_ATTN, PM_NONE, model_infattn_v2, NULL},
    {"sglang::store_cache", PM_INFER_ATTN, PM_NONE, model_store_cache, NULL},
};
const size_t pm_infattn_count = sizeof(pm_infattn_models) / sizeof(pm_infattn_models[0]);
