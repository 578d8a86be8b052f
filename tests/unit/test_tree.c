/* Unit tests: nesting with overlaps, Python links, GPU links, graph
 * launches, forward/backward pairs, GPU time and the timeline breakdown. */
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
#include "core/analysis/opstats.h"
#include "core/analysis/recompute.h"
#include "core/analysis/timeline.h"
#include "core/base/interval.h"
#include "core/base/strbuf.h"
#include "core/trace/tree.h"
#include "tests/unit/testutil.h"

#define X(cat, name, tid, ts, dur, args)                                                           \
    "{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 1, \"tid\": " #tid     \
    ", \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {" args "}}"
#define K(name, stream, ts, dur, corr)                                                             \
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" name "\", \"pid\": 0, \"tid\": " #stream   \
    ", \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"stream\": " #stream                        \
    ", \"device\": 0, \"correlation\": " #corr "}}"

static void test_nesting_overlaps(void **state)
{
    struct trace *t =
        load_text("{\"traceEvents\": [" X("user_annotation", "step", 1, 0, 100, "") "," X(
            "cpu_op", "child", 1, 10, 20, "") "," X("cpu_op", "overhang", 1, 20, 10.5,
                                                    "") "," /* ends 0.5 us after child */
                  X("cpu_op", "sibling", 1, 25, 20, "") "," /* ends 15 us after child */
                  X("cpu_op", "late", 1, 95, 10, "") ","    /* outlives step by 5 us */
                  X("cpu_op", "same_start_short", 1, 50, 1, "") "," X("cpu_op", "same_start_long",
                                                                      1, 50, 3, "") "]}");
    uint32_t step = find_event(t, "step"), child = find_event(t, "child");
    uint32_t over = find_event(t, "overhang"), sib = find_event(t, "sibling");
    uint32_t late = find_event(t, "late"), ss = find_event(t, "same_start_short");
    uint32_t sl = find_event(t, "same_start_long");
    assert_int_equal(t->ev.v[child].parent, step);
    assert_int_equal(t->ev.v[over].parent, child);
    assert_true(t->ev.v[over].flags & EVF_OVERHANG);
    assert_int_equal(t->ev.v[sib].parent, step);
    assert_true(t->ev.v[sib].flags & EVF_SIBLING);
    assert_int_equal(t->ev.v[late].parent, IDX_NONE);
    assert_true(t->ev.v[late].flags & EVF_SIBLING);
    /* Equal starts: the longer one encloses the shorter. */
    assert_int_equal(t->ev.v[ss].parent, sl);
    /* No event is dropped: every one is a root or has a parent chain. */
    const struct row *r = &t->rows.v[t->ev.v[step].row];
    assert_int_equal(r->first_root, step);
    assert_int_equal(t->ev.v[step].next_sibling, late);
    trace_free(t);
}

static void test_python_links_cross_threads(void **state)
{
    struct trace *t = load_text("{\"traceEvents\": [" X(
        "python_function", "main.py(1): run", 1, 0, 100,
        "\"Python id\": 1, \"Python parent id\": null") "," X("python_function", "hook.py(5): hook",
                                                              2, 10, 5,
                                                              "\"Python id\": 2, \"Python parent "
                                                              "id\": 1") "," X("python_function",
                                                                               "nn.Module: "
                                                                               "Linear_0",
                                                                               1, 20, 10,
                                                                               "\"Python id\": 3, "
                                                                               "\"Python parent "
                                                                               "id\": 1") "]}");
    uint32_t run = find_event(t, "main.py(1): run"), hook = find_event(t, "hook.py(5): hook");
    uint32_t mod = find_event(t, "nn.Module: Linear_0");
    assert_int_equal(ev_py_parent(t, hook), run);
    assert_int_equal(ev_py_parent(t, run), IDX_NONE);
    assert_int_equal(t->ev.v[hook].parent, IDX_NONE); /* the time tree stays per thread */
    assert_true(t->ev.v[mod].flags & EVF_MODULE);
    trace_free(t);
}

/* Python ids past 32 bits (the index's map) and parent ids that do not
 * fit where the link is kept meanwhile (read again from the args), and a
 * frame that names itself as parent (none). */
