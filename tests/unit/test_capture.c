/* Unit tests: graph replays grouped per graph, and replayed kernels
 * attributed to the ops of a capture trace (alignment by kernel name,
 * memcpy by kind, skipped capture launches, a kernel that does not align,
 * the choice among captures). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/analysis/gputime.h"
#include "core/analysis/graphs.h"
#include "core/analysis/kerncat.h"
#include "core/analysis/opstats.h"
#include "core/symbols/folded.h"
#include "core/symbols/traceback.h"
#include "core/trace/capture.h"
#include "core/trace/tree.h"
#include "tests/unit/testutil.h"

#define X(cat, name, tid, ts, dur, args)                                                           \
    "{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 1, \"tid\": " #tid     \
    ", \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {" args "}}"
#define G(cat, name, ts, dur, corr)                                                                \
    "{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 0, \"tid\": 7"         \
    ", \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"stream\": 7, \"device\": 0, "              \
    "\"correlation\": " #corr "}}"
#define LK(kname, ts, corr)                                                                        \
    X("cuda_runtime", "hipLaunchKernel", 1, ts, 2,                                                 \
      "\"kernel\": \"" kname "\", \"correlation\": " #corr)

/* Two replays of one graph: gemm, norm, a kernel the capture never
 * launched, a copy, gemm again. */
static const char replay_json[] = "{\"traceEvents\": [" X("cpu_op", "step", 1, 0, 1000, "") "," X(
    "cuda_runtime", "hipGraphLaunch", 1, 100, 50,
    "\"correlation\": 900") "," X("cuda_runtime", "hipGraphLaunch", 1, 500, 50,
                                  "\"correlation\": "
                                  "901") ","
    /* replay 1 */
    G("kernel", "gemm_k", 200, 10, 900) "," G("kernel", "norm_k", 220, 5, 900) "," G(
        "kernel", "mystery_k", 230, 4, 900) "," G("gpu_memcpy", "Memcpy DtoD (Device -> Device)",
                                                  240, 3,
                                                  900) "," G("kernel", "gemm_k", 250, 12, 900) ","
    /* replay 2 */
    G("kernel", "gemm_k", 600, 11, 901) "," G("kernel", "norm_k", 620, 6, 901) "," G(
        "kernel", "mystery_k", 630, 4, 901) "," G("gpu_memcpy", "Memcpy DtoD (Device -> Device)",
                                                  640, 3,
                                                  901) "," G("kernel", "gemm_k", 650, 13, 901) "]}";

/* The capture: the launches under ops under an nn.Module frame; one
 * launch (skipped_k) that the replay does not have. */
static const char capture_json[] =
    "{\"traceEvents\": [" X("python_function", "nn.Module: Model_0", 1, 0, 500, "") "," X("cpu_op", "aten::mm", 1, 10, 50, "\"Input Dims\": [[4, 8], [8, 16]], \"Input type\": [\"float\", \"float\"]") "," LK(
        "gemm_k", 20,
        5) "," X("cpu_op", "aten::rms", 1, 70, 30,
                 "") "," LK("norm_k", 75,
                            6) "," X("cpu_op", "extra_op", 1, 110, 20,
                                     "") "," LK("skipped_k", 115,
                                                7) "," X("cpu_op", "aten::copy_", 1, 150, 20,
                                                         "") "," X("cuda_runtime", "hipMemcpyAsync",
                                                                   1, 155, 3,
                                                                   "\"correlation\": "
                                                                   "8") "," X("cpu_op",
                                                                              "aten::"
                                                                              "mm",
                                                                              1, 200, 50,
                                                                              "\"Input"
                                                                              " Dims\""
                                                                              ": [[4, "
                                                                              "8], "
                                                                              "[8, "
                                                                              "16]], "
                                                                              "\"Input"
                                                                              " type\""
                                                                              ": "
                                                                              "[\"floa"
                                                                              "t\", "
                                                                              "\"float"
                                                                              "\"]") "," LK("gemm_"
                                                                                            "k",
                                                                                            210,
                                                                                            9) "]}";

/* A capture of another graph: nothing in it matches. */
static const char other_json[] =
    "{\"traceEvents\": [" X("cpu_op", "aten::other", 1, 0, 50, "") "," LK("other_k", 10, 5) "]}";

