/* The explorer's table views built on a worker thread (tui/trace/bgviews.h). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/report/report.h"
#include "tui/frame/app.h"
#include "tui/trace/bgviews.h"
#include "tui/trace/crit_tables.h"
#include "tui/trace/critpath_view.h"
#include "tui/trace/roofline_view.h"

struct bgviews {
    const struct trace *t; /* borrowed */
    const char *arch;      /* borrowed */
    int order[APP_NVIEWS]; /* the views to build, in build order (the roofline last) */
    int n;
    /* The worker's own: written by it before ndone covers them. */
    struct analysis *an;
    struct table *tabs[APP_NVIEWS];
    char *errs[APP_NVIEWS];
    struct roofline_view *rlv;
    double secs[APP_NVIEWS];
    struct critpath_view *cpv; /* built first: the header shows it */
    char cp_err[256];
    double cp_secs, cp_cpu_secs; /* wall and the worker's CPU time */
    _Atomic int cp_done;
    _Atomic int ndone;  /* order[0..ndone) are built */
    _Atomic int cancel; /* stop after the current view */
    /* The UI thread's. */
    int ninstalled; /* order[0..ninstalled) handed over */
    bool cp_installed;
    int shown_pct; /* percent in the "computing" notes, -1: none written */
    bool started, threaded;
    pthread_t th;
};

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
static double now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

void bgviews_build_one(struct analysis *an, const char *arch, int i, struct table **tab,
                       struct roofline_view **rlv, char **err)
{
    char msg[256] = "";
    *tab = NULL;
    *err = NULL;
    if (i == APP_VIEW_ROOFLINE) {
        /* Its tables come with the roofline itself, which the detail pane
         * also needs. */
        *rlv = roofline_view_new(an, arch, msg);
        if (!*rlv)
            *err = xstrdup(msg);
        else if (!roofline_view_count(*rlv))
            *err = xstrdup("no op of this trace has a roofline");
        return;
    }
    struct report_opts ro = {0};
    ro.keyavg.time_scale = 1e3;
    ro.keyavg.time_unit = "us";
    struct table_list list = {0};
    /* graph-nodes is the second table of -t graphs. */
    bool nodes = strcmp(app_view_names[i], "graph-nodes") == 0;
    const char *name = nodes ? "graphs" : app_view_names[i];
    size_t pick = nodes ? 1 : 0;
    if (report_build(an, name, &ro, &list, msg) && list.items.n > pick) {
        *tab = list.items.v[pick];
        list.items.v[pick] = NULL;
        for (size_t k = 0; k < list.items.n; k++)
            table_free(list.items.v[k]);
        VEC_FREE(&list.items);
    } else {
        *err = xstrdup(msg[0] ? msg : "this table is empty for this trace");
        table_list_free(&list);
    }
}

struct bgviews *bgviews_new(const struct trace *t, const char *arch, const bool *want)
{
    struct bgviews *bg = xcalloc(1, sizeof(*bg));
    bg->t = t;
    bg->arch = arch;
    /* The findings first: the header shows them (tui/trace/findings_ui.h). */
    if (want[APP_VIEW_FINDINGS])
        bg->order[bg->n++] = APP_VIEW_FINDINGS;
    for (int i = 0; i < APP_NVIEWS; i++)
        if (want[i] && i != APP_VIEW_ROOFLINE && i != APP_VIEW_FINDINGS)
            bg->order[bg->n++] = i;
    if (want[APP_VIEW_ROOFLINE])
        bg->order[bg->n++] = APP_VIEW_ROOFLINE;
    for (int i = 0; i < APP_NVIEWS; i++)
        bg->secs[i] = -1;
    bg->shown_pct = -1;
    bg->cp_secs = bg->cp_cpu_secs = -1;
    return bg;
}

/* Whether view i is one of HTA's tables (core/report/report.c's
 * build_hta), which all read the analysis's one HTA view. */
static bool hta_view(int i)
{
    static const char *const names[] = {"temporal",     "idle-time",    "kernel-types", "overlap",
                                        "launch-stats", "queue-length", "memory-bw"};
    for (size_t k = 0; k < ARRAY_SIZE(names); k++)
        if (strcmp(app_view_names[i], names[k]) == 0)
            return true;
    return false;
}

static void *worker(void *arg)
{
    struct bgviews *bg = arg;
    if (!atomic_load(&bg->cancel)) {
        double t0 = now_s(), c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
        bg->cpv = critpath_view_new(bg->t, bg->cp_err);
        bg->cp_secs = now_s() - t0;
        bg->cp_cpu_secs = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
        atomic_store_explicit(&bg->cp_done, 1, memory_order_release);
    }
    if (bg->n && !atomic_load(&bg->cancel))
        bg->an = analysis_new(bg->t);
    /* The last HTA view in build order: HTA's view of the trace is built
     * by the first one and kept for the others until then. */
    int last_hta = -1;
    for (int k = 0; k < bg->n; k++)
        if (hta_view(bg->order[k]))
            last_hta = k;
    for (int k = 0; k < bg->n; k++) {
        if (atomic_load(&bg->cancel))
            break;
        int i = bg->order[k];
        double t0 = now_s();
        if (hta_view(i))
            analysis_hta(bg->an);
        bgviews_build_one(bg->an, bg->arch, i, &bg->tabs[i], &bg->rlv, &bg->errs[i]);
        if (k == last_hta)
            analysis_hta_drop(bg->an);
        bg->secs[i] = now_s() - t0;
        atomic_store_explicit(&bg->ndone, k + 1, memory_order_release);
    }
    return NULL;
}

