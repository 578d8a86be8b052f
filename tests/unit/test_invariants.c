/* Table invariants (core/report/invariants.h): each rule passes a table
 * that keeps it and names the rows of one that breaks it. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/report/invariants.h"

static struct table *timeline(double comp, double idle)
{
    static const struct table_col cols[] = {
        {"type", NULL, COL_TEXT, 0, 0},
        {"time ms", NULL, COL_FLOAT, 3, 0},
        {"percent", NULL, COL_PERCENT, 1, 0},
    };
    struct table *t = table_new("gpu_timeline", "GPU timeline", cols, 3);
    static const char *const rows[] = {"computation_time",    "exposed_comm_time",
                                       "exposed_memcpy_time", "busy_time",
                                       "idle_time",           "total_time"};
    double v[] = {comp, 1, 0, 4, idle, 4 + idle};
    for (size_t i = 0; i < 6; i++) {
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, rows[i]);
        table_set_float(t, r, 1, v[i]);
        table_set_float(t, r, 2, 100 * v[i] / (4 + idle));
    }
    return t;
}

static size_t broken(const struct table *t, enum invariant k, const char **what)
{
    struct invariants_report r = {0};
    invariants_check_table(t, &r);
    size_t n = 0;
    static char buf[512];
    for (size_t i = 0; i < r.broken.n; i++)
        if (r.broken.v[i].kind == k) {
            n++;
            snprintf(buf, sizeof(buf), "%s", r.broken.v[i].what);
            if (what)
                *what = buf;
        }
    assert_true(r.checked[k] >= (n ? 1u : 0u));
    invariants_report_free(&r);
    return n;
}

static void test_rows_add_up(void **state)
{
    (void)state;
    struct table *t = timeline(3, 2);
    assert_int_equal(broken(t, INV_ROWS_SUM, NULL), 0);
    assert_int_equal(broken(t, INV_NONNEG, NULL), 0);
    table_free(t);
    const char *what = NULL;
    t = timeline(2.5, 2); /* 2.5 + 1 + 0 != busy 4 */
    assert_int_equal(broken(t, INV_ROWS_SUM, &what), 1);
    assert_non_null(strstr(what, "'busy_time'"));
    assert_non_null(strstr(what, "add up to 3.5"));
    table_free(t);
    t = timeline(3, -1); /* negative idle: idle < 0 */
    assert_int_equal(broken(t, INV_NONNEG, &what), 1);
    assert_non_null(strstr(what, "'idle_time': time ms = -1"));
    /* The note goes on the table. */
    struct table_list tl = {0};
    table_list_add(&tl, t);
    assert_true(invariants_annotate(&tl) >= 1);
    assert_non_null(strstr(t->notes.v[0], "invariant broken (nonnegative)"));
    table_list_free(&tl);
}

static struct table *ops(const double *pct, size_t n, double count)
{
    static const struct table_col cols[] = {
        {"name", NULL, COL_TEXT, 0, COLF_WIDE},
        {"Count", NULL, COL_FLOAT, 0, 0},
        {"Percentage (%)", NULL, COL_PERCENT, 2, 0},
        {"Cumulative Percentage (%)", NULL, COL_PERCENT, 2, 0},
    };
    struct table *t = table_new("ops_summary", "ops", cols, 4);
    double cum = 0;
    for (size_t i = 0; i < n; i++) {
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, "aten::mm");
        table_set_float(t, r, 1, count);
        table_set_float(t, r, 2, pct[i]);
        cum += pct[i];
        table_set_float(t, r, 3, cum);
    }
    return t;
}

static void test_shares(void **state)
{
    (void)state;
    const double good[] = {60, 30, 10}, short_[] = {60, 30}, neg[] = {70, 40, -10};
    struct table *t = ops(good, 3, 2);
    assert_int_equal(broken(t, INV_SHARE_SUM, NULL), 0);
    assert_int_equal(broken(t, INV_CUMULATIVE, NULL), 0);
    assert_int_equal(broken(t, INV_WHOLE, NULL), 0);
    table_free(t);
    t = ops(short_, 2, 2.5);
    assert_int_equal(broken(t, INV_SHARE_SUM, NULL), 1);
    assert_int_equal(broken(t, INV_CUMULATIVE, NULL), 1);
    assert_int_equal(broken(t, INV_WHOLE, NULL), 1); /* 2.5 calls */
    table_free(t);
    t = ops(neg, 3, 1);
    assert_int_equal(broken(t, INV_PERCENT, NULL), 1);
    assert_int_equal(broken(t, INV_CUMULATIVE, NULL), 1); /* falls from 110 to 100 */
    table_free(t);
}

