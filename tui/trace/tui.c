/* The explorer's entry: load (with a progress screen on a terminal, on a
 * worker thread), build the analyses, then the key loop or a script. */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/roofline/iterations.h"
#include "core/trace/capture.h"
#include "core/trace/load.h"
#include "core/trace/scope.h"
#include "core/trace/tracecache.h"
#include "core/trace/tree.h"
#include "core/report/report.h"
#include "core/snapshot/snapshot.h"
#include "tui/frame/app.h"
#include "tui/trace/bgviews.h"
#include "tui/trace/explore.h"
#include "tui/frame/colors.h"
#include "tui/frame/draw.h"
#include "tui/frame/keymap.h"
#include "tui/trace/lanes.h"
#include "tui/trace/roofline_view.h"
#include "tui/frame/script.h"
#include "tui/snapshot/snapview.h"
#include "tui/frame/term.h"
#include "tui/trace/tui.h"

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */
/* ------------------------------------------------------------------------ */

/* ld->phase past the last load phase: the loading thread is done. */
#define PH_DONE LOAD_PHASE__COUNT

/* The views the first screen needs, built before it shows; the others are
 * built behind it (tui/trace/bgviews.h). */
static bool first_screen_view(int i)
{
    return i == 0; /* ops, the view the table opens on */
}

/* Keys typed while the trace loads, applied in order once the first
 * screen shows: over SSH people type ahead. Bounded; the rest is dropped
 * and counted. */
#define TYPEAHEAD_MAX 256
struct typeahead {
    int keys[TYPEAHEAD_MAX]; /* as the key tables bind them (keymap_normalize) */
    int n;
    int dropped;
};

