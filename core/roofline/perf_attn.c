/* Attention models: aten::_scaled_dot_product_{flash,efficient,cudnn}_attention
 * and their backwards, flash_attn::_flash_attn_forward/backward and
 * FlashAttnFunc. Layouts: BHND for aten (batch, heads, tokens, head dim),
 * BNHD for flash_attn. Grouped-query attention (fewer K/V heads), causal
 * masks from Concrete Inputs, and bytes at the real dtype (TraceLens
 * counts 2 bytes per element whatever the dtype). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/roofline/perfmodel.h"

enum { S_B, S_NQ, S_HQ, S_NKV, S_HKV, S_DQK, S_DV, S_DROPOUT, S_CAUSAL, S_FLASH, S_DT };

struct sdpa_sig {
    int q;               /* index of q; k and v follow */
    bool bnhd;           /* flash_attn layout */
    int dropout, causal; /* Concrete Inputs positions; -1 = search from `scan` */
    int scan;            /* first position to search for dropout / causal */
    bool flash;          /* TraceLens's flash_impl (recomputes QK^T in backward) */
    bool bwd_op;         /* the op is itself a backward */
    bool tl_model;       /* TraceLens 171dd74 models this op */
    bool tl_real_dtype;  /* TraceLens uses the real dtype for its bytes */
};

struct sdpa {
    int64_t B, NQ, HQ, NKV, HKV, DQK, DV;
    double dropout;
    bool causal;
};

static bool bhnd(const struct shape *s, bool bnhd, int64_t *b, int64_t *h, int64_t *n, int64_t *d)
{
    if (s->nd != 4)
        return false;
    *b = s->d[0];
    *h = bnhd ? s->d[2] : s->d[1];
    *n = bnhd ? s->d[1] : s->d[2];
    *d = s->d[3];
    return true;
}

static const char *concrete_bool_from(const struct op_args *a, int from, bool *v)
{
    for (uint32_t i = (uint32_t)from; i < a->n; i++) {
        const char *s = a->concrete[i];
        if (strcmp(s, "True") == 0 || strcmp(s, "False") == 0) {
            *v = s[0] == 'T';
            return s;
        }
    }
    return NULL;
}

static bool sdpa_parse(const struct pm_ctx *c, const struct sdpa_sig *sg, struct sdpa *p)
{
    const struct op_args *a = c->a;
    int q = sg->q;
    if (!shapes_args_shape(a, (uint32_t)q + 2))
        return false;
    int64_t bk, bv, hv, nv, dk;
    if (!bhnd(&a->dims[q], sg->bnhd, &p->B, &p->HQ, &p->NQ, &p->DQK) ||
        !bhnd(&a->dims[q + 1], sg->bnhd, &bk, &p->HKV, &p->NKV, &dk) ||
        !bhnd(&a->dims[q + 2], sg->bnhd, &bv, &hv, &nv, &p->DV))
        return false;
    if (bk != p->B || bv != p->B || hv != p->HKV || nv != p->NKV || dk != p->DQK)
        return false;
    if (p->HKV <= 0 || p->HQ % p->HKV)
        return false;
    p->dropout = 0;
    p->causal = false;
    if (sg->dropout >= 0) {
        shapes_parse_double(shapes_args_concrete(a, (uint32_t)sg->dropout), &p->dropout);
        shapes_parse_bool(shapes_args_concrete(a, (uint32_t)sg->causal), &p->causal);
    } else {
        /* flash_attn's backward signature moved between releases: the
         * dropout probability and the causal flag are the first float and
         * the first bool after the gradient buffers. */
        for (uint32_t i = (uint32_t)sg->scan; i < a->n; i++)
            if (shapes_parse_double(a->concrete[i], &p->dropout))
                break;
        concrete_bool_from(a, sg->scan, &p->causal);
    }
    return true;
}

/* Fraction of (query, key) pairs a causal mask keeps. Equal lengths: one
 * half, as TraceLens and the FlashAttention benchmarks count it; otherwise
 * the exact count, aligned top-left (PyTorch's is_causal) or bottom-right
 * (flash_attn). */
