/* The simulated model: dims from the seed, the name tables, the builders of
 * op and kernel variants (args rendered once: shapes, launch geometry,
 * collective args) and the forward-pass variants. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/synth/synth_model.h"

const char *const synth_py_names[PY__COUNT] = {
    [PY_BOOT] = "threading.py(1032): _bootstrap",
    [PY_BOOT_INNER] = "threading.py(1075): _bootstrap_inner",
    [PY_TQDM_RUN] = "tqdm/_monitor.py(60): run",
    [PY_WAIT] = "threading.py(655): wait",
    [PY_WAIT_INNER] = "threading.py(359): wait",
    [PY_SCRIPT] = "train.py(212): <module>",
    [PY_MAIN] = "train.py(188): main",
    [PY_PROF_STEP] = "torch/profiler/profiler.py(821): step",
    [PY_TRANSIT] = "torch/profiler/profiler.py(852): _transit_action",
    [PY_TRAIN_STEP] = "train.py(150): train_step",
    [PY_DL_NEXT] = "torch/utils/data/dataloader.py(701): __next__",
    [PY_DL_NEXT_DATA] = "torch/utils/data/dataloader.py(757): _next_data",
    [PY_DL_FETCH] = "torch/utils/data/_utils/fetch.py(49): fetch",
    [PY_DL_COLLATE] = "torch/utils/data/_utils/collate.py(398): default_collate",
    [PY_GETITEM] = "train.py(61): __getitem__",
    [PY_TOKENIZE] = "transformers/tokenization_utils_base.py(2858): __call__",
    [PY_ENCODE_BATCH] = "transformers/tokenization_utils_fast.py(503): _batch_encode_plus",
    [PY_ENCODE_BUILTIN] = "<built-in method encode_batch of tokenizers.Tokenizer object at "
                          "0x7f3b9c2e1b30>",
    [PY_TO_DEVICE] = "train.py(96): to_device",
    [PY_ZERO_GRAD] = "torch/optim/optimizer.py(955): zero_grad",
    [PY_MODEL_FWD] = "model.py(301): forward",
    [PY_BLOCK_FWD] = "model.py(112): forward",
    [PY_ATTN_FWD] = "model.py(58): forward",
    [PY_MLP_FWD] = "model.py(84): forward",
    [PY_STEM_FWD] = "model.py(30): forward",
    [PY_LINEAR_FWD] = "torch/nn/modules/linear.py(125): forward",
    [PY_LN_FWD] = "torch/nn/modules/normalization.py(217): forward",
    [PY_EMB_FWD] = "torch/nn/modules/sparse.py(190): forward",
    [PY_GELU_FWD] = "torch/nn/modules/activation.py(734): forward",
    [PY_CONV_FWD] = "torch/nn/modules/conv.py(549): forward",
    [PY_BN_FWD] = "torch/nn/modules/batchnorm.py(193): forward",
    [PY_RELU_FWD] = "torch/nn/modules/activation.py(133): forward",
    [PY_SDPA] = "<built-in function scaled_dot_product_attention>",
    [PY_SOFTMAX] = "<built-in method softmax of Tensor object at 0x7f3b9c1a4f90>",
    [PY_CROSS_ENTROPY] = "torch/nn/functional.py(3494): cross_entropy",
    [PY_TENSOR_BACKWARD] = "torch/_tensor.py(626): backward",
    [PY_AUTOGRAD_BACKWARD] = "torch/autograd/__init__.py(347): backward",
    [PY_ENGINE_RUN] = "torch/autograd/graph.py(823): _engine_run_backward",
    [PY_RUN_BACKWARD] = "<built-in method run_backward of torch._C._EngineBase object at "
                        "0x7f3c1a2b9e40>",
    [PY_HOOK] = "torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py(33): "
                "allreduce_hook",
    [PY_HOOK_FUT] = "torch/distributed/algorithms/ddp_comm_hooks/default_hooks.py(11): "
                    "_allreduce_fut",
    [PY_C10D_WRAPPER] = "torch/distributed/c10d_logger.py(81): wrapper",
    [PY_ALL_REDUCE] = "torch/distributed/distributed_c10d.py(2501): all_reduce",
    [PY_CLIP] = "train.py(131): clip_grads",
    [PY_REPLAY] = "torch/cuda/graphs.py(88): replay",
    [PY_REPLAY_BUILTIN] = "<built-in method replay of torch._C._CUDAGraph object at "
                          "0x7f3c0d6e1a70>",
    [PY_OPT_WRAPPER] = "torch/optim/optimizer.py(485): wrapper",
    [PY_ADAMW_STEP] = "torch/optim/adamw.py(209): step",
    [PY_FUSED_ADAM] = "torch/optim/adam.py(754): _fused_adam",
    [PY_ITEM] = "<built-in method item of Tensor object at 0x7f3b9c0e5d50>",
    [PY_INJ_LOG] = "train.py(93): log_grad_norm",
    [PY_INJ_MASK] = "train.py(71): build_attention_mask",
    [PY_INJ_EMA] = "train.py(104): ema_update",
    [PY_INJ_PROJ] = "model.py(131): project_vocab_slice",
    [PY_INJ_RECOMPUTE] = "torch/utils/checkpoint.py(1553): recompute_fn",
};

const char *const synth_module_names[MOD__COUNT] = {
    [MOD_GPT] = "GPT",
    [MOD_EMBEDDING] = "Embedding",
    [MOD_BLOCK] = "Block",
    [MOD_LAYERNORM] = "LayerNorm",
    [MOD_ATTN] = "CausalSelfAttention",
    [MOD_LOCAL_ATTN] = "LocalAttention",
    [MOD_LINEAR] = "Linear",
    [MOD_MLP] = "MLP",
    [MOD_GELU] = "GELU",
    [MOD_STEM] = "ConvStem",
    [MOD_CONV] = "Conv2d",
    [MOD_BN] = "BatchNorm2d",
    [MOD_RELU] = "ReLU",
};

const struct rt_info synth_rt[RT__COUNT] = {
    [RT_LAUNCH] = {"cudaLaunchKernel", 211, false},
    [RT_LAUNCH_EXC] = {"cudaLaunchKernelExC", 430, false},
    [RT_MEMCPY] = {"cudaMemcpyAsync", 41, false},
    [RT_MEMSET] = {"cudaMemsetAsync", 51, false},
    [RT_STREAM_SYNC] = {"cudaStreamSynchronize", 131, false},
    [RT_GRAPH_LAUNCH] = {"cudaGraphLaunch", 311, false},
    [RT_STREAM_WAIT] = {"cudaStreamWaitEvent", 147, false},
    [RT_EVENT_RECORD] = {"cudaEventRecord", 135, false},
    [RT_IS_CAPTURING] = {"cudaStreamIsCapturing", 317, false},
    [DRV_LAUNCH] = {"cuLaunchKernel", 307, true},
};

/* ------------------------------------------------------------------------ */
/* Op args: "Concrete Inputs", "Input type", "Input Strides", "Input Dims"  */
/* ------------------------------------------------------------------------ */

