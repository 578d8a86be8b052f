/* The training-step simulation behind the synthetic traces: host threads
 * and GPU streams advance in integer nanoseconds, and every op, frame,
 * launch, GPU activity and allocation becomes a record of the step. */
#include "config.h"

#include <assert.h>

#include "core/synth_internal.h"

/* Autograd nodes left by the forward pass, consumed in reverse. */
enum node_kind {
    N_BUCKET, N_BUCKET_LAST, N_EMB, N_LN, N_ADDMM, N_MM, N_FLASH, N_BMM_QK, N_MUL, N_SOFTMAX,
    N_BMM_PV, N_ADD, N_GELU, N_LOG_SOFTMAX, N_NLL, N_CONV, N_BN, N_RELU,
};

struct sim_node {
    uint8_t kind;               /* enum node_kind */
    uint8_t lin;                /* enum lin_kind of N_ADDMM / N_MM */
    int64_t seq;                /* Sequence number of the forward op, -1 for buckets */
    uint32_t flow;              /* fwdbwd flow id */
    uint64_t addr;              /* activation freed after the node's backward, 0 = none */
    int64_t bytes;
};

/* Python ids of the frames that outlive every step. */
enum { PYID_BOOT = 1, PYID_SCRIPT = 6, PYID_MAIN = 7, PYID_FIRST_FREE = 8 };

#define US 1000
#define MS 1000000

/* Where the caching allocator's blocks live. */
#define HEAP_BASE 0x7f2a40000000ULL
#define RESERVE_CHUNK (20ULL << 20)

void srng_seed(struct srng *r, uint64_t seed)
{
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) {
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = x ^ (x >> 31);
    }
}

/* ------------------------------------------------------------------------ */
/* Records                                                                  */
/* ------------------------------------------------------------------------ */

static uint32_t rec_add(struct sim *s, uint8_t type, int th, uint16_t tmpl, int64_t ts)
{
    struct rec *r = VEC_ADD(&s->r);
    r->type = type;
    r->th = (uint8_t)th;
    r->tmpl = tmpl;
    r->ts = ts;
    r->seq = -1;
    return (uint32_t)(s->r.n - 1);
}

static inline void cpu(struct sim *s, int th, int64_t lo, int64_t hi)
{
    s->now[th] += srng_range(&s->rng, lo, hi);
}

static uint32_t open_(struct sim *s, int th, uint8_t type, uint16_t tmpl, int64_t seq)
{
    cpu(s, th, 300, 1500);
    uint32_t i = rec_add(s, type, th, tmpl, s->now[th]);
    s->r.v[i].ext = ++s->next_ext;
    s->r.v[i].seq = seq;
    assert(s->opdepth[th] < SIM_DEPTH);
    s->opstack[th][s->opdepth[th]++] = i;
    cpu(s, th, 500, 2500);
    return i;
}

static uint32_t op_open(struct sim *s, int th, uint16_t op, int64_t seq)
{
    return open_(s, th, R_OP, op, seq);
}

static uint32_t ann_open(struct sim *s, int th, enum ann_name a)
{
    return open_(s, th, R_ANN, (uint16_t)a, -1);
}

static void op_close(struct sim *s, uint32_t i)
{
    int th = s->r.v[i].th;
    cpu(s, th, 300, 1200);
    s->r.v[i].dur = s->now[th] - s->r.v[i].ts;
    assert(s->opdepth[th] && s->opstack[th][s->opdepth[th] - 1] == i);
    s->opdepth[th]--;
    cpu(s, th, 100, 600);
}

/* An op with no children and no GPU work (views, metadata ops). */
static void op_leaf(struct sim *s, int th, uint16_t op)
{
    uint32_t i = op_open(s, th, op, -1);
    cpu(s, th, 200, 2500);
    op_close(s, i);
}

static uint32_t py_open_parent(struct sim *s, int th, uint16_t frame, uint64_t parent)
{
    cpu(s, th, 200, 1200);
    uint32_t i = rec_add(s, R_PY, th, frame, s->now[th]);
    struct rec *r = &s->r.v[i];
    r->id = s->next_py++;
    r->parent = parent;
    if (!parent)
        r->flags |= RF_NULL_PARENT;
    assert(s->pydepth[th] < SIM_DEPTH);
    s->pystack[th][s->pydepth[th]++] = r->id;
    cpu(s, th, 300, 1500);
    return i;
}

static uint32_t py_open(struct sim *s, int th, uint16_t frame)
{
    uint64_t parent = s->pydepth[th] ? s->pystack[th][s->pydepth[th] - 1] : 0;
    return py_open_parent(s, th, frame, parent);
}

static void py_close(struct sim *s, uint32_t i)
{
    int th = s->r.v[i].th;
    cpu(s, th, 200, 900);
    s->r.v[i].dur = s->now[th] - s->r.v[i].ts;
    assert(s->pydepth[th] && s->pystack[th][s->pydepth[th] - 1] == s->r.v[i].id);
    s->pydepth[th]--;
    cpu(s, th, 100, 500);
}

/* An nn.Module frame and its forward() frame. */
struct mod_frames {
    uint32_t mod, fwd;
};