struct loader {
    const struct tui_opts *o;
    const struct trace *parent; /* scope this trace (o->scope) instead of reading o's input */
    char scope_msg[256];        /* why the scope cannot be taken ("": it was) */
    struct typeahead ahead;     /* the UI thread's */
    _Atomic uint64_t done, total, events;
    _Atomic int phase; /* enum load_phase, then PH_DONE */
    volatile int cancel;
    double phase_t0[PH_DONE + 1]; /* when each phase began (loading thread), for the timing */
    /* Results. */
    enum status st;
    struct errinfo err;
    struct trace *t;
    struct analysis *an;
    struct table *views[APP_NVIEWS];
    char *views_err[APP_NVIEWS];
    struct snapshot *snap; /* o->snapshot: the memory snapshot */
    struct bgviews *bg;    /* the other views, not started yet */
    struct lane *lanes;    /* the timeline's lanes (lanes_build_all), for the app */
    int nlanes;
    struct timeline_breakdown bd;         /* the header's breakdown, beside the lanes */
    struct strbuf cache_notes;            /* the trace cache's notes (tracecache.h) */
    struct tracecache_later *cache_later; /* the cache to write once the first screen shows */
    bool notes_to_stderr;                 /* free_loader prints them (the terminal is closed) */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void set_phase(struct loader *ld, int phase)
{
    int old = atomic_load(&ld->phase);
    if (phase <= old)
        return;
    for (int p = old + 1; p <= phase; p++)
        ld->phase_t0[p] = now_s();
    /* The new phase's counts first, so that the screen never shows the
     * phase with the last one's fraction. */
    atomic_store(&ld->done, 0);
    atomic_store(&ld->total, 0);
    atomic_store(&ld->phase, phase);
}

static void on_progress(void *ud, enum load_phase phase, uint64_t done, uint64_t total,
                        uint64_t events)
{
    struct loader *ld = ud;
    set_phase(ld, (int)phase);
    atomic_store(&ld->done, done);
    atomic_store(&ld->total, total);
    if (events)
        atomic_store(&ld->events, events);
}

static void on_snap_progress(void *ud, uint64_t done, uint64_t total)
{
    on_progress(ud, LOAD_PHASE_READ, done, total, 0);
}

static void on_index_step(void *ud, unsigned done, unsigned total)
{
    on_progress(ud, LOAD_PHASE_INDEX, done, total, 0);
}

/* The timeline's lanes and the header's breakdown, on a thread beside the
 * analysis: they read only the trace. */
static void *lanes_thread(void *arg)
{
    struct loader *ld = arg;
    timeline_breakdown(ld->t, false, -1, &ld->bd);
    ld->lanes = lanes_build_all(ld->t, &ld->nlanes);
    return NULL;
}

/* The analysis phase: the shared analysis and the first screen's views,
 * with the timeline's lanes and the breakdown on the other core; the rest
 * is left to the worker, started once the app runs. */
static void build_first_views(struct loader *ld)
{
    bool want[APP_NVIEWS];
    int n = 1, k = 0;
    for (int i = 0; i < APP_NVIEWS; i++)
        n += first_screen_view(i);
    on_progress(ld, LOAD_PHASE_ANALYSE, 0, (uint64_t)n, 0);
    pthread_t lth;
    bool lanes_threaded = pthread_create(&lth, NULL, lanes_thread, ld) == 0;
    ld->an = analysis_new(ld->t);
    on_progress(ld, LOAD_PHASE_ANALYSE, (uint64_t)++k, (uint64_t)n, 0);
    for (int i = 0; i < APP_NVIEWS && !ld->cancel; i++) {
        want[i] = !first_screen_view(i);
        if (want[i])
            continue;
        struct roofline_view *rlv = NULL;
        bgviews_build_one(ld->an, ld->o->arch, i, &ld->views[i], &rlv, &ld->views_err[i]);
        roofline_view_free(rlv); /* the roofline is never a first-screen view */
        on_progress(ld, LOAD_PHASE_ANALYSE, (uint64_t)++k, (uint64_t)n, 0);
    }
    if (lanes_threaded)
        pthread_join(lth, NULL);
    else
        lanes_thread(ld);
    /* The header's breakdown, which app_init would otherwise compute. */
    analysis_put_breakdown(ld->an, false, &ld->bd);
    if (!ld->cancel)
        ld->bg = bgviews_new(ld->t, ld->o->arch, want);
}

/* o->scope of the trace loaded (or of ld->parent) in its place. When the
 * scope cannot be taken scope_msg says why and the trace is dropped. */
static void take_scope(struct loader *ld, const struct load_opts *lo)
{
    const struct trace *src = ld->parent ? ld->parent : ld->t;
    struct export_window *w;
    struct scope with = iterations_scope(src, ld->o->scope, &w);
    enum scope_result r;
    if (ld->parent) {
        r = scope_load(ld->parent, &with, lo, &ld->t, ld->scope_msg, &ld->err);
    } else {
        r = scope_apply(&ld->t, &with, lo, ld->scope_msg, &ld->err);
        if (r == SCOPE_EMPTY) {
            trace_free(ld->t);
            ld->t = NULL;
        }
    }
    free(w);
    if (r == SCOPE_IO)
        ld->st = ld->err.status != ST_OK ? ld->err.status : ST_IO;
    if (r == SCOPE_EMPTY && !ld->scope_msg[0])
        snprintf(ld->scope_msg, sizeof(ld->scope_msg), "the scope holds no events");
}

static void *load_thread(void *arg)
{
    struct loader *ld = arg;
    struct load_opts lo = {
        .threads = ld->o->threads,
        .progress = on_progress,
        .progress_ud = ld,
        .cancel = &ld->cancel,
        .use_cache = !ld->o->no_cache,
        .cache_notes = &ld->cache_notes,
        .cache_later = &ld->cache_later,
    };
    const char *name = ld->o->name ? ld->o->name : ld->o->path;
    ld->phase_t0[LOAD_PHASE_READ] = now_s();
    if (ld->o->snapshot) {
        struct snapshot_load_opts so = {
            .progress = on_snap_progress,
            .progress_ud = ld,
            .cancel = &ld->cancel,
        };
        ld->st = snapshot_load_source(ld->o->src, &so, &ld->snap, &ld->err);
        set_phase(ld, PH_DONE);
        return NULL;
    }
    lo.no_index = ld->o->ncaptures > 0; /* the captures are merged in first */
    if (ld->parent) {
        lo.use_cache = false;
        lo.cache_later = NULL;
        take_scope(ld, &lo);
        if (ld->t && ld->t->ev.n && !ld->cancel)
            build_first_views(ld);
        set_phase(ld, PH_DONE);
        return NULL;
    }
    if (ld->o->src)
        ld->st = trace_load_source(ld->o->src, &lo, &ld->t, &ld->err);
    else if (ld->o->mem)
        ld->st = trace_load_mem(name, ld->o->mem, ld->o->mem_len, &lo, &ld->t, &ld->err);
    else
        ld->st = trace_load_file(ld->o->path, &lo, &ld->t, &ld->err);
    lo.cache_later = NULL; /* for the loads below (captures, the scope) */
    if (ld->o->ncaptures && ld->t) {
        struct trace **caps = NULL;
        size_t ncaps = 0;
        for (size_t k = 0; k < ld->o->ncaptures && ld->st == ST_OK; k++)
            ld->st = capture_load(ld->o->captures[k], &lo, &caps, &ncaps, &ld->err);
        if (ld->st == ST_OK)
            capture_merge(ld->t, caps, ncaps);
        for (size_t k = 0; k < ncaps; k++)
            trace_free(caps[k]);
        free(caps);
        trace_index_steps(ld->t, on_index_step, ld);
    }
    if (ld->t && ld->st == ST_OK && ld->o->scope && scope_any(ld->o->scope) && !ld->cancel) {
        /* The scope replaces the trace the cache is made of: written now,
         * as report does. */
        tracecache_later_write(ld->cache_later, ld->t);
        ld->cache_later = NULL;
        take_scope(ld, &lo);
    }
    if (ld->t && ld->t->ev.n && ld->st != ST_CANCELLED && !ld->cancel)
        build_first_views(ld);
    set_phase(ld, PH_DONE);
    return NULL;
}

/* What the progress screen shows: the phase's name, its fraction (-1:
 * unknown) and its line of figures. Separate from the drawing so that a
 * test can read it (tui_progress_text). */
static double progress_text(struct loader *ld, double now, struct strbuf *sb)
{
    uint64_t done = atomic_load(&ld->done), total = atomic_load(&ld->total);
    uint64_t events = atomic_load(&ld->events);
    int phase = atomic_load(&ld->phase);
    if (phase >= PH_DONE)
        phase = LOAD_PHASE_ANALYSE;
    double el = now - ld->phase_t0[phase];
    double frac = total ? (double)done / (double)total : -1;
    char b1[32], b2[32];
    text_bytes(b1, sizeof(b1), done);
    if (phase == LOAD_PHASE_INDEX) {
        sb_printf(sb, "indexing: step %llu of %llu  %llu events  %.1f s",
                  (unsigned long long)MIN(done + 1, total), (unsigned long long)total,
                  (unsigned long long)events, el);
    } else if (phase == LOAD_PHASE_ANALYSE) {
        sb_printf(sb, "analysing: %llu of %llu  (the first screen's tables)  %llu events  %.1f s",
                  (unsigned long long)done, (unsigned long long)total, (unsigned long long)events,
                  el);
    } else if (total && ld->o->snapshot) {
        text_bytes(b2, sizeof(b2), total);
        double eta = frac > 0.01 ? el * (1 - frac) / frac : 0;
        sb_printf(sb, "reading: %s of %s  ETA %.0f s", b1, b2, eta);
    } else if (total) {
        text_bytes(b2, sizeof(b2), total);
        double rate = el > 0 ? (double)events / el : 0;
        double eta = frac > 0.01 ? el * (1 - frac) / frac : 0;
        sb_printf(sb, "reading: %s of %s  %llu events  %.0fk events/s  ETA %.0f s", b1, b2,
                  (unsigned long long)events, rate / 1e3, eta);
    } else {
        sb_printf(sb, "reading: %s  %llu events", b1, (unsigned long long)events);
    }
    return frac;
}

/* The progress screen: the phases (reading, indexing, analysing) with the
 * current one's bar and figures. */
static void draw_progress(struct loader *ld, const char *name, bool ascii)
{
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    werase(stdscr);
    int phase = MIN(atomic_load(&ld->phase), LOAD_PHASE_ANALYSE);
    int nphases = ld->o->snapshot ? 1 : LOAD_PHASE__COUNT;
    int w = MIN(cols - 4, 72);
    int y = MAX(0, lines / 2 - 3), x = MAX(0, (cols - w) / 2);
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "torchtop: loading %s", name);
    draw_fit(stdscr, y, x, w, sb_str(&sb), sb.len, true, false, A_BOLD, ascii);
    /* The phases in order, the current one bold, those done dim. */
    int px = x;
    for (int i = 0; i < nphases && px < x + w; i++) {
        sb_clear(&sb);
        sb_printf(&sb, "%s%d/%d %s", i ? "  " : "", i + 1, nphases,
                  load_phase_name((enum load_phase)i));
        attr_t at = i == phase ? A_BOLD : i < phase ? A_DIM : A_NORMAL;
        px += draw_fit(stdscr, y + 1, px, x + w - px, sb_str(&sb), sb.len, false, false, at, ascii);
    }
    sb_clear(&sb);
    double frac = progress_text(ld, now_s(), &sb);
    int bw = w - 8;
    if (bw > 0) {
        /* A phase whose total is not known yet shows an empty bar. */
        double f = frac < 0 ? 0 : MIN(frac, 1.0);
        int fill = (int)(f * bw + 0.5);
        const char *full = ascii ? "#" : "\xe2\x96\x88", *empty = ascii ? "." : "\xe2\x96\x91";
        mvwaddstr(stdscr, y + 2, x, "[");
        for (int i = 0; i < bw; i++)
            waddstr(stdscr, i < fill ? full : empty);
        if (frac < 0)
            wprintw(stdscr, "]    ");
        else
            wprintw(stdscr, "] %3.0f%%", 100 * f);
    }
    draw_fit(stdscr, y + 3, x, w, sb_str(&sb), sb.len, false, false, A_NORMAL, ascii);
    draw_fit(stdscr, y + 5, x, w, "Ctrl-C cancels", 14, false, false, A_DIM, ascii);
    sb_free(&sb);
    wnoutrefresh(stdscr);
    doupdate();
}

