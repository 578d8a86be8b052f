/* Allocation wrappers that abort with a message when memory runs out, so
 * callers never handle NULL from an allocation. */
#ifndef TORCHTOP_CORE_XALLOC_H
#define TORCHTOP_CORE_XALLOC_H

#include <stddef.h>
#include "core/base/common.h"

void *xmalloc(size_t n) ATTR_MALLOC;
void *xcalloc(size_t n, size_t size) ATTR_MALLOC;
/* realloc(p, n * size) with overflow check. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s) ATTR_MALLOC;
char *xstrndup(const char *s, size_t n) ATTR_MALLOC;
/* asprintf that aborts on failure; returns the new string. */
char *xasprintf(const char *fmt, ...) ATTR_FORMAT(1, 2);

#endif
