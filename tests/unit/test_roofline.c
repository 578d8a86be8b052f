/* Unit tests: roofline tables on a small synthetic trace (grouping, kernel
 * time of kernels, memcpys and memsets by linking mode, the backward through the
 * forward<->backward link, ops nested in an op of the same family,
 * convolutions recorded without Concrete Inputs, ops without a model), the
 * no-shapes and no-kernels messages, device notes, the per-instance line
 * and the text plot. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/load.h"
#include "core/report/report.h"
#include "core/roofline/roofline.h"
#include "core/report/tabfmt.h"

#define OP(name, tid, ts, dur, args)                                                               \
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" name "\", \"pid\": 1, \"tid\": " #tid      \
    ", \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {" args "}},"
#define LAUNCH(tid, ts, corr)                                                                      \
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "      \
    "\"tid\": " #tid ", \"ts\": " #ts ", \"dur\": 1, \"args\": {\"correlation\": " #corr "}},"
#define KERNEL(ts, dur, corr)                                                                      \
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k" #corr "\", \"pid\": 0, \"tid\": 7, "      \
    "\"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"stream\": 7, \"device\": 0, "                \
    "\"correlation\": " #corr "}},"

#define GPU(cat, ts, dur, corr)                                                                    \
    "{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" cat #corr "\", \"pid\": 0, "              \
    "\"tid\": 7, \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"stream\": 7, \"device\": 0, "    \
    "\"correlation\": " #corr "}},"

/* Forward on thread 1, backward nodes on thread 2:
 * - aten::mm (seq 5) twice with the same shapes, once with others; its
 *   backward node launches a kernel directly (no aten::mm under it), so it
 *   is modelled through the link (GEMM_bwd);
 * - aten::mean (seq 6) whose backward node holds an aten::div: Reduce_bwd
 *   through the link, and the div in BinaryElementwise;
 * - aten::gelu: no model; aten::addmm with shapes that do not fit. */
static const char *trace_json =
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}],"
    "\"traceEvents\": [" OP(
        "aten::mm", 1, 10, 10,
        "\"Sequence number\": 5, \"Input Dims\": [[64,32],[32,16]], "
        "\"Input type\": [\"float\",\"float\"], \"Input Strides\": [[32,1],[16,1]], "
        "\"Concrete Inputs\": [\"\",\"\"]") LAUNCH(1, 11, 100) KERNEL(20, 8, 100)
        OP("aten::mm", 1, 22, 5,
           "\"Input Dims\": [[64,32],[32,16]], "
           "\"Input type\": [\"float\",\"float\"], \"Input Strides\": [[32,1],[16,1]]")
            LAUNCH(1, 23, 106) KERNEL(28, 2, 106) OP(
                "aten::mm", 1, 27.5, 2,
                "\"Input Dims\": [[8,8],[8,8]], "
                "\"Input type\": [\"float\",\"float\"], \"Input Strides\": [[8,1],[8,1]]")
                LAUNCH(1, 28, 107) KERNEL(31, 1, 107) OP(
                    "aten::mean", 1, 30, 10,
                    "\"Sequence number\": 6, \"Input Dims\": [[8,16],[],[],[]], "
                    "\"Input type\": [\"float\",\"ScalarList\",\"Scalar\",\"\"], "
                    "\"Concrete Inputs\": [\"\",\"[1]\",\"False\",\"\"]") LAUNCH(1, 31, 101)
                    KERNEL(40, 4, 101) OP("aten::gelu", 1, 50, 5,
                                          "\"Input Dims\": [[8,16]], \"Input type\": [\"float\"]")
                        LAUNCH(1, 51, 102) KERNEL(60, 2, 102) OP(
                            "aten::addmm", 1, 65, 5,
                            "\"Input Dims\": [[1],[2]], \"Input type\": [\"float\",\"float\"]")
                            LAUNCH(1, 66, 103) KERNEL(70, 1, 103) OP(
                                "autograd::engine::evaluate_function: MeanBackward1", 2, 100, 20,
                                "\"Sequence number\": 6") OP("MeanBackward1", 2, 101, 18,
                                                             "\"Sequence number\": 6")
                                OP("aten::div", 2, 102, 10,
                                   "\"Input Dims\": [[8,16],[]], \"Input type\": "
                                   "[\"float\",\"Scalar\"]")
                                    LAUNCH(2, 103, 104) KERNEL(110, 5, 104) OP(
                                        "autograd::engine::evaluate_function: MmBackward0", 2,
                                        130, 20, "\"Sequence number\": 5")
                                        OP("MmBackward0", 2, 131, 18, "\"Sequence number\": 5")
                                            LAUNCH(2, 132, 105) KERNEL(
                                                140, 6,
                                                105) "{\"ph\": \"i\", \"name\": \"end\", \"pid\": "
                                                     "1, \"tid\": 1, \"ts\": 200, \"s\": \"t\"}"
                                                     "]}";

