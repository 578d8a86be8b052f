/* The help text, generated from the actions (tui/frame/actions.h) and the key
 * tables (tui/frame/keymap.c), so that it never disagrees with what the keys do.
 * Pure (no curses). */
#ifndef TORCHTOP_TUI_HELP_H
#define TORCHTOP_TUI_HELP_H

#include <stddef.h>

#include "core/base/strbuf.h"
#include "tui/frame/actions.h"

/* Append the help as lines ending in '\n': per group a title, then one
 * line per bound action: keys, action name, description. The group of
 * key table `pane` (enum pane_id or enum keytab; PANE__COUNT for none)
 * comes first. */
void help_text(struct strbuf *out, int pane);
/* The keys of one mode: a trace's explorer leaves out the snapshot group,
 * a snapshot's the keys that act on traces only (call tree, timeline,
 * roofline, kernel names, export). help_text shows every mode's. */
/* HELP_TABLES: a document of tables only (a job): the table, moving,
 * search and global keys. */
/* HELP_DIFF: a trace diff: the focused pane's own key table whole, then
 * the global, moving and search keys. */
enum help_mode { HELP_ALL, HELP_TRACE, HELP_SNAPSHOT, HELP_TABLES, HELP_DIFF };
void help_text_mode(struct strbuf *out, int pane, enum help_mode mode);
/* Append the table views that v and V cycle through, in that order, as
 * one group: names[0..n). */
void help_views(struct strbuf *out, const char *const *names, int n);

#endif
