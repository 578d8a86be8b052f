/* Convolution models: aten::convolution, _convolution, cudnn_convolution,
 * miopen_convolution (forward), convolution_backward and
 * cudnn/miopen_convolution_backward, and the backward of a forward
 * convolution through the forward<->backward link. Stride, padding,
 * dilation, transposed, output_padding and groups come from Concrete
 * Inputs; without them the output shape must come from a grad_output, or
 * there is no model (nothing is assumed). The bias is counted when present
 * (TraceLens never counts it). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum {
    C_ND,
    C_X,
    C_W,
    C_DT,
    C_XS,
    C_WS,
    C_BIAS,
    C_STRIDE,
    C_PAD,
    C_DIL,
    C_TRANS,
    C_OPAD,
    C_GROUPS,
    C_MASK
};

#define CONV_MAX_SPATIAL 3

struct conv {
    struct shape x, w, out; /* input, weight, output */
    int ix, iw;             /* argument indices of input and weight */
    int nsp;                /* spatial dims */
    int64_t stride[CONV_MAX_SPATIAL], pad[CONV_MAX_SPATIAL], dil[CONV_MAX_SPATIAL];
    int64_t opad[CONV_MAX_SPATIAL];
    bool transposed, bias, have_params;
    int64_t groups;
    bool mask[3]; /* backward: grad input, weight, bias */
};

/* Argument positions of one signature; -1 = not in it. */
struct conv_sig {
    int x, w, bias, stride, pad, dil, trans, opad, groups, mask, grad_out;
};

/* convolution / _convolution (input, weight, bias, stride, padding,
 * dilation, transposed, output_padding, groups, ...). */
static const struct conv_sig sig_conv = {0, 1, 2, 3, 4, 5, 6, 7, 8, -1, -1};
/* miopen_convolution (self, weight, bias, padding, stride, dilation, groups, ...). */
static const struct conv_sig sig_miopen = {0, 1, 2, 4, 3, 5, -1, -1, 6, -1, -1};
/* cudnn_convolution (self, weight, padding, stride, dilation, groups, ...). */
static const struct conv_sig sig_cudnn = {0, 1, -1, 3, 2, 4, -1, -1, 5, -1, -1};
/* cudnn_convolution before PyTorch 1.8 (self, weight, bias, padding, ...). */
static const struct conv_sig sig_cudnn_old = {0, 1, 2, 4, 3, 5, -1, -1, 6, -1, -1};
/* convolution_backward (grad_output, input, weight, bias_sizes, stride,
 * padding, dilation, transposed, output_padding, groups, output_mask). */
static const struct conv_sig sig_bwd = {1, 2, -1, 4, 5, 6, 7, 8, 9, 10, 0};
/* cudnn/miopen_convolution_backward (self, grad_output, weight, padding,
 * stride, dilation, groups, benchmark, deterministic, [allow_tf32,]
 * output_mask). */
static const struct conv_sig sig_vendor_bwd = {0, 2, -1, 4, 3, 5, -1, -1, 6, -2, 1};

/* "[1, 1]" or "[2]" (broadcast) -> n values; `dflt` when absent. */
static bool spatial_arg(const struct op_args *a, int i, int n, int64_t dflt, int64_t *out)
{
    for (int k = 0; k < n; k++)
        out[k] = dflt;
    if (i < 0)
        return true;
    const char *s = shapes_args_concrete(a, (uint32_t)i);
    if (!*s)
        return true;
    int64_t v[CONV_MAX_SPATIAL];
    int got;
    if (shapes_parse_int_list(s, v, CONV_MAX_SPATIAL, &got)) {
        if (got == 1) {
            for (int k = 0; k < n; k++)
                out[k] = v[0];
            return true;
        }
        if (got != n)
            return false;
        memcpy(out, v, (size_t)n * sizeof(*out));
        return true;
    }
    int64_t one;
    if (shapes_parse_int(s, &one)) {
        for (int k = 0; k < n; k++)
            out[k] = one;
        return true;
    }
    return false;
}