static struct trace *load(const char *json)
{
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct load_opts o = {.threads = 1};
    assert_int_equal(trace_load_mem("synthetic.json", json, strlen(json), &o, &t, &err), ST_OK);
    errinfo_clear(&err);
    return t;
}

static uint32_t event_named(const struct trace *t, const char *name, int nth)
{
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (strcmp(ev_name(t, i), name) == 0 && nth-- == 0)
            return i;
    fail_msg("no event %s", name);
    return IDX_NONE;
}

static const struct table *find_table(const struct table_list *l, const char *name)
{
    for (size_t i = 0; i < l->items.n; i++)
        if (strcmp(l->items.v[i]->name, name) == 0)
            return l->items.v[i];
    return NULL;
}

static double fcell(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    return table_cell(t, row, (size_t)c).f;
}

static const char *scell(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    return table_cell(t, row, (size_t)c).s;
}

static int64_t icell(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    return table_cell(t, row, (size_t)c).i;
}

#define NEAR(x, v) assert_true(fabs((x) - (v)) <= 1e-9 * fabs(v) + 1e-12)

static void test_tables(void **state)
{
    struct trace *t = load(trace_json);
    struct analysis *a = analysis_new(t);
    char err[256];
    struct roofline *r = roofline_new(a, NULL, err);
    assert_non_null(r);
    assert_true(roofline_has_shapes(r));
    assert_non_null(roofline_device(r));
    assert_string_equal(roofline_device(r)->name, "H100 SXM");
    struct table_list l = {0};
    roofline_tables(r, &l);

    const struct table *g = find_table(&l, "GEMM");
    assert_non_null(g);
    assert_int_equal(g->nrows, 2);
    /* Grouped by shapes: the two 64x32x16 calls, 8 + 2 µs, sorted first. */
    assert_string_equal(scell(g, 0, "name"), "aten::mm");
    assert_int_equal(icell(g, 0, "param: M"), 64);
    assert_int_equal(icell(g, 0, "name_count"), 2);
    NEAR(fcell(g, 0, "Kernel Time (µs)_sum"), 10.0);
    NEAR(fcell(g, 0, "Kernel Time (µs)_mean"), 5.0);
    NEAR(fcell(g, 0, "GFLOPS_first"), 2.0 * 64 * 16 * 32 / 1e9);
    double flops = 2.0 * 64 * 16 * 32, bytes = (64 * 32 + 32 * 16 + 64 * 16) * 4.0;
    NEAR(fcell(g, 0, "Data Moved (MB)_first"), bytes / 1048576);
    NEAR(fcell(g, 0, "FLOPS/Byte_first"), flops / bytes);
    /* TFLOP/s per instance, then mean / min / max. */
    NEAR(fcell(g, 0, "TFLOPS/s_mean"), (flops / 8e6 + flops / 2e6) / 2);
    NEAR(fcell(g, 0, "TFLOPS/s_min"), flops / 8e6);
    NEAR(fcell(g, 0, "TFLOPS/s_max"), flops / 2e6);
    /* Roofline against H100 SXM fp32 (67 TFLOP/s, 3350 GB/s): memory-bound. */
    assert_string_equal(scell(g, 0, "Compute Spec"), "matrix_fp32");
    double roof = bytes / 3350e3;
    NEAR(fcell(g, 0, "Roofline Time (µs)_first"), roof);
    assert_string_equal(scell(g, 0, "Roofline Bound_first"), "MEMORY_BOUND");
    NEAR(fcell(g, 0, "Pct Roofline_mean"), (roof / 8 + roof / 2) / 2 * 100);
    assert_int_equal(icell(g, 1, "param: M"), 8);
    /* Instances: the events behind each row. */
    assert_int_equal(g->inst_first[1] - g->inst_first[0], 2);
    assert_int_equal(g->inst[g->inst_first[0]], event_named(t, "aten::mm", 0));
    assert_int_equal(table_ref(g, 0), event_named(t, "aten::mm", 0));

    /* mm's backward node has no GEMM op under it: modelled through the link. */
    const struct table *gb = find_table(&l, "GEMM_bwd");
    assert_non_null(gb);
    assert_int_equal(gb->nrows, 1);
    assert_string_equal(scell(gb, 0, "name"), "aten::mm");
    NEAR(fcell(gb, 0, "Kernel Time (µs)_sum"), 6.0);
    NEAR(fcell(gb, 0, "GFLOPS_first"), 2 * flops / 1e9);
    uint32_t mm_bwd = event_named(t, "autograd::engine::evaluate_function: MmBackward0", 0);
    assert_int_equal(gb->inst[0], mm_bwd);

    const struct table *rf = find_table(&l, "Reduce_fwd");
    assert_non_null(rf);
    assert_int_equal(icell(rf, 0, "param: num_output_elems"), 8);
    NEAR(fcell(rf, 0, "Kernel Time (µs)_sum"), 4.0);
    const struct table *rb = find_table(&l, "Reduce_bwd");
    assert_non_null(rb);
    assert_string_equal(scell(rb, 0, "name"), "aten::mean");
    NEAR(fcell(rb, 0, "Kernel Time (µs)_sum"), 5.0);
    const struct table *bin = find_table(&l, "BinaryElementwise");
    assert_non_null(bin);
    assert_string_equal(scell(bin, 0, "name"), "aten::div");

    /* No model: gelu; a modelled name whose shapes do not fit: addmm. */
    const struct table *nm = find_table(&l, "no_model");
    assert_non_null(nm);
    assert_int_equal(nm->nrows, 2);
    assert_string_equal(scell(nm, 0, "name"), "aten::gelu");
    assert_string_equal(scell(nm, 0, "reason"), "no model");
    NEAR(fcell(nm, 0, "Kernel Time (µs)_sum"), 2.0);
    assert_string_equal(scell(nm, 1, "name"), "aten::addmm");
    assert_string_equal(scell(nm, 1, "reason"), "arguments do not fit the model");
    assert_null(find_table(&l, "CONV_fwd"));

    /* Every table prints in every format. */
    for (int f = FMT_TEXT; f <= FMT_MD; f++) {
        struct strbuf sb = STRBUF_INIT;
        struct tabfmt_opts o = {.format = (enum tab_format)f};
        tabfmt_list(&sb, &l, &o, NULL);
        assert_true(sb.len > 0);
        sb_free(&sb);
    }
    table_list_free(&l);
    roofline_free(r);
    analysis_free(a);
    trace_free(t);
}

