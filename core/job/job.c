/* Multi-rank jobs: loading every rank's trace or summary in turn and
 * numbering the ranks. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "core/job/job.h"
#include "core/job/jobpar.h"
#include "core/trace/tree.h"

const char *job_rank_source_name(enum job_rank_source s)
{
    switch (s) {
    case JOB_RANK_DIST:
        return "distributedInfo";
    case JOB_RANK_NAME:
        return "file name";
    default:
        return "order";
    }
}

void job_free(struct job *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->ranks.n; i++)
        ranksum_free(j->ranks.v[i]);
    VEC_FREE(&j->ranks);
    VEC_FREE(&j->rank_of);
    free(j);
}

struct numbered {
    int rank;
    struct ranksum *s;
};
#define NUM_LESS(a, b) ((a)->rank < (b)->rank)
SORT_DEFINE(num_sort, struct numbered, NUM_LESS)

enum status job_from_summaries(struct ranksum **sums, size_t n, struct job **out,
                               struct errinfo *err)
{
    *out = NULL;
    bool all_dist = n > 0, all_name = n > 0;
    int ws = -1;
    size_t ws_at = 0;
    enum status st = ST_OK;
    for (size_t i = 0; i < n; i++) {
        all_dist &= sums[i]->dist_rank >= 0;
        all_name &= sums[i]->name_rank >= 0;
        if (sums[i]->world_size < 0 || st != ST_OK)
            continue;
        if (ws < 0) {
            ws = sums[i]->world_size;
            ws_at = i;
        } else if (sums[i]->world_size != ws) {
            errinfo_set(err, ST_FORMAT, ranksum_file(sums[i]), -1,
                        "distributedInfo.world_size %d, but %s has %d: the ranks of one job "
                        "expected",
                        sums[i]->world_size, ranksum_file(sums[ws_at]), ws);
            st = ST_FORMAT;
        }
    }
    struct job *j = xcalloc(1, sizeof(*j));
    j->world_size = ws;
    j->rank_source = all_dist ? JOB_RANK_DIST : all_name ? JOB_RANK_NAME : JOB_RANK_ORDER;
    struct numbered *num = xmalloc((n ? n : 1) * sizeof(*num));
    for (size_t i = 0; i < n; i++) {
        num[i].s = sums[i];
        num[i].rank = j->rank_source == JOB_RANK_DIST   ? sums[i]->dist_rank
                      : j->rank_source == JOB_RANK_NAME ? sums[i]->name_rank
                                                        : (int)i;
    }
    num_sort(num, n);
    for (size_t i = 1; i < n && st == ST_OK; i++)
        if (num[i].rank == num[i - 1].rank) {
            errinfo_set(err, ST_FORMAT, ranksum_file(num[i].s), -1,
                        "rank %d (from its %s), which %s claims too: one file per rank expected",
                        num[i].rank, job_rank_source_name(j->rank_source),
                        ranksum_file(num[i - 1].s));
            st = ST_FORMAT;
        }
    for (size_t i = 0; i < n; i++) {
        VEC_PUSH(&j->ranks, num[i].s);
        VEC_PUSH(&j->rank_of, num[i].rank);
    }
    free(num);
    if (st != ST_OK) {
        job_free(j);
        return st;
    }
    *out = j;
    return ST_OK;
}

/* The ranks being read (jobpar hands out the inputs). */
struct loading {
    const struct job_inputs *in;
    const struct job_load_opts *o;
    unsigned parse_threads; /* for each trace */
    struct ranksum **sums;  /* per input */
    enum status *st;        /* per input */
    struct errinfo *errs;   /* per input */
};

/* Open input i once, tell a summary from a trace by bytes peeked from
 * that one source, and read it with the loader this picks: a FIFO named
 * on the command line is read once; a file from a directory or pattern
 * is opened only if it is a regular file. */
