/* What the subcommands share about their command line and their output:
 * counts parsed strictly, and a text output written whole. */
#ifndef TORCHTOP_SRC_CLIOUT_H
#define TORCHTOP_SRC_CLIOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"

/* s as a decimal integer within [lo, hi], nothing else around it. */
bool cliout_parse_count(const char *s, long lo, long hi, long *out);

/* Write sb whole to path: NULL or "-" is standard output; a file is
 * written beside its target and renamed onto it when complete
 * (core/base/outfile), so a failure leaves the old file as it was. On
 * failure one line "torchtop CMD: cannot write PATH: reason" (PATH
 * sanitized) goes to stderr. Returns EXIT_OK or EXIT_FAILURE_RUN. */
int cliout_write(const char *cmd, const char *path, const struct strbuf *sb);

/* The command's output is complete and work it does not show follows (a
 * cache write): standard output is flushed, then pointed at /dev/null, so
 * that a reader of a pipe gets its end of file now. */
void cliout_release_stdout(void);

/* Before anything is read: refuse an output outs[i] (NULL entries are
 * skipped) that is the input `in` or a file of a --capture argument
 * (a capture file, or each trace of a capture directory). One line
 * "torchtop CMD: OUT: the output is the same file as the input IN; ..."
 * ("torchtop: ..." when cmd is NULL) on stderr and EXIT_FAILURE_RUN, else EXIT_OK. A capture
 * directory that cannot be listed is left to the load to report. */
int cliout_check_outputs(const char *cmd, const char *const *outs, size_t nouts, const char *in,
                         const char *const *captures, size_t ncaptures);

#endif
