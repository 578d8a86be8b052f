/* Charts of a report workbook (libxlsxwriter's chart API): the "Charts"
 * sheet, first in the workbook, whose charts point at the cells of the
 * table sheets (docs/metrics.md §13.1), so that a user who edits a cell
 * sees the chart follow.
 *
 * - GPU timeline breakdown as a stacked bar: computation, exposed
 *   communication, exposed memcpy and idle, one bar per device when the
 *   workbook has gpu_timeline_per_device, else one bar;
 * - the top ops (ops_summary) and kernels (kernel_summary) by GPU time as
 *   bars, the first XLSX_CHART_TOP rows, the count in the title;
 * - the roofline: a log-log scatter of the roofline sheets' rows (FLOP per
 *   byte against achieved TFLOP/s), one series per sheet, the device's
 *   memory and compute roofs as line series, the largest points labelled
 *   with their op and shapes;
 * - for a multi-rank job, the breakdown per rank and the wait per rank;
 * - a memory snapshot's allocated and reserved memory over its trace
 *   entries, with the peak marked (xlsx_charts_memory).
 * - a trace's memory_curve (from its [memory] events): allocated and
 *   reserved memory per device over the trace's time, the peak marked.
 *
 * Only in builds with libxlsxwriter (HAVE_XLSXWRITER). */
#ifndef TORCHTOP_CORE_XLSX_CHARTS_H
#define TORCHTOP_CORE_XLSX_CHARTS_H

#ifdef HAVE_XLSXWRITER

#include <xlsxwriter.h>

#include "core/base/table.h"
#include "core/roofline/devices.h"

/* The sheet the charts are on (first in the workbook). */
#define XLSX_CHARTS_SHEET "Charts"
/* Bars per ranking chart, and points per roofline series. */
#define XLSX_CHART_TOP 20
#define XLSX_CHART_ROOF_POINTS 500
/* Points labelled with op and shapes in each roofline series. */
#define XLSX_CHART_LABELS 8

/* A table as written to a sheet: header on row 0, table row r on sheet
 * row r + 1, table column c on sheet column c. */
struct xlsx_sheet_ref {
    const struct table *t;
    char name[32]; /* the sheet's name */
};

/* The GPU timeline block of the summary sheet: one row per type, name in
 * column 0 and milliseconds in column 1, below a header row. */
struct xlsx_summary_ref {
    const char *sheet; /* NULL: none */
    uint32_t header_row;
    uint32_t first_row; /* computation, exposed comm, exposed memcpy, idle, ... */
};

/* Fill ws (the workbook's "Charts" sheet) with the charts of the tables in
 * sheets[0..n) and their data helpers. peaks (may be NULL) draws the
 * roofs. Charts whose table is not in the workbook are left out; ws says
 * so in a line. */
void xlsx_charts_write(lxw_workbook *wb, lxw_worksheet *ws, const struct xlsx_sheet_ref *sheets,
                       size_t n, const struct xlsx_summary_ref *summary,
                       const struct device_peaks *peaks);

/* Bars per chart of a job's ranks (a job of more ranks charts the first,
 * as its sheet is sorted, and says so in the title). */
#define XLSX_CHART_RANKS 64

/* Fill ws (a job workbook's "Charts" sheet) with charts of the job tables
 * (core/job/job_tables.h) in sheets[0..n): the GPU timeline breakdown as
 * a stacked bar per rank (sheet ranks: computation, exposed
 * communication, exposed memcpy, idle) and each rank's total wait in
 * collectives (sheet stragglers). */
void xlsx_charts_job(lxw_workbook *wb, lxw_worksheet *ws, const struct xlsx_sheet_ref *sheets,
                     size_t n);

/* A diverging bar of a Δ table (`torchtop diff`'s trace_diff): the `top`
 * rows of sheet s with the largest |delta_col| (a signed number; negative
 * bars in another colour), named by name_col, through helper cells on ws
 * that point at those rows; placed on ws at (row, 0). Returns the next
 * free row on ws below the chart. */
uint32_t xlsx_charts_delta(lxw_workbook *wb, lxw_worksheet *ws, uint32_t row,
                           const struct xlsx_sheet_ref *s, size_t name_col, size_t delta_col,
                           size_t top, const char *title);

/* Memory of a snapshot over its trace entries (the memory_timeline table,
 * core/snapshot/snaptimeline.h, on sheet s): per device a line of
 * allocated and one of reserved bytes against the entry index, pointing at
 * the table's cells, and the peak allocation as a marked, labelled point;
 * the title says when the table's points are a sample of the entries.
 * Placed on ws from row; returns the next free row below the charts. */
uint32_t xlsx_charts_memory(lxw_workbook *wb, lxw_worksheet *ws, uint32_t row,
                            const struct xlsx_sheet_ref *s);

#endif
#endif
