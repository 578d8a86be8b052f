/* Internals of the step simulation shared by core/synth/synth_sim.c (records,
 * host and GPU primitives, the step) and core/synth/synth_sim_pass.c (forward
 * and backward passes). Every primitive appends records to s->r and
 * advances the thread's or stream's clock. */
#ifndef TORCHTOP_CORE_SYNTH_SIM_H
#define TORCHTOP_CORE_SYNTH_SIM_H

#include "core/synth/synth_internal.h"

#define US 1000
#define MS 1000000

/* Autograd nodes left by the forward pass, consumed in reverse. */
enum node_kind {
    N_BUCKET,
    N_BUCKET_LAST,
    N_EMB,
    N_LN,
    N_ADDMM,
    N_MM,
    N_FLASH,
    N_BMM_QK,
    N_MUL,
    N_SOFTMAX,
    N_BMM_PV,
    N_ADD,
    N_GELU,
    N_LOG_SOFTMAX,
    N_NLL,
    N_CONV,
    N_BN,
    N_RELU,
};

struct sim_node {
    uint8_t kind;  /* enum node_kind */
    uint8_t lin;   /* enum lin_kind of N_ADDMM / N_MM */
    int64_t seq;   /* Sequence number of the forward op, -1 for buckets */
    uint32_t flow; /* fwdbwd flow id */
    uint64_t addr; /* activation freed after the node's backward, 0 = none */
    int64_t bytes;
};

/* An nn.Module frame and its forward() frame. */
struct mod_frames {
    uint32_t mod, fwd;
};

/* Output of a forward op, freed after its backward. */
struct act {
    uint64_t addr;
    int64_t bytes;
};

/* Advance th's clock by a uniform [lo, hi] ns. */
static inline void sim_cpu(struct sim *s, int th, int64_t lo, int64_t hi)
{
    s->now[th] += synth_rng_range(&s->rng, lo, hi);
}

/* Open an op / annotation on th with a new External id; seq -1 = none. */
uint32_t sim_op_open(struct sim *s, int th, uint16_t op, int64_t seq);
uint32_t sim_ann_open(struct sim *s, int th, enum ann_name a);
/* Close the innermost open op or annotation i of its thread. */
void sim_op_close(struct sim *s, uint32_t i);
/* An op with no children and no GPU work (views, metadata ops). */
void sim_op_leaf(struct sim *s, int th, uint16_t op);
/* Open a Python frame whose parent is the thread's innermost frame, or
 * `parent` (a Python id, 0 = null) which may live on another thread. */
uint32_t sim_py_open(struct sim *s, int th, uint16_t frame);
uint32_t sim_py_open_parent(struct sim *s, int th, uint16_t frame, uint64_t parent);
void sim_py_close(struct sim *s, uint32_t i);
struct mod_frames sim_mod_enter(struct sim *s, int th, enum py_module mod, uint16_t fwd);
void sim_mod_exit(struct sim *s, struct mod_frames f);
/* A runtime / driver call on th; its External id is the innermost open op's. */
uint32_t sim_rt_call(struct sim *s, int th, uint8_t api);
/* A launch call for kernel variant k and its GPU work. */
void sim_launch_on(struct sim *s, int th, uint16_t k, int stream, int64_t min_start);
void sim_launch(struct sim *s, int th, uint16_t k);
/* [memory] instants of the caching allocator. */
uint64_t sim_mem_alloc(struct sim *s, int th, int64_t bytes, int64_t *rounded);
void sim_mem_free(struct sim *s, int th, uint64_t addr, int64_t bytes);
struct act sim_act_alloc(struct sim *s, int th, int64_t bytes);

/* Injected problems (synth_inject.c), each a no-op unless asked for. The
 * data loader's: its time in all (ns), 0 = the natural one. */
int64_t sim_inject_loader_open(struct sim *s, int th, uint32_t *op);
void sim_inject_cpu_bound(struct sim *s, int th);
void sim_inject_pageable(struct sim *s, int th);
void sim_inject_sync(struct sim *s, int th);
void sim_inject_small_kernels(struct sim *s, int th);
void sim_inject_misaligned_gemm(struct sim *s, int th);
void sim_inject_recompute(struct sim *s, int th);
/* The --moe ops, each with its kernels (synth_moe.c); a no-op without it. */
void sim_moe(struct sim *s, int th);
/* Append a record; returns its index (synth_sim.c). */
uint32_t sim_rec_add(struct sim *s, uint8_t type, int th, uint16_t tmpl, int64_t ts);
/* GPU work of kernel variant k for runtime call rt (synth_sim.c). */
void sim_gpu_run(struct sim *s, uint32_t rt, uint16_t k, int stream, int64_t min_start,
                 uint8_t flags);

/* The model's forward pass on th (main thread), leaving autograd nodes. */
void sim_forward(struct sim *s, int th);
/* The backward pass on the autograd thread while th waits in run_backward. */
void sim_backward(struct sim *s);

#endif
