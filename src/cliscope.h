/* The scope options every subcommand that reads one trace takes (--step,
 * --skip-steps, --window, --match; core/trace/scope.h), their help text,
 * and applying them to a loaded trace. */
#ifndef TORCHTOP_SRC_CLISCOPE_H
#define TORCHTOP_SRC_CLISCOPE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/trace/scope.h"

/* getopt_long codes of the scope options, above every subcommand's own. */
enum {
    CLISCOPE_STEP = 1000,
    CLISCOPE_SKIP,
    CLISCOPE_WINDOW,
    CLISCOPE_MATCH,
    CLISCOPE_ITERATION,
};

/* The options, to put in a getopt_long table. */
/* clang-format off */
#define CLISCOPE_LONGOPTS                                       \
    {"step", required_argument, NULL, CLISCOPE_STEP},           \
    {"skip-steps", required_argument, NULL, CLISCOPE_SKIP},     \
    {"window", required_argument, NULL, CLISCOPE_WINDOW},       \
    {"match", required_argument, NULL, CLISCOPE_MATCH},         \
    {"iteration", required_argument, NULL, CLISCOPE_ITERATION}
/* clang-format on */

/* Whether ch is a scope option. */
static inline bool cliscope_is_option(int ch)
{
    return ch >= CLISCOPE_STEP && ch <= CLISCOPE_ITERATION;
}

/* Take option ch's value into s; false after a one-line message on stderr
 * ("torchtop CMD: ...") when it is not what the option takes. */
bool cliscope_option(const char *cmd, int ch, const char *arg, struct scope *s);

/* The options' lines for --help. */
void cliscope_usage(FILE *f);

/* scope_apply, the windows of --iteration's iterations found in *t first
 * (core/roofline/iterations.h). */
enum scope_result cliscope_scope(struct trace **t, const struct scope *s,
                                 const struct load_opts *lo, char *msg, struct errinfo *err);

/* scope_select, likewise. */
bool cliscope_select(const struct trace *t, const struct scope *s, uint8_t *keep, char *msg);

/* Scope *t (loaded and indexed) when s holds any part; 0, else one line
 * on stderr and the exit status (EXIT_USAGE for a scope the trace does
 * not have, EXIT_BAD_INPUT when the input cannot be read again). */
int cliscope_apply(const char *cmd, struct trace **t, const struct scope *s,
                   const struct load_opts *lo);

#endif
