/* The table views with a "crit µs" column while the critical path is shown
 * (C): a copy of each view whose rows have instances, with the time on the
 * paths of the row's events and what they ran (critpath_view_subtree_us)
 * after the name column; the views as built come back when it is hidden.
 * The trace document's state (a->v.doc_state). */
#ifndef TORCHTOP_TUI_CRIT_TABLES_H
#define TORCHTOP_TUI_CRIT_TABLES_H

#include <stdbool.h>

struct app;

/* Show the column (on: in the view shown, the others as they are shown)
 * or the views as built. */
void crit_tables_show(struct app *a, bool on);
/* The view shown, or the one just handed over, changed: give it the
 * column when it is shown. */
void crit_tables_sync(struct app *a);
/* Free the views as built that the copies stand in for (the document's
 * close, before it frees a->views). */
void crit_tables_free(struct app *a);

#endif
