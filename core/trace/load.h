/* Loading Kineto / Chrome-trace JSON into a struct trace.
 *
 * The `traceEvents` array is streamed: the input is cut into batches of
 * whole events, each event is parsed alone with cJSON (arena-backed) and
 * turned into compact records; no DOM of the file is ever built. Batches
 * are parsed on worker threads and merged in file order, so the result does
 * not depend on the thread count. Other top-level keys, before or after
 * `traceEvents`, are kept in trace.top.
 *
 * After the events, trace_index() (tree.h) builds the call tree and links.
 * With load_opts.use_cache, a large trace opened again is mapped from its
 * cache instead, indexed already, and one parsed is written to it
 * (tracecache.h). */
#ifndef TORCHTOP_CORE_LOAD_H
#define TORCHTOP_CORE_LOAD_H

#include <stdint.h>

#include "core/base/errinfo.h"
#include "core/base/source.h"
#include "core/base/strbuf.h"
#include "core/trace/trace.h"

/* The phases of opening a trace, in the order they run; each reports its
 * own progress from 0 towards its total. */
enum load_phase {
    LOAD_PHASE_READ,    /* done/total: raw input bytes (total 0 when unknown, e.g. a pipe) */
    LOAD_PHASE_INDEX,   /* done/total: steps of trace_index (tree.h) */
    LOAD_PHASE_ANALYSE, /* done/total: analyses built; reported by the caller (the explorer) */
    LOAD_PHASE__COUNT
};

/* Progress: the phase, how far it is (done of total, both 0 at its start
 * when the total is not known yet), and events stored so far. Called from
 * the loading thread; a phase is reported at least once, at its start,
 * and never after a later one. */
typedef void (*load_progress_fn)(void *ud, enum load_phase phase, uint64_t done, uint64_t total,
                                 uint64_t events);

/* The phase's name as the progress line shows it ("reading", "indexing",
 * "analysing"). */
const char *load_phase_name(enum load_phase phase);

/* The most parser threads a load runs (struct load_opts.threads). */
#define LOAD_MAX_THREADS 64

/* A trace event, or a top-level key or value, longer than this is refused
 * (ST_LIMIT at its first byte; everything before it is kept): real events
 * are a few KiB, and the loader holds one whole in memory to parse it. */
#define LOAD_MAX_VALUE_BYTES (16u << 20)
/* Parsing one event may take this much memory (cJSON's nodes, some 64
 * bytes for each value of the event); an event that needs more is refused
 * (ST_LIMIT). Each parser thread holds at most this much at a time. */
#define LOAD_MAX_EVENT_MEMORY (128u << 20)
/* Times (ts, and ts + dur) lie strictly within +-this many nanoseconds
 * (146 years around 1970): any difference of two times then fits an
 * int64. An event outside is a fault (ST_LIMIT). */
#define LOAD_MAX_TIME_NS (INT64_C(1) << 62)

struct tracecache_later;

struct load_opts {
    unsigned threads;          /* parser threads, 1..LOAD_MAX_THREADS; 0 = one per core (max 4) */
    load_progress_fn progress; /* optional */
    void *progress_ud;
    const volatile int *cancel;            /* optional: loading stops when *cancel != 0 */
    bool no_index;                         /* skip trace_index() (for tests of the loader) */
    bool link_require_flow;                /* TraceLens's linking: see trace.link_require_flow */
    bool regular_only;                     /* trace_load_file: a regular file only, for a file the
                                              user did not name (source_open_regular) */
    bool use_cache;                        /* read the trace from its cache when there is one, and
                                              write one after parsing (tracecache.h) */
    struct strbuf *cache_notes;            /* the cache's notes (a bad cache ignored, a write that
                                              failed), one line each; NULL: on stderr */
    struct tracecache_later **cache_later; /* optional, with use_cache: a cache to write
                                              is not written during the load but handed
                                              out here (NULL: none), for the caller to
                                              write once its output is out
                                              (tracecache.h); *cache_later is set only
                                              when there is one */
};

/* Load path ("-" = stdin). *out always receives a trace, possibly empty,
 * holding every event that was complete and valid before any fault; the
 * caller frees it with trace_free. Returns ST_OK, or the status of the
 * first fault with err filled (file, byte offset, what was expected).
 * Some faults lose nothing and loading goes on past them (invalid UTF-8
 * in a string, a value read in spite of its type); the first of them is
 * reported when nothing worse is found, and trace.partial tells the two
 * apart. */
enum status trace_load_file(const char *path, const struct load_opts *opts, struct trace **out,
                            struct errinfo *err);
/* Same for an in-memory document; `name` is used in messages. */
enum status trace_load_mem(const char *name, const void *buf, size_t len,
                           const struct load_opts *opts, struct trace **out, struct errinfo *err);
/* Same for an open source (which the caller closes). */
enum status trace_load_source(struct source *src, const struct load_opts *opts, struct trace **out,
                              struct errinfo *err);

/* What a trace whose load reported a fault still holds, for the message
 * that follows the fault's: "the 3 events read before the fault" (events
 * after it are missing: t->partial), "its one event" or "all 12 events"
 * (the fault lost nothing). NULL when t holds no event: there is nothing
 * to show. The caller frees the string. */
char *trace_load_kept(const struct trace *t);

#endif
