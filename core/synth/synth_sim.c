/* The training-step simulation behind the synthetic traces: host threads
 * and GPU streams advance in integer nanoseconds, and every op, frame,
 * launch, GPU activity and allocation becomes a record of the step. */
#include "config.h"

#include <assert.h>

#include "core/synth/synth_sim.h"

/* Where the caching allocator's blocks live. */
#define HEAP_BASE 0x7f2a40000000ULL
#define RESERVE_CHUNK (20ULL << 20)

/* ------------------------------------------------------------------------ */
/* Records                                                                  */
/* ------------------------------------------------------------------------ */

/* Append a record; returns its index (pointers into s->r move on appends). */
uint32_t sim_rec_add(struct sim *s, uint8_t type, int th, uint16_t tmpl, int64_t ts)
{
    struct rec *r = VEC_ADD(&s->r);
    r->type = type;
    r->th = (uint8_t)th;
    r->tmpl = tmpl;
    r->ts = ts;
    r->seq = -1;
    return (uint32_t)(s->r.n - 1);
}

static uint32_t open_(struct sim *s, int th, uint8_t type, uint16_t tmpl, int64_t seq)
{
    sim_cpu(s, th, 300, 1500);
    uint32_t i = sim_rec_add(s, type, th, tmpl, s->now[th]);
    s->r.v[i].ext = ++s->next_ext;
    s->r.v[i].seq = seq;
    assert(s->opdepth[th] < SIM_DEPTH);
    s->opstack[th][s->opdepth[th]++] = i;
    sim_cpu(s, th, 500, 2500);
    return i;
}

uint32_t sim_op_open(struct sim *s, int th, uint16_t op, int64_t seq)
{
    return open_(s, th, R_OP, op, seq);
}

uint32_t sim_ann_open(struct sim *s, int th, enum ann_name a)
{
    return open_(s, th, R_ANN, (uint16_t)a, -1);
}

void sim_op_close(struct sim *s, uint32_t i)
{
    int th = s->r.v[i].th;
    sim_cpu(s, th, 300, 1200);
    s->r.v[i].dur = s->now[th] - s->r.v[i].ts;
    assert(s->opdepth[th] && s->opstack[th][s->opdepth[th] - 1] == i);
    s->opdepth[th]--;
    sim_cpu(s, th, 100, 600);
}

/* An op with no children and no GPU work (views, metadata ops). */
void sim_op_leaf(struct sim *s, int th, uint16_t op)
{
    uint32_t i = sim_op_open(s, th, op, -1);
    sim_cpu(s, th, 200, 2500);
    sim_op_close(s, i);
}

uint32_t sim_py_open_parent(struct sim *s, int th, uint16_t frame, uint64_t parent)
{
    sim_cpu(s, th, 200, 1200);
    uint32_t i = sim_rec_add(s, R_PY, th, frame, s->now[th]);
    struct rec *r = &s->r.v[i];
    r->id = s->next_py++;
    r->parent = parent;
    if (!parent)
        r->flags |= RF_NULL_PARENT;
    assert(s->pydepth[th] < SIM_DEPTH);
    s->pystack[th][s->pydepth[th]++] = r->id;
    sim_cpu(s, th, 300, 1500);
    return i;
}

uint32_t sim_py_open(struct sim *s, int th, uint16_t frame)
{
    uint64_t parent = s->pydepth[th] ? s->pystack[th][s->pydepth[th] - 1] : 0;
    return sim_py_open_parent(s, th, frame, parent);
}

void sim_py_close(struct sim *s, uint32_t i)
{
    int th = s->r.v[i].th;
    sim_cpu(s, th, 200, 900);
    s->r.v[i].dur = s->now[th] - s->r.v[i].ts;
    assert(s->pydepth[th] && s->pystack[th][s->pydepth[th] - 1] == s->r.v[i].id);
    s->pydepth[th]--;
    sim_cpu(s, th, 100, 500);
}

