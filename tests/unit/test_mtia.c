/* Unit tests: a small MTIA trace, written here in the shape of Meta's MTIA
 * traces (../shared/traces/hta-mtia-rank0-stress.json.gz): the
 * accelerator's `mtia_ccp_events` on a stream are kernels linked to their
 * `mtia_runtime` launches, its DMA transfers are copies, the one off a
 * stream is not device work; the timeline, the kernel table and HTA's
 * analyses count the same work; the header names the device; HTA's
 * idle-time parts stay >= 0 where the stream's rows overlap
 * (docs/metrics.md §1.7, §2, §14.2). Needs no shared data. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/analysis/hta.h"
#include "core/analysis/hta_report.h"
#include "core/analysis/kernstats.h"
#include "core/analysis/keyavg.h"
#include "core/analysis/timeline.h"
#include "core/base/strbuf.h"
#include "core/report/report.h"
#include "core/trace/devkind.h"
#include "core/trace/gpuclass.h"
#include "core/trace/tree.h"
#include "tests/unit/testutil.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* Host thread 100 launches fc (corr 11, stream 1, [20,50)) from aten::mm
 * and add (corr 12, [70,90)) from aten::add, whose launch runs [62,72).
 * A DMA transfer on stream 1, [40,60), overlaps fc and has no launch; one
 * on the DMA queue's row (tid 801), with no stream, is not device work. */
static const char mtia_trace[] =
    "{\"distributedInfo\": {\"backend\": \"mtia:hccl,cpu:gloo\", \"rank\": 0, \"world_size\": 1},"
    " \"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":0,"
    "\"dur\":50,\"args\":{\"External id\":1}},"
    "{\"ph\":\"X\",\"cat\":\"mtia_runtime\",\"name\":\"runFunction - "
    "job_prep_and_submit_for_execution\",\"pid\":100,\"tid\":100,\"ts\":5,\"dur\":10,"
    "\"args\":{\"correlation\":11}},"
    "{\"ph\":\"s\",\"id\":11,\"pid\":100,\"tid\":100,\"ts\":5,\"cat\":\"ac2g\",\"name\":\"ac2g\"},"
    "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"fc-dtype_Float\",\"pid\":9,\"tid\":4,"
    "\"ts\":20,\"dur\":30,\"args\":{\"correlation\":11,\"stream\":1,\"packet_ptr\":235}},"
    "{\"ph\":\"f\",\"id\":11,\"pid\":9,\"tid\":4,\"ts\":20,\"cat\":\"ac2g\",\"name\":\"ac2g\","
    "\"bp\":\"e\"},"
    "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"dma_request\",\"pid\":9,\"tid\":4,"
    "\"ts\":40,\"dur\":20,\"args\":{\"stream\":1,\"direction\":\"HOST_TO_DEVICE\",\"size\":64}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":100,\"tid\":100,\"ts\":60,"
    "\"dur\":30,\"args\":{\"External id\":2}},"
    "{\"ph\":\"X\",\"cat\":\"mtia_runtime\",\"name\":\"runFunction - "
    "job_prep_and_submit_for_execution\",\"pid\":100,\"tid\":100,\"ts\":62,\"dur\":10,"
    "\"args\":{\"correlation\":12}},"
    "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"add-dtype_Float\",\"pid\":9,\"tid\":4,"
    "\"ts\":70,\"dur\":20,\"args\":{\"correlation\":12,\"stream\":1}},"
    "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"dma_request\",\"pid\":9,\"tid\":801,"
    "\"ts\":100,\"dur\":10,\"args\":{\"direction\":\"DEVICE_TO_HOST\",\"size\":16}},"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":9,\"tid\":0,\"args\":{\"name\":\"MTIA 9\"}},"
    "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":9,\"tid\":0,\"args\":{\"labels\":\"MTIA "
    "9\"}},"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":9,\"tid\":4,\"args\":{\"name\":\"Stream 1 "
    "FW\"}},"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":9,\"tid\":801,\"args\":{\"name\":\"DMA_"
    "REQUEST\"}}"
    "]}";

static uint32_t event_at(const struct trace *t, const char *name, int64_t ts_us)
{
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (t->ev.v[i].ts == ts_us * 1000 && strcmp(ev_name(t, i), name) == 0)
            return i;
    fail_msg("no event %s at %lld", name, (long long)ts_us);
    return IDX_NONE;
}

