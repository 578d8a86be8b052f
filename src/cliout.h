/* What the subcommands share about their command line and their output:
 * counts parsed strictly, and a text output written whole. */
#ifndef TORCHTOP_SRC_CLIOUT_H
#define TORCHTOP_SRC_CLIOUT_H

#include <stdbool.h>

#include "core/base/strbuf.h"

/* s as a decimal integer within [lo, hi], nothing else around it. */
bool cliout_parse_count(const char *s, long lo, long hi, long *out);

/* Write sb whole to path: NULL or "-" is standard output; a file is
 * written beside its target and renamed onto it when complete
 * (core/base/outfile), so a failure leaves the old file as it was. On
 * failure one line "torchtop CMD: cannot write PATH: reason" (PATH
 * sanitized) goes to stderr. Returns EXIT_OK or EXIT_FAILURE_RUN. */
int cliout_write(const char *cmd, const char *path, const struct strbuf *sb);

#endif
