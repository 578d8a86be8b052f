/* The forward and backward passes of the simulated model: ops, frames and
 * launches of every layer, and the autograd nodes that pair them. */
#include "config.h"

#include "core/synth/synth_sim.h"

/* ------------------------------------------------------------------------ */
/* Forward                                                                  */
/* ------------------------------------------------------------------------ */

/* Ops that own an autograd node take a fresh Sequence number; composite ops
 * above them record the same number (RecordFunction reads the counter
 * before the child takes it), so the backward op pairs with the latest. */

/* Queue a node for the backward pass; op (the forward op that owns it) gets
 * the fwdbwd flow. Buckets mark where a gradient all-reduce goes. */
static void node_push(struct sim *s, uint8_t kind, uint8_t lin, int64_t seq, uint32_t op,
                      uint64_t addr, int64_t bytes)
{
    struct sim_node n = {kind, lin, seq, 0, addr, bytes};
    if (kind != N_BUCKET && kind != N_BUCKET_LAST) {
        n.flow = ++s->next_flow;
        s->r.v[op].flow = n.flow;
    }
    VEC_PUSH(&s->nodes, n);
}

static void fwd_node(struct sim *s, uint8_t kind, uint8_t lin, int64_t seq, uint32_t op,
                     struct act a)
{
    node_push(s, kind, lin, seq, op, a.addr, a.bytes);
}

static void sim_linear(struct sim *s, int th, enum lin_kind k)
{
    const struct lin_ops *l = &s->m->lin[k];
    int64_t out_bytes = s->m->T * l->out * 2;
    struct mod_frames f = sim_mod_enter(s, th, MOD_LINEAR, PY_LINEAR_FWD);
    int64_t q = s->next_seq++;
    uint32_t lin = sim_op_open(s, th, l->linear, q);
    if (k == LIN_HEAD) {
        uint32_t mm = sim_op_open(s, th, l->matmul, q);
        sim_op_leaf(s, th, l->view_in);
        uint32_t o = sim_op_open(s, th, l->mm, q);
        struct act a = sim_act_alloc(s, th, out_bytes);
        sim_launch(s, th, l->k_fwd);
        sim_op_close(s, o);
        sim_op_leaf(s, th, l->unsafe_view);
        sim_op_close(s, mm);
        fwd_node(s, N_MM, (uint8_t)k, q, o, a);
    } else {
        uint32_t t = sim_op_open(s, th, l->t, -1);
        uint32_t tr = sim_op_open(s, th, l->transpose, -1);
        sim_op_leaf(s, th, l->as_strided);
        sim_op_close(s, tr);
        sim_op_close(s, t);
        sim_op_leaf(s, th, l->view_in);
        uint32_t o = sim_op_open(s, th, l->addmm, q);
        struct act a = sim_act_alloc(s, th, out_bytes);
        sim_launch(s, th, l->k_fwd);
        sim_op_close(s, o);
        sim_op_leaf(s, th, l->view_out);
        fwd_node(s, N_ADDMM, (uint8_t)k, q, o, a);
    }
    sim_op_close(s, lin);
    sim_mod_exit(s, f);
}

static void sim_layer_norm(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    struct mod_frames f = sim_mod_enter(s, th, MOD_LAYERNORM, PY_LN_FWD);
    int64_t q = s->next_seq++;
    uint32_t ln = sim_op_open(s, th, o->layer_norm, q);
    uint32_t n = sim_op_open(s, th, o->native_layer_norm, q);
    sim_op_leaf(s, th, o->empty_ln);
    sim_op_leaf(s, th, o->empty_ln);
    struct act a = sim_act_alloc(s, th, s->m->T * s->m->H * 2);
    sim_launch(s, th, o->k_ln);
    sim_op_close(s, n);
    sim_op_close(s, ln);
    fwd_node(s, N_LN, 0, q, n, a);
    sim_mod_exit(s, f);
}