/* Load with the progress screen; returns false when cancelled. */
static bool load_interactive(struct loader *ld, const char *name, bool ascii)
{
    pthread_t th;
    if (pthread_create(&th, NULL, load_thread, ld) != 0) {
        load_thread(ld);
        return true;
    }
    double start = now_s();
    timeout(100);
    bool cancelled = false;
    while (atomic_load(&ld->phase) != PH_DONE) {
        /* Quiet for quick loads, as the batch progress line is. */
        if (now_s() - start > 0.15)
            draw_progress(ld, name, ascii);
        wint_t wch;
        int rc = get_wch(&wch);
        if (term_stop_requested()) {
            ld->cancel = 1;
            cancelled = true;
            continue;
        }
        if (rc == ERR || cancelled)
            continue;
        if (rc == KEY_CODE_YES)
            wch = (wint_t)term_key_code((int)wch);
        int key = keymap_normalize((int)wch, rc == KEY_CODE_YES);
        if (key == KEY_CTRL('c') || key == 'q' || key == KEY_ESC) {
            ld->cancel = 1;
            cancelled = true;
        } else if (key != KEYF(KEY_RESIZE) && key != KEYF(KEY_MOUSE)) {
            /* A resize is read again from the screen; a click on the
             * progress screen means nothing to the explorer. */
            struct typeahead *ta = &ld->ahead;
            if (ta->n < TYPEAHEAD_MAX)
                ta->keys[ta->n++] = key;
            else
                ta->dropped++;
        }
    }
    pthread_join(th, NULL);
    timeout(-1);
    return !cancelled;
}