struct targ smodel_tensor(const char *dtype, int nd, const int64_t *d, const int64_t *st)
{
    struct targ a = {.kind = 't', .dtype = dtype, .nd = nd};
    for (int i = 0; i < nd; i++) {
        a.d[i] = d[i];
        a.st[i] = st ? st[i] : 0;
    }
    if (!st) {
        int64_t s = 1;
        for (int i = nd - 1; i >= 0; i--) {
            a.st[i] = s;
            s *= d[i];
        }
    }
    return a;
}

struct targ smodel_value(char kind, const char *fmt, ...)
{
    struct targ a = {.kind = kind};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a.val, sizeof(a.val), fmt, ap);
    va_end(ap);
    return a;
}

static void put_ints(struct strbuf *sb, int n, const int64_t *v)
{
    sb_putc(sb, '[');
    for (int i = 0; i < n; i++)
        sb_printf(sb, "%s%lld", i ? ", " : "", (long long)v[i]);
    sb_putc(sb, ']');
}

static void render_args(struct strbuf *sb, int n, const struct targ *a)
{
    sb_puts(sb, "\"Concrete Inputs\": [");
    for (int i = 0; i < n; i++) {
        sb_puts(sb, i ? ", \"" : "\"");
        if (a[i].kind == 's' || a[i].kind == 'l')
            sb_puts(sb, a[i].val);
        sb_putc(sb, '"');
    }
    sb_puts(sb, "], \"Input type\": [");
    for (int i = 0; i < n; i++) {
        const char *ty = a[i].kind == 't'   ? a[i].dtype
                         : a[i].kind == 's' ? "Scalar"
                         : a[i].kind == 'l' ? "ScalarList"
                         : a[i].kind == 'L' ? "TensorList"
                                            : "";
        sb_printf(sb, "%s\"%s\"", i ? ", " : "", ty);
    }
    sb_puts(sb, "], \"Input Strides\": [");
    for (int i = 0; i < n; i++) {
        if (i)
            sb_puts(sb, ", ");
        put_ints(sb, a[i].kind == 't' ? a[i].nd : 0, a[i].st);
    }
    sb_puts(sb, "], \"Input Dims\": [");
    for (int i = 0; i < n; i++) {
        if (i)
            sb_puts(sb, ", ");
        put_ints(sb, a[i].kind == 't' ? a[i].nd : 0, a[i].d);
    }
    sb_putc(sb, ']');
}

