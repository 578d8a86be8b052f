/* The explorer's call tree: a lazily built view of a trace's call tree
 * with a flattened list of the visible rows. Pure (no curses).
 *
 * Roots are one node per host thread (its top-level spans below it) and
 * one "unlinked" node per stream holding GPU work no launch claimed. Below
 * a thread: Python frames, ops, runtime calls (trace_index's nesting), and
 * below a runtime call the GPU work it launched. Children are made the
 * first time a node is opened or searched through, and kept; nodes are
 * addressed by index, which stays valid until the next rebuild
 * (calltree_set_options / calltree_set_filter).
 *
 * Options: hide Python frames (their children take their place), and
 * group siblings with the same name and kind into one node ("×126"), which
 * opens onto the instances. A filter keeps only the paths from the roots to
 * a set of events, and everything below those events.
 *
 * The visible rows are made on demand: the row list is always a prefix of
 * the pre-order walk of the open nodes, and a generator (a stack of
 * positions in the tree) makes the rows after it. Opening or closing the
 * node at row r drops the rows after r and puts the generator back on r;
 * bulk operations (open all below a node, the rebuilds of filters and
 * options) become an open "pass" that the generator carries out as it
 * reaches the nodes. So every operation costs about what is shown, and
 * the rest is made in bounded steps (calltree_generate) while the user
 * looks, or at once by calltree_finish. Closing everything flips an
 * epoch instead of visiting the nodes.
 *
 * A struct calltree borrows its trace and gputime. */
#ifndef TORCHTOP_TUI_CALLTREE_H
#define TORCHTOP_TUI_CALLTREE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis/gputime.h"
#include "core/base/interval.h"
#include "core/base/strbuf.h"
#include "core/trace/trace.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"
#include "tui/frame/pattern.h"

enum tnode_kind {
    TN_THREAD,   /* ref: host row */
    TN_UNLINKED, /* ref: device row */
    TN_EVENT,    /* ref: event */
    TN_GROUP,    /* ref: first member event */
};

enum tnode_flags {
    TNF_MATERIALIZED = 1 << 0, /* children made (first, nkids valid) */
    TNF_EXPANDED = 1 << 1,     /* shown open, while tnode.epoch == calltree.epoch */
    TNF_LAST = 1 << 2,         /* last of its siblings */
    TNF_MATCH = 1 << 3,        /* a filter match */
    TNF_INMATCH = 1 << 4,      /* below a filter match: children unfiltered */
};

#define CT_UNKNOWN INT64_MIN

struct tnode {
    uint32_t ref;     /* see enum tnode_kind */
    uint32_t parent;  /* node index, IDX_NONE for roots */
    uint32_t first;   /* first child node (children are contiguous) */
    uint32_t nkids;   /* children, once materialized */
    uint32_t members; /* TN_GROUP: offset into calltree.members */
    uint32_t count;   /* TN_GROUP: number of members; else 1 */
    uint16_t depth;   /* 0 for roots (stops at 65535) */
    uint16_t epoch;   /* calltree.epoch when TNF_EXPANDED was last set */
    uint8_t kind;     /* enum tnode_kind */
    uint8_t flags;    /* enum tnode_flags */
    uint16_t visit;   /* calltree.pass when the open pass last decided the node */
    int64_t cpu;      /* cached CPU ns (CT_UNKNOWN until computed, -1 = none) */
    int64_t gpu;      /* cached induced GPU ns (CT_UNKNOWN until computed) */
};

/* A position of the row generator: the children of node (IDX_NONE: the
 * roots) from index next on. */
struct ct_frame {
    uint32_t node;
    uint32_t next;
    bool in_pass; /* the children are in the open pass's subtree */
};

/* What an open pass opens as the generator reaches the nodes. */
enum ct_pass_mode {
    CTP_NONE,   /* no pass pending */
    CTP_ALL,    /* everything below pass_root */
    CTP_KEYS,   /* the nodes whose keys are in pass_keys (a rebuild keeps what was open) */
    CTP_FILTER, /* the paths to the filter's matches */
};

/* Times of a group, valid for the same members: its first member, its
 * size, the options and the filter it was made under. */
struct ct_gtime {
    uint32_t first, count, filter_gen;
    bool hide_python;
    int64_t cpu, gpu;
};

/* A root in display order (before filtering). */
struct ct_root {
    uint8_t kind; /* TN_THREAD or TN_UNLINKED */
    uint32_t row; /* trace row */
};

