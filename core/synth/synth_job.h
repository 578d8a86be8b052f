/* Synthetic multi-rank jobs (`torchtop gen --ranks N`): one Kineto trace
 * per rank of a data-parallel step loop, with collectives on a
 * communication stream carrying NCCL's metadata, a per-rank arrival skew
 * and one straggler, so that tests can check every cross-rank measure
 * against values computed from the files and benchmarks can scale.
 *
 * Per step and collective c, rank r launches its collective at
 *   T(step) + 1000 + 2000 c + skew(r, c, step) µs,
 * skew = ((7 r + 3 c + step) mod 13) x 4 µs, plus straggler_us for the
 * straggler (with straggler_after_last, the latest of the others' arrivals
 * plus straggler_us instead); every rank's kernel ends at the latest arrival + latency(c) +
 * (r mod 3) µs. A compute kernel (stream 7) precedes each collective
 * (stream 20). Times are whole µs from a fixed epoch; the same options
 * always give the same bytes. */
#ifndef TORCHTOP_CORE_SYNTH_JOB_H
#define TORCHTOP_CORE_SYNTH_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/errinfo.h"
#include "core/base/strbuf.h"

#define SYNTH_JOB_MAX_RANKS 4096

struct synth_job_opts {
    unsigned ranks;        /* 1..SYNTH_JOB_MAX_RANKS */
    unsigned steps;        /* profiler steps, 1..1000 (0 = 2) */
    unsigned colls;        /* implicit-sync collectives per step, 1..1000 (0 = 4) */
    int straggler;         /* the slow rank; -1 = ranks / 2 */
    unsigned straggler_us; /* its extra delay (0 = 300) */
    /* `gen --inject straggler:US`: the straggler arrives straggler_us
     * after the last of the others at every collective (instead of after
     * its own skewed time), so that each step holds exactly colls x
     * straggler_us of waiting for it */
    bool straggler_after_last;
    bool metadata; /* collective metadata args (else plain kernels,
                      matched by order) */
    bool gzip;     /* write rank-K.json.gz instead of rank-K.json */
};

/* The JSON text of rank r's trace, appended to out. */
void synth_job_rank(const struct synth_job_opts *o, unsigned r, struct strbuf *out);

/* Write every rank's trace into directory dir (created if missing) as
 * rank-K.json[.gz]. ST_IO with err naming the file on failure. */
enum status synth_job_write(const struct synth_job_opts *o, const char *dir, struct errinfo *err);

#endif