/* One op that owns its autograd node and launches one kernel. */
static void fwd_simple(struct sim *s, int th, uint16_t op, uint16_t k, uint8_t kind,
                       int64_t out_bytes)
{
    int64_t q = s->next_seq++;
    uint32_t i = sim_op_open(s, th, op, q);
    struct act a = sim_act_alloc(s, th, out_bytes);
    sim_launch(s, th, k);
    sim_op_close(s, i);
    fwd_node(s, kind, 0, q, i, a);
}

/* A composite op over the op that owns the node (same Sequence number). */
static void fwd_pair(struct sim *s, int th, uint16_t outer, uint16_t inner, uint16_t k,
                     uint8_t kind, int64_t out_bytes)
{
    int64_t q = s->next_seq++;
    uint32_t a = sim_op_open(s, th, outer, q);
    uint32_t b = sim_op_open(s, th, inner, q);
    struct act m = sim_act_alloc(s, th, out_bytes);
    sim_launch(s, th, k);
    sim_op_close(s, b);
    sim_op_close(s, a);
    fwd_node(s, kind, 0, q, b, m);
}

/* Global blocks run flash attention through SDPA; local (sliding-window)
 * blocks run it eagerly: bmm, scale, masked softmax, bmm. */
static void sim_attention(struct sim *s, int th, bool local)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    int64_t scores = m->B * m->NH * m->S * m->S * 2;
    struct mod_frames f = sim_mod_enter(s, th, local ? MOD_LOCAL_ATTN : MOD_ATTN, PY_ATTN_FWD);
    sim_linear(s, th, LIN_QKV);
    uint32_t sp = sim_op_open(s, th, o->split, -1);
    for (int i = 0; i < 3; i++) {
        uint32_t n = sim_op_open(s, th, o->narrow, -1);
        sim_op_leaf(s, th, o->slice);
        sim_op_close(s, n);
    }
    sim_op_close(s, sp);
    for (int i = 0; i < 3; i++) {
        sim_op_leaf(s, th, o->view_head);
        sim_op_leaf(s, th, o->transpose_head);
    }
    if (!local) {
        uint32_t p = sim_py_open(s, th, PY_SDPA);
        int64_t q = s->next_seq++;
        uint32_t a = sim_op_open(s, th, o->sdpa, q);
        uint32_t b = sim_op_open(s, th, o->sdpa_flash, q);
        uint32_t c = sim_op_open(s, th, o->flash_fwd, -1);
        sim_op_leaf(s, th, o->empty_attn);
        struct act out = sim_act_alloc(s, th, m->T * m->H * 2);
        sim_launch(s, th, o->k_flash_fwd);
        sim_op_close(s, c);
        sim_op_close(s, b);
        sim_op_close(s, a);
        sim_py_close(s, p);
        fwd_node(s, N_FLASH, 0, q, b, out);
    } else {
        fwd_pair(s, th, o->matmul_qk, o->bmm_qk, o->k_bmm_qk, N_BMM_QK, scores);
        fwd_simple(s, th, o->mul_scale, o->k_mul_scale, N_MUL, scores);
        uint32_t p = sim_py_open(s, th, PY_SOFTMAX);
        fwd_pair(s, th, o->softmax, o->softmax_inner, o->k_softmax, N_SOFTMAX, scores);
        sim_py_close(s, p);
        fwd_pair(s, th, o->matmul_pv, o->bmm_pv, o->k_bmm_pv, N_BMM_PV, m->T * m->H * 2);
    }
    sim_op_leaf(s, th, o->transpose_out);
    uint32_t rs = sim_op_open(s, th, o->reshape_out, -1);
    uint32_t cl = sim_op_open(s, th, o->clone, -1);
    sim_op_leaf(s, th, o->empty_like);
    int64_t rounded;
    uint64_t addr = sim_mem_alloc(s, th, m->T * m->H * 2, &rounded);
    uint32_t cp = sim_op_open(s, th, o->copy_out, -1);
    sim_launch(s, th, o->k_copy);
    sim_op_close(s, cp);
    sim_op_close(s, cl);
    sim_op_leaf(s, th, o->unsafe_view_out);
    sim_op_close(s, rs);
    sim_linear(s, th, LIN_PROJ);
    sim_mem_free(s, th, addr, rounded);
    sim_mod_exit(s, f);
}