static void test_instance_line_and_plot(void **state)
{
    struct trace *t = load(trace_json);
    struct analysis *a = analysis_new(t);
    char err[256];
    struct roofline *r = roofline_new(a, "H100 SXM", err);
    assert_non_null(r);
    uint32_t mm = event_named(t, "aten::mm", 0);
    struct pm_result *res = malloc(sizeof(*res));
    struct roofline_point pt;
    assert_true(roofline_instance(r, mm, res, &pt));
    assert_int_equal(res->sheet, PM_GEMM);
    assert_string_equal(pm_param(res, 0), "64");
    NEAR(pt.flops, 2.0 * 64 * 16 * 32);
    NEAR(pt.kernel_us, 8.0);
    NEAR(pt.peak_tflops, 67.0);
    assert_false(pt.compute_bound);
    assert_false(roofline_instance(r, event_named(t, "aten::gelu", 0), NULL, NULL));
    /* The backward node stands for the backward instance. */
    uint32_t bwd = event_named(t, "autograd::engine::evaluate_function: MmBackward0", 0);
    assert_true(roofline_instance(r, bwd, res, &pt));
    assert_int_equal(res->sheet, PM_GEMM_BWD);
    NEAR(pt.kernel_us, 6.0);
    free(res);

    struct strbuf sb = STRBUF_INIT;
    assert_true(roofline_summary_line(&sb, r, mm, false));
    assert_string_equal(sb_str(&sb), "aten::mm 64\u00d716\u00d732 fp32 \u00b7 0.06554 MFLOP "
                                     "\u00b7 4.57 FLOP/B \u00b7 8.192 GFLOP/s \u00b7 0.053 % "
                                     "of roofline, memory-bound");
    sb_clear(&sb);
    assert_true(roofline_summary_line(&sb, r, mm, true));
    assert_non_null(strstr(sb_str(&sb), "64x16x32 fp32 - "));
    sb_clear(&sb);
    assert_false(roofline_summary_line(&sb, r, event_named(t, "aten::gelu", 0), true));
    assert_int_equal(sb.len, 0);

    /* Plot: exactly `height` lines, none wider than `width` columns. */
    assert_true(roofline_plot(&sb, r, mm, 60, 16, true));
    int lines = 0;
    const char *s = sb_str(&sb);
    for (const char *p = s; *p;) {
        const char *nl = strchr(p, '\n');
        assert_non_null(nl);
        assert_true(nl - p <= 60);
        lines++;
        p = nl + 1;
    }
    assert_int_equal(lines, 16);
    assert_non_null(strchr(s, '@')); /* this combination */
    assert_non_null(strchr(s, 'o')); /* the other one */
    assert_non_null(strstr(s, "roof: 67 TFLOP/s"));
    sb_clear(&sb);
    assert_true(roofline_plot(&sb, r, mm, 80, 20, false));
    assert_non_null(strstr(sb_str(&sb), "\u25cf"));
    sb_clear(&sb);
    assert_false(roofline_plot(&sb, r, mm, 10, 5, true));
    sb_free(&sb);
    roofline_free(r);
    analysis_free(a);
    trace_free(t);
}

