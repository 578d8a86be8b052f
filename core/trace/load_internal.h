/* Loader internals shared by load.c (the pipeline) and load_event.c (the
 * per-event conversion that runs on worker threads). Not an API. */
#ifndef TORCHTOP_CORE_LOAD_INTERNAL_H
#define TORCHTOP_CORE_LOAD_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/base/arena.h"
#include "core/trace/argpack.h"
#include "core/trace/rawtext.h"
#include "core/base/errinfo.h"
#include "core/base/hmap.h"
#include "core/trace/trace.h"

#define LOAD_MSG_BAD_UTF8 "invalid UTF-8 in a string (shown as U+FFFD); expected UTF-8 text"

/* Arg keys interned first, so their strtab ids are these constants. The
 * Python ids are read by the index (tree.c), not here; they stay in the
 * list so that every trace's first ids stay the same. */
/* clang-format off */
#define HOT_KEY_INFO(_)                                                        \
    _(KEY_CORRELATION,   "correlation")                                        \
    _(KEY_EXT_ID,        "External id")                                        \
    _(KEY_EXT_ID_LOWER,  "external id")                                        \
    _(KEY_SEQ,           "Sequence number")                                    \
    _(KEY_PY_ID,         "Python id")                                          \
    _(KEY_PY_PARENT,     "Python parent id")                                   \
    _(KEY_STREAM,        "stream")                                             \
    _(KEY_DEVICE,        "device")                                             \
    _(KEY_INPUT_DIMS,    "Input Dims")                                         \
    _(KEY_INPUT_TYPE,    "Input type")                                         \
    _(KEY_INPUT_STRIDES, "Input Strides")                                      \
    _(KEY_CONCRETE,      "Concrete Inputs")                                    \
    _(KEY_COLL_NAME,     "Collective name")                                    \
    _(KEY_IN_NELEMS,     "In msg nelems")                                      \
    _(KEY_OUT_NELEMS,    "Out msg nelems")                                     \
    _(KEY_GROUP_SIZE,    "Group size")                                         \
    _(KEY_DTYPE,         "dtype")                                              \
    _(KEY_PG_NAME,       "Process Group Name")                                 \
    _(KEY_PG_RANKS,      "Process Group Ranks")                                \
    _(KEY_PG_DESC,       "Process Group Description")

enum hot_key {
    KEY__NONE = 0, /* strtab id 0 is "" */
#define HOT_KEY_ENUM(id, text) id,
    HOT_KEY_INFO(HOT_KEY_ENUM)
#undef HOT_KEY_ENUM
    KEY__COUNT
};
/* clang-format on */

/* Row identity while loading: numeric ids, or strtab ids of text ids. */
struct rowkey {
    int64_t pid, tid;
    uint32_t pid_text, tid_text; /* IDX_NONE when numeric */
    uint8_t cls;
};

/* State shared by all workers; every field is guarded by lock. */
struct load_shared {
    pthread_mutex_t lock;
    struct trace *t;  /* strs, vals and rows */
    struct hmap rows; /* rowkey -> index into t->rows */
    bool raw_in_file; /* the input is a file read again for kept texts (read-only) */
};

/* What one batch of events turned into. Indices in events (aux, args) are
 * local to the batch until load.c merges it. */
struct batch_out {
    VEC(struct event) ev;
    VEC(uint32_t) arglen; /* packed-args length per event */
    VEC(struct op_info) ops;
    VEC(struct launch_info) launches;
    VEC(struct gpu_info) gpus;
    VEC(struct coll_info) colls;
    VEC(struct flow) flows;
    argbytes_t args;
    VEC(struct rawtext) raws; /* texts kept as written (trace.raws) */
    VEC(uint32_t) others;     /* events of other phases: their raws index + 1 */
    VEC(uint32_t)
    held; /* per element not in ev (flow point, other phase):
             ev.n when it was read (trace.held) */
    uint64_t n_unsupported;
    /* The first fault in the batch; events before it are kept. */
    enum status err_status;
    uint64_t err_offset; /* JSON byte offset */
    char err_msg[256];
    /* The first soft fault: one that loses nothing (invalid UTF-8, a value
     * read in spite of its type), so parsing goes on. */
    bool soft;
    uint64_t soft_offset; /* JSON byte offset */
    char soft_msg[256];
};

