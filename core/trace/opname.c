/* TraceLens's op names (opname.h). */
#include "config.h"

#include <string.h>

#include "core/trace/opname.h"

#define SGLANG_PREFIX "sglang_profiler::"

size_t opname_stem_len(const char *name, size_t len)
{
    const size_t plen = sizeof(SGLANG_PREFIX) - 1;
    if (len <= plen || memcmp(name, SGLANG_PREFIX, plen) != 0)
        return len;
    /* TraceLens's ^(sglang_profiler::.+?)_\d+$ (Python's re): the last run
     * of digits, after an underscore, with at least one character before
     * it; `$` also matches before a final newline, and `.` matches no
     * newline. Digits are ASCII ones. */
    size_t end = name[len - 1] == '\n' ? len - 1 : len;
    size_t d = end;
    while (d > plen && name[d - 1] >= '0' && name[d - 1] <= '9')
        d--;
    if (d == end || d <= plen + 1 || name[d - 1] != '_')
        return len;
    if (memchr(name + plen, '\n', d - 1 - plen))
        return len;
    return d - 1;
}

void opname_index(struct trace *t)
{
    hmap_free(&t->op_names);
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind != EVK_CPU_OP)
            continue;
        const char *s = strtab_str(&t->strs, e->name);
        if (s[0] != 's' || hmap_get(&t->op_names, e->name) != IDX_NONE)
            continue;
        size_t len = strtab_len(&t->strs, e->name);
        size_t stem = opname_stem_len(s, len);
        if (stem == len)
            continue;
        uint32_t id = strtab_intern(&t->strs, s, stem);
        hmap_put(&t->op_names, e->name, id);
    }
}
