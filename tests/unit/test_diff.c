/* Unit tests: trace diffs (core/diff/): HTA's short names, iterations as
 * HTA assigns them, the per-name diff, and the merged call tree. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diff/difftree.h"
#include "core/diff/iters.h"
#include "core/diff/shortname.h"
#include "core/diff/tracediff.h"
#include "core/job/jobpar.h"
#include "core/trace/tree.h"
#include "tests/unit/testutil.h"

static void expect_short(const char *in, const char *want)
{
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "kept:");
    shortname_hta(&sb, in, strlen(in));
    assert_string_equal(sb_str(&sb) + 5, want);
    assert_memory_equal(sb_str(&sb), "kept:", 5);
    sb_free(&sb);
}

static void test_short_names(void **state)
{
    (void)state;
    /* HTA's own cases (tests/test_utils.py test_shorten_name). */
    expect_short("a", "a");
    expect_short("aten::empty", "aten::empty");
    expect_short("a(1)", "a");
    expect_short("a<int>(b)", "a");
    expect_short("void at::native::vectorized_elementwise_kernel<4, "
                 "at::native::CUDAFunctor_add<int>, at::detail::Array<char*, 3> >(int, "
                 "at::native::CUDAFunctor_add<int>, at::detail::Array<char*, 3>)",
                 "at::native::vectorized_elementwise_kernel");
    expect_short("Memcpy DtoD (Device -> Device)", "Memcpy DtoD (Device -> Device)");
    /* Names with neither '<' nor '(' stay whole, spaces and all. */
    expect_short("x) y>z", "x) y>z");
    expect_short("## all2all ##", "## all2all ##");
    expect_short("autograd::engine::evaluate_function: AddBackward0",
                 "autograd::engine::evaluate_function: AddBackward0");
    /* Unmatched closers drop everything before them; "->" goes first. */
    expect_short("x) y(z)", "y");
    expect_short("f->g(h)", "fg");
    expect_short("", "");
    expect_short("caf\xc3\xa9<T>(x)", "caf\xc3\xa9");
}

/* Two steps; ops, a runtime call and the kernel it launched in each; a GPU
 * annotation (no stream: CPU side, by its start); events outside. */
static const char *TWO_STEPS =
    "{\"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#7\",\"pid\":1,\"tid\":1,"
    "\"ts\":100,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#8\",\"pid\":1,\"tid\":1,"
    "\"ts\":200,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":"
    "20},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":115,\"dur\":5,\"args\":{\"correlation\":5}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":205,\"dur\":50,"
    "\"args\":{\"stream\":7,\"correlation\":5,\"device\":0}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":210,\"dur\":"
    "30},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":215,\"dur\":5,\"args\":{\"correlation\":6}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":320,\"dur\":70,"
    "\"args\":{\"stream\":7,\"correlation\":6,\"device\":0}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"orphan\",\"pid\":0,\"tid\":7,\"ts\":400,\"dur\":1,"
    "\"args\":{\"stream\":7,\"correlation\":99,\"device\":0}},"
    "{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"ProfilerStep#8\",\"pid\":0,\"tid\":7,"
    "\"ts\":250,\"dur\":10},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":400,"
    "\"dur\":3},"
    "{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler\",\"pid\":\"Spans\",\"tid\":1,"
    "\"ts\":0,\"dur\":999},"
    "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"name\":\"mark\",\"pid\":1,\"tid\":1,\"ts\":120,"
    "\"s\":\"t\"}"
    "]}";

static void test_iterations(void **state)
{
    (void)state;
    struct trace *t = load_text(TWO_STEPS);
    struct iters it;
    iters_assign(t, &it);
    assert_int_equal(it.n, 2);
    assert_int_equal(it.nums[0], 7);
    assert_int_equal(it.nums[1], 8);
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const char *n = ev_name(t, i);
        const struct event *e = trace_ev(t, i);
        if (strcmp(n, "PyTorch Profiler") == 0 || strcmp(n, "mark") == 0) {
            assert_int_equal(it.side[i], ITERS_NONE);
        } else if (strcmp(n, "gemm") == 0) {
            assert_int_equal(it.side[i], ITERS_GPU);
            /* The launch's step, not the kernel's own start. */
            assert_int_equal(it.of_ev[i], e->ts < 300000 ? 0 : 1);
        } else if (strcmp(n, "orphan") == 0) {
            assert_int_equal(it.of_ev[i], -1);
        } else if (strcmp(n, "aten::add") == 0) {
            assert_int_equal(it.of_ev[i], -1);
        } else if (e->kind == EVK_GPU_ANNOTATION) {
            assert_int_equal(it.side[i], ITERS_CPU); /* no stream arg */
            assert_int_equal(it.of_ev[i], 1);
        } else if (strcmp(n, "aten::mm") == 0) {
            assert_int_equal(it.of_ev[i], e->ts < 200000 ? 0 : 1);
        }
    }
    assert_int_equal(iters_find(&it, 8), 1);
    assert_int_equal(iters_find(&it, 9), -1);
    iters_free(&it);
    trace_free(t);
}

