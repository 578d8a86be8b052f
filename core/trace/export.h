/* Chrome-trace (Kineto JSON) export of a slice of a trace, small enough to
 * open in Perfetto or chrome://tracing.
 *
 * Selections:
 *   window  host spans that overlap [from, to), whole; the GPU work their
 *           runtime calls launched; any device-row event, instant or
 *           counter that overlaps the window (GPU work linked to a launch
 *           goes with its launch, in or out);
 *   windows what any of several windows keeps (several steps);
 *   step    the window of profiler step N (the "ProfilerStep#N" host span:
 *           an annotation, or an op in pre-1.10 traces);
 *   match   host spans whose name matches a regular expression, with their
 *           whole subtrees and the GPU work launched inside them;
 *   subtree one host span with its subtree and its GPU work.
 * Each selection also keeps every instant ([memory] and others) whose
 * innermost enclosing span on its row it keeps.
 * Always kept: every metadata record and every top-level key, so the slice
 * names its processes and threads and keeps its time base. Flow points are
 * kept when the event they bind to is kept and so is every other point of
 * the same flow.
 *
 * When every event is kept (EXPORT_ALL, or a window over everything) the
 * export is the trace again: every flow point, every event of a phase
 * torchtop does not model (B, E, b, e, n: trace.others), each metadata
 * record as many times as it was repeated, and every event with its
 * fields and their JSON types as written (event.raw where the loaded
 * fields would not rebuild it). */
#ifndef TORCHTOP_CORE_EXPORT_H
#define TORCHTOP_CORE_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/base/errinfo.h"
#include "core/base/strbuf.h"
#include "core/trace/trace.h"

enum export_kind {
    EXPORT_ALL,
    EXPORT_WINDOW,
    EXPORT_WINDOWS,
    EXPORT_STEP,
    EXPORT_MATCH,
    EXPORT_SUBTREE
};

struct export_window {
    int64_t from, to; /* ns, same clock as event.ts; from < to */
};

struct export_sel {
    enum export_kind kind;
    int64_t from, to;                    /* EXPORT_WINDOW: ns, same clock as event.ts */
    const struct export_window *windows; /* EXPORT_WINDOWS: what overlaps any */
    size_t nwindows;                     /* of them, as a window would keep */
    int64_t step;                        /* EXPORT_STEP: N of ProfilerStep#N */
    const char *regex;                   /* EXPORT_MATCH: POSIX extended regex */
    uint32_t root;                       /* EXPORT_SUBTREE: the span */
};

/* Mark the events to keep: keep[i] = 1 for each (keep has t->ev.n bytes).
 * Returns false with a message in err (size 256) when the selection is
 * invalid (no such step, bad regex) or selects nothing. */
bool export_select(const struct trace *t, const struct export_sel *sel, uint8_t *keep, char *err);

/* Write the kept events (and the flows and metadata that go with them) as
 * a Kineto JSON document to path, gzip-compressed when gzip is set. Counts
 * of what was written go to *n_events and *n_flows when not NULL. */
enum status export_chrome(const struct trace *t, const uint8_t *keep, const char *path, bool gzip,
                          uint64_t *n_events, uint64_t *n_flows, struct errinfo *err);

/* The same document a piece at a time, for a scope (scope.h) that loads
 * it back as it is written: the whole text is never held. t and keep must
 * outlive the stream. */
struct export_stream;
struct export_stream *export_stream_open(const struct trace *t, const uint8_t *keep);
/* Up to cap more bytes of the document into buf: the count, 0 at its end,
 * or -1 when the input cannot be read again for the texts kept as written
 * (err filled). */
ssize_t export_stream_read(struct export_stream *s, void *buf, size_t cap, struct errinfo *err);
/* Whether the writing failed (a kept text could not be read again): its
 * fault, as export would tell it, into err. */
bool export_stream_fault(struct export_stream *s, struct errinfo *err);
void export_stream_close(struct export_stream *s);

#endif
