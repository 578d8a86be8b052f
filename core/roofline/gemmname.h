/* GEMM kernel names: the (A, B) transpose flags TraceLens reads from the
 * kernel a GEMM op ran (docs/metrics.md §7.2). */
#ifndef TORCHTOP_CORE_GEMMNAME_H
#define TORCHTOP_CORE_GEMMNAME_H

#include <stdbool.h>
#include <stddef.h>

/* The transpose flags of GEMM kernel `name`, as TraceLens's
 * gemm_name_parser reads them, written to out as "(True, False)" with
 * "None" for a flag the name does not give. Families, tried in TraceLens's
 * order: Tensile (hipBLASLt, rocBLAS: "Cijk_Alik_Bljk_..."), Triton
 * (BLOCK_SIZE_M_/N_), Composable Kernel, MIOpen igemm, cuBLAS XMMA
 * ("_tn_"), CUTLASS ("_nt_") and cuBLASLt nvjet ("nvjet_..._TNT"). False
 * (out untouched) when the name is of none of them, or of a family whose
 * parser gives up (a CK name without its tile parameters): the caller
 * then tries the op's next kernel. out has room for 16 bytes. */
bool gemmname_transpose(const char *name, char out[16]);

#endif