static struct mod_frames mod_enter(struct sim *s, int th, enum py_module mod, uint16_t fwd)
{
    struct mod_frames f;
    f.mod = py_open(s, th, (uint16_t)mod);
    s->r.v[f.mod].flags |= RF_MODULE;
    s->r.v[f.mod].inst = (uint16_t)s->mod_count[mod]++;
    f.fwd = py_open(s, th, fwd);
    return f;
}

static void mod_exit(struct sim *s, struct mod_frames f)
{
    py_close(s, f.fwd);
    py_close(s, f.mod);
}

/* ------------------------------------------------------------------------ */
/* Launches and GPU work                                                    */
/* ------------------------------------------------------------------------ */

static int64_t rt_dur(struct sim *s, uint8_t api)
{
    switch (api) {
    case RT_LAUNCH: return srng_below(&s->rng, 40) ? srng_range(&s->rng, 3500, 9000)
                                                   : srng_range(&s->rng, 14000, 30000);
    case DRV_LAUNCH: return srng_range(&s->rng, 3000, 7500);
    case RT_LAUNCH_EXC: return srng_range(&s->rng, 8000, 15000);
    case RT_MEMCPY: return srng_range(&s->rng, 9000, 18000);
    case RT_MEMSET: return srng_range(&s->rng, 4000, 8000);
    case RT_GRAPH_LAUNCH: return srng_range(&s->rng, 12000, 25000);
    case RT_IS_CAPTURING: return srng_range(&s->rng, 600, 1500);
    default: return srng_range(&s->rng, 900, 3000);
    }
}

/* A runtime / driver call on th; its External id is the innermost open op's. */
static uint32_t rt_call(struct sim *s, int th, uint8_t api)
{
    cpu(s, th, 200, 900);
    uint32_t i = rec_add(s, R_RT, th, api, s->now[th]);
    struct rec *r = &s->r.v[i];
    r->id = s->next_corr++;
    r->ext = s->opdepth[th] ? s->r.v[s->opstack[th][s->opdepth[th] - 1]].ext : 0;
    r->dur = rt_dur(s, api);
    s->now[th] += r->dur;
    return i;
}

/* GPU work of kernel variant k for runtime call rt, on stream, not
 * starting before min_start. */
static void gpu_run(struct sim *s, uint32_t rt, uint16_t k, int stream, int64_t min_start,
                    uint8_t flags)
{
    const struct skern *kp = &s->m->kerns.v[k];
    struct rec *r = &s->r.v[rt];
    int64_t ready = r->ts + r->dur * 2 / 3 + srng_range(&s->rng, 800, 2500);
    int64_t start = MAX(MAX(ready, min_start), s->stream_free[stream]);
    uint64_t corr = r->id, ext = r->ext;
    r->ngpu++;
    uint32_t g = rec_add(s, R_GPU, stream, k, start);
    struct rec *gr = &s->r.v[g];
    gr->dur = MAX(srng_jitter(&s->rng, kp->dur_ns, 4), 1000);
    gr->id = corr;
    gr->ext = ext;
    gr->flags = flags;
    s->stream_free[stream] = start + gr->dur + srng_range(&s->rng, 600, 2200);
    if (stream == ST_COMPUTE) {
        s->step_gpu_lo = MIN(s->step_gpu_lo, start);
        s->step_gpu_hi = MAX(s->step_gpu_hi, start + gr->dur);
    }
}

static void launch_on(struct sim *s, int th, uint16_t k, int stream, int64_t min_start)
{
    uint32_t rt = rt_call(s, th, s->m->kerns.v[k].api);
    gpu_run(s, rt, k, stream, min_start, 0);
}

static void launch(struct sim *s, int th, uint16_t k)
{
    launch_on(s, th, k, ST_COMPUTE, 0);
}

/* ------------------------------------------------------------------------ */
/* Allocations ([memory] instants)                                          */
/* ------------------------------------------------------------------------ */

static void mem_event(struct sim *s, int th, uint64_t addr, int64_t bytes)
{
    cpu(s, th, 150, 700);
    uint32_t i = rec_add(s, R_MEM, th, 0, s->now[th]);
    struct rec *r = &s->r.v[i];
    r->id = addr;
    r->bytes = bytes;
    r->total = s->allocated;
    r->reserved = s->reserved;
}

static uint64_t mem_alloc(struct sim *s, int th, int64_t bytes, int64_t *rounded)
{
    int64_t b = (bytes + 511) / 512 * 512;
    uint64_t addr = s->heap_top;
    s->heap_top += (uint64_t)b;
    s->allocated += (uint64_t)b;
    if (s->allocated > s->reserved)
        s->reserved = (s->allocated / RESERVE_CHUNK + 2) * RESERVE_CHUNK;
    mem_event(s, th, addr, b);
    *rounded = b;
    return addr;
}

static void mem_free(struct sim *s, int th, uint64_t addr, int64_t bytes)
{
    s->allocated -= (uint64_t)bytes;
    mem_event(s, th, addr, -bytes);
}

/* ------------------------------------------------------------------------ */
/* Forward                                                                  */
/* ------------------------------------------------------------------------ */

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

/* Output of a forward op, freed after its backward. */
struct act {
    uint64_t addr;
    int64_t bytes;
};

