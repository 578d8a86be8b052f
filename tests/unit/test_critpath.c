/* The critical path (core/critpath) on small traces whose paths are worked
 * out by hand in the comments: a CPU-bound loop, a GPU-bound chain and an
 * event sync between two streams. Times are whole µs, so HTA's rounding
 * leaves them as they are. */
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

#include "core/critpath/cp_frame.h"
#include "core/critpath/cp_bounds.h"
#include "core/critpath/cp_whatif.h"
#include "core/critpath/critpath.h"
#include "testutil.h"

#define HOST(name, cat, ts, dur, args)                                                             \
    "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":100,\"tid\":100,\"ts\":" #ts  \
    ",\"dur\":" #dur ",\"args\":{" args "}}"
#define GPU(name, cat, stream, ts, dur, args)                                                      \
    "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #stream           \
    ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"device\":0,\"stream\":" #stream args "}}"

/* The time on the path per bound_by. */
static void shares(const struct cp_graph *g, int64_t by[CPB__COUNT])
{
    memset(by, 0, CPB__COUNT * sizeof(*by));
    for (size_t k = 0; k < g->path.n; k++) {
        const struct cp_edge *e = &g->edges.v[g->path.v[k]];
        by[critpath_bound_by(g, e)] += e->weight;
    }
}

/* The path's length under the what-if rules given (NULL-terminated), each
 * TARGET=FACTOR; the graph must come back as it was. */
static int64_t whatif(struct cp_graph *g, const char *const *specs, size_t *matched)
{
    struct cp_whatif_rule rules[8];
    struct cp_whatif_set set = {rules, 0};
    char err[256];
    for (; specs[set.n]; set.n++)
        assert_true(cp_whatif_parse(specs[set.n], &rules[set.n], err));
    int64_t before = g->length;
    size_t npath = g->path.n;
    int64_t after = critpath_whatif(g, cp_whatif_factor, &set, matched, NULL);
    assert_int_equal(g->length, before);
    assert_int_equal(g->path.n, npath);
    for (size_t k = 0; k < g->edges.n; k++)
        assert_int_equal(g->edges.v[k].weight, g->edges.v[k].span < 0 ? 0 : g->edges.v[k].span);
    for (size_t i = 0; i < set.n; i++)
        cp_whatif_free(&rules[i]);
    return after;
}

/* The trace event of the first frame row named `name`. */
static uint32_t event_named(const struct cp_frame *f, const char *name)
{
    for (size_t i = 0; i < f->rows.n; i++)
        if (!strcmp(trace_str(f->t, f->rows.v[i].name), name))
            return f->rows.v[i].ev;
    fail_msg("no event %s", name);
    return IDX_NONE;
}

static struct cp_graph *build(const struct trace *t, struct cp_frame **f, const char *ann)
{
    char err[256];
    *f = cp_frame_new(t);
    struct cp_graph *g = critpath_build(*f, ann, 0, err);
    assert_non_null(g);
    assert_true(g->ok);
    return g;
}

/* Three top-level ops, 20 + 30 + 20 µs, joined by zero-weight
 * dependencies: the path is A, B, C (5 edges), 70 µs, all CPU. Halving B
 * (a what-if) shortens it to 55 µs. */
