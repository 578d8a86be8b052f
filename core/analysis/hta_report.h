/* HTA's analysis tables, with HTA's column names (docs/metrics.md §14).
 * Each builds from an hta view (hta.h); the tables are the caller's. */
#ifndef TORCHTOP_CORE_HTA_REPORT_H
#define TORCHTOP_CORE_HTA_REPORT_H

#include <stdbool.h>

#include "core/analysis/hta.h"
#include "core/base/table.h"

/* get_temporal_breakdown: idle, compute and non-compute time (µs). */
struct table *hta_report_temporal(const struct hta *h);
/* get_idle_time_breakdown per stream; with intervals, also the idle
 * interval statistics (show_idle_interval_stats). Appends to out. */
void hta_report_idle(const struct hta *h, bool intervals, struct table_list *out);
/* get_gpu_kernel_breakdown: time per kernel type and overlap of types,
 * then the top kernels of each type. Appends both to out. */
void hta_report_kernel_types(const struct hta *h, struct table_list *out);
/* get_comm_comp_overlap: share of communication time overlapped by
 * computation. */
struct table *hta_report_overlap(const struct hta *h);
/* get_cuda_kernel_launch_stats: describe() of the CPU call, GPU duration
 * and launch delay of every launch, and the outlier launches. Appends
 * both to out. */
void hta_report_launch_stats(const struct hta *h, struct table_list *out);
/* get_queue_length_summary per stream. */
struct table *hta_report_queue_length(const struct hta *h);
/* get_memory_bw_summary per memory operation kind. */
struct table *hta_report_memory_bw(const struct hta *h);

#endif
