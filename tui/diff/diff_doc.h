/* The explorer on a trace diff (`torchtop diff CONTROL TEST` on a
 * terminal, -i, --script): a document of the app (tui/frame/app.h). The
 * diff's tables (core/diff: the per-name table, HTA's compare_traces, by
 * |diff duration| first; the LCA table; the unique-args and roofline
 * tables joined on op and shapes) are views of the table pane, with the
 * explorer's scrolling, search, filter, sort menu and help; the merged
 * call tree is the tree pane (tui/diff/mergedtree_pane.h); the two sides
 * are the bottom pane, whose Enter opens a side's trace as a view on top
 * (q or Backspace there comes back); the detail pane shows both sides of
 * the selection (tui/diff/diffdetail.h). 1-5 and Tab go from one of the
 * diff's views to another; Enter or d gives the detail the whole body. */
#ifndef TORCHTOP_TUI_DIFF_DOC_H
#define TORCHTOP_TUI_DIFF_DOC_H

#include <stdbool.h>

struct app;
struct diffdata;
struct doc_ops;
struct tracediff;
struct tui_opts;

extern const struct doc_ops diff_doc_ops;

/* Set up app a (zeroed; curses initialised) on td, as diff_doc_run does
 * (a is then the caller's to run and app_done). */
void diff_doc_open(struct app *a, struct tracediff *td, const struct tui_opts *o, bool ascii,
                   bool headless);
/* The data of a's diff (a set up with diff_doc_open). */
struct diffdata *diff_doc_data(struct app *a);
/* Run the explorer on td (taken over, with the two traces it compares,
 * which must be indexed; td made with opts.keep_events) with opts o (the
 * terminal's options, --script for a headless run; a side's trace opens
 * with the same options). Returns the exit status. */
int diff_doc_run(struct tracediff *td, const struct tui_opts *o);

#endif
