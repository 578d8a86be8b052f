/* The trace loader pipeline: stream the document, cut `traceEvents` into
 * batches of whole events, parse batches on worker threads, merge them in
 * file order. */
#include "config.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/hash.h"
#include "core/trace/jsonfault.h"
#include "core/trace/jsonscan.h"
#include "core/trace/load.h"
#include "core/trace/load_internal.h"
#include "core/trace/rawtext.h"
#include "core/trace/tracecache.h"
#include "core/trace/tree.h"
#include "core/base/hmap.h"
#include "core/base/utf8.h"

#ifndef TORCHTOP_FUZZ_SMALL_BUFFERS
#define WINDOW_INITIAL (1u << 20) /* bytes of JSON held while scanning */
#define BATCH_BYTES (256u << 10)  /* events handed to a worker at once */
#else
/* The fuzz build: small inputs cross window refills and batch boundaries. */
#define WINDOW_INITIAL 64u
#define BATCH_BYTES 256u
#endif

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_PARSING, SLOT_DONE };

/* What the loader had read when it cut a batch. A fault in the batch stops
 * a single-threaded load right there; the scanner of a threaded load reads
 * on until it hears of the fault. The load reports these figures for either,
 * so that the output does not depend on the thread count. */
struct load_cut {
    uint64_t file_bytes, json_bytes; /* source in_done, out_done */
    bool truncated;                  /* trace.truncated, lost_bytes */
    uint64_t lost_bytes;
};

/* A buffer the scanning window lives in. Batches are parsed where the
 * window read them: a window some batch still points into is not moved or
 * overwritten, and the window goes on in another one (struct loader.wins). */
struct window {
    char *buf;
    size_t alloc;  /* bytes allocated; the window uses loader.cap of them */
    unsigned refs; /* batches in it not yet merged (qlock) */
};

struct slot {
    enum slot_state state;
    uint64_t seq;
    const char *buf; /* in window `win` */
    size_t len;
    unsigned win;
    uint64_t offset;     /* JSON offset of buf[0] */
    struct load_cut cut; /* when buf was cut */
    struct batch_out out;
};

struct loader {
    const struct load_opts *opts;
    struct source *src;
    struct trace *t;
    struct errinfo *err;
    struct load_shared sh;

    /* Scanning window over the decompressed JSON: buf is wins[win].buf. */
    char *buf;
    size_t cap, len, pos;
    struct window *wins;
    unsigned nwins, win;
    uint64_t base; /* JSON offset of buf[0] */
    bool eof;
    bool read_failed;        /* source_read reported an error */
    struct errinfo read_err; /* that error, until read_fault() records it */

    /* Workers: nthreads threads besides this one, which scans and parses
     * as workers[nthreads] (self); none when the load is single-threaded. */
    unsigned nthreads;
    struct worker *self;
    size_t nworkers; /* workers[] */
    pthread_t threads[LOAD_MAX_THREADS];
    struct worker *workers;
    struct slot *slots;
    size_t nslots;
    pthread_mutex_t qlock;
    pthread_cond_t work_cv, done_cv;
    bool quit;
    uint64_t next_seq, next_merge;
    bool merging;     /* a worker merges finished batches (qlock) */
    size_t ev_merged; /* events merged so far (qlock), for progress */
    /* A batch failed: merge no further. Set by the merging thread, read by
     * the scanner as a hint to stop reading (atomically); the rest of the
     * merge state is read after drain(). */
    bool stopped;
    struct load_cut cut; /* when the batch that stopped it was cut */
    bool doc_done;       /* the document ended; only its tail is read */

    /* The first soft fault in the file (one that loses nothing): reported
     * at the end unless a fault that stops loading is found. */
    bool soft;
    uint64_t soft_offset; /* JSON byte offset */
    char soft_msg[256];

    struct hmap meta_seen; /* metadata dedup: content hash -> event */
    /* Counted while merging, where each event passes anyway, so that
     * load_finish need not read every event again. */
    struct load_counts counts;
};

static bool cancelled(const struct loader *L)
{
    return L->opts->cancel && *L->opts->cancel;
}

static const char *offset_what(const struct loader *L)
{
    return L->src->gzip ? "byte (uncompressed)" : "byte";
}

/* Record a soft fault at JSON offset `offset` when it is the first in the
 * file so far. */
static void soft_fail(struct loader *L, uint64_t offset, const char *msg)
{
    if (L->soft && L->soft_offset <= offset)
        return;
    L->soft = true;
    L->soft_offset = offset;
    snprintf(L->soft_msg, sizeof(L->soft_msg), "%s", msg);
}

/* Invalid UTF-8 in buf[from..to), outside the events. */
static void check_utf8(struct loader *L, size_t from, size_t to)
{
    size_t bad = utf8_find_invalid(L->buf + from, to - from);
    if (bad < to - from)
        soft_fail(L, L->base + from + bad, LOAD_MSG_BAD_UTF8);
}

/* ------------------------------------------------------------------------ */
/* Merging batch results into the trace (main thread, file order)           */
/* ------------------------------------------------------------------------ */

/* What tells kept texts apart for the comparison of metadata records,
 * which keep theirs as strtab ids (load_event.c): 0 for none. */
static uint64_t raw_identity(const struct trace *t, uint32_t raw)
{
    if (!raw)
        return 0;
    const struct rawtext *x = &t->raws.v[raw];
    return ((uint64_t)x->at << 1 | (x->len != 0)) + 1;
}

static uint64_t meta_hash(const struct trace *t, const struct event *e, const uint8_t *args,
                          size_t n)
{
    return hash_bytes(args, n) ^ hash_mix64(((uint64_t)e->name << 32) ^ e->row) ^
           hash_mix64((uint64_t)e->ts ^ (raw_identity(t, e->raw) << 24));
}