static void sim_block(struct sim *s, int th, unsigned layer)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    node_push(s, N_BUCKET, 0, -1, 0, 0, 0);
    struct mod_frames f = sim_mod_enter(s, th, MOD_BLOCK, PY_BLOCK_FWD);
    sim_layer_norm(s, th);
    sim_attention(s, th, layer % 2 == 1);
    fwd_simple(s, th, o->add, o->k_add, N_ADD, m->T * m->H * 2);
    sim_layer_norm(s, th);
    struct mod_frames mlp = sim_mod_enter(s, th, MOD_MLP, PY_MLP_FWD);
    sim_linear(s, th, LIN_FC1);
    struct mod_frames g = sim_mod_enter(s, th, MOD_GELU, PY_GELU_FWD);
    fwd_simple(s, th, o->gelu, o->k_gelu, N_GELU, m->T * m->F * 2);
    sim_mod_exit(s, g);
    sim_linear(s, th, LIN_FC2);
    sim_mod_exit(s, mlp);
    fwd_simple(s, th, o->add, o->k_add, N_ADD, m->T * m->H * 2);
    sim_mod_exit(s, f);
}

static void sim_stem(struct sim *s, int th)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    int64_t act = m->B * m->C * (m->IMG / 2) * (m->IMG / 2) * 2;
    struct mod_frames f = sim_mod_enter(s, th, MOD_STEM, PY_STEM_FWD);

    struct mod_frames c = sim_mod_enter(s, th, MOD_CONV, PY_CONV_FWD);
    int64_t q = s->next_seq++;
    uint32_t a = sim_op_open(s, th, o->conv2d, q);
    uint32_t b = sim_op_open(s, th, o->convolution, q);
    uint32_t ci = sim_op_open(s, th, o->convolution_inner, -1);
    uint32_t d = sim_op_open(s, th, o->cudnn_conv, -1);
    struct act out = sim_act_alloc(s, th, act);
    sim_launch(s, th, o->k_conv);
    sim_op_close(s, d);
    sim_op_close(s, ci);
    sim_op_close(s, b);
    sim_op_close(s, a);
    fwd_node(s, N_CONV, 0, q, b, out);
    sim_mod_exit(s, c);

    struct mod_frames bn = sim_mod_enter(s, th, MOD_BN, PY_BN_FWD);
    q = s->next_seq++;
    a = sim_op_open(s, th, o->batch_norm, q);
    b = sim_op_open(s, th, o->bn_impl, q);
    d = sim_op_open(s, th, o->cudnn_bn, q);
    out = sim_act_alloc(s, th, act);
    sim_launch(s, th, o->k_bn);
    sim_op_close(s, d);
    sim_op_close(s, b);
    sim_op_close(s, a);
    fwd_node(s, N_BN, 0, q, d, out);
    sim_mod_exit(s, bn);

    struct mod_frames r = sim_mod_enter(s, th, MOD_RELU, PY_RELU_FWD);
    q = s->next_seq++;
    a = sim_op_open(s, th, o->relu, q);
    b = sim_op_open(s, th, o->clamp_min, -1);
    sim_launch(s, th, o->k_relu);
    sim_op_close(s, b);
    sim_op_close(s, a);
    fwd_node(s, N_RELU, 0, q, a, (struct act){0, 0});
    sim_mod_exit(s, r);
    sim_mod_exit(s, f);
}