/* ------------------------------------------------------------------------ */
/* Running                                                                  */
/* ------------------------------------------------------------------------ */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

void tui_loop(struct app *a)
{
    app_render(a);
    bool progressed = false;
    while (!a->quit) {
        /* Keys are read through the message line's window: reading
         * through stdscr would repaint stdscr (blank after a resize) over
         * the panes, and the prompt's cursor lives in that window. */
        struct app *top = app_top(a);
        WINDOW *in = top->w_message ? top->w_message : stdscr;
        /* Background work pending: come back at once while it makes
         * progress (rows being made), soon while it waits (answers due). */
        wtimeout(in, !app_busy(a) ? -1 : progressed ? 0 : 50);
        wint_t wch;
        int rc = wget_wch(in, &wch);
        if (term_stop_requested())
            break;
        if (rc == ERR) {
            progressed = app_tick(a, false) != R_NONE;
            if (progressed)
                app_render(a);
            continue;
        }
        if (rc == KEY_CODE_YES)
            wch = (wint_t)term_key_code((int)wch);
        int key = keymap_normalize((int)wch, rc == KEY_CODE_YES);
        char seq[24];
        if (key == KEY_ESC && term_unknown_sequence(in, seq, sizeof(seq)))
            app_message(top, "Esc %s: a key this terminal type (TERM) does not describe", seq);
        else
            app_key(a, key);
        /* The key's screen first; background work goes on at the next
         * turn (without waiting, as progressed is set). */
        app_render(a);
        progressed = true;
    }
}

