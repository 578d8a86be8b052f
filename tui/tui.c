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

#include "core/trace/capture.h"
#include "core/trace/load.h"
#include "core/trace/tree.h"
#include "core/report/report.h"
#include "core/snapshot/snapshot.h"
#include "tui/app.h"
#include "tui/colors.h"
#include "tui/draw.h"
#include "tui/roofline_view.h"
#include "tui/script.h"
#include "tui/snapview.h"
#include "tui/term.h"
#include "tui/tui.h"

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */
/* ------------------------------------------------------------------------ */

enum load_phase { PH_READ, PH_ANALYSE, PH_DONE };

struct loader {
    const struct tui_opts *o;
    _Atomic uint64_t done, total, events;
    _Atomic int phase;
    volatile int cancel;
    /* Results. */
    enum status st;
    struct errinfo err;
    struct trace *t;
    struct analysis *an;
    struct table *views[APP_NVIEWS];
    char *views_err[APP_NVIEWS];
    struct snapshot *snap; /* o->snapshot: the memory snapshot */
    struct roofline_view *rlv;
};

static void on_progress(void *ud, uint64_t done, uint64_t total, uint64_t events)
{
    struct loader *ld = ud;
    atomic_store(&ld->done, done);
    atomic_store(&ld->total, total);
    atomic_store(&ld->events, events);
}

static void on_snap_progress(void *ud, uint64_t done, uint64_t total)
{
    on_progress(ud, done, total, 0);
}

static void build_views(struct loader *ld)
{
    struct report_opts ro = {0};
    ro.keyavg.time_scale = 1e3;
    ro.keyavg.time_unit = "us";
    for (int i = 0; i < APP_NVIEWS && !ld->cancel; i++) {
        struct table_list list = {0};
        char msg[256];
        if (i == APP_VIEW_ROOFLINE) {
            /* Its tables come with the roofline itself, which the detail
             * pane also needs. */
            ld->rlv = roofline_view_new(ld->an, ld->o->arch, msg);
            if (!ld->rlv)
                ld->views_err[i] = xstrdup(msg);
            else if (!roofline_view_count(ld->rlv))
                ld->views_err[i] = xstrdup("no op of this trace has a roofline");
            continue;
        }
        if (report_build(ld->an, app_view_names[i], &ro, &list, msg) && list.items.n) {
            ld->views[i] = list.items.v[0];
            list.items.v[0] = NULL;
            for (size_t k = 1; k < list.items.n; k++)
                table_free(list.items.v[k]);
            VEC_FREE(&list.items);
        } else {
            ld->views_err[i] = xstrdup(msg[0] ? msg : "this table is empty for this trace");
            table_list_free(&list);
        }
    }
}

