/* HTA's view of a trace (facebookresearch/HolisticTraceAnalysis): the
 * events its analyses see, with its times, streams, kernel types and its
 * filter of the last profiler step, and the describe() statistics its
 * summary tables print (docs/metrics.md §14).
 *
 * Ownership: an hta borrows the trace (which must outlive it) and owns its
 * arrays; hta_free releases them. */
#ifndef TORCHTOP_CORE_HTA_H
#define TORCHTOP_CORE_HTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/vec.h"
#include "core/trace/trace.h"

/* HTA's kernel types (hta/utils/utils.py get_kernel_type). */
enum hta_ktype { HTA_COMPUTATION, HTA_COMMUNICATION, HTA_MEMORY, HTA_OTHER };

/* One event as HTA's data frame holds it. */
struct hta_ev {
    double ts, dur, end; /* µs, relative to the earliest event (HTA's alignment) */
    int64_t corr;        /* args.correlation, -1 when absent */
    int64_t stream;      /* args.stream as Python's int() reads it (64-bit: a sync
                          * event's stream can be 2^32 - 1), -1 when absent */
    uint32_t ev;         /* index into trace.ev */
    uint8_t ktype;       /* enum hta_ktype, from the name and category */
    bool kernel;         /* a GPU kernel by category (kernel, gpu_mem*, mtia_ccp_events):
                          * the rows idle time reads; sync events are not */
};

struct hta {
    const struct trace *t;
    /* Events on a stream (stream != -1): HTA's "GPU kernels", after the
     * last-step filter; a GPU event matched by several host events is
     * repeated, as HTA's join repeats it. */
    VEC(struct hta_ev) gpu;
    /* "CPU" rows with a correlation (or on a stream: HTA's CPU side is
     * everything outside its GPU filter) kept by the filter, file order. */
    VEC(struct hta_ev) cpu;
    bool step_filter;    /* two or more ProfilerStep names: the last step was cut */
    double last_step_ts; /* start of the last ProfilerStep (µs) when step_filter */
    int rank;            /* distributedInfo.rank, else 0 */
};

/* Build HTA's view of an indexed trace. Never fails; a trace without GPU
 * events gives an empty gpu array. */
struct hta *hta_new(const struct trace *t);
void hta_free(struct hta *h);

/* HTA's kernel type of a kernel name. */
enum hta_ktype hta_kernel_type(const char *name);
/* HTA's kernel type of a row: OTHER for a sync event (category
 * cuda_sync: it runs no kernel, whatever its name), else by name. */
enum hta_ktype hta_row_kernel_type(const char *name, const char *cat);
/* Whether a category is one of HTA's GPU kernel categories
 * (KERNEL_CATEGORY_PATTERN, matched at the start: kernel, gpu_mem.+,
 * mtia_ccp_events). */
bool hta_kernel_category(const char *cat);
const char *hta_ktype_name(enum hta_ktype k);

/* The host event HTA's index_correlation links GPU event g to (the last
 * kept host event in file order with its correlation), or NULL. */
const struct hta_ev *hta_launch_of(const struct hta *h, const struct hta_ev *g);

/* pandas describe() of n values (NaN ones skipped): count, mean, std
 * (n - 1 in the denominator), min, 25 %, 50 %, 75 % (linear
 * interpolation), max; NaN where undefined. Sorts xs in place. */
struct hta_describe {
    double count, mean, std, min, q25, q50, q75, max;
};
struct hta_describe hta_describe(double *xs, size_t n);

/* An interval [s, e) in µs. */
struct hta_iv {
    double s, e;
};
/* Merge intervals (sorted in place by start) as HTA's
 * merge_kernel_intervals does: a start that does not exceed the running
 * end joins the interval. Returns the merged count; the merged intervals
 * are written over the first entries. */
size_t hta_merge(struct hta_iv *iv, size_t n);

/* The streams of h's GPU events (only those with `kernel` set when
 * kernels_only) in order of first appearance in HTA's frame; *n gets the
 * count. Caller frees. */
int64_t *hta_streams(const struct hta *h, bool kernels_only, size_t *n);

#endif
