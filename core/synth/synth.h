/* Synthetic Kineto traces: the bundled demo and big benchmark inputs.
 *
 * The generator simulates a bf16 GPT-style model trained with DDP on rank 0
 * of 2 (H100): per ProfilerStep#N a data-loader wait, the host-to-device
 * copy of the batch, the forward pass (Python frames with nn.Module frames,
 * aten ops with shapes, kernels on stream 7), the backward pass on an
 * autograd thread (evaluate_function ops paired to the forward ops by
 * Sequence number and fwdbwd flows, per-layer NCCL all-reduces on a second
 * stream that overlap the compute), a CUDA-graph replay, the fused AdamW
 * step and a blocking loss.item(). Around it: deviceProperties for two
 * H100s, distributedInfo, [memory] instants, metadata records, the
 * profiler's Trace span, and a handful of kernels whose launch fell before
 * the profiling window (unlinked on purpose). The layout and key order
 * follow what Kineto writes (docs: trace-format.md sections 2 to 6).
 *
 * Output is a pure function of the options: the same options give the same
 * bytes on every run and host. Timestamps are float microseconds with three
 * decimals relative to baseTimeNanoseconds. */
#ifndef TORCHTOP_CORE_SYNTH_H
#define TORCHTOP_CORE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/errinfo.h"
#include "core/trace/trace.h"

/* Layers and steps of the demo trace (a few thousand events). */
#define SYNTH_DEMO_LAYERS 4
#define SYNTH_DEMO_STEPS 3
/* Most transformer blocks a trace can have. */
#define SYNTH_MAX_LAYERS 4096
/* Python frames of the data pipeline per step when no size is asked for. */
#define SYNTH_DEMO_DATA_FRAMES 16

/* Problems `torchtop gen --inject` writes into every step, each of a known
 * size: what a findings rule should report (docs/metrics.md §20.1). */
enum synth_inject {
    SI_SYNC,            /* a .item() sync, then host work before the next launch */
    SI_SMALL_KERNELS,   /* a loop of tiny kernels, each waiting for its launch */
    SI_CPU_BOUND,       /* a host op while the GPU idles */
    SI_PAGEABLE_COPY,   /* a host-to-device copy from pageable memory */
    SI_DATA_LOADING,    /* an enumerate(DataLoader) op while the GPU idles */
    SI_MISALIGNED_GEMM, /* a GEMM with dims not a multiple of 8, slower by a known time */
    SI_RECOMPUTE,       /* a checkpointed forward op run again in the backward pass */
    SI__COUNT
};

/* The name of an injection ("small-kernels"), and its default size (µs). */
const char *synth_inject_name(enum synth_inject k);
int64_t synth_inject_default_us(enum synth_inject k);
/* Parse KIND[:AMOUNT] (AMOUNT in µs, 1 to 10^7) into us[]; false with a
 * message in err (size 256). */
bool synth_inject_parse(const char *spec, int64_t us[SI__COUNT], char *err);

struct synth_opts {
    uint64_t seed;                /* picks model dims, jitter, ids and the time offset */
    uint64_t target_events;       /* approximate traceEvents count; 0 = no event target */
    uint64_t target_bytes;        /* approximate JSON text size (uncompressed); 0 = none */
    unsigned steps;               /* ProfilerStep count; 0 = from the target, or the demo's */
    unsigned layers;              /* transformer blocks (at most SYNTH_MAX_LAYERS); 0 = from the
                                     target, or the demo's */
    bool conv;                    /* add a conv2d + batch_norm stem to the model */
    bool moe;                     /* add MoE, grouped-GEMM, routing and loss ops of
                                     serving and MoE stacks after the forward pass */
    bool gzip;                    /* compress the output (gzip format) */
    int gzip_level;               /* zlib level 1..9; 0 = 1 (fastest) */
    int64_t inject_us[SI__COUNT]; /* per step, µs; 0 = not injected */
};

/* What a generation wrote. Event counts use the loader's kinds, so a
 * loaded trace's n_by_kind equals by_kind. */
