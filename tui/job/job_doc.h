/* The explorer on a multi-rank job (`torchtop DIR`, `torchtop TRACE
 * TRACE...`): a document of the app (tui/frame/app.h) with the ranks table
 * (core/job), the collectives table, the lanes of the selected collective
 * across the ranks and the detail of the selected row; the same keys,
 * help, search, filter, sort menu and scrolling as every table of the
 * explorer. Enter on a rank opens its trace as a view on top of the job;
 * q or Backspace there comes back. */
#ifndef TORCHTOP_TUI_JOB_DOC_H
#define TORCHTOP_TUI_JOB_DOC_H

struct doc_ops;
struct job;
struct tui_opts;

extern const struct doc_ops job_doc_ops;

/* Run the explorer on job j (taken over) with opts o (the terminal's
 * options, --script for a headless run; the ranks' traces open with the
 * same options). Returns the exit status. */
int job_doc_run(struct job *j, const struct tui_opts *o);

#endif
