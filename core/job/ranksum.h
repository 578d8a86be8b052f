/* A rank summary: what the cross-rank tables need of one rank's trace
 * (docs/metrics.md §15), small enough that a job of 1,000 ranks holds all
 * of them while no trace outlives its own summary. Built from a loaded
 * trace (ranksum_from_trace) or read from the file `torchtop summarize`
 * writes (ranksum_io.c; schema in the man page).
 *
 * Times are int64 nanoseconds, absolute (the trace's base_ns added), so
 * ranks of one job line up. Strings live in the summary's own table. */
#ifndef TORCHTOP_CORE_RANKSUM_H
#define TORCHTOP_CORE_RANKSUM_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis/timeline.h"
#include "core/base/errinfo.h"
#include "core/base/interval.h"
#include "core/base/source.h"
#include "core/base/strtab.h"
#include "core/base/vec.h"
#include "core/critpath/cp_bounds.h"
#include "core/trace/trace.h"

/* The summary file's format version (`torchtop_rank_summary` key).
 * Version 1 files (no compute intervals) are still read. */
#define RANKSUM_VERSION 2
/* The most compute intervals a summary keeps (16 bytes each in memory):
 * enough for the job view's lanes, small for a job of 1,000 ranks. */
#define RANKSUM_MAX_BUSY 8192
/* The most JSON a summary file may inflate to: a summary holds some 80
 * bytes per collective, so this is some 200,000 collectives per rank. The
 * JSON reader holds the whole document, up to some 40 bytes of heap per
 * byte, so the bound keeps a summary (or a gzip bomb named like one) from
 * costing more than some 700 MB while it is read. summarize refuses to
 * write a larger one. */
#define RANKSUM_MAX_TEXT (16u << 20)

/* One collective kernel of the rank (TraceLens's filter: a kernel whose
 * name is a collective's, with a correlation or External id). */
struct rank_coll {
    int64_t ts, dur;    /* absolute start and duration, ns */
    int64_t stream;     /* args.stream, else the row's tid */
    uint32_t name;      /* "Collective name", strs id, 0 = absent */
    uint32_t dtype;     /* "dtype", 0 = absent */
    uint32_t pg_name;   /* "Process Group Name", 0 = absent */
    uint32_t pg_ranks;  /* "Process Group Ranks" (text), 0 = absent */
    int32_t group_size; /* "Group size", -1 = absent */
    int64_t in_nelems;  /* "In msg nelems", -1 = absent */
    int64_t out_nelems; /* "Out msg nelems", -1 = absent */
    /* The kernel's "Seq" and "Comms Id" (recent Kineto): the collective's
     * number in its communicator, the same on every rank of it. */
    bool has_seq;
    int64_t seq;
    uint32_t comms_id; /* "Comms Id" as text, 0 = absent */
};

/* GPU time by op: every GPU event (kernel, memcpy, memset) counted under
 * the name of the op that launched it, or its own name when no op did. */
struct rank_op {
    uint32_t name;  /* strs id */
    uint32_t count; /* GPU events */
    int64_t gpu_ns; /* sum of their durations */
};

struct ranksum {
    char *source;                 /* the trace's path as given (kept through summarize) */
    char *file;                   /* the summary file it was read from; NULL when built
                                     from a trace (then source is the file read) */
    int dist_rank;                /* distributedInfo.rank, -1 = none */
    int world_size;               /* distributedInfo.world_size, -1 = none */
    int name_rank;                /* rank from the source's file name, -1 = none */
    struct strtab strs;           /* every string of the summary; id 0 is "" */
    struct timeline_breakdown tl; /* GPU timeline, all devices, every GPU event */
    uint32_t nsteps;              /* ProfilerStep#N spans */
    int64_t steps_ns;             /* their total duration */
    VEC(struct rank_coll) colls;  /* start order */
    VEC(struct rank_op) ops;      /* descending GPU time */
    /* When the GPU ran anything but collectives (every device and stream
     * merged, absolute ns), with every gap shorter than busy_gap_ns
     * closed: the smallest gap (0, else 1 us doubled) that leaves at most
     * RANKSUM_MAX_BUSY intervals. Drawn by the job view's lanes. */
    ivals_t busy;
    int64_t busy_gap_ns; /* -1: not known (a version 1 summary; busy empty) */
    /* What bounds the rank: the critical paths of its steps summed
     * (cp_bounds.h); regions 0 when not known (no path, or a summary
     * written before it was kept). */
    struct cp_bounds cp;
};

/* A new, empty summary (ranks -1); free with ranksum_free. */
struct ranksum *ranksum_new(const char *source);
/* The file this rank was read from, for messages: the summary file, or
 * the trace's path when the summary was built from the trace. */
const char *ranksum_file(const struct ranksum *s);
void ranksum_free(struct ranksum *s);

/* Close the gaps of the set s->busy as the field's comment says (sets
 * busy_gap_ns); s->busy must be normalized (interval.h). */
void ranksum_coarsen_busy(struct ranksum *s);

/* The summary of an indexed trace; the caller owns it, the trace may be
 * freed afterwards. */
struct ranksum *ranksum_from_trace(const struct trace *t);

/* Write s as a gzip JSON summary file to path (outfile.h: written beside
 * and renamed); ST_IO with err filled when it cannot, ST_LIMIT (err naming
 * s->source) when the summary would pass RANKSUM_MAX_TEXT. */
enum status ranksum_write(const struct ranksum *s, const char *path, struct errinfo *err);
/* Whether the file at path is a summary (its decompressed text begins
 * with the format's key); false for anything else, unreadable included,
 * for "-" and for anything not a regular file (a FIFO or pipe is left
 * unread and unopened: peeking would take bytes its reader needs). */
bool ranksum_is_summary(const char *path);
/* Whether an unread source holds a summary, judged from bytes it peeks
 * (source_peek): the next reads still see every byte, so a pipe is read
 * once, by whichever loader this picks. */
bool ranksum_source_is_summary(struct source *src, struct errinfo *err);
/* Read a summary file; *out receives it (caller frees) or NULL with err
 * filled (ST_FORMAT naming the file and what was expected; ST_IO). */
enum status ranksum_read(const char *path, struct ranksum **out, struct errinfo *err);
/* Same from an open source (the caller closes it), named src->name. */
enum status ranksum_read_source(struct source *src, struct ranksum **out, struct errinfo *err);

#endif
