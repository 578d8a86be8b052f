/* Screen layout: a pure function from the terminal size and a few settings
 * to the rectangle of every pane. No curses; unit-tested.
 *
 *   header (2 lines, and the lines the document adds below them)
 *   table  | detail        (wide terminals: detail on the right)
 *   tree   | detail
 *   timeline (full width)
 *   message line
 *   key bar
 *
 * On narrow terminals the detail pane goes below the tree; on short ones (or
 * at every size, with focus_first) the focused pane takes the height the
 * others can spare. One pane can be
 * maximized to take the whole body. Below LAYOUT_MIN_COLS x LAYOUT_MIN_LINES
 * the layout says "too small" and the app shows only a notice. */
#ifndef TORCHTOP_TUI_LAYOUT_H
#define TORCHTOP_TUI_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_COLS 60
#define LAYOUT_MIN_LINES 16
/* Below this many lines the focused pane of table, tree and detail gets
 * the height, the others a title and a row or two. */
#define LAYOUT_FOCUS_LINES 30
/* Lines from which a timeline may take more than a quarter of the body. */
#define LAYOUT_TALL_LINES 40
/* Width from which the detail pane sits beside the table and tree. */
#define LAYOUT_SIDE_COLS 110
/* The most lines a document's header may add below its two. */
#define LAYOUT_MAX_HEADER_EXTRA 4

struct rect {
    int y, x, h, w;
};

enum layout_slot { L_HEADER, L_TABLE, L_TREE, L_TIMELINE, L_DETAIL, L_MESSAGE, L_KEYBAR, L__COUNT };

struct layout_cfg {
    int timeline_lanes; /* lanes the timeline wants (>= 1) */
    int timeline_pct;   /* most of the body the timeline may take, in percent (0: 25);
                           from LAYOUT_TALL_LINES lines only: a shorter screen keeps the
                           tables readable */
    int maximized;      /* slot shown alone in the body, or -1 */
    int table_pct;      /* share of the left column for the table (10..90) */
    int focus;          /* slot of the focused pane (0: none), for short terminals */
    bool focus_first;   /* the focused pane of table, tree and detail gets the height at
                           every size, as on short terminals (a document whose panes are
                           views the user picks one of) */
    int header_extra;   /* lines the document's header adds below its two (0..4): taken
                           from the body; fixed for a screen size, so that the panes do
                           not move when what the lines show arrives */
};

struct layout {
    bool too_small;          /* below the minimum: nothing else is valid */
    struct rect r[L__COUNT]; /* h == 0 for hidden slots */
};

/* Fill out for a lines x cols screen. Returns !out->too_small. */
bool layout_compute(int lines, int cols, const struct layout_cfg *cfg, struct layout *out);

/* Whether (y, x) lies in r. */
bool rect_contains(const struct rect *r, int y, int x);

#endif