/* A new op variant; n args (0: recorded without shapes). */
uint16_t smodel_op(struct smodel *m, const char *name, int n, const struct targ *a)
{
    struct strbuf sb = STRBUF_INIT;
    if (n)
        render_args(&sb, n, a);
    struct sop *op = VEC_ADD(&m->ops);
    op->name = name;
    op->args_len = sb.len;
    op->args = sb_steal(&sb);
    if (!op->args)
        op->args = xstrdup("");
    return (uint16_t)(m->ops.n - 1);
}

/* ------------------------------------------------------------------------ */
/* Kernels                                                                  */
/* ------------------------------------------------------------------------ */

int64_t smodel_gemm_ns(int64_t m, int64_t n, int64_t k)
{
    return 2 * m * n * k / GEMM_FLOPS_PER_NS + 4000;
}

int64_t smodel_mem_ns(int64_t bytes)
{
    return bytes / HBM_BYTES_PER_NS + 2500;
}

static uint16_t kern_add(struct smodel *m, const char *name, uint8_t kind, uint8_t api, int64_t dur,
                         int64_t bytes, struct strbuf *args)
{
    struct skern *k = VEC_ADD(&m->kerns);
    k->name = name;
    k->kind = kind;
    k->api = api;
    k->dur_ns = dur;
    k->bytes = bytes;
    k->comm = strstr(name, "nccl") != NULL;
    k->mangled = strncmp(name, "_Z", 2) == 0;
    k->args_len = args->len;
    k->args = sb_steal(args);
    if (!k->args)
        k->args = xstrdup("");
    return (uint16_t)(m->kerns.n - 1);
}

/* A kernel with launch geometry and an occupancy estimate like CUPTI's. */
uint16_t smodel_kern(struct smodel *m, const char *name, uint8_t api, int64_t dur, struct geom g)
{
    struct strbuf sb = STRBUF_INIT;
    int64_t blocks = g.grid[0] * g.grid[1] * g.grid[2];
    int64_t warps_per_block = smodel_cdiv(g.block, 32);
    /* blocks and warps per SM in millionths */
    int64_t bps = blocks * 1000000 / H100_SMS;
    int64_t wps = blocks * warps_per_block * 1000000 / H100_SMS;
    int64_t resident = g.regs > 128 || g.smem > 100000 ? 1 : g.regs > 64 ? 2 : 4;
    int64_t warps_limit = MIN(H100_WARPS_PER_SM, resident * warps_per_block);
    int64_t occ = MIN(wps / 1000000, warps_limit) * 100 / H100_WARPS_PER_SM;
    sb_printf(&sb,
              "\"registers per thread\": %d,      \"shared memory\": %d,      \"blocks per SM\": "
              "%lld.%06lld,      \"warps per SM\": %lld.%06lld,      \"grid\": [%lld, %lld, "
              "%lld],      \"block\": [%d, 1, 1],      \"est. achieved occupancy %%\": %lld",
              g.regs, g.smem, (long long)(bps / 1000000), (long long)(bps % 1000000),
              (long long)(wps / 1000000), (long long)(wps % 1000000), (long long)g.grid[0],
              (long long)g.grid[1], (long long)g.grid[2], g.block, (long long)occ);
    return kern_add(m, name, SK_KERNEL, api, dur, 0, &sb);
}

/* An elementwise kernel over n elements of `width` bytes (reads + writes). */
uint16_t smodel_kern_ew(struct smodel *m, const char *name, int64_t n, int64_t bytes_per_elem)
{
    struct geom g = {{MIN(smodel_cdiv(n, 512 * 4), 132 * 16), 1, 1}, 128, 24, 0};
    return smodel_kern(m, name, RT_LAUNCH, smodel_mem_ns(n * bytes_per_elem), g);
}

/* batch GEMMs of rows x cols x k. */
uint16_t smodel_kern_gemm(struct smodel *m, const char *name, uint8_t api, int64_t rows,
                          int64_t cols, int64_t k, int64_t batch)
{
    bool big = rows * cols >= 4096 * 4096;
    struct geom g = {{smodel_cdiv(cols, big ? 256 : 128), smodel_cdiv(rows, 128), batch},
                     big ? 384 : 256,
                     168,
                     big ? 213248 : 164864};
    /* one launch for the batch: its fixed cost once */
    return smodel_kern(m, name, api, smodel_gemm_ns(rows, cols, k * batch), g);
}

