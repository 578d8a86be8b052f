/* The arithmetic of the memory snapshot views, apart from curses so that
 * it can be unit-tested: which trace entries a chart column covers (the
 * same cut as snapshot_series_buckets), bar heights in eighths of a cell,
 * and a segment's blocks spread over the cells of a bar. */
#ifndef TORCHTOP_TUI_MEMCHART_H
#define TORCHTOP_TUI_MEMCHART_H

#include <stddef.h>
#include <stdint.h>

/* Entries [from, to) spread over w columns (w >= 1), as
 * snapshot_series_buckets cuts them: column c holds entries
 * [memchart_first(c), memchart_first(c + 1)), which is empty for some
 * columns when there are fewer entries than columns. */
uint32_t memchart_first(uint32_t from, uint32_t to, int w, int col);
/* The column whose range holds entry idx (from <= idx < to); idx outside
 * the range gives -1 (before) or w (after). */
int memchart_col(uint32_t from, uint32_t to, int w, uint32_t idx);

/* Height of a bar for value v on a scale of max, in eighths of a cell, for
 * `rows` cells: 0 only for v <= 0, at least 1 for any positive v, rows * 8
 * for v >= max. */
int memchart_eighths(int64_t v, int64_t max, int rows);
/* Fill level (0..8, an index into glyphs.levels) of cell r (0 = bottom) of
 * a bar `eighths` high. */
int memchart_level(int eighths, int r);

/* States of the cells of a segment bar (enum snap_block_state values). */
enum { MEMCHART_EMPTY = 0xff }; /* a cell past the segment's blocks */

/* Spread n blocks (sizes, states < 8; address order) over w cells in
 * proportion to their bytes: each cell gets the state holding most of the
 * bytes under it (the lower state on a tie). A segment without bytes gives
 * MEMCHART_EMPTY cells. */
void memchart_segbar(const uint64_t *sizes, const uint8_t *states, size_t n, int w, uint8_t *cells);

#endif