/* The keys typed during the load, as if typed now. */
static void apply_typeahead(struct app *a, const struct typeahead *ta)
{
    for (int i = 0; i < ta->n && !a->quit; i++)
        app_key(a, ta->keys[i]);
    if (ta->dropped)
        app_error(a, "%d keys typed during the load were dropped (at most %d are kept)",
                  ta->dropped, TYPEAHEAD_MAX);
}

/* The cache's notes on stderr, once the terminal is closed. */
static void print_cache_notes(struct loader *ld)
{
    if (ld->cache_notes.len)
        fputs(sb_str(&ld->cache_notes), stderr);
    sb_clear(&ld->cache_notes);
}

static void free_loader(struct loader *ld)
{
    if (ld->notes_to_stderr)
        print_cache_notes(ld);
    sb_free(&ld->cache_notes);
    free(tracecache_later_finish(ld->cache_later, true)); /* never started */
    for (int i = 0; i < APP_NVIEWS; i++) {
        table_free(ld->views[i]);
        free(ld->views_err[i]);
    }
    bgviews_free(ld->bg);
    for (int i = 0; i < ld->nlanes; i++)
        lane_free(&ld->lanes[i]);
    free(ld->lanes);
    analysis_free(ld->an);
    trace_free(ld->t);
    snapshot_free(ld->snap);
    errinfo_clear(&ld->err);
}

/* With TORCHTOP_TIMING set: each phase's seconds, when the first screen
 * was drawn (on a terminal or in a script run with TORCHTOP_HOLD_ANALYSIS;
 * other scripts draw it once every view is in) and each background view's
 * seconds, on stderr after the screen is closed. */
static void print_timing(const struct loader *ld, const struct bgviews *bg, double shown)
{
    const char *env = getenv("TORCHTOP_TIMING");
    if (!env || !*env || ld->o->snapshot)
        return;
    for (int p = 0; p < PH_DONE; p++)
        if (ld->phase_t0[p] > 0 && ld->phase_t0[p + 1] > 0)
            fprintf(stderr, "torchtop: timing %-9s %.3f s\n", load_phase_name((enum load_phase)p),
                    ld->phase_t0[p + 1] - ld->phase_t0[p]);
    if (ld->phase_t0[0] > 0)
        fprintf(stderr, "torchtop: timing first screen at %.3f s\n", shown - ld->phase_t0[0]);
    if (bgviews_critpath_seconds(bg) >= 0)
        fprintf(stderr, "torchtop: timing background %-12s %.3f s (cpu %.3f s)\n", "critical-path",
                bgviews_critpath_seconds(bg), bgviews_critpath_cpu_seconds(bg));
    for (int i = 0; i < APP_NVIEWS; i++)
        if (bgviews_seconds(bg, i) >= 0)
            fprintf(stderr, "torchtop: timing background %-12s %.3f s\n", app_view_names[i],
                    bgviews_seconds(bg, i));
}