static double causal_fraction(const struct sdpa *p, bool bottom_right)
{
    if (!p->causal)
        return 1;
    if (p->NQ == p->NKV)
        return 0.5;
    /* Query i keeps clamp(off + i + 1, 0, NKV) keys: the sum over i, in
     * closed form (lengths may be up to 2^62, too many to loop over). */
    __int128 nq = p->NQ, nkv = p->NKV;
    __int128 first = (bottom_right ? nkv - nq : 0) + 1, last = first + nq - 1;
    __int128 lo = MAX(first, 1), hi = MIN(last, nkv);
    __int128 kept = lo <= hi ? (lo + hi) * (hi - lo + 1) / 2 : 0;
    __int128 full_from = MAX(first, nkv + 1);
    if (last >= full_from)
        kept += nkv * (last - full_from + 1);
    return (double)kept / ((double)p->NQ * (double)p->NKV);
}

static double fwd_flops(const struct sdpa *p)
{
    return (double)p->B * (double)p->HQ *
           (2.0 * (double)p->NQ * (double)p->NKV * (double)p->DQK +
            2.0 * (double)p->NQ * (double)p->NKV * (double)p->DV);
}

static double fwd_elems(const struct sdpa *p)
{
    double B = (double)p->B;
    return B * (double)p->NQ * (double)p->HQ * (double)p->DQK +
           B * (double)p->NKV * (double)p->HKV * (double)(p->DQK + p->DV) +
           B * (double)p->NQ * (double)p->HQ * (double)p->DV;
}

static double bwd_flops(const struct sdpa *p, bool flash)
{
    double B = (double)p->B, HQ = (double)p->HQ, NQ = (double)p->NQ, NKV = (double)p->NKV;
    double DQK = (double)p->DQK, DV = (double)p->DV;
    double gqa = (double)(p->HQ / p->HKV - 1);
    double f = 0;
    if (flash)
        f += B * HQ * 2 * NQ * NKV * DQK;                   /* recompute QK^T */
    f += B * HQ * 2 * NKV * NQ * DV + B * NKV * DV * gqa;   /* dV, reduced over the group */
    f += B * HQ * 2 * NQ * NKV * DV;                        /* dP */
    f += B * HQ * 2 * NQ * NKV * DQK;                       /* dQ */
    f += B * HQ * 2 * NKV * NQ * DQK + B * NKV * DQK * gqa; /* dK */
    return f;
}

static double bwd_elems(const struct sdpa *p)
{
    double B = (double)p->B;
    double q = B * (double)p->NQ * (double)p->HQ * (double)p->DQK;
    double k = B * (double)p->NKV * (double)p->HKV * (double)p->DQK;
    double v = B * (double)p->NKV * (double)p->HKV * (double)p->DV;
    double o = B * (double)p->NQ * (double)p->HQ * (double)p->DV;
    return 2 * (q + k + v) + o; /* read q, k, v, dO; write dq, dk, dv */
}

static bool sdpa_model(const struct pm_ctx *c, struct pm_result *r, const struct sdpa_sig *sg)
{
    struct sdpa p;
    if (!sdpa_parse(c, sg, &p))
        return false;
    const struct op_args *a = c->a;
    pm_set_int(r, S_B, p.B);
    pm_set_int(r, S_NQ, p.NQ);
    pm_set_int(r, S_HQ, p.HQ);
    pm_set_int(r, S_NKV, p.NKV);
    pm_set_int(r, S_HKV, p.HKV);
    pm_set_int(r, S_DQK, p.DQK);
    pm_set_int(r, S_DV, p.DV);
    pm_set_float(r, S_DROPOUT, p.dropout);
    pm_set_bool(r, S_CAUSAL, p.causal);
    pm_set_bool(r, S_FLASH, sg->flash);
    const char *dt[2] = {shapes_args_type(a, (uint32_t)sg->q),
                         shapes_args_type(a, (uint32_t)sg->q + 1)};
    pm_set_dtypes(r, S_DT, dt, 2);
    pm_set_spec(r, "matrix", dt[0]);
    r->model = "sdpa v1";
    int bpe = shapes_dtype_bytes(dt[0]);
    double frac = causal_fraction(&p, sg->bnhd);
    bool bwd = sg->bwd_op || c->bwd;
    double f = bwd ? bwd_flops(&p, sg->flash) : fwd_flops(&p);
    double e = bwd ? bwd_elems(&p) : fwd_elems(&p);
    r->flops = f * frac;
    if (bpe)
        r->bytes = e * bpe;
    /* TraceLens: no model for the aten backwards, none for causal with
     * unequal lengths (it raises), 2 bytes per element except in its
     * flash_attn backward. */
    if (sg->tl_model && !c->bwd && (!p.causal || p.NQ == p.NKV)) {
        r->tl_flops = r->flops;
        r->tl_bytes = e * (sg->tl_real_dtype ? bpe : 2);
    }
    if (!isnan(r->tl_bytes) && r->bytes != r->tl_bytes)
        r->differs = "bytes at the real dtype (TraceLens: 2 per element)";
    return true;
}