void sim_forward(struct sim *s, int th)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    node_push(s, N_BUCKET_LAST, 0, -1, 0, 0, 0);
    struct mod_frames f = sim_mod_enter(s, th, MOD_GPT, PY_MODEL_FWD);
    if (m->conv)
        sim_stem(s, th);

    struct mod_frames e = sim_mod_enter(s, th, MOD_EMBEDDING, PY_EMB_FWD);
    int64_t q = s->next_seq++;
    uint32_t emb = sim_op_open(s, th, o->embedding, q);
    uint32_t rs = sim_op_open(s, th, o->reshape_ids, -1);
    sim_op_leaf(s, th, o->view_ids);
    sim_op_close(s, rs);
    uint32_t is = sim_op_open(s, th, o->index_select, -1);
    struct act a = sim_act_alloc(s, th, m->T * m->H * 2);
    sim_launch(s, th, o->k_index_select);
    sim_op_close(s, is);
    sim_op_leaf(s, th, o->view_emb);
    sim_op_close(s, emb);
    fwd_node(s, N_EMB, 0, q, emb, a);
    sim_mod_exit(s, e);

    for (unsigned l = 0; l < m->layers; l++)
        sim_block(s, th, l);
    sim_layer_norm(s, th);
    sim_linear(s, th, LIN_HEAD);
    sim_mod_exit(s, f);

    uint32_t ce = sim_py_open(s, th, PY_CROSS_ENTROPY);
    /* The composite op records the Sequence number its child takes. */
    uint32_t c = sim_op_open(s, th, o->cross_entropy, s->next_seq);
    fwd_pair(s, th, o->log_softmax, o->log_softmax_inner, o->k_log_softmax, N_LOG_SOFTMAX,
             m->T * m->V * 2);
    int64_t q2 = s->next_seq++;
    uint32_t nd = sim_op_open(s, th, o->nll_nd, q2);
    uint32_t nl = sim_op_open(s, th, o->nll, q2);
    uint32_t nf = sim_op_open(s, th, o->nll_fwd, q2);
    struct act loss = sim_act_alloc(s, th, 512);
    sim_launch(s, th, o->k_nll);
    sim_op_close(s, nf);
    sim_op_close(s, nl);
    sim_op_close(s, nd);
    fwd_node(s, N_NLL, 0, q2, nf, loss);
    sim_op_close(s, c);
    sim_py_close(s, ce);
}

/* ------------------------------------------------------------------------ */
/* Backward (autograd thread)                                               */
/* ------------------------------------------------------------------------ */

static void accumulate_grad(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    uint32_t ev = sim_op_open(s, th, o->ev_acc, -1);
    uint32_t n = sim_op_open(s, th, o->node_acc, -1);
    uint32_t d = sim_op_open(s, th, o->detach, -1);
    sim_op_leaf(s, th, o->detach_inner);
    sim_op_close(s, d);
    sim_op_close(s, n);
    sim_op_close(s, ev);
}

/* The DDP comm hook for one gradient bucket: an all-reduce on the comm
 * stream once the compute stream has produced the gradients. */
static void bucket_allreduce(struct sim *s, int th, bool last)
{
    const struct model_ops *o = &s->m->o;
    uint32_t h = sim_py_open_parent(s, th, PY_HOOK, s->run_backward_py);
    uint32_t hf = sim_py_open(s, th, PY_HOOK_FUT);
    uint32_t w = sim_py_open(s, th, PY_C10D_WRAPPER);
    uint32_t ar = sim_py_open(s, th, PY_ALL_REDUCE);
    uint32_t c = sim_op_open(s, th, o->allreduce, -1);
    uint32_t r = sim_op_open(s, th, last ? o->rpc_last : o->rpc_layer, -1);
    sim_rt_call(s, th, RT_IS_CAPTURING);
    sim_rt_call(s, th, RT_EVENT_RECORD);
    sim_rt_call(s, th, RT_STREAM_WAIT);
    uint32_t a = sim_ann_open(s, th, ANN_NCCL_ALLREDUCE);
    sim_launch_on(s, th, last ? o->k_nccl_last : o->k_nccl_layer, ST_COMM,
                  s->stream_free[ST_COMPUTE]);
    sim_op_close(s, a);
    sim_rt_call(s, th, RT_EVENT_RECORD);
    sim_op_close(s, r);
    sim_op_close(s, c);
    sim_py_close(s, ar);
    sim_py_close(s, w);
    sim_py_close(s, hf);
    sim_py_close(s, h);
}

