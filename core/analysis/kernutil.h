/* Kernel utilization: the launch configuration and occupancy CUPTI
 * records on each CUDA kernel event (grid, block, registers per thread,
 * shared memory, blocks and warps per SM, est. achieved occupancy %), and
 * the time-weighted means of them over groups of kernels
 * (docs/metrics.md §19.2).
 *
 * Nothing is made up where the trace has no such arg (ROCm and MTIA
 * traces, older CUDA traces): the value is absent, shown empty, never 0. */
#ifndef TORCHTOP_CORE_KERNUTIL_H
#define TORCHTOP_CORE_KERNUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/table.h"
#include "core/trace/trace.h"

enum kernutil_has {
    KU_GRID = 1 << 0,
    KU_BLOCK = 1 << 1,
    KU_REGS = 1 << 2,
    KU_SMEM = 1 << 3,
    KU_BPS = 1 << 4, /* blocks per SM */
    KU_WPS = 1 << 5, /* warps per SM */
    KU_OCC = 1 << 6, /* est. achieved occupancy % */
};

/* One kernel's utilization args. */
struct kernutil {
    int64_t grid[3], block[3];
    int64_t regs; /* registers per thread */
    int64_t smem; /* shared memory, bytes */
    double blocks_per_sm, warps_per_sm;
    double occupancy; /* est. achieved occupancy, percent */
    uint8_t has;      /* enum kernutil_has */
};

/* The ids of the arg keys, looked up once per trace. */
struct kernutil_keys {
    uint32_t grid, block, regs, smem, bps, wps, occ;
};
void kernutil_keys_init(struct kernutil_keys *k, const struct trace *t);

/* Read event ev's args into u; false when it has none of them. */
bool kernutil_read(const struct trace *t, const struct kernutil_keys *k, uint32_t ev,
                   struct kernutil *u);

/* Estimated SM efficiency of one kernel, as the TensorBoard plugin
 * estimated it: its blocks per SM capped at 1 (a fraction). */
static inline double kernutil_sm_efficiency(const struct kernutil *u)
{
    return u->blocks_per_sm < 1.0 ? u->blocks_per_sm : 1.0;
}

/* Sums over a group of kernels, for time-weighted means. */
struct kernutil_acc {
    int64_t ns;             /* kernel time of the group */
    double bps_ns, bps_sum; /* time of the kernels with blocks per SM; sum of dur * value */
    double wps_ns, wps_sum;
    double occ_ns, occ_sum; /* ... with est. achieved occupancy (percent) */
    double eff_sum;         /* sum of dur * SM efficiency (over bps_ns) */
    double unocc_ns;        /* sum of dur * (1 - occupancy / 100) */
    int64_t grid[3], block[3];
    uint8_t grid_state, block_state; /* 0 none seen, 1 all alike, 2 they differ */
    int64_t regs_max, smem_max;
    uint8_t has; /* union of the kernels' enum kernutil_has */
};

/* Add one kernel of duration dur_ns (its args u, NULL when none). */
void kernutil_acc_add(struct kernutil_acc *a, const struct kernutil *u, int64_t dur_ns);

/* The columns kernutil_acc_put fills, in order. */
enum {
    KUC_GRID,
    KUC_BLOCK,
    KUC_REGS,
    KUC_SMEM,
    KUC_BPS,
    KUC_WPS,
    KUC_OCC,
    KUC_SM_EFF,
    KUC_UNOCC,
    KUC__N
};
extern const struct table_col kernutil_cols[KUC__N];

/* Fill row's columns first_col .. first_col + KUC__N - 1 (laid out as
 * kernutil_cols) from a: means over the kernels that have the value,
 * empty where none has it. */
void kernutil_acc_put(const struct kernutil_acc *a, struct table *tab, size_t row,
                      size_t first_col);

/* Leave out of text output (COLF_DETAIL) each column no kernel of the
 * table has a value for (has: the union of the groups' enum kernutil_has). */
void kernutil_hide_empty(struct table *tab, size_t first_col, uint8_t has);

#endif
