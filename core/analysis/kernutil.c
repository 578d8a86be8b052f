/* Kernel utilization args and their time-weighted means (kernutil.h). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/wide.h"
#include "core/analysis/kernutil.h"
#include "core/trace/argpack.h"

static uint32_t key_id(const struct trace *t, const char *key)
{
    return strtab_find(&t->strs, key, strlen(key));
}

void kernutil_keys_init(struct kernutil_keys *k, const struct trace *t)
{
    k->grid = key_id(t, "grid");
    k->block = key_id(t, "block");
    k->regs = key_id(t, "registers per thread");
    k->smem = key_id(t, "shared memory");
    k->bps = key_id(t, "blocks per SM");
    k->wps = key_id(t, "warps per SM");
    k->occ = key_id(t, "est. achieved occupancy %");
}

/* "[564, 1, 1]" (kept as compact JSON text) into d. */
static bool read_dim3(const struct trace *t, const struct argval *a, int64_t d[3])
{
    if (a->type != ARG_JSON)
        return false;
    long long x, y, z;
    if (sscanf(trace_str(t, a->v.s), "[%lld,%lld,%lld]", &x, &y, &z) != 3)
        return false;
    d[0] = x, d[1] = y, d[2] = z;
    return true;
}

bool kernutil_read(const struct trace *t, const struct kernutil_keys *k, uint32_t ev,
                   struct kernutil *u)
{
    memset(u, 0, sizeof(*u));
    if (k->grid == IDX_NONE && k->bps == IDX_NONE && k->occ == IDX_NONE && k->regs == IDX_NONE)
        return false;
    struct argiter it;
    struct argval a;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a)) {
        double d;
        int64_t i;
        if (a.key == k->grid) {
            if (read_dim3(t, &a, u->grid))
                u->has |= KU_GRID;
        } else if (a.key == k->block) {
            if (read_dim3(t, &a, u->block))
                u->has |= KU_BLOCK;
        } else if (a.key == k->regs) {
            if (argpack_val_int(t, &a, &i) && i >= 0)
                u->regs = i, u->has |= KU_REGS;
        } else if (a.key == k->smem) {
            if (argpack_val_int(t, &a, &i) && i >= 0)
                u->smem = i, u->has |= KU_SMEM;
        } else if (a.key == k->bps) {
            /* Negative values are CUPTI's "unknown": left out, as the
             * TensorBoard plugin left them out. */
            if (argpack_val_number(t, &a, &d) && isfinite(d) && d >= 0)
                u->blocks_per_sm = d, u->has |= KU_BPS;
        } else if (a.key == k->wps) {
            if (argpack_val_number(t, &a, &d) && isfinite(d) && d >= 0)
                u->warps_per_sm = d, u->has |= KU_WPS;
        } else if (a.key == k->occ) {
            if (argpack_val_number(t, &a, &d) && isfinite(d) && d >= 0)
                u->occupancy = d, u->has |= KU_OCC;
        }
    }
    return u->has != 0;
}

static void same_dim3(int64_t acc[3], uint8_t *state, const int64_t d[3])
{
    if (*state == 0) {
        memcpy(acc, d, 3 * sizeof(*d));
        *state = 1;
    } else if (*state == 1 && memcmp(acc, d, 3 * sizeof(*d)) != 0) {
        *state = 2;
    }
}

void kernutil_acc_add(struct kernutil_acc *a, const struct kernutil *u, int64_t dur_ns)
{
    a->ns = wide_add_sat(a->ns, dur_ns);
    if (!u)
        return;
    double w = (double)dur_ns;
    if (u->has & KU_BPS) {
        a->bps_ns += w;
        a->bps_sum += w * u->blocks_per_sm;
        a->eff_sum += w * kernutil_sm_efficiency(u);
    }
    if (u->has & KU_WPS) {
        a->wps_ns += w;
        a->wps_sum += w * u->warps_per_sm;
    }
    if (u->has & KU_OCC) {
        double occ = u->occupancy > 100 ? 100 : u->occupancy;
        a->occ_ns += w;
        a->occ_sum += w * u->occupancy;
        a->unocc_ns += w * (1.0 - occ / 100.0);
    }
    if (u->has & KU_GRID)
        same_dim3(a->grid, &a->grid_state, u->grid);
    if (u->has & KU_BLOCK)
        same_dim3(a->block, &a->block_state, u->block);
    if ((u->has & KU_REGS) && (!(a->has & KU_REGS) || u->regs > a->regs_max))
        a->regs_max = u->regs;
    if ((u->has & KU_SMEM) && (!(a->has & KU_SMEM) || u->smem > a->smem_max))
        a->smem_max = u->smem;
    a->has |= u->has;
}

