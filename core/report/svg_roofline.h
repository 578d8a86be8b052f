/* The roofline plot as a self-contained SVG (docs/metrics.md §13.2): the
 * rows of the roofline tables (roofline.h's roofline_tables) on log-log
 * axes of arithmetic intensity (FLOP/byte) and achieved TFLOP/s, one
 * colour per table (op family), one circle per row that has both, its
 * <title> the op, shapes and numbers; the device's memory roof and the
 * compute roof of each compute spec in the rows as lines; the rows with
 * the most kernel time labelled. */
#ifndef TORCHTOP_CORE_SVG_ROOFLINE_H
#define TORCHTOP_CORE_SVG_ROOFLINE_H

#include "core/base/strbuf.h"
#include "core/base/table.h"
#include "core/roofline/devices.h"

/* Rows labelled on the plot (by total kernel time, over all tables). */
#define SVG_ROOFLINE_LABELS 10

/* Append the plot of the roofline tables in tables (those with the
 * FLOPS/Byte_first and TFLOPS/s_mean columns; others are ignored) to out.
 * peaks may be NULL (no roofs drawn, said under the title). */
void svg_roofline_render(struct strbuf *out, const struct table_list *tables,
                         const struct device_peaks *peaks, const char *title);

#endif
