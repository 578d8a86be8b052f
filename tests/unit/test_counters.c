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

#include "core/analysis/rangecounters.h"
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

/* The trace of the events given (NULL-terminated), loaded and indexed. */
static struct trace *load_events(const char *const *evs)
{
    size_t n = 32;
    for (size_t i = 0; evs[i]; i++)
        n += strlen(evs[i]) + 1;
    char *json = malloc(n);
    assert_non_null(json);
    strcpy(json, "{\"traceEvents\":[");
    for (size_t i = 0; evs[i]; i++) {
        if (i)
            strcat(json, ",");
        strcat(json, evs[i]);
    }
    strcat(json, "]}");
    struct trace *t = load_text(json);
    free(json);
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
    struct trace *t = load_events(evs);
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
    struct trace *t = load_events(evs);
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
    struct trace *t = load_events(evs);
    struct table_list l = {0};
    char err[256] = "";
    assert_int_equal(rangecounters_count(t), 0);
    assert_false(rangecounters_tables(t, &l, err));
    assert_non_null(strstr(err, "cuda_profiler_range"));
    assert_int_equal(l.items.n, 0);
    table_list_free(&l);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges_pair_in_time_order),
        cmocka_unit_test(test_unpaired_ranges),
        cmocka_unit_test(test_no_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
