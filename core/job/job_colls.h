/* Collectives matched across the ranks of a job (TraceLens's
 * NcclAnalyser, docs/metrics.md §15).
 *
 * Matching: when some collective kernel carries a "Process Group Name" or
 * a rank's collectives run on more than one stream, an instance is the
 * K-th collective (start order) of one process group on every rank that
 * has it, id "PG_K" (no name: group "Unknown_Group"), and only
 * implicit-sync collectives are kept (all-reduce, reduce-scatter,
 * all-gather, all-to-all, by "Collective name"). Otherwise (TraceLens's
 * simplified mode) the K-th collective of every rank is one instance, id
 * "K", group "all", every collective kept but those whose known name is
 * of another kind.
 *
 * When every collective kernel of every rank carries "Seq" (recent
 * Kineto), an instance is instead the collectives of one "Comms Id" (the
 * communicator) with one Seq, id "COMMS_SEQ": the same collective on
 * every rank even where a rank's trace starts or ends in the middle of a
 * run of them, which matching by order gets wrong. Which collectives are
 * kept is as above. */
#ifndef TORCHTOP_CORE_JOB_COLLS_H
#define TORCHTOP_CORE_JOB_COLLS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/job/job.h"

/* One rank's part in an instance. */
struct coll_part {
    uint32_t rank_ix; /* index into job.ranks */
    uint32_t coll;    /* index into that rank's colls */
};

struct coll_inst {
    char *id;              /* collective_id (owned) */
    const char *pg_name;   /* process group name ("all" in simplified mode) */
    uint32_t index;        /* K: position in the group */
    uint32_t first, count; /* parts[first .. first+count), ascending rank */
    int kind;              /* enum coll_kind */
    /* The measures (ns; docs/metrics.md §15). */
    int64_t comm_latency, skew_start, skew_end, earliest_start, latest_start;
    double avg_wait;
    uint32_t earliest_rank_ix; /* index into job.ranks of the earliest arrival */
    uint32_t last_rank_ix;     /* the latest arrival (ties: the lowest rank) */
};

enum coll_kind {
    COLL_UNKNOWN,
    COLL_ALLREDUCE,
    COLL_REDUCESCATTER,
    COLL_ALLGATHER,
    COLL_ALLTOALL,
    COLL_OTHER, /* a known name of another kind (broadcast, all_to_allv, ...) */
};

struct job_colls {
    bool simplified;               /* no process group metadata (TraceLens's simplified mode) */
    bool by_seq;                   /* matched by Comms Id and Seq (every kernel has them) */
    VEC(struct coll_inst) insts;   /* ascending earliest start */
    VEC(struct coll_part) parts;   /* of all instances */
    VEC(int64_t) wait_total;       /* per rank index: sum of its wait times, ns */
    VEC(uint32_t) n_last, n_first; /* per rank index: arrived last / first */
    VEC(int64_t) coll_dur;         /* per rank index: every collective kernel's duration, ns */
};

/* Match the collectives of j into c (filled here; free with
 * job_colls_free). */
void job_colls_build(const struct job *j, struct job_colls *c);
void job_colls_free(struct job_colls *c);

/* The kind of a "Collective name" (TraceLens's names); COLL_UNKNOWN for
 * NULL or an unknown name. */
enum coll_kind job_colls_kind(const char *name);
/* The collective a NCCL/RCCL kernel runs, from its name, for kernels
 * with no "Collective name" arg: "ncclKernel_AllReduce_RING_LL_Sum_float"
 * and "ncclDevKernel_AllReduce_Sum_f32_RING_LL" are "allreduce" of
 * "Float"; SendRecv kernels (all-to-all, send and receive) are
 * "sendrecv". *dtype is the element type where the name has the
 * reduction's (copies name a byte type, not the data's), else NULL. False
 * (both NULL) when the name is not a NCCL/RCCL kernel's. Static strings. */
bool job_colls_from_kernel(const char *kernel, const char **name, const char **dtype);
/* Bytes per element of a dtype name ("Float" 4, "BFloat16" 2, ...), 0
 * when unknown. */
int job_colls_dtype_bytes(const char *dtype);
/* NCCL's bus bandwidth factor for a kind and group size, NaN when none. */
double job_colls_bus_factor(enum coll_kind k, int group_size);

#endif
