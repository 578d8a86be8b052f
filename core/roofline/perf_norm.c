/* Normalization models: batch, layer, group, instance and RMS norm, forward
 * and backward ops (one Normalization sheet, as TraceLens has). FLOPs and
 * bytes follow TraceLens's formulas; the flags they depend on (affine,
 * bias, training) are read from the arguments, where TraceLens takes
 * affine and bias as always present and a batch norm as always training.
 *
 * TraceLens's parameter columns (has_bias, is_affine, is_training,
 * output_mask) hold TraceLens's flags, so that the rows group as its rows
 * do; the flags torchtop's FLOPs and bytes use follow in columns of their
 * own (*_args), which split a TraceLens row where its instances differ. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum {
    N_SHAPE,
    N_DT,
    N_SIN,
    N_SOUT,
    N_C,
    N_BIAS,
    N_AFF,
    N_TRAIN,
    N_MASK,
    N_BIAS_A,
    N_AFF_A,
    N_TRAIN_A,
    N_MASK_A
};

struct norm {
    double n, c; /* elements, channels (normalized size) */
    bool bias, affine, training;
    bool mask[3]; /* backward: grad input, weight, bias */
};

enum norm_kind { NK_BATCH, NK_LAYER, NK_GROUP, NK_INSTANCE, NK_RMS };

static double fwd_flops(enum norm_kind k, const struct norm *p)
{
    if (k == NK_RMS)
        return p->n / p->c * (2 * p->c + 2) + p->n * (p->affine ? 2 : 1);
    /* per-channel scale and shift, mean/variance when training, rsqrt,
     * then a multiply-add per element */
    return p->c * 3 + (p->training ? 3 * p->n : 0) + p->c * 3 + 2 * p->n;
}

static double fwd_bytes(enum norm_kind k, const struct norm *p, int bin, int bout)
{
    if (k == NK_RMS)
        return p->n * bin + p->n * bout + (p->affine ? p->c * bin : 0);
    int tensors = 2 + (p->affine ? 1 + (p->bias ? 1 : 0) : 0) + (p->training ? 2 : 0);
    return p->n * bin + p->n * bout + tensors * p->c * bin;
}

static double bwd_flops(enum norm_kind k, const struct norm *p)
{
    if (k == NK_RMS) {
        double f = (p->affine ? p->n : 0) + p->n;
        if (p->mask[0])
            f += 6 * p->n;
        if (p->mask[1] && p->affine)
            f += p->n + (p->n / p->c > 1 ? p->n : 0);
        return f;
    }
    double e = p->n / p->c;
    double per = (p->training ? 0 : 3) + 4 * e;
    if (p->mask[0])
        per += p->training ? 5 * e : 0;
    else
        per += 2 * e;
    return p->c * per;
}

static double bwd_bytes(enum norm_kind k, const struct norm *p, int bin, int bout)
{
    if (k == NK_RMS)
        return p->n * bout + p->n * bin * 2 + (p->affine ? p->c * bin * 2 : 0);
    double b = p->n * bout + p->n * bin * (p->mask[0] && p->training ? 2 : 1);
    if (p->training)
        b += p->c * bin;
    if (p->affine) {
        b += p->c * bin;
        if (p->training)
            b += p->c * bin * (p->bias ? 2 : 1);
    }
    return b;
}

/* "[True, False, True]" -> up to 3 flags; the count parsed. */
static int parse_mask(const char *s, bool *m)
{
    int k = 0;
    for (const char *p = s; *p && k < 3; p++)
        if (strncmp(p, "True", 4) == 0 || strncmp(p, "False", 5) == 0) {
            m[k++] = *p == 'T';
            p += *p == 'T' ? 3 : 4;
        }
    return k;
}

/* "[True, False]": the first n flags of m. */
static void put_mask(char *out, size_t size, const bool *m, int n)
{
    snprintf(out, size, "[%s%s%s%s%s]", m[0] ? "True" : "False", n > 1 ? ", " : "",
             n > 1 ? (m[1] ? "True" : "False") : "", n > 2 ? ", " : "",
             n > 2 ? (m[2] ? "True" : "False") : "");
}

static double prod_list(const char *s, bool *ok)
{
    int64_t v[SHAPES_MAX_DIMS];
    int n;
    *ok = shapes_parse_int_list(s, v, SHAPES_MAX_DIMS, &n) && n > 0;
    double p = 1;
    for (int i = 0; i < n; i++)
        p *= (double)v[i];
    return p;
}

