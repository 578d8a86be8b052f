/* Overlays: the help, menus and the prompt line. While one is open it
 * gets every key. */
#ifndef TORCHTOP_TUI_OVERLAY_H
#define TORCHTOP_TUI_OVERLAY_H

#include "tui/frame/app.h"

unsigned overlay_key(struct app *a, int key);
/* Draw the open overlay (after the panes) and wnoutrefresh it. */
void overlay_draw(struct app *a);
void overlay_close(struct app *a);
/* Open the prompt on the message line; done(a, ctx, text) gets the text
 * on Enter. */
void overlay_prompt(struct app *a, const char *label, const char *initial, prompt_done_fn done,
                    void *ctx);

#endif