static void test_cpu_loop(void **state)
{
    (void)state;
    static const char *const evs[] = {
        HOST("ProfilerStep#1", "user_annotation", 0, 100, ""),
        HOST("A", "cpu_op", 10, 20, ""),
        HOST("B", "cpu_op", 40, 30, ""),
        HOST("C", "cpu_op", 75, 20, ""),
        NULL,
    };
    struct trace *t = load_events(evs);
    struct cp_frame *f;
    struct cp_graph *g = build(t, &f, "ProfilerStep#1");
    assert_int_equal(g->length, 70);
    assert_int_equal(g->path.n, 5);
    int64_t by[CPB__COUNT];
    shares(g, by);
    assert_int_equal(by[CPB_CPU], 70);
    assert_true(g->no_sync);
    for (size_t k = 0; k < g->edges.n; k++)
        if (g->edges.v[k].weight == 30)
            critpath_set_weight(g, (uint32_t)k, 15);
    assert_true(critpath_longest(g));
    assert_int_equal(g->length, 55);
    for (size_t k = 0; k < g->edges.n; k++) /* back as built */
        critpath_set_weight(g, (uint32_t)k, g->edges.v[k].span);
    assert_true(critpath_longest(g));
    assert_int_equal(g->length, 70);
    /* What-if: B at half its time saves 15 µs; every CPU edge at half, 35;
     * a name no event has changes nothing */
    size_t m;
    assert_int_equal(whatif(g, (const char *const[]){"B=0.5", NULL}, &m), 55);
    assert_int_equal(m, 1);
    assert_int_equal(critpath_whatif_event(g, event_named(f, "B"), 0.5, &m), 55);
    assert_int_equal(m, 1);
    assert_int_equal(whatif(g, (const char *const[]){"cpu_bound=0.5", NULL}, &m), 35);
    assert_int_equal(m, 3);
    assert_int_equal(whatif(g, (const char *const[]){"re:^[AC]$=0", NULL}, &m), 30);
    assert_int_equal(whatif(g, (const char *const[]){"D=0", NULL}, &m), 70);
    assert_int_equal(m, 0);
    /* B slower: the path grows by what B grows */
    assert_int_equal(whatif(g, (const char *const[]){"B=3", NULL}, &m), 130);
    /* the first rule that takes an edge gives its factor */
    assert_int_equal(whatif(g, (const char *const[]){"B=0", "cpu_bound=2", NULL}, &m), 80);
    critpath_free(g);
    cp_frame_free(f);
    trace_free(t);
}

/* An op [0,20) launches K1 (call [2,6)) and K2 (call [8,12)) on stream 7;
 * K1 runs [10,110), K2 [115,215). K1's call sees two launches queued, so
 * K1 hangs off its call by a zero-weight launch edge (dist 2); K2 follows
 * K1 (kernel-kernel gap 5). Path: op start -> call (2, CPU), launch (0),
 * K1 (100), gap (5), K2 (100): 207 µs, 200 of it GPU compute. */
static void test_gpu_chain(void **state)
{
    (void)state;
    static const char *const evs[] = {
        HOST("ProfilerStep#1", "user_annotation", 0, 300, ""),
        HOST("aten::mm", "cpu_op", 0, 20, ""),
        HOST("cudaLaunchKernel", "cuda_runtime", 2, 4, "\"correlation\":1"),
        HOST("cudaLaunchKernel", "cuda_runtime", 8, 4, "\"correlation\":2"),
        GPU("K1", "kernel", 7, 10, 100, ",\"correlation\":1"),
        GPU("K2", "kernel", 7, 115, 100, ",\"correlation\":2"),
        NULL,
    };
    struct trace *t = load_events(evs);
    struct cp_frame *f;
    struct cp_graph *g = build(t, &f, "ProfilerStep#1");
    assert_int_equal(g->length, 207);
    int64_t by[CPB__COUNT];
    shares(g, by);
    assert_int_equal(by[CPB_CPU], 2);
    assert_int_equal(by[CPB_GPU_COMPUTE], 200);
    assert_int_equal(by[CPB_KERNEL_KERNEL], 5);
    assert_int_equal(by[CPB_LAUNCH], 0);
    /* What-if, by hand. aten::mm at half: its own time (op start -> call 1
     * start 2 -> 1, call 1 end -> call 2 start 2 -> 1, call 2 end -> op end
     * 8 -> 4) and the kernels it launched (100 -> 50 each); the gap stays:
     * 1 + 0 + 50 + 5 + 50 = 106. K1 alone at half: 2 + 50 + 5 + 100 = 157;
     * both kernels by a regex: 107; no kernel-kernel gaps: 202. */
    size_t m;
    assert_int_equal(whatif(g, (const char *const[]){"aten::mm=0.5", NULL}, &m), 106);
    assert_int_equal(m, 5);
    assert_int_equal(critpath_whatif_event(g, event_named(f, "aten::mm"), 0.5, &m), 106);
    assert_int_equal(whatif(g, (const char *const[]){"K1=0.5", NULL}, &m), 157);
    assert_int_equal(m, 1);
    assert_int_equal(whatif(g, (const char *const[]){"re:^K[0-9]$=0.5", NULL}, &m), 107);
    assert_int_equal(whatif(g, (const char *const[]){"gpu_kernel_kernel_overhead=0", NULL}, &m),
                     202);
    assert_int_equal(whatif(g, (const char *const[]){"gpu_compute_bound=0.5", NULL}, &m), 107);
    /* the launch calls' own spans are not the op's: the GPU still bounds */
    assert_int_equal(whatif(g, (const char *const[]){"cudaLaunchKernel=0", NULL}, &m), 207);
    critpath_free(g);
    cp_frame_free(f);
    trace_free(t);
}