static struct act act_alloc(struct sim *s, int th, int64_t bytes)
{
    struct act a;
    a.addr = mem_alloc(s, th, bytes, &a.bytes);
    return a;
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
    struct mod_frames f = mod_enter(s, th, MOD_LINEAR, PY_LINEAR_FWD);
    int64_t q = s->next_seq++;
    uint32_t lin = op_open(s, th, l->linear, q);
    if (k == LIN_HEAD) {
        uint32_t mm = op_open(s, th, l->matmul, q);
        op_leaf(s, th, l->view_in);
        uint32_t o = op_open(s, th, l->mm, q);
        struct act a = act_alloc(s, th, out_bytes);
        launch(s, th, l->k_fwd);
        op_close(s, o);
        op_leaf(s, th, l->unsafe_view);
        op_close(s, mm);
        fwd_node(s, N_MM, (uint8_t)k, q, o, a);
    } else {
        uint32_t t = op_open(s, th, l->t, -1);
        uint32_t tr = op_open(s, th, l->transpose, -1);
        op_leaf(s, th, l->as_strided);
        op_close(s, tr);
        op_close(s, t);
        op_leaf(s, th, l->view_in);
        uint32_t o = op_open(s, th, l->addmm, q);
        struct act a = act_alloc(s, th, out_bytes);
        launch(s, th, l->k_fwd);
        op_close(s, o);
        op_leaf(s, th, l->view_out);
        fwd_node(s, N_ADDMM, (uint8_t)k, q, o, a);
    }
    op_close(s, lin);
    mod_exit(s, f);
}

static void sim_layer_norm(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    struct mod_frames f = mod_enter(s, th, MOD_LAYERNORM, PY_LN_FWD);
    int64_t q = s->next_seq++;
    uint32_t ln = op_open(s, th, o->layer_norm, q);
    uint32_t n = op_open(s, th, o->native_layer_norm, q);
    op_leaf(s, th, o->empty_ln);
    op_leaf(s, th, o->empty_ln);
    struct act a = act_alloc(s, th, s->m->T * s->m->H * 2);
    launch(s, th, o->k_ln);
    op_close(s, n);
    op_close(s, ln);
    fwd_node(s, N_LN, 0, q, n, a);
    mod_exit(s, f);
}

/* One op that owns its autograd node and launches one kernel. */
static void fwd_simple(struct sim *s, int th, uint16_t op, uint16_t k, uint8_t kind,
                       int64_t out_bytes)
{
    int64_t q = s->next_seq++;
    uint32_t i = op_open(s, th, op, q);
    struct act a = act_alloc(s, th, out_bytes);
    launch(s, th, k);
    op_close(s, i);
    fwd_node(s, kind, 0, q, i, a);
}

/* A composite op over the op that owns the node (same Sequence number). */
static void fwd_pair(struct sim *s, int th, uint16_t outer, uint16_t inner, uint16_t k,
                     uint8_t kind, int64_t out_bytes)
{
    int64_t q = s->next_seq++;
    uint32_t a = op_open(s, th, outer, q);
    uint32_t b = op_open(s, th, inner, q);
    struct act m = act_alloc(s, th, out_bytes);
    launch(s, th, k);
    op_close(s, b);
    op_close(s, a);
    fwd_node(s, kind, 0, q, b, m);
}

static void sim_attention(struct sim *s, int th, bool local)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    int64_t scores = m->B * m->NH * m->S * m->S * 2;
    struct mod_frames f = mod_enter(s, th, local ? MOD_LOCAL_ATTN : MOD_ATTN, PY_ATTN_FWD);
    sim_linear(s, th, LIN_QKV);
    uint32_t sp = op_open(s, th, o->split, -1);
    for (int i = 0; i < 3; i++) {
        uint32_t n = op_open(s, th, o->narrow, -1);
        op_leaf(s, th, o->slice);
        op_close(s, n);
    }
    op_close(s, sp);
    for (int i = 0; i < 3; i++) {
        op_leaf(s, th, o->view_head);
        op_leaf(s, th, o->transpose_head);
    }
    if (!local) {
        uint32_t p = py_open(s, th, PY_SDPA);
        int64_t q = s->next_seq++;
        uint32_t a = op_open(s, th, o->sdpa, q);
        uint32_t b = op_open(s, th, o->sdpa_flash, q);
        uint32_t c = op_open(s, th, o->flash_fwd, -1);
        op_leaf(s, th, o->empty_attn);
        struct act out = act_alloc(s, th, m->T * m->H * 2);
        launch(s, th, o->k_flash_fwd);
        op_close(s, c);
        op_close(s, b);
        op_close(s, a);
        py_close(s, p);
        fwd_node(s, N_FLASH, 0, q, b, out);
    } else {
        fwd_pair(s, th, o->matmul_qk, o->bmm_qk, o->k_bmm_qk, N_BMM_QK, scores);
        fwd_simple(s, th, o->mul_scale, o->k_mul_scale, N_MUL, scores);
        uint32_t p = py_open(s, th, PY_SOFTMAX);
        fwd_pair(s, th, o->softmax, o->softmax_inner, o->k_softmax, N_SOFTMAX, scores);
        py_close(s, p);
        fwd_pair(s, th, o->matmul_pv, o->bmm_pv, o->k_bmm_pv, N_BMM_PV, m->T * m->H * 2);
    }
    op_leaf(s, th, o->transpose_out);
    uint32_t rs = op_open(s, th, o->reshape_out, -1);
    uint32_t cl = op_open(s, th, o->clone, -1);
    op_leaf(s, th, o->empty_like);
    int64_t rounded;
    uint64_t addr = mem_alloc(s, th, m->T * m->H * 2, &rounded);
    uint32_t cp = op_open(s, th, o->copy_out, -1);
    launch(s, th, o->k_copy);
    op_close(s, cp);
    op_close(s, cl);
    op_leaf(s, th, o->unsafe_view_out);
    op_close(s, rs);
    sim_linear(s, th, LIN_PROJ);
    mem_free(s, th, addr, rounded);
    mod_exit(s, f);
}