static struct trace *load_unindexed(const char *json)
{
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct load_opts o = {.threads = 1, .no_index = true};
    assert_int_equal(trace_load_mem("replay.json", json, strlen(json), &o, &t, &err), ST_OK);
    return t;
}

static const char *launcher_name(const struct trace *t, uint32_t gpu_ev)
{
    uint32_t l = t->gpus.v[t->ev.v[gpu_ev].aux].launcher;
    return l == IDX_NONE ? "" : ev_name(t, l);
}

/* The i-th GPU event (file order) of the trace. */
static uint32_t gpu_nth(const struct trace *t, int n)
{
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (evk_is_gpu(t->ev.v[i].kind) && n-- == 0)
            return i;
    fail_msg("no GPU event %d", n);
    return IDX_NONE;
}

static void test_graphs_without_capture(void **state)
{
    struct trace *t = load_text(replay_json);
    struct graph_share gs;
    assert_true(graphs_share(t, &gs));
    assert_int_equal(gs.kernels, 10);
    assert_int_equal(gs.launches, 2);
    assert_int_equal(gs.ns, (10 + 5 + 4 + 3 + 12 + 11 + 6 + 4 + 3 + 13) * 1000);
    int64_t ns[KERNCAT__COUNT];
    assert_true(graphs_by_category(t, ns, KERNCAT__COUNT));
    assert_int_equal(ns[KERNCAT_GEMM], (10 + 12 + 11 + 13) * 1000);
    assert_int_equal(ns[KERNCAT_MEMCPY], 6000);
    assert_int_equal(ns[KERNCAT_OTHER], 8000); /* mystery_k */
    struct table_list tl = {0};
    char err[256];
    assert_true(graphs_tables(t, &tl, err));
    assert_int_equal(tl.items.n, 2);
    const struct table *g = tl.items.v[0], *n = tl.items.v[1];
    assert_int_equal(g->nrows, 1); /* two replays, one graph */
    assert_int_equal(table_cell(g, 0, table_col_index(g, "replays")).i, 2);
    assert_int_equal(table_cell(g, 0, table_col_index(g, "kernels_per_replay")).i, 5);
    assert_true(table_cell(g, 0, table_col_index(g, "replay_time_min_us")).f == 34.0);
    assert_true(table_cell(g, 0, table_col_index(g, "replay_time_max_us")).f == 37.0);
    assert_int_equal(n->nrows, 5);
    assert_string_equal(table_cell(n, 0, table_col_index(n, "category")).s, "GEMM");
    assert_string_equal(table_cell(n, 1, table_col_index(n, "category")).s, "norm");
    assert_string_equal(table_cell(n, 3, table_col_index(n, "category")).s, "memcpy");
    assert_true(table_cell(n, 4, table_col_index(n, "time_mean_us")).f == 12.5);
    table_list_free(&tl);
    trace_free(t);
}