/* K1 on stream 7 [10,60) (call [2,4), nothing queued: launch delay 8);
 * an event recorded after it ([5,6)) is waited for by stream 9 ([7,8),
 * GPU side "Stream Wait Event"), then K2 is launched on stream 9 ([9,11))
 * and runs [60,70). K2 waits for K1's end through the sync edge. Path:
 * launch 8, K1 50, sync 0, K2 10: 68 µs (58 without the sync). */
static void test_event_sync(void **state)
{
    (void)state;
    static const char *const evs[] = {
        HOST("ProfilerStep#1", "user_annotation", 0, 100, ""),
        HOST("cudaLaunchKernel", "cuda_runtime", 2, 2, "\"correlation\":1"),
        HOST("cudaEventRecord", "cuda_runtime", 5, 1, "\"correlation\":2"),
        HOST("cudaStreamWaitEvent", "cuda_runtime", 7, 1, "\"correlation\":3"),
        HOST("cudaLaunchKernel", "cuda_runtime", 9, 2, "\"correlation\":4"),
        GPU("Stream Wait Event", "cuda_sync", 9, 8, 1,
            ",\"correlation\":3,\"wait_on_stream\":7,\"wait_on_cuda_event_record_corr_id\":2"),
        GPU("K1", "kernel", 7, 10, 50, ",\"correlation\":1"),
        GPU("K2", "kernel", 9, 60, 10, ",\"correlation\":4"),
        NULL,
    };
    struct trace *t = load_events(evs);
    struct cp_frame *f;
    struct cp_graph *g = build(t, &f, "ProfilerStep#1");
    assert_false(g->no_sync);
    assert_int_equal(g->length, 68);
    int64_t by[CPB__COUNT];
    shares(g, by);
    assert_int_equal(by[CPB_LAUNCH], 8);
    assert_int_equal(by[CPB_GPU_COMPUTE], 60);
    size_t syncs = 0;
    for (size_t k = 0; k < g->path.n; k++)
        syncs += g->edges.v[g->path.v[k]].type == CPE_SYNC;
    assert_int_equal(syncs, 1);
    /* What-if, by hand: K1 at half, K2 still waits for its end through
     * the sync: launch 8 + K1 25 + sync 0 + K2 10 = 43 (the CPU side
     * reaches K2's call after 4 µs only). K1 gone: 18. */
    size_t m;
    assert_int_equal(whatif(g, (const char *const[]){"K1=0.5", NULL}, &m), 43);
    assert_int_equal(whatif(g, (const char *const[]){"K1=0", NULL}, &m), 18);
    /* the sync edges weigh 0 whatever the factor */
    assert_int_equal(whatif(g, (const char *const[]){"critical_path_sync_dependency=9", NULL}, &m),
                     68);
    assert_true(m >= 1);
    critpath_free(g);
    cp_frame_free(f);
    trace_free(t);
}

/* A missing annotation is an error, not an empty path; "" is the whole
 * trace. */
static void test_missing_region(void **state)
{
    (void)state;
    static const char *const evs[] = {HOST("A", "cpu_op", 0, 5, ""), NULL};
    struct trace *t = load_events(evs);
    struct cp_frame *f = cp_frame_new(t);
    char err[256];
    assert_null(critpath_build(f, "ProfilerStep#9", 0, err));
    assert_non_null(strstr(err, "ProfilerStep#9"));
    struct cp_graph *g = critpath_build(f, "", 0, err);
    assert_non_null(g);
    assert_int_equal(g->length, 5);
    critpath_free(g);
    cp_frame_free(f);
    trace_free(t);
}