#define SIG(name, ...)                                                                             \
    static bool name(const struct pm_ctx *c, struct pm_result *r)                                  \
    {                                                                                              \
        static const struct sdpa_sig sg = {__VA_ARGS__};                                           \
        return sdpa_model(c, r, &sg);                                                              \
    }

/* (query, key, value, dropout_p, is_causal, return_debug_mask, scale) */
SIG(model_aten_flash, .q = 0, .dropout = 3, .causal = 4, .flash = true, .tl_model = true)
/* (query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal, ...) */
SIG(model_aten_mem_eff, .q = 0, .dropout = 5, .causal = 6, .tl_model = true)
SIG(model_aten_cudnn, .q = 0, .dropout = 5, .causal = 6, .tl_model = true)
/* (grad_out, query, key, value, out, logsumexp, cum_seq_q, cum_seq_k,
 *  max_q, max_k, dropout_p, is_causal, ...) */
SIG(model_aten_flash_bwd, .q = 1, .dropout = 10, .causal = 11, .flash = true, .bwd_op = true)
/* (grad_out, query, key, value, attn_bias, out, logsumexp, philox_seed,
 *  philox_offset, dropout_p, grad_input_mask, is_causal, ...) */
SIG(model_aten_mem_eff_bwd, .q = 1, .dropout = 9, .causal = 11, .bwd_op = true)
/* (grad_out, query, key, value, out, logsumexp, philox_seed, philox_offset,
 *  attn_bias, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, ...) */
SIG(model_aten_cudnn_bwd, .q = 1, .dropout = 13, .causal = 14, .bwd_op = true)
/* (q, k, v, dropout_p, softmax_scale, causal, ...), BNHD */
SIG(model_fa_fwd, .q = 0, .bnhd = true, .dropout = 3, .causal = 5, .flash = true, .tl_model = true)
/* (dout, q, k, v, out, softmax_lse, dq, dk, dv, dropout_p, softmax_scale,
 *  causal, ...), BNHD */
SIG(model_fa_bwd, .q = 1, .bnhd = true, .dropout = -1, .causal = -1, .scan = 6, .flash = true,
    .bwd_op = true, .tl_model = true, .tl_real_dtype = true)

const struct pm_model pm_attn_models[] = {
    {"aten::_scaled_dot_product_flash_attention", PM_SDPA_FWD, PM_SDPA_BWD, model_aten_flash, NULL},
    {"aten::_scaled_dot_product_efficient_attention", PM_SDPA_FWD, PM_SDPA_BWD, model_aten_mem_eff,
     NULL},
    {"aten::_scaled_dot_product_cudnn_attention", PM_SDPA_FWD, PM_SDPA_BWD, model_aten_cudnn, NULL},
    {"aten::_scaled_dot_product_flash_attention_backward", PM_SDPA_BWD, PM_NONE,
     model_aten_flash_bwd, NULL},
    {"aten::_scaled_dot_product_efficient_attention_backward", PM_SDPA_BWD, PM_NONE,
     model_aten_mem_eff_bwd, NULL},
    {"aten::_scaled_dot_product_cudnn_attention_backward", PM_SDPA_BWD, PM_NONE,
     model_aten_cudnn_bwd, NULL},
    {"flash_attn::_flash_attn_forward", PM_SDPA_FWD, PM_SDPA_BWD, model_fa_fwd, NULL},
    {"FlashAttnFunc", PM_SDPA_FWD, PM_SDPA_BWD, model_fa_fwd, NULL},
    {"flash_attn::_flash_attn_backward", PM_SDPA_BWD, PM_NONE, model_fa_bwd, NULL},
};
const size_t pm_attn_count = ARRAY_SIZE(pm_attn_models);