static void sim_block(struct sim *s, int th, unsigned layer)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    node_push(s, N_BUCKET, 0, -1, 0, 0, 0);
    struct mod_frames f = mod_enter(s, th, MOD_BLOCK, PY_BLOCK_FWD);
    sim_layer_norm(s, th);
    sim_attention(s, th, layer % 2 == 1);
    fwd_simple(s, th, o->add, o->k_add, N_ADD, m->T * m->H * 2);
    sim_layer_norm(s, th);
    struct mod_frames mlp = mod_enter(s, th, MOD_MLP, PY_MLP_FWD);
    sim_linear(s, th, LIN_FC1);
    struct mod_frames g = mod_enter(s, th, MOD_GELU, PY_GELU_FWD);
    fwd_simple(s, th, o->gelu, o->k_gelu, N_GELU, m->T * m->F * 2);
    mod_exit(s, g);
    sim_linear(s, th, LIN_FC2);
    mod_exit(s, mlp);
    fwd_simple(s, th, o->add, o->k_add, N_ADD, m->T * m->H * 2);
    mod_exit(s, f);
}

static void sim_stem(struct sim *s, int th)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    int64_t act = m->B * m->C * (m->IMG / 2) * (m->IMG / 2) * 2;
    struct mod_frames f = mod_enter(s, th, MOD_STEM, PY_STEM_FWD);

    struct mod_frames c = mod_enter(s, th, MOD_CONV, PY_CONV_FWD);
    int64_t q = s->next_seq++;
    uint32_t a = op_open(s, th, o->conv2d, q);
    uint32_t b = op_open(s, th, o->convolution, q);
    uint32_t ci = op_open(s, th, o->convolution_inner, -1);
    uint32_t d = op_open(s, th, o->cudnn_conv, -1);
    struct act out = act_alloc(s, th, act);
    launch(s, th, o->k_conv);
    op_close(s, d);
    op_close(s, ci);
    op_close(s, b);
    op_close(s, a);
    fwd_node(s, N_CONV, 0, q, b, out);
    mod_exit(s, c);

    struct mod_frames bn = mod_enter(s, th, MOD_BN, PY_BN_FWD);
    q = s->next_seq++;
    a = op_open(s, th, o->batch_norm, q);
    b = op_open(s, th, o->bn_impl, q);
    d = op_open(s, th, o->cudnn_bn, q);
    out = act_alloc(s, th, act);
    launch(s, th, o->k_bn);
    op_close(s, d);
    op_close(s, b);
    op_close(s, a);
    fwd_node(s, N_BN, 0, q, d, out);
    mod_exit(s, bn);

    struct mod_frames r = mod_enter(s, th, MOD_RELU, PY_RELU_FWD);
    q = s->next_seq++;
    a = op_open(s, th, o->relu, q);
    b = op_open(s, th, o->clamp_min, -1);
    launch(s, th, o->k_relu);
    op_close(s, b);
    op_close(s, a);
    fwd_node(s, N_RELU, 0, q, a, (struct act){0, 0});
    mod_exit(s, r);
    mod_exit(s, f);
}

static void sim_forward(struct sim *s, int th)
{
    const struct smodel *m = s->m;
    const struct model_ops *o = &m->o;
    node_push(s, N_BUCKET_LAST, 0, -1, 0, 0, 0);
    struct mod_frames f = mod_enter(s, th, MOD_GPT, PY_MODEL_FWD);
    if (m->conv)
        sim_stem(s, th);

    struct mod_frames e = mod_enter(s, th, MOD_EMBEDDING, PY_EMB_FWD);
    int64_t q = s->next_seq++;
    uint32_t emb = op_open(s, th, o->embedding, q);
    uint32_t rs = op_open(s, th, o->reshape_ids, -1);
    op_leaf(s, th, o->view_ids);
    op_close(s, rs);
    uint32_t is = op_open(s, th, o->index_select, -1);
    struct act a = act_alloc(s, th, m->T * m->H * 2);
    launch(s, th, o->k_index_select);
    op_close(s, is);
    op_leaf(s, th, o->view_emb);
    op_close(s, emb);
    fwd_node(s, N_EMB, 0, q, emb, a);
    mod_exit(s, e);

    for (unsigned l = 0; l < m->layers; l++)
        sim_block(s, th, l);
    sim_layer_norm(s, th);
    sim_linear(s, th, LIN_HEAD);
    mod_exit(s, f);

    uint32_t ce = py_open(s, th, PY_CROSS_ENTROPY);
    /* The composite op records the Sequence number its child takes. */
    uint32_t c = op_open(s, th, o->cross_entropy, s->next_seq);
    fwd_pair(s, th, o->log_softmax, o->log_softmax_inner, o->k_log_softmax, N_LOG_SOFTMAX,
             m->T * m->V * 2);
    int64_t q2 = s->next_seq++;
    uint32_t nd = op_open(s, th, o->nll_nd, q2);
    uint32_t nl = op_open(s, th, o->nll, q2);
    uint32_t nf = op_open(s, th, o->nll_fwd, q2);
    struct act loss = act_alloc(s, th, 512);
    launch(s, th, o->k_nll);
    op_close(s, nf);
    op_close(s, nl);
    op_close(s, nd);
    fwd_node(s, N_NLL, 0, q2, nf, loss);
    op_close(s, c);
    py_close(s, ce);
}

