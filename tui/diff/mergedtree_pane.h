/* A trace diff's merged call tree as a pane (the tree slot): both sides'
 * GPU and CPU time, kernel counts and the changes per merged node,
 * children ordered by |diff GPU time| (s, S, > and <: the other orders),
 * one-side nodes marked "+" (test only) and "-" (control only), the path
 * of the largest change open at first. Rows past a quarter of the name
 * column show their depth ("·23·") instead of more indent. Space or o
 * opens and closes a node, e and * open everything below it, c closes
 * every node; the filter keeps matching nodes and their ancestors; the
 * detail pane shows both sides of the node (tui/diff/diffdetail.h). Only
 * the diff's document (tui/diff/diff_doc.c) calls these. */
#ifndef TORCHTOP_TUI_MERGEDTREE_PANE_H
#define TORCHTOP_TUI_MERGEDTREE_PANE_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/frame/pane.h"

struct diffdata;
struct view;

extern const struct pane_ops mergedtree_pane_ops;

/* A pane over dd's merged tree (borrowed: it outlives the pane), keys
 * from table keytab; v is the view the pane is shown in (its sort menu
 * acts on it). */
struct pane *mergedtree_pane_new(struct view *v, struct diffdata *dd, int keytab);
/* The merged node under the cursor; false when there is none (or p is
 * not this kind of pane). */
bool mergedtree_pane_node(struct pane *p, uint32_t *node);

#endif
