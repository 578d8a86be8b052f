/* Where the trace of a rank read from a summary is: the summary's
 * "source" field, which is data from a file, not a path to trust. */
#ifndef TORCHTOP_CORE_RANKSUM_TRACE_H
#define TORCHTOP_CORE_RANKSUM_TRACE_H

#include "core/base/errinfo.h"
#include "core/job/ranksum.h"

/* The trace of rank s as a path to open, or NULL with err filled (ST_IO)
 * saying why not.
 *
 * For a rank read from a summary file (s->file), its "source" is resolved
 * relative to the summary's directory, the way summaries are moved with
 * their traces (an absolute source stays as it is); for a rank built from
 * a trace, that trace's path as given. The path is returned only if it
 * names a regular file now: it is opened without waiting (O_NONBLOCK, so
 * a FIFO never blocks), checked with fstat and closed. A FIFO, a device,
 * a directory or a missing file gives NULL and an err naming the path and
 * what it is. The caller opens the path with source_open_regular, which
 * checks again, so a file swapped in between is refused too. The caller
 * frees the path. */
char *ranksum_trace_path(const struct ranksum *s, struct errinfo *err);

#endif
