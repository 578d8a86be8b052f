/* The files this process has opened as inputs, so that no output replaces
 * one of them.
 *
 * Every regular file a source opens (source.h) is recorded here by device
 * and inode; outfile_open() refuses a target that is one of them. This is
 * the backstop behind the commands' early checks (outfile_check_distinct
 * before anything is read): it covers every input whatever reached it (a
 * file inside a --capture or job directory, a glob's match, a summary) and
 * every output whatever wrote it (-o, --xlsx, --svg, --chrome, -o of
 * summarize). Thread-safe: ranks of a job are opened in parallel. */
#ifndef TORCHTOP_CORE_INPUT_REGISTRY_H
#define TORCHTOP_CORE_INPUT_REGISTRY_H

#include <stdbool.h>
#include <sys/stat.h>

/* Record the file st describes (a regular file opened as `path`) as an
 * input. Files that are not regular are not recorded: they hold no data
 * an output could destroy. */
void input_registry_add(const struct stat *st, const char *path);

/* The path an input with st's device and inode was opened as (a copy the
 * caller frees), or NULL when no input is that file. */
char *input_registry_find(const struct stat *st);

/* Forget every input (for tests). */
void input_registry_clear(void);

#endif