struct mod_frames sim_mod_enter(struct sim *s, int th, enum py_module mod, uint16_t fwd)
{
    struct mod_frames f;
    f.mod = sim_py_open(s, th, (uint16_t)mod);
    s->r.v[f.mod].flags |= RF_MODULE;
    s->r.v[f.mod].inst = (uint16_t)s->mod_count[mod]++;
    f.fwd = sim_py_open(s, th, fwd);
    return f;
}

void sim_mod_exit(struct sim *s, struct mod_frames f)
{
    sim_py_close(s, f.fwd);
    sim_py_close(s, f.mod);
}

/* ------------------------------------------------------------------------ */
/* Launches and GPU work                                                    */
/* ------------------------------------------------------------------------ */

static int64_t rt_dur(struct sim *s, uint8_t api)
{
    switch (api) {
    case RT_LAUNCH:
        return synth_rng_below(&s->rng, 40) ? synth_rng_range(&s->rng, 3500, 9000)
                                            : synth_rng_range(&s->rng, 14000, 30000);
    case DRV_LAUNCH:
        return synth_rng_range(&s->rng, 3000, 7500);
    case RT_LAUNCH_EXC:
        return synth_rng_range(&s->rng, 8000, 15000);
    case RT_MEMCPY:
        return synth_rng_range(&s->rng, 9000, 18000);
    case RT_MEMSET:
        return synth_rng_range(&s->rng, 4000, 8000);
    case RT_GRAPH_LAUNCH:
        return synth_rng_range(&s->rng, 12000, 25000);
    case RT_IS_CAPTURING:
        return synth_rng_range(&s->rng, 600, 1500);
    default:
        return synth_rng_range(&s->rng, 900, 3000);
    }
}

/* A runtime / driver call on th; its External id is the innermost open op's. */
uint32_t sim_rt_call(struct sim *s, int th, uint8_t api)
{
    sim_cpu(s, th, 200, 900);
    uint32_t i = sim_rec_add(s, R_RT, th, api, s->now[th]);
    struct rec *r = &s->r.v[i];
    r->id = s->next_corr++;
    r->ext = s->opdepth[th] ? s->r.v[s->opstack[th][s->opdepth[th] - 1]].ext : 0;
    r->dur = rt_dur(s, api);
    s->now[th] += r->dur;
    return i;
}

/* GPU work of kernel variant k for runtime call rt, on stream, not
 * starting before min_start. */
void sim_gpu_run(struct sim *s, uint32_t rt, uint16_t k, int stream, int64_t min_start,
                 uint8_t flags)
{
    const struct skern *kp = &s->m->kerns.v[k];
    struct rec *r = &s->r.v[rt];
    int64_t ready = r->ts + r->dur * 2 / 3 + synth_rng_range(&s->rng, 800, 2500);
    int64_t start = MAX(MAX(ready, min_start), s->stream_free[stream]);
    uint64_t corr = r->id, ext = r->ext;
    r->ngpu++;
    uint32_t g = sim_rec_add(s, R_GPU, stream, k, start);
    struct rec *gr = &s->r.v[g];
    gr->dur = MAX(synth_rng_jitter(&s->rng, kp->dur_ns, 4), 1000);
    gr->id = corr;
    gr->ext = ext;
    gr->flags = flags;
    s->stream_free[stream] = start + gr->dur + synth_rng_range(&s->rng, 600, 2200);
    if (stream == ST_COMPUTE) {
        s->step_gpu_lo = MIN(s->step_gpu_lo, start);
        s->step_gpu_hi = MAX(s->step_gpu_hi, start + gr->dur);
    }
}

void sim_launch_on(struct sim *s, int th, uint16_t k, int stream, int64_t min_start)
{
    uint32_t rt = sim_rt_call(s, th, s->m->kerns.v[k].api);
    sim_gpu_run(s, rt, k, stream, min_start, 0);
}

void sim_launch(struct sim *s, int th, uint16_t k)
{
    sim_launch_on(s, th, k, ST_COMPUTE, 0);
}

/* ------------------------------------------------------------------------ */
/* Allocations ([memory] instants)                                          */
/* ------------------------------------------------------------------------ */

