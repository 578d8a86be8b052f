/* What kind of GPU work an event is: computation, communication or a copy
 * (docs/metrics.md §2). */
#include "config.h"

#include <strings.h>
#include <string.h>

#include "core/base/hmap.h"
#include "core/trace/devkind.h"
#include "core/trace/gpuclass.h"

static bool contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return true;
    return false;
}

bool gpuclass_name_is_comm(const char *name)
{
    return contains_ci(name, "nccl") || contains_ci(name, "rccl") ||
           contains_ci(name, "cross_device_reduce");
}

bool gpuclass_name_is_memcpy(const char *name)
{
    return strncmp(name, "MEMORY_COPY_HOST_TO_DEVICE", 26) == 0 ||
           strncmp(name, "MEMORY_COPY_DEVICE_TO_HOST", 26) == 0 ||
           strncmp(name, "MEMORY_COPY_DEVICE_TO_DEVICE", 28) == 0 ||
           strncmp(name, "__amd_rocclr_copyBuffer", 23) == 0;
}

enum gpu_bucket gpuclass_bucket(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    if (e->kind == EVK_MEMCPY || (e->flags & EVF_MEMCPY_LIKE))
        return BUCKET_MEMCPY;
    if (e->flags & EVF_COMM)
        return BUCKET_COMM;
    return BUCKET_COMP;
}

bool gpuclass_name_is_mtia_copy(const char *name)
{
    return strncmp(name, "dma", 3) == 0;
}

void gpuclass_classify(struct trace *t)
{
    uint32_t mtia = strtab_find(&t->strs, DEVKIND_MTIA_CATEGORY, strlen(DEVKIND_MTIA_CATEGORY));
    /* Names repeat: classify each distinct kernel name once. */
    struct hmap seen;
    hmap_init(&seen, 1024);
    for (uint32_t i = 0; i < t->ev.n; i++) {
        struct event *e = &t->ev.v[i];
        if (e->kind != EVK_KERNEL)
            continue;
        if (mtia != IDX_NONE && e->cat == mtia) {
            if (gpuclass_name_is_mtia_copy(trace_str(t, e->name)))
                e->flags |= EVF_MEMCPY_LIKE;
            continue;
        }
        uint32_t cls = hmap_get(&seen, e->name);
        if (cls == IDX_NONE) {
            const char *name = trace_str(t, e->name);
            cls = gpuclass_name_is_memcpy(name) ? EVF_MEMCPY_LIKE
                  : gpuclass_name_is_comm(name) ? EVF_COMM
                                                : 0;
            hmap_put(&seen, e->name, cls);
        }
        e->flags |= (uint16_t)cls;
    }
    hmap_free(&seen);
}
