/* Excel workbooks of report tables (libxlsxwriter): a "summary" sheet
 * describing the trace, then one sheet per table, named as TraceLens names
 * its sheets. Numbers are written as numbers, headers are frozen and
 * bold, columns are sized to their contents, and text is sanitized. */
#ifndef TORCHTOP_CORE_XLSX_H
#define TORCHTOP_CORE_XLSX_H

#include "core/base/errinfo.h"
#include "core/base/table.h"
#include "core/analysis/analysis.h"

/* Write tables (in order) after a summary of a's trace (none when a is
 * NULL) to path. Returns ST_OK, or
 * ST_IO with err filled (also when torchtop was built without
 * libxlsxwriter). */
enum status xlsx_write(const char *path, struct analysis *a, const struct table_list *tables,
                       struct errinfo *err);

#endif
