/* Diff reports: the named tables `torchtop diff -t` builds from a
 * tracediff, and the header naming the two traces. The registry is the one
 * list of diff tables, for the command line, --help and the man page. */
#ifndef TORCHTOP_CORE_DIFFREPORT_H
#define TORCHTOP_CORE_DIFFREPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"
#include "core/base/table.h"
#include "core/diff/difftree.h"
#include "core/diff/tracediff.h"

struct analysis;

/* What a table is built from: the per-name diff, and the merged call tree
 * of the two whole traces, built on first use. */
struct diffreport_ctx {
    const struct tracediff *td;
    struct difftree *dt;    /* NULL until a table needs it */
    struct analysis *an[2]; /* each whole trace's analysis, NULL until a table needs it */
    size_t top;             /* rows printed: --top, 0 for a table's default, SIZE_MAX all */
};

/* Appends one or more tables to out. */
typedef void (*diffreport_build_fn)(struct diffreport_ctx *c, struct table_list *out);

struct diffreport_table {
    const char *name;    /* -t NAME */
    const char *summary; /* one line for --help */
    diffreport_build_fn build;
    bool indexed; /* reads the call tree: both traces need trace_index() */
};

/* The registry, terminated by a NULL name. */
extern const struct diffreport_table diffreport_tables[];

/* Whether every name in the comma-separated list is a diff table or
 * "all"; false with a message in err (size errn) naming the first one
 * that is not. */
bool diffreport_check_names(const char *names, char *err, size_t errn);

/* Whether a table in the (checked) comma-separated list needs both traces
 * indexed; the per-name tables alone do not, and skip trace_index(). */
bool diffreport_needs_index(const char *names);

/* Build the tables named (checked by diffreport_check_names) into out, in
 * the order named; "all" is every table of the registry. */
void diffreport_build(const struct tracediff *td, const char *names, struct table_list *out);
/* The same when only the rows that --top `top` prints will be read (0: each
 * table's default; SIZE_MAX: every row, as diffreport_build): a long
 * ranking (the merged tree's) is built only that far, the rest counted in
 * its rows_left_out. Such tables are printed, never sorted again or
 * written as a workbook. */
void diffreport_build_top(const struct tracediff *td, const char *names, size_t top,
                          struct table_list *out);

/* The header: each side's file and the steps it covers, and the device
 * filter; names sanitized (text) or escaped (Markdown list). */
void diffreport_header(struct strbuf *out, const struct tracediff *td, bool markdown);
/* The same as a JSON object (tabfmt_list's header). */
void diffreport_header_json(struct strbuf *out, const struct tracediff *td);

#endif