static void test_python_links_large_ids(void **state)
{
    (void)state;
    struct trace *t = load_text(
        "{\"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, "
        "\"ts\": 0, \"dur\": 100, \"args\": {\"Python id\": 4294967295, \"Python parent id\": "
        "null}},"
        "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, "
        "\"ts\": 1, \"dur\": 90, \"args\": {\"Python id\": 4294967296, \"Python parent id\": "
        "4294967295}},"
        "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, "
        "\"ts\": 2, \"dur\": 80, \"args\": {\"Python id\": 5, \"Python parent id\": 4294967296}},"
        "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"d\", \"pid\": 1, \"tid\": 1, "
        "\"ts\": 3, \"dur\": 70, \"args\": {\"Python id\": 7, \"Python parent id\": 7}},"
        "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"e\", \"pid\": 1, \"tid\": 2, "
        "\"ts\": 4, \"dur\": 60, \"args\": {\"Python id\": 8, \"Python parent id\": 4294967294}},"
        "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"f\", \"pid\": 1, \"tid\": 2, "
        "\"ts\": 0, \"dur\": 99, \"args\": {\"Python id\": 4294967294}}]}");
    uint32_t a = find_event(t, "a"), b = find_event(t, "b"), c = find_event(t, "c");
    uint32_t d = find_event(t, "d"), e = find_event(t, "e"), f = find_event(t, "f");
    assert_int_equal(ev_py_parent(t, a), IDX_NONE);
    assert_int_equal(ev_py_parent(t, b), a);
    assert_int_equal(ev_py_parent(t, c), b);
    assert_int_equal(ev_py_parent(t, d), IDX_NONE);
    assert_int_equal(ev_py_parent(t, e), f);
    assert_int_equal(ev_py_parent(t, f), IDX_NONE);
    trace_free(t);
}

static const char *gpu_trace =
    "{\"traceEvents\": [" X("python_function", "model.py(3): forward",
                            1, 0, 200, "\"Python id\": 1") "," X("cpu_op", "aten::linear",
                                                                 1, 1, 100, "\"Sequence number\": 5") "," X("cpu_op", "aten::addmm", 1, 2, 50, "\"Sequence number\": 6, \"Input Dims\": [[4],[2,3],[3,4]]") "," X("python_function", "helper.py(9): f", 1, 3, 10, "\"Python id\": 2, \"Python parent id\": 1") "," X("cuda_runtime", "cudaLaunchKernel", 1,
                                                                                                                                                                                                                                                                                                                     4,
                                                                                                                                                                                                                                                                                                                     2, "\"correlation\": 100") "," X("cuda_runtime",
                                                                                                                                                                                                                                                                                                                                                      "cudaLaunchKernel",
                                                                                                                                                                                                                                                                                                                                                      1,
                                                                                                                                                                                                                                                                                                                                                      20,
                                                                                                                                                                                                                                                                                                                                                      2,
                                                                                                                                                                                                                                                                                                                                                      "\"correlation\": 101") "," X("cpu_op",
                                                                                                                                                                                                                                                                                                                                                                                    "execute",
                                                                                                                                                                                                                                                                                                                                                                                    1,
                                                                                                                                                                                                                                                                                                                                                                                    120,
                                                                                                                                                                                                                                                                                                                                                                                    30, "") "," X("cuda_runtime",
                                                                                                                                                                                                                                                                                                                                                                                                  "cudaGraphLaunch",
                                                                                                                                                                                                                                                                                                                                                                                                  1,
                                                                                                                                                                                                                                                                                                                                                                                                  121, 5, "\"correlation\": 200") "," X("cpu_op", "record_param_comms", 1,
                                                                                                                                                                                                                                                                                                                                                                                                                                        160,
                                                                                                                                                                                                                                                                                                                                                                                                                                        10,
                                                                                                                                                                                                                                                                                                                                                                                                                                        "") "," X("cuda_runtime",
                                                                                                                                                                                                                                                                                                                                                                                                                                                  "cudaLaunchKernel",
                                                                                                                                                                                                                                                                                                                                                                                                                                                  1,
                                                                                                                                                                                                                                                                                                                                                                                                                                                  161, 2, "\"correlation\": 300") "," X("cpu_op",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                        "autograd::engine::evaluate_function: AddmmBackward0", 2, 300, 20, "\"Sequence number\": 6") "," K("gemm_a", 7,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                           10,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                           10,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                           100) "," K("gemm_b",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                      8,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                      15,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                      10,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                      101) "," /* overlaps gemm_a on another stream */
    K("graph_k1", 7, 130, 5, 200) "," K("graph_k2", 7, 136, 5, 200) "," K(
        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 8, 170, 50,
        300) "," K("orphan", 7, 400, 4, 999) ","
                                             "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": "
                                             "\"Memcpy HtoD\", \"pid\": 0, \"tid\": 7,"
                                             " \"ts\": 180, \"dur\": 60, \"args\": {\"stream\": 7, "
                                             "\"correlation\": 998}}"
                                             "]}";

