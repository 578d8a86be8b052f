/* Demangling through libiberty's cplus_demangle. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "core/symbols/demangle.h"
#include "core/base/xalloc.h"

#define DMGL_FLAGS (DMGL_PARAMS | DMGL_ANSI)

/* Names that fail under libiberty's recursion limit (deep CUTLASS and
 * Composable Kernel templates do) are retried without it on a thread with
 * a large stack, so that recursion as deep as the name allows cannot
 * overflow the caller's stack. The printer recurses at most once per node
 * of the name, and a node takes at least one byte; names longer than this
 * are not retried. */
#define DEEP_NAME_MAX (16 * 1024)
#define DEEP_STACK (128u << 20) /* virtual; only touched pages are committed */

struct deep_job {
    const char *name;
    char *out;
};

static void *deep_demangle(void *arg)
{
    struct deep_job *j = arg;
    j->out = cplus_demangle(j->name, DMGL_FLAGS | DMGL_NO_RECURSE_LIMIT);
    return NULL;
}

bool demangle_is_mangled(const char *name)
{
    return name && name[0] == '_' && name[1] == 'Z';
}

char *demangle(const char *name)
{
    if (!demangle_is_mangled(name))
        return NULL;
    /* libiberty allocates with malloc; hand that out directly. */
    char *d = cplus_demangle(name, DMGL_FLAGS);
    if (d || strlen(name) > DEEP_NAME_MAX)
        return d;
    struct deep_job job = {name, NULL};
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) != 0)
        return NULL;
    if (pthread_attr_setstacksize(&attr, DEEP_STACK) == 0 &&
        pthread_create(&th, &attr, deep_demangle, &job) == 0)
        pthread_join(th, NULL);
    pthread_attr_destroy(&attr);
    return job.out;
}

char *demangle_or_copy(const char *name)
{
    char *d = demangle(name);
    return d ? d : xstrdup(name ? name : "");
}

void demangle_put(struct strbuf *out, const char *name)
{
    char *d = demangle(name);
    sb_puts(out, d ? d : name ? name : "");
    free(d);
}
