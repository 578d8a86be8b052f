/* The model registry: sheets, their parameter columns, op name lookup and
 * the result setters shared by the model files. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/roofline/perfmodel.h"
#include "core/trace/pyval.h"

const char *pm_sheet_name(enum pm_sheet s)
{
    static const char *const names[] = {
#define PM_SHEET_NAME(id, name) [id] = name,
        PM_SHEET_INFO(PM_SHEET_NAME)
#undef PM_SHEET_NAME
    };
    return (unsigned)s < ARRAY_SIZE(names) ? names[s] : "none";
}

#define P(key)                                                                                     \
    {                                                                                              \
        "param: " key, key, false, false                                                           \
    }
#define PI(key)                                                                                    \
    {                                                                                              \
        "param: " key, key, true, false                                                            \
    }
#define PO(key)                                                                                    \
    {                                                                                              \
        "param: " key, key, false, true                                                            \
    }
#define POI(key)                                                                                   \
    {                                                                                              \
        "param: " key, key, true, true                                                             \
    }

static const struct pm_param_def gemm_params[] = {
    PI("M"),       PI("N"),        PI("K"), P("bias"),      P("stride_A"),
    P("stride_B"), P("dtype_A_B"), PI("B"), P("transpose"),
};
static const struct pm_param_def conv_params[] = {
    P("convNd"),
    P("input_shape"),
    P("filter_shape"),
    P("dtype_input_weight"),
    P("input_stride"),
    P("weight_stride"),
    P("bias"),
    P("stride"),
    P("padding"),
    P("dilation"),
    P("transposed_conv"),
    P("output_padding"),
    PI("groups"),
};
static const struct pm_param_def conv_bwd_params[] = {
    P("convNd"),
    P("input_shape"),
    P("filter_shape"),
    P("dtype_input_weight"),
    P("input_stride"),
    P("weight_stride"),
    P("bias"),
    P("stride"),
    P("padding"),
    P("dilation"),
    P("transposed_conv"),
    P("output_padding"),
    PI("groups"),
    P("output_mask"),
};
static const struct pm_param_def sdpa_params[] = {
    PI("B"),     PI("N_Q"),    PI("H_Q"),   PI("N_KV"),      PI("H_KV"),     PI("d_h_qk"),
    PI("d_h_v"), P("dropout"), P("causal"), P("flash_impl"), P("dtype_A_B"),
};
static const struct pm_param_def binary_params[] = {
    P("shape_in1"),     P("shape_in2"),     P("dtype_in1_in2_out"),
    P("stride_input1"), P("stride_input2"), P("stride_output"),
};
static const struct pm_param_def unary_params[] = {
    P("op_shape"),
    P("dtype_in_out"),
    P("stride_input"),
    P("stride_output"),
};
static const struct pm_param_def reduce_params[] = {
    PI("num_input_elems"),
    PI("num_output_elems"),
    P("dtype_in_out"),
    P("reduce_type"),
};
static const struct pm_param_def norm_params[] = {
    P("op_shape"),
    P("dtype_in_out"),
    P("stride_input"),
    P("stride_output"),
    PI("num_channels"),
    P("has_bias"),
    P("is_affine"),
    P("is_training"),
    P("output_mask"),
    /* torchtop's own flags, from the arguments (perf_norm.c) */
    P("has_bias_args"),
    P("is_affine_args"),
    P("is_training_args"),
    P("output_mask_args"),
};

