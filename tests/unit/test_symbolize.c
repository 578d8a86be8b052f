/* The symbolizer on this very test program (built with -g): function,
 * file, line and the inline chain of its own code, laziness (one unit
 * read), the asynchronous API, locations as text, and the reasons given
 * for missing or unreadable modules. */
#include "config.h"

#include <link.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/base/common.h"
#include "core/symbols/elfmod.h"
#include "core/symbols/symbolize.h"

/* Code to look up; the line numbers are checked below. */
static void *captured;

__attribute__((noinline)) static void sym_capture(void)
{
    captured = __builtin_return_address(0);
    __asm__ volatile("" ::: "memory");
}

enum { LINE_INLINED_CALL = __LINE__ + 3 };
static inline __attribute__((always_inline)) void sym_inlined(void)
{
    sym_capture();
}

enum { LINE_OUTER_CALL = __LINE__ + 3 };
__attribute__((noinline)) static void sym_outer(void)
{
    sym_inlined();
    __asm__ volatile("" ::: "memory");
}

int sym_marker_function(int x);

enum { LINE_MARKER = __LINE__ + 1 };
__attribute__((noinline)) int sym_marker_function(int x)
{
    return x * 3 + 1;
}

static char self_path[PATH_MAX];

struct find_bias {
    uintptr_t addr;
    uintptr_t bias;
    bool found;
};

static int find_bias_cb(struct dl_phdr_info *info, size_t size, void *ud)
{
    (void)size;
    struct find_bias *f = ud;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_memsz) {
            f->bias = info->dlpi_addr;
            f->found = true;
            return 1;
        }
    }
    return 0;
}

/* The module address (what DWARF and nm show) of a runtime address of
 * this program. */
static uint64_t module_addr(const void *p)
{
    struct find_bias f = {(uintptr_t)p, 0, false};
    dl_iterate_phdr(find_bias_cb, &f);
    assert_true(f.found);
    return (uint64_t)((uintptr_t)p - f.bias);
}

static const char *base_name(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path;
}

/* Whether this program has DWARF (a build without -g skips the checks). */
static bool self_has_dwarf(void)
{
    const char *why;
    struct elfmod *m = elfmod_open(self_path, &why);
    assert_non_null(m);
    bool ok = m->has_dwarf;
    elfmod_free(m);
    if (!ok)
        print_message("SKIP: this test program has no DWARF (built without -g)\n");
    return ok;
}

static void test_location_parse(void **state)
{
    (void)state;
    struct sym_location loc;
    assert_true(sym_location_parse("/usr/lib/libfoo.so+0x1a2b", &loc));
    assert_string_equal(loc.module, "/usr/lib/libfoo.so");
    assert_null(loc.symbol);
    assert_int_equal(loc.offset, 0x1a2b);
    sym_location_done(&loc);
    assert_true(sym_location_parse("  libc++.so.1+1A2B\n", &loc));
    assert_string_equal(loc.module, "libc++.so.1");
    assert_int_equal(loc.offset, 0x1a2b);
    sym_location_done(&loc);
    assert_true(sym_location_parse("/lib/x.so(+0x10) [0x7f0000001234]", &loc));
    assert_string_equal(loc.module, "/lib/x.so");
    assert_null(loc.symbol);
    assert_int_equal(loc.offset, 0x10);
    sym_location_done(&loc);
    assert_true(sym_location_parse("/lib/x.so(_ZN2at3fooEv+0x24)", &loc));
    assert_string_equal(loc.module, "/lib/x.so");
    assert_string_equal(loc.symbol, "_ZN2at3fooEv");
    assert_int_equal(loc.offset, 0x24);
    sym_location_done(&loc);
    assert_false(sym_location_parse("/lib/x.so", &loc));
    assert_false(sym_location_parse("+0x10", &loc));
    assert_false(sym_location_parse("/lib/x.so+zz", &loc));
    assert_false(sym_location_parse("/lib/x.so+0x123456789abcdef01", &loc));
    assert_false(sym_location_parse("", &loc));
}

