/* Curses set-up and tear-down: the real terminal (stdout, keys from the
 * terminal even when stdin is a pipe) or a headless screen on /dev/null of
 * a fixed size for script mode. */
#ifndef TORCHTOP_TUI_TERM_H
#define TORCHTOP_TUI_TERM_H

#include <stdbool.h>

/* Open the terminal: raw keys, no echo, keypad, mouse, ESCDELAY 25 ms,
 * colours (monochrome when mono, NO_COLOR or no colour support).
 * Prints why and returns false when there is no usable terminal. */
bool term_open(bool mono);
/* A screen of lines x cols writing to /dev/null, reading nothing. */
bool term_open_headless(int lines, int cols);
/* Restore the terminal (safe to call twice). */
void term_close(void);
/* Resize the headless screen. */
void term_resize_headless(int lines, int cols);
/* SIGINT, SIGTERM or SIGHUP arrived. */
bool term_stop_requested(void);

#endif
