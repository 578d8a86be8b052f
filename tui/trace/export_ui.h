/* Export from the explorer: the selected subtree or the visible timeline
 * window written as a Kineto JSON trace (core/trace/export.h), plain or gzip by
 * the name's ending, under a name typed in a prompt. The name is used as
 * a path as it is (a leading "~/" means the home directory): no shell
 * ever sees it. */
#ifndef TORCHTOP_TUI_EXPORT_UI_H
#define TORCHTOP_TUI_EXPORT_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"
#include "tui/frame/actions.h"

struct app;
struct export_ui;

/* A_EXPORT (a menu: subtree or window), A_EXPORT_SUBTREE, A_EXPORT_WINDOW:
 * open the file name prompt. The export's state (what to write, the path
 * waiting for the overwrite answer) is a->exp, made on first use.
 * Reactions. */
unsigned export_ui_action(struct app *a, enum action act);
/* Release an export's state (app_done); NULL is fine. */
void export_ui_free(struct export_ui *x);

/* Pure helpers (unit-tested). */

/* A default file name for an export of trace `trace_name` (a path or a
 * label): its base name without ".gz", ".json" and ".pt.trace", bytes
 * other than letters, digits, '.', '_' and '-' as '_', then "-", `what`
 * and ".json.gz", cut to fit n. */
void export_ui_default_name(char *buf, size_t n, const char *trace_name, const char *what);

/* The path for a typed name: blanks around it dropped, a leading "~/"
 * replaced by home (when home is set). False with a message in err (size
 * errn) when the name is empty, holds control characters, or ends in
 * '/'. *gzip tells whether it ends in ".gz". */
bool export_ui_path(const char *typed, const char *home, struct strbuf *out, bool *gzip, char *err,
                    size_t errn);

#endif
