/* Allocation wrappers: abort on out-of-memory with one message. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"

static void ATTR_NORETURN oom(size_t n)
{
    fprintf(stderr, "torchtop: out of memory (allocating %zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        oom(SIZE_MAX);
    size_t bytes = n * size;
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        oom(bytes);
    return q;
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
