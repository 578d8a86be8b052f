/* Unit tests: the scope model (core/trace/scope.h): option parsing, the
 * description, the events a combined scope keeps, and the scoped trace
 * loaded back in place of the whole. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "core/trace/scope.h"
#include "core/trace/steps.h"
#include "core/trace/tree.h"
#include "tests/unit/testutil.h"

/* Steps 1 (0-100 µs), 2 (100-200) and 3 (200-300) on one thread, each
 * with an op launching a kernel; step 2's op is aten::mm, the others
 * aten::add; step 3's kernel runs late, past its step. */
static const char TRACE[] =
    "{\"traceEvents\": [\n"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
    "\"ts\":0,\"dur\":100},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":10,"
    "\"dur\":20},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":12,\"dur\":5,\"args\":{\"correlation\":1}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k_add\",\"pid\":0,\"tid\":7,\"ts\":40,\"dur\":10,"
    "\"args\":{\"correlation\":1,\"device\":0,\"stream\":7}},\n"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,"
    "\"ts\":100,\"dur\":100},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":110,"
    "\"dur\":20},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":112,\"dur\":5,\"args\":{\"correlation\":2}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k_mm\",\"pid\":0,\"tid\":7,\"ts\":140,\"dur\":30,"
    "\"args\":{\"correlation\":2,\"device\":0,\"stream\":7}},\n"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#3\",\"pid\":1,\"tid\":1,"
    "\"ts\":200,\"dur\":100},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":210,"
    "\"dur\":20},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":212,\"dur\":5,\"args\":{\"correlation\":3}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k_add\",\"pid\":0,\"tid\":7,\"ts\":290,\"dur\":60,"
    "\"args\":{\"correlation\":3,\"device\":0,\"stream\":7}}\n"
    "]}\n";

static struct trace *load(void)
{
    struct trace *t = load_text(TRACE);
    if (!t->indexed)
        trace_index(t);
    return t;
}

/* The names of the kept non-metadata events, in order, joined by ','. */
static void kept_names(const struct trace *t, const uint8_t *keep, char *out, size_t n)
{
    out[0] = '\0';
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (keep[i] && t->ev.v[i].kind != EVK_META) {
            if (out[0])
                strncat(out, ",", n - strlen(out) - 1);
            strncat(out, ev_name(t, i), n - strlen(out) - 1);
        }
}

static void test_parse(void **state)
{
    (void)state;
    struct scope s;
    char err[256];
    scope_init(&s);
    assert_false(scope_any(&s));
    assert_true(scope_parse_steps(&s, "1,4-6,9", err));
    assert_int_equal(s.nsteps, 3);
    assert_int_equal(s.steps[1].lo, 4);
    assert_int_equal(s.steps[1].hi, 6);
    assert_true(scope_any(&s));
    scope_init(&s);
    assert_false(scope_parse_steps(&s, "", err));
    assert_false(scope_parse_steps(&s, "5-3", err));
    assert_false(scope_parse_steps(&s, "3,", err));
    assert_false(scope_parse_steps(&s, "-1", err));
    assert_false(scope_parse_steps(&s, "99999999999999999999", err));
    assert_false(scope_parse_skip(&s, "x", err));
    assert_true(scope_parse_skip(&s, "2", err));
    assert_int_equal(s.skip_steps, 2);
    scope_init(&s);
    assert_true(scope_parse_window(&s, "1.5:2ms", err));
    assert_int_equal(s.from.off_ns, 1500000);
    assert_int_equal(s.to.off_ns, 2000000);
    assert_true(scope_parse_window(&s, "step5+300us:step5-1s", err));
    assert_true(s.from.at_step && s.to.at_step);
    assert_int_equal(s.from.step, 5);
    assert_int_equal(s.from.off_ns, 300000);
    assert_int_equal(s.to.off_ns, -1000000000);
    assert_true(scope_parse_window(&s, "step2:7ns", err));
    assert_int_equal(s.from.off_ns, 0);
    assert_int_equal(s.to.off_ns, 7);
    assert_true(scope_parse_window(&s, "0:1e300", err)); /* clamped, not overflowed */
    assert_false(scope_parse_window(&s, "1", err));
    assert_false(scope_parse_window(&s, "1:2h", err));
    assert_false(scope_parse_window(&s, "stepx:2", err));
    assert_false(scope_parse_window(&s, ":2", err));
    assert_false(scope_parse_window(&s, "nan:2", err));
}

static void test_describe(void **state)
{
    (void)state;
    struct scope s;
    char err[256];
    scope_init(&s);
    assert_true(scope_parse_steps(&s, "3-5,7", err));
    assert_true(scope_parse_skip(&s, "1", err));
    assert_true(scope_parse_window(&s, "step3+2.5ms:step3+8ms", err));
    s.match = "aten::mm";
    struct strbuf sb = STRBUF_INIT;
    scope_describe(&s, &sb);
    assert_string_equal(sb_str(&sb), "steps 3-5,7, the first 1 step skipped, window "
                                     "step3+2.5ms:step3+8ms, match 'aten::mm'");
    sb_free(&sb);
}

