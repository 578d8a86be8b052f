/* Roofline analysis of a trace (docs/metrics.md §6): every op instance a
 * performance model covers (perfmodel.h), its kernel time (the union of the
 * kernels and memcpys in its subtree; memsets are not counted), grouped per
 * sheet by op name and model parameters, against a device's peaks
 * (devices.h).
 *
 * Backward ops are modelled from their own arguments when they have a model
 * (aten::convolution_backward, attention and norm backwards); otherwise a
 * forward op with a backward model is also modelled through the
 * forward<->backward link (op_info.partner): its backward node's kernel
 * time against the backward FLOPs/bytes of the forward's parameters
 * (Reduce_bwd, GEMM_bwd...), unless that node contains an op of the same
 * family, which is then counted on its own.
 *
 * An op inside an op modelled by the same family is not an instance: the
 * outer op's kernel time already holds its kernels (aten::convolution >
 * aten::_convolution > aten::miopen_convolution gives one CONV_fwd row, as
 * TraceLens's sheet has). TraceLens lists some such ops again
 * (aten::native_batch_norm inside aten::batch_norm); torchtop does not.
 *
 * `torchtop report --table roofline` prints roofline_tables(); the explorer
 * uses the same object for its roofline view, the detail pane line and the
 * plot. A struct roofline borrows its analysis. Not thread-safe. */
#ifndef TORCHTOP_CORE_ROOFLINE_H
#define TORCHTOP_CORE_ROOFLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/analysis.h"
#include "core/roofline/devices.h"
#include "core/roofline/perfmodel.h"
#include "core/base/strbuf.h"
#include "core/base/table.h"

struct roofline;

/* Build the analysis for a's trace. `arch` is --arch (NULL: chosen from the
 * trace's deviceProperties). Returns NULL with a message in err (size 256)
 * only when an explicit --arch cannot be used (unreadable file, unknown
 * name); an unrecognised device gives a roofline without peaks (see
 * roofline_device_note). The result borrows a; free with roofline_free. */
struct roofline *roofline_new(struct analysis *a, const char *arch, char *err);
/* The same, with Triton kernels whose numels the trace lacks read from an
 * Inductor cache (inductor_cache.h; NULL: none); ic must outlive r. */
struct inductor_cache;
struct roofline *roofline_new_ic(struct analysis *a, const char *arch,
                                 const struct inductor_cache *ic, char *err);
void roofline_free(struct roofline *r);

/* Whether any op of the trace has recorded shapes (record_shapes=True). */
bool roofline_has_shapes(const struct roofline *r);
/* The device peaks in use, or NULL when none are known. */
const struct device_peaks *roofline_device(const struct roofline *r);
/* One line about the device: where the peaks come from, or which --arch
 * to pass. Owned by r. */
const char *roofline_device_note(const struct roofline *r);

/* The tables, appended to out (which owns them): one per non-empty sheet,
 * named as TraceLens's sheets (GEMM, CONV_fwd, ..., Normalization), rows
 * grouped by op name + parameters and sorted by total kernel time, row refs
 * = first instance's event, instances = the instances' events; then
 * "no_model" (kernel time of launcher ops no model covers). A trace without
 * shapes, or without GPU kernels, gives one table "roofline" holding one
 * message row. */
void roofline_tables(const struct roofline *r, struct table_list *out);

/* One modelled instance, as the explorer shows it. */
struct roofline_point {
    double flops, bytes; /* model */
    double kernel_us;    /* union of the subtree's kernels and memcpys */
    double intensity;    /* FLOP per byte */
    double tflops;       /* achieved TFLOP/s (NaN when no kernel time) */
    double tbps;         /* achieved TB/s */
    double peak_tflops;  /* device peak for its compute spec, 0 = unknown */
    double roof_us;      /* roofline time, NaN without peaks */
    double pct;          /* roofline time / kernel time, in percent */
    bool compute_bound;  /* the compute time is the larger */
};

/* Whether ev is a modelled instance: an op event, or a backward node
 * modelled through its forward op. Fills *res (parameters, FLOPs, bytes,
 * spec; may be NULL) and *pt (may be NULL). */
bool roofline_instance(const struct roofline *r, uint32_t ev, struct pm_result *res,
                       struct roofline_point *pt);

/* Why ev, an op of a modelled family, has no roofline instance (e.g.
 * "convolution parameters (stride, padding, dilation) not recorded"), or
 * NULL when it was not tried. */
const char *roofline_failure(const struct roofline *r, uint32_t ev);

/* One line for ev, e.g. "aten::mm 4096×4096×4096 bf16 · 137.4 GFLOP ·
 * 1365 FLOP/B · 650 TFLOP/s · 66 % of roofline, compute-bound"; appends
 * nothing and returns false when ev is not a modelled instance. `ascii`
 * writes "x" and "-" for "×" and "·". Op names are written as recorded:
 * sanitize before display. */
bool roofline_summary_line(struct strbuf *out, const struct roofline *r, uint32_t ev, bool ascii);

/* The shape and dtype part of ev's summary line ("4096×4096×4096 bf16");
 * appends nothing and returns false when ev is not a modelled instance. */
bool roofline_shape_text(struct strbuf *out, const struct roofline *r, uint32_t ev, bool ascii);

/* The modelled instances: roofline_ninstances of them, instance i's event
 * (the one roofline_instance takes: the op, or the backward node of a
 * backward modelled through its forward op), and for such an event the op
 * whose arguments were modelled (IDX_NONE when ev is no instance). */
size_t roofline_ninstances(const struct roofline *r);
uint32_t roofline_instance_event(const struct roofline *r, size_t i);
uint32_t roofline_instance_op(const struct roofline *r, uint32_t ev);

/* A roofline plot, `height` text lines of at most `width` columns (each
 * ending in '\n'), for the parameter combinations of ev's op (same sheet,
 * same name): log-log axes of FLOP/byte and TFLOP/s, the device's roof for
 * the op's compute spec, one mark per combination (the one holding ev
 * highlighted), and a legend line. Returns false (appending nothing) when
 * ev is not modelled or the size is below 30x8. Without device peaks the
 * points are drawn without a roof. */
bool roofline_plot(struct strbuf *out, const struct roofline *r, uint32_t ev, int width, int height,
                   bool ascii);

#endif