static void test_self(void **state)
{
    (void)state;
    if (!self_has_dwarf())
        return;
    struct symbolizer *s = symbolizer_new(NULL);
    struct sym_result r;
    sym_result_init(&r);
    uint64_t a = module_addr((const void *)sym_marker_function);
    assert_int_equal(symbolizer_lookup(s, self_path, a, &r), SYM_OK);
    assert_null(r.reason);
    assert_int_equal(r.addr, a);
    assert_true(r.is64 == (sizeof(void *) == 8));
    assert_true(r.nframes >= 1);
    assert_string_equal(r.frames[0].function, "sym_marker_function");
    assert_string_equal(base_name(r.frames[0].file), "test_symbolize.c");
    assert_true(r.frames[0].line >= LINE_MARKER && r.frames[0].line <= LINE_MARKER + 2);

    /* Only the unit of this file was read. */
    struct sym_module_stats st;
    symbolizer_get_stats(s, &st);
    assert_int_equal(st.modules, 1);
    assert_int_equal(st.units_loaded, 1);
    assert_true(st.units > 10);

    /* The return address inside the inlined call: two frames. */
    sym_outer();
    uint64_t ret = module_addr(captured) - 1;
    assert_int_equal(symbolizer_lookup(s, self_path, ret, &r), SYM_OK);
    assert_int_equal(r.nframes, 2);
    assert_string_equal(r.frames[0].function, "sym_inlined");
    assert_int_equal(r.frames[0].line, LINE_INLINED_CALL);
    assert_string_equal(base_name(r.frames[0].file), "test_symbolize.c");
    assert_string_equal(r.frames[1].function, "sym_outer");
    assert_int_equal(r.frames[1].line, LINE_OUTER_CALL);
    assert_string_equal(base_name(r.frames[1].file), "test_symbolize.c");

    /* The same through text locations, by offset and by symbol. */
    char text[PATH_MAX + 64];
    snprintf(text, sizeof(text), "%s+0x%llx", self_path, (unsigned long long)a);
    assert_int_equal(symbolizer_lookup_text(s, text, &r), SYM_OK);
    assert_string_equal(r.frames[0].function, "sym_marker_function");
    snprintf(text, sizeof(text), "%s(sym_marker_function+0x0)", self_path);
    assert_int_equal(symbolizer_lookup_text(s, text, &r), SYM_OK);
    assert_int_equal(r.addr, a);
    snprintf(text, sizeof(text), "%s(no_such_symbol_here+0x0)", self_path);
    assert_int_equal(symbolizer_lookup_text(s, text, &r), SYM_NO_INFO);
    assert_non_null(strstr(r.reason, "no symbol no_such_symbol_here"));
    assert_int_equal(symbolizer_lookup_text(s, "garbage", &r), SYM_NO_INFO);
    assert_non_null(strstr(r.reason, "not a location"));

    /* An address no unit or symbol covers. */
    assert_int_equal(symbolizer_lookup(s, self_path, 8, &r), SYM_NO_INFO);
    assert_int_equal(r.nframes, 0);
    assert_non_null(r.reason);

    /* The ELF view: symbols by address and by name. */
    const char *why;
    struct elfmod *m = elfmod_open(self_path, &why);
    const struct elf_sym *sym = elfmod_symbol_at(m, a + 1);
    assert_non_null(sym);
    assert_string_equal(sym->name, "sym_marker_function");
    uint64_t found;
    assert_true(elfmod_symbol_addr(m, "sym_marker_function", &found));
    assert_int_equal(found, a);
    assert_false(elfmod_symbol_addr(m, "no_such_symbol_here", &found));
    elfmod_free(m);

    sym_result_done(&r);
    symbolizer_free(s);
}