/* Hand what ld loaded over to app a (the trace, its analysis, the first
 * screen's views, the snapshot, the background views, the lanes), leaving
 * ld holding none of it; shown names it in the header, warning (owned) is
 * the load fault shown at start. */
static void take_loaded(struct app *a, struct loader *ld, const char *shown, char *warning,
                        const struct tui_opts *o)
{
    a->v.t = ld->t;
    a->v.an = ld->an;
    ld->t = NULL;
    ld->an = NULL;
    if (ld->snap) {
        a->v.snap = snapview_new(ld->snap);
        ld->snap = NULL;
    }
    for (int i = 0; i < APP_NVIEWS; i++) {
        a->views[i] = ld->views[i];
        a->views_err[i] = ld->views_err[i];
        ld->views[i] = NULL;
        ld->views_err[i] = NULL;
    }
    a->name = xstrdup(shown);
    a->opened_with = xmalloc(sizeof(*o));
    memcpy(a->opened_with, o, sizeof(*o));
    a->load_warning = warning;
    a->v.srcpath = o->srcpath;
    a->bg = ld->bg;
    ld->bg = NULL;
    a->v.lanes = ld->lanes;
    a->v.nlanes = ld->nlanes;
    ld->lanes = NULL;
    ld->nlanes = 0;
    a->cache_later = ld->cache_later;
    ld->cache_later = NULL;
    errinfo_clear(&ld->err);
}

static struct app *open_loaded(struct loader *ld, const char *shown, char *warning,
                               const struct tui_opts *o, bool headless, bool ascii);

struct app *tui_open_view(const struct tui_opts *o, bool headless, bool ascii, char **why)
{
    const char *shown = o->name ? o->name : base_name(o->path);
    struct loader ld = {.o = o};
    *why = NULL;
    if (headless) {
        load_thread(&ld);
    } else if (!load_interactive(&ld, shown, ascii)) {
        *why = xasprintf("loading %s cancelled", shown);
        free_loader(&ld);
        return NULL;
    }
    char *warning = NULL;
    if (ld.st != ST_OK || !ld.t || !ld.t->ev.n) {
        char *m = errinfo_format(&ld.err);
        char *kept = ld.t && ld.t->ev.n ? trace_load_kept(ld.t) : NULL;
        if (!kept) {
            *why = ld.st != ST_OK ? m : xasprintf("%s holds no events", shown);
            if (ld.st == ST_OK)
                free(m);
            free_loader(&ld);
            return NULL;
        }
        warning = xasprintf("%s (showing %s)", m, kept);
        free(kept);
        free(m);
    }
    if (!warning && ld.cache_notes.len) {
        /* Shown at start: the terminal is the explorer's. */
        warning = sb_steal(&ld.cache_notes);
        warning[strcspn(warning, "\n")] = '\0';
    }
    return open_loaded(&ld, shown, warning, o, headless, ascii);
}

/* The app over what ld loaded (a view to open on top of another), its
 * other views started behind the first screen; ld is left empty. */
static struct app *open_loaded(struct loader *ld, const char *shown, char *warning,
                               const struct tui_opts *o, bool headless, bool ascii)
{
    struct app *a = xcalloc(1, sizeof(*a));
    take_loaded(a, ld, shown, warning, o);
    a->owns_bg = true;
    app_init(a, &explore_trace_doc, ascii, headless);
    /* A script sees every view from its first step, as in tui_main. */
    const char *hold = getenv("TORCHTOP_HOLD_ANALYSIS");
    bool wait = headless && (!hold || !*hold);
    if (!headless || !hold || !*hold)
        bgviews_start(a->bg);
    bgviews_install(a->bg, a, wait);
    /* The trace is read-only from here on: its cache is written behind
     * the screens, stopped if the view is closed first. */
    tracecache_later_start(a->cache_later, a->v.t);
    /* Keys typed while it loaded, as on the first screen. */
    apply_typeahead(a, &ld->ahead);
    free_loader(ld);
    return a;
}

