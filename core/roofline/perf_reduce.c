/* Reduction models: sum, mean, max, min, norms, std/var, logsumexp,
 * cumulative sums and products, amin/amax; and their backward through the
 * forward<->backward link (the Reduce_bwd sheet). The output size comes
 * from the dim / keepdim arguments; TraceLens 171dd74 always uses one
 * output element (it never reads the recorded dims, which are text). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum { R_NIN, R_NOUT, R_DT, R_TYPE };

static bool name_has(const char *op, const char *part)
{
    return strstr(op, part) != NULL;
}

/* Output elements of reducing `in` over the recorded dims. */
static int64_t reduce_out(const struct pm_ctx *c, const struct shape *in)
{
    const struct op_args *a = c->a;
    int64_t n_in = shapes_numel(in);
    if (name_has(c->op, "cumsum") || name_has(c->op, "cumprod"))
        return n_in;
    int64_t dims[SHAPES_MAX_DIMS];
    int nd = -1;
    /* keepdim leaves size-1 dims: the element count is the same either way. */
    for (uint32_t i = 1; i < a->n && nd < 0; i++) {
        int got;
        if (shapes_parse_int_list(a->concrete[i], dims, SHAPES_MAX_DIMS, &got))
            nd = got;
    }
    /* max(self, int dim, keepdim) / min: a single integer dim. */
    int64_t one;
    if (nd < 0 && (strcmp(c->op, "aten::max") == 0 || strcmp(c->op, "aten::min") == 0) &&
        shapes_parse_int(shapes_args_concrete(a, 1), &one)) {
        dims[0] = one;
        nd = 1;
    }
    if (nd <= 0)
        return 1; /* no dim (or an empty list): everything is reduced */
    bool reduced[SHAPES_MAX_DIMS] = {false};
    for (int k = 0; k < nd; k++) {
        int64_t d = dims[k] < 0 ? dims[k] + in->nd : dims[k];
        if (d >= 0 && d < in->nd)
            reduced[d] = true;
    }
    int64_t out = 1;
    for (int d = 0; d < in->nd; d++)
        if (!reduced[d])
            out *= in->d[d];
    return out;
}

static bool model_reduce(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_shape(a, 0))
        return false;
    const struct shape *in = &a->dims[0];
    int64_t n_in = shapes_numel(in);
    int64_t n_out = reduce_out(c, in);
    bool cum = name_has(c->op, "cumsum") || name_has(c->op, "cumprod");
    int64_t tl_out = cum ? n_in : 1;
    const char *tin = shapes_args_type(a, 0);
    pm_set_int(r, R_NIN, n_in);
    pm_set_int(r, R_NOUT, n_out);
    const char *dt[2] = {tin, NULL};
    pm_set_dtypes(r, R_DT, dt, 2);
    const char *kind = name_has(c->op, "mean")   ? "mean"
                       : name_has(c->op, "max")  ? "max"
                       : name_has(c->op, "min")  ? "min"
                       : name_has(c->op, "norm") ? "norm"
                                                 : "sum";
    pm_set_text(r, R_TYPE, kind);
    pm_set_spec(r, "vector", tin);
    r->model = "reduce v1";
    int b = shapes_dtype_bytes(tin);
    /* Forward and backward alike: read n_in and write n_out, or read the
     * n_out gradients and write n_in. */
    r->flops = r->tl_flops = (double)n_in;
    if (b)
        r->bytes = ((double)n_in + (double)n_out) * b;
    if (pm_tl_dtype_bytes(tin))
        r->tl_bytes = ((double)n_in + (double)tl_out) * b;
    if (n_out != tl_out)
        r->differs = "output size from dim/keepdim (TraceLens: 1 element)";
    else if (b && isnan(r->tl_bytes))
        r->differs = PM_DIFFERS_BOOL;
    return true;
}

const struct pm_model pm_reduce_models[] = {
    {"aten::sum", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::mean", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::max", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::min", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::norm", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::linalg_norm", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::std", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::var", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::logsumexp", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::cumsum", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::cumprod", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::amin", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
    {"aten::amax", PM_REDUCE_FWD, PM_REDUCE_BWD, model_reduce, NULL},
};
const size_t pm_reduce_count = ARRAY_SIZE(pm_reduce_models);
