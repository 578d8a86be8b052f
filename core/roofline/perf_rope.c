/* Rotary position embedding models (TraceLens's RoPE sheet):
 * sgl_kernel::rotary_embedding, SGLang's in-place rotation of the query and
 * key heads (vLLM-style rotate-half). Only the rotated slice of each head
 * counts: 3 FLOPs per rotated element (two multiplies and an add per
 * element of a pair), the query and key read and written at the query's
 * dtype; the cos/sin cache and the positions are small and left out, as
 * TraceLens does (docs/metrics.md §7.10). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum { P_NELEMS };

/* Heads of a [tokens, heads * head_size] (or [tokens, heads, head_size])
 * tensor: its elements per token over the head size, rounded down. The
 * rotated elements are the query's tokens times the heads of both. */
static int64_t heads_of(const struct shape *s, int64_t head_size)
{
    int64_t tokens = s->d[0];
    return tokens > 0 ? shapes_numel(s) / tokens / head_size : 0;
}

/* sgl_kernel::rotary_embedding (positions, query, key, head_size,
 * cos_sin_cache, is_neox) */
static bool model_sgl_rope(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 1))
        return false;
    const struct shape *q = &a->dims[1];
    int64_t head_size = q->d[q->nd - 1];
    int64_t v;
    if (shapes_parse_int(shapes_args_concrete(a, 3), &v) && v > 0)
        head_size = v;
    if (head_size <= 0)
        return false;
    /* The cache is [max_position, rot_dim]: rot_dim of each head rotates. */
    int64_t rot_dim = head_size;
    if (shapes_args_shape(a, 4) && a->dims[4].nd > 1 && a->dims[4].d[1] > 0)
        rot_dim = a->dims[4].d[1];
    bool key = shapes_args_tensor(a, 2);
    double n = (double)q->d[0] *
               (double)(heads_of(q, head_size) + (key ? heads_of(&a->dims[2], head_size) : 0)) *
               (double)rot_dim;
    if (!(n <= (double)SHAPES_MAX_NUMEL))
        return false;
    const char *dt = shapes_args_type(a, 1);
    pm_set_int(r, P_NELEMS, (int64_t)n);
    pm_set_spec(r, "vector", dt);
    r->model = "rope v1";
    int bpe = shapes_dtype_bytes(dt);
    r->flops = 3 * n;
    r->bytes = 2 * n * (bpe ? bpe : 2);
    if (key) {
        r->tl_flops = r->flops;
        r->tl_bytes = r->bytes;
    } else {
        /* TraceLens reads the key's shape unconditionally: no row there. */
        r->differs = "no key tensor: the query alone (TraceLens's model needs a key)";
    }
    return true;
}

const struct pm_model pm_rope_models[] = {
    {"sgl_kernel::rotary_embedding", PM_ROPE, PM_NONE, model_sgl_rope, NULL},
};
const size_t pm_rope_count = ARRAY_SIZE(pm_rope_models);