/* True when an identical metadata record was stored before; that record
 * counts the repeat (event.aux). */
static bool meta_is_dup(struct loader *L, const struct event *e, const uint8_t *args, size_t n)
{
    struct trace *t = L->t;
    uint64_t h = meta_hash(t, e, args, n);
    uint32_t prev = hmap_get(&L->meta_seen, h);
    if (prev == IDX_NONE) {
        hmap_put(&L->meta_seen, h, (uint32_t)t->ev.n);
        return false;
    }
    struct event *p = &t->ev.v[prev];
    if (p->name != e->name || p->row != e->row || p->ts != e->ts ||
        raw_identity(t, p->raw) != raw_identity(t, e->raw) || p->flags != e->flags)
        return false;
    bool same;
    if (p->args == IDX_NONE || e->args == IDX_NONE)
        same = p->args == e->args;
    else /* Packs are self-delimiting: equal first n bytes, where n is the
          * length of the new pack, mean equal packs. */
        same = t->argbuf.n - p->args >= n && memcmp(t->argbuf.v + p->args, args, n) == 0;
    if (same && p->aux < UINT32_MAX - 1)
        p->aux++; /* the export writes it as many times */
    return same;
}

static void merge_fail(struct loader *L, const struct load_cut *cut, enum status st,
                       const char *fmt, const char *detail)
{
    errinfo_set(L->err, st, L->src->name, -1, fmt, detail);
    L->cut = *cut;
    __atomic_store_n(&L->stopped, true, __ATOMIC_RELEASE);
}

/* Merge batch b, cut at `cut`. */
static void merge_batch(struct loader *L, struct batch_out *b, const struct load_cut *cut)
{
    struct trace *t = L->t;
    if (L->stopped)
        return;
    uint32_t ops0 = (uint32_t)t->ops.n;
    uint32_t launches0 = (uint32_t)t->launches.n, gpus0 = (uint32_t)t->gpus.n;
    uint32_t colls0 = (uint32_t)t->colls.n;

    if (t->ev.n + b->ev.n >= IDX_NONE) {
        merge_fail(L, cut, ST_LIMIT, "more than %s events: too many for one trace", "4 billion");
        return;
    }
    VEC_RESERVE(&t->ops, t->ops.n + b->ops.n);
    for (size_t i = 0; i < b->ops.n; i++) {
        struct op_info o = b->ops.v[i];
        if (o.coll != IDX_NONE)
            o.coll += colls0;
        t->ops.v[t->ops.n++] = o;
    }
    VEC_RESERVE(&t->gpus, t->gpus.n + b->gpus.n);
    for (size_t i = 0; i < b->gpus.n; i++) {
        struct gpu_info g = b->gpus.v[i];
        if (g.coll != IDX_NONE)
            g.coll += colls0;
        t->gpus.v[t->gpus.n++] = g;
    }
    VEC_APPEND(&t->launches, b->launches.v, b->launches.n);
    VEC_APPEND(&t->colls, b->colls.v, b->colls.n);
    /* Kept texts: the batch's raws index + 1 becomes the trace's index. */
    uint32_t raws0 = (uint32_t)t->raws.n - 1;
    if (t->raws.n + b->raws.n >= IDX_NONE) {
        merge_fail(L, cut, ST_LIMIT, "more than %s events kept as written: too many for one trace",
                   "4 billion");
        return;
    }
    VEC_APPEND(&t->raws, b->raws.v, b->raws.n);
    VEC_RESERVE(&t->flows, t->flows.n + b->flows.n);
    for (size_t i = 0; i < b->flows.n; i++) {
        struct flow f = b->flows.v[i];
        if (f.raw)
            f.raw += raws0;
        t->flows.v[t->flows.n++] = f;
    }
    VEC_RESERVE(&t->others, t->others.n + b->others.n);
    for (size_t i = 0; i < b->others.n; i++)
        t->others.v[t->others.n++] = b->others.v[i] + raws0;

    VEC_RESERVE(&t->ev, t->ev.n + b->ev.n);
    VEC_RESERVE(&t->argbuf, t->argbuf.n + b->args.n);
    if (t->argbuf.n + b->args.n >= IDX_NONE) {
        merge_fail(L, cut, ST_LIMIT, "packed event arguments exceed %s", "4 GiB");
        return;
    }
    /* The elements held out of ev, renumbered: each precedes the event
     * it preceded in the batch, and a dropped metadata repeat is one. */
    size_t h = 0;
    for (size_t i = 0; i < b->ev.n; i++) {
        for (; h < b->held.n && b->held.v[h] <= i; h++)
            VEC_PUSH(&t->held, (uint32_t)t->ev.n);
        struct event e = b->ev.v[i];
        if (e.raw)
            e.raw += raws0;
        const uint8_t *args = e.args != IDX_NONE ? b->args.v + e.args : NULL;
        size_t alen = b->arglen.v[i];
        if (e.kind == EVK_META) {
            e.args = args ? (uint32_t)t->argbuf.n : IDX_NONE; /* for the comparison */
            e.aux = 0;                                        /* repeats */
            if (meta_is_dup(L, &e, args ? args : (const uint8_t *)"", alen)) {
                t->n_meta_dups++;
                VEC_PUSH(&t->held, (uint32_t)t->ev.n);
                continue;
            }
        } else if (e.aux != IDX_NONE) {
            switch (e.kind) {
            case EVK_CPU_OP:
            case EVK_ANNOTATION:
                e.aux += ops0;
                break;
            case EVK_PYTHON:
                break; /* the parent frame: linked by the index */
            case EVK_RUNTIME:
            case EVK_DRIVER:
                e.aux += launches0;
                break;
            default:
                e.aux += gpus0;
                break;
            }
        }
        if (args) {
            e.args = (uint32_t)t->argbuf.n;
            memcpy(t->argbuf.v + t->argbuf.n, args, alen);
            t->argbuf.n += alen;
        }
        t->n_by_kind[e.kind]++;
        load_count_event(&L->counts, &e, (uint32_t)t->ev.n);
        t->ev.v[t->ev.n++] = e;
    }
    for (; h < b->held.n; h++)
        VEC_PUSH(&t->held, (uint32_t)t->ev.n);
    t->n_unsupported += b->n_unsupported;
    if (b->soft)
        soft_fail(L, b->soft_offset, b->soft_msg);

    if (b->err_status != ST_OK) {
        errinfo_set_at(L->err, b->err_status, L->src->name, offset_what(L), b->err_offset, "%s",
                       b->err_msg);
        L->cut = *cut;
        __atomic_store_n(&L->stopped, true, __ATOMIC_RELEASE);
    }
}