/* The detail-pane line of the example: a 4096^3 bf16 mm at
 * 650 TFLOP/s on an H100 SXM (989.5 TFLOP/s dense bf16). */
static void test_example_line(void **state)
{
    struct trace *t =
        load("{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}],"
             "\"traceEvents\": [" OP("aten::mm", 1, 10, 300,
                                     "\"Input Dims\": [[4096,4096],[4096,4096]], \"Input type\": "
                                     "[\"c10::BFloat16\",\"c10::BFloat16\"]") LAUNCH(1, 11, 100)
                 KERNEL(20, 211.444, 100) "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, "
                                          "\"tid\": 1, \"ts\": 400}]}");
    struct analysis *a = analysis_new(t);
    char err[256];
    struct roofline *r = roofline_new(a, NULL, err);
    struct strbuf sb = STRBUF_INIT;
    assert_true(roofline_summary_line(&sb, r, event_named(t, "aten::mm", 0), false));
    assert_string_equal(sb_str(&sb), "aten::mm 4096\u00d74096\u00d74096 bf16 \u00b7 137.4 GFLOP "
                                     "\u00b7 1365 FLOP/B \u00b7 650 TFLOP/s \u00b7 66 % of "
                                     "roofline, compute-bound");
    sb_free(&sb);
    roofline_free(r);
    analysis_free(a);
    trace_free(t);
}

/* Kernel time counts kernels, memcpys and memsets (docs/metrics.md §6.3);
 * the linking decides which memsets are the op's. The memsets' launches
 * (hipMemsetAsync) start no flow: linked by correlation id by default,
 * unlinked with link_require_flow (TraceLens's rule). */
#define FLOW(ts, corr)                                                                             \
    "{\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"id\": " #corr                        \
    ", \"pid\": 1, \"tid\": 1, \"ts\": " #ts "},"
static const char *memset_json = "{\"traceEvents\": [" OP(
    "aten::mm", 1, 10, 20,
    "\"Input Dims\": [[8,8],[8,8]], \"Input type\": "
    "[\"float\",\"float\"]") LAUNCH(1, 11, 100) FLOW(11, 100) KERNEL(20, 8, 100) LAUNCH(1, 13, 101)
    GPU("gpu_memset", 30, 5,
        101) OP("aten::copy_", 1, 40, 10,
                "\"Input Dims\": [[64],[64]], \"Input type\": [\"float\",\"float\"]")
        LAUNCH(1, 41, 102) FLOW(41, 102) GPU("gpu_memcpy", 50, 3, 102)
            OP("aten::zero_", 1, 60, 10,
               "\"Input Dims\": [[64]], \"Input type\": [\"float\"]") LAUNCH(1, 61, 103)
                GPU("gpu_memset", 70, 2,
                    103) "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 90}]}";

