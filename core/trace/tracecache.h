/* The trace cache: a loaded, indexed trace kept on disk, so that opening
 * the same file again reads it back instead of parsing the JSON.
 *
 * Where: $XDG_CACHE_HOME/torchtop/ (default ~/.cache/torchtop/), never the
 * trace's own folder; one file per trace, named by its key, "KEY.ttc".
 * When: a trace of TRACECACHE_MIN_BYTES or more (TORCHTOP_CACHE_MIN_BYTES
 * overrides it), read from a regular file, loaded without a fault and
 * indexed without capture traces merged in. Off with TORCHTOP_CACHE=0 or
 * the commands' --no-cache. The folder holds at most
 * TRACECACHE_MAX_BYTES (TORCHTOP_CACHE_MAX_BYTES overrides it): the caches
 * used longest ago are deleted first.
 *
 * Key: the trace file's size, modification time and a hash of its first
 * and last MiB, and the loading options that change what is built
 * (load_opts.link_require_flow).
 *
 * The cache is untrusted input: its header, section table and every
 * section are checksummed, and every index and offset in it is checked
 * before the trace is handed out (tracecache_check); a cache that fails
 * is ignored with a note and written again from the parse. A cache is
 * written to a temporary file in the folder and renamed into place, so
 * that processes opening the same trace at once each read a whole cache
 * or none. The load writes it at once, or hands the write out
 * (load_opts.cache_later) for after the caller's output: in the explorer
 * on a thread of its own, which a quit stops (tracecache_later_*). The
 * format is described in tracecache_file.c.
 *
 * What is not cached: the analyses, and the tables of the first screen
 * made from them. On the second open of a 1 GB trace the first screen's
 * CPU time goes about half to reading and checking the cache (checksums,
 * every index and offset, on two threads), a third to the analysis and
 * the first screen's tables, and the rest to the kernel mapping pages:
 * the tables do not dominate it. Keeping them would save at most that
 * third, and would add a record per table to check as untrusted input and
 * to version with every change to the analyses. */
#ifndef TORCHTOP_CORE_TRACECACHE_H
#define TORCHTOP_CORE_TRACECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/source.h"
#include "core/base/strbuf.h"
#include "core/trace/load.h"
#include "core/trace/trace.h"

#define TRACECACHE_MIN_BYTES (UINT64_C(64) << 20)
#define TRACECACHE_MAX_BYTES (UINT64_C(4) << 30)

/* What a cache must match to stand for a trace file. */
struct tracecache_key {
    uint64_t size;     /* of the trace file */
    int64_t mtime_ns;  /* its modification time */
    uint64_t edges;    /* hash of its first and last MiB */
    uint32_t options;  /* enum tracecache_option */
    uint32_t reserved; /* 0 */
};

enum tracecache_option {
    TRACECACHE_LINK_REQUIRE_FLOW = 1 << 0,
};

/* One open of a trace through the cache. */
struct tracecache {
    bool active; /* the trace may come from, or go to, the cache */
    char *path;  /* the cache file for this trace (owned) */
    char *dir;   /* the cache folder (owned) */
    uint64_t max_bytes;
    struct tracecache_key key;
    struct strbuf *notes; /* where notes go; NULL: stderr */
};

/* Whether src (opened, nothing read yet) is a trace to cache with these
 * options: fills tc (key, paths) and returns true; false (tc inactive)
 * for a trace too small, not a regular file, caching turned off, or no
 * cache folder. Notes go to notes (one line each), or stderr when NULL. */
bool tracecache_begin(struct tracecache *tc, struct source *src, const struct load_opts *opts,
                      struct strbuf *notes);
/* The trace as cached, named name; NULL when there is no cache or it was
 * refused (with a note). */
struct trace *tracecache_open(struct tracecache *tc, const char *name);
/* Write t (loaded from tc's trace, indexed) to the cache, then keep the
 * folder within its bound. A failure is a note; the trace is unchanged. */
void tracecache_store(struct tracecache *tc, const struct trace *t);
void tracecache_end(struct tracecache *tc);

/* A cache write put off until the caller's first output is out
 * (load_opts.cache_later): writing a large cache takes about a third of
 * the parse, which the user should not wait for. It takes over tc (left
 * inactive); its notes go where tc's went. */
struct tracecache_later *tracecache_later_new(struct tracecache *tc);
/* Write the cache of t (the trace that load handed out, unchanged since)
 * here and now, then free l. NULL is fine. */
void tracecache_later_write(struct tracecache_later *l, const struct trace *t);
/* Write it on a thread of its own and return at once: t must stay
 * unchanged and allocated until tracecache_later_finish. Without a thread
 * it is written here. */
void tracecache_later_start(struct tracecache_later *l, const struct trace *t);
/* Wait for a started write, or with abandon stop it: the write stops
 * within a few MiB, its temporary file is removed, and the cache is either
 * whole (it was renamed into place first) or not there. A write never
 * started is dropped. Frees l (NULL is fine); returns the notes of a
 * started write (owned; NULL: none), which the caller shows when the
 * terminal is its own again. */
char *tracecache_later_finish(struct tracecache_later *l, bool abandon);

/* Which outcome tracecache_read_file had. */
enum tracecache_result { TRACECACHE_OK, TRACECACHE_MISSING, TRACECACHE_BAD };

/* Write t to path (through a temporary file beside it, renamed onto path
 * once whole) under key. false with why filled on failure; stop
 * (optional) set makes it fail with ECANCELED, the temporary file
 * removed. */
bool tracecache_write_file(const char *path, const struct tracecache_key *key,
                           const struct trace *t, const volatile int *stop, char *why,
                           size_t whylen);
/* Read path, which must be a cache under key. TRACECACHE_OK with *out a
 * trace named name; TRACECACHE_MISSING when there is no such file;
 * TRACECACHE_BAD with why filled when it is not a cache, another
 * version's, another file's, damaged or inconsistent. */
enum tracecache_result tracecache_read_file(const char *path, const struct tracecache_key *key,
                                            const char *name, struct trace **out, char *why,
                                            size_t whylen);
/* Whether every index and offset in t stays within the arrays it points
 * into, the call tree and the other links hold no cycle, and every packed
 * argument reads; what a trace read from a cache must pass before anyone
 * walks it. false with why filled at the first failure. */
bool tracecache_check(const struct trace *t, char *why, size_t whylen);

#endif