/* ------------------------------------------------------------------------ */
/* Worker threads                                                           */
/* ------------------------------------------------------------------------ */

struct worker_arg {
    struct loader *L;
    struct worker *w;
};

static bool stopped_hint(struct loader *L)
{
    return __atomic_load_n(&L->stopped, __ATOMIC_ACQUIRE);
}

/* Merge finished batches in file order, unless another thread is at it.
 * Caller holds qlock; the merging thread releases it while it merges, and
 * whoever marks a batch done calls this after, so no batch waits unmerged. */
static void merge_ready_locked(struct loader *L)
{
    if (L->merging)
        return;
    L->merging = true;
    for (;;) {
        struct slot *s = NULL;
        for (size_t i = 0; i < L->nslots; i++)
            if (L->slots[i].state == SLOT_DONE && L->slots[i].seq == L->next_merge)
                s = &L->slots[i];
        if (!s)
            break;
        pthread_mutex_unlock(&L->qlock);
        merge_batch(L, &s->out, &s->cut);
        size_t n = L->t->ev.n;
        pthread_mutex_lock(&L->qlock);
        L->ev_merged = n;
        s->state = SLOT_FREE;
        L->wins[s->win].refs--;
        L->next_merge++;
        pthread_cond_broadcast(&L->done_cv);
    }
    L->merging = false;
}

/* The oldest queued batch, or NULL (caller holds qlock). */
static struct slot *oldest_queued_locked(struct loader *L, size_t *nqueued)
{
    struct slot *job = NULL;
    size_t n = 0;
    for (size_t i = 0; i < L->nslots; i++)
        if (L->slots[i].state == SLOT_QUEUED) {
            n++;
            if (!job || L->slots[i].seq < job->seq)
                job = &L->slots[i];
        }
    if (nqueued)
        *nqueued = n;
    return job;
}

/* Parse a queued batch as worker w and merge what is ready. Caller holds
 * qlock, which is released while parsing. */
static void run_job_locked(struct loader *L, struct worker *w, struct slot *job)
{
    job->state = SLOT_PARSING;
    pthread_mutex_unlock(&L->qlock);
    load_batch_clear(&job->out);
    load_worker_parse_batch(w, job->buf, job->len, job->offset, &job->out);
    pthread_mutex_lock(&L->qlock);
    job->state = SLOT_DONE;
    merge_ready_locked(L);
    pthread_cond_broadcast(&L->done_cv);
}

/* The scanning thread has to wait (for a free slot, for the last merge):
 * parse the oldest queued batch meanwhile, or sleep until a batch is done
 * when none is queued. Caller holds qlock. */
static void help_or_wait_locked(struct loader *L)
{
    struct slot *job = oldest_queued_locked(L, NULL);
    if (job)
        run_job_locked(L, L->self, job);
    else
        pthread_cond_wait(&L->done_cv, &L->qlock);
}

/* A worker parses queued batches (the oldest first) and merges them. The
 * scanning thread finds event boundaries and hands them out, and parses
 * batches too while enough are queued (dispatch, drain): n threads are
 * the scanner and n - 1 workers, never more threads than cores asked. */
static void *worker_main(void *arg)
{
    struct loader *L = ((struct worker_arg *)arg)->L;
    struct worker *w = ((struct worker_arg *)arg)->w;
    free(arg);
    pthread_mutex_lock(&L->qlock);
    for (;;) {
        struct slot *job = oldest_queued_locked(L, NULL);
        if (!job) {
            if (L->quit)
                break;
            pthread_cond_wait(&L->work_cv, &L->qlock);
            continue;
        }
        run_job_locked(L, w, job);
    }
    pthread_mutex_unlock(&L->qlock);
    return NULL;
}

static void report_progress(struct loader *L, size_t events)
{
    if (L->opts->progress)
        L->opts->progress(L->opts->progress_ud, LOAD_PHASE_READ, L->src->in_done, L->src->in_total,
                          events);
}

/* trace_index's steps as the index phase's progress. */
static void report_index_step(void *ud, unsigned done, unsigned total)
{
    struct loader *L = ud;
    L->opts->progress(L->opts->progress_ud, LOAD_PHASE_INDEX, done, total, L->t->ev.n);
}

const char *load_phase_name(enum load_phase phase)
{
    static const char *const names[LOAD_PHASE__COUNT] = {"reading", "indexing", "analysing"};
    return (unsigned)phase < LOAD_PHASE__COUNT ? names[phase] : "loading";
}

/* Hand buf[from..to) to a worker (or parse it here when single-threaded,
 * or when the workers have enough waiting). The worker reads it in place:
 * the window it lies in stays put until the batch is merged (fill). */