static void bwd_node(struct sim *s, int th, const struct sim_node *n)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    if (n->kind == N_BUCKET || n->kind == N_BUCKET_LAST) {
        bucket_allreduce(s, th, n->kind == N_BUCKET_LAST);
        return;
    }
    uint16_t ev_op, node_op;
    switch (n->kind) {
    case N_ADDMM:
        ev_op = o->ev_addmm;
        node_op = o->node_addmm;
        break;
    case N_MM:
        ev_op = o->ev_mm;
        node_op = o->node_mm;
        break;
    case N_LN:
        ev_op = o->ev_ln;
        node_op = o->node_ln;
        break;
    case N_ADD:
        ev_op = o->ev_add;
        node_op = o->node_add;
        break;
    case N_GELU:
        ev_op = o->ev_gelu;
        node_op = o->node_gelu;
        break;
    case N_FLASH:
        ev_op = o->ev_flash;
        node_op = o->node_flash;
        break;
    case N_BMM_QK:
    case N_BMM_PV:
        ev_op = o->ev_bmm;
        node_op = o->node_bmm;
        break;
    case N_SOFTMAX:
        ev_op = o->ev_softmax;
        node_op = o->node_softmax;
        break;
    case N_MUL:
        ev_op = o->ev_mul;
        node_op = o->node_mul;
        break;
    case N_EMB:
        ev_op = o->ev_emb;
        node_op = o->node_emb;
        break;
    case N_LOG_SOFTMAX:
        ev_op = o->ev_log_softmax;
        node_op = o->node_log_softmax;
        break;
    case N_NLL:
        ev_op = o->ev_nll;
        node_op = o->node_nll;
        break;
    case N_CONV:
        ev_op = o->ev_conv;
        node_op = o->node_conv;
        break;
    case N_BN:
        ev_op = o->ev_bn;
        node_op = o->node_bn;
        break;
    default:
        ev_op = o->ev_relu;
        node_op = o->node_relu;
        break;
    }
    uint32_t ev = sim_op_open(s, th, ev_op, n->seq);
    s->r.v[ev].flags |= RF_BACKWARD;
    s->r.v[ev].flow = n->flow;
    uint32_t node = sim_op_open(s, th, node_op, -1);
    uint32_t i, j, k;
    switch (n->kind) {
    case N_ADDMM:
    case N_MM: {
        const struct lin_ops *l = &m->lin[n->lin];
        sim_op_leaf(s, th, l->t);
        i = sim_op_open(s, th, l->mm_dgrad, -1);
        sim_launch(s, th, l->k_dgrad);
        sim_op_close(s, i);
        sim_op_leaf(s, th, l->t);
        i = sim_op_open(s, th, l->mm_wgrad, -1);
        sim_launch(s, th, l->k_wgrad);
        sim_op_close(s, i);
        if (n->kind == N_ADDMM) {
            i = sim_op_open(s, th, l->sum_bias, -1);
            sim_launch(s, th, l->k_bias);
            sim_op_close(s, i);
        }
        break;
    }
    case N_LN:
        i = sim_op_open(s, th, o->ln_bwd, -1);
        sim_launch(s, th, o->k_ln_bwd_in);
        sim_launch(s, th, o->k_ln_bwd_gamma);
        sim_op_close(s, i);
        break;
    case N_ADD:
        sim_cpu(s, th, 500, 1500);
        break;
    case N_GELU:
        i = sim_op_open(s, th, o->gelu_bwd, -1);
        sim_launch(s, th, o->k_gelu_bwd);
        sim_op_close(s, i);
        break;
    case N_FLASH:
        i = sim_op_open(s, th, o->sdpa_flash_bwd, -1);
        j = sim_op_open(s, th, o->flash_bwd, -1);
        sim_launch(s, th, o->k_flash_bwd_dot);
        sim_launch(s, th, o->k_flash_bwd);
        sim_launch(s, th, o->k_flash_bwd_convert);
        sim_op_close(s, j);
        sim_op_close(s, i);
        break;
    case N_BMM_QK:
    case N_BMM_PV: {
        bool qk = n->kind == N_BMM_QK;
        i = sim_op_open(s, th, qk ? o->bmm_qk_dgrad : o->bmm_pv_dgrad, -1);
        sim_launch(s, th, qk ? o->k_bmm_pv : o->k_bmm_qk);
        sim_op_close(s, i);
        i = sim_op_open(s, th, qk ? o->bmm_qk_wgrad : o->bmm_pv_wgrad, -1);
        sim_launch(s, th, qk ? o->k_bmm_pv : o->k_bmm_qk);
        sim_op_close(s, i);
        break;
    }
    case N_SOFTMAX:
        i = sim_op_open(s, th, o->softmax_bwd, -1);
        sim_launch(s, th, o->k_softmax_bwd);
        sim_op_close(s, i);
        break;
    case N_MUL:
        i = sim_op_open(s, th, o->mul_bwd, -1);
        sim_launch(s, th, o->k_mul_bwd);
        sim_op_close(s, i);
        break;
    case N_EMB:
        i = sim_op_open(s, th, o->emb_bwd, -1);
        j = sim_op_open(s, th, o->emb_dense_bwd, -1);
        k = sim_op_open(s, th, o->zeros, -1);
        {
            uint32_t z = sim_op_open(s, th, o->zero_, -1);
            sim_launch(s, th, o->k_memset);
            sim_op_close(s, z);
        }
        sim_op_close(s, k);
        sim_launch(s, th, o->k_emb_bwd);
        sim_op_close(s, j);
        sim_op_close(s, i);
        break;
    case N_LOG_SOFTMAX:
        i = sim_op_open(s, th, o->log_softmax_bwd, -1);
        sim_launch(s, th, o->k_log_softmax_bwd);
        sim_op_close(s, i);
        break;
    case N_NLL:
        i = sim_op_open(s, th, o->nll_bwd, -1);
        j = sim_op_open(s, th, o->nll_zero, -1);
        k = sim_op_open(s, th, o->nll_fill, -1);
        sim_launch(s, th, o->k_fill);
        sim_op_close(s, k);
        sim_op_close(s, j);
        sim_launch(s, th, o->k_nll_bwd);
        sim_op_close(s, i);
        break;
    case N_CONV:
        i = sim_op_open(s, th, o->conv_bwd, -1);
        sim_launch(s, th, o->k_conv_wgrad);
        sim_op_close(s, i);
        break;
    case N_BN:
        i = sim_op_open(s, th, o->bn_bwd, -1);
        sim_launch(s, th, o->k_bn_bwd);
        sim_op_close(s, i);
        break;
    default:
        i = sim_op_open(s, th, o->threshold_bwd, -1);
        sim_launch(s, th, o->k_threshold_bwd);
        sim_op_close(s, i);
        break;
    }
    sim_op_close(s, node);
    sim_op_close(s, ev);
    if (n->kind == N_ADDMM || n->kind == N_MM)
        accumulate_grad(s, th);
    if (n->addr)
        sim_mem_free(s, th, n->addr, n->bytes);
}

