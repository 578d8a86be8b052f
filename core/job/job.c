/* Multi-rank jobs: loading every rank's trace or summary in turn and
 * numbering the ranks. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "core/job/job.h"
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
            errinfo_set(err, ST_FORMAT, sums[i]->source, -1,
                        "distributedInfo.world_size %d, but %s has %d: the ranks of one job "
                        "expected",
                        sums[i]->world_size, sums[ws_at]->source, ws);
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
            errinfo_set(err, ST_FORMAT, num[i].s->source, -1,
                        "rank %d (from its %s), which %s claims too: one file per rank expected",
                        num[i].rank, job_rank_source_name(j->rank_source), num[i - 1].s->source);
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

enum status job_load(const struct job_inputs *in, const struct job_load_opts *o, struct job **out,
                     struct errinfo *err)
{
    *out = NULL;
    struct ranksum **sums = xcalloc(in->v.n ? in->v.n : 1, sizeof(*sums));
    enum status st = ST_OK;
    size_t n = 0;
    for (; n < in->v.n && st == ST_OK; n++) {
        const char *path = in->v.v[n].path;
        if (o && o->progress)
            o->progress(o->progress_ud, n, in->v.n, path);
        if (ranksum_is_summary(path)) {
            st = ranksum_read(path, &sums[n], err);
            if (st == ST_OK)
                sums[n]->name_rank = job_inputs_name_rank(sums[n]->source);
            continue;
        }
        struct load_opts lo = o ? o->load : (struct load_opts){0};
        lo.no_index = false;
        struct trace *t = NULL;
        st = trace_load_file(path, &lo, &t, err);
        if (st == ST_OK) {
            sums[n] = ranksum_from_trace(t);
            sums[n]->name_rank = in->v.v[n].name_rank;
        }
        trace_free(t);
    }
    if (st != ST_OK) {
        for (size_t i = 0; i < n; i++)
            ranksum_free(sums[i]);
        free(sums);
        return st;
    }
    st = job_from_summaries(sums, n, out, err);
    free(sums);
    return st;
}
