/* Script mode: run the explorer headless from a file of steps, one a line:
 *
 *   # comment
 *   hot-path                   an action name (tui/frame/actions.h)
 *   j  <Enter>  <C-c>          keys, in keymap_key_parse() notation (several per line)
 *   keys jjj<Enter>            keys, even when the text looks like an action
 *   type aten::mm              characters typed literally (into a prompt)
 *   search TEXT / filter TEXT  set the search (and go to the first match) or filter
 *   filter                     clear the filter
 *   view NAME                  table view: ops, categories, unique-args, kernels, key-averages,
 *                              roofline; roofline:CATEGORY shows that category (GEMM, ...)
 *   sort-by COLUMN             sort the table by a column name or title
 *   resize 100x30              new screen size (KEY_RESIZE)
 *   click X Y / double-click X Y / wheel-up X Y / wheel-down X Y   mouse, 0-based
 *   save-display FILE          the screen as text: one line per row, trailing blanks trimmed
 *   expect TEXT                fail unless the screen shows TEXT
 *   wait-analysis              take in the views built behind the first screen, waiting for
 *                              them (with TORCHTOP_HOLD_ANALYSIS set they are not started
 *                              before this step; otherwise the script starts with them all)
 *
 * Every step ends with the same render the terminal loop does, then the
 * background work is done in the steps the terminal loop takes between
 * keys. With a timing file, each step's wall time (monotonic clock, step +
 * render) and the process's CPU time in it (every thread's, user + system)
 * are written as "STEP<TAB>MILLISECONDS<TAB>CPU MILLISECONDS", and each
 * background step likewise as "(idle)<TAB>...". quit (or the end) ends the
 * script. */
#ifndef TORCHTOP_TUI_SCRIPT_H
#define TORCHTOP_TUI_SCRIPT_H

struct app;

/* Returns 0, or 1 after printing the failing step to stderr. */
int script_run(struct app *a, const char *path, const char *timing_path);

/* Write the current screen as text to path (headless screen). Returns
 * false when the file cannot be written. */
int script_save_display(const char *path);

#endif
