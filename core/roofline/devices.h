/* Device peaks for rooflines: peak throughput per precision on the matrix
 * (tensor / matrix core) and vector paths, and memory bandwidth (docs/metrics.md §8.3).
 *
 * Sources: a built-in table of datasheet dense peaks (devices.c, each entry
 * citing its document), chosen from a trace's deviceProperties, or a
 * TraceLens arch JSON file ({"name": ..., "mem_bw_gbps": 5300,
 * "max_achievable_tflops": {"matrix_bf16": 708, ...}}). */
#ifndef TORCHTOP_CORE_DEVICES_H
#define TORCHTOP_CORE_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"
#include "core/trace/trace.h"

#define PREC_INFO(_)                                                                               \
    _(PREC_FP64, "fp64")                                                                           \
    _(PREC_FP32, "fp32")                                                                           \
    _(PREC_TF32, "tf32")                                                                           \
    _(PREC_BF16, "bf16")                                                                           \
    _(PREC_FP16, "fp16")                                                                           \
    _(PREC_FP8, "fp8")                                                                             \
    _(PREC_INT8, "int8")

enum prec {
#define PREC_ENUM(id, name) id,
    PREC_INFO(PREC_ENUM)
#undef PREC_ENUM
        PREC__COUNT
};

const char *devices_prec_name(enum prec p);
/* "bf16" -> PREC_BF16; -1 when unknown. */
int devices_prec_parse(const char *s);

struct device_peaks {
    char name[64];              /* "H100 SXM", or the arch file's "name" */
    char origin[160];           /* how it was chosen, for notes: "built-in, from
                                   device 0 'NVIDIA H100 80GB HBM3'" */
    double mem_bw_gbps;         /* GB/s (1e9 bytes per second) */
    double matrix[PREC__COUNT]; /* TFLOP/s (TOP/s for int8); 0 = unknown */
    double vector[PREC__COUNT];
};

/* Built-in entries, for --help and error messages. */
size_t devices_builtin_count(void);
const char *devices_builtin_name(size_t i);
/* The built-in names separated by commas, appended to out. */
void devices_builtin_names(struct strbuf *out);

/* The built-in entry called `name` (case, spaces, '-' and '_' ignored:
 * "h100-sxm" = "H100 SXM"). False when there is none. */
bool devices_builtin(const char *name, struct device_peaks *out);

/* Pick a built-in entry from a deviceProperties record: its name
 * ("NVIDIA H100 80GB HBM3", "AMD Instinct MI300X VF"), else, for generic
 * names ("AMD Radeon Graphics", ""), its gcnArchName / compute capability,
 * multiprocessor count and memory size. False when nothing matches. */
bool devices_match(const struct trace *t, const struct device *dev, struct device_peaks *out);

/* Read a TraceLens arch JSON file. False with a message in err (size 256)
 * when it cannot be read or has no mem_bw_gbps / max_achievable_tflops. */
bool devices_load_arch_file(const char *path, struct device_peaks *out, char *err);

/* Resolve the peaks for a report: `arch` (may be NULL) names a file (an
 * existing path, or one ending in ".json") or a built-in entry; without it
 * the trace's first recognised device is used. Returns true with *out
 * filled; false with a one-line reason in msg (msg_size bytes) that says
 * which --arch to pass (unknown device, unreadable file, unknown name). */
bool devices_resolve(const struct trace *t, const char *arch, struct device_peaks *out, char *msg,
                     size_t msg_size);

/* Peak in TFLOP/s of a compute spec such as "matrix_bf16" or "vector_fp32";
 * 0 when the spec is malformed or the device has no such peak. */
double devices_peak(const struct device_peaks *d, const char *spec);

#endif
