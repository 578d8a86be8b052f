/* Tables: the one result shape every analysis produces.
 *
 * A table has typed columns and rows of cells. Reports print tables
 * (tabfmt.h: text, CSV, JSON, Markdown, xlsx), the explorer shows and sorts
 * them, so both always show the same numbers. Column names are the
 * machine names used in CSV/JSON headers (TraceLens's names where TraceLens
 * has the table); titles are the short headers of text output and the UI.
 *
 * Empty cells: NaN for floats, TABLE_NO_INT for ints, NULL for text.
 * A table owns its strings (an arena); table_free releases everything. */
#ifndef TORCHTOP_CORE_TABLE_H
#define TORCHTOP_CORE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/arena.h"
#include "core/base/vec.h"

#define TABLE_NO_INT INT64_MIN

enum col_kind {
    COL_TEXT,    /* string */
    COL_INT,     /* integer count or id */
    COL_FLOAT,   /* real number */
    COL_PERCENT, /* real number in percent (0-100) */
};

enum col_flags {
    COLF_WIDE = 1 << 0,      /* long text (names): truncated in the middle in text output */
    COLF_DETAIL = 1 << 1,    /* left out of text/md output (still in csv/json/xlsx) */
    COLF_ASC = 1 << 2,       /* natural sort is ascending (names) rather than descending */
    COLF_BYTES = 1 << 3,     /* an int counting bytes: the explorer shows it in kB/MB/GB */
    COLF_CUMUL = 1 << 4,     /* a running sum in row order (table_set_cumulative) */
    COLF_LINES = 1 << 5,     /* text of '\n'-separated lines (source frames): text and md
                                print each line after the first on a row of its own below
                                the cell's row; CSV and JSON keep the newlines in the cell */
    COLF_NAME = 1 << 6,      /* names the row (when the first wide text column does not) */
    COLF_SHAPES = 1 << 7,    /* a Python tuple with one item per op input (dims, dtypes):
                                the explorer cuts it between items, not inside the first */
    COLF_KEY = 1 << 8,       /* part of the row's answer: the explorer shows it on the first
                                screen, before columns without the flag */
    COLF_MAGNITUDE = 1 << 9, /* a signed change: sorts by its magnitude (|x|), so that
                                the largest changes either way come first */
    COLF_CSV_NAN = 1 << 10,  /* an empty cell is written `nan` in CSV, as TraceLens's sheets
                                spell a value a row lacks (pandas' str of NaN); text, JSON,
                                xlsx and the explorer keep it empty */
};

struct table_col {
    const char *name;  /* machine name (CSV/JSON header); static string */
    const char *title; /* short header for text and the UI; NULL = name */
    uint8_t kind;      /* enum col_kind */
    uint8_t decimals;  /* digits after the point in text output */
    uint16_t flags;    /* enum col_flags */
};

union cell {
    int64_t i;
    double f;
    const char *s;
};

/* A cumulative column: the running sum of another column in row order. */
struct table_cumul {
    uint32_t col; /* the COLF_CUMUL column */
    uint32_t of;  /* the column summed (a percentage) */
};

struct table {
    char *name;             /* machine name, e.g. "ops_summary" */
    char *title;            /* one-line description */
    struct table_col *cols; /* ncols columns (copied) */
    size_t ncols;
    union cell *cells; /* row-major, nrows * ncols */
    size_t nrows, cap;
    uint32_t *refs;                /* per row: an id the front end can act on (an
                                      event index, a name id...), IDX_NONE = none */
    VEC(char *) notes;             /* lines printed after the table */
    VEC(struct table_cumul) cumul; /* COLF_CUMUL columns and what they sum */
    int sorted_col;                /* the column the rows are ordered by, -1: unknown */
    bool sorted_desc;              /* ... descending */
    bool whole;                    /* a breakdown, not a ranking: --top never cuts it */
    size_t top_default;            /* rows printed when no --top is given (0 = all): a long
                                      ranking, whole in the table so that a sort sees every row */
    size_t rows_left_out;          /* rows of a ranking built without them (only its top was
                                      asked for, never sorted again): counted as more rows */
    struct arena arena;            /* cell strings */
    /* Optional instances per row (e.g. the events behind an aggregated
     * row), as a CSR index filled by table_set_instances. */
    uint32_t *inst_first; /* nrows + 1 offsets into inst, or NULL */
    uint32_t *inst;
};

struct table *table_new(const char *name, const char *title, const struct table_col *cols,
                        size_t ncols);
void table_free(struct table *t);

/* Append an empty row; returns its index. */
size_t table_add_row(struct table *t);
/* Room for nrows rows in all, so that a table of known size grows once. */
void table_reserve(struct table *t, size_t nrows);
void table_set_int(struct table *t, size_t row, size_t col, int64_t v);
void table_set_float(struct table *t, size_t row, size_t col, double v);
/* Copies s (may be NULL for empty). */
void table_set_text(struct table *t, size_t row, size_t col, const char *s);
/* A copy of s[0..n) in t's arena, for table_set_copied_text: a string that
 * many cells show is copied once. */
const char *table_copy_text(struct table *t, const char *s, size_t n);
/* Set a cell to copy, which table_copy_text of this same table returned
 * (or NULL for empty); not copied again. */
void table_set_copied_text(struct table *t, size_t row, size_t col, const char *copy);
void table_set_ref(struct table *t, size_t row, uint32_t ref);
void table_add_note(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline union cell table_cell(const struct table *t, size_t row, size_t col)
{
    return t->cells[row * t->ncols + col];
}
static inline uint32_t table_ref(const struct table *t, size_t row)
{
    return t->refs[row];
}
/* Column index by machine name, or -1. */
int table_col_index(const struct table *t, const char *name);
/* The column that names a row (what a label for the row shows): the
 * COLF_NAME column, else the first wide text column, else the first text
 * column, else 0. */
size_t table_name_col(const struct table *t);

/* Stable sort of the rows by one column; empty cells sort last either way.
 * Instances and refs move with their rows; cumulative columns are
 * recomputed in the new order. Sets sorted_col and sorted_desc (a builder
 * that orders rows itself sets them). */
void table_sort(struct table *t, size_t col, bool descending);

/* One key of a multi-key order. */
struct table_sort_key {
    size_t col;
    bool descending;
};
/* Stable sort by keys[0], ties broken by keys[1], and so on (each key as
 * table_sort orders one column); keys naming no column are skipped. */
void table_sort_keys(struct table *t, const struct table_sort_key *keys, size_t nkeys);

/* Make column `col` (numeric) the running sum of column `of` (numeric) in
 * row order, as a cumulative percentage is of its percentage, and fill it
 * now. table_sort keeps it so after every sort. */
void table_set_cumulative(struct table *t, size_t col, size_t of);
/* Compare two rows of one column (<0, 0, >0), as table_sort does. */
int table_compare_rows(const struct table *t, size_t col, size_t a, size_t b);

/* Instances: rows[i] gets the list inst[first[i]..first[i+1]). Takes
 * ownership of both arrays (malloc'd). */
void table_set_instances(struct table *t, uint32_t *first, uint32_t *inst);
/* A copy of t (its own instances and notes) with column col added before
 * column `at` (<= ncols), its cells empty. Its text cells are t's: t must
 * outlive it. */
struct table *table_with_col(const struct table *t, size_t at, const struct table_col *col);

/* A list of tables printed together (a report). */
struct table_list {
    VEC(struct table *) items;
};
void table_list_add(struct table_list *l, struct table *t);
void table_list_free(struct table_list *l);

#endif