/* ------------------------------------------------------------------------ */
/* Backward (autograd thread)                                               */
/* ------------------------------------------------------------------------ */

static void accumulate_grad(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    uint32_t ev = op_open(s, th, o->ev_acc, -1);
    uint32_t n = op_open(s, th, o->node_acc, -1);
    uint32_t d = op_open(s, th, o->detach, -1);
    op_leaf(s, th, o->detach_inner);
    op_close(s, d);
    op_close(s, n);
    op_close(s, ev);
}

/* The DDP comm hook for one gradient bucket: an all-reduce on the comm
 * stream once the compute stream has produced the gradients. */
static void bucket_allreduce(struct sim *s, int th, bool last)
{
    const struct model_ops *o = &s->m->o;
    uint32_t h = py_open_parent(s, th, PY_HOOK, s->run_backward_py);
    uint32_t hf = py_open(s, th, PY_HOOK_FUT);
    uint32_t w = py_open(s, th, PY_C10D_WRAPPER);
    uint32_t ar = py_open(s, th, PY_ALL_REDUCE);
    uint32_t c = op_open(s, th, o->allreduce, -1);
    uint32_t r = op_open(s, th, last ? o->rpc_last : o->rpc_layer, -1);
    rt_call(s, th, RT_IS_CAPTURING);
    rt_call(s, th, RT_EVENT_RECORD);
    rt_call(s, th, RT_STREAM_WAIT);
    uint32_t a = ann_open(s, th, ANN_NCCL_ALLREDUCE);
    launch_on(s, th, last ? o->k_nccl_last : o->k_nccl_layer, ST_COMM,
              s->stream_free[ST_COMPUTE]);
    op_close(s, a);
    rt_call(s, th, RT_EVENT_RECORD);
    op_close(s, r);
    op_close(s, c);
    py_close(s, ar);
    py_close(s, w);
    py_close(s, hf);
    py_close(s, h);
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
    case N_ADDMM: ev_op = o->ev_addmm; node_op = o->node_addmm; break;
    case N_MM: ev_op = o->ev_mm; node_op = o->node_mm; break;
    case N_LN: ev_op = o->ev_ln; node_op = o->node_ln; break;
    case N_ADD: ev_op = o->ev_add; node_op = o->node_add; break;
    case N_GELU: ev_op = o->ev_gelu; node_op = o->node_gelu; break;
    case N_FLASH: ev_op = o->ev_flash; node_op = o->node_flash; break;
    case N_BMM_QK:
    case N_BMM_PV: ev_op = o->ev_bmm; node_op = o->node_bmm; break;
    case N_SOFTMAX: ev_op = o->ev_softmax; node_op = o->node_softmax; break;
    case N_MUL: ev_op = o->ev_mul; node_op = o->node_mul; break;
    case N_EMB: ev_op = o->ev_emb; node_op = o->node_emb; break;
    case N_LOG_SOFTMAX: ev_op = o->ev_log_softmax; node_op = o->node_log_softmax; break;
    case N_NLL: ev_op = o->ev_nll; node_op = o->node_nll; break;
    case N_CONV: ev_op = o->ev_conv; node_op = o->node_conv; break;
    case N_BN: ev_op = o->ev_bn; node_op = o->node_bn; break;
    default: ev_op = o->ev_relu; node_op = o->node_relu; break;
    }
    uint32_t ev = op_open(s, th, ev_op, n->seq);
    s->r.v[ev].flags |= RF_BACKWARD;
    s->r.v[ev].flow = n->flow;
    uint32_t node = op_open(s, th, node_op, -1);
    uint32_t i, j, k;
    switch (n->kind) {
    case N_ADDMM:
    case N_MM: {
        const struct lin_ops *l = &m->lin[n->lin];
        op_leaf(s, th, l->t);
        i = op_open(s, th, l->mm_dgrad, -1);
        launch(s, th, l->k_dgrad);
        op_close(s, i);
        op_leaf(s, th, l->t);
        i = op_open(s, th, l->mm_wgrad, -1);
        launch(s, th, l->k_wgrad);
        op_close(s, i);
        if (n->kind == N_ADDMM) {
            i = op_open(s, th, l->sum_bias, -1);
            launch(s, th, l->k_bias);
            op_close(s, i);
        }
        break;
    }
    case N_LN:
        i = op_open(s, th, o->ln_bwd, -1);
        launch(s, th, o->k_ln_bwd_in);
        launch(s, th, o->k_ln_bwd_gamma);
        op_close(s, i);
        break;
    case N_ADD:
        cpu(s, th, 500, 1500);
        break;
    case N_GELU:
        i = op_open(s, th, o->gelu_bwd, -1);
        launch(s, th, o->k_gelu_bwd);
        op_close(s, i);
        break;
    case N_FLASH:
        i = op_open(s, th, o->sdpa_flash_bwd, -1);
        j = op_open(s, th, o->flash_bwd, -1);
        launch(s, th, o->k_flash_bwd_dot);
        launch(s, th, o->k_flash_bwd);
        launch(s, th, o->k_flash_bwd_convert);
        op_close(s, j);
        op_close(s, i);
        break;
    case N_BMM_QK:
    case N_BMM_PV: {
        bool qk = n->kind == N_BMM_QK;
        i = op_open(s, th, qk ? o->bmm_qk_dgrad : o->bmm_pv_dgrad, -1);
        launch(s, th, qk ? o->k_bmm_pv : o->k_bmm_qk);
        op_close(s, i);
        i = op_open(s, th, qk ? o->bmm_qk_wgrad : o->bmm_pv_wgrad, -1);
        launch(s, th, qk ? o->k_bmm_pv : o->k_bmm_qk);
        op_close(s, i);
        break;
    }
    case N_SOFTMAX:
        i = op_open(s, th, o->softmax_bwd, -1);
        launch(s, th, o->k_softmax_bwd);
        op_close(s, i);
        break;
    case N_MUL:
        i = op_open(s, th, o->mul_bwd, -1);
        launch(s, th, o->k_mul_bwd);
        op_close(s, i);
        break;
    case N_EMB:
        i = op_open(s, th, o->emb_bwd, -1);
        j = op_open(s, th, o->emb_dense_bwd, -1);
        k = op_open(s, th, o->zeros, -1);
        {
            uint32_t z = op_open(s, th, o->zero_, -1);
            launch(s, th, o->k_memset);
            op_close(s, z);
        }
        op_close(s, k);
        launch(s, th, o->k_emb_bwd);
        op_close(s, j);
        op_close(s, i);
        break;
    case N_LOG_SOFTMAX:
        i = op_open(s, th, o->log_softmax_bwd, -1);
        launch(s, th, o->k_log_softmax_bwd);
        op_close(s, i);
        break;
    case N_NLL:
        i = op_open(s, th, o->nll_bwd, -1);
        j = op_open(s, th, o->nll_zero, -1);
        k = op_open(s, th, o->nll_fill, -1);
        launch(s, th, o->k_fill);
        op_close(s, k);
        op_close(s, j);
        launch(s, th, o->k_nll_bwd);
        op_close(s, i);
        break;
    case N_CONV:
        i = op_open(s, th, o->conv_bwd, -1);
        launch(s, th, o->k_conv_wgrad);
        op_close(s, i);
        break;
    case N_BN:
        i = op_open(s, th, o->bn_bwd, -1);
        launch(s, th, o->k_bn_bwd);
        op_close(s, i);
        break;
    default:
        i = op_open(s, th, o->threshold_bwd, -1);
        launch(s, th, o->k_threshold_bwd);
        op_close(s, i);
        break;
    }
    op_close(s, node);
    op_close(s, ev);
    if (n->kind == N_ADDMM || n->kind == N_MM)
        accumulate_grad(s, th);
    if (n->addr)
        mem_free(s, th, n->addr, n->bytes);
}

