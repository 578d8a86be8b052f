/* The explorer's diff view (`torchtop diff CONTROL TEST` on a terminal):
 * a header naming both sides with their GPU totals and the change, then
 * one of the diff's tables (core/diff): the per-name table (HTA's
 * compare_traces, by |Δ duration| first), the merged call tree (both
 * sides' GPU and CPU time, kernel counts and the Δs, children by |Δ GPU
 * time|, one-side nodes marked), the LCA table, and the unique-args and
 * roofline tables joined on op and shapes (built when first shown). Tab
 * and 1-5 switch tables, s/</>/S sort, / filters by name, Enter shows
 * both sides' detail of the selection (tui/diff/diffdetail.h).
 *
 * The state and its keys are pure (diffview_key, diffview_action,
 * diffview_screen), so that tests drive them without a terminal;
 * diffview_run is the terminal loop and diffview_script the headless one
 * (tui/diff/diffview_run.c). */
#ifndef TORCHTOP_TUI_DIFFVIEW_H
#define TORCHTOP_TUI_DIFFVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/base/table.h"
#include "core/diff/diffreport.h"
#include "core/diff/difftree.h"
#include "core/diff/tracediff.h"
#include "tui/frame/actions.h"
#include "tui/frame/pattern.h"

struct roofline;

enum diffview_tab { DV_OPS, DV_TREE, DV_LCA, DV_ARGS, DV_ROOFLINE, DV__TABS };

/* Sort orders of the merged tree's children. */
enum diffview_tree_sort { DVT_GPU_DELTA, DVT_CPU_DELTA, DVT_GPU_TEST, DVT_GPU_CONTROL, DVT__COUNT };

struct diffview {
    struct trace *t[2];          /* control, test (owned) */
    struct tracediff *td;        /* owned */
    struct diffreport_ctx ctx;   /* dt and each side's analysis (owned) */
    struct table *tab[DV__TABS]; /* each flat table, NULL until shown; DV_TREE: none */
    uint32_t *rows[DV__TABS];    /* rows shown (filtered, sorted): table rows or tree nodes */
    size_t nrows[DV__TABS];      /* count of rows[] */
    size_t cur[DV__TABS];        /* selected position in rows[] */
    size_t top[DV__TABS];        /* first position shown */
    int sort_col[DV__TABS];      /* flat tables: column sorted by; DV_TREE: enum tree sort */
    bool sort_asc[DV__TABS];     /* reversed: smallest first */
    int which;                   /* enum diffview_tab shown */
    uint8_t *open;               /* per merged node: expanded */
    uint8_t *shown;              /* per merged node, while filtered: it or a node below matches */
    struct pattern filter;       /* name filter of every table and the tree */
    bool prompt;                 /* the filter prompt takes the keys */
    char input[160];             /* the prompt's text */
    bool detail;                 /* the detail of the selection below the table */
    bool help;                   /* the key list instead of the table */
    size_t help_top;             /* first help line shown */
    int64_t gpu_total[2];        /* ns of GPU events in the steps compared (§12.3) */
    struct roofline *rl[2];      /* each side's roofline for the detail, NULL until needed */
    struct strbuf detail_text;   /* the detail last drawn, for detail_key */
    uint64_t detail_key;         /* tab, row and width the detail was drawn for; 0: none */
    bool ascii;
    char msg[256]; /* the message line */
};

/* What a key asks of the caller. */
enum diffview_event { DIFFVIEW_NONE, DIFFVIEW_QUIT };

/* A view of td (taken over, with the two traces it compares, which must
 * be indexed; td made with opts.keep_events). Builds the merged tree; the
 * per-name table shows first. */
struct diffview *diffview_new(struct tracediff *td, bool ascii);
void diffview_free(struct diffview *dv);

/* Apply a key (keymap_normalize'd) on a screen of lines x cols. */
enum diffview_event diffview_key(struct diffview *dv, int key, int lines, int cols);
/* Apply an action (the diff view's key table, KEYS_DIFF, says which). */
enum diffview_event diffview_action(struct diffview *dv, enum action a, int lines, int cols);
/* Show table `tab`, building it on first use. */
void diffview_show(struct diffview *dv, enum diffview_tab tab);
/* Filter every table and the tree by name (NULL or "": none); false with
 * the reason on the message line when the pattern does not compile. */
bool diffview_set_filter(struct diffview *dv, const char *text);
/* Sort the shown flat table by a column (machine name or title), largest
 * first (|x| for a change column); false when it has no such column. */
bool diffview_sort_by(struct diffview *dv, const char *col);

/* The screen as text: `lines` lines of at most `cols` columns, each ending
 * in '\n'; *cursor_line gets the selected row's line (-1: none). */
void diffview_screen(struct diffview *dv, int lines, int cols, struct strbuf *out,
                     int *cursor_line);

/* The selected row of the shown table (a table row or a merged node);
 * false when there is none. */
bool diffview_selected(const struct diffview *dv, uint32_t *row);

/* Whether a column of a diff table holds a change (test - control): it
 * sorts by magnitude and shows right after the name. */
bool diffview_change_col(const struct table_col *c);

/* Table rows on a screen of `lines` lines. */
int diffview_table_rows(const struct diffview *dv, int lines);

/* Run the view on the terminal. Returns the exit status. */
int diffview_run(struct diffview *dv, bool mono);
/* Run the steps of script `path` headless on a lines x cols screen (the
 * explorer's script notation, tui/frame/script.h: keys, actions, type, filter,
 * sort-by, resize, save-display, expect, quit). Returns 0, or 1 after
 * printing the failing step to stderr. */
int diffview_script(struct diffview *dv, const char *path, int lines, int cols);

#endif