/* A dim computed in 128 bits as it is stored: -1 when out of int64 (the
 * shape then fails shapes_valid). */
static int64_t dim_of(__int128 v)
{
    return v >= 0 && v <= INT64_MAX ? (int64_t)v : -1;
}

/* The output shape from the parameters (PyTorch's formulas). Recorded
 * parameters may be as large as int64 goes, hence the 128-bit arithmetic. */
static void out_shape(struct conv *cv)
{
    cv->out.nd = cv->x.nd;
    cv->out.d[0] = cv->x.d[0];
    cv->out.d[1] = cv->transposed ? dim_of((__int128)cv->w.d[1] * cv->groups) : cv->w.d[0];
    for (int k = 0; k < cv->nsp; k++) {
        __int128 in = cv->x.d[2 + k], ks = cv->w.d[2 + k];
        __int128 stride = cv->stride[k], pad = cv->pad[k], dil = cv->dil[k];
        __int128 o;
        if (!cv->transposed)
            o = (in + 2 * pad - dil * (ks - 1) - 1) / stride + 1;
        else
            o = (in - 1) * stride - 2 * pad + dil * (ks - 1) + cv->opad[k] + 1;
        cv->out.d[2 + k] = dim_of(o);
    }
}

/* PyTorch refuses a convolution with a stride or dilation below 1 or a
 * negative padding or output padding; none ran with them. */
static bool params_valid(const struct conv *cv)
{
    for (int k = 0; k < cv->nsp; k++)
        if (cv->stride[k] < 1 || cv->dil[k] < 1 || cv->pad[k] < 0 || cv->opad[k] < 0)
            return false;
    return true;
}

/* grad_output of the backward op linked to a forward convolution, when
 * that op is a convolution backward of the same input and weight shapes;
 * NULL otherwise. */
static const struct shape *linked_grad_out(const struct pm_ctx *c, const struct conv *cv)
{
    const struct conv_sig *sg = NULL;
    if (!c->linked_op)
        return NULL;
    if (strcmp(c->linked_op, "aten::convolution_backward") == 0)
        sg = &sig_bwd;
    else if (strcmp(c->linked_op, "aten::cudnn_convolution_backward") == 0 ||
             strcmp(c->linked_op, "aten::miopen_convolution_backward") == 0)
        sg = &sig_vendor_bwd;
    const struct op_args *l = c->linked;
    if (!sg || !shapes_args_shape(l, (uint32_t)sg->x) || !shapes_args_shape(l, (uint32_t)sg->w) ||
        !shapes_args_shape(l, (uint32_t)sg->grad_out))
        return NULL;
    const struct shape *x = &l->dims[sg->x], *w = &l->dims[sg->w];
    if (x->nd != cv->x.nd || w->nd != cv->w.nd ||
        memcmp(x->d, cv->x.d, (size_t)x->nd * sizeof(x->d[0])) != 0 ||
        memcmp(w->d, cv->w.d, (size_t)w->nd * sizeof(w->d[0])) != 0)
        return NULL;
    return &l->dims[sg->grad_out];
}

/* Parse one signature into cv; out shape from the parameters when they are
 * recorded, else from grad_output (backward ops) or the linked op. False
 * when the arguments do not fit, with r->why set when the parameters are
 * missing. */