void bgviews_start(struct bgviews *bg)
{
    if (!bg || bg->started)
        return;
    bg->started = true;
    bg->threaded = pthread_create(&bg->th, NULL, worker, bg) == 0;
    if (!bg->threaded)
        worker(bg);
}

bool bgviews_pending(const struct bgviews *bg)
{
    return bg && bg->started && (bg->ninstalled < bg->n || !bg->cp_installed) &&
           !atomic_load(&bg->cancel);
}

int bgviews_percent(const struct bgviews *bg)
{
    int done = atomic_load_explicit(&bg->ndone, memory_order_acquire) +
               atomic_load_explicit(&bg->cp_done, memory_order_acquire);
    return 100 * done / (bg->n + 1);
}

bool bgviews_critpath_coming(const struct bgviews *bg)
{
    return bg && !bg->cp_installed && !atomic_load(&bg->cancel);
}

bool bgviews_coming(const struct bgviews *bg, int i)
{
    if (!bg)
        return false;
    for (int k = bg->ninstalled; k < bg->n; k++)
        if (bg->order[k] == i)
            return true;
    return false;
}

static void join(struct bgviews *bg)
{
    if (bg->threaded) {
        pthread_join(bg->th, NULL);
        bg->threaded = false;
    }
}

bool bgviews_install(struct bgviews *bg, struct app *a, bool wait)
{
    if (!bg)
        return false;
    if (wait) {
        bgviews_start(bg);
        join(bg);
    }
    int done = atomic_load_explicit(&bg->ndone, memory_order_acquire);
    bool changed = false;
    struct pane *tp = a->panes[PANE_TABLE];
    if (!bg->cp_installed && atomic_load_explicit(&bg->cp_done, memory_order_acquire)) {
        bg->cp_installed = true;
        a->v.cpv = bg->cpv;
        bg->cpv = NULL;
        a->v.dirty_chrome = true;
        changed = true;
    }
    for (; bg->ninstalled < done; bg->ninstalled++) {
        int i = bg->order[bg->ninstalled];
        free(a->views_err[i]);
        a->views_err[i] = bg->errs[i];
        bg->errs[i] = NULL;
        if (i == APP_VIEW_ROOFLINE) {
            a->v.rlv = bg->rlv;
            bg->rlv = NULL;
            if (tp)
                roofline_view_attach(a);
        } else {
            a->views[i] = bg->tabs[i];
            bg->tabs[i] = NULL;
            if (i == APP_VIEW_FINDINGS)
                a->v.dirty_chrome = true; /* the header's lines show them */
            if (tp) {
                app_table_set_table(a, i, a->views[i]);
                crit_tables_sync(a);
            }
        }
        changed = true;
    }
    if (done == bg->n && bg->cp_installed)
        join(bg); /* finished: reap the thread now rather than at exit */
    /* The views still being built say so, with how far the work is. */
    int pct = bgviews_percent(bg);
    if (bg->ninstalled < bg->n && pct != bg->shown_pct) {
        bg->shown_pct = pct;
        for (int k = bg->ninstalled; k < bg->n; k++) {
            int i = bg->order[k];
            free(a->views_err[i]);
            a->views_err[i] =
                xasprintf("computing %s (%d %%)", a->v.ascii ? "..." : "\xe2\x80\xa6", pct);
        }
        changed = true;
    }
    if (changed && tp)
        tp->dirty = true;
    return changed;
}

void bgviews_cancel(struct bgviews *bg)
{
    if (bg)
        atomic_store(&bg->cancel, 1);
}

void bgviews_stop(struct bgviews *bg)
{
    if (!bg)
        return;
    bgviews_cancel(bg);
    join(bg);
}

void bgviews_free(struct bgviews *bg)
{
    if (!bg)
        return;
    bgviews_stop(bg);
    for (int i = 0; i < APP_NVIEWS; i++) {
        table_free(bg->tabs[i]);
        free(bg->errs[i]);
    }
    roofline_view_free(bg->rlv);
    critpath_view_free(bg->cpv);
    analysis_free(bg->an);
    free(bg);
}

double bgviews_critpath_seconds(const struct bgviews *bg)
{
    return bg ? bg->cp_secs : -1;
}

double bgviews_critpath_cpu_seconds(const struct bgviews *bg)
{
    return bg ? bg->cp_cpu_secs : -1;
}

const char *bgviews_critpath_error(const struct bgviews *bg)
{
    return bg && bg->cp_installed && bg->cp_err[0] ? bg->cp_err : NULL;
}

double bgviews_seconds(const struct bgviews *bg, int i)
{
    return bg && i >= 0 && i < APP_NVIEWS ? bg->secs[i] : -1;
}
