/* Shared between calltree.c and calltree_rows.c; not for other files. */
#ifndef TORCHTOP_TUI_CALLTREE_INTERNAL_H
#define TORCHTOP_TUI_CALLTREE_INTERNAL_H

#include "tui/calltree.h"

/* Make the children of node n (once). */
void ct_materialize(struct calltree *ct, uint32_t n);
/* Mark node n open or closed (in the current epoch). */
void ct_set_open(struct calltree *ct, uint32_t n, bool open);
/* Drop every row; the generator starts again at the roots. */
void ct_restart_rows(struct calltree *ct);
/* Start an open pass (ending the one pending) / end it. */
void ct_start_pass(struct calltree *ct, enum ct_pass_mode mode, uint32_t root);
void ct_end_pass(struct calltree *ct);
/* Whether the pending pass wants node n open (n is in its subtree). */
bool ct_pass_wants(const struct calltree *ct, uint32_t n);

#endif
