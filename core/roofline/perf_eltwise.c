/* Elementwise models: unary ops (n elements in, n out) and binary ops with
 * broadcasting (the output has the broadcast shape). The op lists are
 * TraceLens's, so its sheets line up; add a name to extend them. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum { U_SHAPE, U_DT, U_SIN, U_SOUT };
enum { B_S1, B_S2, B_DT, B_SIN1, B_SIN2, B_SOUT };

/* unary(self, [out or src], ...): an output given by the second argument
 * when it is a tensor with dims (copy_'s source, an out= tensor). */
static bool model_unary(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_shape(a, 0))
        return false;
    bool has_out = shapes_args_tensor(a, 1);
    const char *tin = shapes_args_type(a, 0);
    const char *tout = has_out ? shapes_args_type(a, 1) : NULL;
    pm_set_tuple(r, U_SHAPE, &a->dims[0]);
    const char *dt[2] = {tin, tout};
    pm_set_dtypes(r, U_DT, dt, 2);
    pm_set_tuple(r, U_SIN, &a->strides[0]);
    if (has_out)
        pm_set_tuple(r, U_SOUT, &a->strides[1]);
    else
        pm_set_text(r, U_SOUT, "None");
    pm_set_spec(r, "vector", tin);
    r->model = "unary v1";
    double n = (double)shapes_numel(&a->dims[0]);
    int bin = shapes_dtype_bytes(tin);
    int bout = tout ? shapes_dtype_bytes(tout) : bin;
    r->flops = r->tl_flops = n;
    if (bin && bout)
        r->bytes = n * bin + n * bout;
    int tbin = pm_tl_dtype_bytes(tin), tbout = tout ? pm_tl_dtype_bytes(tout) : tbin;
    if (tbin && tbout)
        r->tl_bytes = n * tbin + n * tbout;
    else if (!isnan(r->bytes))
        r->differs = PM_DIFFERS_BOOL;
    return true;
}

/* The output shape of upsample_nearest{1,2,3}d(self, output_size, scales...)
 * or its .vec overload (input, output_size?, scale_factors?): self's leading
 * dims, then output_size when given, else each spatial dim times its scale,
 * rounded down. False when neither is recorded. */
static bool upsample_out(const struct op_args *a, struct shape *out)
{
    const struct shape *in = &a->dims[0];
    *out = *in;
    int64_t size[SHAPES_MAX_DIMS];
    int k = 0;
    if (shapes_parse_int_list(shapes_args_concrete(a, 1), size, SHAPES_MAX_DIMS, &k) && k > 0) {
        if (k > in->nd)
            return false;
        for (int i = 0; i < k; i++)
            out->d[in->nd - k + i] = size[i];
        return shapes_valid(out);
    }
    /* Scales: one list (.vec), or one scalar per spatial dim. */
    double sc[SHAPES_MAX_DIMS];
    const char *v = shapes_args_concrete(a, 2);
    int ns = 0;
    if (v[0] == '[') {
        const char *p = v + 1;
        while (*p && *p != ']' && ns < SHAPES_MAX_DIMS) {
            char num[64];
            size_t l = strcspn(p, ",]");
            if (l == 0 || l >= sizeof(num))
                return false;
            memcpy(num, p, l);
            num[l] = '\0';
            if (!shapes_parse_double(num, &sc[ns++]))
                return false;
            p += l;
            if (*p == ',')
                p++;
            while (*p == ' ')
                p++;
        }
    } else {
        while (ns < SHAPES_MAX_DIMS && 2 + ns < (int)a->n &&
               shapes_parse_double(shapes_args_concrete(a, 2 + (uint32_t)ns), &sc[ns]))
            ns++;
    }
    if (ns == 0 || ns > in->nd)
        return false;
    for (int i = 0; i < ns; i++)
        out->d[in->nd - ns + i] = (int64_t)floor((double)in->d[in->nd - ns + i] * sc[i]);
    return shapes_valid(out);
}

/* Nearest-neighbour upsampling: one FLOP per output element, the input read
 * and the output written (TraceLens 171dd74's numbers); the row keyed as a
 * unary op's, by the input's shape. Without an output size or scales, a
 * unary op on the input. */
static bool model_upsample(const struct pm_ctx *c, struct pm_result *r)
{
    if (!model_unary(c, r))
        return false;
    const struct op_args *a = c->a;
    struct shape out;
    if (!upsample_out(a, &out))
        return true;
    r->model = "upsample v1";
    const char *t = shapes_args_type(a, 0);
    double nin = (double)shapes_numel(&a->dims[0]), nout = (double)shapes_numel(&out);
    r->flops = r->tl_flops = nout;
    int b = shapes_dtype_bytes(t), tb = pm_tl_dtype_bytes(t);
    r->bytes = b ? nin * b + nout * b : NAN;
    r->tl_bytes = tb ? nin * tb + nout * tb : NAN;
    return true;
}

/* Gated SiLU, silu_and_mul(out, input): out[..., :d] = silu(input[..., :d])
 * * input[..., d:], out of d = input's last dim / 2 columns. TraceLens's
 * sgl_kernel_silu_and_mul: 5 FLOPs per output element, the input read
 * (2n elements) and the output written (n); the row keyed by the output's
 * shape, (input, output) dtypes and the input's then the output's
 * strides. */