static void test_gpu_links(void **state)
{
    struct trace *t = load_text(gpu_trace);
    uint32_t addmm = find_event(t, "aten::addmm"), a = find_event(t, "gemm_a");
    uint32_t b = find_event(t, "gemm_b"), k1 = find_event(t, "graph_k1");
    uint32_t k2 = find_event(t, "graph_k2"), graph = find_event(t, "cudaGraphLaunch");
    uint32_t nccl = find_event(t, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    uint32_t orphan = find_event(t, "orphan"), comms = find_event(t, "record_param_comms");
    /* Launcher: the first cpu_op above the launch, Python frames passed over. */
    assert_int_equal(ev_gpu(t, a)->launcher, addmm);
    assert_int_equal(ev_gpu(t, b)->launcher, addmm);
    /* A graph launch owns every kernel with its correlation; "execute" is
     * not a launcher, so the launch itself is. */
    assert_int_equal(ev_gpu(t, k1)->launch, graph);
    assert_int_equal(ev_gpu(t, k2)->launch, graph);
    assert_true(t->ev.v[k2].flags & EVF_GRAPH);
    assert_int_equal(ev_gpu(t, k1)->launcher, graph);
    assert_int_equal(ev_launch(t, graph)->gpu_count, 2);
    assert_true(t->ev.v[nccl].flags & EVF_COMM);
    assert_int_equal(ev_gpu(t, nccl)->launcher, comms);
    assert_int_equal(ev_gpu(t, orphan)->launch, IDX_NONE);
    assert_int_equal(t->n_gpu, 7);
    assert_int_equal(t->n_unlinked, 2);
    trace_free(t);
}

static void test_fwd_bwd(void **state)
{
    struct trace *t = load_text(gpu_trace);
    uint32_t addmm = find_event(t, "aten::addmm");
    uint32_t bwd = find_event(t, "autograd::engine::evaluate_function: AddmmBackward0");
    assert_true(t->ev.v[bwd].flags & EVF_BACKWARD);
    assert_int_equal(ev_op(t, bwd)->partner, addmm);
    assert_int_equal(ev_op(t, addmm)->partner, bwd);
    trace_free(t);
}

/* PyTorch 1.9 traces: the autograd node itself, without the
 * evaluate_function wrapper, carries the Sequence number. */
static void test_fwd_bwd_bare_nodes(void **state)
{
    struct trace *t = load_text(
        "{\"traceEvents\": [" X("cpu_op", "aten::cudnn_convolution", 1, 0, 50, "\"Sequence number\": 890") "," X(
            "cpu_op", "aten::relu_", 1, 60, 10,
            "\"Sequence number\": 892") "," X("cpu_op", "ReluBackward1", 2, 300, 5,
                                              "\"Sequence number\": 892") "," X("cpu_op",
                                                                                "CudnnConvolutionBa"
                                                                                "ckwa"
                                                                                "rd",
                                                                                2, 310, 20,
                                                                                "\"Sequence "
                                                                                "number\": "
                                                                                "890") "," X("cpu_"
                                                                                             "op",
                                                                                             "Backw"
                                                                                             "ard",
                                                                                             2, 340,
                                                                                             1,
                                                                                             "\"Seq"
                                                                                             "uenc"
                                                                                             "e "
                                                                                             "numbe"
                                                                                             "r\":"
                                                                                             " 1") "]"
                                                                                                   "}");
    uint32_t conv = find_event(t, "aten::cudnn_convolution"), relu = find_event(t, "aten::relu_");
    uint32_t convb = find_event(t, "CudnnConvolutionBackward"),
             relub = find_event(t, "ReluBackward1");
    assert_true(t->ev.v[convb].flags & EVF_BACKWARD);
    assert_int_equal(ev_op(t, convb)->partner, conv);
    assert_int_equal(ev_op(t, conv)->partner, convb);
    assert_int_equal(ev_op(t, relu)->partner, relub);
    assert_false(t->ev.v[find_event(t, "Backward")].flags & EVF_BACKWARD);
    trace_free(t);
}

/* link_fwd_bwd's rule, looked up the slow way: each backward op in file
 * order takes the forward op with its Sequence number on another thread
 * that started last by its start (ties: file order), else the last of
 * them; a forward op claimed twice keeps the later claim. */
static void fwd_bwd_reference(const struct trace *t, uint32_t *partner)
{
    for (uint32_t i = 0; i < t->ev.n; i++)
        partner[i] = IDX_NONE;
    for (uint32_t b = 0; b < t->ev.n; b++) {
        const struct event *eb = &t->ev.v[b];
        if (!(eb->flags & EVF_BACKWARD) || eb->aux == IDX_NONE || ev_op(t, b)->seq < 0)
            continue;
        const struct row *rb = &t->rows.v[eb->row];
        uint32_t best = IDX_NONE, latest = IDX_NONE;
        for (uint32_t f = 0; f < t->ev.n; f++) {
            const struct event *ef = &t->ev.v[f];
            const struct row *rf = &t->rows.v[ef->row];
            if (ef->kind != EVK_CPU_OP || ef->aux == IDX_NONE || (ef->flags & EVF_BACKWARD) ||
                ev_op(t, f)->seq != ev_op(t, b)->seq ||
                (rf->pid_str == rb->pid_str && rf->tid_str == rb->tid_str))
                continue;
            /* f comes after the candidates before it in (start, index) order */
            if (latest == IDX_NONE || ef->ts >= t->ev.v[latest].ts)
                latest = f;
            if (ef->ts <= eb->ts && (best == IDX_NONE || ef->ts >= t->ev.v[best].ts))
                best = f;
        }
        if (best == IDX_NONE)
            best = latest;
        if (best == IDX_NONE)
            continue;
        partner[b] = best;
        partner[best] = b;
    }
}

/* Random traces, small and large, with repeated Sequence numbers, equal
 * starts, ops on the backward op's own thread (skipped) and the same tid
 * in two processes: the pairs are the reference's. */
static void test_fwd_bwd_pairs_reference(void **state)
{
    unsigned seed = 99;
#define RND(n) ((seed = seed * 1103515245u + 12345u), (seed >> 16) % (n))
    for (int trial = 0; trial < 300; trial++) {
        int n = trial < 299 ? 2 + trial % 60 : 4000;
        unsigned nseq = trial < 299 ? 4 : 2;
        struct strbuf sb = STRBUF_INIT;
        sb_puts(&sb, "{\"traceEvents\": [");
        for (int i = 0; i < n; i++) {
            bool bwd = RND(10) < 4;
            /* Large trial: most forward ops share the backward ops' thread. */
            unsigned tid = trial < 299 ? 1 + RND(3) : (RND(10) < 8 ? 2 : 1);
            unsigned pid = RND(8) == 0 ? 2 : 1;
            int seq = RND(12) == 0 ? -1 : (int)RND(nseq);
            sb_printf(&sb,
                      "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": %u,"
                      " \"tid\": %u, \"ts\": %u, \"dur\": 1, \"args\": {\"Sequence number\": %d}}",
                      i ? ", " : "",
                      bwd ? "autograd::engine::evaluate_function: MmBackward0" : "aten::mm", pid,
                      tid, RND(trial < 299 ? 40 : 400), seq);
        }
        sb_puts(&sb, "]}");
        struct trace *t = load_text(sb_str(&sb));
        uint32_t *want = malloc(t->ev.n * sizeof(*want));
        fwd_bwd_reference(t, want);
        for (uint32_t i = 0; i < t->ev.n; i++)
            if (t->ev.v[i].aux != IDX_NONE && ev_op(t, i)->partner != want[i])
                fail_msg("trial %d, event %u: partner %u, want %u", trial, i, ev_op(t, i)->partner,
                         want[i]);
        free(want);
        trace_free(t);
        sb_free(&sb);
    }
#undef RND
}

static void test_gpu_time(void **state)
{
    struct trace *t = load_text(gpu_trace);
    struct analysis *an = analysis_new(t);
    uint32_t addmm = find_event(t, "aten::addmm"), linear = find_event(t, "aten::linear");
    uint32_t comms = find_event(t, "record_param_comms");
    /* gemm_a [10,20) and gemm_b [15,25) overlap: the union is 15 us. */
    assert_int_equal(gputime_direct(an->gt, addmm, false), 15000);
    assert_int_equal(gputime_subtree(an->gt, linear, false), 15000);
    assert_int_equal(gputime_direct(an->gt, linear, false), 0);
    assert_int_equal(gputime_subtree(an->gt, comms, true), 50000);
    assert_int_equal(gputime_subtree(an->gt, comms, false), 0);
    /* The communication-only launcher is not a row of the launcher tables. */
    assert_null(opstats_find(an->ops, comms));
    assert_non_null(opstats_find(an->ops, addmm));
    assert_int_equal(an->ops->n, 2);
    analysis_free(an);
    trace_free(t);
}

/* A chain of 3,000 nested ops with a launch and a kernel at each level
 * (kernels overlapping in pairs): asking for every subtree one at a time
 * passes the work bound, so most values come from the one-pass table;
 * each equals the union of its subtree's kernels taken directly. */
static void test_gpu_time_deep_chain(void **state)
{
    (void)state;
    enum { N = 3000 };
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "{\"traceEvents\": [");
    for (int k = 0; k < N; k++)
        sb_printf(&sb,
                  "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"l%d\", \"pid\": 1, "
                  "\"tid\": 1, \"ts\": %d, \"dur\": %d},"
                  "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
                  "\"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 1, \"args\": {\"correlation\": "
                  "%d}},"
                  "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
                  "\"ts\": %d, \"dur\": %d, \"args\": {\"stream\": 7, \"device\": 0, "
                  "\"correlation\": %d}}",
                  k ? "," : "", k, 4 * k, 16 * N - 8 * k, 4 * k + 1, k + 1, 20 * N + 3 * k,
                  k % 2 ? 2 : 5, k + 1);
    sb_puts(&sb, "]}");
    struct trace *t = load_text(sb_str(&sb));
    sb_free(&sb);
    struct gputime *g = gputime_new(t);
    ivals_t iv = {0};
    size_t checked = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        if (t->ev.v[i].kind != EVK_CPU_OP)
            continue;
        uint32_t n;
        const uint32_t *evs = gputime_subtree_events(g, i, &n);
        iv.n = 0;
        for (uint32_t k = 0; k < n; k++)
            *VEC_ADD(&iv) = (struct ival){t->ev.v[evs[k]].ts, ev_end(&t->ev.v[evs[k]])};
        int64_t want = ival_union_length(iv.v, iv.n);
        assert_int_equal(gputime_subtree_once(g, i, false), want);
        assert_int_equal(gputime_subtree(g, i, true), want);
        checked++;
    }
    assert_int_equal(checked, N);
    VEC_FREE(&iv);
    gputime_free(g);
    trace_free(t);
}