/* Steps, each its own region, built from one frame: ProfilerStep#1 holds
 * A (20 µs), ProfilerStep#10 B and C (30 + 10 µs) and launches K (50 µs)
 * after it, on its stream; ProfilerStep#11, the last, is cut (HTA's
 * last-step rule). A region is the first event whose name contains the
 * annotation (HTA's rule: "ProfilerStep#1" is in "ProfilerStep#10" too, so
 * its second instance is step 10). The trace's bound sums both steps. */
static void test_steps(void **state)
{
    (void)state;
    static const char *const evs[] = {
        HOST("ProfilerStep#1", "user_annotation", 0, 50, ""),
        HOST("A", "cpu_op", 10, 20, ""),
        HOST("ProfilerStep#10", "user_annotation", 100, 100, ""),
        HOST("B", "cpu_op", 110, 30, ""),
        HOST("cudaLaunchKernel", "cuda_runtime", 142, 4, "\"correlation\":1"),
        HOST("C", "cpu_op", 150, 10, ""),
        HOST("ProfilerStep#11", "user_annotation", 300, 100, ""),
        HOST("D", "cpu_op", 310, 10, ""),
        GPU("K", "kernel", 7, 150, 50, ",\"correlation\":1"),
        NULL,
    };
    struct trace *t = load_events(evs);
    struct cp_frame *f = cp_frame_new(t);
    assert_true(f->step_filter);
    char err[256];
    struct cp_graph *g = critpath_build(f, "ProfilerStep#1", 0, err);
    assert_non_null(g);
    assert_int_equal(g->length, 20);
    critpath_free(g);
    /* B 30, then from the call's start K's launch delay 8 and its 50 µs
     * (C runs beside it) */
    int64_t by[CPB__COUNT];
    static const char *const step10[] = {"ProfilerStep#10", "ProfilerStep#1", "ProfilerStep"};
    static const unsigned inst[] = {0, 1, 1};
    for (size_t k = 0; k < 3; k++) {
        g = critpath_build(f, step10[k], inst[k], err);
        assert_non_null(g);
        assert_int_equal(g->start_ts, 100);
        assert_int_equal(g->length, 88);
        shares(g, by);
        assert_int_equal(by[CPB_CPU], 30);
        assert_int_equal(by[CPB_LAUNCH], 8);
        assert_int_equal(by[CPB_GPU_COMPUTE], 50);
        /* K at half, by hand: 30 + 8 + 25 = 63 */
        size_t m;
        assert_int_equal(whatif(g, (const char *const[]){"K=0.5", NULL}, &m), 63);
        critpath_free(g);
    }
    assert_null(critpath_build(f, "ProfilerStep#11", 0, err));
    assert_null(critpath_build(f, "ProfilerStep#1", 2, err));
    assert_non_null(strstr(err, "2 instances"));
    cp_frame_free(f);
    struct cp_bounds b;
    assert_true(cp_bounds_of_trace(t, &b, err));
    assert_int_equal(b.regions, 2);
    assert_int_equal(b.length, 108);
    assert_int_equal(b.by[CPB_CPU], 50);
    assert_int_equal(b.by[CPB_GPU_COMPUTE], 50);
    enum cp_bound order[CPB__COUNT];
    assert_int_equal(cp_bounds_order(&b, order), 3);
    assert_int_equal(order[0], CPB_CPU);
    assert_int_equal(order[1], CPB_GPU_COMPUTE);
    assert_int_equal(order[2], CPB_LAUNCH);
    assert_true(fabs(cp_bounds_share(&b, CPB_GPU_COMPUTE) - 100.0 * 50 / 108) < 1e-9);
    trace_free(t);
}