static void sim_backward(struct sim *s)
{
    int M = TH_MAIN, A = TH_AUTOGRAD;
    uint32_t tb = py_open(s, M, PY_TENSOR_BACKWARD);
    uint32_t ab = py_open(s, M, PY_AUTOGRAD_BACKWARD);
    uint32_t er = py_open(s, M, PY_ENGINE_RUN);
    uint32_t rb = py_open(s, M, PY_RUN_BACKWARD);
    s->run_backward_py = s->r.v[rb].id;
    s->now[A] = MAX(s->now[A], s->now[M]) + srng_range(&s->rng, 15 * US, 40 * US);
    while (s->nodes.n) {
        struct sim_node n = s->nodes.v[--s->nodes.n];
        bwd_node(s, A, &n);
    }
    s->now[M] = MAX(s->now[M], s->now[A]) + srng_range(&s->rng, 5 * US, 15 * US);
    py_close(s, rb);
    py_close(s, er);
    py_close(s, ab);
    py_close(s, tb);
    /* DDP's finalize: the compute stream waits for the last all-reduce. */
    rt_call(s, M, RT_STREAM_WAIT);
    s->stream_free[ST_COMPUTE] = MAX(s->stream_free[ST_COMPUTE], s->stream_free[ST_COMM]);
}

/* ------------------------------------------------------------------------ */
/* The rest of a step                                                       */
/* ------------------------------------------------------------------------ */