static void test_capture_attribution(void **state)
{
    struct trace *t = load_unindexed(replay_json);
    struct trace *caps[2] = {load_text(other_json), load_text(capture_json)};
    capture_merge(t, caps, 2);
    trace_index(t);
    assert_int_equal(t->graph_kernels, 10);
    assert_int_equal(t->graph_aligned, 8);
    assert_int_equal(t->graph_aligned_ns, (10 + 5 + 3 + 12 + 11 + 6 + 3 + 13) * 1000);
    assert_string_equal(launcher_name(t, gpu_nth(t, 0)), "aten::mm");
    assert_string_equal(launcher_name(t, gpu_nth(t, 1)), "aten::rms");
    /* mystery_k has no launch in the capture: it stays with the graph launch
     * (whose launcher is the op above it). */
    assert_string_equal(launcher_name(t, gpu_nth(t, 2)), "step");
    assert_string_equal(ev_name(t, t->gpus.v[t->ev.v[gpu_nth(t, 2)].aux].launch), "hipGraphLaunch");
    assert_true(t->ev.v[gpu_nth(t, 2)].flags & EVF_GRAPH);
    assert_string_equal(launcher_name(t, gpu_nth(t, 3)), "aten::copy_");
    assert_string_equal(launcher_name(t, gpu_nth(t, 4)), "aten::mm");
    assert_string_equal(launcher_name(t, gpu_nth(t, 9)), "aten::mm");
    /* The copied op carries the capture's shapes and the capture flag. */
    uint32_t mm = t->gpus.v[t->ev.v[gpu_nth(t, 0)].aux].launcher;
    assert_true(t->ev.v[mm].flags & EVF_CAPTURED);
    assert_true(ev_op(t, mm)->input_dims != 0);

    struct analysis *a = analysis_new(t);
    struct table *ops = opstats_ops_table(a->ops);
    int name = table_col_index(ops, "name"), pm = table_col_index(ops, "parent_module");
    int cnt = table_col_index(ops, "Count"),
        dms = table_col_index(ops, "total_direct_kernel_time_sum");
    assert_true(pm >= 0);
    bool seen_mm = false, seen_graph = false;
    for (size_t r = 0; r < ops->nrows; r++) {
        const char *nm = table_cell(ops, r, name).s;
        if (strcmp(nm, "aten::mm") == 0) {
            seen_mm = true;
            assert_string_equal(table_cell(ops, r, pm).s, "nn.Module: Model");
            assert_int_equal(table_cell(ops, r, cnt).i, 4); /* two per replay */
            assert_true(table_cell(ops, r, dms).f == 10 + 12 + 11 + 13);
        } else if (strcmp(nm, "step") == 0) {
            seen_graph = true;
            assert_string_equal(table_cell(ops, r, pm).s, "NA");
            assert_true(table_cell(ops, r, dms).f == 8);
        }
        assert_true(strcmp(nm, "extra_op") != 0); /* skipped capture launch */
    }
    assert_true(seen_mm && seen_graph);
    table_free(ops);
    struct table *ua = opstats_unique_args_table(a->ops);
    /* Both copies of the capture thread group as one thread. */
    int uname = table_col_index(ua, "name"), ucnt = table_col_index(ua, "operation_count");
    for (size_t r = 0; r < ua->nrows; r++)
        if (strcmp(table_cell(ua, r, uname).s, "aten::mm") == 0)
            assert_int_equal(table_cell(ua, r, ucnt).i, 4);
    table_free(ua);
    analysis_free(a);
    struct graph_share gs;
    assert_true(graphs_share(t, &gs));
    assert_int_equal(gs.kernels, 2); /* the two mystery_k left */
    trace_free(caps[0]);
    trace_free(caps[1]);
    trace_free(t);
}

static void test_capture_none_matches(void **state)
{
    struct trace *t = load_unindexed(replay_json);
    struct trace *cap = load_text(other_json);
    capture_merge(t, &cap, 1);
    trace_index(t);
    assert_int_equal(t->graph_kernels, 10);
    assert_int_equal(t->graph_aligned, 0);
    for (int k = 0; k < 10; k++)
        assert_string_equal(launcher_name(t, gpu_nth(t, k)), "step");
    trace_free(cap);
    trace_free(t);
}

/* The i-th event named name (file order, copies included). */
static uint32_t named(const struct trace *t, const char *name, int n)
{
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (strcmp(ev_name(t, i), name) == 0 && n-- == 0)
            return i;
    fail_msg("no event %s", name);
    return IDX_NONE;
}

/* Whether text has the whole line `line`. */
static bool has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)); p++)
        if ((p == text || p[-1] == '\n') && p[n] == '\n')
            return true;
    print_message("%s", text);
    return false;
}

/* Tree views: each replay's captured copies hang under its graph launch,
 * the replay's ops above it count the attributed kernels, and a replayed
 * kernel's traceback runs through the captured op to the graph launch. */