static void check_memset_time(bool require_flow, double gemm_us, size_t no_model_rows)
{
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct load_opts o = {.threads = 1, .link_require_flow = require_flow};
    assert_int_equal(trace_load_mem("memsets.json", memset_json, strlen(memset_json), &o, &t, &err),
                     ST_OK);
    errinfo_clear(&err);
    struct analysis *a = analysis_new(t);
    char msg[256];
    struct roofline *r = roofline_new(a, "H100 SXM", msg);
    assert_non_null(r);
    struct table_list l = {0};
    roofline_tables(r, &l);
    const struct table *g = find_table(&l, "GEMM");
    assert_non_null(g);
    NEAR(fcell(g, 0, "Kernel Time (µs)_sum"), gemm_us);
    const struct table *u = find_table(&l, "UnaryElementwise");
    assert_non_null(u);
    NEAR(fcell(u, 0, "Kernel Time (µs)_sum"), 3.0);
    /* aten::zero_'s memset is GPU time no model covers, when linked. */
    const struct table *nm = find_table(&l, "no_model");
    assert_non_null(nm);
    assert_int_equal(nm->nrows, no_model_rows);
    if (no_model_rows)
        NEAR(fcell(nm, 0, "Kernel Time (µs)_sum"), 2.0);
    table_list_free(&l);
    roofline_free(r);
    analysis_free(a);
    trace_free(t);
}

static void test_kernel_time_memsets(void **state)
{
    (void)state;
    check_memset_time(false, 13.0, 1); /* kernel [20,28) and memset [30,35) */
    check_memset_time(true, 8.0, 0);
}

/* An op inside an op of the same family runs that op's kernels: only the
 * outermost is an instance (aten::convolution, not the aten::_convolution
 * and aten::miopen_convolution in it); an op without a model in between
 * does not count (aten::matmul above aten::mm). */
#define CONV_ARGS                                                                                  \
    "\"Input Dims\": [[1,4,8,8],[4,4,3,3],[],[],[],[],[],[],[]], \"Input type\": "                 \
    "[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\","           \
    "\"ScalarList\",\"Scalar\"], \"Concrete Inputs\": [\"\",\"\",\"\",\"[1, 1]\",\"[1, 1]\","      \
    "\"[1, 1]\",\"False\",\"[0, 0]\",\"1\"]"
#define MIOPEN_ARGS                                                                                \
    "\"Input Dims\": [[1,4,8,8],[4,4,3,3],[],[],[],[],[],[]], \"Input type\": "                    \
    "[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\","           \
    "\"Scalar\"], \"Concrete Inputs\": [\"\",\"\",\"\",\"[1, 1]\",\"[1, 1]\",\"[1, 1]\",\"1\","    \
    "\"False\"]"

static void test_nested_family(void **state)
{
    struct trace *t = load(
        "{\"traceEvents\": [" OP("aten::convolution", 1, 10, 30, CONV_ARGS)
            OP("aten::_convolution", 1, 11, 28, CONV_ARGS)
                OP("aten::miopen_convolution", 1, 12, 26, MIOPEN_ARGS) LAUNCH(1, 13, 100)
                    KERNEL(20, 8, 100) OP("aten::matmul", 1, 50, 20, "")
                        OP("aten::mm", 1, 51, 18,
                           "\"Input Dims\": [[8,8],[8,8]], \"Input type\": "
                           "[\"float\",\"float\"]") LAUNCH(1, 52, 101)
                            KERNEL(60, 4, 101) "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, "
                                               "\"tid\": 1, \"ts\": 90}]}");
    struct analysis *a = analysis_new(t);
    char err[256];
    struct roofline *r = roofline_new(a, "H100 SXM", err);
    assert_non_null(r);
    struct table_list l = {0};
    roofline_tables(r, &l);
    const struct table *c = find_table(&l, "CONV_fwd");
    assert_non_null(c);
    assert_int_equal(c->nrows, 1);
    assert_string_equal(scell(c, 0, "name"), "aten::convolution");
    assert_int_equal(icell(c, 0, "name_count"), 1);
    NEAR(fcell(c, 0, "Kernel Time (µs)_sum"), 8.0);
    assert_int_equal(c->notes.n, 3);
    assert_non_null(strstr(c->notes.v[2], "2 instances"));
    assert_non_null(strstr(c->notes.v[2], "aten::_convolution"));
    assert_false(roofline_instance(r, event_named(t, "aten::miopen_convolution", 0), NULL, NULL));
    const struct table *g = find_table(&l, "GEMM");
    assert_non_null(g);
    assert_int_equal(g->nrows, 1);
    assert_string_equal(scell(g, 0, "name"), "aten::mm");
    assert_int_equal(g->notes.n, 2);
    table_list_free(&l);
    roofline_free(r);
    analysis_free(a);
    trace_free(t);
}