/* The panes again after the progress screen covered them. */
static unsigned redraw_below(struct app *a)
{
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    app_resize(a, lines, cols);
    return R_HANDLED | R_DIRTY_ALL;
}

unsigned tui_push_scope(struct app *a, const struct scope *s)
{
    struct app *top = app_top(a);
    if (!top->v.t) {
        app_error(top, "only a trace's views can be scoped");
        return R_HANDLED;
    }
    static const struct tui_opts none;
    struct tui_opts o = top->opened_with ? *(const struct tui_opts *)top->opened_with : none;
    o.scope = s;
    struct loader ld = {.o = &o, .parent = top->v.t};
    if (top->v.headless) {
        load_thread(&ld);
    } else if (!load_interactive(&ld, top->name, top->v.ascii)) {
        free_loader(&ld);
        app_message(top, "scope cancelled");
        return redraw_below(top);
    }
    o.scope = NULL; /* s is the caller's */
    if (!ld.t || !ld.t->ev.n) {
        char *m = ld.scope_msg[0] ? xstrdup(ld.scope_msg) : errinfo_format(&ld.err);
        free_loader(&ld);
        app_error(top, "no scope: %s", m);
        free(m);
        return top->v.headless ? R_HANDLED : redraw_below(top);
    }
    struct app *child = open_loaded(&ld, top->name, NULL, &o, top->v.headless, top->v.ascii);
    app_push(a, child);
    child->cancel_quits = true;
    app_message(child, "every view is for the scope; Esc or Backspace returns to the whole trace");
    return R_HANDLED | R_DIRTY_ALL;
}

unsigned tui_push_view(struct app *a, const struct tui_opts *o, const char *below)
{
    char *why = NULL;
    struct app *child = tui_open_view(o, a->v.headless, a->v.ascii, &why);
    if (!child) {
        app_error(a, "%s", why ? why : "the trace cannot be shown");
        free(why);
        /* The progress screen covered the panes. */
        int lines, cols;
        getmaxyx(stdscr, lines, cols);
        app_resize(a, lines, cols);
        return R_HANDLED | R_DIRTY_ALL;
    }
    app_push(a, child);
    if (!child->load_warning)
        app_message(child, "%s: q or Backspace returns to %s", child->name, below);
    return R_HANDLED | R_DIRTY_ALL;
}

/* ASCII glyphs only: asked for, or a locale whose characters are not UTF-8. */
static bool wants_ascii(const struct tui_opts *o)
{
    const char *cs = nl_langinfo(CODESET);
    return o->ascii || !cs || strcmp(cs, "UTF-8") != 0;
}

/* No colours: asked for, or NO_COLOR set (no-color.org). */
static bool wants_mono(const struct tui_opts *o)
{
    return o->no_color || (getenv("NO_COLOR") && *getenv("NO_COLOR"));
}

/* The headless screen of o's script, at the size the script asked for. */
static bool open_script_screen(const struct tui_opts *o)
{
    return term_open_headless(o->script_lines ? o->script_lines : 30,
                              o->script_cols ? o->script_cols : 100);
}

bool tui_term_open(const struct tui_opts *o, bool *ascii)
{
    *ascii = wants_ascii(o);
    return o->script ? open_script_screen(o) : term_open(wants_mono(o));
}

int tui_run(struct app *a, const struct tui_opts *o)
{
    int rc = 0;
    if (o->script)
        rc = script_run(a, o->script, o->script_timing);
    else
        tui_loop(a);
    app_done(a);
    term_close();
    return rc;
}

