/* HTA's view and tables (core/analysis/hta*.c) on small traces whose
 * values are worked out by hand in the comments. */
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
#include "core/analysis/hta.h"
#include "core/analysis/hta_report.h"
#include "core/report/report.h"
#include "testutil.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void test_kernel_type(void **state)
{
    (void)state;
    assert_int_equal(hta_kernel_type("ncclKernel_AllReduce_RING_LL_Sum_float"), HTA_COMMUNICATION);
    assert_int_equal(hta_kernel_type("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"),
                     HTA_COMMUNICATION);
    assert_int_equal(hta_kernel_type("nccl_something"), HTA_COMPUTATION);
    assert_int_equal(hta_kernel_type("Memcpy DtoD (Device -> Device)"), HTA_MEMORY);
    assert_int_equal(hta_kernel_type("Memset (Device)"), HTA_MEMORY);
    assert_int_equal(hta_kernel_type("dma_copy"), HTA_MEMORY);
    assert_int_equal(hta_kernel_type("void foo_Memcpy_kernel()"), HTA_OTHER);
    assert_int_equal(hta_kernel_type("Event Sync"), HTA_OTHER);
    assert_int_equal(hta_kernel_type("void foo_Memset_kernel()"), HTA_COMPUTATION);
    assert_int_equal(hta_kernel_type("sm80_xmma_gemm"), HTA_COMPUTATION);
    /* a sync event is OTHER by its category, whatever its name */
    assert_int_equal(hta_row_kernel_type("Stream Wait Event", "cuda_sync"), HTA_OTHER);
    assert_int_equal(hta_row_kernel_type("Stream Wait Event", "kernel"), HTA_COMPUTATION);
    assert_true(hta_kernel_category("kernel"));
    assert_true(hta_kernel_category("gpu_memcpy"));
    assert_true(hta_kernel_category("gpu_memset"));
    assert_true(hta_kernel_category("mtia_ccp_events"));
    assert_false(hta_kernel_category("gpu_mem"));
    assert_false(hta_kernel_category("cuda_sync"));
    assert_false(hta_kernel_category("cpu_op"));
}

static void test_describe_merge(void **state)
{
    (void)state;
    double xs[] = {4, NAN, 1, 3, 2};
    struct hta_describe d = hta_describe(xs, 5);
    NEAR(d.count, 4);
    NEAR(d.mean, 2.5);
    NEAR(d.std, sqrt(5.0 / 3.0));
    NEAR(d.min, 1);
    NEAR(d.q25, 1.75);
    NEAR(d.q50, 2.5);
    NEAR(d.q75, 3.25);
    NEAR(d.max, 4);
    double one[] = {7};
    d = hta_describe(one, 1);
    NEAR(d.count, 1);
    assert_true(isnan(d.std));
    NEAR(d.q75, 7);
    d = hta_describe(NULL, 0);
    NEAR(d.count, 0);
    assert_true(isnan(d.mean));

    struct hta_iv iv[] = {{5, 6}, {0, 2}, {2, 3}, {1, 1.5}, {7, 9}};
    size_t n = hta_merge(iv, 5);
    assert_int_equal(n, 3);
    NEAR(iv[0].s, 0);
    NEAR(iv[0].e, 3); /* touching intervals merge */
    NEAR(iv[1].s, 5);
    NEAR(iv[2].e, 9);
}

/* Stream 7: k1 [10,20), k2 [25,30), k3 [70,80), a memcpy [85,90);
 * stream 8: an NCCL kernel [62,82). Launches: corr 1 at 0 (5 µs), corr 2
 * at 1 (2), corr 3 at 60 (2), corr 4 at 50 (1), the memcpy's at 84 (0.5).
 * The earliest row starts at 0. */
static const char *small =
    "{\"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1000,\"dur\":5,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1001,\"dur\":2,\"args\":{\"correlation\":2}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1050,\"dur\":1,\"args\":{\"correlation\":4}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1060,\"dur\":2,\"args\":{\"correlation\":3}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpyAsync\",\"pid\":1,\"tid\":1,"
    "\"ts\":1084,\"dur\":0.5,\"args\":{\"correlation\":5}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,"
    "\"ts\":1010,\"dur\":10,\"args\":{\"stream\":7,\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,\"tid\":7,"
    "\"ts\":1025,\"dur\":5,\"args\":{\"stream\":\"7\",\"correlation\":2}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce\",\"pid\":0,\"tid\":8,"
    "\"ts\":1062,\"dur\":20,\"args\":{\"stream\":8,\"correlation\":3}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k3\",\"pid\":0,\"tid\":7,"
    "\"ts\":1070,\"dur\":10,\"args\":{\"stream\":7,\"correlation\":4}},"
    "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\","
    "\"pid\":0,\"tid\":7,\"ts\":1085,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":5,"
    "\"memory bandwidth (GB/s)\":10}}"
    "]}";