static void dispatch(struct loader *L, size_t from, size_t to)
{
    if (to <= from || stopped_hint(L))
        return;
    struct load_cut cut = {L->src->in_done, L->src->out_done, L->t->truncated, L->t->lost_bytes};
    if (L->nthreads == 0) {
        struct batch_out *out = &L->slots[0].out;
        load_batch_clear(out);
        load_worker_parse_batch(L->self, L->buf + from, to - from, L->base + from, out);
        merge_batch(L, out, &cut);
        report_progress(L, L->t->ev.n);
        return;
    }
    pthread_mutex_lock(&L->qlock);
    struct slot *s;
    for (;;) {
        s = NULL;
        for (size_t i = 0; i < L->nslots && !s; i++)
            if (L->slots[i].state == SLOT_FREE)
                s = &L->slots[i];
        if (s)
            break;
        help_or_wait_locked(L);
    }
    s->buf = L->buf + from;
    s->len = to - from;
    s->win = L->win;
    L->wins[L->win].refs++;
    s->offset = L->base + from;
    s->cut = cut;
    s->seq = L->next_seq++;
    s->state = SLOT_QUEUED;
    pthread_cond_signal(&L->work_cv);
    /* Scanning is the lighter part: parse one here while more than two
     * batches per worker wait. Two, so that a worker finishing a batch while
     * this thread parses still finds the next (with one, the 2-thread load
     * of the 64 MB tile ran 1.63x one thread's speed instead of 1.75x). */
    size_t nqueued;
    struct slot *job = oldest_queued_locked(L, &nqueued);
    if (nqueued > 2 * (size_t)L->nthreads)
        run_job_locked(L, L->self, job);
    size_t events = L->ev_merged;
    pthread_mutex_unlock(&L->qlock);
    report_progress(L, events);
}

/* Parse what is queued and wait until every batch is merged. */
static void drain(struct loader *L)
{
    if (L->nthreads == 0)
        return;
    pthread_mutex_lock(&L->qlock);
    while (L->next_merge < L->next_seq)
        help_or_wait_locked(L);
    pthread_mutex_unlock(&L->qlock);
}

/* ------------------------------------------------------------------------ */
/* The window                                                               */
/* ------------------------------------------------------------------------ */

static enum status fail_at(struct loader *L, enum status st, size_t pos, const char *fmt, ...)
    ATTR_FORMAT(4, 5);

/* Whether a batch not yet merged lies in the current window. */
static bool window_in_use(struct loader *L)
{
    if (L->nthreads == 0)
        return false;
    pthread_mutex_lock(&L->qlock);
    bool used = L->wins[L->win].refs > 0;
    pthread_mutex_unlock(&L->qlock);
    return used;
}

/* A window no batch lies in, other than the current one. There is always
 * one: each unmerged batch holds a slot, so at most nslots windows are in
 * use besides the current, and there are nslots + 2. */
static struct window *free_window(struct loader *L)
{
    struct window *w = NULL;
    pthread_mutex_lock(&L->qlock);
    for (unsigned i = 0; i < L->nwins && !w; i++)
        if (i != L->win && L->wins[i].refs == 0)
            w = &L->wins[i];
    pthread_mutex_unlock(&L->qlock);
    assert(w);
    return w;
}

/* Read more input, keeping buf[keep..len). Positions before `keep` are
 * discarded and everything shifts left by the returned amount. At the end
 * of input, or after a read error (L->read_failed, err filled), L->eof is
 * set. */
static size_t fill(struct loader *L, size_t keep)
{
    size_t shift = keep;
    size_t len = L->len - shift;
    size_t cap = L->cap;
    if (!L->eof && cap - len < cap / 4)
        cap *= 2;
    if (window_in_use(L)) {
        /* Batches point into this window: go on in a free one. */
        struct window *w = free_window(L);
        if (w->alloc < cap) {
            free(w->buf);
            w->buf = xmalloc(cap);
            w->alloc = cap;
        }
        memcpy(w->buf, L->buf + shift, len);
        L->win = (unsigned)(w - L->wins);
        L->buf = w->buf;
    } else {
        if (shift)
            memmove(L->buf, L->buf + shift, len);
        struct window *w = &L->wins[L->win];
        if (w->alloc < cap) {
            w->buf = xreallocarray(w->buf, cap, 1);
            w->alloc = cap;
            L->buf = w->buf;
        }
    }
    L->cap = cap;
    L->len = len;
    L->pos -= shift;
    L->base += shift;
    if (L->eof)
        return shift;
    struct errinfo rerr = {0};
    ssize_t n = source_read(L->src, L->buf + L->len, L->cap - L->len, &rerr);
    if (n < 0) {
        /* Recorded by read_fault() once the events before this point are
         * merged: a bad one among them is the first fault. */
        L->eof = true;
        L->read_failed = true;
        if (rerr.status == ST_TRUNCATED) {
            L->t->truncated = true;
            L->t->lost_bytes = L->len - L->pos;
        }
        L->read_err = rerr;
        return shift;
    }
    if (n == 0)
        L->eof = true;
    L->len += (size_t)n;
    return shift;
}

/* The input ended on a read error (L->read_failed), and every event before
 * the end is dispatched: merge them, then record the read error unless one
 * of them failed first. Returns the load's status. */
static enum status read_fault(struct loader *L)
{
    drain(L);
    if (L->read_err.status != ST_OK && L->err->status == ST_OK) {
        errinfo_clear(L->err);
        *L->err = L->read_err;
        L->read_err = (struct errinfo){0};
    }
    return L->err->status;
}

/* Position of the next non-whitespace byte, reading as needed. Returns
 * false at the end of input (or on a read error). */
static bool next_nonws(struct loader *L)
{
    for (;;) {
        while (L->pos < L->len && json_is_ws((unsigned char)L->buf[L->pos]))
            L->pos++;
        if (L->pos < L->len)
            return true;
        if (L->eof)
            return false;
        fill(L, L->pos);
    }
}

#define SCAN_ENDED ((size_t)-1)    /* scan_whole_value: the input ended first */
#define SCAN_TOO_LONG ((size_t)-2) /* the value is longer than LOAD_MAX_VALUE_BYTES */