uint16_t smodel_kern_copy(struct smodel *m, const char *name, uint8_t api, int64_t bytes,
                          int64_t bytes_per_ns)
{
    struct strbuf sb = STRBUF_INIT;
    return kern_add(m, name, api == RT_MEMSET ? SK_MEMSET : SK_MEMCPY, api,
                    bytes / bytes_per_ns + 1500, bytes, &sb);
}

uint16_t smodel_kern_nccl(struct smodel *m, int64_t nelems)
{
    struct geom g = {{24, 1, 1}, 544, 96, 87568};
    uint16_t k =
        smodel_kern(m,
                    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, "
                    "ncclWork*)",
                    RT_LAUNCH_EXC, nelems * 2 / NVLINK_BYTES_PER_NS + 12000, g);
    struct skern *kp = &m->kerns.v[k];
    struct strbuf sb = STRBUF_INIT;
    sb_putn(&sb, kp->args, kp->args_len);
    sb_printf(&sb,
              ", \"Collective name\": \"allreduce\", \"In msg nelems\": %lld, \"Out msg nelems\": "
              "%lld, \"Group size\": 2, \"dtype\": \"BFloat16\", \"In split size\": \"[]\", \"Out "
              "split size\": \"[]\", \"Process Group Name\": \"0\", \"Process Group "
              "Description\": \"default_pg\", \"Process Group Ranks\": \"[0, 1]\"",
              (long long)nelems, (long long)nelems);
    free(kp->args);
    kp->args_len = sb.len;
    kp->args = sb_steal(&sb);
    return k;
}

/* record_param_comms: the collective's args, no shapes. */
uint16_t smodel_op_rpc(struct smodel *m, int64_t nelems)
{
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb,
              "\"Process Group Name\": \"0\", \"Global rank stride\": 1, \"Out msg nelems\": "
              "%lld, \"Process Group Ranks\": \"[0, 1]\", \"Group size\": 2, \"Global rank "
              "start\": 0, \"In msg nelems\": %lld, \"In split size\": \"[]\", \"Out split "
              "size\": \"[]\", \"dtype\": \"BFloat16\", \"Process Group Description\": "
              "\"default_pg\", \"Collective name\": \"allreduce\"",
              (long long)nelems, (long long)nelems);
    struct sop *op = VEC_ADD(&m->ops);
    op->name = "record_param_comms";
    op->args_len = sb.len;
    op->args = sb_steal(&sb);
    return (uint16_t)(m->ops.n - 1);
}

/* ------------------------------------------------------------------------ */
/* Building the tables                                                      */
/* ------------------------------------------------------------------------ */