void sim_backward(struct sim *s)
{
    int M = TH_MAIN, A = TH_AUTOGRAD;
    uint32_t tb = sim_py_open(s, M, PY_TENSOR_BACKWARD);
    uint32_t ab = sim_py_open(s, M, PY_AUTOGRAD_BACKWARD);
    uint32_t er = sim_py_open(s, M, PY_ENGINE_RUN);
    uint32_t rb = sim_py_open(s, M, PY_RUN_BACKWARD);
    s->run_backward_py = s->r.v[rb].id;
    s->now[A] = MAX(s->now[A], s->now[M]) + synth_rng_range(&s->rng, 15 * US, 40 * US);
    while (s->nodes.n) {
        struct sim_node n = s->nodes.v[--s->nodes.n];
        bwd_node(s, A, &n);
    }
    s->now[M] = MAX(s->now[M], s->now[A]) + synth_rng_range(&s->rng, 5 * US, 15 * US);
    sim_py_close(s, rb);
    sim_py_close(s, er);
    sim_py_close(s, ab);
    sim_py_close(s, tb);
    /* DDP's finalize: the compute stream waits for the last all-reduce. */
    sim_rt_call(s, M, RT_STREAM_WAIT);
    s->stream_free[ST_COMPUTE] = MAX(s->stream_free[ST_COMPUTE], s->stream_free[ST_COMM]);
}
