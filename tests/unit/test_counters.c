/* Counters and utilization on small hand-made traces: the hardware
 * counters of CUPTI range-profiler ranges paired with their launches
 * (core/analysis/rangecounters.h). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/analysis/analysis.h"
#include "core/analysis/ctracks.h"
#include "core/analysis/kernstats.h"
#include "core/analysis/kernutil.h"
#include "core/analysis/memtrace.h"
#include "core/analysis/rangecounters.h"
#include "core/analysis/utilization.h"
#include "core/trace/tree.h"
#include "testutil.h"

#define OP(name, ts, dur)                                                                          \
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" #ts       \
    ",\"dur\":" #dur "}"
#define LAUNCH(ts, corr)                                                                           \
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"    \
    "\"ts\":" #ts ",\"dur\":2,\"args\":{\"correlation\":" #corr "}}"
#define RANGE(name, ts, args)                                                                      \
    "{\"ph\":\"X\",\"cat\":\"cuda_profiler_range\",\"name\":\"" name "\",\"pid\":0,\"tid\":0,"     \
    "\"ts\":" #ts ",\"dur\":100,\"args\":{" args "}}"
#define SASS(op) "\"smsp__sass_thread_inst_executed_op_" op "_pred_on.sum\""

/* A kernel on device 0 stream 7 launched by correlation corr; args
 * are the utilization args, written out. */
#define KERNEL(name, ts, dur, corr, args)                                                          \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts       \
    ",\"dur\":" #dur ",\"args\":{\"device\":0,\"stream\":7,\"correlation\":" #corr args "}}"
#define UTIL(grid, block, regs, smem, bps, wps, occ)                                               \
    ",\"grid\":" grid ",\"block\":" block ",\"registers per thread\":" #regs                       \
    ",\"shared memory\":" #smem ",\"blocks per SM\":" #bps ",\"warps per SM\":" #wps               \
    ",\"est. achieved occupancy %\":" #occ

/* load_events, then indexed as a loaded file is. */
static struct trace *load_indexed(const char *const *evs)
{
    struct trace *t = load_events(evs);
    trace_index(t);
    return t;
}

static const struct table *table_named(const struct table_list *l, const char *name)
{
    for (size_t i = 0; i < l->items.n; i++)
        if (strcmp(l->items.v[i]->name, name) == 0)
            return l->items.v[i];
    fail_msg("no table %s", name);
    return NULL;
}

static union cell cell_of(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    return table_cell(t, row, (size_t)c);
}

/* Two ranges, written out of time order, pair with the two launches in
 * time order; a counter one range lacks is empty there, a real-valued
 * counter is a float column, and the FLOPs weigh FMAs twice. */