static void lin_init(struct smodel *m, enum lin_kind which, int64_t in, int64_t out)
{
    struct lin_ops *l = &m->lin[which];
    int64_t B = m->B, S = m->S, T = m->T;
    bool bias = which != LIN_HEAD;
    l->in = in;
    l->out = out;
    l->linear = bias ? OP("aten::linear", T3(BF, B, S, in), T2(BF, out, in), T1(BF, out))
                     : OP("aten::linear", T3(BF, B, S, in), T2(BF, out, in), NONE);
    l->t = OP("aten::t", T2(BF, out, in));
    l->transpose = OP("aten::transpose", T2(BF, out, in), SC("0"), SC("1"));
    l->as_strided =
        OP("aten::as_strided", T2(BF, out, in), LS("[%lld, %lld]", (long long)in, (long long)out),
           LS("[1, %lld]", (long long)in), NONE);
    l->view_in =
        OP("aten::view", T3(BF, B, S, in), LS("[%lld, %lld]", (long long)T, (long long)in));
    l->addmm =
        OP("aten::addmm", T1(BF, out), T2(BF, T, in), TS2(BF, in, out, 1, in), SC("1"), SC("1"));
    l->view_out = OP("aten::view", T2(BF, T, out),
                     LS("[%lld, %lld, %lld]", (long long)B, (long long)S, (long long)out));
    l->matmul = OP("aten::matmul", T3(BF, B, S, in), TS2(BF, in, out, 1, in));
    l->mm = OP("aten::mm", T2(BF, T, in), TS2(BF, in, out, 1, in));
    l->unsafe_view = OP("aten::_unsafe_view", T2(BF, T, out),
                        LS("[%lld, %lld, %lld]", (long long)B, (long long)S, (long long)out));
    l->mm_dgrad = OP("aten::mm", T2(BF, T, out), T2(BF, out, in));
    l->mm_wgrad = OP("aten::mm", TS2(BF, out, T, 1, out), T2(BF, T, in));
    l->sum_bias = OP("aten::sum", T2(BF, T, out), LS("[0]"), SC("True"), NONE);

    switch (which) {
    case LIN_QKV:
    case LIN_FC1:
        l->k_fwd =
            smodel_kern_gemm(m, SM90_GEMM("tn", "128x256x64", "2x1x1"), DRV_LAUNCH, T, out, in, 1);
        break;
    case LIN_PROJ:
    case LIN_FC2:
        l->k_fwd =
            smodel_kern_gemm(m,
                             CUTLASS_GEMM("cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_256x128_"
                                          "32x3_tn_align8"),
                             RT_LAUNCH, T, out, in, 1);
        break;
    default:
        l->k_fwd =
            smodel_kern_gemm(m, SM90_GEMM("tn", "256x128x64", "2x1x1"), DRV_LAUNCH, T, out, in, 1);
        break;
    }
    l->k_dgrad =
        smodel_kern_gemm(m, SM90_GEMM("nn", "128x256x64", "2x1x1"), DRV_LAUNCH, T, in, out, 1);
    l->k_wgrad =
        smodel_kern_gemm(m, SM90_GEMM("nt", "128x128x64", "1x1x1"), DRV_LAUNCH, out, in, T, 1);
    struct geom g = {{smodel_cdiv(out, 32), MIN(smodel_cdiv(T, 256), 16), 1}, 512, 40, 4096};
    l->k_bias = smodel_kern(m, MANGLED_SUM, RT_LAUNCH, smodel_mem_ns(T * out * 2), g);
}

static void ops_forward(struct smodel *m)
{
    struct model_ops *o = &m->o;
    int64_t B = m->B, S = m->S, H = m->H, NH = m->NH, HD = m->HD, F = m->F, V = m->V, T = m->T;
    long long lB = (long long)B, lS = (long long)S, lH = (long long)H, lT = (long long)T;

    o->to = OP("aten::to", T2(I64, B, S), NONE, SC("4"), SC("True"), SC("False"), NONE);
    o->to_copy = OP("aten::_to_copy", T2(I64, B, S), SC("4"), NONE, NONE, NONE, SC("True"), NONE);
    o->empty_strided = OP("aten::empty_strided", LS("[%lld, %lld]", lB, lS), LS("[%lld, 1]", lS),
                          SC("4"), SC("0"), NONE, SC("False"));
    o->copy_h2d = OP("aten::copy_", T2(I64, B, S), T2(I64, B, S), SC("True"));
    o->k_h2d =
        smodel_kern_copy(m, "Memcpy HtoD (Pinned -> Device)", RT_MEMCPY, T * 8, PCIE_BYTES_PER_NS);

    o->embedding =
        OP("aten::embedding", T2(BF, V, H), T2(I64, B, S), SC("-1"), SC("False"), SC("False"));
    o->reshape_ids = OP("aten::reshape", T2(I64, B, S), LS("[-1]"));
    o->view_ids = OP("aten::view", T2(I64, B, S), LS("[-1]"));
    o->index_select = OP("aten::index_select", T2(BF, V, H), SC("0"), T1(I64, T));
    o->view_emb = OP("aten::view", T2(BF, T, H), LS("[%lld, %lld, %lld]", lB, lS, lH));
    o->k_index_select = smodel_kern(
        m,
        "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, "
        "unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned "
        "int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, "
        "at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, "
        "unsigned int, long)",
        RT_LAUNCH, smodel_mem_ns(T * H * 4),
        (struct geom){{MIN(smodel_cdiv(T * H, 128 * 8), 1056), 1, 1}, 128, 32, 0});

    o->layer_norm = OP("aten::layer_norm", T3(BF, B, S, H), LS("[%lld]", lH), T1(BF, H), T1(BF, H),
                       SC("1.0000000000000001e-05"), SC("True"));
    o->native_layer_norm = OP("aten::native_layer_norm", T3(BF, B, S, H), LS("[%lld]", lH),
                              T1(BF, H), T1(BF, H), SC("1.0000000000000001e-05"));
    o->empty_ln = OP("aten::empty", LS("[%lld]", lT), SC("6"), SC("0"), NONE, NONE, NONE);
    o->k_ln =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<"
                    "c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, "
                    "c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
                    RT_LAUNCH, smodel_mem_ns(T * H * 4), (struct geom){{T, 1, 1}, 256, 32, 0});

    /* attention: q, k, v are views of the qkv output [B, S, 3H] */
    int64_t H3 = 3 * H;
    o->split = OP("aten::split", T3(BF, B, S, H3), SC("%lld", lH), SC("2"));
    o->narrow = OP("aten::narrow", T3(BF, B, S, H3), SC("2"), SC("0"), SC("%lld", lH));
    o->slice = OP("aten::slice", T3(BF, B, S, H3), SC("2"), SC("0"), SC("%lld", lH), SC("1"));
    o->view_head = OP("aten::view", TS3(BF, B, S, H, S * H3, H3, 1),
                      LS("[%lld, %lld, %lld, %lld]", lB, lS, (long long)NH, (long long)HD));
    o->transpose_head =
        OP("aten::transpose", TS4(BF, B, S, NH, HD, S * H3, H3, HD, 1), SC("1"), SC("2"));