static const struct table *find(const struct table_list *l, const char *name)
{
    for (size_t i = 0; i < l->items.n; i++)
        if (!strcmp(l->items.v[i]->name, name))
            return l->items.v[i];
    fail_msg("no table %s", name);
    return NULL;
}

static double f(const struct table *t, size_t r, size_t c)
{
    return table_cell(t, r, c).f;
}

static void test_small(void **state)
{
    (void)state;
    struct trace *t = load_text(small);
    struct hta *h = hta_new(t);
    assert_false(h->step_filter);
    assert_int_equal(h->gpu.n, 5);

    /* kernel time 10..90 = 80; union 10 + 5 + 20 + 5 = 40, idle 40;
     * compute 25; non-compute 15 */
    struct table *tt = hta_report_temporal(h);
    assert_int_equal(tt->nrows, 1);
    NEAR(f(tt, 0, 1), 40);
    NEAR(f(tt, 0, 2), 25);
    NEAR(f(tt, 0, 3), 15);
    NEAR(f(tt, 0, 4), 80);
    NEAR(f(tt, 0, 5), 50);
    NEAR(f(tt, 0, 6), 31.25);
    table_free(tt);

    /* communication [62,82), computation over it [70,80): 50 % */
    tt = hta_report_overlap(h);
    NEAR(f(tt, 0, 1), 50);
    table_free(tt);

    struct table_list l = {0};
    hta_report_kernel_types(h, &l);
    /* COMPUTATION 15, COMMUNICATION 10, overlap 10, MEMORY 5 */
    const struct table *kt = find(&l, "hta_kernel_type_breakdown");
    assert_int_equal(kt->nrows, 4);
    assert_string_equal(table_cell(kt, 0, 0).s, "COMPUTATION");
    assert_int_equal(table_cell(kt, 0, 1).i, 15);
    NEAR(f(kt, 0, 2), 37.5);
    for (size_t r = 1; r < 3; r++) {
        const char *s = table_cell(kt, r, 0).s;
        assert_true(!strcmp(s, "COMMUNICATION") ||
                    !strcmp(s, "COMPUTATION overlapping COMMUNICATION"));
        assert_int_equal(table_cell(kt, r, 1).i, 10);
    }
    assert_string_equal(table_cell(kt, 3, 0).s, "MEMORY");
    const struct table *top = find(&l, "hta_kernel_breakdown_top");
    assert_int_equal(top->nrows, 5); /* nccl; k1 k2 k3; the memcpy */
    assert_string_equal(table_cell(top, 0, 6).s, "COMMUNICATION");
    assert_string_equal(table_cell(top, 1, 0).s, "k1");
    table_list_free(&l);

    /* stream 7: k2 waits 5 (launched at 1, kernel wait); k3 waits 40 and
     * was launched at 50, after k2 ended (host wait); the memcpy waits 5,
     * launched at 84 (host wait). Stream 8: only its first event. */
    memset(&l, 0, sizeof(l));
    hta_report_idle(h, true, &l);
    const struct table *it = find(&l, "hta_idle_time_breakdown");
    assert_int_equal(it->nrows, 4);
    assert_int_equal(table_cell(it, 0, 1).i, 7);
    assert_string_equal(table_cell(it, 0, 2).s, "host_wait");
    NEAR(f(it, 0, 3), 45);
    NEAR(f(it, 0, 4), 0.9);
    assert_string_equal(table_cell(it, 1, 2).s, "kernel_wait");
    NEAR(f(it, 1, 3), 5);
    assert_string_equal(table_cell(it, 2, 2).s, "other");
    NEAR(f(it, 2, 3), 0);
    assert_int_equal(table_cell(it, 3, 1).i, 8);
    assert_true(isnan(f(it, 3, 4)));
    const struct table *st = find(&l, "hta_idle_interval_stats");
    assert_int_equal(table_cell(st, 0, 3).i, 2); /* host waits: 40 and 5 */
    NEAR(f(st, 0, 4), 22.5);
    assert_int_equal(table_cell(st, 2, 3).i, 0); /* "other": no interval */
    table_list_free(&l);

    /* launches: delays 5, 22, 0, 19, 0.5 */
    memset(&l, 0, sizeof(l));
    hta_report_launch_stats(h, &l);
    const struct table *ls = find(&l, "hta_cuda_kernel_launch_stats_describe");
    NEAR(f(ls, 0, 4), 5);   /* count */
    NEAR(f(ls, 1, 4), 9.3); /* mean delay */
    NEAR(f(ls, 3, 4), 0);   /* min */
    NEAR(f(ls, 7, 3), 20);  /* max GPU duration */
    NEAR(f(ls, 5, 2), 2);   /* median CPU duration */
    assert_int_equal(find(&l, "hta_cuda_kernel_launch_outliers")->nrows, 0);
    table_list_free(&l);

    /* stream 7: +1 at 0, +1 at 1, -1 at 10, -1 at 25, +1 at 50, -1 at 70,
     * +1 at 84, -1 at 85: 1 2 1 0 1 0 1 0; stream 8: 1 0 */
    tt = hta_report_queue_length(h);
    assert_int_equal(tt->nrows, 2);
    assert_int_equal(table_cell(tt, 0, 1).i, 7);
    NEAR(f(tt, 0, 2), 8);
    NEAR(f(tt, 0, 3), 0.75);
    NEAR(f(tt, 0, 9), 2);
    NEAR(f(tt, 1, 3), 0.5);
    table_free(tt);

    tt = hta_report_memory_bw(h);
    assert_int_equal(tt->nrows, 1);
    assert_string_equal(table_cell(tt, 0, 1).s, "Memcpy HtoD");
    NEAR(f(tt, 0, 2), 1);
    NEAR(f(tt, 0, 3), 10);
    table_free(tt);

    hta_free(h);
    trace_free(t);
}