static bool conv_parse(const struct pm_ctx *c, const struct conv_sig *sg, struct conv *cv,
                       struct pm_result *r)
{
    const struct op_args *a = c->a;
    memset(cv, 0, sizeof(*cv));
    cv->ix = sg->x;
    cv->iw = sg->w;
    if (!shapes_args_shape(a, (uint32_t)sg->x) || !shapes_args_shape(a, (uint32_t)sg->w))
        return false;
    cv->x = a->dims[sg->x];
    cv->w = a->dims[sg->w];
    if (cv->x.nd < 3 || cv->x.nd > 2 + CONV_MAX_SPATIAL || cv->w.nd != cv->x.nd)
        return false;
    cv->nsp = cv->x.nd - 2;
    cv->bias = sg->bias >= 0 && shapes_args_tensor(a, (uint32_t)sg->bias);
    cv->groups = 1;
    int64_t g;
    if (sg->groups >= 0 && shapes_parse_int(shapes_args_concrete(a, (uint32_t)sg->groups), &g) &&
        g > 0)
        cv->groups = g;
    bool t = false;
    if (sg->trans >= 0)
        shapes_parse_bool(shapes_args_concrete(a, (uint32_t)sg->trans), &t);
    cv->transposed = t;
    bool ok = spatial_arg(a, sg->stride, cv->nsp, 1, cv->stride) &&
              spatial_arg(a, sg->pad, cv->nsp, 0, cv->pad) &&
              spatial_arg(a, sg->dil, cv->nsp, 1, cv->dil) &&
              spatial_arg(a, sg->opad, cv->nsp, 0, cv->opad);
    if (!ok)
        return false;
    if (!params_valid(cv)) {
        r->why = "convolution parameters no convolution has (a stride or dilation below 1, or a "
                 "negative padding)";
        return false;
    }
    /* Parameters are known when Concrete Inputs were recorded. */
    cv->have_params = *shapes_args_concrete(a, (uint32_t)sg->stride) ||
                      *shapes_args_concrete(a, (uint32_t)sg->pad);
    cv->mask[0] = cv->mask[1] = true;
    cv->mask[2] = false;
    int mi = sg->mask == -2 ? (int)a->n - 1 : sg->mask;
    if (mi >= 0) {
        /* "[True, True, False]"; two entries for the vendor ops. */
        const char *s = shapes_args_concrete(a, (uint32_t)mi);
        int k = 0;
        for (const char *p = s; *p && k < 3; p++) {
            if (strncmp(p, "True", 4) == 0 || strncmp(p, "False", 5) == 0) {
                cv->mask[k++] = *p == 'T';
                p += *p == 'T' ? 3 : 4;
            }
        }
        if (k < 3)
            cv->mask[2] = false;
    }
    if (cv->have_params) {
        out_shape(cv);
        if (!shapes_valid(&cv->out)) {
            r->why = "the output shape of these convolution parameters is out of range";
            return false;
        }
        return true;
    }
    /* Recorded without Concrete Inputs (PyTorch before 1.10): stride,
     * padding and dilation are unknown, so the output shape cannot be
     * computed; it is taken from grad_output where one is recorded (a
     * backward op, or for a forward op the backward op linked to it). */
    const struct shape *out = NULL;
    if (sg->grad_out >= 0 && shapes_args_shape(a, (uint32_t)sg->grad_out))
        out = &a->dims[sg->grad_out];
    else if (c->linked)
        out = linked_grad_out(c, cv);
    if (!out || out->nd != cv->x.nd || out->d[0] != cv->x.d[0]) {
        r->why = "convolution parameters (stride, padding, dilation) not recorded: the trace has "
                 "no Concrete Inputs";
        return false;
    }
    cv->out = *out;
    /* groups and transposed are not recorded either: the shapes tell them
     * for a plain convolution (C_in = w[1] * groups, C_out = w[0]); other
     * shapes are left unmodelled rather than guessed. */
    if (sg->groups < 0 || !*shapes_args_concrete(a, (uint32_t)sg->groups))
        cv->groups = cv->w.d[1] > 0 && cv->x.d[1] % cv->w.d[1] == 0 ? cv->x.d[1] / cv->w.d[1] : 0;
    if (cv->transposed || cv->groups <= 0 || cv->x.d[1] != cv->w.d[1] * cv->groups ||
        cv->out.d[1] != cv->w.d[0]) {
        r->why = "convolution parameters (stride, padding, dilation, groups) not recorded and "
                 "the shapes do not tell them: the trace has no Concrete Inputs";
        return false;
    }
    return true;
}

static double numel(const struct shape *s)
{
    return (double)shapes_numel(s);
}

/* (C, N, ...) <-> (N, C, ...), as the weight-gradient GEMM sees shapes. */
static double flops_fwd(const struct shape *x, const struct shape *w, const struct shape *out,
                        bool transposed)
{
    double per = 2 * numel(w) / (double)w->d[0];
    return (transposed ? numel(x) : numel(out)) * per;
}

