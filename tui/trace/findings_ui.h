/* The findings in the explorer (docs/metrics.md §20): the header's lines
 * with the largest of them, the findings view's cursor, and Enter on a
 * finding showing its evidence in the pane that shows it best.
 *
 * The findings are one of the views built behind the first screen
 * (tui/trace/bgviews.h), first after the critical path. The header's lines
 * are reserved from the first screen on, their number a function of the
 * terminal's height alone, so that the panes do not move when the
 * findings arrive: "computing" until then, then one line per finding,
 * largest saving first. */
#ifndef TORCHTOP_TUI_FINDINGS_UI_H
#define TORCHTOP_TUI_FINDINGS_UI_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "tui/frame/pane.h"

struct app;

/* Terminal heights from which the header has the top three findings, and
 * from which it has the top one (below: none; I still lists them). */
#define FINDINGS_UI_LINES_3 30
#define FINDINGS_UI_LINES_1 20

/* Header lines for the findings on a screen of this many lines (0, 1 or
 * 3; 0 for a trace without GPU work, which has no critical path). */
int findings_ui_header_lines(struct app *a, int lines);
/* Draw them: n lines from line y of w, cols wide. */
void findings_ui_header(struct app *a, WINDOW *w, int y, int n, int cols);
/* A click on the header's line `line` of them: that finding in the
 * findings view; a double click shows its evidence too. Reactions. */
unsigned findings_ui_header_click(struct app *a, int line, bool dbl);
/* The findings view, focused, its cursor on the k-th largest finding.
 * Reactions. */
unsigned findings_ui_show(struct app *a, size_t k);
/* The table asked for a row's instances (Enter): when the row is a
 * finding, show its evidence where it shows best (the timeline for
 * launch-bound kernels and exposed communication, the call tree with
 * the Python lines for the others), a step Backspace undoes, and return
 * true. False: not a finding; the caller routes the request. */
bool findings_ui_evidence(struct app *a, const struct pane_request *req);

#endif