/* Two ProfilerStep names: the second step's launch and kernel are cut;
 * a HIP "0x0" stream is no stream. */
static const char *steps =
    "{\"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
    "\"ts\":0,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,"
    "\"ts\":100,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"hipLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":10,\"dur\":5,\"args\":{\"correlation\":1,\"stream\":\"0x0\"}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"hipLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":150,\"dur\":5,\"args\":{\"correlation\":2,\"stream\":\"0x0\"}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":2,\"tid\":0,"
    "\"ts\":20,\"dur\":10,\"args\":{\"stream\":0,\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"b\",\"pid\":2,\"tid\":0,"
    "\"ts\":160,\"dur\":10,\"args\":{\"stream\":0,\"correlation\":2}}"
    "]}";

static void test_steps(void **state)
{
    (void)state;
    struct trace *t = load_text(steps);
    struct hta *h = hta_new(t);
    assert_true(h->step_filter);
    NEAR(h->last_step_ts, 100);
    assert_int_equal(h->gpu.n, 1);
    assert_string_equal(ev_name(t, h->gpu.v[0].ev), "a");
    assert_int_equal(h->cpu.n, 1);
    assert_int_equal(h->cpu.v[0].stream, -1);
    /* the queue counts hipLaunchKernel: +1 at 10, -1 at 20 */
    struct table *q = hta_report_queue_length(h);
    assert_int_equal(q->nrows, 1);
    NEAR(f(q, 0, 2), 2);
    table_free(q);
    /* launch statistics count CUDA calls only */
    struct table_list l = {0};
    hta_report_launch_stats(h, &l);
    NEAR(f(find(&l, "hta_cuda_kernel_launch_stats_describe"), 0, 1), 0);
    table_list_free(&l);
    hta_free(h);
    trace_free(t);
}

/* CUDA sync events on the GPU streams: a Stream Wait Event on stream 7
 * [40,45) (corr 6, from cudaStreamWaitEvent at 35) and a Context Sync on
 * stream 2^32 - 1 [90,100) (corr 7). k1 [10,20) and k2 [30,35) on stream
 * 7 are launched by cudaLaunchKernel at 0 and by an unlisted call at 25.
 * Temporal reads every row on a stream: span 10..100 = 90, union 10 + 5 +
 * 5 + 10 = 30, idle 60, compute only the kernels (15). Idle time reads the
 * kernels only: one gap, 10 (k2's launch at 25 is after k1's end: host
 * wait), no row for the sync stream. The queue moves for k1 alone: 1 0. */
static const char *syncs =
    "{\"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":0,\"dur\":2,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchCooperativeKernel\","
    "\"pid\":1,\"tid\":1,\"ts\":25,\"dur\":2,\"args\":{\"correlation\":2}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaStreamWaitEvent\",\"pid\":1,\"tid\":1,"
    "\"ts\":35,\"dur\":1,\"args\":{\"correlation\":6}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaDeviceSynchronize\",\"pid\":1,"
    "\"tid\":1,\"ts\":88,\"dur\":12,\"args\":{\"correlation\":7}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,"
    "\"ts\":10,\"dur\":10,\"args\":{\"stream\":7,\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,\"tid\":7,"
    "\"ts\":30,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":2}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Stream Wait Event\",\"pid\":0,\"tid\":7,"
    "\"ts\":40,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":6}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Context Sync\",\"pid\":0,\"tid\":-1,"
    "\"ts\":90,\"dur\":10,\"args\":{\"stream\":4294967295,\"correlation\":7}}"
    "]}";