/* Scan the value at pos to its end, reading as needed. Returns its end,
 * SCAN_ENDED or SCAN_TOO_LONG. */
static size_t scan_whole_value(struct loader *L)
{
    struct jsonscan_state scan = {0};
    for (;;) {
        const char *q = json_scan_resume(L->buf + L->pos, L->buf + L->len, L->eof, &scan);
        size_t n = q ? (size_t)(q - L->buf) - L->pos : L->len - L->pos;
        if (n > LOAD_MAX_VALUE_BYTES)
            return SCAN_TOO_LONG;
        if (q)
            return (size_t)(q - L->buf);
        if (L->eof)
            return SCAN_ENDED;
        fill(L, L->pos);
    }
}

/* A value too long to hold: the fault is at its start, L->pos. */
static enum status too_long(struct loader *L, const char *what)
{
    return fail_at(L, ST_LIMIT, L->pos,
                   "%s longer than %u MiB: torchtop holds one whole to parse it and refuses "
                   "larger ones",
                   what, LOAD_MAX_VALUE_BYTES >> 20);
}

/* ------------------------------------------------------------------------ */
/* Document structure                                                       */
/* ------------------------------------------------------------------------ */

static enum status vfail_at(struct loader *L, enum status st, size_t pos, const char *fmt,
                            va_list ap)
{
    if (L->err->status == ST_OK) {
        char msg[256];
        vsnprintf(msg, sizeof(msg), fmt, ap);
        errinfo_set_at(L->err, st, L->src->name, offset_what(L), L->base + pos, "%s", msg);
    }
    return L->err->status;
}

static enum status fail_at(struct loader *L, enum status st, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    enum status r = vfail_at(L, st, pos, fmt, ap);
    va_end(ap);
    return r;
}

/* The input ended where the document needs more. A read error is the first
 * fault when reading failed; otherwise fault st at the current position, and
 * a truncation marks the trace truncated. */
static enum status input_ended(struct loader *L, enum status st, const char *fmt, ...)
    ATTR_FORMAT(3, 4);

static enum status input_ended(struct loader *L, enum status st, const char *fmt, ...)
{
    if (L->read_failed)
        return read_fault(L);
    if (st == ST_TRUNCATED)
        L->t->truncated = true;
    va_list ap;
    va_start(ap, fmt);
    enum status r = vfail_at(L, st, L->pos, fmt, ap);
    va_end(ap);
    return r;
}

/* The events array, from just after '[' to just after ']'. */
static enum status parse_events(struct loader *L, bool bare_array)
{
    size_t bstart = L->pos;
    /* How far the event at pos has been scanned, while it waits for more
     * input: rescanning it from its start after every read would make an
     * event of n bytes cost O(n^2). */
    struct jsonscan_state scan = {0};
    for (;;) {
        if (cancelled(L)) {
            dispatch(L, bstart, L->pos);
            drain(L); /* the merging thread may record a fault meanwhile */
            errinfo_set(L->err, ST_CANCELLED, L->src->name, -1, "loading cancelled");
            return ST_CANCELLED;
        }
        if (stopped_hint(L)) {
            drain(L); /* the merging thread's error, before it is read */
            return L->err->status;
        }
        while (L->pos < L->len &&
               (json_is_ws((unsigned char)L->buf[L->pos]) || L->buf[L->pos] == ','))
            L->pos++;
        if (L->pos == L->len) {
            if (L->eof) {
                /* Known before the last batch is cut (struct load_cut). */
                if (!L->read_failed && !bare_array)
                    L->t->truncated = true;
                dispatch(L, bstart, L->pos);
                if (L->read_failed)
                    return read_fault(L);
                if (bare_array)
                    return ST_OK; /* Chrome's array format may omit the ']' */
                drain(L);         /* a bad event before the end is the first fault */
                return fail_at(L, ST_TRUNCATED, L->pos,
                               "truncated: the input ends inside \"traceEvents\" "
                               "(expected ']'); every complete event before it is kept");
            }
            if (L->pos - bstart >= BATCH_BYTES) {
                dispatch(L, bstart, L->pos);
                bstart = L->pos;
            }
            bstart -= fill(L, bstart);
            continue;
        }
        char c = L->buf[L->pos];
        if (c == ']') {
            /* Merge now: a bad event must be reported before any fault
             * found later in the document, as with one thread. */
            dispatch(L, bstart, L->pos);
            drain(L);
            L->pos++;
            /* After a bad event nothing more is read, as when it stops a
             * single thread at once. */
            return L->stopped ? L->err->status : ST_OK;
        }
        if (c != '{') {
            dispatch(L, bstart, L->pos);
            drain(L);
            return fail_at(L, ST_FORMAT, L->pos,
                           "expected '{' starting a trace event, or ']' ending \"traceEvents\"");
        }
        const char *q = json_scan_resume(L->buf + L->pos, L->buf + L->len, L->eof, &scan);
        if ((q ? (size_t)(q - L->buf) : L->len) - L->pos > LOAD_MAX_VALUE_BYTES) {
            dispatch(L, bstart, L->pos);
            drain(L); /* a bad event before it is the first fault */
            return too_long(L, "a trace event");
        }
        if (!q) {
            if (L->eof) {
                if (!L->read_failed) {
                    L->t->truncated = true;
                    L->t->lost_bytes = L->len - L->pos;
                }
                dispatch(L, bstart, L->pos);
                if (L->read_failed)
                    return read_fault(L);
                drain(L);
                return fail_at(L, ST_TRUNCATED, L->pos,
                               "truncated: the last trace event is incomplete; %zu byte%s lost, "
                               "every complete event before it is kept",
                               L->len - L->pos, L->len - L->pos == 1 ? "" : "s");
            }
            if (L->pos - bstart >= BATCH_BYTES) {
                dispatch(L, bstart, L->pos);
                bstart = L->pos;
            }
            bstart -= fill(L, bstart);
            continue;
        }
        L->pos = (size_t)(q - L->buf);
        scan = (struct jsonscan_state){0};
        if (L->pos - bstart >= BATCH_BYTES) {
            dispatch(L, bstart, L->pos);
            bstart = L->pos;
        }
    }
}