/* PyTorch 1.9: no Concrete Inputs, backward nodes named after the function
 * ("CudnnConvolutionBackward") and paired by Sequence number only. A
 * forward convolution takes its output shape from the backward op of its
 * Sequence number; one without a backward goes to no_model with the
 * reason, in every format. */
#define OLD_CONV_ARGS(seq, x, w)                                                                   \
    "\"Sequence number\": " #seq ", \"Input Dims\": [" x "," w ",[],[],[],[],[],[],[]], "          \
    "\"Input type\": [\"float\",\"float\",\"\",\"GenericList\",\"GenericList\",\"GenericList\","   \
    "\"Bool\",\"GenericList\",\"Int\"]"

static void test_conv_without_concrete_inputs(void **state)
{
    struct trace *t = load(
        "{\"traceEvents\": [" OP("aten::convolution", 1, 10, 20,
                                 OLD_CONV_ARGS(7, "[2,4,8,8]", "[4,4,1,1]")) LAUNCH(1, 11, 100)
            KERNEL(20, 4, 100) OP("aten::convolution", 1, 40, 20,
                                  OLD_CONV_ARGS(8, "[2,4,8,8]", "[8,4,3,3]")) LAUNCH(1, 41, 101)
                KERNEL(50, 6, 101) OP("CudnnConvolutionBackward", 2, 100, 20,
                                      "\"Sequence number\": 7, \"Input Dims\": [[2,4,4,4]]")
                    OP("aten::cudnn_convolution_backward", 2, 101, 18,
                       "\"Input Dims\": [[2,4,8,8],[2,4,4,4],[4,4,1,1],[],[],[],[],[],[],[],[]], "
                       "\"Input type\": [\"float\",\"float\",\"float\"]") LAUNCH(2, 102, 102)
                        KERNEL(110, 5, 102) "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, "
                                            "\"tid\": 1, \"ts\": 200}]}");
    struct analysis *a = analysis_new(t);
    char err[256];
    struct roofline *r = roofline_new(a, "V100 SXM2", err);
    assert_non_null(r);
    struct table_list l = {0};
    roofline_tables(r, &l);
    /* Stride 2: out (2,4,4,4) from grad_output, not (2,4,8,8). */
    const struct table *c = find_table(&l, "CONV_fwd");
    assert_non_null(c);
    assert_int_equal(c->nrows, 1);
    NEAR(fcell(c, 0, "GFLOPS_first"), 2.0 * 4 * 2 * 4 * 16 / 1e9);
    assert_string_equal(scell(c, 0, "param: stride"), "None");
    const struct table *cb = find_table(&l, "CONV_bwd");
    assert_non_null(cb);
    assert_string_equal(scell(cb, 0, "name"), "aten::cudnn_convolution_backward");
    const struct table *nm = find_table(&l, "no_model");
    assert_non_null(nm);
    assert_int_equal(nm->nrows, 1);
    assert_string_equal(scell(nm, 0, "name"), "aten::convolution");
    const char *why = "convolution parameters (stride, padding, dilation) not recorded: the trace "
                      "has no Concrete Inputs";
    assert_string_equal(scell(nm, 0, "reason"), why);
    NEAR(fcell(nm, 0, "Kernel Time (µs)_sum"), 6.0);
    for (int f = FMT_TEXT; f <= FMT_MD; f++) {
        struct strbuf sb = STRBUF_INIT;
        struct tabfmt_opts o = {.format = (enum tab_format)f, .max_name_width = 200};
        tabfmt_list(&sb, &l, &o, NULL);
        assert_non_null(strstr(sb_str(&sb), "not recorded: the trace has no Concrete Inputs"));
        sb_free(&sb);
    }
    table_list_free(&l);
    roofline_free(r);
    analysis_free(a);
    trace_free(t);
}

