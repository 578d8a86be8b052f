/* Internals of the synthetic trace generator, shared by core/synth*.c:
 * the PRNG, the buffered JSON writer, the model tables (op and kernel
 * variants with their pre-rendered args), the per-step simulation records
 * and the emitter. */
#ifndef TORCHTOP_CORE_SYNTH_INTERNAL_H
#define TORCHTOP_CORE_SYNTH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "core/synth/synth.h"
#include "core/base/vec.h"

/* ------------------------------------------------------------------------ */
/* PRNG: xoshiro256** seeded through splitmix64                             */
/* ------------------------------------------------------------------------ */

struct synth_rng {
    uint64_t s[4];
};

void synth_rng_seed(struct synth_rng *r, uint64_t seed);

static inline uint64_t synth_rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t synth_rng_next(struct synth_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = synth_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = synth_rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n); 0 when n is 0. */
static inline uint64_t synth_rng_below(struct synth_rng *r, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)synth_rng_next(r) * n) >> 64);
}

/* Uniform in [lo, hi]. */
static inline int64_t synth_rng_range(struct synth_rng *r, int64_t lo, int64_t hi)
{
    return hi <= lo ? lo : lo + (int64_t)synth_rng_below(r, (uint64_t)(hi - lo) + 1);
}

/* v scaled by a uniform factor in [1 - pct%, 1 + pct%]. */
static inline int64_t synth_rng_jitter(struct synth_rng *r, int64_t v, unsigned pct)
{
    int64_t span = v * (int64_t)pct / 100;
    return v + synth_rng_range(r, -span, span);
}

/* ------------------------------------------------------------------------ */
/* Buffered writer                                                          */
/* ------------------------------------------------------------------------ */

struct synth_out;
/* Takes buf[0..len) from the writer. Returns 0 or an errno value. */
typedef int (*synth_out_sink_fn)(struct synth_out *o, const char *buf, size_t len);

struct synth_out {
    char *buf; /* pending bytes */
    size_t len;
    size_t cap;             /* flush when a put would pass this */
    uint64_t flushed;       /* bytes handed to the sink before buf */
    synth_out_sink_fn sink; /* NULL: count only */
    void *ud;               /* the sink's state */
    int err;                /* first errno from the sink; later output is dropped */
};

/* Hand the pending bytes to the sink. */
void synth_out_flush(struct synth_out *o);

static inline uint64_t synth_out_total(const struct synth_out *o)
{
    return o->flushed + o->len;
}

