/* Fuzz target: the ELF reader and the DWARF index behind the symbolizer.
 * The input is written to a file (the readers map files by path), opened
 * as a module, then looked up at its symbols and at the start, middle and
 * end of every unit range, directly and through a symbolizer (with the
 * demangler on and a private, empty debug directory). */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/symbols/dwarfidx.h"
#include "core/symbols/dwarfidx_internal.h"
#include "core/symbols/elfmod.h"
#include "core/symbols/symbolize.h"
#include "core/base/xalloc.h"
#include "tests/fuzz/fuzz.h"

#define MAX_PROBES 64
#define MAX_FRAMES 16

static char *dir, *path;

static void cleanup(void)
{
    unlink(path);
    rmdir(dir);
}

static void setup(void)
{
    if (path)
        return;
    char tmpl[] = "/tmp/torchtop-fuzz-elf-XXXXXX";
    if (!mkdtemp(tmpl))
        abort();
    dir = xstrdup(tmpl);
    path = xasprintf("%s/libfuzz.so", dir);
    atexit(cleanup);
}

static void write_input(const uint8_t *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0)
            abort();
        off += (size_t)n;
    }
    close(fd);
}

/* Addresses worth asking about: symbols and unit ranges. */
static size_t probes(const struct elfmod *m, const struct dwarfidx *d, uint64_t *out)
{
    size_t n = 0;
    for (size_t i = 0; m && i < m->nsyms && n + 2 <= MAX_PROBES / 2; i++) {
        out[n++] = m->syms[i].addr;
        out[n++] = m->syms[i].addr + m->syms[i].size / 2;
    }
    for (size_t i = 0; d && i < d->nranges && n + 3 <= MAX_PROBES; i++) {
        out[n++] = d->ranges[i].lo;
        out[n++] = d->ranges[i].lo + (d->ranges[i].hi - d->ranges[i].lo) / 2;
        out[n++] = d->ranges[i].hi - 1;
    }
    return n;
}

static void check_frames(const struct dw_frame *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (f[i].function)
            (void)strlen(f[i].function);
        if (f[i].file)
            (void)strlen(f[i].file);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    setup();
    write_input(data, size);
    elfmod_is_elf(path);
    const char *why = NULL;
    struct elfmod *m = elfmod_open(path, &why);
    if (m) {
        for (size_t i = 0; i < m->nsyms && i < MAX_PROBES; i++) {
            elfmod_symbol_at(m, m->syms[i].addr + m->syms[i].size);
            uint64_t a;
            if (!elfmod_symbol_addr(m, m->syms[i].name, &a))
                fuzz_fail("symbol %s not found by name", m->syms[i].name);
        }
        const char *dirs[] = {dir};
        free(elfmod_find_debug_file(m, dirs, 1));
    }
    char *dwhy = NULL;
    struct dwarfidx *d = dwarfidx_open(path, &dwhy);
    free(dwhy);
    uint64_t addrs[MAX_PROBES];
    size_t naddrs = probes(m, d, addrs);
    if (d) {
        struct dw_frame frames[MAX_FRAMES];
        for (size_t i = 0; i < naddrs; i++)
            check_frames(frames, dwarfidx_lookup(d, addrs[i], frames, MAX_FRAMES));
        struct dwarfidx_stats st;
        dwarfidx_get_stats(d, &st);
        dwarfidx_free(d);
    }
    elfmod_free(m);

    const char *dirs[] = {dir};
    struct sym_opts so = {.demangle = true, .debug_dirs = dirs, .ndebug_dirs = 1};
    struct symbolizer *s = symbolizer_new(&so);
    struct sym_result r;
    sym_result_init(&r);
    for (size_t i = 0; i < naddrs && i < MAX_PROBES / 4; i++)
        symbolizer_lookup(s, path, addrs[i], &r);
    char text[4096];
    snprintf(text, sizeof(text), "%s+0x%" PRIx64, path, naddrs ? addrs[0] : 0);
    symbolizer_lookup_text(s, text, &r);
    snprintf(text, sizeof(text), "%s(main+0x10) [0x7f0000001000]", path);
    symbolizer_lookup_text(s, text, &r);
    sym_result_done(&r);
    symbolizer_free(s);
    return 0;
}
