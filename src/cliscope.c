/* Scope options on the command line. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/xalloc.h"
#include "core/roofline/iterations.h"
#include "src/cliscope.h"
#include "src/commands.h"

bool cliscope_option(const char *cmd, int ch, const char *arg, struct scope *s)
{
    char err[256];
    bool ok = true;
    switch (ch) {
    case CLISCOPE_STEP:
        ok = scope_parse_steps(s, arg, err);
        break;
    case CLISCOPE_SKIP:
        ok = scope_parse_skip(s, arg, err);
        break;
    case CLISCOPE_WINDOW:
        ok = scope_parse_window(s, arg, err);
        break;
    case CLISCOPE_MATCH:
        s->match = arg;
        break;
    case CLISCOPE_ITERATION: {
        unsigned k;
        ok = iterations_kind_parse(arg, &k) && k != ITER_EMPTY;
        if (ok)
            s->iteration = iterations_kind_name(k);
        else if ((ok = strcmp(arg, ITERATIONS_STEADY) == 0))
            s->iteration = ITERATIONS_STEADY;
        else
            snprintf(err, 256, "--iteration is prefill, decode, mixed or steady");
        break;
    }
    }
    if (!ok) {
        struct strbuf sb = STRBUF_INIT;
        display_sanitize(&sb, arg, strlen(arg));
        fprintf(stderr, "torchtop %s: %s (not '%s')\n", cmd, err, sb_str(&sb));
        sb_free(&sb);
    }
    return ok;
}

void cliscope_usage(FILE *f)
{
    fprintf(f, "Scope (the parts combine; every table then covers what 'torchtop export' writes\n"
               "for the same options, and the header says how much of the trace that is):\n"
               "      --step LIST        profiler steps: N, N,M or N-M (ProfilerStep#N)\n"
               "      --skip-steps K     every step but the first K (warm-up left out)\n"
               "      --window A:B       from A to B after the trace's first event (ms, or with\n"
               "                         a unit: 300us, 2.5ms, 1s), or after a step's start:\n"
               "                         step5+2ms:step5+8ms\n"
               "      --match REGEX      the subtrees of host spans (ops, annotations) whose\n"
               "                         names match (POSIX extended), with their GPU work\n"
               "      --iteration KIND   serving iterations: prefill, decode or mixed, or\n"
               "                         steady (the steady-state window: the longest run of\n"
               "                         one kind while the server runs at its peak load)\n");
}

enum scope_result cliscope_scope(struct trace **t, const struct scope *s,
                                 const struct load_opts *lo, char *msg, struct errinfo *err)
{
    struct export_window *w;
    struct scope with = iterations_scope(*t, s, &w);
    enum scope_result r = scope_apply(t, &with, lo, msg, err);
    free(w);
    return r;
}

bool cliscope_select(const struct trace *t, const struct scope *s, uint8_t *keep, char *msg)
{
    struct export_window *w;
    struct scope with = iterations_scope(t, s, &w);
    bool ok = scope_select(t, &with, keep, msg);
    free(w);
    return ok;
}

int cliscope_apply(const char *cmd, struct trace **t, const struct scope *s,
                   const struct load_opts *lo)
{
    if (!scope_any(s))
        return EXIT_OK;
    char msg[256];
    struct errinfo err = {0};
    enum scope_result r = cliscope_scope(t, s, lo, msg, &err);
    int rc = EXIT_OK;
    if (r == SCOPE_EMPTY) {
        struct strbuf sb = STRBUF_INIT;
        display_sanitize(&sb, msg, strlen(msg));
        fprintf(stderr, "torchtop %s: %s\n", cmd, sb_str(&sb));
        sb_free(&sb);
        rc = EXIT_USAGE;
    } else if (r == SCOPE_IO) {
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop: %s\n", m);
        free(m);
        rc = EXIT_BAD_INPUT;
    }
    errinfo_clear(&err);
    return rc;
}
