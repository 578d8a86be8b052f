/* The event store: lifetime, accessors and labels. */
#include "config.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/trace/trace.h"

const char *ev_kind_name(enum ev_kind k)
{
    static const char *const names[] = {
#define EVK_NAME(id, name) [id] = name,
        EV_KIND_INFO(EVK_NAME)
#undef EVK_NAME
    };
    return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}

/* Whether p lies in t's cache mapping (trace.mapped). */
static bool in_mapping(const struct trace *t, const void *p)
{
    const char *c = p, *m = t->mapped;
    return m && c >= m && c < m + t->mapped_len;
}

/* Every array of t that the mapping may hold, with its size in bytes. */
#define TRACE_MAPPED_ARRAYS(t, _)                                                                  \
    _((t)->ev.v, (t)->ev.n * sizeof(*(t)->ev.v))                                                   \
    _((t)->rows.v, (t)->rows.n * sizeof(*(t)->rows.v))                                             \
    _((t)->flows.v, (t)->flows.n * sizeof(*(t)->flows.v))                                          \
    _((t)->held.v, (t)->held.n * sizeof(*(t)->held.v))                                             \
    _((t)->grafts.v, (t)->grafts.n * sizeof(*(t)->grafts.v))                                       \
    _((t)->ops.v, (t)->ops.n * sizeof(*(t)->ops.v))                                                \
    _((t)->launches.v, (t)->launches.n * sizeof(*(t)->launches.v))                                 \
    _((t)->gpus.v, (t)->gpus.n * sizeof(*(t)->gpus.v))                                             \
    _((t)->colls.v, (t)->colls.n * sizeof(*(t)->colls.v))                                          \
    _((t)->argbuf.v, (t)->argbuf.n * sizeof(*(t)->argbuf.v))                                       \
    _((t)->devices.v, (t)->devices.n * sizeof(*(t)->devices.v))                                    \
    _((t)->others.v, (t)->others.n * sizeof(*(t)->others.v))                                       \
    _((t)->raws.v, (t)->raws.n * sizeof(*(t)->raws.v))

static size_t launch_gpu_count(const struct trace *t)
{
    size_t n = 0;
    for (size_t k = 0; k < t->launches.n; k++)
        n += t->launches.v[k].gpu_count;
    return n;
}

/* A malloc'd copy of n bytes at p (NULL for none). */
static void *copy_out(const void *p, size_t n)
{
    if (!p)
        return NULL;
    void *q = xmalloc(n ? n : 1);
    memcpy(q, p, n);
    return q;
}

void trace_own_arrays(struct trace *t)
{
    if (!t->mapped)
        return;
    for (size_t r = 0; r < t->rows.n; r++)
        if (in_mapping(t, t->rows.v[r].order))
            t->rows.v[r].order =
                copy_out(t->rows.v[r].order, t->rows.v[r].nevents * sizeof(uint32_t));
    if (in_mapping(t, t->launch_gpu))
        t->launch_gpu = copy_out(t->launch_gpu, launch_gpu_count(t) * sizeof(uint32_t));
#define OWN(v, bytes)                                                                              \
    if (in_mapping(t, v))                                                                          \
        (v) = copy_out(v, bytes);
    TRACE_MAPPED_ARRAYS(t, OWN)
#undef OWN
    munmap(t->mapped, t->mapped_len);
    t->mapped = NULL;
    t->mapped_len = 0;
}

void trace_free(struct trace *t)
{
    if (!t)
        return;
    for (size_t r = 0; r < t->rows.n; r++)
        if (!in_mapping(t, t->rows.v[r].order))
            free(t->rows.v[r].order);
    if (!in_mapping(t, t->launch_gpu))
        free(t->launch_gpu);
#define FREE_OWN(v, bytes)                                                                         \
    if (!in_mapping(t, v))                                                                         \
        free(v);
    TRACE_MAPPED_ARRAYS(t, FREE_OWN)
#undef FREE_OWN
    if (t->mapped)
        munmap(t->mapped, t->mapped_len);
    free(t->path);
    free(t->scope_text);
    strtab_free(&t->strs);
    strtab_free(&t->vals);
    hmap_free(&t->op_names);
    cJSON_Delete(t->top);
    free(t);
}

uint64_t trace_file_index(const struct trace *t, uint32_t i)
{
    /* held is sorted: the count of its values <= i, by binary search. */
    size_t lo = 0, hi = t->held.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->held.v[mid] <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint64_t)i + lo;
}

