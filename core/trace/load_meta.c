/* What the loader does once every event is in: devices from the top-level
 * deviceProperties, process and thread names and sort keys from metadata
 * records, per-row event counts. */
#include "config.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "core/trace/argpack.h"
#include "core/trace/load_internal.h"
#include "core/trace/trace.h"

static int64_t json_int(const cJSON *obj, const char *key, int64_t dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) && fits_i64(v->valuedouble) ? (int64_t)v->valuedouble : dflt;
}

static void read_devices(struct trace *t)
{
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(t->top, "deviceProperties");
    if (!cJSON_IsArray(props))
        props = cJSON_GetObjectItemCaseSensitive(t->top, "computeProperties");
    if (!cJSON_IsArray(props))
        return;
    const cJSON *d;
    int32_t ordinal = 0;
    cJSON_ArrayForEach(d, props)
    {
        if (!cJSON_IsObject(d))
            continue;
        struct device *dev = VEC_ADD(&t->devices);
        dev->id = (int32_t)json_int(d, "id", ordinal);
        ordinal++;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(d, "name");
        dev->name = cJSON_IsString(name) ? strtab_intern_cstr(&t->strs, name->valuestring) : 0;
        const cJSON *arch = cJSON_GetObjectItemCaseSensitive(d, "gcnArchName");
        dev->arch = cJSON_IsString(arch) ? strtab_intern_cstr(&t->strs, arch->valuestring) : 0;
        dev->compute_major = (int32_t)json_int(d, "computeMajor", json_int(d, "major", -1));
        dev->compute_minor = (int32_t)json_int(d, "computeMinor", json_int(d, "minor", -1));
        dev->num_sms = (int32_t)json_int(d, "numSms", -1);
        dev->warp_size = (int32_t)json_int(d, "warpSize", -1);
        dev->total_mem = (uint64_t)json_int(d, "totalGlobalMem", 0);
    }
}

/* Apply process/thread metadata records to every row with that pid/tid. */
static void apply_metadata(struct trace *t)
{
    uint32_t k_name = strtab_find(&t->strs, "name", 4);
    uint32_t k_labels = strtab_find(&t->strs, "labels", 6);
    uint32_t k_sort = strtab_find(&t->strs, "sort_index", 10);
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (e->kind != EVK_META)
            continue;
        const char *what = trace_str(t, e->name);
        bool thread = strncmp(what, "thread_", 7) == 0;
        bool process = strncmp(what, "process_", 8) == 0;
        if (!thread && !process)
            continue;
        struct argiter it;
        struct argval a;
        uint32_t text = IDX_NONE;
        int64_t sort = INT64_MAX;
        argpack_iter_init(&it, t, i);
        while (argpack_iter_next(&it, &a)) {
            if ((a.key == k_name || a.key == k_labels) && a.type == ARG_STR)
                text = a.v.s;
            else if (a.key == k_sort)
                argpack_val_int(t, &a, &sort);
        }
        const struct row *mr = &t->rows.v[e->row];
        for (uint32_t r = 0; r < t->rows.n; r++) {
            struct row *row = &t->rows.v[r];
            if (row->pid_str != mr->pid_str)
                continue;
            if (thread && row->tid_str != mr->tid_str)
                continue;
            if (strcmp(what, "process_name") == 0 && text != IDX_NONE)
                row->process_name = text;
            else if (strcmp(what, "process_labels") == 0 && text != IDX_NONE)
                row->process_label = text;
            else if (strcmp(what, "process_sort_index") == 0)
                row->process_sort = sort;
            else if (strcmp(what, "thread_name") == 0 && text != IDX_NONE)
                row->thread_name = text;
            else if (strcmp(what, "thread_sort_index") == 0)
                row->thread_sort = sort;
        }
    }
}

void load_finish(struct trace *t)
{
    read_devices(t);
    apply_metadata(t);
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (t->ev.v[i].kind != EVK_META)
            t->rows.v[t->ev.v[i].row].nevents++;
}