static const struct pm_param_def rmsnorm_params[] = {
    P("op_shape"),      P("dtype_in_out"), P("stride_input"), P("stride_output"),
    PI("num_channels"), P("has_bias"),     P("is_affine"),    P("is_training"),
};
static const struct pm_param_def rope_params[] = {
    PI("num_elements"),
};
static const struct pm_param_def moe_unfused_params[] = {
    PI("num_tokens"),
    PI("hidden_dim"),
    PI("inter_dim"),
    PI("num_experts"),
    PI("topk"),
    P("gated"),
    P("input_dtype"),
    P("weight_dtype"),
    /* SGLang's invoke_fused_moe_kernel's (perf_moe.c) */
    POI("m_work"),
    POI("N"),
    POI("K"),
    PO("output_dtype"),
};
static const struct pm_param_def moe_fused_params[] = {
    PI("num_tokens"), PI("hidden_dim"), PI("inter_dim"),   PI("num_experts"),  PI("topk"),
    P("gated"),       P("input_dtype"), P("weight_dtype"), PO("output_dtype"),
};
static const struct pm_param_def grouped_gemm_params[] = {
    PI("M"), PI("K"), PI("N"), PI("G"), PI("bpe_in"), PI("bpe_out"),
};
static const struct pm_param_def moe_comm_params[] = {
    PI("num_tokens"),
    PI("hidden_dim"),
    PI("bpe"),
};
static const struct pm_param_def xent_params[] = {
    PI("batch"),
    PI("vocab_size"),
    P("logits_shape"),
};
static const struct pm_param_def softmax_params[] = {
    P("op_shape"),
    PI("dim"),
    P("dtype_in_out"),
};
static const struct pm_param_def triton_params[] = {
    P("fused_ops"),
    PI("xnumel"),
    PI("rnumel"),
};
static const struct pm_param_def infattn_params[] = {
    /* sglang::store_cache's (perf_infattn.c), first as in TraceLens's sheet */
    PO("op_shape"), POI("nelems"), PO("dtype"),  PI("B"),      PI("N_Q"),
    PI("H_Q"),      PI("H_V"),     PI("H_K"),    PI("N_KV"),   PI("H_KV"),
    PI("d_h_qk"),   PI("d_h_v"),   P("dropout"), P("causal"),  P("flash_impl"),
    PI("c_sq"),     PI("c_sk"),    PI("c_sqsq"), PI("c_sqsk"), PI("g_sq"),
    PI("g_sk"),     PI("g_sqsq"),  PI("g_sqsk"), P("dtype_Q"), P("dtype_KV"),
};

