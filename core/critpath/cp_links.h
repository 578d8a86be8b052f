/* The links between CUDA events and the launches around them that the
 * critical path's sync edges follow (HTA's critical_path_analysis.py at
 * f4d0062, _add_gpu_cpu_sync_edges): for each cudaEventRecord, the launch
 * before it on the stream the event was recorded on; for each
 * cudaStreamWaitEvent, the launch after it on its thread and stream.
 * Worked out once per frame (cp_frame_new), looked up per region.
 *
 * Ownership: the arrays belong to the frame that holds the links. */
#ifndef TORCHTOP_CORE_CP_LINKS_H
#define TORCHTOP_CORE_CP_LINKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cp_frame;

struct cp_record_link {
    int64_t corr; /* the cudaEventRecord's correlation */
    int32_t prev; /* frame row of the launch before it on its stream, -1 */
};

struct cp_wait_link {
    uint32_t row; /* frame row of a cudaStreamWaitEvent call */
    int32_t next; /* frame row of the launch after it on its thread and stream, -1 */
};

struct cp_links {
    struct cp_record_link *recs; /* by correlation */
    size_t nrec;
    struct cp_wait_link *waits; /* by row */
    size_t nwait;
    bool have_records; /* some record found the stream it was made on */
};

/* Fill l from the frame's rows, correlations and queue (cp_frame_new
 * calls it once the rows are linked). */
void cp_links_build(const struct cp_frame *f, struct cp_links *l);
void cp_links_free(struct cp_links *l);

/* The launch before the record of correlation corr; -1 when none. */
int32_t cp_links_record_prev(const struct cp_links *l, int64_t corr);
/* The launch after wait call `row`; -1 when none. */
int32_t cp_links_wait_next(const struct cp_links *l, uint32_t row);

#endif
