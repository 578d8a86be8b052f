/* The explorer's table views built on a worker thread, so that the first
 * screen (header, breakdown, op table) shows as soon as its own data is
 * ready and the slower views (the findings first, which the header shows,
 * then key averages, HTA's analyses, the roofline) fill in while the UI
 * answers keys.
 *
 * Threads: the worker reads the trace (read-only once indexed) and its own
 * struct analysis (gputime's caches are not thread-safe, so it never
 * touches the app's); it writes only its own slots, each published by an
 * atomic count of finished views (release/acquire). The UI thread polls
 * that count (bgviews_install, from app_tick) and takes the finished views
 * over; it makes every ncurses call. The roofline view is built last: once
 * it is published the worker no longer uses its analysis, which the
 * roofline borrows from then on. HTA's views read that analysis's one HTA
 * view (analysis_hta), built by the first of them and dropped after the
 * last. */
#ifndef TORCHTOP_TUI_BGVIEWS_H
#define TORCHTOP_TUI_BGVIEWS_H

#include <stdbool.h>

#include "core/analysis/analysis.h"
#include "core/base/table.h"
#include "core/trace/trace.h"

struct app;
struct roofline_view;
struct bgviews;

/* Build view i of app_view_names (tui/frame/app.h) for an analysis: a table in
 * *tab, or for the roofline view a roofline in *rlv (which borrows an), or
 * why not in *err (owned by the caller). Safe on any one thread per
 * analysis. */
void bgviews_build_one(struct analysis *an, const char *arch, int i, struct table **tab,
                       struct roofline_view **rlv, char **err);

/* A worker for the views with want[i] set, over an indexed trace t (which
 * must outlive the result); arch as --arch. Started by bgviews_start; until
 * then nothing runs. */
struct bgviews *bgviews_new(const struct trace *t, const char *arch, const bool *want);
/* Start the worker thread (without one, build everything here and now).
 * Every function here but bgviews_new and bgviews_percent takes NULL as
 * "nothing to build". */
void bgviews_start(struct bgviews *bg);
/* Whether views are still to be taken over by bgviews_install. */
bool bgviews_pending(const struct bgviews *bg);
/* Whether view i is still to be handed over: wanted and not installed
 * yet (the UI then says it is being computed). NULL: false. */
bool bgviews_coming(const struct bgviews *bg, int i);
/* Whether the critical path (tui/trace/critpath_view.h, built first, then
 * handed over as a->v.cpv) is still to come. NULL: false. */
bool bgviews_critpath_coming(const struct bgviews *bg);
/* Why the critical path could not be built, NULL: it was (or is not yet). */
const char *bgviews_critpath_error(const struct bgviews *bg);
/* Seconds the critical path took on the worker, -1: not built. */
double bgviews_critpath_seconds(const struct bgviews *bg);
/* The CPU time its thread spent on it (wall time counts other processes
 * on a shared machine too); -1 likewise. */
double bgviews_critpath_cpu_seconds(const struct bgviews *bg);
/* Percent of the wanted views (and the critical path) built. */
int bgviews_percent(const struct bgviews *bg);
/* UI thread: hand the finished views to the app (a->views, a->views_err,
 * a->v.rlv and the table pane) and refresh the "computing" notes of the
 * others. Returns whether anything shown changed. With wait, first wait
 * for the worker to finish (script mode: keys then see every view). */
bool bgviews_install(struct bgviews *bg, struct app *a, bool wait);
/* Ask the worker to stop after the view it is building. */
void bgviews_cancel(struct bgviews *bg);
/* Cancel and wait for the worker (at most the view it is building); call
 * it before the trace is freed. NULL is fine. */
void bgviews_stop(struct bgviews *bg);
/* Stop, then free what was not handed over and the worker's analysis:
 * call it after the app (whose roofline borrows that analysis) is done.
 * NULL is fine. */
void bgviews_free(struct bgviews *bg);
/* Seconds each view took on the worker, -1 for those it did not build
 * (TORCHTOP_TIMING). */
double bgviews_seconds(const struct bgviews *bg, int i);

#endif
