/* Printing tables: aligned text, CSV (RFC 4180), JSON and Markdown.
 *
 * JSON schema (stable; documented in torchtop(1)):
 *   {"tables": [{"name": "ops_summary", "title": "...",
 *                "columns": [{"name": "...", "kind": "text|int|float|percent"}],
 *                "total_rows": N,                           // rows before --top cut them
 *                "rows": [{"<column name>": value, ...}],   // null for empty cells
 *                "notes": ["..."]}]}
 * A report wraps this with a "trace" header object (report.h). */
#ifndef TORCHTOP_CORE_TABFMT_H
#define TORCHTOP_CORE_TABFMT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/base/strbuf.h"
#include "core/base/table.h"

enum tab_format { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MD };

struct tabfmt_opts {
    enum tab_format format;
    size_t top;            /* print at most this many rows; 0 = the table's top_default */
    size_t max_name_width; /* text: columns for COLF_WIDE cells; 0 = 60 */
    bool ascii;            /* text: "~" instead of "…" for cuts */
    bool all_columns;      /* text/md: include COLF_DETAIL columns */
    bool csv_raw;          /* CSV: formula-like text cells as they are (no leading ') */
};

/* Parse "text", "csv", "json", "md"; false when unknown. */
bool tabfmt_parse(const char *s, enum tab_format *out);

/* Append one table in the chosen format. For JSON this is one table
 * object; tabfmt_write_list wraps several in {"tables": [...]}. */
void tabfmt_table(struct strbuf *out, const struct table *t, const struct tabfmt_opts *o);
/* Several tables: text/md separated by blank lines, CSV separated by a
 * "# name" line before each table, JSON as the schema above. `header_json`
 * (may be NULL) is inserted as the "trace" member of the JSON object. */
void tabfmt_list(struct strbuf *out, const struct table_list *l, const struct tabfmt_opts *o,
                 const char *header_json);

/* Append s[0..n) sanitized (display.h) and escaped for Markdown text, as
 * Markdown table cells are written. */
void tabfmt_md_text(struct strbuf *out, const char *s, size_t n);

/* Whether a CSV text cell s[0..n) would run as a spreadsheet formula: it
 * starts with '=', '+', '-' or '@' and is not a number. CSV output gives
 * such cells a leading "'" unless csv_raw is set. */
bool tabfmt_csv_formula_like(const char *s, size_t n);

/* Cell value as display text with the column's decimals (text output). */
void tabfmt_cell_text(struct strbuf *out, const struct table *t, size_t row, size_t col);

#endif