static double flops_wgrad(const struct conv *cv)
{
    /* 2 * prod(w) * (N * spatial of the "output" side of the GEMM). */
    const struct shape *side = cv->transposed ? &cv->x : &cv->out;
    double n_sp = numel(side) / (double)side->d[1];
    return 2 * numel(&cv->w) * n_sp;
}

static void conv_params(const struct pm_ctx *c, struct pm_result *r, const struct conv *cv)
{
    const struct op_args *a = c->a;
    char nd[16];
    snprintf(nd, sizeof(nd), "conv%dd", cv->nsp);
    pm_set_text(r, C_ND, nd);
    pm_set_tuple(r, C_X, &cv->x);
    pm_set_tuple(r, C_W, &cv->w);
    const char *dt[2] = {shapes_args_type(a, (uint32_t)cv->ix),
                         shapes_args_type(a, (uint32_t)cv->iw)};
    pm_set_dtypes(r, C_DT, dt, 2);
    pm_set_tuple(r, C_XS, &a->strides[cv->ix]);
    pm_set_tuple(r, C_WS, &a->strides[cv->iw]);
    /* Not recorded (traces before Concrete Inputs): None, as unknown. */
    struct shape s = {.nd = (int16_t)(cv->have_params ? cv->nsp : -1)};
    memcpy(s.d, cv->stride, sizeof(cv->stride));
    pm_set_tuple(r, C_STRIDE, &s);
    memcpy(s.d, cv->pad, sizeof(cv->pad));
    pm_set_tuple(r, C_PAD, &s);
    memcpy(s.d, cv->dil, sizeof(cv->dil));
    pm_set_tuple(r, C_DIL, &s);
    pm_set_bool(r, C_TRANS, cv->transposed);
    memcpy(s.d, cv->opad, sizeof(cv->opad));
    pm_set_tuple(r, C_OPAD, &s);
    pm_set_int(r, C_GROUPS, cv->groups);
    pm_set_spec(r, "matrix", dt[0]);
}

static void conv_fwd_numbers(struct pm_result *r, const struct conv *cv, int bpe)
{
    double f = flops_fwd(&cv->x, &cv->w, &cv->out, cv->transposed);
    double elems = numel(&cv->x) + numel(&cv->w) + numel(&cv->out);
    r->flops = f + (cv->bias ? numel(&cv->out) : 0);
    r->tl_flops = f;
    if (bpe) {
        r->bytes = (elems + (cv->bias ? (double)cv->out.d[1] : 0)) * bpe;
        r->tl_bytes = elems * bpe;
    }
    if (cv->bias)
        r->differs = "bias counted (TraceLens never counts it)";
}

/* Backward: grad input (a transposed convolution of grad_output), grad
 * weight, grad bias, each when output_mask asks for it. TraceLens counts
 * grad input and grad weight always and the bias never. */
static void conv_bwd_numbers(struct pm_result *r, const struct conv *cv, int bpe)
{
    double fin = flops_fwd(&cv->out, &cv->w, &cv->x, !cv->transposed);
    double fw = flops_wgrad(cv);
    double e = numel(&cv->x) + numel(&cv->w) + numel(&cv->out);
    double out = numel(&cv->out);
    r->flops = (cv->mask[0] ? fin : 0) + (cv->mask[1] ? fw : 0) + (cv->mask[2] ? out : 0);
    r->tl_flops = fin + fw;
    if (bpe) {
        r->bytes = ((cv->mask[0] ? e : 0) + (cv->mask[1] ? e : 0) +
                    (cv->mask[2] ? out + (double)cv->out.d[1] : 0)) *
                   bpe;
        r->tl_bytes = 2 * e * bpe;
    }
    if (!cv->mask[0] || !cv->mask[1])
        r->differs = "only the gradients output_mask asks for";
    else if (cv->mask[2])
        r->differs = "bias gradient counted (TraceLens never counts it)";
}