static void test_missing(void **state)
{
    (void)state;
    struct symbolizer *s = symbolizer_new(NULL);
    struct sym_result r;
    sym_result_init(&r);
    assert_int_equal(symbolizer_lookup(s, "/nonexistent/libtorch_cuda.so", 0x1234, &r),
                     SYM_NO_MODULE);
    assert_int_equal(r.nframes, 0);
    assert_string_equal(r.reason, "/nonexistent/libtorch_cuda.so: file not found");
    /* A file that is not ELF. */
    char path[PATH_MAX];
    const char *src = getenv("top_srcdir");
    snprintf(path, sizeof(path), "%s/tests/symbolize/prog.c", src ? src : ".");
    if (access(path, R_OK) == 0) {
        assert_int_equal(symbolizer_lookup(s, path, 0x10, &r), SYM_NO_MODULE);
        assert_non_null(strstr(r.reason, "not an ELF file"));
    }
    assert_false(elfmod_is_elf(path));
    assert_true(elfmod_is_elf(self_path));
    /* A FIFO is refused, and opening it does not wait for a writer. */
    char fifo[] = "/tmp/tt-sym-fifo.XXXXXX";
    if (mkdtemp(fifo)) {
        char fpath[PATH_MAX];
        snprintf(fpath, sizeof(fpath), "%s/lib.so", fifo);
        assert_int_equal(mkfifo(fpath, 0600), 0);
        assert_non_null(strstr(elfmod_check(fpath), "not a regular file (a FIFO)"));
        assert_int_equal(symbolizer_lookup(s, fpath, 0x10, &r), SYM_NO_MODULE);
        assert_non_null(strstr(r.reason, "not a regular file (a FIFO)"));
        unlink(fpath);
        rmdir(fifo);
    }
    assert_string_equal(elfmod_check("/nonexistent/lib.so"), "file not found");
    assert_null(elfmod_check(self_path));
    assert_string_equal(sym_status_name(SYM_SYMBOL_ONLY), "symbol_only");
    sym_result_done(&r);
    symbolizer_free(s);
}

static void test_async(void **state)
{
    (void)state;
    bool dwarf = self_has_dwarf();
    struct symbolizer *s = symbolizer_new(NULL);
    int fd = symbolizer_notify_fd(s);
    assert_true(fd >= 0);
    uint64_t a = module_addr((const void *)sym_marker_function);
    enum { N = 20 };
    uint64_t ids[N];
    for (int i = 0; i < N; i++)
        ids[i] = symbolizer_request(s, i % 4 == 3 ? "/nonexistent/lib.so" : self_path, a,
                                    (uint64_t)i + 100);
    for (int i = 1; i < N; i++)
        assert_true(ids[i] > ids[i - 1] && ids[0] != 0);
    int got = 0;
    for (int spins = 0; got < N && spins < 2000; spins++) {
        struct pollfd p = {fd, POLLIN, 0};
        poll(&p, 1, 10);
        struct sym_answer *ans[8];
        size_t n = symbolizer_poll(s, ans, ARRAY_SIZE(ans));
        for (size_t k = 0; k < n; k++, got++) {
            /* Answers come in request order. */
            assert_int_equal(ans[k]->id, ids[got]);
            assert_int_equal(ans[k]->tag, (uint64_t)got + 100);
            if (got % 4 == 3) {
                assert_int_equal(ans[k]->result.status, SYM_NO_MODULE);
            } else if (dwarf) {
                assert_int_equal(ans[k]->result.status, SYM_OK);
                assert_string_equal(ans[k]->result.frames[0].function, "sym_marker_function");
            }
            sym_answer_free(ans[k]);
        }
    }
    assert_int_equal(got, N);
    assert_int_equal(symbolizer_pending(s), 0);
    struct sym_answer *none[1];
    assert_int_equal(symbolizer_poll(s, none, 1), 0);
    /* Cancelling drops what is queued; freeing with requests in flight is safe. */
    for (int i = 0; i < N; i++)
        symbolizer_request(s, self_path, a + (uint64_t)i, 0);
    symbolizer_cancel(s);
    assert_true(symbolizer_pending(s) <= 1);
    for (int i = 0; i < N; i++)
        symbolizer_request(s, self_path, a + (uint64_t)i, 0);
    symbolizer_free(s);
}

int main(void)
{
    ssize_t n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
    if (n <= 0)
        return 77;
    self_path[n] = '\0';
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_location_parse),
        cmocka_unit_test(test_self),
        cmocka_unit_test(test_missing),
        cmocka_unit_test(test_async),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