static void mem_event(struct sim *s, int th, uint64_t addr, int64_t bytes)
{
    sim_cpu(s, th, 150, 700);
    uint32_t i = sim_rec_add(s, R_MEM, th, 0, s->now[th]);
    struct rec *r = &s->r.v[i];
    r->id = addr;
    r->bytes = bytes;
    r->total = s->allocated;
    r->reserved = s->reserved;
}

uint64_t sim_mem_alloc(struct sim *s, int th, int64_t bytes, int64_t *rounded)
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

void sim_mem_free(struct sim *s, int th, uint64_t addr, int64_t bytes)
{
    s->allocated -= (uint64_t)bytes;
    mem_event(s, th, addr, -bytes);
}

struct act sim_act_alloc(struct sim *s, int th, int64_t bytes)
{
    struct act a;
    a.addr = sim_mem_alloc(s, th, bytes, &a.bytes);
    return a;
}

/* ------------------------------------------------------------------------ */
/* The rest of a step                                                       */
/* ------------------------------------------------------------------------ */

static void sim_dataload(struct sim *s, int th)
{
    uint32_t op;
    int64_t start = s->now[th], total = sim_inject_loader_open(s, th, &op);
    uint32_t n = sim_py_open(s, th, PY_DL_NEXT);
    uint32_t nd = sim_py_open(s, th, PY_DL_NEXT_DATA);
    uint32_t f = sim_py_open(s, th, PY_DL_FETCH);
    /* Samples tokenized in Python, four nested frames each. */
    static const uint16_t sample[] = {PY_GETITEM, PY_TOKENIZE, PY_ENCODE_BATCH, PY_ENCODE_BUILTIN};
    for (unsigned left = s->data_frames; left;) {
        unsigned k = MIN(left, (unsigned)ARRAY_SIZE(sample));
        uint32_t open[ARRAY_SIZE(sample)];
        for (unsigned i = 0; i < k; i++)
            open[i] = sim_py_open(s, th, sample[i]);
        sim_cpu(s, th, 5 * US, 25 * US);
        while (k)
            sim_py_close(s, open[--k]);
        left -= MIN(left, (unsigned)ARRAY_SIZE(sample));
    }
    /* An input pipeline that does not keep up: the GPU idles for a tenth
     * to a fifth of a step while the batch is prepared. */
    int64_t busy = s->prev_step_gpu ? s->prev_step_gpu : 10 * MS;
    /* An injected loader takes `total` from its op's start to the end of
     * the collate, the frames and the op closing a few µs later. */
    if (!total)
        sim_cpu(s, th, 1200 * US + busy / 10, 1200 * US + busy / 5);
    else
        s->now[th] = MAX(s->now[th], start + total - 200 * US);
    uint32_t c = sim_py_open(s, th, PY_DL_COLLATE);
    if (!total)
        sim_cpu(s, th, 150 * US, 400 * US);
    else
        s->now[th] = MAX(s->now[th], start + total);
    sim_py_close(s, c);
    sim_py_close(s, f);
    sim_py_close(s, nd);
    sim_py_close(s, n);
    if (total)
        sim_op_close(s, op);
}

static void sim_h2d(struct sim *s, int th, struct act in[2])
{
    const struct model_ops *o = &s->m->o;
    uint32_t p = sim_py_open(s, th, PY_TO_DEVICE);
    for (int i = 0; i < 2; i++) {
        uint32_t to = sim_op_open(s, th, o->to, -1);
        uint32_t tc = sim_op_open(s, th, o->to_copy, -1);
        sim_op_leaf(s, th, o->empty_strided);
        in[i] = sim_act_alloc(s, th, s->m->T * 8);
        uint32_t cp = sim_op_open(s, th, o->copy_h2d, -1);
        sim_launch(s, th, o->k_h2d);
        sim_op_close(s, cp);
        sim_op_close(s, tc);
        sim_op_close(s, to);
    }
    sim_py_close(s, p);
}

static void sim_zero_grad(struct sim *s, int th)
{
    uint32_t p = sim_py_open(s, th, PY_ZERO_GRAD);
    uint32_t a = sim_ann_open(s, th, ANN_ZERO_GRAD);
    sim_cpu(s, th, 30 * US, 90 * US);
    sim_op_close(s, a);
    sim_py_close(s, p);
}

