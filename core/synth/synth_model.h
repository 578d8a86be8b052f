/* Builders of the simulated model's op and kernel variants, shared by
 * core/synth/synth_model.c and core/synth/synth_model_bwd.c: op inputs rendered as
 * Kineto's shape args, kernels with launch geometry and a duration from a
 * roofline of the H100, and the kernel names. */
#ifndef TORCHTOP_CORE_SYNTH_MODEL_H
#define TORCHTOP_CORE_SYNTH_MODEL_H

#include "core/synth/synth_internal.h"

#define BF "c10::BFloat16"
#define F32 "float"
#define I64 "long int"

/* One op input. */
struct targ {
    char kind; /* 't' tensor, 's' scalar, 'l' scalar list, 'L' tensor list, 'n' none */
    const char *dtype;
    int nd;
    int64_t d[5], st[5]; /* dims; strides (contiguous when st[0] == 0) */
    char val[64];        /* scalar or list value */
};

/* A tensor input; contiguous strides when st is NULL. */
struct targ smodel_tensor(const char *dtype, int nd, const int64_t *d, const int64_t *st);
/* A scalar ('s') or scalar-list ('l') input with a printf-formatted value. */
struct targ smodel_value(char kind, const char *fmt, ...) ATTR_FORMAT(2, 3);
/* A new op variant with n inputs (0: recorded without shapes); returns its index. */
uint16_t smodel_op(struct smodel *m, const char *name, int n, const struct targ *a);

#define T0(dt) smodel_tensor(dt, 0, NULL, NULL)
#define T1(dt, a) smodel_tensor(dt, 1, (int64_t[]){a}, NULL)
#define T2(dt, a, b) smodel_tensor(dt, 2, (int64_t[]){a, b}, NULL)
#define T3(dt, a, b, c) smodel_tensor(dt, 3, (int64_t[]){a, b, c}, NULL)
#define T4(dt, a, b, c, d) smodel_tensor(dt, 4, (int64_t[]){a, b, c, d}, NULL)
#define TS2(dt, a, b, s0, s1) smodel_tensor(dt, 2, (int64_t[]){a, b}, (int64_t[]){s0, s1})
#define TS3(dt, a, b, c, s0, s1, s2)                                                               \
    smodel_tensor(dt, 3, (int64_t[]){a, b, c}, (int64_t[]){s0, s1, s2})
#define TS4(dt, a, b, c, d, s0, s1, s2, s3)                                                        \
    smodel_tensor(dt, 4, (int64_t[]){a, b, c, d}, (int64_t[]){s0, s1, s2, s3})

#define SC(...) smodel_value('s', __VA_ARGS__)
#define LS(...) smodel_value('l', __VA_ARGS__)
#define NONE ((struct targ){.kind = 'n'})
#define TLIST ((struct targ){.kind = 'L'})

#define OP(name, ...)                                                                              \
    smodel_op(m, name, (int)(sizeof((struct targ[]){__VA_ARGS__}) / sizeof(struct targ)),          \
              (struct targ[]){__VA_ARGS__})
#define OP0(name) smodel_op(m, name, 0, NULL)

#define H100_SMS 132
#define H100_WARPS_PER_SM 64

/* Sustained rates: dense bf16 tensor-core flops and HBM bytes per ns. */
#define GEMM_FLOPS_PER_NS 620000
#define FLASH_FLOPS_PER_NS 430000
#define HBM_BYTES_PER_NS 2600
#define PCIE_BYTES_PER_NS 22
#define NVLINK_BYTES_PER_NS 160

/* Launch geometry and resources of a kernel, as CUPTI reports them. */
struct geom {
    int64_t grid[3]; /* blocks per dimension */
    int block;       /* threads per block (x) */
    int regs;        /* registers per thread */
    int smem;        /* shared memory per block, bytes */
};

static inline int64_t smodel_cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Durations in ns: a GEMM of m x n x k, a memory-bound pass over `bytes`. */
int64_t smodel_gemm_ns(int64_t m, int64_t n, int64_t k);
/* A GEMM kernel of rows x cols x k, batch of them in one launch, timed by
 * smodel_gemm_ns. */
uint16_t smodel_kern_gemm(struct smodel *m, const char *name, uint8_t api, int64_t rows,
                          int64_t cols, int64_t k, int64_t batch);
