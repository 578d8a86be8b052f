/* The screen around the panes: the header (trace, devices, span and the
 * stacked GPU breakdown bar), the message line and the key bar generated
 * from the key tables; and the screen in place of all when the terminal
 * is too small. */
#ifndef TORCHTOP_TUI_CHROME_H
#define TORCHTOP_TUI_CHROME_H

#include "tui/frame/actions.h"

struct app;

#define CHROME_MAX_ZONES 48

/* The key bar's entries as last drawn, for clicks (one per app). */
struct chrome {
    struct chrome_zone {
        int x0, x1; /* columns the entry covers */
        enum action act;
    } zones[CHROME_MAX_ZONES];
    int nzones;
};

/* The whole screen when the terminal is smaller than the layout needs:
 * its size, the size needed, and how to quit. */
void chrome_too_small(struct app *a);
void chrome_header(struct app *a);
void chrome_message(struct app *a);
/* Draw the key bar and remember its entries in a->chrome. */
void chrome_keybar(struct app *a);
/* Action of the key bar entry at column x (as last drawn), A_NONE if none. */
enum action chrome_keybar_action(const struct chrome *c, int x);

#endif
