/* Fused cross-entropy loss (TraceLens's CrossEntropy sheet):
 * CrossEntropyFunction, an online softmax over the vocabulary and the
 * negative log-likelihood of the target, as TraceLens's CrossEntropy
 * (PerfModel/perf_model.py, docs/metrics.md §7.16) models it, with logits
 * Input Dims 0 = (batch, ..., vocab):
 *
 *   FLOPs = 5 · batch · vocab
 *   bytes = numel(logits) · bpe + batch · 8 + batch · 4
 *
 * (the logits read, int64 targets read, fp32 losses written); bpe is the
 * logits' size, 2 when their dtype has none (TraceLens's default). */
#include "config.h"

#include "core/roofline/perfmodel.h"

enum { P_BATCH, P_VOCAB, P_LOGITS_SHAPE };

static bool model_xent(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 0))
        return false;
    const struct shape *s = &a->dims[0];
    int64_t numel = shapes_numel(s);
    int64_t batch = s->d[0], vocab = s->d[s->nd - 1];
    if (numel < 0 || batch < 0 || vocab < 0)
        return false;
    const char *dt = shapes_args_type(a, 0);
    int bpe = pm_tl_dtype_bytes(dt);
    if (!bpe)
        bpe = 2;
    pm_set_int(r, P_BATCH, batch);
    pm_set_int(r, P_VOCAB, vocab);
    pm_set_tuple(r, P_LOGITS_SHAPE, s);
    pm_set_spec(r, "vector", dt);
    r->model = "cross entropy v1";
    r->flops = 5.0 * (double)batch * (double)vocab;
    r->bytes = (double)numel * bpe + (double)batch * 8 + (double)batch * 4;
    r->tl_flops = r->flops;
    r->tl_bytes = r->bytes;
    return true;
}

const struct pm_model pm_xent_models[] = {
    {"CrossEntropyFunction", PM_XENT, PM_NONE, model_xent, NULL},
};
const size_t pm_xent_count = ARRAY_SIZE(pm_xent_models);