/* Layout of one op: where its input is and which flags it records. */
struct norm_sig {
    enum norm_kind kind;
    bool bwd_op;
    int in;           /* input (activation) */
    int weight, bias; /* tensors whose presence sets affine / bias; -1 none */
    int training;     /* Concrete Inputs position of training; -1 = constant */
    bool train_const; /* training when there is no position */
    int cshape;       /* Concrete Inputs position of normalized_shape; -1 = dim 1 */
    int groups;       /* Concrete Inputs position of the group count (GN backward) */
    int mask;         /* Concrete Inputs position of output_mask; -1 none */
    bool bn_mask;     /* mask shown as TraceLens shows it for batch norm: [grad input] */
};

static bool norm_model(const struct pm_ctx *c, struct pm_result *r, const struct norm_sig *sg)
{
    const struct op_args *a = c->a;
    if (!shapes_args_tensor(a, (uint32_t)sg->in))
        return false;
    const struct shape *x = &a->dims[sg->in];
    struct norm tt = {.n = (double)shapes_numel(x)}, tl;
    bool ok = true;
    if (sg->cshape >= 0) {
        tt.c = prod_list(shapes_args_concrete(a, (uint32_t)sg->cshape), &ok);
        if (!ok && sg->weight >= 0 && shapes_args_tensor(a, (uint32_t)sg->weight)) {
            /* No Concrete Inputs: the weight has the normalized shape. */
            tt.c = (double)shapes_numel(&a->dims[sg->weight]);
            ok = true;
        }
    } else {
        ok = x->nd >= 2;
        tt.c = ok ? (double)x->d[1] : 0;
    }
    /* The normalized size is read back as an integer: it must be one. */
    if (!ok || !(tt.c > 0 && tt.c <= (double)SHAPES_MAX_NUMEL))
        return false;
    int64_t g;
    if (sg->groups >= 0 && shapes_parse_int(shapes_args_concrete(a, (uint32_t)sg->groups), &g) &&
        g > 0)
        tt.c = (double)((int64_t)tt.c / g);
    if (tt.c <= 0)
        return false;
    tt.affine = sg->weight >= 0 && shapes_args_tensor(a, (uint32_t)sg->weight);
    tt.bias = sg->bias >= 0 && shapes_args_tensor(a, (uint32_t)sg->bias);
    tt.training = sg->train_const;
    if (sg->training >= 0)
        shapes_parse_bool(shapes_args_concrete(a, (uint32_t)sg->training), &tt.training);
    tt.mask[0] = tt.mask[1] = tt.mask[2] = true;
    int nmask =
        sg->mask >= 0 ? parse_mask(shapes_args_concrete(a, (uint32_t)sg->mask), tt.mask) : 0;
    if (sg->bwd_op && sg->kind == NK_BATCH && nmask == 3)
        tt.bias = tt.mask[2];
    if (sg->bwd_op && sg->kind == NK_LAYER && nmask == 3) {
        tt.affine = tt.mask[1];
        tt.bias = tt.mask[2];
    }
    if (sg->kind == NK_RMS)
        tt.bias = tt.training = false;

    /* TraceLens's flags: affine and bias always set (it tests "is not
     * None" on lists that are never None), training for batch and
     * instance norm whenever the argument was recorded at all. */
    tl = tt;
    tl.affine = true;
    tl.bias = sg->kind != NK_RMS;
    if (sg->training >= 0)
        tl.training = *shapes_args_concrete(a, (uint32_t)sg->training) != '\0';
    if (sg->bwd_op && sg->kind == NK_BATCH)
        tl.mask[0] = true;
    if (sg->bwd_op && sg->kind == NK_LAYER) {
        tl.affine = tt.mask[1];
        tl.bias = tt.mask[2];
    }

    const char *tin = shapes_args_type(a, (uint32_t)sg->in);
    pm_set_tuple(r, N_SHAPE, x);
    const char *dt[2] = {tin, NULL};
    pm_set_dtypes(r, N_DT, dt, 2);
    pm_set_tuple(r, N_SIN, &a->strides[sg->in]);
    pm_set_text(r, N_SOUT, "None");
    pm_set_int(r, N_C, (int64_t)tt.c);
    pm_set_bool(r, N_BIAS, tl.bias);
    pm_set_bool(r, N_AFF, tl.affine);
    pm_set_bool(r, N_TRAIN, tl.training);
    pm_set_bool(r, N_BIAS_A, tt.bias);
    pm_set_bool(r, N_AFF_A, tt.affine);
    pm_set_bool(r, N_TRAIN_A, tt.training);
    if (sg->bwd_op) {
        char m[40];
        /* TraceLens shows a batch norm's mask as [input gradient], always
         * set, and otherwise the recorded entries. */
        if (sg->bn_mask || nmask == 0)
            snprintf(m, sizeof(m), "[%s]", tl.mask[0] ? "True" : "False");
        else
            put_mask(m, sizeof(m), tt.mask, nmask);
        pm_set_text(r, N_MASK, m);
        if (nmask == 0)
            snprintf(m, sizeof(m), "None");
        else
            put_mask(m, sizeof(m), tt.mask, nmask);
        pm_set_text(r, N_MASK_A, m);
    }
    pm_set_spec(r, "vector", tin);
    r->model = "norm v1";
    int b = shapes_dtype_bytes(tin);
    bool bwd = sg->bwd_op || c->bwd;
    r->flops = bwd ? bwd_flops(sg->kind, &tt) : fwd_flops(sg->kind, &tt);
    r->tl_flops = bwd ? bwd_flops(sg->kind, &tl) : fwd_flops(sg->kind, &tl);
    if (b) {
        r->bytes = bwd ? bwd_bytes(sg->kind, &tt, b, b) : fwd_bytes(sg->kind, &tt, b, b);
        r->tl_bytes = bwd ? bwd_bytes(sg->kind, &tl, b, b) : fwd_bytes(sg->kind, &tl, b, b);
    }
    if (r->flops != r->tl_flops || (b && r->bytes != r->tl_bytes))
        r->differs = "affine / bias / training read from the arguments";
    return true;
}

