/* Shared between calltree.c and calltree_rows.c; not for other files. */
#ifndef TORCHTOP_TUI_CALLTREE_INTERNAL_H
#define TORCHTOP_TUI_CALLTREE_INTERNAL_H

#include "tui/calltree.h"

/* Make the children of node n (once). */
void ct_materialize(struct calltree *ct, uint32_t n);
/* Rebuild the visible rows from the roots and the open flags. */
void ct_flatten_all(struct calltree *ct);

#endif
