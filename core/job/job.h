/* A multi-rank job: one rank summary per rank, in rank order, and the
 * rule that numbered them (docs/metrics.md §15).
 *
 * Ranks come from distributedInfo.rank when every input has one, else
 * from the file names when every name gives one (job_inputs_name_rank),
 * else from the order of the inputs. Two inputs with one rank, or inputs
 * whose distributedInfo.world_size differ, are errors (ST_FORMAT naming
 * both files). Ranks are read in parallel (one per core, at most
 * JOB_LOAD_MAX at once, one parser thread each), and each trace is freed
 * once summarized: a job holds summaries, never events. */
#ifndef TORCHTOP_CORE_JOB_H
#define TORCHTOP_CORE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/errinfo.h"
#include "core/base/vec.h"
#include "core/job/job_inputs.h"
#include "core/job/ranksum.h"
#include "core/trace/load.h"

/* The most traces read (and held in memory) at once. */
#define JOB_LOAD_MAX 4

enum job_rank_source {
    JOB_RANK_DIST,  /* distributedInfo.rank */
    JOB_RANK_NAME,  /* the file names */
    JOB_RANK_ORDER, /* the order of the inputs */
};

struct job {
    VEC(struct ranksum *) ranks; /* owned, ascending rank */
    VEC(int) rank_of;            /* rank of ranks.v[i] */
    enum job_rank_source rank_source;
    int world_size; /* from distributedInfo, -1 = none */
};

/* Called before each input is read (i of n), from a loading thread, one
 * call at a time. */
typedef void (*job_progress_fn)(void *ud, size_t i, size_t n, const char *path);

struct job_load_opts {
    struct load_opts load; /* for each trace (its progress callback is not used) */
    job_progress_fn progress;
    void *progress_ud;
};

/* "distributedInfo", "file name", "order". */
const char *job_rank_source_name(enum job_rank_source s);

/* How the job's traces are read, for job_load and whoever reads them the
 * same way: ranks in parallel, one parser thread each, at most
 * JOB_LOAD_MAX traces in memory; one rank, or standard input among them,
 * is read alone with the parser's `threads`. Returns the workers for
 * jobpar_run; *parse_threads gets each trace's parser threads. */
size_t job_load_workers(const struct job_inputs *in, unsigned threads, unsigned *parse_threads);

/* Load input i's trace as the job loader does (indexed, no progress bar,
 * parse_threads parser threads, the rest of base's options; base may be
 * NULL) and summarise it into *sum, named by the input's file-name rank.
 * On success *t is the trace, which the caller frees once done with it.
 * An input the user did not name (in->named false) is read only if it is
 * a regular file (source_open_regular). */
enum status job_load_rank(const struct job_input *in, const struct load_opts *base,
                          unsigned parse_threads, struct trace **t, struct ranksum **sum,
                          struct errinfo *err);

/* Same from a source opened on the input (the caller closes it). */
enum status job_load_rank_source(const struct job_input *in, struct source *src,
                                 const struct load_opts *base, unsigned parse_threads,
                                 struct trace **t, struct ranksum **sum, struct errinfo *err);

/* The first fault of st[0..n) in input order, moved into *err; every
 * errs[i] is cleared. ST_OK when there is none. */
enum status job_first_fault(size_t n, const enum status *st, struct errinfo *errs,
                            struct errinfo *err);

/* Load every input (trace or rank summary, told apart by content) and
 * number the ranks. On ST_OK *out holds the job (free with job_free). On
 * a fault *out is NULL and err names the file: a trace that does not load
 * whole is an error here, since a cross-rank table over part of a rank
 * would mislead. */
enum status job_load(const struct job_inputs *in, const struct job_load_opts *o, struct job **out,
                     struct errinfo *err);

/* Number summaries (taken over, freed on failure too) and build the job:
 * the rules above. paths[i] names summaries[i] in messages. */
enum status job_from_summaries(struct ranksum **sums, size_t n, struct job **out,
                               struct errinfo *err);

void job_free(struct job *j);

#endif
