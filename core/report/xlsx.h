/* Excel workbooks of report tables (libxlsxwriter): a "summary" sheet
 * describing the trace (after a "Charts" sheet), then one sheet per table, named as TraceLens names
 * its sheets. Numbers are written as numbers, headers are frozen and
 * bold, columns are sized to their contents, and text is sanitized. */
#ifndef TORCHTOP_CORE_XLSX_H
#define TORCHTOP_CORE_XLSX_H

#include "core/base/errinfo.h"
#include "core/base/table.h"
#include "core/analysis/analysis.h"
#include "core/report/report.h"

/* Write a "Charts" sheet (xlsx_charts.h), a summary of a's trace (none when a is NULL), then
 * tables (in order) to path; o (may be NULL) gives --arch for the
 * roofline chart's roofs. Returns ST_OK, or
 * ST_IO with err filled (also when torchtop was built without
 * libxlsxwriter). */
enum status xlsx_write(const char *path, struct analysis *a, const struct table_list *tables,
                       const struct report_opts *o, struct errinfo *err);

#endif
