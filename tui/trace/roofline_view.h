/* The roofline in the explorer: the roofline tables (core/roofline/roofline.h) as
 * the op table's "roofline" view, one category (GEMM, SDPA_fwd, ...) at a
 * time, picked from a menu; and the detail pane's section for a modelled
 * op instance: its parameters, its roofline line and a text roofline plot
 * of the op's parameter combinations under the device's roof. */
#ifndef TORCHTOP_TUI_ROOFLINE_VIEW_H
#define TORCHTOP_TUI_ROOFLINE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis/analysis.h"
#include "core/roofline/roofline.h"
#include "core/base/table.h"

struct app;
struct view;
struct detail_out;
struct roofline_view;

/* Build the roofline of an analysis (borrowed: it must outlive the
 * result) and its tables; arch as --arch (NULL: from the trace). Returns
 * NULL with a message in err (size 256) when arch cannot be used. Safe to
 * call from the loading thread. */
struct roofline_view *roofline_view_new(struct analysis *an, const char *arch, char *err);
void roofline_view_free(struct roofline_view *rv);

/* The roofline (borrowed), its categories' tables (owned by rv). */
const struct roofline *roofline_view_roofline(const struct roofline_view *rv);
size_t roofline_view_count(const struct roofline_view *rv);
struct table *roofline_view_table(const struct roofline_view *rv, size_t i);

/* Put the first category in the op table's roofline view (after
 * app_init), or the category r asked for while it was being built. */
void roofline_view_attach(struct app *a);
/* The roofline key: switch the op table to the roofline view on the
 * category of the selected op (the no-model table when no model covers
 * it), or when it shows it, open the menu of categories. While the
 * roofline is still being built the view says so and turns to that
 * category once it is in. Reactions. */
unsigned roofline_view_action(struct app *a);
/* Show category `name` (a table name: "GEMM", "no_model"...) in the
 * roofline view and switch to it; false when there is no such category. */
bool roofline_view_show(struct app *a, const char *name);

/* The detail pane's roofline section of event ev (nothing when ev is not
 * an op). */
void roofline_view_detail(struct detail_out *d, struct view *a, uint32_t ev);

#endif