/* Gradient clipping replayed from a captured CUDA graph: one launch, four kernels. */
static void sim_clip(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    uint32_t c = sim_py_open(s, th, PY_CLIP);
    uint32_t r = sim_py_open(s, th, PY_REPLAY);
    uint32_t b = sim_py_open(s, th, PY_REPLAY_BUILTIN);
    uint32_t rt = sim_rt_call(s, th, RT_GRAPH_LAUNCH);
    for (size_t i = 0; i < ARRAY_SIZE(o->k_graph); i++)
        sim_gpu_run(s, rt, o->k_graph[i], ST_COMPUTE, 0, RF_GRAPH);
    sim_py_close(s, b);
    sim_py_close(s, r);
    sim_py_close(s, c);
}

static void sim_optimizer(struct sim *s, int th)
{
    const struct smodel *m = s->m;
    uint32_t w = sim_py_open(s, th, PY_OPT_WRAPPER);
    uint32_t a = sim_ann_open(s, th, ANN_OPT_STEP);
    uint32_t st = sim_py_open(s, th, PY_ADAMW_STEP);
    uint32_t fa = sim_py_open(s, th, PY_FUSED_ADAM);
    uint32_t op = sim_op_open(s, th, m->o.fused_adamw, -1);
    sim_cpu(s, th, 20 * US, 60 * US);
    for (unsigned i = 0; i < m->adamw_launches; i++) {
        sim_launch(s, th, m->o.k_adamw);
        sim_cpu(s, th, 2 * US, 6 * US);
    }
    sim_op_close(s, op);
    sim_py_close(s, fa);
    sim_py_close(s, st);
    sim_op_close(s, a);
    sim_py_close(s, w);
}

/* loss.item(): a 4-byte copy to the host that waits for the stream. */
static void sim_item(struct sim *s, int th)
{
    const struct model_ops *o = &s->m->o;
    uint32_t p = sim_py_open(s, th, PY_ITEM);
    uint32_t it = sim_op_open(s, th, o->item, -1);
    uint32_t ls = sim_op_open(s, th, o->local_scalar, -1);
    sim_launch(s, th, o->k_d2h);
    uint32_t sync = sim_rt_call(s, th, RT_STREAM_SYNC);
    struct rec *r = &s->r.v[sync];
    int64_t done =
        MAX(r->ts + r->dur, s->stream_free[ST_COMPUTE]) + synth_rng_range(&s->rng, 2 * US, 6 * US);
    r->dur = done - r->ts;
    s->now[th] = done;
    sim_op_close(s, ls);
    sim_op_close(s, it);
    sim_py_close(s, p);
}

/* ------------------------------------------------------------------------ */
/* Steps                                                                    */
/* ------------------------------------------------------------------------ */

/* The few kernels still running when the window opened: their launches
 * came before it, so nothing links them. */
static void prologue(struct sim *s)
{
    const struct model_ops *o = &s->m->o;
    int64_t t = s->t0 + synth_rng_range(&s->rng, 1 * US, 4 * US);
    for (size_t i = 0; i < ARRAY_SIZE(o->k_prev); i++) {
        const struct skern *kp = &s->m->kerns.v[o->k_prev[i]];
        uint32_t g = sim_rec_add(s, R_GPU, ST_COMPUTE, o->k_prev[i], t);
        struct rec *r = &s->r.v[g];
        r->dur = kp->dur_ns;
        r->id = s->next_corr - ARRAY_SIZE(o->k_prev) + i;
        r->flags = RF_UNLINKED;
        t += r->dur + synth_rng_range(&s->rng, 1 * US, 3 * US);
    }
    s->stream_free[ST_COMPUTE] = t;
}

