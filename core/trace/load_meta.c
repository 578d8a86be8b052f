/* What the loader does once every event is in: devices from the top-level
 * deviceProperties, process and thread names and sort keys from metadata
 * records, per-row event counts. */
#include "config.h"

#include <cjson/cJSON.h>
#include <string.h>

#include "core/base/sort.h"
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

/* What one metadata record sets, for the rows of its process or thread. */
enum meta_field {
    MF_PROCESS_NAME,
    MF_PROCESS_LABEL,
    MF_PROCESS_SORT,
    MF_THREAD_NAME,
    MF_THREAD_SORT
};

struct meta_set {
    uint64_t key;  /* pid_str << 32 | tid_str (META_ANY_TID: process) */
    uint8_t field; /* enum meta_field */
    int64_t value; /* strtab id of the text, or the sort index */
};

#define META_ANY_TID 0xffffffffu /* no strtab id is IDX_NONE */

static inline bool meta_set_less(const struct meta_set *a, const struct meta_set *b)
{
    return a->key != b->key ? a->key < b->key : a->field < b->field;
}

/* Stable: records of one key and field stay in file order, the last wins. */
SORT_DEFINE(meta_set_sort, struct meta_set, meta_set_less)

static bool meta_field_of(const char *what, bool has_text, uint8_t *field)
{
    if (strcmp(what, "process_name") == 0 && has_text)
        *field = MF_PROCESS_NAME;
    else if (strcmp(what, "process_labels") == 0 && has_text)
        *field = MF_PROCESS_LABEL;
    else if (strcmp(what, "process_sort_index") == 0)
        *field = MF_PROCESS_SORT;
    else if (strcmp(what, "thread_name") == 0 && has_text)
        *field = MF_THREAD_NAME;
    else if (strcmp(what, "thread_sort_index") == 0)
        *field = MF_THREAD_SORT;
    else
        return false;
    return true;
}

/* Index of the first setting with this key in sets[0..n), or n. */
static size_t meta_set_find(const struct meta_set *sets, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sets[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && sets[lo].key == key ? lo : n;
}

static void meta_apply_key(struct row *row, const struct meta_set *sets, size_t n, uint64_t key)
{
    for (size_t i = meta_set_find(sets, n, key); i < n && sets[i].key == key; i++) {
        switch (sets[i].field) {
        case MF_PROCESS_NAME:
            row->process_name = (uint32_t)sets[i].value;
            break;
        case MF_PROCESS_LABEL:
            row->process_label = (uint32_t)sets[i].value;
            break;
        case MF_PROCESS_SORT:
            row->process_sort = sets[i].value;
            break;
        case MF_THREAD_NAME:
            row->thread_name = (uint32_t)sets[i].value;
            break;
        case MF_THREAD_SORT:
            row->thread_sort = sets[i].value;
            break;
        default:
            break;
        }
    }
}

/* Apply process/thread metadata records to every row with that pid/tid;
 * of several records setting the same field, the last in file order wins.
 * The records are sorted by what they set and reduced to the last of each,
 * so that many records and many rows cost O((records + rows) log records). */
static void apply_metadata(struct trace *t, const uint32_t *metas, size_t n_metas)
{
    uint32_t k_name = strtab_find(&t->strs, "name", 4);
    uint32_t k_labels = strtab_find(&t->strs, "labels", 6);
    uint32_t k_sort = strtab_find(&t->strs, "sort_index", 10);
    VEC(struct meta_set) sets = {0};
    for (size_t m = 0; m < n_metas; m++) {
        uint32_t i = metas[m];
        const struct event *e = &t->ev.v[i];
        const char *what = trace_str(t, e->name);
        if (strncmp(what, "thread_", 7) != 0 && strncmp(what, "process_", 8) != 0)
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
        uint8_t field;
        if (!meta_field_of(what, text != IDX_NONE, &field))
            continue;
        const struct row *mr = &t->rows.v[e->row];
        uint32_t tid = field >= MF_THREAD_NAME ? mr->tid_str : META_ANY_TID;
        int64_t value = field == MF_PROCESS_SORT || field == MF_THREAD_SORT ? sort : (int64_t)text;
        VEC_PUSH(&sets, ((struct meta_set){(uint64_t)mr->pid_str << 32 | tid, field, value}));
    }
    if (!sets.n)
        return;
    meta_set_sort(sets.v, sets.n);
    size_t n = 0; /* keep the last setting of each key and field */
    for (size_t i = 0; i < sets.n; i++) {
        if (n && !meta_set_less(&sets.v[n - 1], &sets.v[i]))
            n--;
        sets.v[n++] = sets.v[i];
    }
    for (uint32_t r = 0; r < t->rows.n; r++) {
        struct row *row = &t->rows.v[r];
        meta_apply_key(row, sets.v, n, (uint64_t)row->pid_str << 32 | META_ANY_TID);
        meta_apply_key(row, sets.v, n, (uint64_t)row->pid_str << 32 | row->tid_str);
    }
    VEC_FREE(&sets);
}

void load_counts_free(struct load_counts *c)
{
    VEC_FREE(&c->row_events);
    VEC_FREE(&c->metas);
}

void load_finish(struct trace *t, const struct load_counts *c)
{
    read_devices(t);
    apply_metadata(t, c->metas.v, c->metas.n);
    for (size_t r = 0; r < c->row_events.n && r < t->rows.n; r++)
        t->rows.v[r].nevents += c->row_events.v[r];
}
