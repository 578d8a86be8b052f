/* The events a critical path is built from, as HTA's data frame holds them
 * (facebookresearch/HolisticTraceAnalysis at f4d0062): whole microseconds,
 * args.stream and the sync fields, HTA's index_correlation linking a launch
 * with its GPU row, and the queue length each launch and GPU row sees.
 *
 * Ownership: a cp_frame borrows the trace (which must outlive it) and owns
 * its arrays; cp_frame_free releases them. */
#ifndef TORCHTOP_CORE_CP_FRAME_H
#define TORCHTOP_CORE_CP_FRAME_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/vec.h"
#include "core/critpath/cp_links.h"
#include "core/trace/trace.h"

#define CP_IC_NONE (-1)      /* no correlation (HTA's index_correlation -1) */
#define CP_IC_UNMATCHED (-2) /* a correlation nothing matched (HTA's 0) */
#define CP_QLEN_NONE INT32_MIN

/* What a row's name or category makes it, for the graph. */
enum cp_row_flags {
    CPR_OP_OR_RUNTIME = 1 << 0,    /* category cpu_op, cuda_runtime or cuda_driver */
    CPR_LAUNCH = 1 << 1,           /* a kernel / memcpy / memset launch call */
    CPR_SYNC_CAT = 1 << 2,         /* category cuda_sync */
    CPR_BLOCKING = 1 << 3,         /* a call that blocks on the GPU: its span weighs 0 */
    CPR_RUNTIME_LOCK = 1 << 4,     /* a runtime call that holds the runtime's lock */
    CPR_OP_OR_ANNOTATION = 1 << 5, /* category cpu_op or user_annotation */
    CPR_DATA_LOAD = 1 << 6,        /* a host event named data loading
                                      (cp_frame_mark_data_loading) */
};

/* Names the graph acts on, by role. */
enum cp_name_role {
    CPN_OTHER,
    CPN_STREAM_SYNC,       /* "Stream Sync" */
    CPN_CONTEXT_SYNC,      /* "Context Sync" */
    CPN_EVENT_SYNC,        /* "Event Sync" */
    CPN_STREAM_WAIT_EVENT, /* "Stream Wait Event" (GPU side) */
    CPN_EVENT_RECORD,      /* cudaEventRecord / hipEventRecord */
    CPN_WAIT_EVENT_CALL,   /* cudaStreamWaitEvent / hipStreamWaitEvent */
};

struct cp_row {
    int64_t ts, dur;     /* µs as HTA reads them: truncated, from the earliest row */
    int64_t stream;      /* args.stream, -1 when absent */
    int64_t corr;        /* args.correlation, -1 when absent */
    int64_t wait_stream; /* args.wait_on_stream, -1 when absent */
    int64_t wait_corr;   /* args.wait_on_cuda_event_record_corr_id, -1 when absent */
    int32_t ic;          /* index_correlation: a row index, CP_IC_NONE or CP_IC_UNMATCHED */
    int32_t qlen;        /* queue length on its stream after this launch / GPU row
                            (CP_QLEN_NONE when it is not counted) */
    uint32_t ev;         /* index into trace.ev */
    uint32_t name;       /* strtab id */
    uint32_t trow;       /* trace row (pid, tid): the call stack it belongs to */
    uint8_t flags;       /* enum cp_row_flags */
    uint8_t role;        /* enum cp_name_role */
};

/* A name of the frame's rows and the first row that carries it. */
struct cp_name_first {
    uint32_t name; /* strtab id */
    uint32_t row;
};

struct cp_frame {
    const struct trace *t;
    VEC(struct cp_row) rows; /* HTA's rows in file order, after its last-step filter */
    bool has_sync;           /* some event of category cuda_sync: the trace records syncs */
    bool has_wait_fields;    /* some row carries wait_on_cuda_event_record_corr_id */
    bool step_filter;        /* the last ProfilerStep was left out, as HTA does */
    /* Indexes that let a region's graph read its own rows, not every row:
     * building one step's graph costs that step, not the trace. */
    uint32_t *host_by_ts; /* the rows not on a stream (stream -1), by ts, then row */
    size_t nhost;
    uint32_t *stream_waits; /* the Stream Wait Event rows, ascending */
    size_t nstream_waits;
    struct cp_name_first *step_firsts; /* each name containing "ProfilerStep", once,
                                          with its first row, in row order */
    size_t nstep_firsts;
    struct cp_links links; /* event records and stream waits (cp_links.h) */
};

/* Build the frame of an indexed trace. Never fails. */
struct cp_frame *cp_frame_new(const struct trace *t);
void cp_frame_free(struct cp_frame *f);

/* HTA's data_load_events: the host rows (not on a stream) whose name one
 * of the n regular expressions matches (regexec, anywhere in the name)
 * become data loading: nodes of the graph like ops (an annotation is
 * none otherwise), their edges bound by data_loading. Call it before
 * building graphs; it returns how many rows it marked. */
size_t cp_frame_mark_data_loading(struct cp_frame *f, const regex_t *re, size_t n);

/* The ProfilerStep#N names (strtab ids) of the frame's CPU rows, each
 * once, in the order they first appear: the regions a per-step path is
 * built for. An array the caller frees, NULL with *n = 0 when the trace
 * has no steps. */
uint32_t *cp_frame_step_names(const struct cp_frame *f, size_t *n);

/* The pid and tid of row r (its trace row's). */
static inline int64_t cp_row_pid(const struct cp_frame *f, const struct cp_row *r)
{
    return f->t->rows.v[r->trow].pid;
}
static inline int64_t cp_row_tid(const struct cp_frame *f, const struct cp_row *r)
{
    return f->t->rows.v[r->trow].tid;
}

/* Whether row r is GPU work or a GPU sync event as HTA's filters see it. */
static inline bool cp_row_on_gpu(const struct cp_row *r)
{
    return r->stream != -1;
}

#endif