/* The critical path's bound shares sum to 100 in each region; a region
 * with a negative share (a negative span) still sums to 100. */
static void test_critical_path_shares(void **state)
{
    (void)state;
    static const struct table_col cols[] = {
        {"region", NULL, COL_TEXT, 0, 0},
        {"bound_by", NULL, COL_TEXT, 0, 0},
        {"share", NULL, COL_PERCENT, 1, 0},
    };
    struct table *t = table_new("critical_path", "critical path", cols, 3);
    static const char *const region[] = {"ProfilerStep#1", "ProfilerStep#1", "ProfilerStep#2",
                                         "ProfilerStep#2", "ProfilerStep#3", "ProfilerStep#3"};
    const double share[] = {70, 30, 105, -5, 60, 30};
    for (size_t i = 0; i < 6; i++) {
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, region[i]);
        table_set_text(t, r, 1, i % 2 ? "cpu_bound" : "gpu_compute_bound");
        table_set_float(t, r, 2, share[i]);
    }
    const char *what = NULL;
    assert_int_equal(broken(t, INV_SHARE_SUM, &what), 1); /* step 3: 90 */
    assert_non_null(strstr(what, "90"));
    table_free(t);
}

static void test_groups_and_quantiles(void **state)
{
    (void)state;
    static const struct table_col ic[] = {
        {"rank", NULL, COL_INT, 0, 0},
        {"stream", NULL, COL_INT, 0, 0},
        {"idle_category", NULL, COL_TEXT, 0, 0},
        {"idle_time", NULL, COL_FLOAT, 0, 0},
        {"idle_time_ratio", NULL, COL_FLOAT, 0, 0},
    };
    struct table *t = table_new("hta_idle_time_breakdown", "idle", ic, 5);
    const double ratio[] = {0.5, 0.5, 0.7, 0.6};
    for (size_t i = 0; i < 4; i++) {
        size_t r = table_add_row(t);
        table_set_int(t, r, 0, 0);
        table_set_int(t, r, 1, i < 2 ? 7 : 9);
        table_set_text(t, r, 2, i % 2 ? "host_wait" : "kernel_wait");
        table_set_float(t, r, 3, ratio[i] * 10);
        table_set_float(t, r, 4, ratio[i]);
    }
    const char *what = NULL;
    assert_int_equal(broken(t, INV_SHARE_SUM, &what), 1); /* stream 9: 1.3 */
    assert_non_null(strstr(what, "(rank 0, stream 9)"));
    assert_int_equal(broken(t, INV_RATIO, NULL), 0);
    table_free(t);
    static const struct table_col qc[] = {
        {"rank", NULL, COL_INT, 0, 0},  {"count", NULL, COL_INT, 0, 0},
        {"min", NULL, COL_FLOAT, 0, 0}, {"25%", NULL, COL_FLOAT, 0, 0},
        {"50%", NULL, COL_FLOAT, 0, 0}, {"75%", NULL, COL_FLOAT, 0, 0},
        {"max", NULL, COL_FLOAT, 0, 0},
    };
    t = table_new("hta_queue_length_summary", "queue", qc, 7);
    size_t r = table_add_row(t);
    const double q[] = {0, 1, 3, 2, 5};
    table_set_int(t, r, 0, 0);
    table_set_int(t, r, 1, 10);
    for (size_t i = 0; i < 5; i++)
        table_set_float(t, r, 2 + i, q[i]);
    assert_int_equal(broken(t, INV_ORDERED, &what), 1);
    assert_non_null(strstr(what, "50% 3 > 75% 2"));
    assert_int_equal(broken(t, INV_NONNEG, NULL), 0);
    table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_add_up),
        cmocka_unit_test(test_shares),
        cmocka_unit_test(test_critical_path_shares),
        cmocka_unit_test(test_groups_and_quantiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