#define SIG(name, ...)                                                                             \
    static bool name(const struct pm_ctx *c, struct pm_result *r)                                  \
    {                                                                                              \
        static const struct norm_sig sg = {__VA_ARGS__};                                           \
        return norm_model(c, r, &sg);                                                              \
    }

/* batch_norm / native_batch_norm / cudnn_ / miopen_ (input, weight, bias,
 * running_mean, running_var, training, momentum, eps, ...) */
SIG(model_bn, .kind = NK_BATCH, .in = 0, .weight = 1, .bias = 2, .training = 5, .train_const = true,
    .cshape = -1, .groups = -1, .mask = -1)
/* native_batch_norm_backward (grad_out, input, weight, running_mean,
 * running_var, save_mean, save_invstd, train, eps, output_mask) */
SIG(model_bn_bwd, .kind = NK_BATCH, .bwd_op = true, .in = 1, .weight = 2, .bias = -1, .training = 7,
    .train_const = true, .cshape = -1, .groups = -1, .mask = 9, .bn_mask = true)
/* cudnn_ / miopen_batch_norm_backward (input, grad_output, weight,
 * running_mean, running_var, save_mean, save_var, epsilon, ...): TraceLens
 * takes these as not training. */
SIG(model_bn_vendor_bwd, .kind = NK_BATCH, .bwd_op = true, .in = 0, .weight = 2, .bias = -1,
    .training = -1, .train_const = false, .cshape = -1, .groups = -1, .mask = -1, .bn_mask = true)
/* layer_norm (input, normalized_shape, weight, bias, eps, ...) */
SIG(model_ln, .kind = NK_LAYER, .in = 0, .weight = 2, .bias = 3, .training = -1,
    .train_const = true, .cshape = 1, .groups = -1, .mask = -1)
/* native_layer_norm_backward (grad_out, input, normalized_shape, mean,
 * rstd, weight, bias, output_mask) */
SIG(model_ln_bwd, .kind = NK_LAYER, .bwd_op = true, .in = 1, .weight = 5, .bias = 6, .training = -1,
    .train_const = true, .cshape = 2, .groups = -1, .mask = 7)
/* group_norm (input, num_groups, weight, bias, eps, cudnn_enabled) */
SIG(model_gn, .kind = NK_GROUP, .in = 0, .weight = 2, .bias = 3, .training = -1,
    .train_const = true, .cshape = -1, .groups = -1, .mask = -1)