struct calltree {
    const struct trace *t; /* borrowed */
    struct gputime *gt;    /* borrowed */
    bool hide_python;      /* splice Python frames out */
    bool group;            /* group identical siblings */
    VEC(struct tnode) nodes;
    uint32_t nroots;          /* roots are nodes[0 .. nroots) */
    VEC(uint32_t) members;    /* group members */
    VEC(uint32_t) rows;       /* visible nodes, display order (a prefix while gen is not empty) */
    VEC(struct ct_frame) gen; /* row generator; empty when rows are complete */
    uint16_t epoch;           /* TNF_EXPANDED of other epochs reads as closed */
    uint16_t pass;            /* stamp of the current open pass */
    uint8_t pass_mode;        /* enum ct_pass_mode */
    uint32_t pass_root;       /* node the pass opens below, IDX_NONE: all roots */
    struct hmap pass_keys;    /* CTP_KEYS: node keys to open */
    VEC(struct ct_root) all_roots; /* roots in display order, unfiltered */
    /* Tree events by name: the distinct names, and per name the filter
     * numbers of its events (CSR), for filters and searches that would
     * otherwise read every event. */
    uint32_t *name_ids; /* string ids */
    uint32_t nnames;
    uint32_t *name_first;   /* nnames + 1 offsets into name_pos */
    uint32_t *name_pos;     /* IDX_NONE for unlinked GPU work */
    VEC(uint32_t) unlinked; /* pairs: name index, row of unlinked GPU work */
    /* The by-name index, gpu_pre and pre_ev are built on a thread of their
     * own (the first screen does not need them); ct_filter_ready waits for
     * it before their first use. */
    pthread_t filter_th;
    bool filter_building;     /* filter_th runs or is not joined yet */
    _Atomic bool filter_stop; /* calltree_free: filter_th stops at its next step */
    bool filtered;
    /* Filters test "is a match below this node" with the pre-order
     * ranges of gputime_span_range, rather than marking every ancestor of
     * every match. */
    struct pattern *fpat; /* filter by name (borrowed), NULL: by events */
    uint64_t *fmatch;     /* by events: per event bit, a match */
    VEC(uint32_t) fpos;   /* sorted numbers of the matches (GPU work: its launch's) */
    VEC(uint32_t) fscratch;
    char *spat;           /* text of the last search (owned) */
    VEC(uint32_t) spos;   /* sorted numbers of its matches */
    bool spos_ok;         /* spos is complete (few enough matches to be worth it) */
    char *rpat;           /* text of the search rpos counts (owned) */
    VEC(uint32_t) rpos;   /* sorted numbers of all its matches, for "match N of M" */
    uint32_t *gpu_pre;    /* per GPU event (trace.gpus): its launch's number, IDX_NONE: none */
    uint32_t *pre_ev;     /* per number: its host span (gputime's numbering inverted) */
    uint32_t npre;        /* numbers in pre_ev */
    uint32_t *tops;       /* top-level spans of the rows, row after row */
    uint32_t *tops_first; /* per row: offset into tops (rows.n + 1 of them) */
    uint32_t *tops_pre;   /* per top-level span: its number */
    uint8_t *rowmark;     /* per row: CT_MARK_PATH while filtered */
    struct hmap saved_unfiltered; /* open nodes before the filter */
    bool have_saved;              /* saved_unfiltered is set */
    int64_t total_gpu;            /* the roots' GPU times summed (CT_UNKNOWN until computed) */
    /* Times that outlive the nodes (rebuilds make new nodes): per trace
     * row for the roots, per group identity for groups. */
    int64_t *row_cpu, *row_gpu; /* CT_UNKNOWN until computed */
    uint32_t *row_spans;        /* top-level spans, with row_cpu */
    struct hmap group_times;    /* first member -> index into gtimes */
    VEC(struct ct_gtime) gtimes;
    uint32_t filter_gen; /* counts filters (group members may differ); 0: none */
    /* Scratch. */
    VEC(uint32_t) kids;
    VEC(uint8_t) kid_in;
    VEC(uint32_t) stack;
    VEC(uint32_t) ins; /* rows being inserted */
    ivals_t iv;
};

#define CT_MARK_MATCH 1
#define CT_MARK_PATH 2
#define CT_NOT_FOUND SIZE_MAX

struct calltree *calltree_new(const struct trace *t, struct gputime *gt);
void calltree_free(struct calltree *ct);

static inline size_t calltree_nrows(const struct calltree *ct)
{
    return ct->rows.n;
}
static inline uint32_t calltree_row_node(const struct calltree *ct, size_t row)
{
    return ct->rows.v[row];
}
static inline const struct tnode *calltree_node(const struct calltree *ct, uint32_t node)
{
    return &ct->nodes.v[node];
}
/* Rows still to be made after the last one (the generator is not done). */
static inline bool calltree_pending(const struct calltree *ct)
{
    return ct->gen.n > 0;
}
/* Make rows until there are at least n (or all there are). */
void calltree_ensure(struct calltree *ct, size_t n);
/* Make up to budget more rows; returns how many were made. */
size_t calltree_generate(struct calltree *ct, size_t budget);
/* Make every row. */
void calltree_finish(struct calltree *ct);

