/* The call tree pane (tui/trace/calltree.h drawn with guides, CPU and GPU time).
 * Only the app (tui/frame/app.c) calls these; each does nothing (false, NULL)
 * when p is not a tree pane (the tree slot holds the memory pane in
 * snapshot mode). */
#ifndef TORCHTOP_TUI_TREE_PANE_H
#define TORCHTOP_TUI_TREE_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/frame/pane.h"

struct view;

extern const struct pane_ops tree_pane_ops;

/* A tree pane over a->t in the tree slot. */
struct pane *tree_pane_new(struct view *a);
/* Select event ev (revealing it); false when not in the tree. */
bool tree_pane_select(struct pane *p, struct view *a, uint32_t ev);
/* Show only these events' paths (ev copied; NULL: no such filter); label
 * names the set in the title. */
void tree_pane_set_instances(struct pane *p, struct view *a, const uint32_t *ev, size_t n,
                             const char *label);
/* The instance filter in force (count in *n, its label in *label), NULL
 * when none; borrowed until the next change. */
const uint32_t *tree_pane_instances(struct pane *p, size_t *n, const char **label);

#endif