static bool load_one(void *ud, size_t i)
{
    struct loading *L = ud;
    const struct job_input *in = &L->in->v.v[i];
    struct source src;
    struct errinfo *err = &L->errs[i];
    enum status st =
        in->named ? source_open(&src, in->path, err) : source_open_regular(&src, in->path, err);
    if (st == ST_OK && ranksum_source_is_summary(&src, err)) {
        st = ranksum_read_source(&src, &L->sums[i], err);
        if (st == ST_OK)
            L->sums[i]->name_rank = job_inputs_name_rank(L->sums[i]->source);
    } else if (st == ST_OK && err->status == ST_OK) {
        struct trace *t = NULL;
        st = job_load_rank_source(in, &src, L->o ? &L->o->load : NULL, L->parse_threads, &t,
                                  &L->sums[i], err);
        /* The trace goes as soon as its summary is made. */
        trace_free(t);
    } else if (st == ST_OK) {
        st = err->status; /* the peek's read fault */
    }
    source_close(&src);
    L->st[i] = st;
    return st == ST_OK;
}

enum status job_load_rank_source(const struct job_input *in, struct source *src,
                                 const struct load_opts *base, unsigned parse_threads,
                                 struct trace **t, struct ranksum **sum, struct errinfo *err)
{
    struct load_opts lo = base ? *base : (struct load_opts){0};
    lo.no_index = false;
    lo.progress = NULL;
    lo.threads = parse_threads;
    enum status st = trace_load_source(src, &lo, t, err);
    if (st == ST_OK) {
        *sum = ranksum_from_trace(*t);
        (*sum)->name_rank = in->name_rank;
    }
    return st;
}

enum status job_load_rank(const struct job_input *in, const struct load_opts *base,
                          unsigned parse_threads, struct trace **t, struct ranksum **sum,
                          struct errinfo *err)
{
    struct source src;
    enum status st =
        in->named ? source_open(&src, in->path, err) : source_open_regular(&src, in->path, err);
    if (st != ST_OK) {
        source_close(&src);
        *t = NULL;
        return st;
    }
    st = job_load_rank_source(in, &src, base, parse_threads, t, sum, err);
    source_close(&src);
    return st;
}

static void load_begin(void *ud, size_t i, size_t n)
{
    struct loading *L = ud;
    if (L->o && L->o->progress)
        L->o->progress(L->o->progress_ud, i, n, L->in->v.v[i].path);
}

size_t job_load_workers(const struct job_inputs *in, unsigned threads, unsigned *parse_threads)
{
    size_t n = in->v.n, workers = jobpar_workers(n, JOB_LOAD_MAX);
    bool stdin_used = false;
    for (size_t i = 0; i < n; i++)
        stdin_used |= strcmp(in->v.v[i].path, "-") == 0;
    if (stdin_used || workers < 2) {
        *parse_threads = threads;
        return 1;
    }
    *parse_threads = threads ? threads : 1;
    return workers;
}

enum status job_first_fault(size_t n, const enum status *st, struct errinfo *errs,
                            struct errinfo *err)
{
    enum status first = ST_OK;
    for (size_t i = 0; i < n; i++) {
        if (first == ST_OK && st[i] != ST_OK) {
            first = st[i];
            *err = errs[i];
            memset(&errs[i], 0, sizeof(errs[i]));
        }
        errinfo_clear(&errs[i]);
    }
    return first;
}

enum status job_load(const struct job_inputs *in, const struct job_load_opts *o, struct job **out,
                     struct errinfo *err)
{
    *out = NULL;
    size_t n = in->v.n;
    struct loading L = {.in = in, .o = o};
    L.sums = xcalloc(n + 1, sizeof(*L.sums));
    L.st = xcalloc(n + 1, sizeof(*L.st));
    L.errs = xcalloc(n + 1, sizeof(*L.errs));
    size_t workers = job_load_workers(in, o ? o->load.threads : 0, &L.parse_threads);
    jobpar_run(n, workers, load_one, load_begin, &L);
    enum status st = job_first_fault(n, L.st, L.errs, err);
    if (st == ST_OK)
        for (size_t i = 0; i < n; i++)
            if (!L.sums[i]) {
                /* An input skipped after another's fault cannot be missing here. */
                st = ST_IO;
                errinfo_set(err, ST_IO, in->v.v[i].path, -1, "not read");
            }
    if (st != ST_OK) {
        for (size_t i = 0; i < n; i++)
            ranksum_free(L.sums[i]);
    } else {
        st = job_from_summaries(L.sums, n, out, err);
    }
    free(L.sums);
    free(L.st);
    free(L.errs);
    return st;
}
