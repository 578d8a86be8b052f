/* The screen around the panes: the header (trace, devices, span and the
 * stacked GPU breakdown bar), the message line and the key bar generated
 * from the key tables. */
#ifndef TORCHTOP_TUI_CHROME_H
#define TORCHTOP_TUI_CHROME_H

#include "tui/actions.h"

struct app;

void chrome_header(struct app *a);
void chrome_message(struct app *a);
void chrome_keybar(struct app *a);
/* Action of the key bar entry at column x (last drawn), A_NONE if none. */
enum action chrome_keybar_action(int x);

#endif