#define ROWCACHE_SIZE 64

/* A worker's own index of the strings it has interned in a shared table:
 * each distinct string takes the shared lock once per worker, until the
 * index holds INTERN_SEEN_MAX strings; then it starts over, so that a trace
 * of millions of distinct strings costs a worker 1.5 MB a table at most.
 * Open addressing, linear probing, half full at most. */
#define INTERN_SEEN_MAX (1u << 15)

struct intern_ent {
    uint64_t hash;
    const char *s; /* points into the shared table; NULL: empty */
    uint32_t len, id;
};

struct intern_seen {
    struct intern_ent *v;
    uint32_t mask, n;
};

struct rowcache_ent {
    struct rowkey key;
    uint32_t row; /* IDX_NONE = empty */
};

#define KINDCACHE_SIZE 64

struct kindcache_ent {
    uint32_t cat; /* category strtab id + 1; 0 = empty */
    uint8_t kind; /* enum ev_kind */
};

/* A parsing thread's private state. */
struct worker {
    struct load_shared *sh;
    struct arena arena;      /* cJSON allocations of the current event */
    struct intern_seen strs; /* into sh->t->strs */
    struct intern_seen vals; /* into sh->t->vals */
    struct rowcache_ent rows[ROWCACHE_SIZE];
    struct kindcache_ent kinds[KINDCACHE_SIZE];
    struct strbuf tmp;
    struct strbuf val; /* an op argument value being encoded */
    struct strbuf esc; /* an event with its "\u0000" escapes rewritten */
    struct strbuf raw; /* an event's text as kept (event.raw) */
};

void load_worker_init(struct worker *w, struct load_shared *sh);
void load_worker_done(struct worker *w);
/* Parse buf[0..len), a run of complete events separated by whitespace and
 * commas that starts at JSON byte `offset`, appending to out. Stops at the
 * first fault (recorded in out). */
void load_worker_parse_batch(struct worker *w, const char *buf, size_t len, uint64_t offset,
                             struct batch_out *out);
/* Intern in the shared table; the lock is taken only for a string this
 * worker has not interned before (struct intern_seen). */
uint32_t load_worker_intern(struct worker *w, const char *s, size_t len);

void load_batch_clear(struct batch_out *b);
void load_batch_free(struct batch_out *b);

/* Row for key through the worker's cache (takes the lock on a miss). */
uint32_t load_worker_row(struct worker *w, const struct rowkey *key);
/* A pid/tid value as a number, or as interned text when it is not a decimal
 * integer ("stream 7", "Spans"); false when its type is unusable. */
bool load_worker_id_value(struct worker *w, const struct cJSON *item, int64_t *num, uint32_t *text);

/* cJSON allocation hooks dispatch to this thread's arena when one is set. */
void load_hooks_install(void);

/* Whether d converts to int64 (converting anything else is undefined). */
static inline bool fits_i64(double d)
{
    return d >= -9223372036854775808.0 && d < 9223372036854775808.0;
}

/* What load_finish needs of every event, gathered as events are merged. */
struct load_counts {
    VEC(uint32_t) row_events; /* events (but metadata) per row; rows past n have none */
    VEC(uint32_t) metas;      /* the metadata events, in file order */
};

/* Count event e, stored at index i of trace.ev. */
static inline void load_count_event(struct load_counts *c, const struct event *e, uint32_t i)
{
    if (e->kind == EVK_META) {
        VEC_PUSH(&c->metas, i);
        return;
    }
    if (e->row >= c->row_events.n) {
        VEC_RESERVE(&c->row_events, (size_t)e->row + 1);
        memset(c->row_events.v + c->row_events.n, 0,
               ((size_t)e->row + 1 - c->row_events.n) * sizeof(uint32_t));
        c->row_events.n = (size_t)e->row + 1;
    }
    c->row_events.v[e->row]++;
}

void load_counts_free(struct load_counts *c);

/* After the last event: devices, process/thread metadata applied to rows,
 * per-row event counts, from the counts of the merged events
 * (core/trace/load_meta.c). */
void load_finish(struct trace *t, const struct load_counts *c);

#endif
