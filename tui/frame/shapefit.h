/* Shape tuples ("((8192, 4096), (4096, 9728))") cut to a column width where
 * rows are least likely to differ. */
#ifndef TORCHTOP_TUI_SHAPEFIT_H
#define TORCHTOP_TUI_SHAPEFIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/strbuf.h"
#include "core/base/table.h"

/* A tuple with more items than this is cut as plain text. */
#define SHAPEFIT_MAX_ITEMS 64

/* Split the tuple repr s[0..n) into its top-level items: writes the byte
 * offset and length of each item (without the separating ", ") into off and
 * len, at most max. Returns the item count, or 0 when s is not a
 * parenthesised tuple (or has more items than max). */
size_t shapefit_items(const char *s, size_t n, size_t *off, size_t *len, size_t max);

/* Items ranked by how much they tell rows apart (shapefit_spread). */
#define SHAPEFIT_RANKED 16

/* Append s[0..n) cleaned (text_clean) and fitted to at most width columns:
 * 1. as is when it fits; 2. with the blanks after commas dropped and quoted
 * dtype names short and unquoted ('c10::BFloat16' -> bf16); 3. with items
 * replaced by "…" (a run of them by one), one at a time, those with the
 * fewest distinct values in spread[i] first (then the later first), until
 * it fits or one item is left; 4. cut at the end. spread holds
 * SHAPEFIT_RANKED counts (0: unknown), may be NULL. Text that is not a
 * tuple is cut in the middle. Returns the columns written. */
size_t shapefit_fit(struct strbuf *out, const char *s, size_t n, size_t width,
                    const uint8_t *spread, bool ascii);

/* The short name of a recorded dtype name s[0..n) ("c10::BFloat16" ->
 * "bf16", "float" -> "f32"), static; NULL when s is not one. */
const char *shapefit_dtype_brief(const char *s, size_t n);

/* When every item of the tuple s[0..n) is a quoted dtype name, append
 * their short names joined by "×" ("bf16×bf16") and return true; else
 * append nothing and return false. */
bool shapefit_dtypes(struct strbuf *out, const char *s, size_t n);

/* Per row of tab (in its current order), SHAPEFIT_RANKED counts: for item
 * i of text column col, the number of distinct values item i has among the
 * rows naming the same thing (table_name_col), capped at 255; a missing
 * item counts as one value. All 0 for a row alone under its name. Returns
 * tab->nrows * SHAPEFIT_RANKED bytes (malloc'd, the caller frees),
 * stale after a sort. */
uint8_t *shapefit_spread(const struct table *tab, size_t col);

#endif