/* native_group_norm (input, weight, bias, N, C, HxW, group, eps) */
SIG(model_native_gn, .kind = NK_GROUP, .in = 0, .weight = 1, .bias = 2, .training = -1,
    .train_const = true, .cshape = -1, .groups = -1, .mask = -1)
/* native_group_norm_backward (grad_out, input, mean, rstd, weight, N, C,
 * HxW, group, output_mask) */
SIG(model_gn_bwd, .kind = NK_GROUP, .bwd_op = true, .in = 1, .weight = 4, .bias = -1,
    .training = -1, .train_const = true, .cshape = -1, .groups = 8, .mask = 9)
/* aiter::_groupnorm_run: (input, num_groups, weight, bias, eps) as
 * aten::group_norm, or since aiter moved the allocations out (y, workspace,
 * input, num_groups, weight, bias, eps). */
SIG(model_aiter_gn5, .kind = NK_GROUP, .in = 0, .weight = 2, .bias = 3, .training = -1,
    .train_const = true, .cshape = -1, .groups = -1, .mask = -1)
SIG(model_aiter_gn7, .kind = NK_GROUP, .in = 2, .weight = 4, .bias = 5, .training = -1,
    .train_const = true, .cshape = -1, .groups = -1, .mask = -1)
static bool model_aiter_gn(const struct pm_ctx *c, struct pm_result *r)
{
    return c->a->n >= 7 ? model_aiter_gn7(c, r) : model_aiter_gn5(c, r);
}
/* instance_norm (input, weight, bias, running_mean, running_var,
 * use_input_stats, momentum, eps, cudnn_enabled) */
SIG(model_in, .kind = NK_INSTANCE, .in = 0, .weight = 1, .bias = 2, .training = 5,
    .train_const = true, .cshape = -1, .groups = -1, .mask = -1)
/* _fused_rms_norm / rms_norm (input, normalized_shape, weight, eps) */
SIG(model_rms, .kind = NK_RMS, .in = 0, .weight = 2, .bias = -1, .training = -1,
    .train_const = false, .cshape = 1, .groups = -1, .mask = -1)
/* _fused_rms_norm_backward (grad_out, input, normalized_shape, rstd,
 * weight, output_mask) */
SIG(model_rms_bwd, .kind = NK_RMS, .bwd_op = true, .in = 1, .weight = 4, .bias = -1, .training = -1,
    .train_const = false, .cshape = 2, .groups = -1, .mask = 5)

const struct pm_model pm_norm_models[] = {
    {"aten::batch_norm", PM_NORM, PM_NONE, model_bn, NULL},
    {"aten::native_batch_norm", PM_NORM, PM_NONE, model_bn, NULL},
    {"aten::cudnn_batch_norm", PM_NORM, PM_NONE, model_bn, NULL},
    {"aten::miopen_batch_norm", PM_NORM, PM_NONE, model_bn, NULL},
    {"aten::native_batch_norm_backward", PM_NORM, PM_NONE, model_bn_bwd, NULL},
    {"aten::cudnn_batch_norm_backward", PM_NORM, PM_NONE, model_bn_vendor_bwd, NULL},
    {"aten::miopen_batch_norm_backward", PM_NORM, PM_NONE, model_bn_vendor_bwd, NULL},
    {"aten::layer_norm", PM_NORM, PM_NONE, model_ln, NULL},
    {"aten::native_layer_norm", PM_NORM, PM_NONE, model_ln, NULL},
    {"aten::native_layer_norm_backward", PM_NORM, PM_NONE, model_ln_bwd, NULL},
    {"aten::group_norm", PM_NORM, PM_NONE, model_gn, NULL},
    {"aiter::_groupnorm_run", PM_NORM, PM_NONE, model_aiter_gn, NULL},
    {"aten::native_group_norm", PM_NORM, PM_NONE, model_native_gn, NULL},
    {"aten::native_group_norm_backward", PM_NORM, PM_NONE, model_gn_bwd, NULL},
    {"aten::instance_norm", PM_NORM, PM_NONE, model_in, NULL},
    {"aten::_fused_rms_norm", PM_NORM, PM_NONE, model_rms, NULL},
    {"aten::rms_norm", PM_NORM, PM_NONE, model_rms, NULL},
    {"aten::_fused_rms_norm_backward", PM_NORM, PM_NONE, model_rms_bwd, NULL},
};
const size_t pm_norm_count = ARRAY_SIZE(pm_norm_models);
