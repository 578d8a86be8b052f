/* Output files that are written whole or not at all.
 *
 * A regular target is written to a temporary file beside it (same
 * directory, so the rename cannot cross file systems) and renamed onto it
 * only when complete: a failure, a fault or a signal leaves the old file
 * as it was. Standard output ("-" or /dev/stdout) and other targets that
 * are not regular files (FIFOs, terminals, devices) are streams and are
 * written in place.
 *
 * Before anything is read, outfile_check_distinct() refuses an output that
 * is the same file as an input, so that a command never overwrites what it
 * reads; and outfile_open refuses a target that is a file this process has
 * read (input_registry.h), whatever reached it.
 *
 * Every failing call leaves errno at the reason (for callers with their own
 * message format). */
#ifndef TORCHTOP_CORE_OUTFILE_H
#define TORCHTOP_CORE_OUTFILE_H

#include <stdbool.h>

#include "core/base/errinfo.h"

struct outfile {
    char *path;   /* the target as given */
    char *target; /* where the rename lands: path, or the file a symlink names */
    char *tmp;    /* the temporary file while open, else NULL */
    int fd;       /* where to write (owned; standard output is never closed);
                     by-path mode: the stream, or -1 */
    bool stream;  /* the target is written in place (no temporary file) */
    bool by_path; /* another library writes tmp by name (outfile_open_path) */
};

/* Whether `out` and `in` name the same file: device and inode after
 * symlinks, so a symlink or a hardlink to the input counts. "-" stands for
 * standard output (out) or standard input (in). Returns ST_OK when they
 * differ or when either does not exist yet; ST_IO with err naming both
 * ("refusing to write OUT: it is the input IN") when they are the same
 * file. */
enum status outfile_check_distinct(const char *out, const char *in, struct errinfo *err);

/* Open `path` for writing: "-" is standard output; a target that exists
 * and is not a regular file is opened in place; a regular file that is
 * an input read so far is refused (ST_IO, errno EEXIST, err naming both
 * as outfile_check_distinct does); anything else gets a
 * temporary file in the target's directory (mode 0666 less the umask, or
 * the existing file's mode). o->fd is where to write. Returns ST_OK, or
 * ST_IO with err filled (nothing is left behind). */
enum status outfile_open(struct outfile *o, const char *path, struct errinfo *err);

/* For a library that opens its output by name (libxlsxwriter): as
 * outfile_open, but the caller hands o->tmp to the library, which writes
 * it. For a stream target, o->tmp is a temporary file under $TMPDIR (or
 * /tmp) whose bytes outfile_commit copies into the stream. */
enum status outfile_open_path(struct outfile *o, const char *path, struct errinfo *err);

/* Finish: close the descriptor and rename the temporary file onto the
 * target (or copy it into the stream in by-path mode). On failure the
 * temporary file is removed, the target is untouched, and ST_IO is
 * returned with err filled. The outfile is closed either way. */
enum status outfile_commit(struct outfile *o, struct errinfo *err);

/* Give up: close and remove the temporary file; the target is untouched.
 * Safe on an outfile that failed to open or was already closed. */
void outfile_discard(struct outfile *o);

/* Remove every temporary file of an outfile still open. Async-signal-safe:
 * for SIGINT/SIGTERM handlers, which then end the process. */
void outfile_unlink_pending(void);

#endif
