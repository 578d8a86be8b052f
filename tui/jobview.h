/* The explorer's job view (`torchtop DIR`, `torchtop TRACE TRACE...`): the
 * ranks table and the collectives table of a multi-rank job (core/job),
 * Tab between them, with the timeline of the selected collective below
 * (tui/joblanes.h), Enter on a rank to open that rank's trace in the full
 * explorer, from which Backspace (with nothing else to go back to) or q
 * returns here. The keys are the explorer's table keys from the key
 * table KEYS_JOB (tui/keymap.h): `s` the sort menu, `<`/`>`/1-9/S sort,
 * `[`/`]`/arrows scroll the columns (a "›" says more follow), `w` shows
 * the detail columns, `?` the help generated from the table. Traces show
 * by their base name, the selected rank's full path on the last line.
 * Only the rows on screen are formatted; column widths are measured once
 * per column.
 *
 * The state and its keys are pure (jobview_key, jobview_screen) so that
 * tests drive them without a terminal; jobview_run is the terminal loop. */
#ifndef TORCHTOP_TUI_JOBVIEW_H
#define TORCHTOP_TUI_JOBVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"
#include "core/job/job.h"
#include "core/job/job_tables.h"
#include "tui/textview.h"

enum jobview_table { JOBVIEW_RANKS, JOBVIEW_COLLECTIVES, JOBVIEW__COUNT };

struct jobview {
    struct job *job; /* owned */
    struct job_view v;
    struct table *tabs[JOBVIEW__COUNT]; /* owned */
    int which;                          /* enum jobview_table shown */
    size_t cur[JOBVIEW__COUNT];         /* selected row */
    size_t top[JOBVIEW__COUNT];         /* first row shown */
    int sort_col[JOBVIEW__COUNT];       /* column sorted by, -1: the builder's order */
    bool sort_desc[JOBVIEW__COUNT];
    size_t hscroll[JOBVIEW__COUNT]; /* columns scrolled off after the first */
    size_t *width[JOBVIEW__COUNT];  /* per column: measured width, 0 until measured */
    bool all_columns;               /* `w`: the detail columns too */
    bool help;                      /* the key list instead of the table */
    size_t help_top;                /* first help line shown */
    struct textview_menu menu;      /* the sort menu, while open */
    bool ascii;
    char msg[256]; /* the message line */
};

/* What a key asks of the caller. */
enum jobview_event {
    JOBVIEW_NONE,
    JOBVIEW_QUIT,
    JOBVIEW_OPEN, /* open jobview_open_path() in the explorer */
};

/* A view of j (taken over). */
struct jobview *jobview_new(struct job *j, bool ascii);
void jobview_free(struct jobview *jv);

/* Apply a key (keymap_normalize'd) for a screen of `rows` table rows. */
enum jobview_event jobview_key(struct jobview *jv, int key, int rows);

/* The trace of the selected rank (JOBVIEW_OPEN), borrowed. */
const char *jobview_open_path(const struct jobview *jv);

/* The screen as text, `lines` lines of at most `cols` columns each ending
 * in '\n'; *cursor_line receives the line of the selected row (-1 when
 * none). Measures the widths of columns shown for the first time. */
void jobview_screen(struct jobview *jv, int lines, int cols, struct strbuf *out, int *cursor_line);

/* Table rows on a screen of `lines` lines (the collectives table shares
 * it with the timeline of its selected collective, tui/joblanes.h; the
 * ranks table with the selected rank's path). */
int jobview_table_rows(const struct jobview *jv, int lines);

struct tui_opts;
/* Run the job view on the terminal; Enter runs tui_main on a rank's trace
 * with opts (its path replaced). Returns the exit status. */
int jobview_run(struct jobview *jv, const struct tui_opts *opts);

#endif