static void test_syncs(void **state)
{
    (void)state;
    struct trace *t = load_text(syncs);
    struct hta *h = hta_new(t);
    assert_int_equal(h->gpu.n, 4);
    size_t ns;
    int64_t *st = hta_streams(h, false, &ns);
    assert_int_equal(ns, 2);
    assert_true(st[1] == INT64_C(4294967295));
    free(st);

    struct table *tt = hta_report_temporal(h);
    NEAR(f(tt, 0, 1), 60);
    NEAR(f(tt, 0, 2), 15);
    NEAR(f(tt, 0, 3), 15);
    NEAR(f(tt, 0, 4), 90);
    table_free(tt);

    struct table_list l = {0};
    hta_report_idle(h, false, &l);
    const struct table *it = find(&l, "hta_idle_time_breakdown");
    assert_int_equal(it->nrows, 2); /* stream 7: host_wait, other */
    assert_int_equal(table_cell(it, 0, 1).i, 7);
    assert_string_equal(table_cell(it, 0, 2).s, "host_wait");
    NEAR(f(it, 0, 3), 10);
    table_list_free(&l);

    hta_report_kernel_types(h, &l);
    const struct table *kt = find(&l, "hta_kernel_type_breakdown");
    assert_int_equal(kt->nrows, 1);
    assert_string_equal(table_cell(kt, 0, 0).s, "COMPUTATION");
    assert_int_equal(table_cell(kt, 0, 1).i, 15);
    assert_int_equal(find(&l, "hta_kernel_breakdown_top")->nrows, 2);
    table_list_free(&l);

    tt = hta_report_queue_length(h);
    assert_int_equal(tt->nrows, 1);
    assert_int_equal(table_cell(tt, 0, 1).i, 7);
    NEAR(f(tt, 0, 2), 2);
    NEAR(f(tt, 0, 5), 0); /* min */
    NEAR(f(tt, 0, 9), 1); /* max */
    table_free(tt);
    hta_free(h);
    trace_free(t);
}

/* HTA's tables of one analysis read one HTA view: report_build frees a
 * view it built itself and keeps one the caller built first; the tables
 * read the same either way. */
static void test_shared_view(void **state)
{
    (void)state;
    struct trace *t = load_text(steps);
    struct analysis *a = analysis_new(t);
    char err[256];
    struct table_list l1 = {0}, l2 = {0};
    assert_true(report_build(a, "queue-length,launch-stats", NULL, &l1, err));
    assert_null(a->hta);
    const struct hta *h = analysis_hta(a);
    assert_non_null(h);
    assert_ptr_equal(analysis_hta(a), h);
    assert_true(report_build(a, "queue-length,launch-stats", NULL, &l2, err));
    assert_ptr_equal(a->hta, h);
    assert_int_equal(l1.items.n, l2.items.n);
    NEAR(f(l1.items.v[0], 0, 2), 2);
    NEAR(f(l2.items.v[0], 0, 2), 2);
    NEAR(f(find(&l1, "hta_cuda_kernel_launch_stats_describe"), 0, 1),
         f(find(&l2, "hta_cuda_kernel_launch_stats_describe"), 0, 1));
    analysis_hta_drop(a);
    assert_null(a->hta);
    table_list_free(&l1);
    table_list_free(&l2);
    analysis_free(a);
    trace_free(t);
}

/* A trace without GPU work gives empty tables, not a crash. */
static void test_empty(void **state)
{
    (void)state;
    struct trace *t = load_text("{\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"cpu_op\","
                                "\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}]}");
    struct hta *h = hta_new(t);
    struct table_list l = {0};
    table_list_add(&l, hta_report_temporal(h));
    table_list_add(&l, hta_report_overlap(h));
    table_list_add(&l, hta_report_queue_length(h));
    table_list_add(&l, hta_report_memory_bw(h));
    hta_report_idle(h, true, &l);
    hta_report_kernel_types(h, &l);
    hta_report_launch_stats(h, &l);
    assert_int_equal(l.items.v[0]->nrows, 0);
    assert_true(isnan(f(l.items.v[1], 0, 1)));
    assert_int_equal(l.items.v[2]->nrows, 0);
    table_list_free(&l);
    hta_free(h);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_type), cmocka_unit_test(test_describe_merge),
        cmocka_unit_test(test_small),       cmocka_unit_test(test_steps),
        cmocka_unit_test(test_empty),       cmocka_unit_test(test_shared_view),
        cmocka_unit_test(test_syncs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
