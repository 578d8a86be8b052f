/* Kernel names for rows: simplified or full demangled, made once per
 * string id. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/symbols/demangle.h"
#include "core/symbols/kname.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"
#include "tui/trace/knames.h"

struct kn_entry {
    char *full;                  /* demangled (or a copy of the name) */
    char *simple;                /* simplified */
    size_t full_len, simple_len; /* their lengths */
};

struct knames {
    const struct trace *t;        /* borrowed */
    bool full;                    /* rows show full names */
    struct hmap by_id;            /* string id -> index into entries */
    VEC(struct kn_entry) entries; /* the names made so far */
};

struct knames *knames_new(const struct trace *t)
{
    struct knames *k = xcalloc(1, sizeof(*k));
    k->t = t;
    hmap_init(&k->by_id, 64);
    return k;
}

void knames_free(struct knames *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->entries.n; i++) {
        free(k->entries.v[i].full);
        free(k->entries.v[i].simple);
    }
    VEC_FREE(&k->entries);
    hmap_free(&k->by_id);
    free(k);
}

void knames_set_full(struct knames *k, bool full)
{
    k->full = full;
}

bool knames_full(const struct knames *k)
{
    return k->full;
}

static struct kn_entry *entry(struct knames *k, uint32_t id)
{
    uint32_t i = hmap_get(&k->by_id, id);
    if (i != IDX_NONE)
        return &k->entries.v[i];
    /* Names may hold NUL bytes: the forms are made from the part before
     * the first one, as the C++ tools would read it. */
    char *name = xstrndup(trace_str(k->t, id), strtab_len(&k->t->strs, id));
    struct kn_entry *e = VEC_ADD(&k->entries);
    e->full = demangle_or_copy(name);
    e->simple = kname_simplify(name);
    e->full_len = strlen(e->full);
    e->simple_len = strlen(e->simple);
    free(name);
    hmap_put(&k->by_id, id, (uint32_t)(k->entries.n - 1));
    return e;
}

const char *knames_demangled(struct knames *k, uint32_t id, size_t *len)
{
    struct kn_entry *e = entry(k, id);
    *len = e->full_len;
    return e->full;
}

const char *knames_simplified(struct knames *k, uint32_t id, size_t *len)
{
    struct kn_entry *e = entry(k, id);
    *len = e->simple_len;
    return e->simple;
}

bool knames_is_kernel(const struct knames *k, uint32_t ev)
{
    return ev < k->t->ev.n && evk_is_gpu(k->t->ev.v[ev].kind);
}

const char *knames_row_name(struct knames *k, uint32_t ev, size_t *len)
{
    uint32_t id = k->t->ev.v[ev].name;
    if (!knames_is_kernel(k, ev)) {
        *len = strtab_len(&k->t->strs, id);
        return trace_str(k->t, id);
    }
    return k->full ? knames_demangled(k, id, len) : knames_simplified(k, id, len);
}

/* The cell's kernel id when s[0..n) is event ev's kernel name (as
 * recorded or demangled), else IDX_NONE. */
static uint32_t cell_kernel(struct knames *k, uint32_t ev, const char *s, size_t n)
{
    if (!knames_is_kernel(k, ev))
        return IDX_NONE;
    uint32_t id = k->t->ev.v[ev].name;
    size_t rn = strtab_len(&k->t->strs, id), fn;
    const char *full = knames_demangled(k, id, &fn);
    if ((n == rn && memcmp(s, trace_str(k->t, id), n) == 0) || (n == fn && memcmp(s, full, n) == 0))
        return id;
    return IDX_NONE;
}

const char *knames_cell(struct knames *k, uint32_t ev, const char *s, size_t n, size_t *len)
{
    uint32_t id = cell_kernel(k, ev, s, n);
    if (id == IDX_NONE) {
        *len = n;
        return s;
    }
    return k->full ? knames_demangled(k, id, len) : knames_simplified(k, id, len);
}

const char *knames_cell_full(struct knames *k, uint32_t ev, const char *s, size_t n, size_t *len)
{
    uint32_t id = cell_kernel(k, ev, s, n);
    if (id == IDX_NONE) {
        *len = n;
        return s;
    }
    return knames_demangled(k, id, len);
}