int64_t smodel_mem_ns(int64_t bytes);
/* New kernel variants; each returns its index in m->kerns. */
uint16_t smodel_kern(struct smodel *m, const char *name, uint8_t api, int64_t dur, struct geom g);
/* Elementwise over n elements moving bytes_per_elem bytes each. */
uint16_t smodel_kern_ew(struct smodel *m, const char *name, int64_t n, int64_t bytes_per_elem);
/* A memcpy (RT_MEMCPY) or memset (RT_MEMSET) of `bytes` at bytes_per_ns. */
uint16_t smodel_kern_copy(struct smodel *m, const char *name, uint8_t api, int64_t bytes,
                          int64_t bytes_per_ns);
/* A bf16 ring all-reduce of nelems elements over 2 ranks, collective args included. */
uint16_t smodel_kern_nccl(struct smodel *m, int64_t nelems);
/* record_param_comms of that all-reduce: collective args, no shapes. */
uint16_t smodel_op_rpc(struct smodel *m, int64_t nelems);

/* The backward, collective, optimizer and graph variants (synth_model_bwd.c). */
void smodel_ops_backward(struct smodel *m);
void smodel_ops_step(struct smodel *m);

/* ------------------------------------------------------------------------ */
/* Kernel names                                                             */
/* ------------------------------------------------------------------------ */

#define SM90_GEMM(layout, tile, wg)                                                                \
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_" layout "_n_tilesize" tile "_warpgroupsize" wg           \
    "_execute_segment_k_off_kernel__5x_cublas"
#define CUTLASS_GEMM(cfg) "void cutlass::Kernel2<" cfg ">(" cfg "::Params)"
#define VEC_EW(functor, arity)                                                                     \
    "void at::native::vectorized_elementwise_kernel<4, " functor                                   \
    ", at::detail::Array<char*, " arity "> >(int, " functor ", at::detail::Array<char*, " arity    \
    ">)"

#define GELU_FN                                                                                    \
    "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#1}"  \
    "::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}"
#define GELU_BWD_FN                                                                                \
    "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, "                             \
    "at::native::GeluType)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() "         \
    "const::{lambda(c10::BFloat16, c10::BFloat16)#1}"
#define MUL_FN                                                                                     \
    "at::native::AUnaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "                      \
    "at::native::binary_internal::MulFunctor<float> >"
#define CLAMP_FN                                                                                   \
    "at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, "             \
    "c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() "      \
    "const::{lambda()#14}::operator()() const::{lambda(c10::BFloat16)#1}"
#define THRESHOLD_FN                                                                               \
    "at::native::(anonymous namespace)::threshold_kernel_impl<c10::BFloat16>("                     \
    "at::TensorIteratorBase&, c10::BFloat16, c10::BFloat16)::{lambda(c10::BFloat16, "              \
    "c10::BFloat16)#1}"
#define CLAMP_MAX_FN                                                                               \
    "at::native::clamp_max_scalar_kernel_impl(at::TensorIteratorBase&, "                           \
    "c10::Scalar)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() "                  \
    "const::{lambda(float)#1}"
#define COPY_LAMBDA                                                                                \
    "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "    \
    "const::{lambda()#7}::operator()() const::{lambda(c10::BFloat16)#1}"
#define COPY_IMPL                                                                                  \
    "at::native::gpu_kernel_impl_nocast<" COPY_LAMBDA ">(at::TensorIteratorBase&, " COPY_LAMBDA    \
    " const&)::{lambda(int)#1}"
#define FLASH_BWD_TRAITS                                                                           \
    "pytorch_flash::Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, "              \
    "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 64, 128, 8, "                    \
    "cutlass::bfloat16_t> >"

/* Itanium-mangled symbols, the form Kineto leaves very long names in. */
#define MANGLED_ADAMW                                                                              \
    "_ZN2at6native12_GLOBAL__N_125multi_tensor_apply_kernelINS1_18TensorListMetadataILi4EEENS1_"   \
    "20FusedAdamMathFunctorIN3c108BFloat16ELi4ELNS0_9ADAM_MODEE1ELb0EEEJPdPfSB_SB_SB_fPbSC_"       \
    "EEEvT_T0_DpT1_"
#define MANGLED_LPNORM                                                                             \
    "_ZN2at6native12_GLOBAL__N_125multi_tensor_apply_kernelINS1_18TensorListMetadataILi1EEENS1_"   \
    "13LpNormFunctorIN3c108BFloat16ELNS0_8NormTypeE1EfLi1ELi1EEEJPfiEEEvT_T0_DpT1_"
#define MANGLED_SUM                                                                                \
    "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIN3c108BFloat16ENS0_14func_wrapper_"      \
    "tIS4_ZNS0_11sum_functorIS4_fS4_EclERNS_14TensorIteratorEEUlffE_EEjS4_Li4ELi4EEEEEvT1_"

#endif