/* Whether the node is shown open. */
static inline bool calltree_is_open(const struct calltree *ct, uint32_t node)
{
    const struct tnode *n = &ct->nodes.v[node];
    return (n->flags & TNF_EXPANDED) && n->epoch == ct->epoch;
}
/* Row of a visible node, making rows until it comes; CT_NOT_FOUND when it
 * is not visible (then every row has been made). */
size_t calltree_row_of(struct calltree *ct, uint32_t node);

/* Whether the node has (or, before materializing, may have) children. */
bool calltree_has_children(struct calltree *ct, uint32_t node);
/* The event a node stands for (a group's first member), IDX_NONE for roots. */
uint32_t calltree_event(const struct calltree *ct, uint32_t node);
/* Members of a group node (count in *n); NULL for other kinds. */
const uint32_t *calltree_members(const struct calltree *ct, uint32_t node, uint32_t *n);
/* Display name (unsanitized): event name, or a root's label. */
void calltree_name(const struct calltree *ct, uint32_t node, struct strbuf *out);
/* CPU duration (ns; -1 when it has none: GPU work) and induced GPU time
 * (gputime_subtree with communication; a GPU event's own duration). */
int64_t calltree_cpu(struct calltree *ct, uint32_t node);
int64_t calltree_gpu(struct calltree *ct, uint32_t node);
/* Unlinked GPU events of an unlinked-work root (0 for other nodes): its
 * children before grouping. */
uint32_t calltree_unlinked_events(const struct calltree *ct, uint32_t node);
/* Top-level spans of a thread node (0 for other nodes). */
uint32_t calltree_thread_spans(struct calltree *ct, uint32_t node);
/* GPU time of the node's parent; for the roots, the roots' GPU times
 * summed, so that the roots' shares add to 100 % where the GPU work of
 * two threads overlaps in time. */
int64_t calltree_parent_gpu(struct calltree *ct, uint32_t node);

/* Open / close the node at a row; the rows below are made again. Return
 * whether anything changed. */
bool calltree_expand(struct calltree *ct, size_t row);
bool calltree_collapse(struct calltree *ct, size_t row);
bool calltree_toggle(struct calltree *ct, size_t row);
/* Open everything below the node at row (as the rows are made). */
void calltree_expand_all(struct calltree *ct, size_t row);
/* Close every node; returns the row of the root that held `row`. */
size_t calltree_collapse_all(struct calltree *ct, size_t row);
/* From the node at row, open the child with the most GPU time, down to a
 * leaf; returns the row of the last node. */
size_t calltree_hot_path(struct calltree *ct, size_t row);
/* Row of the parent of the node at row (row itself for roots). */
size_t calltree_parent_row(const struct calltree *ct, size_t row);
/* Open the ancestors of event ev and return its row (or its group's row
 * when grouping hides it... never: groups on the path are opened too);
 * CT_NOT_FOUND when the event is not in the tree (filtered out or not a
 * tree event). */
size_t calltree_reveal(struct calltree *ct, uint32_t ev);
/* Next (dir > 0) or previous node after the one at row, in pre-order over
 * the whole tree (closed nodes included, wrapping around), whose name
 * matches p; opens its ancestors and returns its row, or CT_NOT_FOUND.
 * *wrapped tells whether the search went past an end. */
size_t calltree_find(struct calltree *ct, size_t row, int dir, struct pattern *p, bool *wrapped);
/* The rank (from 1) of the node at row among the tree events that p
 * matches, in tree order, and their number; false when the node has no
 * number (a thread or stream root). Events grouped under one node count
 * each; a launch's GPU events share its rank. */
bool calltree_match_rank(struct calltree *ct, size_t row, struct pattern *p, size_t *rank,
                         size_t *total);

/* Change options; open nodes stay open where they still exist. */
void calltree_set_options(struct calltree *ct, bool hide_python, bool group);
/* Keep only paths to these events (n == 0 with NULL: no filter). Paths to
 * the matches are opened. Returns the number of matches in the tree. */
size_t calltree_set_filter(struct calltree *ct, const uint32_t *events, size_t n);
/* Keep only paths to the tree events whose names match p (borrowed until
 * the next filter change); as calltree_set_filter otherwise. */
size_t calltree_set_filter_pattern(struct calltree *ct, struct pattern *p);

/* Whether an event can be a node: a host span or GPU work. */
bool calltree_is_tree_event(const struct trace *t, uint32_t ev);

#endif