static int64_t cell_i(const struct table *t, size_t r, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    return table_cell(t, r, (size_t)c).i;
}

static double cell_f(const struct table *t, size_t r, const char *col)
{
    int c = table_col_index(t, col);
    assert_true(c >= 0);
    return table_cell(t, r, (size_t)c).f;
}

static size_t row_named(const struct table *t, const char *name)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (strcmp(table_cell(t, r, 0).s, name) == 0)
            return r;
    fail_msg("no row %s", name);
    return 0;
}

static void test_diff_steps(void **state)
{
    (void)state;
    struct trace *t = load_text(TWO_STEPS);
    char err[256];
    /* Step 7 against step 8 of the same trace. */
    struct tracediff_opts o = {.step = {7, 8}, .label = {"a", "b"}};
    struct tracediff *td = tracediff_new(t, t, &o, err, sizeof(err));
    assert_non_null(td);
    struct table *tab = tracediff_table(td);
    assert_int_equal(table_col_index(tab, "a_counts"), 1);
    assert_int_equal(table_col_index(tab, "b_total_duration"), 4);
    size_t r = row_named(tab, "gemm");
    assert_int_equal(cell_i(tab, r, "a_counts"), 1);
    assert_int_equal(cell_i(tab, r, "b_counts"), 1);
    assert_true(cell_f(tab, r, "diff_duration") == 20.0);
    r = row_named(tab, "ProfilerStep#8");
    assert_int_equal(cell_i(tab, r, "a_counts"), 0);
    assert_int_equal(cell_i(tab, r, "b_counts"), 2); /* CPU step and GPU annotation */
    assert_string_equal(table_cell(tab, r, 7).s, "+");
    table_free(tab);
    tracediff_free(td);
    /* All steps, per step, GPU side only. */
    struct tracediff_opts all = {.device = TRACEDIFF_GPU,
                                 .per_step = true,
                                 .step = {TRACEDIFF_STEP_ALL, TRACEDIFF_STEP_FIRST}};
    td = tracediff_new(t, t, &all, err, sizeof(err));
    assert_non_null(td);
    tab = tracediff_table(td);
    assert_int_equal(tab->nrows, 1); /* gemm; the orphan has no step */
    assert_true(cell_f(tab, 0, "control_counts") == 1.0);
    assert_true(cell_f(tab, 0, "control_total_duration") == 60.0);
    assert_true(cell_f(tab, 0, "test_total_duration") == 50.0);
    table_free(tab);
    tracediff_free(td);
    /* A step the trace lacks; the same label twice. */
    struct tracediff_opts bad = {.step = {TRACEDIFF_STEP_FIRST, 9}};
    assert_null(tracediff_new(t, t, &bad, err, sizeof(err)));
    assert_non_null(strstr(err, "ProfilerStep#9"));
    assert_non_null(strstr(err, "7, 8"));
    struct tracediff_opts same = {.step = {TRACEDIFF_STEP_FIRST, TRACEDIFF_STEP_FIRST},
                                  .label = {"x", "x"}};
    assert_null(tracediff_new(t, t, &same, err, sizeof(err)));
    trace_free(t);
}

#define OP(name, ts, dur)                                                                          \
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":1,\"ts\":" #ts       \
    ",\"dur\":" #dur "}"