const struct pm_param_def *pm_sheet_params(enum pm_sheet s, size_t *n)
{
#define SHEET(arr) (*n = ARRAY_SIZE(arr), arr)
    switch (s) {
    case PM_GEMM:
    case PM_GEMM_BWD:
        return SHEET(gemm_params);
    case PM_CONV_FWD:
        return SHEET(conv_params);
    case PM_CONV_BWD:
        return SHEET(conv_bwd_params);
    case PM_SDPA_FWD:
    case PM_SDPA_BWD:
        return SHEET(sdpa_params);
    case PM_BINARY:
        return SHEET(binary_params);
    case PM_UNARY:
        return SHEET(unary_params);
    case PM_REDUCE_FWD:
    case PM_REDUCE_BWD:
        return SHEET(reduce_params);
    case PM_NORM:
        return SHEET(norm_params);
    case PM_RMSNORM:
        return SHEET(rmsnorm_params);
    case PM_INFER_ATTN:
        return SHEET(infattn_params);
    case PM_ROPE:
        return SHEET(rope_params);
    case PM_TRITON:
        return SHEET(triton_params);
    case PM_MOE_UNFUSED:
        return SHEET(moe_unfused_params);
    case PM_MOE_FUSED:
        return SHEET(moe_fused_params);
    case PM_GROUPED_GEMM:
        return SHEET(grouped_gemm_params);
    case PM_MOE_COMM:
        return SHEET(moe_comm_params);
    case PM_XENT:
        return SHEET(xent_params);
    case PM_SOFTMAX:
        return SHEET(softmax_params);
    default:
        break;
    }
#undef SHEET
    *n = 0;
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Registry                                                                 */
/* ------------------------------------------------------------------------ */

struct family {
    const struct pm_model *v;
    const size_t *n;
};

static const struct family families[] = {
    {pm_gemm_models, &pm_gemm_count},           {pm_conv_models, &pm_conv_count},
    {pm_attn_models, &pm_attn_count},           {pm_eltwise_models, &pm_eltwise_count},
    {pm_reduce_models, &pm_reduce_count},       {pm_norm_models, &pm_norm_count},
    {pm_infattn_models, &pm_infattn_count},     {pm_rmsnorm_models, &pm_rmsnorm_count},
    {pm_rope_models, &pm_rope_count},           {pm_moe_models, &pm_moe_count},
    {pm_moe_fused_models, &pm_moe_fused_count}, {pm_grouped_gemm_models, &pm_grouped_gemm_count},
    {pm_moe_comm_models, &pm_moe_comm_count},   {pm_xent_models, &pm_xent_count},
    {pm_softmax_models, &pm_softmax_count},
};

const struct pm_model *pm_find(const char *op)
{
    if (!op || !*op)
        return NULL;
    for (size_t f = 0; f < ARRAY_SIZE(families); f++)
        for (size_t i = 0; i < *families[f].n; i++)
            if (strcmp(families[f].v[i].op, op) == 0)
                return &families[f].v[i];
    for (size_t i = 0; i < pm_triton_count; i++) {
        const char *p = pm_triton_models[i].op;
        if (strncmp(op, p, strlen(p)) == 0)
            return &pm_triton_models[i];
    }
    return NULL;
}

bool pm_eval(const struct pm_model *m, const struct pm_ctx *c, struct pm_result *r)
{
    memset(r, 0, offsetof(struct pm_result, text));
    r->text[0] = '\0';
    r->sheet = c->bwd ? m->bwd_sheet : m->sheet;
    if (r->sheet == PM_NONE)
        return false;
    size_t n;
    pm_sheet_params(r->sheet, &n);
    r->nparams = (uint8_t)n;
    for (size_t i = 0; i < PM_MAX_PARAMS; i++)
        r->off[i] = UINT16_MAX;
    r->flops = r->bytes = r->tl_flops = r->tl_bytes = NAN;
    return m->fn(c, r);
}

const char *pm_param(const struct pm_result *r, size_t i)
{
    if (i >= r->nparams || r->off[i] == UINT16_MAX)
        return NULL;
    return r->text + r->off[i];
}

/* ------------------------------------------------------------------------ */
/* Setters                                                                  */
/* ------------------------------------------------------------------------ */

void pm_set_text(struct pm_result *r, size_t i, const char *s)
{
    if (i >= r->nparams || !s)
        return;
    size_t n = strlen(s);
    if (r->len + n + 1 > sizeof(r->text)) {
        /* Does not happen with real shapes; keep the row groupable. */
        s = "...";
        n = 3;
        if (r->len + n + 1 > sizeof(r->text))
            return;
    }
    r->off[i] = (uint16_t)r->len;
    memcpy(r->text + r->len, s, n + 1);
    r->len += n + 1;
}

void pm_set_int(struct pm_result *r, size_t i, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof(buf), "%lld", (long long)v);
    pm_set_text(r, i, buf);
}

void pm_set_bool(struct pm_result *r, size_t i, bool v)
{
    pm_set_text(r, i, v ? "True" : "False");
}

void pm_set_float(struct pm_result *r, size_t i, double v)
{
    struct strbuf sb = STRBUF_INIT;
    pyval_repr_float(&sb, v);
    pm_set_text(r, i, sb_str(&sb));
    sb_free(&sb);
}

void pm_set_tuple(struct pm_result *r, size_t i, const struct shape *s)
{
    struct strbuf sb = STRBUF_INIT;
    shapes_put_tuple(&sb, s);
    pm_set_text(r, i, sb_str(&sb));
    sb_free(&sb);
}

void pm_set_dtypes(struct pm_result *r, size_t i, const char *const *v, int n)
{
    struct strbuf sb = STRBUF_INIT;
    shapes_put_pystr_tuple(&sb, v, n);
    pm_set_text(r, i, sb_str(&sb));
    sb_free(&sb);
}

void pm_set_spec(struct pm_result *r, const char *unit, const char *dtype)
{
    const char *p = shapes_dtype_precision(dtype);
    if (p)
        snprintf(r->spec, sizeof(r->spec), "%s_%s", unit, p);
    else
        r->spec[0] = '\0';
}

int pm_tl_dtype_bytes(const char *type)
{
    return type && strcmp(type, "bool") == 0 ? 0 : shapes_dtype_bytes(type);
}