static void test_capture_tree_graft(void **state)
{
    struct trace *t = load_unindexed(replay_json);
    struct trace *cap = load_text(capture_json);
    capture_merge(t, &cap, 1);
    trace_index(t);
    uint32_t step = named(t, "step", 0), l1 = named(t, "hipGraphLaunch", 0),
             l2 = named(t, "hipGraphLaunch", 1);
    /* One capture thread: one row of copies per graph launch. */
    assert_int_equal(t->grafts.n, 2);
    uint32_t n;
    const struct capture_graft *g = capture_grafts(t, l1, &n);
    assert_int_equal(n, 1);
    assert_int_equal(capture_graft_launch(t, g->row), l1);
    assert_int_equal(capture_graft_launch(t, t->ev.v[l1].row), IDX_NONE);
    assert_null(capture_grafts(t, step, &n));
    assert_int_equal(n, 0);
    uint32_t mm = t->gpus.v[t->ev.v[gpu_nth(t, 5)].aux].launcher; /* replay 2's first gemm */
    assert_int_equal(capture_graft_launch(t, t->ev.v[mm].row), l2);

    /* Subtree GPU time: a launch holds its whole replay (34 and 37 us),
     * the op above both replays all ten kernels; the tables' direct times
     * stay where the capture put them. */
    struct gputime *gt = gputime_new(t);
    assert_int_equal(gputime_subtree(gt, l1, true), 34000);
    assert_int_equal(gputime_subtree(gt, l2, true), 37000);
    assert_int_equal(gputime_subtree(gt, step, true), 71000);
    assert_int_equal(gputime_direct(gt, step, true), 8000); /* the mystery_k left */
    assert_int_equal(gputime_direct(gt, mm, true), 11000);
    gputime_free(gt);

    /* Traceback: kernel, the captured launch, op and module (from the
     * capture), then the graph launch and the op that ran it. */
    struct traceback tb;
    traceback_init(&tb);
    traceback_of_event(&tb, t, gpu_nth(t, 5));
    static const char *const want[] = {
        "gemm_k", "hipLaunchKernel", "aten::mm", "nn.Module: Model_0", "hipGraphLaunch", "step"};
    assert_int_equal(tb.frames.n, 6);
    for (size_t k = 0; k < 6; k++) {
        assert_string_equal(tb.frames.v[k].name, want[k]);
        bool captured = (tb.frames.v[k].flags & TBF_CAPTURED) != 0;
        assert_int_equal(captured, k >= 1 && k <= 3);
    }
    /* A kernel that did not align stays under the graph launch. */
    traceback_of_event(&tb, t, gpu_nth(t, 2));
    assert_int_equal(tb.frames.n, 3);
    assert_string_equal(tb.frames.v[1].name, "hipGraphLaunch");
    assert_string_equal(tb.frames.v[2].name, "step");
    traceback_done(&tb);

    /* Folded stacks: replay op > graph launch > captured ops, the values
     * as before the graft. */
    struct strbuf out = STRBUF_INIT;
    folded_write(&out, t, FOLDED_SELF_DEVICE);
    assert_true(has_line(sb_str(&out), "step;hipGraphLaunch;nn.Module:_Model_0;aten::mm 46"));
    assert_true(has_line(sb_str(&out), "step;hipGraphLaunch;nn.Module:_Model_0;aten::rms 11"));
    assert_true(has_line(sb_str(&out), "step 8"));
    sb_free(&out);
    trace_free(cap);
    trace_free(t);
}

static void test_kernel_categories(void **state)
{
    assert_int_equal(kerncat_classify(EVK_KERNEL, "Cijk_Alik_Bljk_BBS_BH_MT32x32"), KERNCAT_GEMM);
    assert_int_equal(kerncat_classify(EVK_KERNEL, "kernel_unified_attention_2d"),
                     KERNCAT_ATTENTION);
    assert_int_equal(kerncat_classify(EVK_KERNEL, "_matmul_ogs_NNT_bf16"), KERNCAT_MOE);
    assert_int_equal(kerncat_classify(EVK_KERNEL, "ck_tile::Rmsnorm2dFwd"), KERNCAT_NORM);
    assert_int_equal(kerncat_classify(EVK_KERNEL, "ncclDevKernel_AllReduce"),
                     KERNCAT_COMMUNICATION);
    assert_int_equal(kerncat_classify(EVK_KERNEL, "triton_poi_fused_add_0"), KERNCAT_ELEMENTWISE);
    assert_int_equal(kerncat_classify(EVK_MEMSET, "Memset"), KERNCAT_MEMSET);
    assert_int_equal(kerncat_classify(EVK_KERNEL, "mystery"), KERNCAT_OTHER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graphs_without_capture), cmocka_unit_test(test_capture_attribution),
        cmocka_unit_test(test_capture_none_matches),   cmocka_unit_test(test_capture_tree_graft),
        cmocka_unit_test(test_kernel_categories),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
