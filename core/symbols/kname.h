/* Simplified kernel and function names for tables.
 *
 * The full demangled name of a GPU kernel is often hundreds of characters
 * of template arguments and parameters. The simplified name folds them the
 * way HTA's shorten_name does (return type, parameter lists and template
 * argument lists removed, "(anonymous namespace)" dropped) but keeps the
 * one template argument that tells kernels apart:
 *
 *   void at::native::vectorized_elementwise_kernel<4,
 *       at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, ...)
 *     -> at::native::vectorized_elementwise_kernel<…FillFunctor<float>…>
 *   void cutlass::Kernel2<cutlass_80_tensorop_..._align2>(..::Params)
 *     -> cutlass::Kernel2<cutlass_80_tensorop_..._align2>
 *   at::native::elementwise_kernel<128, 2, gpu_kernel_impl<
 *       CUDAFunctor_add<float> >(...)::{lambda(int)#1}>(...)
 *     -> at::native::elementwise_kernel<…CUDAFunctor_add<float>…>
 *
 * The kept argument is, in order of preference: a functor (a name with
 * "Functor"/"functor", or ending in "Ops", generic wrappers such as
 * BinaryFunctor passed over), the function a lambda argument was defined
 * in, a configuration tag (cutlass_80_..., a long name with digits and
 * underscores), or else the first class-type argument. Short argument
 * lists (up to 40 characters, nothing nested) stay as written. "…" (U+2026)
 * marks what was left out.
 *
 * Names that are not C++ signatures are kept as they are: Triton and
 * Inductor kernels (triton_poi_fused_add_0), cuBLAS/Tensile names
 * (sm80_xmma_gemm_..., Cijk_...), "Memcpy HtoD (Pageable -> Device)".
 * Mangled names ("_Z...") are demangled first.
 *
 * Properties (tested on every kernel of the shared traces): the result is
 * never empty for a non-empty name, never longer than the demangled name,
 * and simplifying a simplified name gives it back unchanged. Pure and
 * thread-safe. */
#ifndef TORCHTOP_CORE_KNAME_H
#define TORCHTOP_CORE_KNAME_H

#include <stddef.h>

#include "core/base/strbuf.h"

/* Append the simplified form of name[0..n) to out. */
void kname_simplify_put(struct strbuf *out, const char *name, size_t n);

/* The simplified form of a NUL-terminated name, malloc'd (caller frees). */
char *kname_simplify(const char *name);

#endif
