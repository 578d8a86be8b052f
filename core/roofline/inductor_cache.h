/* torch.compile's Inductor cache directory, read for the Triton kernels a
 * trace records without their numels (`--inductor-cache DIR`,
 * docs/metrics.md §7.11): TraceLens's TritonCompiledPerfModel "V1"
 * (PerfModel/triton_compiled_perf_model.py, _parse_wrapper). Every *.py
 * file under DIR that holds "async_compile.triton" is an output-code
 * wrapper; each `triton_<name> = async_compile.triton(...)` in it gives:
 *
 * - the aten ops of the "Original ATen: [...]" comment between the
 *   previous kernel's start (or the file's) and this one;
 * - xnumel and rnumel from `size_hints=[x, r]` (older PyTorch) or
 *   `size_hints={'x': x, 'r0_': r}` (2.7+): Inductor's hints, rounded up
 *   to powers of two;
 * - the pointer arguments' element sizes from the triton_meta signature
 *   ('*bf16' 2, '*fp32' 4, ...), and the first one's dtype.
 *
 * A file whose size hints do not parse is skipped whole (TraceLens's parse
 * raises for it). Files are read in path order; the first file defining a
 * kernel name wins. */
#ifndef TORCHTOP_CORE_INDUCTOR_CACHE_H
#define TORCHTOP_CORE_INDUCTOR_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define INDUCTOR_MAX_PTRS 64

struct inductor_kernel {
    const char *name;
    const char *aten_ops; /* "aten.add, aten.mul" as the comment lists them
                             (entries trimmed, joined by ", "); "" when none */
    int64_t xnumel, rnumel;
    uint8_t nptr;                         /* pointer arguments of a known size */
    uint8_t ptr_bytes[INDUCTOR_MAX_PTRS]; /* their bytes per element */
    char dtype[8];                        /* the first one's, "bf16"; "" when none */
};

struct inductor_cache;

/* Read every wrapper under dir. NULL with a message in err (size 256) when
 * dir cannot be read; an empty cache when it holds no wrapper. */
struct inductor_cache *inductor_cache_load(const char *dir, char *err);
void inductor_cache_free(struct inductor_cache *ic);
/* The kernel of that name, NULL when no wrapper defines it. */
const struct inductor_kernel *inductor_cache_find(const struct inductor_cache *ic,
                                                  const char *name);
/* Kernels read (for notes and tests). */
size_t inductor_cache_count(const struct inductor_cache *ic);
/* Parse one wrapper's text (len bytes), adding its kernels that are not
 * there yet; false when the file is skipped (size hints that do not
 * parse). */
bool inductor_cache_parse(struct inductor_cache *ic, const char *text, size_t len);
/* An empty cache, for inductor_cache_parse. */
struct inductor_cache *inductor_cache_new(void);

#endif