static bool model_silu_and_mul(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_shape(a, 0) || !shapes_args_shape(a, 1))
        return false;
    const char *tout = shapes_args_type(a, 0), *tin = shapes_args_type(a, 1);
    pm_set_tuple(r, U_SHAPE, &a->dims[0]);
    const char *dt[2] = {tin, tout};
    pm_set_dtypes(r, U_DT, dt, 2);
    pm_set_tuple(r, U_SIN, &a->strides[1]);
    pm_set_tuple(r, U_SOUT, &a->strides[0]);
    pm_set_spec(r, "vector", tin);
    r->model = "silu_and_mul v1";
    double n = (double)shapes_numel(&a->dims[0]);
    r->flops = r->tl_flops = 5 * n;
    int bin = shapes_dtype_bytes(tin), bout = shapes_dtype_bytes(tout);
    if (bin && bout)
        r->bytes = 2 * n * bin + n * bout;
    int tbin = pm_tl_dtype_bytes(tin), tbout = pm_tl_dtype_bytes(tout);
    if (tbin && tbout)
        r->tl_bytes = 2 * n * tbin + n * tbout;
    else if (!isnan(r->bytes))
        r->differs = PM_DIFFERS_BOOL;
    return true;
}

/* Broadcast two shapes (right-aligned); false when incompatible. */
static bool broadcast(const struct shape *x, const struct shape *y, struct shape *out)
{
    int nd = MAX(x->nd, y->nd);
    out->nd = (int16_t)nd;
    for (int i = 0; i < nd; i++) {
        int xi = x->nd - nd + i, yi = y->nd - nd + i;
        int64_t a = xi >= 0 ? x->d[xi] : 1, b = yi >= 0 ? y->d[yi] : 1;
        if (a != b && a != 1 && b != 1)
            return false;
        out->d[i] = a == 1 ? b : a;
    }
    return true;
}

/* binary(self, other, [out or alpha], ...). */
static bool model_binary(const struct pm_ctx *c, struct pm_result *r)
{
    const struct op_args *a = c->a;
    if (!shapes_args_shape(a, 0) || !shapes_args_shape(a, 1))
        return false;
    struct shape out;
    if (!broadcast(&a->dims[0], &a->dims[1], &out) || !shapes_valid(&out))
        return false;
    bool has_out = shapes_args_tensor(a, 2);
    const char *t1 = shapes_args_type(a, 0), *t2 = shapes_args_type(a, 1);
    const char *tout = has_out ? shapes_args_type(a, 2) : NULL;
    pm_set_tuple(r, B_S1, &a->dims[0]);
    pm_set_tuple(r, B_S2, &a->dims[1]);
    const char *dt[3] = {t1, t2, tout};
    pm_set_dtypes(r, B_DT, dt, 3);
    pm_set_tuple(r, B_SIN1, &a->strides[0]);
    pm_set_tuple(r, B_SIN2, &a->strides[1]);
    if (has_out)
        pm_set_tuple(r, B_SOUT, &a->strides[2]);
    else
        pm_set_text(r, B_SOUT, "None");
    pm_set_spec(r, "vector", t1);
    r->model = "binary v1";
    int b1 = shapes_dtype_bytes(t1), b2 = shapes_dtype_bytes(t2), bo = 0;
    if (tout)
        bo = shapes_dtype_bytes(tout);
    else if (b1 && b2)
        /* Two tensors promote to the wider type; a scalar operand does not
         * widen a tensor. */
        bo = a->dims[0].nd > 0 && a->dims[1].nd > 0 ? MAX(b1, b2) : b1;
    double n1 = (double)shapes_numel(&a->dims[0]), n2 = (double)shapes_numel(&a->dims[1]);
    double no = (double)shapes_numel(&out);
    r->flops = r->tl_flops = no;
    if (b1 && b2 && bo)
        r->bytes = n1 * b1 + n2 * b2 + no * bo;
    if (pm_tl_dtype_bytes(t1) && pm_tl_dtype_bytes(t2) && (!tout || pm_tl_dtype_bytes(tout)))
        r->tl_bytes = r->bytes;
    else if (!isnan(r->bytes))
        r->differs = PM_DIFFERS_BOOL;
    return true;
}

const struct pm_model pm_eltwise_models[] = {
    {"aten::copy", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::copy_", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::clamp_min", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::clamp_min_", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::clamp_max", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::clamp_max_", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::sigmoid", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::rsqrt", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::silu", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::neg", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::pow", PM_UNARY, PM_NONE, model_unary, NULL},
    {"aten::upsample_nearest1d", PM_UNARY, PM_NONE, model_upsample, NULL},
    {"aten::upsample_nearest2d", PM_UNARY, PM_NONE, model_upsample, NULL},
    {"aten::upsample_nearest3d", PM_UNARY, PM_NONE, model_upsample, NULL},
    {"aten::upsample_bilinear2d", PM_UNARY, PM_NONE, model_unary, NULL},
    /* sglang's gated SiLU (TraceLens's pseudo-op extensions). */
    {"sgl_kernel::silu_and_mul", PM_UNARY, PM_NONE, model_silu_and_mul, NULL},
    {"aten::div", PM_BINARY, PM_NONE, model_binary, NULL},
    {"aten::div_", PM_BINARY, PM_NONE, model_binary, NULL},
    {"aten::mul", PM_BINARY, PM_NONE, model_binary, NULL},
    {"aten::mul_", PM_BINARY, PM_NONE, model_binary, NULL},
    {"aten::add", PM_BINARY, PM_NONE, model_binary, NULL},
    {"aten::add_", PM_BINARY, PM_NONE, model_binary, NULL},
    {"aten::sigmoid_backward", PM_BINARY, PM_NONE, model_binary, NULL},
    {"aten::threshold_backward", PM_BINARY, PM_NONE, model_binary, NULL},
};
const size_t pm_eltwise_count = ARRAY_SIZE(pm_eltwise_models);