static void test_select(void **state)
{
    (void)state;
    struct trace *t = load();
    uint8_t *keep = xmalloc(t->ev.n + 1);
    char err[256], names[512];
    struct scope s;

    scope_init(&s);
    assert_true(scope_parse_steps(&s, "2", err));
    assert_true(scope_select(t, &s, keep, err));
    kept_names(t, keep, names, sizeof(names));
    assert_string_equal(names, "ProfilerStep#2,aten::mm,cudaLaunchKernel,k_mm");

    /* Step 3's kernel runs past the step: it goes with its launch. */
    scope_init(&s);
    assert_true(scope_parse_skip(&s, "2", err));
    assert_true(scope_select(t, &s, keep, err));
    kept_names(t, keep, names, sizeof(names));
    assert_string_equal(names, "ProfilerStep#3,aten::add,cudaLaunchKernel,k_add");

    /* Steps and a match intersect. */
    scope_init(&s);
    assert_true(scope_parse_steps(&s, "1-3", err));
    s.match = "^aten::add$";
    assert_true(scope_select(t, &s, keep, err));
    kept_names(t, keep, names, sizeof(names));
    assert_string_equal(names, "aten::add,cudaLaunchKernel,k_add,aten::add,cudaLaunchKernel,"
                               "k_add");

    /* A window anchored at a step: 115-125 µs holds step 2 and its op
     * (whole), and the launch at 112-117 with its kernel. */
    scope_init(&s);
    assert_true(scope_parse_window(&s, "step2+15us:step2+25us", err));
    assert_true(scope_select(t, &s, keep, err));
    kept_names(t, keep, names, sizeof(names));
    assert_string_equal(names, "ProfilerStep#2,aten::mm,cudaLaunchKernel,k_mm");

    /* Errors: a missing step, nothing left, a bad expression, empty. */
    scope_init(&s);
    assert_true(scope_parse_steps(&s, "9", err));
    assert_false(scope_select(t, &s, keep, err));
    assert_string_equal(err, "the trace has no ProfilerStep#9");
    scope_init(&s);
    assert_true(scope_parse_skip(&s, "3", err));
    assert_false(scope_select(t, &s, keep, err));
    assert_non_null(strstr(err, "none is left"));
    scope_init(&s);
    s.match = "([";
    assert_false(scope_select(t, &s, keep, err));
    assert_non_null(strstr(err, "bad regular expression"));
    scope_init(&s);
    assert_true(scope_parse_steps(&s, "1", err));
    s.match = "aten::mm";
    assert_false(scope_select(t, &s, keep, err));
    free(keep);
    trace_free(t);
}

static void test_apply(void **state)
{
    (void)state;
    struct trace *t = load();
    struct scope s;
    char msg[256];
    struct errinfo err = {0};
    scope_init(&s);
    assert_true(scope_parse_steps(&s, "2", msg));
    struct load_opts lo = {.threads = 1};
    assert_int_equal(scope_apply(&t, &s, &lo, msg, &err), SCOPE_OK);
    assert_true(t->indexed);
    assert_int_equal(t->n_gpu, 1);
    assert_int_equal(t->n_unlinked, 0);
    assert_string_equal(t->path, "test.json");
    /* k_mm is 30 of the 100 µs of GPU work; the step 100 of the 350 µs. */
    assert_string_equal(t->scope_text, "step 2 \xc2\xb7 30.0 % of GPU time, 28.6 % of the span");
    struct trace_step *steps;
    size_t n = steps_list(t, &steps);
    assert_int_equal(n, 1);
    assert_int_equal(steps[0].n, 2);
    free(steps);
    /* A step the scoped trace no longer has: left as it was. */
    scope_init(&s);
    assert_true(scope_parse_steps(&s, "1", msg));
    struct trace *before = t;
    assert_int_equal(scope_apply(&t, &s, &lo, msg, &err), SCOPE_EMPTY);
    assert_ptr_equal(t, before);
    errinfo_clear(&err);
    trace_free(t);
}

/* The span share is the time the scope's windows cover, not the span of
 * the events it keeps (the step annotation around a 10 µs window is kept
 * whole, 100 µs); a scope of matches alone has no window: its share is
 * its events' span. */
static void test_share(void **state)
{
    (void)state;
    struct trace *t = load();
    struct scope s;
    char msg[256];
    struct errinfo err = {0};
    struct load_opts lo = {.threads = 1};
    scope_init(&s);
    assert_true(scope_parse_window(&s, "step2+15us:step2+25us", msg));
    struct trace *sub = NULL;
    assert_int_equal(scope_load(t, &s, &lo, &sub, msg, &err), SCOPE_OK);
    assert_string_equal(
        sub->scope_text,
        "window step2+0.015ms:step2+0.025ms \xc2\xb7 30.0 % of GPU time, 2.9 % of the span");
    trace_free(sub);
    /* Steps 1-3 and the window together: the window within them. */
    assert_true(scope_parse_steps(&s, "1-3", msg));
    assert_int_equal(scope_load(t, &s, &lo, &sub, msg, &err), SCOPE_OK);
    assert_non_null(strstr(sub->scope_text, "2.9 % of the span"));
    trace_free(sub);
    /* aten::mm alone: its op (110-130) and kernel (140-170), 60 of 350. */
    scope_init(&s);
    s.match = "^aten::mm$";
    assert_int_equal(scope_load(t, &s, &lo, &sub, msg, &err), SCOPE_OK);
    assert_non_null(strstr(sub->scope_text, "30.0 % of GPU time, 17.1 % of the span"));
    trace_free(sub);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),  cmocka_unit_test(test_describe),
        cmocka_unit_test(test_select), cmocka_unit_test(test_apply),
        cmocka_unit_test(test_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