static void test_ranges_pair_in_time_order(void **state)
{
    (void)state;
    static const char *const evs[] = {
        OP("aten::linear", 10, 50),
        OP("aten::addmm", 12, 20),
        LAUNCH(14, 1),
        OP("aten::relu", 70, 20),
        LAUNCH(72, 2),
        RANGE("relu_kernel", 2000,
              SASS("fmul") ":7,"
                           "\"ratio\":0.5"),
        RANGE("gemm", 1000,
              SASS("ffma") ":10," SASS("fmul") ":3,"
                                               "\"ratio\":2"),
        NULL,
    };
    struct trace *t = load_indexed(evs);
    assert_int_equal(rangecounters_count(t), 2);
    struct table_list l = {0};
    char err[256] = "";
    assert_true(rangecounters_tables(t, &l, err));
    const struct table *r = table_named(&l, "cupti_counters");
    assert_int_equal(r->nrows, 2);
    assert_string_equal(cell_of(r, 0, "name").s, "gemm");
    assert_string_equal(cell_of(r, 0, "top_level_op").s, "aten::linear");
    assert_string_equal(cell_of(r, 0, "bottom_level_op").s, "aten::addmm");
    assert_string_equal(cell_of(r, 0, "op_stack").s, "aten::linear > aten::addmm");
    assert_string_equal(cell_of(r, 1, "bottom_level_op").s, "aten::relu");
    int ffma = table_col_index(r, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum");
    assert_true(ffma >= 0);
    assert_int_equal(r->cols[ffma].kind, COL_INT);
    assert_int_equal(table_cell(r, 0, (size_t)ffma).i, 10);
    assert_int_equal(table_cell(r, 1, (size_t)ffma).i, TABLE_NO_INT); /* absent, not 0 */
    int ratio = table_col_index(r, "ratio");
    assert_int_equal(r->cols[ratio].kind, COL_FLOAT);
    assert_true(table_cell(r, 0, (size_t)ratio).f == 2.0);
    assert_true(table_cell(r, 1, (size_t)ratio).f == 0.5);
    assert_true(cell_of(r, 0, "flops").f == 23.0); /* 2 * 10 + 3 */
    assert_true(cell_of(r, 1, "flops").f == 7.0);

    const struct table *top = table_named(&l, "cupti_counters_by_top_op");
    assert_int_equal(top->nrows, 2);
    /* ranked by FLOPs */
    assert_string_equal(cell_of(top, 0, "op").s, "aten::linear");
    assert_true(cell_of(top, 0, "flops").f == 23.0);
    assert_int_equal(cell_of(top, 1, "ranges").i, 1);
    assert_int_equal(table_cell(top, 1, (size_t)table_col_index(top, r->cols[ffma].name)).i,
                     TABLE_NO_INT);
    table_list_free(&l);
    trace_free(t);
}

/* More ranges than launches: the counters stay, no operator is guessed. */
static void test_unpaired_ranges(void **state)
{
    (void)state;
    static const char *const evs[] = {
        OP("aten::mm", 10, 50),
        LAUNCH(14, 1),
        RANGE("a", 1000, SASS("fadd") ":1"),
        RANGE("b", 2000, SASS("fadd") ":2"),
        NULL,
    };
    struct trace *t = load_indexed(evs);
    struct table_list l = {0};
    char err[256] = "";
    assert_true(rangecounters_tables(t, &l, err));
    const struct table *r = table_named(&l, "cupti_counters");
    assert_int_equal(r->nrows, 2);
    assert_null(cell_of(r, 0, "bottom_level_op").s);
    assert_int_equal(r->notes.n, 1);
    assert_non_null(strstr(r->notes.v[0], "2 ranges but 1 cudaLaunchKernel"));
    const struct table *by = table_named(&l, "cupti_counters_by_op");
    assert_int_equal(by->nrows, 1);
    assert_null(cell_of(by, 0, "op").s);
    assert_int_equal(cell_of(by, 0, "ranges").i, 2);
    table_list_free(&l);
    trace_free(t);
}

/* A trace without ranges is an error that says why. */
static void test_no_ranges(void **state)
{
    (void)state;
    static const char *const evs[] = {OP("aten::mm", 10, 50), NULL};
    struct trace *t = load_indexed(evs);
    struct table_list l = {0};
    char err[256] = "";
    assert_int_equal(rangecounters_count(t), 0);
    assert_false(rangecounters_tables(t, &l, err));
    assert_non_null(strstr(err, "cuda_profiler_range"));
    assert_int_equal(l.items.n, 0);
    table_list_free(&l);
    trace_free(t);
}

/* Kernel utilization: the kernels table's means weigh each kernel by its
 * time; a group without the args shows empty cells, never 0. */
static void test_kernel_utilization(void **state)
{
    (void)state;
    static const char *const evs[] = {
        OP("aten::mm", 10, 100),
        LAUNCH(12, 1),
        LAUNCH(20, 2),
        OP("aten::relu", 200, 100),
        LAUNCH(210, 3),
        /* gemm: 30 µs at 40 %, 10 µs at 80 %, blocks per SM 0.5 then 2 */
        KERNEL("gemm", 1000, 30, 1, UTIL("[64, 1, 1]", "[128, 1, 1]", 100, 1024, 0.5, 4, 40)),
        KERNEL("gemm", 1100, 10, 2, UTIL("[64, 1, 1]", "[256, 1, 1]", 120, 0, 2, 16, 80)),
        KERNEL("relu_kernel", 1200, 5, 3, ""),
        NULL,
    };
    struct trace *t = load_indexed(evs);
    struct kernutil_keys uk;
    kernutil_keys_init(&uk, t);
    struct kernutil u;
    assert_true(kernutil_read(t, &uk, find_event(t, "gemm"), &u));
    assert_int_equal(u.grid[0], 64);
    assert_int_equal(u.block[0], 128);
    assert_int_equal(u.regs, 100);
    assert_int_equal(u.smem, 1024);
    assert_true(u.blocks_per_sm == 0.5 && u.occupancy == 40);
    assert_true(kernutil_sm_efficiency(&u) == 0.5);
    assert_false(kernutil_read(t, &uk, find_event(t, "relu_kernel"), &u));

    struct analysis *an = analysis_new(t);
    struct table *k = kernstats_table(an, false);
    assert_int_equal(k->nrows, 2);
    assert_string_equal(cell_of(k, 0, "Kernel name").s, "gemm");
    assert_string_equal(cell_of(k, 0, "grid").s, "[64, 1, 1]");
    assert_string_equal(cell_of(k, 0, "block").s, "mixed");
    assert_int_equal(cell_of(k, 0, "registers per thread").i, 120); /* the most */
    assert_int_equal(cell_of(k, 0, "shared memory").i, 1024);
    /* (30 * 40 + 10 * 80) / 40 = 50 */
    assert_true(fabs(cell_of(k, 0, "est. achieved occupancy %").f - 50.0) < 1e-9);
    /* (30 * 0.5 + 10 * 2) / 40 = 0.875 blocks per SM; SM efficiency
     * caps the second at 1: (30 * 0.5 + 10 * 1) / 40 = 62.5 % */
    assert_true(fabs(cell_of(k, 0, "blocks per SM").f - 0.875) < 1e-9);
    assert_true(fabs(cell_of(k, 0, "est. SM efficiency %").f - 62.5) < 1e-9);
    /* time x (1 - occupancy): 30 * 0.6 + 10 * 0.2 = 20 µs */
    assert_true(fabs(cell_of(k, 0, "unoccupied_us").f - 20.0) < 1e-9);
    /* relu_kernel has none of the args: empty, not 0 */
    assert_null(cell_of(k, 1, "grid").s);
    assert_int_equal(cell_of(k, 1, "registers per thread").i, TABLE_NO_INT);
    assert_true(isnan(cell_of(k, 1, "est. achieved occupancy %").f));
    assert_true(isnan(cell_of(k, 1, "est. SM efficiency %").f));
    assert_true(isnan(cell_of(k, 1, "unoccupied_us").f));
    table_free(k);
    analysis_free(an);

    struct table_list l = {0};
    char err[256] = "";
    assert_true(utilization_tables(t, &l, err));
    const struct table *by = table_named(&l, "occupancy_by_op");
    assert_int_equal(by->nrows, 2);
    assert_string_equal(cell_of(by, 0, "op").s, "aten::mm");
    assert_int_equal(cell_of(by, 0, "kernels").i, 2);
    assert_true(fabs(cell_of(by, 0, "est. achieved occupancy %").f - 50.0) < 1e-9);
    assert_true(isnan(cell_of(by, 1, "est. achieved occupancy %").f));
    table_list_free(&l);
    trace_free(t);
}

/* The device's SM efficiency sums the blocks per SM of kernels running at
 * once, capped at 1, over the span: idle time counts 0. */
static void test_device_sm_efficiency(void **state)
{
    (void)state;
    static const char *const evs[] = {
        /* 0.6 alone for 10 µs, 0.6 + 0.6 (capped: 1) for 10 µs, 0.6 alone
         * for 10 µs, then 20 µs idle, then 0.25 for 10 µs: over 60 µs,
         * (6 + 10 + 6 + 0 + 2.5) / 60 */
        KERNEL("a", 1000, 20, 1, UTIL("[1, 1, 1]", "[1, 1, 1]", 1, 0, 0.6, 1, 10)),
        KERNEL("b", 1010, 20, 2, UTIL("[1, 1, 1]", "[1, 1, 1]", 1, 0, 0.6, 1, 30)),
        KERNEL("c", 1050, 10, 3, UTIL("[1, 1, 1]", "[1, 1, 1]", 1, 0, 0.25, 1, 50)),
        NULL,
    };
    struct trace *t = load_indexed(evs);
    struct utilization_device u;
    int64_t from = trace_ev(t, find_event(t, "a"))->ts;
    utilization_device(t, 0, from, from + 60000, &u);
    assert_true(fabs(u.sm_efficiency - 24.5 / 60.0) < 1e-12);
    assert_true(fabs(u.busy - 40.0 / 60.0) < 1e-12);
    /* occupancy: (20 * 10 + 20 * 30 + 10 * 50) / 50 % */
    assert_true(fabs(u.occupancy - 26.0 / 100.0) < 1e-12);
    /* a span that cuts kernels counts only the time inside it */
    utilization_device(t, 0, from + 10000, from + 20000, &u);
    assert_true(fabs(u.sm_efficiency - 1.0) < 1e-12);
    utilization_device(t, 1, from, from + 60000, &u); /* no kernel on device 1 */
    assert_true(isnan(u.busy) && isnan(u.sm_efficiency) && isnan(u.occupancy));
    trace_free(t);
}

#define COUNTER(name, ts, args)                                                                    \
    "{\"ph\":\"C\",\"name\":\"" name "\",\"pid\":0,\"ts\":" #ts ",\"args\":{" args "}}"

/* Counter series: one per (row, name, key); a step function where the
 * last of samples at one time holds. */
static void test_counter_tracks(void **state)
{
    (void)state;
    static const char *const evs[] = {
        COUNTER("util", 10, "\"util\":1"),
        COUNTER("util", 10, "\"util\":0.5"), /* supersedes the 1 at once */
        COUNTER("mem", 15, "\"read\":4,\"write\":\"x\""),
        COUNTER("util", 30, "\"util\":0.25"),
        COUNTER("mem", 20, "\"read\":8,\"write\":2"), /* out of order in the file */
        NULL,
    };
    struct trace *t = load_indexed(evs);
    struct ctracks *c = ctracks_build(t);
    assert_int_equal(c->ns, 3); /* util, mem/read, mem/write (the text is no value) */
    char buf[128];
    assert_string_equal(ctracks_label(t, c, 0, buf, sizeof(buf)), "util");
    assert_string_equal(ctracks_label(t, c, 1, buf, sizeof(buf)), "mem: read");
    assert_string_equal(ctracks_label(t, c, 2, buf, sizeof(buf)), "mem: write");
    assert_int_equal(c->s[0].n, 3);
    int64_t t0 = trace_ev(t, 0)->ts; /* 10 µs */
    assert_int_equal(ctracks_at(c, 0, t0 - 1), IDX_NONE);
    assert_true(c->pts[ctracks_at(c, 0, t0)].v == 0.5);
    assert_true(c->pts[ctracks_at(c, 0, t0 + 19999)].v == 0.5);
    assert_true(c->pts[ctracks_at(c, 0, t0 + 20000)].v == 0.25);
    assert_true(c->pts[ctracks_at(c, 1, t0 + 7000)].v == 4); /* sorted by time */
    assert_true(c->pts[ctracks_at(c, 1, t0 + 10000)].v == 8);
    /* [0, 40 µs): 0.5 for 20 µs, 0.25 for 10 µs; the superseded 1 never
     * holds; 3 samples */
    struct ctrack_stats st;
    ctracks_stats(c, 0, t0 - 10000, t0 + 30000, false, &st);
    assert_int_equal(st.samples, 3);
    assert_true(st.min == 0.25 && st.max == 0.5);
    assert_true(fabs(st.mean - (0.5 * 20 + 0.25 * 10) / 30) < 1e-12);
    /* [25, 35 µs): the 0.5 carried in, then the 0.25 */
    ctracks_stats(c, 0, t0 + 15000, t0 + 25000, false, &st);
    assert_int_equal(st.samples, 1);
    assert_true(fabs(st.mean - 0.375) < 1e-12);
    /* before the first sample: no value */
    ctracks_stats(c, 0, t0 - 5000, t0, false, &st);
    assert_true(isnan(st.mean) && isnan(st.min));
    ctracks_free(c);

    struct table_list l = {0};
    char err[256] = "";
    assert_true(ctracks_tables(t, &l, err));
    assert_int_equal(l.items.v[0]->nrows, 3); /* no steps: the whole trace per series */
    table_list_free(&l);
    trace_free(t);
}

#define MEM(ts, bytes, total, addr)                                                                \
    "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":" #ts              \
    ",\"args\":{\"Total Reserved\":4096,\"Total Allocated\":" #total ",\"Bytes\":" #bytes          \
    ",\"Addr\":" #addr ",\"Device Id\":0,\"Device Type\":1}}"

/* Memory from [memory] events: the peak and its op, bytes per op, and
 * what is still allocated when its step ends. */
static void test_memory_events(void **state)
{
    (void)state;
    static const char *const evs[] = {
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,"
        "\"tid\":1,\"ts\":0,\"dur\":100}",
        OP("aten::empty", 5, 10),
        MEM(10, 100, 1100, 1), /* freed within the step */
        OP("aten::mm", 15, 20),
        MEM(20, 200, 1300, 2), /* freed after the step: live at its end */
        MEM(30, 300, 1600, 3), /* never freed */
        MEM(50, -100, 1500, 1),
        MEM(150, -200, 1300, 2),
        NULL,
    };
    struct trace *t = load_indexed(evs);
    struct memtrace *m = memtrace_build(t);
    assert_int_equal(m->n, 5);
    assert_int_equal(m->ndevs, 1);
    assert_true(m->totals);
    uint32_t py, op = memtrace_op(t, m->e[1].ev, &py);
    assert_string_equal(ev_name(t, op), "aten::mm");
    assert_int_equal(py, IDX_NONE);
    memtrace_free(m);

    struct table_list l = {0};
    char err[256] = "";
    assert_true(memtrace_tables(t, &l, err));
    const struct table *d = table_named(&l, "memory_devices");
    assert_string_equal(cell_of(d, 0, "device").s, "cuda:0");
    assert_int_equal(cell_of(d, 0, "peak_allocated").i, 1600);
    assert_string_equal(cell_of(d, 0, "peak_op").s, "aten::mm");
    assert_int_equal(cell_of(d, 0, "last_allocated").i, 1300);
    assert_int_equal(cell_of(d, 0, "alloc_bytes").i, 600);
    assert_int_equal(cell_of(d, 0, "freed_bytes").i, 300);
    const struct table *o = table_named(&l, "memory_by_op");
    /* aten::mm: 500 bytes in 2 allocations, both live when the step ends */
    assert_string_equal(cell_of(o, 0, "op").s, "aten::mm");
    assert_int_equal(cell_of(o, 0, "alloc_bytes").i, 500);
    assert_int_equal(cell_of(o, 0, "live_at_step_end").i, 2);
    assert_int_equal(cell_of(o, 0, "live_bytes_at_step_end").i, 500);
    assert_string_equal(cell_of(o, 1, "op").s, "aten::empty");
    assert_int_equal(cell_of(o, 1, "live_at_step_end").i, 0);
    /* the frees, outside any op */
    assert_null(cell_of(o, 2, "op").s);
    assert_int_equal(cell_of(o, 2, "freed_bytes").i, 300);
    const struct table *c = table_named(&l, "memory_curve");
    assert_int_equal(c->nrows, 100);
    assert_int_equal(cell_of(c, 99, "allocated").i, 1300);
    table_list_free(&l);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges_pair_in_time_order),
        cmocka_unit_test(test_unpaired_ranges),
        cmocka_unit_test(test_no_ranges),
        cmocka_unit_test(test_kernel_utilization),
        cmocka_unit_test(test_device_sm_efficiency),
        cmocka_unit_test(test_counter_tracks),
        cmocka_unit_test(test_memory_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
