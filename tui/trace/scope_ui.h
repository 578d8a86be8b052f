/* Scopes in the explorer: every view for one part of the trace
 * (core/trace/scope.h). A range marked on the timeline, a step of the step
 * list or an iteration of the serving iterations opens the trace of that
 * scope as a view on top of the whole trace (tui_push_scope): its views
 * are computed for the scope as a trace's are when it opens, its header
 * says what the scope holds, and Esc or Backspace returns to the whole
 * trace. Scopes nest: a range marked in a step's view scopes that step. */
#ifndef TORCHTOP_TUI_SCOPE_UI_H
#define TORCHTOP_TUI_SCOPE_UI_H

#include <stdint.h>

struct app;

/* Every view for the time range [from, to) (ns, trace time): the timeline's
 * marked range. Reactions. */
unsigned scope_ui_window(struct app *a, int64_t from, int64_t to);

/* Enter on row `row` of the steps or iterations view: every view for that
 * step (--step N) or that iteration (its span). Reactions. */
unsigned scope_ui_row(struct app *a, uint32_t row);

/* O in the call tree: every view for the subtrees of the host spans named
 * as the selected node's event (--match on its name, anchored). Reactions. */
unsigned scope_ui_subtree(struct app *a);

/* T: the step list focused (the iterations of a serving trace, which has
 * no steps), or why there is none. Reactions. */
unsigned scope_ui_steps(struct app *a);

#endif