static void test_breakdown(void **state)
{
    struct trace *t = load_text(gpu_trace);
    struct timeline_breakdown b;
    timeline_breakdown(t, false, -1, &b);
    /* COMP: [10,25) [130,135) [136,141) [400,404) = 15+5+5+4 = 29
     * COMM: [170,220) = 50; MEMCPY [180,240): exposed = [220,240) = 20
     * span [10,404) = 394; busy = 29 + 50 + 20 = 99 */
    assert_int_equal(b.computation, 29000);
    assert_int_equal(b.total_comm, 50000);
    assert_int_equal(b.exposed_comm, 50000);
    assert_int_equal(b.total_memcpy, 60000);
    assert_int_equal(b.exposed_memcpy, 20000);
    assert_int_equal(b.total, 394000);
    assert_int_equal(b.busy, 99000);
    assert_int_equal(b.idle, 295000);
    assert_int_equal(b.computation + b.exposed_comm + b.exposed_memcpy + b.idle, b.total);
    timeline_breakdown(t, true, -1, &b);
    assert_int_equal(b.n_events, 5);
    trace_free(t);
}

static void test_name_rules(void **state)
{
    assert_true(gpuclass_name_is_comm("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)"));
    assert_true(gpuclass_name_is_comm("RCCL_generic"));
    assert_true(gpuclass_name_is_comm("void vllm::cross_device_reduce_1stage<float>"));
    assert_false(gpuclass_name_is_comm("ampere_sgemm_128x64_tn"));
    assert_true(gpuclass_name_is_memcpy("__amd_rocclr_copyBuffer.kd"));
    assert_true(gpuclass_name_is_memcpy("MEMORY_COPY_DEVICE_TO_HOST"));
    assert_false(gpuclass_name_is_memcpy("Memcpy DtoH (Device -> Pinned)"));
}

