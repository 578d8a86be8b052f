/* Which accelerator ran a trace's device work (docs/metrics.md §1.7). */
#include "config.h"

#include <string.h>

#include "core/trace/devkind.h"

bool devkind_is_mtia_work(const char *cat, bool has_stream)
{
    return has_stream && strcmp(cat, DEVKIND_MTIA_CATEGORY) == 0;
}

void devkind_detect(struct trace *t)
{
    uint32_t mtia = strtab_find(&t->strs, DEVKIND_MTIA_CATEGORY, strlen(DEVKIND_MTIA_CATEGORY));
    uint64_t n_mtia = 0, n_gpu = 0;
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_gpu(e->kind))
            continue;
        if (mtia != IDX_NONE && e->cat == mtia)
            n_mtia++;
        else
            n_gpu++;
    }
    t->device_kind = (uint8_t)(!n_mtia ? DEVKIND_GPU : !n_gpu ? DEVKIND_MTIA : DEVKIND_MIXED);
}

const char *devkind_name(enum device_kind k)
{
    switch (k) {
    case DEVKIND_MTIA:
        return "MTIA";
    case DEVKIND_MIXED:
        return "device";
    default:
        return "GPU";
    }
}