int tui_main(const struct tui_opts *o)
{
    bool ascii = wants_ascii(o);
    bool mono = wants_mono(o);
    const char *shown = o->name ? o->name : base_name(o->path);

    struct loader ld = {.o = o, .notes_to_stderr = true};
    bool headless = o->script != NULL;
    if (headless) {
        load_thread(&ld);
    } else {
        if (!term_open(mono)) {
            free_loader(&ld);
            return 1;
        }
        bool ok = load_interactive(&ld, shown, ascii);
        if (!ok) {
            term_close();
            fprintf(stderr, "torchtop: loading cancelled\n");
            free_loader(&ld);
            return 1;
        }
    }

    int status = 0;
    char *warning = NULL;
    if (o->snapshot) {
        /* A snapshot is whole or refused: no partial snapshot is shown. */
        if (ld.st != ST_OK || !ld.snap) {
            if (!headless)
                term_close();
            char *m = errinfo_format(&ld.err);
            fprintf(stderr, "torchtop: %s\n", m);
            free(m);
            free_loader(&ld);
            return 2;
        }
    } else if (ld.scope_msg[0]) {
        /* A scope the trace does not have: the usage error report's scope
         * options give (src/commands.h's EXIT_USAGE). */
        if (!headless)
            term_close();
        fprintf(stderr, "torchtop: %s\n", ld.scope_msg);
        free_loader(&ld);
        return 64;
    } else if (ld.st != ST_OK) {
        char *m = errinfo_format(&ld.err);
        char *kept = trace_load_kept(ld.t);
        if (!kept) {
            if (!headless)
                term_close();
            fprintf(stderr, "torchtop: %s\n", m);
            free(m);
            free_loader(&ld);
            return 2;
        }
        warning = xasprintf("%s (showing %s)", m, kept);
        free(kept);
        free(m);
        status = 2;
    } else if (!ld.t->ev.n) {
        if (!headless)
            term_close();
        fprintf(stderr, "torchtop: %s holds no events\n", o->path ? o->path : "the trace");
        free_loader(&ld);
        return 2;
    }

    if (headless && !open_script_screen(o)) {
        free(warning);
        free_loader(&ld);
        return 1;
    }

    struct app a = {0};
    take_loaded(&a, &ld, shown, warning, o);
    a.back_quits = o->back_quits;
    app_init(&a, a.v.snap ? &explore_snapshot_doc : &explore_trace_doc, ascii, headless);
    /* The other views behind the first screen. A script sees them all from
     * its first step (its screens must not depend on timing), unless a
     * test holds them back until its wait-analysis step. */
    const char *hold = getenv("TORCHTOP_HOLD_ANALYSIS");
    bool wait = headless && (!hold || !*hold);
    /* The first screen, drawn before the worker competes for the CPU (a
     * script that waits for every view draws once they are in). */
    if (!wait)
        app_render(&a);
    double t_first = now_s();
    if (!headless || !hold || !*hold)
        bgviews_start(a.bg);
    /* The trace is read-only from here on: its cache is written behind the
     * first screen (tui.c finishes it, not the document). */
    struct tracecache_later *later = a.cache_later;
    a.cache_later = NULL;
    tracecache_later_start(later, a.v.t);
    bgviews_install(a.bg, &a, wait);
    int rc = 0;
    if (headless) {
        rc = script_run(&a, o->script, o->script_timing);
    } else {
        apply_typeahead(&a, &ld.ahead);
        tui_loop(&a);
    }
    /* Quit is not held up by the analysis: the screen is closed at once,
     * then the worker stops after the view it is building; the trace it
     * reads is freed only after that. */
    struct bgviews *bg = a.bg;
    bgviews_cancel(bg);
    struct trace *t = a.v.t;
    a.v.t = NULL;
    app_done(&a);
    term_close();
    /* A quit does not wait for the cache: its write is abandoned (the
     * cache is then whole or not there), before the wait for the views'
     * worker, which may be in the middle of a view. A script's run waits
     * for it, so that what it leaves does not depend on timing. */
    char *later_notes = tracecache_later_finish(later, !headless);
    bgviews_stop(bg);
    trace_free(t);
    print_cache_notes(&ld);
    if (later_notes)
        fputs(later_notes, stderr);
    free(later_notes);
    sb_free(&ld.cache_notes);
    print_timing(&ld, bg, t_first);
    bgviews_free(bg);
    return rc ? rc : status;
}
