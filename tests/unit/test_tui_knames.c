/* Unit tests: kernel names in rows (simplified, full, table cells) and the
 * pure parts of the explorer's export (default names, typed paths). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/symbols/demangle.h"
#include "tests/unit/testutil.h"
#include "tui/trace/export_ui.h"
#include "tui/trace/knames.h"

#define FILL                                                                                       \
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "           \
    "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "                          \
    "at::detail::Array<char*, 1>)"
/* _Z: void foo::bar<int>(float) */
#define MANGLED "_ZN3foo3barIiEEvf"

static const char *trace_json =
    "{\"traceEvents\":["
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::fill_\",\"pid\":1,\"tid\":1,\"ts\":0,"
    "\"dur\":50},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":10,\"dur\":5,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":20,\"dur\":5,\"args\":{\"correlation\":2}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" FILL "\",\"pid\":0,\"tid\":7,\"ts\":30,"
    "\"dur\":10,\"args\":{\"device\":0,\"stream\":7,\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" MANGLED "\",\"pid\":0,\"tid\":7,\"ts\":45,"
    "\"dur\":10,\"args\":{\"device\":0,\"stream\":7,\"correlation\":2}}"
    "]}";

static void test_knames(void **state)
{
    struct trace *t = load_text(trace_json);
    struct knames *k = knames_new(t);
    uint32_t op = find_event(t, "aten::fill_");
    uint32_t fill = find_event(t, FILL);
    uint32_t mangled = find_event(t, MANGLED);
    size_t n;
    /* Ops keep their names; kernels are simplified by default. */
    assert_false(knames_is_kernel(k, op));
    assert_true(knames_is_kernel(k, fill));
    assert_false(knames_full(k));
    const char *s = knames_row_name(k, op, &n);
    assert_int_equal(n, strlen("aten::fill_"));
    assert_memory_equal(s, "aten::fill_", n);
    s = knames_row_name(k, fill, &n);
    assert_string_equal(s, "at::native::vectorized_elementwise_kernel<\xe2\x80\xa6"
                           "FillFunctor<float>\xe2\x80\xa6>");
    assert_int_equal(n, strlen(s));
    /* Full: the name as recorded, or demangled when mangled. */
    knames_set_full(k, true);
    s = knames_row_name(k, fill, &n);
    assert_string_equal(s, FILL);
    s = knames_row_name(k, mangled, &n);
    char *dm = demangle_or_copy(MANGLED);
    assert_string_equal(s, dm);
    if (demangle_is_mangled(MANGLED) && strcmp(dm, MANGLED) != 0)
        assert_non_null(strstr(s, "foo::bar<int>"));
    free(dm);
    /* Cells: the kernel's own name (recorded or demangled) becomes the
     * row form; other text stays. */
    knames_set_full(k, false);
    s = knames_cell(k, fill, FILL, strlen(FILL), &n);
    assert_non_null(strstr(s, "FillFunctor<float>"));
    assert_true(n < strlen(FILL));
    s = knames_cell(k, fill, "aten::fill_", 11, &n);
    assert_int_equal(n, 11);
    assert_memory_equal(s, "aten::fill_", 11);
    s = knames_cell(k, op, "aten::fill_", 11, &n);
    assert_memory_equal(s, "aten::fill_", 11);
    size_t fn;
    const char *full = knames_demangled(k, t->ev.v[mangled].name, &fn);
    s = knames_cell(k, mangled, full, fn, &n);
    size_t sn;
    assert_ptr_equal(s, knames_simplified(k, t->ev.v[mangled].name, &sn));
    assert_int_equal(n, sn);
    /* Made once: the same pointer each time. */
    assert_ptr_equal(knames_simplified(k, t->ev.v[fill].name, &n),
                     knames_simplified(k, t->ev.v[fill].name, &n));
    knames_free(k);
    trace_free(t);
}

static void test_export_names(void **state)
{
    char buf[64];
    export_ui_default_name(buf, sizeof(buf), "/data/run/rank0.pt.trace.json.gz", "window");
    assert_string_equal(buf, "rank0-window.json.gz");
    export_ui_default_name(buf, sizeof(buf), "demo (synthetic training steps)", "subtree-12");
    assert_string_equal(buf, "demo__synthetic_training_steps_-subtree-12.json.gz");
    export_ui_default_name(buf, sizeof(buf), "a\x1b[31m\xc3\xa9.json", "w");
    assert_string_equal(buf, "a__31m__-w.json.gz");
    export_ui_default_name(buf, sizeof(buf), ".json", "w");
    assert_string_equal(buf, "trace-w.json.gz");
    export_ui_default_name(buf, 20, "a-very-long-trace-name.json", "window");
    assert_string_equal(buf, "a-ve-window.json.gz");

    struct strbuf p = STRBUF_INIT;
    char err[128];
    bool gz;
    assert_true(export_ui_path("  out.json ", NULL, &p, &gz, err, sizeof(err)));
    assert_string_equal(sb_str(&p), "out.json");
    assert_false(gz);
    assert_true(export_ui_path("~/x/slice.json.gz", "/home/u", &p, &gz, err, sizeof(err)));
    assert_string_equal(sb_str(&p), "/home/u/x/slice.json.gz");
    assert_true(gz);
    /* No shell: quotes, $ and ; are just bytes of the name. */
    assert_true(export_ui_path("a;$(rm -rf x)'.json", "/h", &p, &gz, err, sizeof(err)));
    assert_string_equal(sb_str(&p), "a;$(rm -rf x)'.json");
    assert_true(export_ui_path("~user/a.json", "/h", &p, &gz, err, sizeof(err)));
    assert_string_equal(sb_str(&p), "~user/a.json");
    assert_false(export_ui_path("   ", "/h", &p, &gz, err, sizeof(err)));
    assert_non_null(strstr(err, "no file name"));
    assert_false(export_ui_path("a\tb\x01.json", "/h", &p, &gz, err, sizeof(err)));
    assert_false(export_ui_path("dir/", "/h", &p, &gz, err, sizeof(err)));
    assert_false(export_ui_path(NULL, "/h", &p, &gz, err, sizeof(err)));
    sb_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_knames),
        cmocka_unit_test(test_export_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
