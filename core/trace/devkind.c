/* Which accelerator ran a trace's device work (docs/metrics.md §1.7). */
#include "config.h"

#include <string.h>

#include "core/trace/devkind.h"

bool devkind_is_mtia_work(const char *cat, bool has_stream)
{
    return has_stream && strcmp(cat, DEVKIND_MTIA_CATEGORY) == 0;
}

enum device_kind devkind_of_counts(uint64_t n_mtia, uint64_t n_gpu)
{
    return !n_mtia ? DEVKIND_GPU : !n_gpu ? DEVKIND_MTIA : DEVKIND_MIXED;
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