/* Kinds, links, the copy bucket and the device kind. */
static void test_kinds_and_links(void **state)
{
    (void)state;
    struct trace *t = load_text(mtia_trace);
    trace_index(t);
    assert_int_equal(t->n_by_kind[EVK_KERNEL], 3);
    assert_int_equal(t->n_by_kind[EVK_DEVICE_OTHER], 1);
    assert_int_equal(t->n_by_kind[EVK_RUNTIME], 2);
    assert_int_equal(t->n_gpu, 3);
    assert_int_equal(t->n_unlinked, 1);
    assert_int_equal(t->device_kind, DEVKIND_MTIA);
    assert_string_equal(devkind_name(t->device_kind), "MTIA");

    uint32_t fc = find_event(t, "fc-dtype_Float"), add = find_event(t, "add-dtype_Float");
    uint32_t dma = event_at(t, "dma_request", 40), queue = event_at(t, "dma_request", 100);
    assert_int_equal(t->ev.v[queue].kind, EVK_DEVICE_OTHER);
    assert_true(t->ev.v[fc].flags & EVF_LINKED);
    assert_false(t->ev.v[dma].flags & EVF_LINKED);
    assert_int_equal(ev_gpu(t, fc)->launcher, find_event(t, "aten::mm"));
    assert_int_equal(ev_gpu(t, add)->launcher, find_event(t, "aten::add"));
    assert_int_equal(ev_gpu(t, fc)->stream, 1);
    assert_int_equal(ev_gpu(t, fc)->device, 9);
    assert_int_equal(gpuclass_bucket(t, fc), BUCKET_COMP);
    assert_int_equal(gpuclass_bucket(t, dma), BUCKET_MEMCPY);
    assert_true(gpuclass_name_is_mtia_copy("dma_request"));
    assert_false(gpuclass_name_is_mtia_copy("fc-dtype_Float"));
    assert_true(devkind_is_mtia_work("mtia_ccp_events", true));
    assert_false(devkind_is_mtia_work("mtia_ccp_events", false));
    assert_false(devkind_is_mtia_work("kernel", true));

    /* The stream row is labelled by its stream, not its tid. */
    char buf[64];
    assert_string_equal(trace_row_label(t, t->ev.v[fc].row, buf, sizeof(buf)), "MTIA 9 stream 1");
    assert_string_equal(trace_row_label(t, t->ev.v[queue].row, buf, sizeof(buf)),
                        "MTIA 9 stream 801");
    trace_free(t);
}

/* The timeline and the kernel table count the work HTA counts. */
static void test_timeline_kernels_hta(void **state)
{
    (void)state;
    struct trace *t = load_text(mtia_trace);
    struct analysis *an = analysis_new(t);
    struct timeline_breakdown b;
    timeline_breakdown(t, false, -1, &b);
    /* COMP [20,50) [70,90) = 50; MEMCPY [40,60), exposed [50,60) = 10;
     * span [20,90) = 70; busy 60; idle 10. */
    assert_int_equal(b.computation, 50000);
    assert_int_equal(b.total_memcpy, 20000);
    assert_int_equal(b.exposed_memcpy, 10000);
    assert_int_equal(b.total, 70000);
    assert_int_equal(b.busy, 60000);
    assert_int_equal(b.idle, 10000);

    struct table *kt = kernstats_table(an, false);
    double sum = 0;
    int64_t count = 0;
    for (size_t r = 0; r < kt->nrows; r++) {
        sum += table_cell(kt, r, 4).f;
        count += table_cell(kt, r, 5).i;
    }
    assert_int_equal(count, 3);
    NEAR(sum, 70);

    /* HTA: kernel time = the span, idle = span - union, compute = fc + add. */
    struct hta *h = hta_new(t);
    struct table *tt = hta_report_temporal(h);
    NEAR(table_cell(tt, 0, 1).f, 10);
    NEAR(table_cell(tt, 0, 2).f, 50);
    NEAR(table_cell(tt, 0, 4).f, 70);
    NEAR(table_cell(tt, 0, 4).f - table_cell(tt, 0, 1).f, (double)b.busy / 1000);
    table_free(tt);
    hta_free(h);
    table_free(kt);
    analysis_free(an);
    trace_free(t);
}

