/* One rank out of a job's inputs, for the commands that read one trace per
 * side (diff): `--control-rank N DIR` means the trace of rank N there.
 *
 * The inputs are numbered without reading them: by the ranks their file
 * names give (job_inputs_name_rank) when every name gives one and no two
 * agree, else by their order (0, 1, ...). A job read whole numbers its
 * ranks by distributedInfo first (job.h); the caller checks the trace it
 * loads against its distributedInfo.rank. */
#ifndef TORCHTOP_CORE_JOB_PICK_H
#define TORCHTOP_CORE_JOB_PICK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/job/job_inputs.h"

/* Pick rank `rank` of in (-1: none asked for, which is right only when in
 * holds one input). True with its index in *out; false with a sentence in
 * msg (size msgn) saying what in holds, e.g. "8 traces, ranks 0-7 by file
 * name" or "no rank 9 among 8 traces, ranks 0-7 by file name". */
bool job_pick_rank(const struct job_inputs *in, int rank, size_t *out, char *msg, size_t msgn);

/* The rank of input i under the numbering above. */
int job_pick_rank_of(const struct job_inputs *in, size_t i);

#endif
