/* A load progress line on stderr for batch commands. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
    p->name = name;
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->start = now();
}

void progress_update(void *ud, uint64_t done, uint64_t total, uint64_t events)
{
    struct progress *p = ud;
    if (!p->enabled)
        return;
    double t = now();
    /* Quiet for quick loads; then at most ten updates a second. */
    if (t - p->start < 0.5 || t - p->last < 0.1)
        return;
    p->last = t;
    p->shown = true;
    double el = t - p->start;
    if (total) {
        double frac = (double)done / (double)total;
        double eta = frac > 0 ? el * (1 - frac) / frac : 0;
        fprintf(stderr, "\rloading %.40s  %3.0f%%  %.0f/%.0f MB  %.2fM events/s  ETA %.0fs   ",
                p->name, 100 * frac, (double)done / 1e6, (double)total / 1e6,
                (double)events / el / 1e6, eta);
    } else {
        fprintf(stderr, "\rloading %.40s  %.0f MB  %.2fM events/s   ", p->name, (double)done / 1e6,
                (double)events / el / 1e6);
    }
    fflush(stderr);
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

void phase_timer_mark(struct phase_timer *t, const char *name)
{
    if (!t->enabled)
        return;
    double n = now();
    fprintf(stderr, "torchtop: timing %-9s %.3f s\n", name, n - t->last);
    t->last = n;
}