void sim_init(struct sim *s, const struct smodel *m, uint64_t seed, unsigned data_frames)
{
    memset(s, 0, sizeof(*s));
    synth_rng_seed(&s->rng, seed);
    s->m = m;
    s->data_frames = data_frames;
    s->pid = 1000 + (int64_t)synth_rng_below(&s->rng, 3000000);
    s->tid_autograd = s->pid + 200 + (int64_t)synth_rng_below(&s->rng, 20000);
    /* A window start some days after the base, below 2^42 µs so that the
     * three decimals survive a double. */
    s->t0 = (int64_t)(1000000000000ULL + synth_rng_below(&s->rng, 2500000000000ULL)) * 1000;
    s->t0 += (int64_t)synth_rng_below(&s->rng, 1000);
    for (int i = 0; i < TH__COUNT; i++)
        s->now[i] = s->t0;
    s->stream_free[ST_COMPUTE] = s->stream_free[ST_COMM] = s->t0;
    s->next_ext = 0;
    s->next_corr = 1000 + synth_rng_below(&s->rng, 100000);
    s->next_py = PYID_FIRST_FREE;
    s->next_seq = 100 + (int64_t)synth_rng_below(&s->rng, 2000);
    s->next_flow = 0;
    s->step_no = 4 + synth_rng_below(&s->rng, 8);
    s->pystack[TH_MAIN][0] = PYID_SCRIPT;
    s->pystack[TH_MAIN][1] = PYID_MAIN;
    s->pydepth[TH_MAIN] = 2;
    s->boot_ts = s->t0 + synth_rng_range(&s->rng, 60 * US, 120 * US);
    s->script_ts = s->t0 + synth_rng_range(&s->rng, 130 * US, 200 * US);
    s->now[TH_MAIN] = s->script_ts + synth_rng_range(&s->rng, 40 * US, 80 * US);
    s->now[TH_AUTOGRAD] = s->now[TH_MAIN];
    s->heap_base = s->heap_top = HEAP_BASE + (synth_rng_below(&s->rng, 4096) << 21);
    s->allocated = (uint64_t)(m->layer_params * m->layers + m->other_params) * 10;
    s->reserved = (s->allocated / RESERVE_CHUNK + 8) * RESERVE_CHUNK;
    prologue(s);
}

void sim_done(struct sim *s)
{
    VEC_FREE(&s->r);
    VEC_FREE(&s->nodes);
    VEC_FREE(&s->spans);
}

void sim_step(struct sim *s)
{
    int M = TH_MAIN;
    s->nodes.n = 0;
    memset(s->mod_count, 0, sizeof(s->mod_count));
    s->step_gpu_lo = INT64_MAX;
    s->step_gpu_hi = 0;
    s->heap_top = s->heap_base;

    uint32_t ps = sim_py_open(s, M, PY_PROF_STEP);
    uint32_t tr = sim_py_open(s, M, PY_TRANSIT);
    sim_cpu(s, M, 20 * US, 60 * US);
    sim_py_close(s, tr);
    sim_py_close(s, ps);

    uint32_t step = sim_ann_open(s, M, ANN_STEP);
    s->r.v[step].bytes = (int64_t)s->step_no;
    uint32_t ts = sim_py_open(s, M, PY_TRAIN_STEP);
    sim_inject_small_kernels(s, M);
    sim_dataload(s, M);
    struct act in[2];
    sim_h2d(s, M, in);
    sim_inject_pageable(s, M);
    sim_zero_grad(s, M);
    sim_inject_cpu_bound(s, M);
    sim_forward(s, M);
    sim_inject_misaligned_gemm(s, M);
    sim_moe(s, M);
    sim_backward(s);
    sim_inject_recompute(s, M);
    sim_inject_sync(s, M);
    sim_clip(s, M);
    sim_optimizer(s, M);
    sim_item(s, M);
    for (int i = 0; i < 2; i++)
        sim_mem_free(s, M, in[i].addr, in[i].bytes);
    sim_py_close(s, ts);
    sim_op_close(s, step);

    s->prev_step_gpu = s->step_gpu_hi - s->step_gpu_lo;
    if (s->step_gpu_lo < s->step_gpu_hi) {
        struct step_span sp = {s->step_gpu_lo, s->step_gpu_hi - s->step_gpu_lo, s->r.v[step].ext,
                               s->step_no};
        VEC_PUSH(&s->spans, sp);
    }
    sim_cpu(s, M, 40 * US, 150 * US);
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
