/* Memory snapshot mode of the explorer (`torchtop SNAPSHOT.pickle`).
 *
 * The same four panes as for a trace, other contents:
 *   table slot     report tables of the snapshot (core/snapshot/snapreport.h) in the
 *                  table pane: summary, sites (sortable, grouped by the
 *                  whole traceback or its top frames), segments, settings
 *   tree slot      the memory pane: the allocations live at the memory
 *                  cursor, largest first, or the segments map at the
 *                  cursor (each segment's allocations and free gaps as a
 *                  bar: allocated, pending, free; the final state at the
 *                  last entry)
 *   timeline slot  the memory chart: allocated bytes over the trace entries
 *                  as bars across the width, with the memory cursor
 *   detail         the selection described, or its traceback (t)
 * One device is shown at a time (d: the next one). The memory cursor is a
 * device trace entry: the chart moves it, p jumps to the peak, o to the
 * next out-of-memory event; the live list and the map follow it. */
#ifndef TORCHTOP_TUI_SNAPVIEW_H
#define TORCHTOP_TUI_SNAPVIEW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot/snapshot.h"
#include "core/base/table.h"
#include "tui/frame/actions.h"

struct app;
struct view;

/* The table pane's views. */
enum { SV_SUMMARY, SV_SITES, SV_SEGMENTS, SV_SETTINGS, SV__COUNT };
extern const char *const snapview_table_names[SV__COUNT];

struct snapview {
    struct snapshot *s;            /* owned */
    uint32_t dev;                  /* device shown, index into s->devices (0 when none) */
    uint32_t cursor;               /* memory cursor: device entry, IDX_NONE = before the first */
    unsigned depth;                /* sites grouped by their top `depth` frames, 0 = all */
    struct table *tabs[SV__COUNT]; /* the table pane's tables (owned) */
    char *errs[SV__COUNT];         /* why a table is missing (owned) */
    uint32_t *live;                /* allocations live at the cursor, largest first (owned) */
    size_t nlive;
    int64_t live_bytes;
    unsigned gen; /* counts cursor and device changes, for the panes */
};

/* Take ownership of s; the cursor starts at the last entry of the first
 * device that has segments or entries. */
struct snapview *snapview_new(struct snapshot *s);
void snapview_free(struct snapview *sv);

/* Lines the chart wants (layout_cfg.timeline_lanes). */
int snapview_chart_lines(struct app *a);
/* The two header lines. */
void snapview_header(struct app *a, WINDOW *w, int cols);
/* Actions of snapshot mode that no pane took (device, peak, OOM, site
 * depth); R_NONE for the others. */
unsigned snapview_action(struct app *a, enum action act);

/* Move the memory cursor to device entry idx (IDX_NONE: before the first)
 * and recompute the live allocations. */
void snapview_set_cursor(struct snapview *sv, uint32_t idx);

/* The code behind the selection of a pane, for the traceback view (the
 * panes' pick op, tui/frame/pane.h). */
struct snap_pick {
    uint32_t stack; /* stack id (0: none recorded) */
    uint64_t key;   /* identifies the selection (same selection, same key) */
    char what[160]; /* "allocation of 148 MB at 0x7f..." */
};
/* The pick of row `row` of the table pane's table tab (an allocation site
 * or a segment); false for rows of other tables. */
bool snapview_pick_row(struct view *a, const struct table *tab, size_t row, struct snap_pick *out);

/* "cuda:0", "host" (pinned memory) or "-" when there is no device. */
void snapview_device_label(const struct snapshot *s, uint32_t dev, char *buf, size_t n);
/* Microseconds from the device's first timed entry to entry idx, -1 when
 * idx has no time. */
int64_t snapview_entry_us(const struct snapshot *s, uint32_t dev, uint32_t idx);
/* "+1.25 ms": that time as text, "" when untimed. */
void snapview_entry_time(const struct snapshot *s, uint32_t dev, uint32_t idx, bool ascii,
                         char *buf, size_t n);

#endif