#define QKV_T TS4(BF, B, NH, S, HD, S *H3, HD, H3, 1)
#define QKV_N TS4(BF, B, S, NH, HD, S *H3, H3, HD, 1)
    o->sdpa = OP("aten::scaled_dot_product_attention", QKV_T, QKV_T, QKV_T, NONE, SC("0."),
                 SC("True"), NONE, SC("False"));
    o->sdpa_flash = OP("aten::_scaled_dot_product_flash_attention", QKV_T, QKV_T, QKV_T, SC("0."),
                       SC("True"), SC("False"), NONE);
    o->flash_fwd =
        OP("aten::_flash_attention_forward", QKV_N, QKV_N, QKV_N, NONE, NONE, SC("%lld", lS),
           SC("%lld", lS), SC("0."), SC("True"), SC("False"), NONE, NONE, NONE, NONE, NONE);
    o->empty_attn = OP("aten::empty", LS("[%lld, %lld, %lld]", lB, (long long)NH, lS), SC("6"),
                       SC("0"), NONE, NONE, NONE);
    o->matmul_qk = OP("aten::matmul", QKV_T, TS4(BF, B, NH, HD, S, S * H3, HD, 1, H3));
    o->bmm_qk = OP("aten::bmm", T3(BF, B * NH, S, HD), TS3(BF, B * NH, HD, S, S * HD, 1, HD));
    o->mul_scale = OP("aten::mul", T4(BF, B, NH, S, S), SC("0.088388347648318433"));
    o->softmax = OP("aten::softmax", T4(BF, B, NH, S, S), SC("-1"), NONE);
    o->softmax_inner = OP("aten::_softmax", T4(BF, B, NH, S, S), SC("-1"), SC("False"));
    o->matmul_pv = OP("aten::matmul", T4(BF, B, NH, S, S), QKV_T);
    o->bmm_pv = OP("aten::bmm", T3(BF, B * NH, S, S), T3(BF, B * NH, S, HD));
    o->transpose_out = OP("aten::transpose", T4(BF, B, NH, S, HD), SC("1"), SC("2"));
    o->reshape_out = OP("aten::reshape", TS4(BF, B, S, NH, HD, S * H, HD, S * HD, 1),
                        LS("[%lld, %lld, %lld]", lB, lS, lH));
    o->clone = OP("aten::clone", TS4(BF, B, S, NH, HD, S * H, HD, S * HD, 1), SC("0"));
    o->empty_like = OP("aten::empty_like", TS4(BF, B, S, NH, HD, S * H, HD, S * HD, 1), NONE, NONE,
                       NONE, NONE, SC("0"));
    o->copy_out = OP("aten::copy_", T4(BF, B, S, NH, HD),
                     TS4(BF, B, S, NH, HD, S * H, HD, S * HD, 1), SC("False"));
    o->unsafe_view_out =
        OP("aten::_unsafe_view", T4(BF, B, S, NH, HD), LS("[%lld, %lld, %lld]", lB, lS, lH));
