/* The help text, generated from the actions (tui/actions.h) and the key
 * tables (tui/keymap.c), so that it never disagrees with what the keys do.
 * Pure (no curses). */
#ifndef TORCHTOP_TUI_HELP_H
#define TORCHTOP_TUI_HELP_H

#include <stddef.h>

#include "core/base/strbuf.h"
#include "tui/actions.h"

/* Append the help as lines ending in '\n': per group a title, then one
 * line per bound action: keys, action name, description. The group of
 * key table `pane` (enum pane_id or enum keytab; PANE__COUNT for none)
 * comes first. */
void help_text(struct strbuf *out, int pane);
/* The keys of one mode: a trace's explorer leaves out the snapshot group,
 * a snapshot's the keys that act on traces only (call tree, timeline,
 * roofline, kernel names, export). help_text shows every mode's. */
enum help_mode { HELP_ALL, HELP_TRACE, HELP_SNAPSHOT };
void help_text_mode(struct strbuf *out, int pane, enum help_mode mode);

/* One line of a view's own help (the diff and job views): an action, and
 * the view's words for it when the explorer's do not fit (NULL: the
 * action's help). */
struct help_item {
    enum action act;
    const char *help;
};
/* Append `title` and a blank line, then per item bound in key table
 * `keytab` (or the global one) a line: keys, action name, help. Items
 * bound to no key are left out. */
void help_text_items(struct strbuf *out, const char *title, int keytab,
                     const struct help_item *items, size_t n);

#endif