static void test_merged_tree(void **state)
{
    (void)state;
    struct trace *a = load_text("{\"traceEvents\": [" OP("A", 0, 100) "," OP("B", 1, 10) "," OP(
        "C", 20, 10) "," OP("D", 40, 10) "," OP("E", 200, 5) "]}");
    struct trace *b = load_text("{\"traceEvents\": [" OP("A", 0, 90) "," OP("B", 1, 10) "," OP(
        "X", 20, 10) "," OP("D", 40, 20) "," OP("E", 200, 5) "]}");
    trace_index(a);
    trace_index(b);
    for (int swap = 0; swap < 2; swap++) {
        struct difftree *dt = difftree_new(swap ? b : a, swap ? a : b, NULL);
        /* A(B, C|X, D), E: C and X on one side each. */
        assert_int_equal(dt->nodes.n, 6);
        size_t both = 0, one = 0;
        for (uint32_t i = 0; i < dt->nodes.n; i++) {
            const struct difftree_node *n = &dt->nodes.v[i];
            if (n->ev[0] != IDX_NONE && n->ev[1] != IDX_NONE) {
                both++;
                assert_string_equal(ev_name(dt->t[0], n->ev[0]), ev_name(dt->t[1], n->ev[1]));
            } else {
                one++;
                assert_int_equal(n->depth, 1);
            }
        }
        assert_int_equal(both, 4);
        assert_int_equal(one, 2);
        struct table *tab = difftree_table(dt);
        size_t r = row_named(tab, "A");
        assert_true(cell_f(tab, r, "diff_cpu_time") == (swap ? 10.0 : -10.0));
        r = row_named(tab, "C");
        assert_string_equal(table_cell(tab, r, 1).s, swap ? "test" : "control");
        /* Only the top rows built: the same rows, cell for cell, and the
         * rest counted as left out. */
        for (size_t top = 1; top <= 7; top++) {
            struct table *cut = difftree_table_top(dt, top);
            size_t rows = top < tab->nrows ? top : tab->nrows;
            assert_int_equal(cut->nrows, rows);
            assert_int_equal(cut->rows_left_out, tab->nrows - rows);
            for (size_t x = 0; x < rows; x++) {
                assert_int_equal(cut->refs[x], tab->refs[x]);
                for (size_t c = 0; c < tab->ncols; c++) {
                    union cell u = table_cell(tab, x, c), v = table_cell(cut, x, c);
                    if (tab->cols[c].kind == COL_TEXT)
                        assert_string_equal(u.s ? u.s : "", v.s ? v.s : "");
                    else
                        assert_memory_equal(&u, &v, sizeof(u));
                }
            }
            table_free(cut);
        }
        table_free(tab);
        difftree_free(dt);
    }
    trace_free(a);
    trace_free(b);
}

/* The parser threads of the two sides: --threads shared out, rounded up;
 * else the cores shared out, 1 to 4 a side; one side at a time keeps the
 * loader's own default. */
static void test_parse_threads(void **state)
{
    (void)state;
    assert_int_equal(jobpar_parse_threads(1, 0), 0);
    assert_int_equal(jobpar_parse_threads(1, 3), 3);
    assert_int_equal(jobpar_parse_threads(2, 3), 2);
    assert_int_equal(jobpar_parse_threads(2, 1), 1);
    assert_int_equal(jobpar_parse_threads(2, 8), 4);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned each = jobpar_parse_threads(2, 0);
    assert_true(each >= 1 && each <= 4);
    if (cores >= 2 && cores <= 8)
        assert_int_equal(each, cores / 2);
}

#define LAUNCH(ts, corr, kernel, kts)                                                              \
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"    \
    "\"ts\":" #ts ",\"dur\":1,\"args\":{\"correlation\":" #corr "}},"                              \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" kernel "\",\"pid\":0,\"tid\":7,\"ts\":" #kts    \
    ",\"dur\":5,\"args\":{\"stream\":7,\"correlation\":" #corr ",\"device\":0}}"

/* A repeated name pairs with the instance whose kernels are the same. */
static void test_rematch_by_gpu_work(void **state)
{
    (void)state;
    struct trace *a =
        load_text("{\"traceEvents\": [" OP("A", 0, 100) "," OP("mm", 10, 10) "," LAUNCH(
            12, 1, "k1", 200) "," OP("mm", 30, 10) "," LAUNCH(32, 2, "k2", 210) "]}");
    struct trace *b = load_text("{\"traceEvents\": [" OP("A", 0, 100) "," OP(
        "mm", 10, 10) "," LAUNCH(12, 1, "k2", 200) "]}");
    trace_index(a);
    trace_index(b);
    for (int swap = 0; swap < 2; swap++) {
        struct difftree *dt = difftree_new(swap ? b : a, swap ? a : b, NULL);
        int ca = swap ? 1 : 0; /* the side of trace a */
        bool paired = false;
        for (uint32_t i = 0; i < dt->nodes.n; i++) {
            const struct difftree_node *n = &dt->nodes.v[i];
            if (n->ev[0] == IDX_NONE || n->ev[1] == IDX_NONE ||
                strcmp(ev_name(dt->t[0], n->ev[0]), "mm") != 0)
                continue;
            /* a's second mm (ts 30 us), which launched k2 as b's did. */
            assert_int_equal(trace_ev(dt->t[ca], n->ev[ca])->ts, 30000);
            paired = true;
        }
        assert_true(paired);
        difftree_free(dt);
    }
    trace_free(a);
    trace_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_names),         cmocka_unit_test(test_iterations),
        cmocka_unit_test(test_diff_steps),          cmocka_unit_test(test_merged_tree),
        cmocka_unit_test(test_rematch_by_gpu_work), cmocka_unit_test(test_parse_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
