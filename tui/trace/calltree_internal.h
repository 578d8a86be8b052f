/* Shared between calltree.c and calltree_rows.c; not for other files. */
#ifndef TORCHTOP_TUI_CALLTREE_INTERNAL_H
#define TORCHTOP_TUI_CALLTREE_INTERNAL_H

#include "tui/trace/calltree.h"

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
/* Keys of the open nodes that are shown (rows made to the end first). */
void ct_collect_keys(struct calltree *ct, struct hmap *m);
/* Make the nodes again from the roots; the rows open the nodes whose keys
 * are in `keys` (taken), or (NULL) the paths to the filter's matches. */
void ct_rebuild(struct calltree *ct, struct hmap *keys);

static inline bool ct_is_unlinked_gpu(const struct event *e)
{
    return evk_is_gpu(e->kind) && !(e->flags & EVF_LINKED);
}

/* Filters (calltree_filter.c). ct_filter_init starts building the
 * by-name index, gpu_pre and pre_ev on a thread (here and now when none
 * can be made); ct_filter_ready waits for it: call it before reading
 * them. ct_filter_free waits too. */
void ct_filter_init(struct calltree *ct);
void ct_filter_ready(struct calltree *ct);
/* Stop the thread at its next step and wait for it (the index is then
 * incomplete: only before freeing). */
void ct_filter_stop(struct calltree *ct);
void ct_filter_free(struct calltree *ct);
/* While filtered: whether tree event ev is a match (its name matches the
 * filter's pattern, or it is one of the filter's events). */
static inline bool ct_is_match(const struct calltree *ct, uint32_t ev)
{
    if (ct->fpat) {
        uint32_t id = ct->t->ev.v[ev].name;
        return pattern_match_id(ct->fpat, id, trace_str(ct->t, id), strtab_count(&ct->t->strs));
    }
    return (ct->fmatch[ev >> 6] >> (ev & 63)) & 1;
}
/* The sorted numbers of the tree events whose names match p into out (a
 * VEC(uint32_t) *; unlinked GPU work has none); returns how many events
 * match, stopping (out then unsorted) once that passes limit. */
/* The number of event x in tree order (a GPU event: its launch's);
 * IDX_NONE when it has none. */
uint32_t ct_event_pos(const struct calltree *ct, uint32_t x);
size_t ct_pattern_positions(struct calltree *ct, struct pattern *p, void *out, size_t limit);
/* Index of the first number >= lo in sorted pos[0..n) (n when none). */
size_t ct_fpos_lower(const uint32_t *pos, size_t n, uint32_t lo);
/* Whether sorted pos[0..n) holds a number in [lo, hi). */
bool ct_any_in(const uint32_t *pos, size_t n, uint32_t lo, uint32_t hi);
/* While filtered: whether ev is a match or has one below it. */
bool ct_on_path(const struct calltree *ct, uint32_t ev);
/* Smallest index >= at into the matches' sorted numbers whose number is
 * >= lo (galloping from at; callers go up in number). */
size_t ct_fpos_from(const struct calltree *ct, size_t at, uint32_t lo);
/* Whether node c is kept while filtered (`in`: below a match); *cur is a
 * cursor into the matches' numbers that only goes up. */
bool ct_keep_at(struct calltree *ct, uint32_t c, bool in, size_t *cur);
/* While filtered, outside any match (a parent side that is not `in`): the
 * first sibling at or after c whose subtree holds a match, found from the
 * matches' numbers instead of by walking the sibling chain (a node can
 * have hundreds of thousands of children); IDX_NONE when none is left.
 * Moves *cur as ct_keep_at does. */
uint32_t ct_next_kept(struct calltree *ct, uint32_t c, size_t *cur);

#endif