static void sim_dataload(struct sim *s, int th)
{
    uint32_t n = py_open(s, th, PY_DL_NEXT);
    uint32_t nd = py_open(s, th, PY_DL_NEXT_DATA);
    uint32_t f = py_open(s, th, PY_DL_FETCH);
    /* Samples tokenized in Python, four nested frames each. */
    static const uint16_t sample[] = {PY_GETITEM, PY_TOKENIZE, PY_ENCODE_BATCH,
                                      PY_ENCODE_BUILTIN};
    for (unsigned left = s->data_frames; left;) {
        unsigned k = MIN(left, (unsigned)ARRAY_SIZE(sample));
        uint32_t open[ARRAY_SIZE(sample)];
        for (unsigned i = 0; i < k; i++)
            open[i] = py_open(s, th, sample[i]);
        cpu(s, th, 5 * US, 25 * US);
        while (k)
            py_close(s, open[--k]);
        left -= MIN(left, (unsigned)ARRAY_SIZE(sample));
    }
    /* An input pipeline that does not keep up: the GPU idles for a tenth
     * to a fifth of a step while the batch is prepared. */
    int64_t busy = s->prev_step_gpu ? s->prev_step_gpu : 10 * MS;
    cpu(s, th, 1200 * US + busy / 10, 1200 * US + busy / 5);
    uint32_t c = py_open(s, th, PY_DL_COLLATE);
    cpu(s, th, 150 * US, 400 * US);
    py_close(s, c);
    py_close(s, f);
    py_close(s, nd);
    py_close(s, n);
}

static void sim_h2d(struct sim *s, int th, struct act in[2])
{
    const struct model_ops *o = &s->m->o;
    uint32_t p = py_open(s, th, PY_TO_DEVICE);
    for (int i = 0; i < 2; i++) {
        uint32_t to = op_open(s, th, o->to, -1);
        uint32_t tc = op_open(s, th, o->to_copy, -1);
        op_leaf(s, th, o->empty_strided);
        in[i] = act_alloc(s, th, s->m->T * 8);
        uint32_t cp = op_open(s, th, o->copy_h2d, -1);
        launch(s, th, o->k_h2d);
        op_close(s, cp);
        op_close(s, tc);
        op_close(s, to);
    }
    py_close(s, p);
}

static void sim_zero_grad(struct sim *s, int th)
{
    uint32_t p = py_open(s, th, PY_ZERO_GRAD);
    uint32_t a = ann_open(s, th, ANN_ZERO_GRAD);
    cpu(s, th, 30 * US, 90 * US);
    op_close(s, a);
    py_close(s, p);
}

/* Gradient clipping replayed from a captured CUDA graph: one launch, four kernels. */
static void sim_clip(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    uint32_t c = py_open(s, th, PY_CLIP);
    uint32_t r = py_open(s, th, PY_REPLAY);
    uint32_t b = py_open(s, th, PY_REPLAY_BUILTIN);
    uint32_t rt = rt_call(s, th, RT_GRAPH_LAUNCH);
    for (size_t i = 0; i < ARRAY_SIZE(o->k_graph); i++)
        gpu_run(s, rt, o->k_graph[i], ST_COMPUTE, 0, RF_GRAPH);
    py_close(s, b);
    py_close(s, r);
    py_close(s, c);
}

static void sim_optimizer(struct sim *s, int th)
{
    const struct smodel *m = s->m;
    uint32_t w = py_open(s, th, PY_OPT_WRAPPER);
    uint32_t a = ann_open(s, th, ANN_OPT_STEP);
    uint32_t st = py_open(s, th, PY_ADAMW_STEP);
    uint32_t fa = py_open(s, th, PY_FUSED_ADAM);
    uint32_t op = op_open(s, th, m->o.fused_adamw, -1);
    cpu(s, th, 20 * US, 60 * US);
    for (unsigned i = 0; i < m->adamw_launches; i++) {
        launch(s, th, m->o.k_adamw);
        cpu(s, th, 2 * US, 6 * US);
    }
    op_close(s, op);
    py_close(s, fa);
    py_close(s, st);
    op_close(s, a);
    py_close(s, w);
}

/* loss.item(): a 4-byte copy to the host that waits for the stream. */
static void sim_item(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    uint32_t p = py_open(s, th, PY_ITEM);
    uint32_t it = op_open(s, th, o->item, -1);
    uint32_t ls = op_open(s, th, o->local_scalar, -1);
    launch(s, th, o->k_d2h);
    uint32_t sync = rt_call(s, th, RT_STREAM_SYNC);
    struct rec *r = &s->r.v[sync];
    int64_t done = MAX(r->ts + r->dur, s->stream_free[ST_COMPUTE]) + srng_range(&s->rng, 2 * US,
                                                                               6 * US);
    r->dur = done - r->ts;
    s->now[th] = done;
    op_close(s, ls);
    op_close(s, it);
    py_close(s, p);
}

/* ------------------------------------------------------------------------ */
/* Steps                                                                    */
/* ------------------------------------------------------------------------ */