/* Activation checkpointing: ops under torch.utils.checkpoint's
 * recompute_fn frame are marked, the first forward's are not, and with
 * marking on the ops table splits one name into both rows. */
static void test_recompute(void **state)
{
    (void)state;
#define RT(name, ts, dur, corr)                                                                    \
    X("cpu_op", name, 1, ts, dur, "")                                                              \
    "," X("cuda_runtime", "cudaLaunchKernel", 1, ts, 1,                                            \
          "\"correlation\": " #corr) "," K("k", 7, ts, 2, corr)
    struct trace *t = load_text("{\"traceEvents\": [" RT("aten::relu", 10, 5, 1) "," X(
        "python_function", "torch/utils/checkpoint.py(1500): recompute_fn", 1, 100, 50,
        "\"Python id\": 9") "," RT("aten::relu", 110, 5, 2) "]}");
#undef RT
    uint32_t n;
    uint8_t *m = recompute_marks(t, &n);
    assert_non_null(m);
    assert_int_equal(n, 1);
    uint32_t first = IDX_NONE, again = IDX_NONE;
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (strcmp(ev_name(t, i), "aten::relu") == 0)
            *(first == IDX_NONE ? &first : &again) = i;
    assert_false(m[first]);
    assert_true(m[again]);
    free(m);
    struct analysis *a = analysis_new(t);
    struct table *tab = opstats_ops_table(a->ops);
    assert_int_equal(tab->nrows, 1);
    assert_int_equal(table_col_index(tab, "is_recompute"), -1);
    table_free(tab);
    analysis_mark_recompute(a);
    tab = opstats_ops_table(a->ops);
    assert_int_equal(tab->nrows, 2);
    int rc = table_col_index(tab, "is_recompute");
    assert_true(rc >= 0);
    assert_string_not_equal(table_cell(tab, 0, (size_t)rc).s, table_cell(tab, 1, (size_t)rc).s);
    table_free(tab);
    tab = opstats_unique_args_table(a->ops);
    assert_int_equal(tab->nrows, 2);
    table_free(tab);
    analysis_free(a);
    /* No recompute frame: no marks. */
    trace_free(t);
    t = load_text("{\"traceEvents\": [" X("cpu_op", "aten::relu", 1, 0, 5, "") "]}");
    assert_null(recompute_marks(t, &n));
    assert_int_equal(n, 0);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nesting_overlaps),
        cmocka_unit_test(test_python_links_cross_threads),
        cmocka_unit_test(test_python_links_large_ids),
        cmocka_unit_test(test_gpu_links),
        cmocka_unit_test(test_fwd_bwd),
        cmocka_unit_test(test_fwd_bwd_bare_nodes),
        cmocka_unit_test(test_fwd_bwd_pairs_reference),
        cmocka_unit_test(test_gpu_time),
        cmocka_unit_test(test_gpu_time_deep_chain),
        cmocka_unit_test(test_breakdown),
        cmocka_unit_test(test_name_rules),
        cmocka_unit_test(test_recompute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
