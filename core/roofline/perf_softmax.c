/* Softmax over one dimension (a Softmax_fwd sheet of torchtop's own:
 * TraceLens 171dd74 has a Softmax formula, used inside its attention
 * models, but maps no op to it). aten::_softmax (self, dim, half_to_float)
 * and aten::softmax (self, dim, dtype), with rows = numel / N the slices
 * along dim, N the size of dim, and TraceLens's Softmax.flops_func /
 * bytes_func counts (docs/metrics.md §7.17):
 *
 *   FLOPs = 3 · rows · N              (exponent, sum, division)
 *   bytes = rows · N · (bpe_in + bpe_out)
 *
 * The output is fp32 when _softmax's half_to_float is set, else the
 * input's dtype (TraceLens's bytes_func takes one size for both). */
#include "config.h"

#include <string.h>

#include "core/roofline/perfmodel.h"

enum { P_OP_SHAPE, P_DIM, P_DTYPE_IN_OUT };

static bool model_softmax(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, 0))
        return false;
    const struct shape *s = &a->dims[0];
    int64_t dim;
    if (!shapes_parse_int(shapes_args_concrete(a, 1), &dim)) {
        r->why = "the softmax dim (Concrete Inputs 1) not recorded";
        return false;
    }
    if (dim < 0)
        dim += s->nd;
    if (dim < 0 || dim >= s->nd)
        return false;
    const char *din = shapes_args_type(a, 0);
    int bin = shapes_dtype_bytes(din);
    if (!bin) {
        r->why = "the input's dtype has no known size";
        return false;
    }
    bool half_to_float = false;
    if (!strcmp(c->op, "aten::_softmax"))
        (void)shapes_parse_bool(shapes_args_concrete(a, 2), &half_to_float);
    const char *dout = half_to_float ? "float" : din;
    int bout = half_to_float ? 4 : bin;
    double numel = (double)shapes_numel(s);
    const char *dts[2] = {din, dout};
    pm_set_tuple(r, P_OP_SHAPE, s);
    pm_set_int(r, P_DIM, dim);
    pm_set_dtypes(r, P_DTYPE_IN_OUT, dts, 2);
    pm_set_spec(r, "vector", din);
    r->model = "softmax v1";
    r->differs = "torchtop's own; TraceLens has none";
    r->flops = 3.0 * numel;
    r->bytes = numel * (bin + bout);
    return true;
}

const struct pm_model pm_softmax_models[] = {
    {"aten::_softmax", PM_SOFTMAX, PM_NONE, model_softmax, NULL},
    {"aten::softmax", PM_SOFTMAX, PM_NONE, model_softmax, NULL},
};
const size_t pm_softmax_count = ARRAY_SIZE(pm_softmax_models);