const struct table_col kernutil_cols[KUC__N] = {
    [KUC_GRID] = {"grid", "grid", COL_TEXT, 0, COLF_ASC},
    [KUC_BLOCK] = {"block", "block", COL_TEXT, 0, COLF_ASC},
    [KUC_REGS] = {"registers per thread", "regs", COL_INT, 0, 0},
    [KUC_SMEM] = {"shared memory", "smem", COL_INT, 0, COLF_BYTES},
    [KUC_BPS] = {"blocks per SM", "blocks/SM", COL_FLOAT, 2, 0},
    [KUC_WPS] = {"warps per SM", "warps/SM", COL_FLOAT, 2, 0},
    [KUC_OCC] = {"est. achieved occupancy %", "occ %", COL_PERCENT, 1, 0},
    [KUC_SM_EFF] = {"est. SM efficiency %", "SM eff %", COL_PERCENT, 1, 0},
    [KUC_UNOCC] = {"unoccupied_us", "unocc µs", COL_FLOAT, 3, 0},
};

static void put_dim3(struct table *tab, size_t row, size_t col, const int64_t d[3], uint8_t state)
{
    if (state == 2) {
        table_set_text(tab, row, col, "mixed");
    } else if (state == 1) {
        char buf[80];
        snprintf(buf, sizeof(buf), "[%" PRId64 ", %" PRId64 ", %" PRId64 "]", d[0], d[1], d[2]);
        table_set_text(tab, row, col, buf);
    }
}

void kernutil_acc_put(const struct kernutil_acc *a, struct table *tab, size_t row, size_t first_col)
{
    put_dim3(tab, row, first_col + KUC_GRID, a->grid, a->grid_state);
    put_dim3(tab, row, first_col + KUC_BLOCK, a->block, a->block_state);
    if (a->has & KU_REGS)
        table_set_int(tab, row, first_col + KUC_REGS, a->regs_max);
    if (a->has & KU_SMEM)
        table_set_int(tab, row, first_col + KUC_SMEM, a->smem_max);
    /* Means weigh each kernel by its duration: a group of zero-length
     * kernels has none. */
    if (a->has & KU_BPS) {
        table_set_float(tab, row, first_col + KUC_BPS,
                        a->bps_ns > 0 ? a->bps_sum / a->bps_ns : NAN);
        table_set_float(tab, row, first_col + KUC_SM_EFF,
                        a->bps_ns > 0 ? 100.0 * a->eff_sum / a->bps_ns : NAN);
    }
    if ((a->has & KU_WPS) && a->wps_ns > 0)
        table_set_float(tab, row, first_col + KUC_WPS, a->wps_sum / a->wps_ns);
    if ((a->has & KU_OCC) && a->occ_ns > 0) {
        table_set_float(tab, row, first_col + KUC_OCC, a->occ_sum / a->occ_ns);
        table_set_float(tab, row, first_col + KUC_UNOCC, a->unocc_ns / 1e3);
    }
}

void kernutil_hide_empty(struct table *tab, size_t first_col, uint8_t has)
{
    static const uint8_t needs[KUC__N] = {
        [KUC_GRID] = KU_GRID, [KUC_BLOCK] = KU_BLOCK, [KUC_REGS] = KU_REGS,
        [KUC_SMEM] = KU_SMEM, [KUC_BPS] = KU_BPS,     [KUC_WPS] = KU_WPS,
        [KUC_OCC] = KU_OCC,   [KUC_SM_EFF] = KU_BPS,  [KUC_UNOCC] = KU_OCC,
    };
    for (size_t c = 0; c < KUC__N; c++)
        if (!(has & needs[c]))
            tab->cols[first_col + c].flags |= COLF_DETAIL;
}
