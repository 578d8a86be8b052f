/* Curses set-up and tear-down: the real terminal (stdout, keys from the
 * terminal even when stdin is a pipe) or a headless screen on /dev/null of
 * a fixed size for script mode. */
#ifndef TORCHTOP_TUI_TERM_H
#define TORCHTOP_TUI_TERM_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

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
/* A curses key code as torchtop binds it: the key of an extended
 * terminfo capability (a code above KEY_MAX: Shift-Tab's second form,
 * modified arrows) becomes the standard key it modifies; others are kept. */
int term_key_code(int code);
/* Called when Esc was read: when the rest of an escape sequence that
 * curses does not know is already waiting, read it into buf (what follows
 * Esc, NUL-terminated, cut to n) and return true, so that it is not taken
 * for Esc and separate keys. Leaves w's timeout at 0. */
bool term_unknown_sequence(WINDOW *w, char *buf, size_t n);
/* SIGINT, SIGTERM or SIGHUP arrived. */
bool term_stop_requested(void);
/* Wait for the next key on stdscr; true with it in *key as the key tables
 * bind it (term_key_code, then keymap_normalize: a function key is
 * KEYF(code), KEY_RESIZE included), false when the user asked to stop. For
 * the single-screen views' loops; the explorer reads its own (it waits on
 * background work too). */
bool term_read_key(int *key);

#endif