/* HTA's idle time of stream 1: the DMA transfer starts 10 µs before fc
 * ends (HTA: a kernel wait of -10); add starts 10 µs after the transfer
 * ends, launched at 62, after it (host wait 10). torchtop's parts are
 * >= 0 and add up to the stream's span less its union (70 - 60). */
static void test_idle_parts(void **state)
{
    (void)state;
    struct trace *t = load_text(mtia_trace);
    struct hta *h = hta_new(t);
    struct table_list l = {0};
    hta_report_idle(h, false, &l);
    const struct table *it = l.items.v[0];
    double total = 0;
    for (size_t r = 0; r < it->nrows; r++) {
        assert_int_equal(table_cell(it, r, 1).i, 1);
        double v = table_cell(it, r, 3).f;
        assert_true(v >= 0);
        total += v;
        if (strcmp(table_cell(it, r, 2).s, "host_wait") == 0)
            NEAR(v, 10);
        if (strcmp(table_cell(it, r, 2).s, "kernel_wait") == 0)
            NEAR(v, 0);
    }
    NEAR(total, 10);
    table_list_free(&l);
    hta_free(h);
    trace_free(t);
}

/* The header names the device and its kind. */
static void test_header(void **state)
{
    (void)state;
    struct trace *t = load_text(mtia_trace);
    trace_index(t);
    struct strbuf sb = STRBUF_INIT;
    report_header_text(&sb, t);
    assert_non_null(strstr(sb_str(&sb), "devices:  MTIA 9 (no deviceProperties)"));
    assert_non_null(
        strstr(sb_str(&sb), "mtia:     3 MTIA events, 2 linked to a launch, 1 unlinked"));
    assert_non_null(strstr(sb_str(&sb), "ms of MTIA activity"));
    assert_null(strstr(sb_str(&sb), "GPU"));
    sb_clear(&sb);
    report_header_json(&sb, t);
    assert_non_null(strstr(sb_str(&sb), "\"device_kind\": \"MTIA\""));
    sb_free(&sb);
    trace_free(t);
}

/* PyTorch's key_averages() names the device columns after the device. */
static void test_key_averages(void **state)
{
    (void)state;
    struct trace *t = load_text(mtia_trace);
    trace_index(t);
    struct keyavg_opts o = {0};
    struct table *tab = keyavg_table(t, &o);
    int self = table_col_index(tab, "Self MTIA");
    assert_true(self >= 0);
    assert_true(table_col_index(tab, "MTIA total") >= 0);
    assert_true(table_col_index(tab, "Self CUDA") < 0);
    assert_int_equal(keyavg_sort_column(tab, "self_cuda_time_total"), self);
    assert_int_equal(keyavg_sort_column(tab, "self_mtia_time_total"), self);
    table_free(tab);
    trace_free(t);
}

/* A CUDA trace keeps its words. */
static void test_gpu_trace_unchanged(void **state)
{
    (void)state;
    struct trace *t = load_text(
        "{\"traceEvents\": ["
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
        "\"ts\":0,\"dur\":5,\"args\":{\"correlation\":7}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"dma_kernel\",\"pid\":0,\"tid\":7,\"ts\":10,"
        "\"dur\":5,\"args\":{\"correlation\":7,\"stream\":7,\"device\":0}}]}");
    trace_index(t);
    assert_int_equal(t->device_kind, DEVKIND_GPU);
    /* The MTIA copy rule is MTIA's alone. */
    assert_int_equal(gpuclass_bucket(t, find_event(t, "dma_kernel")), BUCKET_COMP);
    struct strbuf sb = STRBUF_INIT;
    report_header_text(&sb, t);
    assert_non_null(strstr(sb_str(&sb), "gpu:      1 GPU event, 1 linked to a launch, 0 unlinked"));
    assert_non_null(strstr(sb_str(&sb), "devices:  GPU 0 (no deviceProperties)"));
    sb_free(&sb);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_and_links), cmocka_unit_test(test_timeline_kernels_hta),
        cmocka_unit_test(test_idle_parts),      cmocka_unit_test(test_header),
        cmocka_unit_test(test_key_averages),    cmocka_unit_test(test_gpu_trace_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