static void *load_thread(void *arg)
{
    struct loader *ld = arg;
    struct load_opts lo = {
        .threads = ld->o->threads,
        .progress = on_progress,
        .progress_ud = ld,
        .cancel = &ld->cancel,
    };
    const char *name = ld->o->name ? ld->o->name : ld->o->path;
    if (ld->o->snapshot) {
        struct snapshot_load_opts so = {
            .progress = on_snap_progress,
            .progress_ud = ld,
            .cancel = &ld->cancel,
        };
        ld->st = snapshot_load_source(ld->o->src, &so, &ld->snap, &ld->err);
        atomic_store(&ld->phase, PH_DONE);
        return NULL;
    }
    lo.no_index = ld->o->ncaptures > 0; /* the captures are merged in first */
    if (ld->o->src)
        ld->st = trace_load_source(ld->o->src, &lo, &ld->t, &ld->err);
    else if (ld->o->mem)
        ld->st = trace_load_mem(name, ld->o->mem, ld->o->mem_len, &lo, &ld->t, &ld->err);
    else
        ld->st = trace_load_file(ld->o->path, &lo, &ld->t, &ld->err);
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
        trace_index(ld->t);
    }
    if (ld->t && ld->t->ev.n && ld->st != ST_CANCELLED && !ld->cancel) {
        atomic_store(&ld->phase, PH_ANALYSE);
        ld->an = analysis_new(ld->t);
        build_views(ld);
    }
    atomic_store(&ld->phase, PH_DONE);
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The progress screen: bytes, percent, events per second and ETA. */
static void draw_progress(struct loader *ld, const char *name, double start, bool ascii)
{
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    werase(stdscr);
    uint64_t done = atomic_load(&ld->done), total = atomic_load(&ld->total);
    uint64_t events = atomic_load(&ld->events);
    int phase = atomic_load(&ld->phase);
    double el = now_s() - start;
    int w = MIN(cols - 4, 72);
    int y = MAX(0, lines / 2 - 3), x = MAX(0, (cols - w) / 2);
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "torchtop: loading %s", name);
    draw_fit(stdscr, y, x, w, sb_str(&sb), sb.len, true, false, A_BOLD, ascii);
    double frac = total ? (double)done / (double)total : 0;
    if (phase >= PH_ANALYSE)
        frac = 1;
    int bw = w - 8;
    if (bw > 0) {
        int fill = (int)(frac * bw + 0.5);
        const char *full = ascii ? "#" : "\xe2\x96\x88", *empty = ascii ? "." : "\xe2\x96\x91";
        mvwaddstr(stdscr, y + 2, x, "[");
        for (int i = 0; i < bw; i++)
            waddstr(stdscr, i < fill ? full : empty);
        wprintw(stdscr, "] %3.0f%%", 100 * frac);
    }
    char b1[32], b2[32];
    text_bytes(b1, sizeof(b1), done);
    sb_clear(&sb);
    if (phase >= PH_ANALYSE) {
        sb_printf(&sb, "%llu events read; building the call tree and tables...",
                  (unsigned long long)events);
    } else if (total && ld->o->snapshot) {
        text_bytes(b2, sizeof(b2), total);
        double eta = frac > 0.01 ? el * (1 - frac) / frac : 0;
        sb_printf(&sb, "%s of %s  ETA %.0f s", b1, b2, eta);
    } else if (total) {
        text_bytes(b2, sizeof(b2), total);
        double rate = el > 0 ? (double)events / el : 0;
        double eta = frac > 0.01 ? el * (1 - frac) / frac : 0;
        sb_printf(&sb, "%s of %s  %llu events  %.0fk events/s  ETA %.0f s", b1, b2,
                  (unsigned long long)events, rate / 1e3, eta);
    } else {
        sb_printf(&sb, "%s  %llu events", b1, (unsigned long long)events);
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
            draw_progress(ld, name, start, ascii);
        int ch = getch();
        if (ch == KEY_CTRL('c') || ch == 'q' || ch == KEY_ESC || term_stop_requested()) {
            ld->cancel = 1;
            cancelled = true;
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

static void loop(struct app *a)
{
    app_render(a);
    bool progressed = false;
    while (!a->quit) {
        /* Keys are read through the message line's window: reading
         * through stdscr would repaint stdscr (blank after a resize) over
         * the panes, and the prompt's cursor lives in that window. */
        WINDOW *in = a->w_message ? a->w_message : stdscr;
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
            app_message(a, "Esc %s: a key this terminal type (TERM) does not describe", seq);
        else
            app_key(a, key);
        /* The key's screen first; background work goes on at the next
         * turn (without waiting, as progressed is set). */
        app_render(a);
        progressed = true;
    }
}

static void free_loader(struct loader *ld)
{
    for (int i = 0; i < APP_NVIEWS; i++) {
        table_free(ld->views[i]);
        free(ld->views_err[i]);
    }
    roofline_view_free(ld->rlv);
    analysis_free(ld->an);
    trace_free(ld->t);
    snapshot_free(ld->snap);
    errinfo_clear(&ld->err);
}

int tui_main(const struct tui_opts *o)
{
    bool ascii = o->ascii;
    const char *cs = nl_langinfo(CODESET);
    if (!cs || strcmp(cs, "UTF-8") != 0)
        ascii = true;
    bool mono = o->no_color || (getenv("NO_COLOR") && *getenv("NO_COLOR"));
    const char *shown = o->name ? o->name : base_name(o->path);

    struct loader ld = {.o = o};
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

    if (headless && !term_open_headless(o->script_lines ? o->script_lines : 30,
                                        o->script_cols ? o->script_cols : 100)) {
        free(warning);
        free_loader(&ld);
        return 1;
    }

    struct app a = {0};
    a.t = ld.t;
    a.an = ld.an;
    if (ld.snap) {
        a.snap = snapview_new(ld.snap);
        ld.snap = NULL;
    }
    a.rlv = ld.rlv;
    ld.rlv = NULL;
    for (int i = 0; i < APP_NVIEWS; i++) {
        a.views[i] = ld.views[i];
        a.views_err[i] = ld.views_err[i];
    }
    a.name = xstrdup(shown);
    a.load_warning = warning;
    a.back_quits = o->back_quits;
    a.srcpath = o->srcpath;
    errinfo_clear(&ld.err);
    app_init(&a, ascii, headless);
    int rc = 0;
    if (headless)
        rc = script_run(&a, o->script, o->script_timing);
    else
        loop(&a);
    app_done(&a);
    term_close();
    return rc ? rc : status;
}
