/* Allocation wrappers: abort on out-of-memory with one message. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if HAVE_MALLOC_H
#include <malloc.h>
#endif

#include "core/base/xalloc.h"

static void ATTR_NORETURN oom(size_t n)
{
    fprintf(stderr, "torchtop: out of memory (allocating %zu bytes)\n", n);
    abort();
}

/* Blocks of HUGE_FROM bytes and more ask for transparent huge pages. A
 * large trace's arrays run to hundreds of MB, each page of them is first
 * touched once, and on a virtual machine a 4 KiB page fault costs about
 * 10 us: a second of CPU per GB. A 2 MiB page takes one fault for 512.
 * The advice covers the whole block as malloc_usable_size gives it; for
 * the blocks malloc maps on their own that is exactly their mapping, so
 * the advice does not split it and realloc still grows it in place with
 * mremap (which keeps the advice). Where the kernel has no huge page to
 * give, or THP is off, the pages are ordinary ones. */
#define HUGE_FROM ((size_t)4 << 20)

static void *advise_huge(void *p, size_t n)
{
#if HAVE_MALLOC_H && HAVE_MALLOC_USABLE_SIZE && HAVE_MADVISE && defined(MADV_HUGEPAGE)
    if (n >= HUGE_FROM) {
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t lo = (uintptr_t)p & ~(page - 1);
        uintptr_t hi = ((uintptr_t)p + malloc_usable_size(p) + page - 1) & ~(page - 1);
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
    }
#endif
    return p;
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return advise_huge(p, n);
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return advise_huge(p, n * size);
}

void *xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        oom(SIZE_MAX);
    size_t bytes = n * size;
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        oom(bytes);
    return advise_huge(q, bytes);
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    int r = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (r < 0)
        oom(0);
    return s;
}

/* libiberty (linked for its demangler) calls xmalloc and friends; these
 * definitions stand in for its xmalloc.o so the two sets never clash. */
void *xrealloc(void *p, size_t n);
void xmalloc_failed(size_t n);
void xmalloc_set_program_name(const char *name);

void *xrealloc(void *p, size_t n)
{
    return xreallocarray(p, n, 1);
}

void xmalloc_failed(size_t n)
{
    oom(n);
}

void xmalloc_set_program_name(const char *name)
{
    (void)name;
}