#undef QKV_T
#undef QKV_N
    int64_t flash_flops = 4 * B * NH * S * S * HD / 2;
    o->k_flash_fwd =
        smodel_kern(m,
                    "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_"
                    "traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, "
                    "pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, "
                    "cutlass::bfloat16_t> >, false, true, false, false, true, true, false, "
                    "false>(pytorch_flash::Flash_fwd_params)",
                    RT_LAUNCH, flash_flops / FLASH_FLOPS_PER_NS + 6000,
                    (struct geom){{smodel_cdiv(S, 128), B, NH}, 128, 255, 49152});
    o->k_bmm_qk =
        smodel_kern_gemm(m, SM90_GEMM("tn", "128x128x64", "1x1x1"), DRV_LAUNCH, S, S, HD, B * NH);
    o->k_mul_scale = smodel_kern_ew(m, VEC_EW(MUL_FN, "2"), B * NH * S * S, 4);
    o->k_softmax =
        smodel_kern(m,
                    S <= 1024 ? "void (anonymous namespace)::softmax_warp_forward<"
                                "c10::BFloat16, c10::BFloat16, float, 10, false, false>("
                                "c10::BFloat16*, c10::BFloat16 const*, int, int, int, bool "
                                "const*, int, bool)"
                              : "void at::native::(anonymous namespace)::cunn_SoftMaxForward"
                                "Smem<8, c10::BFloat16, float, c10::BFloat16, "
                                "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>("
                                "c10::BFloat16*, c10::BFloat16 const*, long)",
                    RT_LAUNCH, smodel_mem_ns(B * NH * S * S * 4),
                    (struct geom){{B * NH * S / 4, 1, 1}, 128, 32, 0});
    o->k_bmm_pv =
        smodel_kern_gemm(m, SM90_GEMM("nn", "128x128x64", "1x1x1"), DRV_LAUNCH, S, HD, S, B * NH);
    o->k_copy = smodel_kern_ew(
        m, "void at::native::elementwise_kernel<128, 4, " COPY_IMPL ">(int, " COPY_IMPL ")", T * H,
        4);

    o->add = OP("aten::add", T3(BF, B, S, H), T3(BF, B, S, H), SC("1"));
    o->gelu = OP("aten::gelu", T3(BF, B, S, F), SC("tanh"));
    o->k_add =
        smodel_kern_ew(m, VEC_EW("at::native::CUDAFunctor_add<c10::BFloat16>", "3"), T * H, 6);
    o->k_gelu = smodel_kern_ew(m, VEC_EW(GELU_FN, "2"), T * F, 4);

    o->cross_entropy = OP("aten::cross_entropy_loss", T2(BF, T, V), T1(I64, T), NONE, SC("1"),
                          SC("-100"), SC("0."));
    o->log_softmax = OP("aten::log_softmax", T2(BF, T, V), SC("1"), NONE);
    o->log_softmax_inner = OP("aten::_log_softmax", T2(BF, T, V), SC("1"), SC("False"));
    o->nll_nd = OP("aten::nll_loss_nd", T2(BF, T, V), T1(I64, T), NONE, SC("1"), SC("-100"));
    o->nll = OP("aten::nll_loss", T2(BF, T, V), T1(I64, T), NONE, SC("1"), SC("-100"));
    o->nll_fwd = OP("aten::nll_loss_forward", T2(BF, T, V), T1(I64, T), NONE, SC("1"), SC("-100"));
    o->k_log_softmax =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, "
                    "c10::BFloat16, float, c10::BFloat16, at::native::(anonymous "
                    "namespace)::LogSoftMaxForwardEpilogue>(c10::BFloat16*, "
                    "c10::BFloat16 const*, int)",
                    RT_LAUNCH, smodel_mem_ns(T * V * 4), (struct geom){{T, 1, 1}, 1024, 38, 0});
    o->k_nll =
        smodel_kern(m,
                    "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_"
                    "2d<c10::BFloat16, float, long>(c10::BFloat16*, c10::BFloat16*, c10::BFloat16 "
                    "const*, long const*, c10::BFloat16 const*, bool, long, long, long, long)",
                    RT_LAUNCH, smodel_mem_ns(T * 16), (struct geom){{1, 1, 1}, 1024, 32, 0});

    if (m->conv) {
        int64_t C = m->C, I = m->IMG, O = m->IMG / 2;
        long long lC = (long long)C;
        o->conv2d = OP("aten::conv2d", T4(BF, B, 3, I, I), T4(BF, C, 3, 7, 7), NONE, LS("[2, 2]"),
                       LS("[3, 3]"), LS("[1, 1]"), SC("1"));
        o->convolution =
            OP("aten::convolution", T4(BF, B, 3, I, I), T4(BF, C, 3, 7, 7), NONE, LS("[2, 2]"),
               LS("[3, 3]"), LS("[1, 1]"), SC("False"), LS("[0, 0]"), SC("1"));
        o->convolution_inner =
            OP("aten::_convolution", T4(BF, B, 3, I, I), T4(BF, C, 3, 7, 7), NONE, LS("[2, 2]"),
               LS("[3, 3]"), LS("[1, 1]"), SC("False"), LS("[0, 0]"), SC("1"), SC("False"),
               SC("False"), SC("True"), SC("True"));
        o->cudnn_conv =
            OP("aten::cudnn_convolution", T4(BF, B, 3, I, I), T4(BF, C, 3, 7, 7), LS("[3, 3]"),
               LS("[2, 2]"), LS("[1, 1]"), SC("1"), SC("False"), SC("True"), SC("True"));
        o->batch_norm =
            OP("aten::batch_norm", T4(BF, B, C, O, O), T1(BF, C), T1(BF, C), T1(F32, C), T1(F32, C),
               SC("True"), SC("0.10000000000000001"), SC("1.0000000000000001e-05"), SC("True"));
        o->bn_impl = OP("aten::_batch_norm_impl_index", T4(BF, B, C, O, O), T1(BF, C), T1(BF, C),
                        T1(F32, C), T1(F32, C), SC("True"), SC("0.10000000000000001"),
                        SC("1.0000000000000001e-05"), SC("True"));
        o->cudnn_bn =
            OP("aten::cudnn_batch_norm", T4(BF, B, C, O, O), T1(BF, C), T1(BF, C), T1(F32, C),
               T1(F32, C), SC("True"), SC("0.10000000000000001"), SC("1.0000000000000001e-05"));
        o->relu = OP("aten::relu_", T4(BF, B, C, O, O));
        o->clamp_min = OP("aten::clamp_min_", T4(BF, B, C, O, O), SC("0"));
        o->k_conv =
            smodel_kern(m,
                        "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nchw_"
                        "tilesize128x64x64_warpgroupsize1x1x1_g1_execute_segment_k_off_kernel__"
                        "5x_cudnn",
                        RT_LAUNCH, smodel_gemm_ns(B * O * O, C, 3 * 49),
                        (struct geom){{smodel_cdiv(B * O * O, 128), 1, 1}, 128, 168, 197632});
        o->k_bn = smodel_kern(
            m,
            "void cudnn::bn_fw_tr_1C11_kernel_NCHW<__nv_bfloat16, float, 512, true, "
            "1>(cudnnTensorStruct, __nv_bfloat16 const*, cudnnTensorStruct, "
            "__nv_bfloat16*, float const*, float const*, float, float, float*, "
            "float*, float*, float*, float, float)",
            RT_LAUNCH, smodel_mem_ns(B * C * O * O * 6), (struct geom){{C, 1, 1}, 512, 40, 8196});
        o->k_relu = smodel_kern_ew(m, VEC_EW(CLAMP_FN, "2"), B * C * O * O, 4);
        (void)lC;
    }
}