/* Data loading (HTA's data_load_events): a user annotation is no node of
 * the graph until a regular expression names it; then it is one like an
 * op, its own time bound by data_loading: 10 before the copy it wraps,
 * 20 after it, the copy 10 and the op after it 30: 70 µs, against 40
 * (the op, after a dependency from the copy) without it. Halving the data
 * loading, by hand: 5 + 10 + 10 + 30 = 55. */
static void test_data_loading(void **state)
{
    (void)state;
    static const char *const evs[] = {
        HOST("ProfilerStep#1", "user_annotation", 0, 200, ""),
        HOST("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation", 10,
             40, ""),
        HOST("aten::copy_", "cpu_op", 20, 10, ""),
        HOST("aten::mm", "cpu_op", 60, 30, ""),
        NULL,
    };
    struct trace *t = load_events(evs);
    struct cp_frame *f;
    struct cp_graph *g = build(t, &f, "ProfilerStep#1");
    assert_int_equal(g->length, 40);
    int64_t by[CPB__COUNT];
    shares(g, by);
    assert_int_equal(by[CPB_DATA_LOADING], 0);
    critpath_free(g);
    regex_t re[2];
    assert_int_equal(regcomp(&re[0], "^nothing$", REG_EXTENDED | REG_NOSUB), 0);
    assert_int_equal(regcomp(&re[1], "DataLoader", REG_EXTENDED | REG_NOSUB), 0);
    assert_int_equal(cp_frame_mark_data_loading(f, re, 1), 0);
    assert_int_equal(cp_frame_mark_data_loading(f, re, 2), 1);
    regfree(&re[0]);
    regfree(&re[1]);
    char err[256];
    g = critpath_build(f, "ProfilerStep#1", 0, err);
    assert_non_null(g);
    assert_int_equal(g->length, 70);
    shares(g, by);
    assert_int_equal(by[CPB_DATA_LOADING], 30);
    assert_int_equal(by[CPB_CPU], 40);
    assert_string_equal(critpath_bound_name(CPB_DATA_LOADING), "data_loading");
    size_t m;
    assert_int_equal(whatif(g, (const char *const[]){"data_loading=0.5", NULL}, &m), 55);
    assert_int_equal(m, 2);
    critpath_free(g);
    cp_frame_free(f);
    trace_free(t);
}

/* Rules: which kind each target is, and the faults said. */
static void test_whatif_rules(void **state)
{
    (void)state;
    struct cp_whatif_rule r;
    char err[256];
    assert_true(cp_whatif_parse("gpu_kernel_launch_overhead=0", &r, err));
    assert_int_equal(r.kind, CPW_BOUND);
    assert_int_equal(r.cls, CPB_LAUNCH);
    cp_whatif_free(&r);
    assert_true(cp_whatif_parse("critical_path_kernel_kernel_delay=0.25", &r, err));
    assert_int_equal(r.kind, CPW_EDGE_TYPE);
    assert_int_equal(r.cls, CPE_KERNEL_KERNEL);
    assert_true(r.factor == 0.25);
    cp_whatif_free(&r);
    /* metacharacters alone do not make a regex: names are full of them */
    assert_true(cp_whatif_parse("void at::native::f<float>(int)=2", &r, err));
    assert_int_equal(r.kind, CPW_NAME);
    assert_string_equal(r.target, "void at::native::f<float>(int)");
    cp_whatif_free(&r);
    /* the last '=' splits */
    assert_true(cp_whatif_parse("re:a=b=1", &r, err));
    assert_int_equal(r.kind, CPW_REGEX);
    assert_string_equal(r.target, "a=b");
    cp_whatif_free(&r);
    static const char *const bad[] = {"B", "=1", "B=", "B=x", "B=-1", "B=1001", "B=nan", "re:(=1"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        assert_false(cp_whatif_parse(bad[i], &r, err));
        assert_non_null(strstr(err, bad[i]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_loop),     cmocka_unit_test(test_gpu_chain),
        cmocka_unit_test(test_event_sync),   cmocka_unit_test(test_missing_region),
        cmocka_unit_test(test_whatif_rules), cmocka_unit_test(test_steps),
        cmocka_unit_test(test_data_loading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