static inline void synth_out_put(struct synth_out *o, const char *s, size_t n)
{
    if (UNLIKELY(o->len + n > o->cap)) {
        synth_out_flush(o);
        if (UNLIKELY(n > o->cap)) {
            o->buf = xreallocarray(o->buf, n, 1);
            o->cap = n;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

/* A string literal, without its NUL. */
#define PUT(o, lit) synth_out_put((o), "" lit, sizeof(lit) - 1)

static inline void synth_out_puts(struct synth_out *o, const char *s)
{
    synth_out_put(o, s, strlen(s));
}

static inline void synth_out_putc(struct synth_out *o, char c)
{
    if (UNLIKELY(o->len + 1 > o->cap))
        synth_out_flush(o);
    o->buf[o->len++] = c;
}

/* Decimal digits of v, right-aligned ending at end; returns the start. */
char *synth_fmt_u64(char *end, uint64_t v);

static inline void synth_out_u64(struct synth_out *o, uint64_t v)
{
    char tmp[24];
    char *p = synth_fmt_u64(tmp + sizeof(tmp), v);
    synth_out_put(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

static inline void synth_out_i64(struct synth_out *o, int64_t v)
{
    if (v < 0) {
        synth_out_putc(o, '-');
        synth_out_u64(o, 0 - (uint64_t)v);
    } else {
        synth_out_u64(o, (uint64_t)v);
    }
}

/* v / 10^decimals with exactly `decimals` digits after the point. */
void synth_out_fixed(struct synth_out *o, uint64_t v, unsigned decimals);

/* Nanoseconds as microseconds with three decimals, the way Kineto writes
 * ts and dur. */
static inline void synth_out_us(struct synth_out *o, int64_t ns)
{
    synth_out_fixed(o, (uint64_t)(ns < 0 ? 0 : ns), 3);
}

/* ------------------------------------------------------------------------ */
/* Model: dims, op variants, kernel variants                                */
/* ------------------------------------------------------------------------ */

/* Python frames (names), in enum order of synth_model.c's table. */
enum py_frame {
    PY_BOOT,
    PY_BOOT_INNER,
    PY_TQDM_RUN,
    PY_WAIT,
    PY_WAIT_INNER,
    PY_SCRIPT,
    PY_MAIN,
    PY_PROF_STEP,
    PY_TRANSIT,
    PY_TRAIN_STEP,
    PY_DL_NEXT,
    PY_DL_NEXT_DATA,
    PY_DL_FETCH,
    PY_DL_COLLATE,
    PY_GETITEM,
    PY_TOKENIZE,
    PY_ENCODE_BATCH,
    PY_ENCODE_BUILTIN,
    PY_TO_DEVICE,
    PY_ZERO_GRAD,
    PY_MODEL_FWD,
    PY_BLOCK_FWD,
    PY_ATTN_FWD,
    PY_MLP_FWD,
    PY_STEM_FWD,
    PY_LINEAR_FWD,
    PY_LN_FWD,
    PY_EMB_FWD,
    PY_GELU_FWD,
    PY_CONV_FWD,
    PY_BN_FWD,
    PY_RELU_FWD,
    PY_SDPA,
    PY_SOFTMAX,
    PY_CROSS_ENTROPY,
    PY_TENSOR_BACKWARD,
    PY_AUTOGRAD_BACKWARD,
    PY_ENGINE_RUN,
    PY_RUN_BACKWARD,
    PY_HOOK,
    PY_HOOK_FUT,
    PY_C10D_WRAPPER,
    PY_ALL_REDUCE,
    PY_CLIP,
    PY_REPLAY,
    PY_REPLAY_BUILTIN,
    PY_OPT_WRAPPER,
    PY_ADAMW_STEP,
    PY_FUSED_ADAM,
    PY_ITEM,
    /* frames of injected problems (synth_inject.c) */
    PY_INJ_LOG,
    PY_INJ_MASK,
    PY_INJ_EMA,
    PY_INJ_PROJ,
    PY_INJ_RECOMPUTE,
    PY__COUNT
};

/* nn.Module classes, named "nn.Module: <Class>_<n>". */
enum py_module {
    MOD_GPT,
    MOD_EMBEDDING,
    MOD_BLOCK,
    MOD_LAYERNORM,
    MOD_ATTN,
    MOD_LOCAL_ATTN,
    MOD_LINEAR,
    MOD_MLP,
    MOD_GELU,
    MOD_STEM,
    MOD_CONV,
    MOD_BN,
    MOD_RELU,
    MOD__COUNT
};

extern const char *const synth_py_names[PY__COUNT];
extern const char *const synth_module_names[MOD__COUNT];

/* Host API calls. */
enum rt_api {
    RT_LAUNCH,
    RT_LAUNCH_EXC,
    RT_MEMCPY,
    RT_MEMSET,
    RT_STREAM_SYNC,
    RT_GRAPH_LAUNCH,
    RT_STREAM_WAIT,
    RT_EVENT_RECORD,
    RT_IS_CAPTURING,
    DRV_LAUNCH,
    RT__COUNT
};

struct rt_info {
    const char *name;
    unsigned cbid;
    bool driver; /* cuda_driver rather than cuda_runtime */
};
extern const struct rt_info synth_rt[RT__COUNT];

/* An op as written: name and the rendered shape args ("Concrete Inputs"
 * ... "Input Dims" members, or "" for ops recorded without shapes). */
struct sop {
    const char *name;
    char *args;
    size_t args_len;
};

enum skern_kind { SK_KERNEL, SK_MEMCPY, SK_MEMSET };

/* A GPU activity as written. */
struct skern {
    const char *name;
    char *args; /* members after "correlation": geometry, collective args */
    size_t args_len;
    int64_t dur_ns; /* typical duration */
    int64_t bytes;  /* memcpy / memset size */
    uint8_t kind;   /* enum skern_kind */
    uint8_t api;    /* enum rt_api that launches it */
    bool comm, mangled;
};

/* The four linear layers of a block and the model's output head. */
enum lin_kind { LIN_QKV, LIN_PROJ, LIN_FC1, LIN_FC2, LIN_HEAD, LIN__COUNT };

/* Op and kernel variants of one linear layer, forward and backward. */
struct lin_ops {
    int64_t in, out;
    uint16_t linear, t, transpose, as_strided, view_in, addmm, view_out;
    uint16_t matmul, mm, unsafe_view; /* LIN_HEAD: no bias, matmul path */
    uint16_t mm_dgrad, mm_wgrad, sum_bias;
    uint16_t k_fwd, k_dgrad, k_wgrad, k_bias;
};

/* Every op and kernel variant the simulation uses. */
/* Ops of `gen --moe` (synth_moe.c). */
#define SYNTH_MOE_OPS 14

struct model_ops {
    /* input copy */
    uint16_t to, to_copy, empty_strided, copy_h2d;
    uint16_t k_h2d;
    /* embedding */
    uint16_t embedding, reshape_ids, view_ids, index_select, view_emb;
    uint16_t k_index_select;
    /* layer norm */
    uint16_t layer_norm, native_layer_norm, empty_ln;
    uint16_t k_ln;
    /* attention */
    uint16_t split, narrow, slice, view_head, transpose_head;
    uint16_t sdpa, sdpa_flash, flash_fwd, empty_attn;
    uint16_t matmul_qk, bmm_qk, mul_scale, softmax, softmax_inner, matmul_pv, bmm_pv;
    uint16_t transpose_out, reshape_out, clone, empty_like, copy_out, unsafe_view_out;
    uint16_t k_flash_fwd, k_bmm_qk, k_mul_scale, k_softmax, k_bmm_pv, k_copy;
    /* residual, mlp */
    uint16_t add, gelu;
    uint16_t k_add, k_gelu;
    /* loss */
    uint16_t cross_entropy, log_softmax, log_softmax_inner, nll_nd, nll, nll_fwd;
    uint16_t k_log_softmax, k_nll;
    /* conv stem */
    uint16_t conv2d, convolution, convolution_inner, cudnn_conv;
    uint16_t batch_norm, bn_impl, cudnn_bn, relu, clamp_min;
    uint16_t k_conv, k_bn, k_relu;
    /* backward */
    uint16_t ev_addmm, node_addmm, ev_mm, node_mm, ev_ln, node_ln, ln_bwd;
    uint16_t ev_add, node_add, ev_gelu, node_gelu, gelu_bwd;
    uint16_t ev_flash, node_flash, sdpa_flash_bwd, flash_bwd;
    uint16_t ev_bmm, node_bmm, bmm_qk_dgrad, bmm_qk_wgrad, bmm_pv_dgrad, bmm_pv_wgrad;
    uint16_t ev_softmax, node_softmax, softmax_bwd;
    uint16_t ev_mul, node_mul, mul_bwd;
    uint16_t ev_emb, node_emb, emb_bwd, emb_dense_bwd, zeros, zero_, fill_;
    uint16_t ev_log_softmax, node_log_softmax, log_softmax_bwd;
    uint16_t ev_nll, node_nll, nll_bwd, nll_zero, nll_fill;
    uint16_t ev_conv, node_conv, conv_bwd, ev_bn, node_bn, bn_bwd, ev_relu, node_relu,
        threshold_bwd;
    uint16_t ev_acc, node_acc, detach, detach_inner;
    uint16_t k_ln_bwd_in, k_ln_bwd_gamma, k_gelu_bwd, k_flash_bwd_dot, k_flash_bwd,
        k_flash_bwd_convert, k_softmax_bwd, k_mul_bwd, k_emb_bwd, k_memset, k_log_softmax_bwd,
        k_nll_bwd, k_fill, k_conv_wgrad, k_bn_bwd, k_threshold_bwd;
    /* ddp */
    uint16_t allreduce, rpc_layer, rpc_last;
    uint16_t k_nccl_layer, k_nccl_last;
    /* clip (graph), optimizer, sync */
    uint16_t k_graph[4];
    uint16_t fused_adamw, k_adamw;
    uint16_t item, local_scalar, k_d2h;
    /* before the window */
    uint16_t k_prev[3];
    /* injected problems (synth_inject.c), when any is asked for */
    uint16_t inj_loader, inj_cpu, inj_log, inj_small;
    uint16_t k_inj_small, k_inj_pageable;
    uint16_t inj_mm, k_inj_mm;
    uint16_t inj_gelu, k_inj_gelu;
    /* MoE and loss ops of serving and MoE training stacks (synth_moe.c),
     * with --moe: op, kernels */
    uint16_t moe_op[SYNTH_MOE_OPS];
    uint16_t moe_k[SYNTH_MOE_OPS][3];
};

struct smodel {
    int64_t B, S, H, NH, HD, F, V, T; /* batch, seq, hidden, heads, head dim, ffn, vocab, tokens */
    int64_t C, IMG;                   /* conv stem: channels, image side */
    unsigned layers;
    bool conv;
    bool moe;
    int64_t layer_params;    /* parameters per block */
    int64_t other_params;    /* embedding, final norm, stem */
    unsigned adamw_launches; /* multi_tensor_apply chunks per step */
    VEC(struct sop) ops;
    VEC(struct skern) kerns;
    struct lin_ops lin[LIN__COUNT];
    struct model_ops o;
};

/* Build the tables for opts (dims from the seed). */
void smodel_init(struct smodel *m, const struct synth_opts *opts, unsigned layers);
/* The op and kernel variants of opts's injected problems (synth_inject.c),
 * added after every other so that the rest keep their indices. */
void smodel_ops_inject(struct smodel *m, const struct synth_opts *opts);
/* The --moe ops (synth_moe.c); a no-op without it. */
void smodel_ops_moe(struct smodel *m);
void smodel_done(struct smodel *m);

/* ------------------------------------------------------------------------ */
/* Simulation records                                                       */
/* ------------------------------------------------------------------------ */

/* Host threads, and the GPU streams (rec.th of GPU records). */
enum { TH_MAIN, TH_AUTOGRAD, TH_BOOT, TH__COUNT };
enum { ST_COMPUTE, ST_COMM, ST__COUNT };
#define SYNTH_STREAM_COMPUTE 7
#define SYNTH_STREAM_COMM 24

enum rec_type { R_OP, R_ANN, R_PY, R_RT, R_GPU, R_MEM, R_SYNC /* cuda_sync, id the call's */ };

enum rec_flags {
    RF_BACKWARD = 1 << 0,    /* op: evaluate_function on the autograd thread */
    RF_MODULE = 1 << 1,      /* py: nn.Module frame (inst = instance number) */
    RF_NULL_PARENT = 1 << 2, /* py: Python parent id is null */
    RF_UNLINKED = 1 << 3,    /* GPU: no runtime call in the window */
    RF_GRAPH = 1 << 4,       /* GPU: part of a graph launch */
};

/* Python ids of the frames that outlive every step: the five frames of a
 * thread started before the profiler (PYID_BOOT..), the script, main(). */
enum { PYID_BOOT = 1, PYID_SCRIPT = 6, PYID_MAIN = 7, PYID_FIRST_FREE = 8 };

/* Annotation names (R_ANN tmpl). */
enum ann_name { ANN_STEP, ANN_ZERO_GRAD, ANN_OPT_STEP, ANN_NCCL_ALLREDUCE, ANN__COUNT };

struct rec {
    int64_t ts, dur;          /* ns relative to the trace base */
    uint64_t ext;             /* External id, 0 = none (ops, annotations, runtime, GPU) */
    uint64_t id;              /* Python id (py), correlation (runtime, GPU), address (memory) */
    uint64_t parent;          /* Python parent id (py) */
    int64_t seq;              /* Sequence number, -1 = none (ops) */
    int64_t bytes;            /* memory: signed size; ProfilerStep: step number */
    uint64_t total, reserved; /* memory: Total Allocated after it, Total Reserved */
    uint32_t flow;            /* ops: fwdbwd flow id, 0 = none */
    uint32_t ngpu;            /* runtime: GPU records right after it */
    uint16_t tmpl;            /* op / py frame / api / kernel variant / annotation */
    uint16_t inst;            /* py module instance */
    uint8_t type;             /* enum rec_type */
    uint8_t th;               /* host thread, or stream for GPU records */
    uint8_t flags;            /* enum rec_flags */
};

/* A GPU projection of ProfilerStep#N (gpu_user_annotation). */
struct step_span {
    int64_t ts, dur;
    uint64_t ext, step;
};

/* ------------------------------------------------------------------------ */
/* Simulation (synth_sim.c) and emission (synth_emit.c)                     */
/* ------------------------------------------------------------------------ */

#define SIM_DEPTH 64

struct sim_node;

struct sim {
    struct synth_rng rng;
    const struct smodel *m;
    VEC(struct rec) r;                /* the current step's records */
    VEC(struct sim_node) nodes;       /* autograd nodes of the current step */
    VEC(struct step_span) spans;      /* every step's GPU projection */
    int64_t now[TH__COUNT];           /* host cursors, ns */
    int64_t stream_free[ST__COUNT];   /* when each stream drains */
    int64_t t0;                       /* profiling window start */
    int64_t pid, tid_autograd;        /* the process; the main thread's tid is pid */
    int64_t step_gpu_lo, step_gpu_hi; /* compute-stream span of the current step */
    int64_t prev_step_gpu;            /* length of the previous step's span */
    uint32_t opstack[TH__COUNT][SIM_DEPTH];
    unsigned opdepth[TH__COUNT];
    uint64_t pystack[TH__COUNT][SIM_DEPTH]; /* Python ids of open frames */
    unsigned pydepth[TH__COUNT];
    uint64_t next_ext, next_corr, next_py, next_seq;
    uint32_t next_flow;
    unsigned mod_count[MOD__COUNT]; /* per-class instance numbers, reset per step */
    uint64_t run_backward_py;       /* Python id of run_backward in this step */
    /* allocator */
    uint64_t heap_base, heap_top;
    uint64_t allocated, reserved;
    /* whole-trace frames, emitted last */
    int64_t boot_ts, script_ts;
    uint64_t step_no;      /* ProfilerStep#N of the current step */
    unsigned data_frames;  /* data-pipeline frames per step */
    const int64_t *inject; /* synth_opts.inject_us, NULL: none */
};

/* A simulation of model m from the seed, with data_frames data-pipeline
 * frames per step; freed by sim_done. */
void sim_init(struct sim *s, const struct smodel *m, uint64_t seed, unsigned data_frames);
void sim_done(struct sim *s);
/* Simulate one ProfilerStep, appending to s->r (the caller empties it after
 * emitting; before the first step it holds the kernels still running when
 * the window opened). */
void sim_step(struct sim *s);
/* When the last host or GPU activity ends. */
int64_t sim_end(const struct sim *s);

struct emitter {
    struct synth_out *o;
    const struct smodel *m;
    struct synth_stats *st;
    uint64_t ev_idx;
    bool need_comma;
};

void synth_emit_header(struct emitter *e, uint64_t seed);
/* Every record of the current step, in Kineto's order: host ops and
 * annotations (with fwdbwd flows), [memory] instants, Python frames, then
 * runtime calls each followed by its GPU work and flows. */
void synth_emit_step(struct emitter *e, const struct sim *s);
/* Whole-trace Python frames, GPU step annotations, metadata, the profiler
 * span and the closing keys. */
void synth_emit_trailer(struct emitter *e, const struct sim *s, uint64_t seed);

#endif