/* Keep a top-level value (any key but traceEvents). */
static enum status top_value(struct loader *L, const char *key, size_t vstart, size_t vend)
{
    char *text = L->buf + vstart;
    size_t n = vend - vstart;
    /* As in events: "\u0000" reads as U+2400. The window is the loader's
     * own, and these bytes are not read again. */
    json_replace_nul_escapes(text, n);
    const char *pe = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(text, n, &pe, 0);
    if (v && pe != text + n) {
        cJSON_Delete(v);
        v = NULL;
    }
    char why[96];
    const char *num = v ? jsonfault_number(text, text + n, why, sizeof(why)) : NULL;
    if (num) {
        cJSON_Delete(v);
        return fail_at(L, ST_FORMAT, (size_t)(num - L->buf),
                       "invalid JSON in the value of top-level key \"%.64s\" (%s)", key, why);
    }
    if (!v) {
        size_t at = pe ? (size_t)(pe - L->buf) : vstart;
        if (jsonfault_describe(text, pe, text + n, why, sizeof(why)))
            return fail_at(L, ST_LIMIT, at, "the value of top-level key \"%.64s\" is %s", key, why);
        if (strncmp(why, "a lone", 6) == 0)
            return fail_at(L, ST_FORMAT, at,
                           "invalid JSON in the value of top-level key \"%.64s\" (%s)", key, why);
        return fail_at(L, ST_FORMAT, at, "invalid JSON in the value of top-level key \"%.64s\"",
                       key);
    }
    if (strcmp(key, "baseTimeNanoseconds") == 0) {
        /* 1.75e18 does not fit a double exactly: read the digits. */
        char digits[32];
        size_t m = n < sizeof(digits) - 1 ? n : sizeof(digits) - 1;
        memcpy(digits, text, m);
        digits[m] = '\0';
        char *end;
        errno = 0;
        long long ns = strtoll(digits, &end, 10);
        if (!errno && end != digits && (*end == '\0' || json_is_ws((unsigned char)*end)))
            L->t->base_ns = ns;
        else if (cJSON_IsNumber(v) && fits_i64(v->valuedouble))
            L->t->base_ns = (int64_t)v->valuedouble;
        /* Absolute times are base_ns + ts, ts within +-2^62: a base within
         * +-2^62 keeps every sum in int64. Past it the base is dropped. */
        if (L->t->base_ns > LOAD_MAX_TIME_NS || L->t->base_ns < -LOAD_MAX_TIME_NS) {
            L->t->base_ns = 0;
            soft_fail(L, L->base + vstart,
                      "expected \"baseTimeNanoseconds\" within +-2^62 ns (146 years around "
                      "1970); it is taken as 0");
        }
    }
    if (strcmp(key, "deviceProperties") == 0 || strcmp(key, "computeProperties") == 0) {
        /* Kept as it is; read_devices takes the objects it finds. */
        bool ok = cJSON_IsArray(v);
        for (const cJSON *d = ok ? v->child : NULL; d; d = d->next)
            ok = ok && cJSON_IsObject(d);
        if (!ok)
            soft_fail(L, L->base + vstart,
                      strcmp(key, "deviceProperties") == 0
                          ? "expected an array of objects for \"deviceProperties\""
                          : "expected an array of objects for \"computeProperties\"");
    }
    if (!L->t->top)
        L->t->top = cJSON_CreateObject();
    cJSON_AddItemToObject(L->t->top, key, v);
    return ST_OK;
}

/* After the document only whitespace may follow. The input is read to its
 * end even so: a gzip member's trailer (CRC and length) is checked only
 * when it is read, and a bad or missing one must not pass unreported. */
static enum status parse_document_end(struct loader *L)
{
    L->doc_done = true;
    if (next_nonws(L))
        return fail_at(L, ST_FORMAT, L->pos, "expected the end of the input after the document");
    return L->read_failed ? read_fault(L) : ST_OK;
}

/* Skip a UTF-8 byte order mark at the very start (some editors and
 * Windows tools write one; JSON parsers may ignore it). */
static void skip_bom(struct loader *L)
{
    while (L->len - L->pos < 3 && !L->eof)
        fill(L, L->pos);
    if (L->base + L->pos == 0 && L->len - L->pos >= 3 &&
        memcmp(L->buf + L->pos, "\xef\xbb\xbf", 3) == 0)
        L->pos += 3;
}