void smodel_init(struct smodel *m, const struct synth_opts *opts, unsigned layers)
{
    memset(m, 0, sizeof(*m));
    struct synth_rng r;
    synth_rng_seed(&r, opts->seed ^ 0x6d6f64656cULL);
    static const int64_t hidden[] = {1024, 1536, 2048};
    static const int64_t seqs[] = {1024, 2048};
    static const int64_t batches[] = {4, 8};
    m->H = hidden[synth_rng_below(&r, ARRAY_SIZE(hidden))];
    m->S = seqs[synth_rng_below(&r, ARRAY_SIZE(seqs))];
    m->B = batches[synth_rng_below(&r, ARRAY_SIZE(batches))];
    m->HD = 128;
    m->NH = m->H / m->HD;
    m->F = 4 * m->H;
    m->V = 50304;
    m->T = m->B * m->S;
    m->C = 64;
    m->IMG = 224;
    m->layers = layers ? layers : 1;
    m->conv = opts->conv;
    m->moe = opts->moe;
    m->layer_params = 12 * m->H * m->H + 13 * m->H;
    m->other_params = m->V * m->H + 2 * m->H + (m->conv ? m->C * 3 * 49 + 2 * m->C : 0);

    lin_init(m, LIN_QKV, m->H, 3 * m->H);
    lin_init(m, LIN_PROJ, m->H, m->H);
    lin_init(m, LIN_FC1, m->H, m->F);
    lin_init(m, LIN_FC2, m->F, m->H);
    lin_init(m, LIN_HEAD, m->H, m->V);
    ops_forward(m);
    smodel_ops_backward(m);
    smodel_ops_step(m);
    smodel_ops_inject(m, opts);
    smodel_ops_moe(m);
}

void smodel_done(struct smodel *m)
{
    for (size_t i = 0; i < m->ops.n; i++)
        free(m->ops.v[i].args);
    for (size_t i = 0; i < m->kerns.n; i++)
        free(m->kerns.v[i].args);
    VEC_FREE(&m->ops);
    VEC_FREE(&m->kerns);
}