void sim_init(struct sim *s, const struct smodel *m, uint64_t seed, unsigned data_frames)
{
    memset(s, 0, sizeof(*s));
    srng_seed(&s->rng, seed);
    s->m = m;
    s->data_frames = data_frames;
    s->pid = 1000 + (int64_t)srng_below(&s->rng, 3000000);
    s->tid_autograd = s->pid + 200 + (int64_t)srng_below(&s->rng, 20000);
    /* A window start some days after the base, below 2^42 µs so that the
     * three decimals survive a double. */
    s->t0 = (int64_t)(1000000000000ULL + srng_below(&s->rng, 2500000000000ULL)) * 1000;
    s->t0 += (int64_t)srng_below(&s->rng, 1000);
    for (int i = 0; i < TH__COUNT; i++)
        s->now[i] = s->t0;
    s->stream_free[ST_COMPUTE] = s->stream_free[ST_COMM] = s->t0;
    s->next_ext = 0;
    s->next_corr = 1000 + srng_below(&s->rng, 100000);
    s->next_py = PYID_FIRST_FREE;
    s->next_seq = 100 + (int64_t)srng_below(&s->rng, 2000);
    s->next_flow = 0;
    s->step_no = 4 + srng_below(&s->rng, 8);
    s->pystack[TH_MAIN][0] = PYID_SCRIPT;
    s->pystack[TH_MAIN][1] = PYID_MAIN;
    s->pydepth[TH_MAIN] = 2;
    s->boot_ts = s->t0 + srng_range(&s->rng, 60 * US, 120 * US);
    s->script_ts = s->t0 + srng_range(&s->rng, 130 * US, 200 * US);
    s->now[TH_MAIN] = s->script_ts + srng_range(&s->rng, 40 * US, 80 * US);
    s->now[TH_AUTOGRAD] = s->now[TH_MAIN];
    s->heap_base = s->heap_top = HEAP_BASE + (srng_below(&s->rng, 4096) << 21);
    s->allocated = (uint64_t)(m->layer_params * m->layers + m->other_params) * 10;
    s->reserved = (s->allocated / RESERVE_CHUNK + 8) * RESERVE_CHUNK;
}

void sim_done(struct sim *s)
{
    VEC_FREE(&s->r);
    VEC_FREE(&s->nodes);
    VEC_FREE(&s->spans);
}

void sim_prologue(struct sim *s)
{
    s->r.n = 0;
    const struct model_ops *o = &s->m->o;
    int64_t t = s->t0 + srng_range(&s->rng, 1 * US, 4 * US);
    for (size_t i = 0; i < ARRAY_SIZE(o->k_prev); i++) {
        const struct skern *kp = &s->m->kerns.v[o->k_prev[i]];
        uint32_t g = rec_add(s, R_GPU, ST_COMPUTE, o->k_prev[i], t);
        struct rec *r = &s->r.v[g];
        r->dur = kp->dur_ns;
        r->id = s->next_corr - ARRAY_SIZE(o->k_prev) + i;
        r->flags = RF_UNLINKED;
        t += r->dur + srng_range(&s->rng, 1 * US, 3 * US);
    }
    s->stream_free[ST_COMPUTE] = t;
}

void sim_step(struct sim *s)
{
    int M = TH_MAIN;
    s->r.n = 0;
    s->nodes.n = 0;
    memset(s->mod_count, 0, sizeof(s->mod_count));
    s->step_gpu_lo = INT64_MAX;
    s->step_gpu_hi = 0;
    s->heap_top = s->heap_base;

    uint32_t ps = py_open(s, M, PY_PROF_STEP);
    uint32_t tr = py_open(s, M, PY_TRANSIT);
    cpu(s, M, 20 * US, 60 * US);
    py_close(s, tr);
    py_close(s, ps);

    uint32_t step = ann_open(s, M, ANN_STEP);
    s->r.v[step].bytes = (int64_t)s->step_no;
    uint32_t ts = py_open(s, M, PY_TRAIN_STEP);
    sim_dataload(s, M);
    struct act in[2];
    sim_h2d(s, M, in);
    sim_zero_grad(s, M);
    sim_forward(s, M);
    sim_backward(s);
    sim_clip(s, M);
    sim_optimizer(s, M);
    sim_item(s, M);
    for (int i = 0; i < 2; i++)
        mem_free(s, M, in[i].addr, in[i].bytes);
    py_close(s, ts);
    op_close(s, step);

    s->prev_step_gpu = s->step_gpu_hi - s->step_gpu_lo;
    if (s->step_gpu_lo < s->step_gpu_hi) {
        struct step_span sp = {s->step_gpu_lo, s->step_gpu_hi - s->step_gpu_lo,
                               s->r.v[step].ext, s->step_no};
        VEC_PUSH(&s->spans, sp);
    }
    cpu(s, M, 40 * US, 150 * US);
    s->now[TH_AUTOGRAD] = MAX(s->now[TH_AUTOGRAD], s->now[M]);
    s->step_no++;
}

int64_t sim_end(const struct sim *s)
{
    int64_t end = 0;
    for (int i = 0; i < TH__COUNT; i++)
        end = MAX(end, s->now[i]);
    for (int i = 0; i < ST__COUNT; i++)
        end = MAX(end, s->stream_free[i]);
    return end;
}