struct synth_stats {
    uint64_t json_bytes;          /* JSON text produced */
    uint64_t out_bytes;           /* bytes handed to the writer (compressed when gzip) */
    uint64_t events;              /* elements of traceEvents, flows and metadata included */
    uint64_t by_kind[EVK__COUNT]; /* X / i / M records by kind (distinct metadata only) */
    uint64_t meta_dups;           /* metadata records repeated verbatim, as Kineto does */
    uint64_t ac2g_s, ac2g_f;      /* launch flows: one s per runtime call, one f per GPU event */
    uint64_t fwdbwd_s, fwdbwd_f;  /* forward -> backward flows (paired) */
    uint64_t kernels;             /* kernel events */
    uint64_t memcpys, memsets;    /* gpu_memcpy / gpu_memset events */
    uint64_t linked;              /* GPU events with a runtime/driver call of their correlation */
    uint64_t unlinked;            /* GPU events with none (launched before the window) */
    uint64_t graph_kernels;       /* kernels owned by a cudaGraphLaunch */
    uint64_t graph_launches;      /* cudaGraphLaunch calls */
    uint64_t comm_kernels;        /* NCCL kernels (on the second stream) */
    uint64_t mangled_kernels;     /* kernels named by their mangled (_Z...) symbol */
    uint64_t driver_launches;     /* cuLaunchKernel calls */
    uint64_t runtime_calls;       /* cuda_runtime events */
    uint64_t python_frames;       /* python_function events */
    uint64_t module_frames;       /* of which "nn.Module: ..." frames */
    uint64_t py_cross_thread;     /* frames whose Python parent is on another thread */
    uint64_t fwd_ops;             /* forward ops that own an autograd node (with a flow) */
    uint64_t bwd_ops;             /* evaluate_function ops paired to one of them */
    uint64_t memory_events;       /* [memory] instants */
    unsigned steps, layers;       /* what was simulated */
    unsigned data_frames;         /* data-pipeline Python frames per step */
    int64_t base_ns;              /* baseTimeNanoseconds written */
};

/* Receives the output in order. Returns 0, or an errno value to stop the
 * generation (reported as ST_IO). */
typedef int (*synth_write_fn)(void *ud, const void *buf, size_t len);

/* Generate the trace for *opts and hand it to write(ud, ...), compressed
 * when opts->gzip. st (optional) receives the counts. Returns ST_OK, or
 * ST_IO with err filled when write fails (the output is then incomplete). */
enum status synth_write(const struct synth_opts *opts, synth_write_fn write, void *ud,
                        struct synth_stats *st, struct errinfo *err);

/* Same, into path ("-" = stdout), created or truncated. ST_IO with err
 * filled when the file cannot be opened or written. */
enum status synth_to_file(const struct synth_opts *opts, const char *path, struct synth_stats *st,
                          struct errinfo *err);

/* Same, into memory: returns a malloc'd buffer (the caller frees it) and
 * its length in *len. Cannot fail. */
char *synth_to_memory(const struct synth_opts *opts, size_t *len, struct synth_stats *st);

/* The shape of a generation. Size targets are met with whole steps of
 * whole layers, and the rest with the data pipeline's Python frames (a
 * data loader that tokenizes in Python: a few hundred bytes a frame). */
struct synth_plan {
    unsigned layers;      /* transformer blocks */
    unsigned steps;       /* ProfilerStep count */
    unsigned data_frames; /* data-pipeline Python frames per step */
};

/* The plan opts resolves to, found by measuring a few small generations
 * when there is a size target. Targets below the smallest trace (one layer,
 * one step: about 200 kB, 700 events) give the smallest trace. */
void synth_plan(const struct synth_opts *opts, struct synth_plan *plan);

/* "512", "64k", "1.5M", "2G" (powers of 1024) -> bytes. False when the text
 * is not a positive size. */
bool synth_parse_size(const char *s, uint64_t *out);

#endif