/* CONV_bwd's bias column as TraceLens writes it for
 * aten::convolution_backward: the value of its test `len(dims) > 3 and
 * dims[3] and len(dims[3]) > 0` on Input Dims, whose argument 3
 * (bias_sizes, an int list) is recorded as [] whatever the bias: "[]".
 * Whether a bias gradient is computed is in output_mask. Other ops, which
 * TraceLens does not model, leave the column empty. */
static void tl_bwd_bias(const struct op_args *a, struct pm_result *r)
{
    if (a->n <= 3)
        pm_set_text(r, C_BIAS, "False");
    else if (a->dims[3].nd == 0)
        pm_set_text(r, C_BIAS, "[]");
    else
        pm_set_text(r, C_BIAS, "True");
}

static bool conv_model(const struct pm_ctx *c, struct pm_result *r, const struct conv_sig *sg,
                       bool is_bwd_op)
{
    struct conv cv;
    if (!conv_parse(c, sg, &cv, r))
        return false;
    for (int k = 0; k < cv.nsp; k++)
        if (cv.out.d[2 + k] <= 0)
            return false;
    conv_params(c, r, &cv);
    int bpe = shapes_dtype_bytes(shapes_args_type(c->a, (uint32_t)cv.ix));
    r->model = "conv v1";
    if (!is_bwd_op && !c->bwd) {
        pm_set_bool(r, C_BIAS, cv.bias);
        conv_fwd_numbers(r, &cv, bpe);
        return true;
    }
    if (!is_bwd_op) {
        /* The backward of a forward convolution: every gradient its
         * inputs need. */
        cv.mask[0] = cv.mask[1] = true;
        cv.mask[2] = cv.bias;
    }
    if (sg == &sig_bwd)
        tl_bwd_bias(c->a, r);
    char mask[32];
    snprintf(mask, sizeof(mask), "[%s, %s, %s]", cv.mask[0] ? "True" : "False",
             cv.mask[1] ? "True" : "False", cv.mask[2] ? "True" : "False");
    pm_set_text(r, C_MASK, mask);
    conv_bwd_numbers(r, &cv, bpe);
    return true;
}

static bool model_conv(const struct pm_ctx *c, struct pm_result *r)
{
    return conv_model(c, r, &sig_conv, false);
}

static bool model_miopen(const struct pm_ctx *c, struct pm_result *r)
{
    return conv_model(c, r, &sig_miopen, false);
}

static bool model_cudnn(const struct pm_ctx *c, struct pm_result *r)
{
    /* Before 1.8 the third argument was the bias tensor. */
    const char *t2 = shapes_args_type(c->a, 2);
    bool old = shapes_dtype_bytes(t2) > 0;
    return conv_model(c, r, old ? &sig_cudnn_old : &sig_cudnn, false);
}

static bool model_conv_bwd(const struct pm_ctx *c, struct pm_result *r)
{
    return conv_model(c, r, &sig_bwd, true);
}

static bool model_vendor_bwd(const struct pm_ctx *c, struct pm_result *r)
{
    return conv_model(c, r, &sig_vendor_bwd, true);
}

const struct pm_model pm_conv_models[] = {
    {"aten::convolution", PM_CONV_FWD, PM_CONV_BWD, model_conv, NULL},
    {"aten::_convolution", PM_CONV_FWD, PM_CONV_BWD, model_conv, NULL},
    {"aten::cudnn_convolution", PM_CONV_FWD, PM_CONV_BWD, model_cudnn, NULL},
    {"aten::miopen_convolution", PM_CONV_FWD, PM_CONV_BWD, model_miopen, NULL},
    {"aten::convolution_backward", PM_CONV_BWD, PM_NONE, model_conv_bwd, NULL},
    {"aten::cudnn_convolution_backward", PM_CONV_BWD, PM_NONE, model_vendor_bwd, NULL},
    {"aten::miopen_convolution_backward", PM_CONV_BWD, PM_NONE, model_vendor_bwd, NULL},
};
const size_t pm_conv_count = ARRAY_SIZE(pm_conv_models);