const struct op_info *ev_op(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    if ((e->kind != EVK_CPU_OP && e->kind != EVK_ANNOTATION) || e->aux == IDX_NONE)
        return NULL;
    return &t->ops.v[e->aux];
}

uint32_t ev_py_parent(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    return e->kind == EVK_PYTHON ? e->aux : IDX_NONE;
}

const struct launch_info *ev_launch(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    return evk_is_launch(e->kind) && e->aux != IDX_NONE ? &t->launches.v[e->aux] : NULL;
}

const struct gpu_info *ev_gpu(const struct trace *t, uint32_t i)
{
    const struct event *e = &t->ev.v[i];
    return evk_on_device(e->kind) && e->aux != IDX_NONE ? &t->gpus.v[e->aux] : NULL;
}

const char *trace_row_label(const struct trace *t, uint32_t r, char *buf, size_t n)
{
    const struct row *row = &t->rows.v[r];
    const char *pid = trace_str(t, row->pid_str);
    const char *tid = trace_str(t, row->tid_str);
    if (row->cls == ROW_DEVICE) {
        const char *label = row->process_label ? trace_str(t, row->process_label) : NULL;
        /* Older Kineto writes the tid of a stream as text: "stream 7". */
        const char *st = strncmp(tid, "stream ", 7) == 0 ? "" : "stream ";
        /* The stream its events name when that is not the tid: MTIA's
         * tid 4 holds stream 1 ("Stream 1 FW"). */
        char num[24];
        char *end;
        long long v = strtoll(tid, &end, 10);
        if (row->stream >= 0 && *tid && !*end && v != row->stream) {
            snprintf(num, sizeof(num), "%lld", (long long)row->stream);
            tid = num;
        }
        if (label && *label)
            snprintf(buf, n, "%s %s%s", label, st, tid);
        else
            snprintf(buf, n, "device %s %s%s", pid, st, tid);
    } else if (row->thread_name && *trace_str(t, row->thread_name)) {
        snprintf(buf, n, "%s", trace_str(t, row->thread_name));
    } else if (row->process_name && *trace_str(t, row->process_name)) {
        snprintf(buf, n, "%s %s/%s", trace_str(t, row->process_name), pid, tid);
    } else {
        snprintf(buf, n, "thread %s/%s", pid, tid);
    }
    return buf;
}

static size_t trace_memory(const struct trace *t)
{
    size_t m = sizeof(*t) + strtab_memory(&t->strs) + strtab_memory(&t->vals);
    m += t->ev.cap * sizeof(*t->ev.v) + t->rows.cap * sizeof(*t->rows.v);
    m += t->flows.cap * sizeof(*t->flows.v) + t->ops.cap * sizeof(*t->ops.v);
    m += t->launches.cap * sizeof(*t->launches.v);
    m += t->gpus.cap * sizeof(*t->gpus.v) + t->colls.cap * sizeof(*t->colls.v);
    m += t->argbuf.cap + t->others.cap * sizeof(*t->others.v);
    m += t->raws.cap * sizeof(*t->raws.v);
    m += t->held.cap * sizeof(*t->held.v);
    for (size_t r = 0; r < t->rows.n; r++)
        m += t->rows.v[r].nevents * sizeof(uint32_t);
    return m;
}

void trace_memory_describe(const struct trace *t, struct strbuf *out)
{
#define PART(name, bytes) sb_printf(out, " %s %.1f", name, (double)(bytes) / 1e6)
    sb_puts(out, "MB:");
    PART("strings", strtab_memory(&t->strs));
    PART("values", strtab_memory(&t->vals));
    PART("events", t->ev.cap * sizeof(*t->ev.v));
    PART("ops", t->ops.cap * sizeof(*t->ops.v));
    PART("gpus", t->gpus.cap * sizeof(*t->gpus.v));
    PART("launches", t->launches.cap * sizeof(*t->launches.v));
    PART("flows", t->flows.cap * sizeof(*t->flows.v));
    PART("args", t->argbuf.cap);
    PART("kept-texts", t->raws.cap * sizeof(*t->raws.v));
    size_t orders = 0;
    for (size_t r = 0; r < t->rows.n; r++)
        orders += t->rows.v[r].nevents * sizeof(uint32_t);
    PART("row-orders", orders);
    PART("total", trace_memory(t));
#undef PART
}