static void test_no_shapes_message(void **state)
{
    struct trace *t = load(
        "{\"traceEvents\": [" OP("aten::mm", 1, 10, 10, "\"Sequence number\": 5") LAUNCH(1, 11, 100)
            KERNEL(20, 8,
                   100) "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 30}"
                        "]}");
    struct analysis *a = analysis_new(t);
    struct table_list l = {0};
    char err[256];
    struct report_opts o = {0};
    assert_true(report_build(a, "roofline", &o, &l, err));
    assert_int_equal(l.items.n, 1);
    const struct table *m = l.items.v[0];
    assert_string_equal(m->name, "roofline");
    assert_int_equal(m->nrows, 1);
    assert_non_null(strstr(table_cell(m, 0, 0).s, "record_shapes=True"));
    table_list_free(&l);
    analysis_free(a);
    trace_free(t);
}

/* Shapes but no GPU work (a CPU-only profile): one message, not an empty
 * no_model table. */
static void test_no_kernels_message(void **state)
{
    struct trace *t = load("{\"traceEvents\": [" OP(
        "aten::mm", 1, 10, 10,
        "\"Input Dims\": [[4,4],[4,4]], \"Input type\": "
        "[\"float\",\"float\"]") "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, "
                                 "\"ts\": 30}]}");
    struct analysis *a = analysis_new(t);
    struct table_list l = {0};
    char err[256];
    struct report_opts o = {0};
    assert_true(report_build(a, "roofline", &o, &l, err));
    assert_int_equal(l.items.n, 1);
    const struct table *m = l.items.v[0];
    assert_string_equal(m->name, "roofline");
    assert_int_equal(m->nrows, 1);
    assert_non_null(strstr(table_cell(m, 0, 0).s, "no GPU kernels in this trace"));
    table_list_free(&l);
    analysis_free(a);
    trace_free(t);
}

static void test_unknown_device(void **state)
{
    const char *json =
        "{\"deviceProperties\": [{\"id\": 0, \"name\": \"Some Future GPU\"}], \"traceEvents\": "
        "[" OP("aten::mm", 1, 10, 10,
               "\"Input Dims\": [[4,4],[4,4]], \"Input type\": "
               "[\"float\",\"float\"]") LAUNCH(1, 11, 100)
            KERNEL(20, 8,
                   100) "{\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 30}]}";
    struct trace *t = load(json);
    struct analysis *a = analysis_new(t);
    char err[256];
    struct roofline *r = roofline_new(a, NULL, err);
    assert_non_null(r);
    assert_null(roofline_device(r));
    assert_non_null(strstr(roofline_device_note(r), "--arch"));
    struct table_list l = {0};
    roofline_tables(r, &l);
    const struct table *g = find_table(&l, "GEMM");
    assert_non_null(g);
    /* FLOPs, bytes and rates are there; the roofline columns are empty. */
    NEAR(fcell(g, 0, "GFLOPS_first"), 128.0 / 1e9);
    assert_false(isnan(fcell(g, 0, "TFLOPS/s_mean")));
    assert_true(isnan(fcell(g, 0, "Roofline Time (µs)_first")));
    assert_null(scell(g, 0, "Roofline Bound_first"));
    assert_true(isnan(fcell(g, 0, "Pct Roofline_mean")));
    assert_non_null(strstr(g->notes.v[0], "--arch"));
    table_list_free(&l);
    /* The plot still draws the point, without a roof. */
    struct strbuf sb = STRBUF_INIT;
    assert_true(roofline_plot(&sb, r, event_named(t, "aten::mm", 0), 50, 10, true));
    assert_non_null(strstr(sb_str(&sb), "no roof"));
    sb_free(&sb);
    roofline_free(r);
    /* An explicit --arch that cannot be used is an error. */
    assert_null(roofline_new(a, "NoSuchGPU", err));
    assert_non_null(strstr(err, "NoSuchGPU"));
    analysis_free(a);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_instance_line_and_plot),
        cmocka_unit_test(test_example_line),
        cmocka_unit_test(test_kernel_time_memsets),
        cmocka_unit_test(test_nested_family),
        cmocka_unit_test(test_conv_without_concrete_inputs),
        cmocka_unit_test(test_no_shapes_message),
        cmocka_unit_test(test_no_kernels_message),
        cmocka_unit_test(test_unknown_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