static enum status parse_document(struct loader *L)
{
    skip_bom(L);
    if (!next_nonws(L))
        return input_ended(L, ST_FORMAT, "empty input, expected a JSON trace");
    char c = L->buf[L->pos];
    if (c == '[') {
        L->pos++;
        enum status st = parse_events(L, true);
        return st != ST_OK ? st : parse_document_end(L);
    }
    if (c != '{')
        return fail_at(
            L, ST_FORMAT, L->pos, "expected '{' or '[' at the start of a JSON trace (found %s)",
            (unsigned char)c >= 0x20 && (unsigned char)c < 0x7f ? "text" : "binary data");
    L->pos++;
    bool seen_events = false;
    bool after_value = false;
    for (;;) {
        if (!next_nonws(L))
            return input_ended(
                L, ST_TRUNCATED,
                "truncated: the input ends inside the top-level object (expected %s)",
                after_value ? "',' or '}'" : "a key or '}'");
        c = L->buf[L->pos];
        if (c == '}') {
            L->pos++;
            break;
        }
        if (c == ',') {
            L->pos++;
            after_value = false;
            continue;
        }
        after_value = true;
        if (c != '"')
            return fail_at(L, ST_FORMAT, L->pos, "expected a key string in the top-level object");
        size_t kstart = L->pos;
        size_t kend = scan_whole_value(L);
        if (kend == SCAN_TOO_LONG)
            return too_long(L, "a top-level key");
        if (kend == SCAN_ENDED)
            return input_ended(L, ST_TRUNCATED, "truncated inside a key");
        kstart = L->pos; /* scan_whole_value may have shifted the window */
        uint64_t key_at = L->base + kstart;
        const char *nul = memchr(L->buf + kstart, '\0', kend - kstart);
        if (nul)
            return fail_at(L, ST_FORMAT, (size_t)(nul - L->buf),
                           "invalid JSON: a NUL byte inside a top-level key");
        check_utf8(L, kstart, kend);
        char key[256];
        size_t klen = kend - kstart - 2;
        if (klen >= sizeof(key))
            klen = sizeof(key) - 1;
        memcpy(key, L->buf + kstart + 1, klen);
        key[klen] = '\0';
        L->pos = kend;
        if (!next_nonws(L) || L->buf[L->pos] != ':')
            return input_ended(L, ST_FORMAT, "expected ':' after top-level key \"%s\"", key);
        L->pos++;
        if (!next_nonws(L))
            return input_ended(L, ST_TRUNCATED, "truncated: expected a value for \"%s\"", key);
        if (strcmp(key, "traceEvents") == 0) {
            if (seen_events)
                soft_fail(L, key_at,
                          "expected one \"traceEvents\" key, found a second (its events are "
                          "kept too)");
            if (L->buf[L->pos] != '[')
                return fail_at(L, ST_FORMAT, L->pos, "expected '[' after \"traceEvents\"");
            L->pos++;
            enum status st = parse_events(L, false);
            if (st != ST_OK)
                return st;
            seen_events = true;
            continue;
        }
        size_t vend = scan_whole_value(L);
        if (vend == SCAN_TOO_LONG)
            return too_long(L, "a top-level value");
        if (vend == SCAN_ENDED)
            return input_ended(L, ST_TRUNCATED,
                               "truncated: the value of top-level key \"%s\" is incomplete", key);
        check_utf8(L, L->pos, vend);
        enum status st = top_value(L, key, L->pos, vend);
        if (st != ST_OK)
            return st;
        L->pos = vend;
    }
    if (!seen_events)
        return fail_at(L, ST_FORMAT, 0,
                       "no \"traceEvents\" array: this is JSON, but not a Chrome/Kineto trace");
    return parse_document_end(L);
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

static unsigned thread_count(const struct load_opts *o)
{
    unsigned n = o->threads;
    if (n == 0) {
        const char *env = getenv("TORCHTOP_THREADS");
        if (env && *env)
            n = (unsigned)atoi(env);
    }
    if (n == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        n = cores > 1 ? (unsigned)MIN(cores, 4) : 1;
    }
    return MIN(n, LOAD_MAX_THREADS);
}

static void start_workers(struct loader *L, unsigned n)
{
    /* One thread parses inline; more use a pool with main as the scanner,
     * which parses too. */
    L->nworkers = n;
    L->workers = xcalloc(n, sizeof(*L->workers));
    for (size_t i = 0; i < n; i++)
        load_worker_init(&L->workers[i], &L->sh);
    L->nthreads = n - 1;
    L->nslots = L->nthreads ? 2 * (size_t)n + 2 : 1;
    L->slots = xcalloc(L->nslots, sizeof(*L->slots));
    pthread_mutex_init(&L->qlock, NULL);
    pthread_cond_init(&L->work_cv, NULL);
    pthread_cond_init(&L->done_cv, NULL);
    for (unsigned i = 0; i < L->nthreads; i++) {
        struct worker_arg *a = xmalloc(sizeof(*a));
        a->L = L;
        a->w = &L->workers[i];
        if (pthread_create(&L->threads[i], NULL, worker_main, a) != 0) {
            free(a);
            L->nthreads = i; /* run with what started */
            if (i == 0)
                L->nslots = 1;
            break;
        }
    }
    L->self = &L->workers[L->nthreads];
}

static void stop_workers(struct loader *L)
{
    pthread_mutex_lock(&L->qlock);
    L->quit = true;
    pthread_cond_broadcast(&L->work_cv);
    pthread_mutex_unlock(&L->qlock);
    for (unsigned i = 0; i < L->nthreads; i++)
        pthread_join(L->threads[i], NULL);
    for (size_t i = 0; i < L->nworkers; i++)
        load_worker_done(&L->workers[i]);
    free(L->workers);
    for (size_t i = 0; i < L->nslots; i++)
        load_batch_free(&L->slots[i].out);
    free(L->slots);
    pthread_mutex_destroy(&L->qlock);
    pthread_cond_destroy(&L->work_cv);
    pthread_cond_destroy(&L->done_cv);
}

/* Whether the export can read src again for the texts of events kept as
 * written (rawtext.h): a regular file named by its path, read from its
 * start; *o gets its identity. Stdin, memory and pipes keep the texts. */
static bool input_rereadable(const struct source *src, struct rawtext_origin *o)
{
    struct stat st;
    uint64_t next = src->out_done - (src->peek_len - src->peek_pos); /* peeked bytes come again */
    if (src->mem || src->fd < 0 || strcmp(src->name, "-") == 0 || next != 0 ||
        fstat(src->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    rawtext_origin_of(o, &st);
    return true;
}

/* Parse src into a new trace (trace_load_source without the cache). */
static enum status load_parse(struct source *src, const struct load_opts *opts, struct trace **out,
                              struct errinfo *err)
{
    load_hooks_install();

    struct trace *t = xcalloc(1, sizeof(*t));
    t->path = xstrdup(src->name);
    strtab_init(&t->strs);
    strtab_init(&t->vals);
    /* Hot arg keys take ids 1..KEY__COUNT-1 (see load_internal.h). */
    static const char *const hot_keys[] = {
#define HOT_KEY_TEXT(id, text) text,
        HOT_KEY_INFO(HOT_KEY_TEXT)
#undef HOT_KEY_TEXT
    };
    for (size_t i = 0; i < ARRAY_SIZE(hot_keys); i++)
        strtab_intern_cstr(&t->strs, hot_keys[i]);
    (void)VEC_ADD(&t->raws); /* index 0: none */
    *out = t;

    struct loader L = {0};
    L.opts = opts;
    L.src = src;
    L.t = t;
    L.err = err;
    L.sh.t = t;
    L.sh.raw_in_file = t->raw_in_file = input_rereadable(src, &t->origin);
    pthread_mutex_init(&L.sh.lock, NULL);
    hmap_init(&L.meta_seen, 64);
    start_workers(&L, thread_count(opts));
    L.nwins = L.nthreads ? (unsigned)L.nslots + 2 : 1;
    L.wins = xcalloc(L.nwins, sizeof(*L.wins));
    L.cap = WINDOW_INITIAL;
    L.buf = L.wins[0].buf = xmalloc(L.cap);
    L.wins[0].alloc = L.cap;

    enum status st = parse_document(&L);
    drain(&L);
    if (err->status == ST_OK && L.read_err.status != ST_OK)
        st = read_fault(&L); /* a read error is never dropped unreported */
    errinfo_clear(&L.read_err);
    stop_workers(&L);
    if (st == ST_OK && err->status != ST_OK)
        st = err->status; /* a batch failed after the document structure was fine */
    if (st == ST_OK && L.soft) {
        errinfo_set_at(err, ST_FORMAT, src->name, offset_what(&L), L.soft_offset, "%s", L.soft_msg);
        st = ST_FORMAT;
    }
    /* A bad event stops the merging, yet the document is read on for the
     * top-level keys after traceEvents. */
    t->partial = st != ST_OK && (L.stopped || !L.doc_done);

    t->gzip = src->gzip;
    t->file_bytes = src->in_done;
    t->json_bytes = src->out_done;
    if (L.stopped) {
        t->file_bytes = L.cut.file_bytes;
        t->json_bytes = L.cut.json_bytes;
        t->truncated = L.cut.truncated;
        t->lost_bytes = L.cut.lost_bytes;
    }
    for (unsigned i = 0; i < L.nwins; i++)
        free(L.wins[i].buf);
    free(L.wins);
    hmap_free(&L.meta_seen);
    hmap_free(&L.sh.rows);
    pthread_mutex_destroy(&L.sh.lock);

    load_finish(t, &L.counts);
    load_counts_free(&L.counts);
    t->link_require_flow = opts->link_require_flow;
    t->index_one_thread = L.nworkers == 1;
    report_progress(&L, t->ev.n);
    if (!opts->no_index)
        trace_index_steps(t, opts->progress ? report_index_step : NULL, &L);
    return st;
}

/* A trace read from its cache: the input's identity as it is now (the
 * export reads kept texts from it), and each phase reported done. */
static void cached_trace_adopt(struct trace *t, struct source *src, const struct load_opts *opts)
{
    struct stat st;
    if (fstat(src->fd, &st) == 0)
        rawtext_origin_of(&t->origin, &st);
    if (opts->progress) {
        opts->progress(opts->progress_ud, LOAD_PHASE_READ, t->file_bytes, src->in_total, t->ev.n);
        opts->progress(opts->progress_ud, LOAD_PHASE_INDEX, 1, 1, t->ev.n);
    }
}

enum status trace_load_source(struct source *src, const struct load_opts *opts, struct trace **out,
                              struct errinfo *err)
{
    static const struct load_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    struct tracecache tc;
    if (tracecache_begin(&tc, src, opts, opts->cache_notes)) {
        struct trace *t = tracecache_open(&tc, src->name);
        if (t) {
            cached_trace_adopt(t, src, opts);
            tracecache_end(&tc);
            *out = t;
            return ST_OK;
        }
    }
    enum status st = load_parse(src, opts, out, err);
    struct trace *t = *out;
    if (st == ST_OK && !t->partial && !t->truncated && t->raw_in_file && t->ev.n &&
        !(opts->cancel && *opts->cancel)) {
        if (opts->cache_later && tc.active)
            *opts->cache_later = tracecache_later_new(&tc);
        else
            tracecache_store(&tc, t);
    }
    tracecache_end(&tc);
    return st;
}

enum status trace_load_file(const char *path, const struct load_opts *opts, struct trace **out,
                            struct errinfo *err)
{
    struct source src;
    enum status st = opts && opts->regular_only ? source_open_regular(&src, path, err)
                                                : source_open(&src, path, err);
    if (st != ST_OK) {
        source_close(&src);
        struct trace *t = xcalloc(1, sizeof(*t));
        t->path = xstrdup(path);
        strtab_init(&t->strs);
        strtab_init(&t->vals);
        *out = t;
        return st;
    }
    st = trace_load_source(&src, opts, out, err);
    source_close(&src);
    return st;
}

enum status trace_load_mem(const char *name, const void *buf, size_t len,
                           const struct load_opts *opts, struct trace **out, struct errinfo *err)
{
    struct source src;
    source_open_mem(&src, name, buf, len);
    enum status st = trace_load_source(&src, opts, out, err);
    source_close(&src);
    return st;
}

char *trace_load_kept(const struct trace *t)
{
    if (!t || !t->ev.n)
        return NULL;
    if (t->partial)
        return xasprintf("the %zu event%s read before the fault", t->ev.n, t->ev.n == 1 ? "" : "s");
    if (t->ev.n == 1)
        return xstrdup("its one event");
    return xasprintf("all %zu events", t->ev.n);
}
