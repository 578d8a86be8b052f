/* The op names of TraceLens's tables: an op's name as written, except that
 * sglang's profiler ops (`sglang_profiler::<site>_<line>`) lose their
 * trailing `_<digits>`, which numbers a source line and changes between
 * versions (TraceLens's normalize_sglang_profiler_op_names), so that one
 * op keeps one name. The ops, categories, unique-args, kernels and roofline
 * tables group and classify by this name; the call tree and exports keep
 * the name as written. */
#ifndef TORCHTOP_CORE_OPNAME_H
#define TORCHTOP_CORE_OPNAME_H

#include <stdint.h>

#include "core/base/hmap.h"
#include "core/trace/trace.h"

/* Fill t->op_names (trace_index calls it once): for each cpu_op name with
 * a volatile suffix, the strtab id of the name without it. */
void opname_index(struct trace *t);

/* The strtab id of event i's name in TraceLens's tables. */
static inline uint32_t opname_of(const struct trace *t, uint32_t i)
{
    uint32_t n = t->ev.v[i].name;
    if (!hmap_count(&t->op_names))
        return n;
    uint32_t m = hmap_get(&t->op_names, n);
    return m == IDX_NONE ? n : m;
}

/* The same name as a string. */
static inline const char *opname_str(const struct trace *t, uint32_t i)
{
    return strtab_str(&t->strs, opname_of(t, i));
}

/* Length of name without sglang's volatile suffix: the length of
 * `sglang_profiler::X` for `sglang_profiler::X_<digits>` (X not empty),
 * else len. */
size_t opname_stem_len(const char *name, size_t len);

#endif
