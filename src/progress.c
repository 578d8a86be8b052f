/* A load progress line on stderr for batch commands. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/base/display.h"
#include "src/progress.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, const char *name, bool quiet)
{
    memset(p, 0, sizeof(*p));
    struct strbuf sb = STRBUF_INIT;
    display_fit(&sb, name, strlen(name), 40, true, false);
    snprintf(p->name, sizeof(p->name), "%s", sb_str(&sb));
    sb_free(&sb);
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->start = now();
    p->phase_start = p->start;
}

void progress_update(void *ud, enum load_phase phase, uint64_t done, uint64_t total,
                     uint64_t events)
{
    struct progress *p = ud;
    /* A new phase starts its own clock (kept shown or not: phase timings
     * read it) and is shown at once (after the first half second), so that
     * a finished read never sits at 100 %. */
    bool changed = phase != p->phase;
    if (changed) {
        p->phase = phase;
        p->phase_start = now();
    }
    if (!p->enabled)
        return;
    double t = changed ? p->phase_start : now();
    /* Quiet for quick loads; then at most ten updates a second. */
    if (t - p->start < 0.5 || (!changed && t - p->last < 0.1))
        return;
    p->last = t;
    p->shown = true;
    double el = t - p->phase_start;
    if (phase != LOAD_PHASE_READ) {
        double frac = total ? (double)done / (double)total : 0;
        fprintf(stderr, "\r\033[K%s %s  %3.0f%%", load_phase_name(phase), p->name, 100 * frac);
        if (events)
            fprintf(stderr, "  %.2fM events", (double)events / 1e6);
    } else if (total) {
        double frac = (double)done / (double)total;
        double eta = frac > 0 ? el * (1 - frac) / frac : 0;
        fprintf(stderr, "\rreading %s  %3.0f%%  %.0f/%.0f MB  %.2fM events/s  ETA %.0fs   ",
                p->name, 100 * frac, (double)done / 1e6, (double)total / 1e6,
                el > 0 ? (double)events / el / 1e6 : 0, eta);
    } else {
        fprintf(stderr, "\rreading %s  %.0f MB  %.2fM events/s   ", p->name, (double)done / 1e6,
                el > 0 ? (double)events / el / 1e6 : 0);
    }
    fflush(stderr);
}

void progress_index_step(void *ud, unsigned done, unsigned total)
{
    progress_update(ud, LOAD_PHASE_INDEX, done, total, 0);
}

void progress_done(struct progress *p)
{
    if (p->shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

void phase_timer_init(struct phase_timer *t)
{
    const char *env = getenv("TORCHTOP_TIMING");
    t->enabled = env && *env;
    t->last = now();
}

void phase_timer_mark_at(struct phase_timer *t, const char *name, double at)
{
    if (!t->enabled)
        return;
    fprintf(stderr, "torchtop: timing %-9s %.3f s\n", name, at - t->last);
    t->last = at;
}

void phase_timer_mark(struct phase_timer *t, const char *name)
{
    phase_timer_mark_at(t, name, now());
}
