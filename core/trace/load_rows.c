/* Rows (pid, tid, class) of the trace being loaded: the shared table, made
 * under the loader's lock, and each worker's cache in front of it. */
#include "config.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/trace/load_internal.h"

static bool rowkey_eq(const struct rowkey *a, const struct rowkey *b)
{
    return a->pid == b->pid && a->tid == b->tid && a->pid_text == b->pid_text &&
           a->tid_text == b->tid_text && a->cls == b->cls;
}

static uint64_t rowkey_hash(const struct rowkey *k)
{
    return hash_mix64((uint64_t)k->pid * 0x9e3779b97f4a7c15ULL ^ (uint64_t)k->tid ^
                      ((uint64_t)k->pid_text << 17) ^ ((uint64_t)k->tid_text << 33) ^ k->cls);
}

static void id_text(struct trace *t, int64_t num, uint32_t text, uint32_t *out)
{
    if (text != IDX_NONE) {
        *out = text;
        return;
    }
    char buf[32];
    int n = snprintf(buf, sizeof(buf), "%" PRId64, num);
    *out = strtab_intern(&t->strs, buf, (size_t)n);
}

static struct rowkey row_key(const struct row *row)
{
    return (struct rowkey){row->pid, row->tid, row->flags & ROW_PID_TEXT ? row->pid_str : IDX_NONE,
                           row->flags & ROW_TID_TEXT ? row->tid_str : IDX_NONE, row->cls};
}

/* A row looked up among the trace's rows. */
struct row_probe {
    const struct trace *t;
    const struct rowkey *key;
};

static bool row_eq(const void *probe, uint32_t r)
{
    const struct row_probe *p = probe;
    struct rowkey k = row_key(&p->t->rows.v[r]);
    return rowkey_eq(&k, p->key);
}

static uint32_t row_hash_of(const void *t, uint32_t r)
{
    struct rowkey k = row_key(&((const struct trace *)t)->rows.v[r]);
    return (uint32_t)rowkey_hash(&k);
}

/* Row for key, created when new (caller holds sh->lock). */
static uint32_t load_shared_row_lookup(struct load_shared *sh, const struct rowkey *key)
{
    struct trace *t = sh->t;
    uint32_t h = (uint32_t)rowkey_hash(key);
    struct row_probe probe = {t, key};
    uint32_t r = hmap_find(&sh->rows, h, row_eq, &probe);
    if (r != IDX_NONE)
        return r;
    r = (uint32_t)t->rows.n;
    struct row *row = VEC_ADD(&t->rows);
    row->pid = key->pid;
    row->tid = key->tid;
    row->cls = key->cls;
    if (key->pid_text != IDX_NONE)
        row->flags |= ROW_PID_TEXT;
    if (key->tid_text != IDX_NONE)
        row->flags |= ROW_TID_TEXT;
    id_text(t, key->pid, key->pid_text, &row->pid_str);
    id_text(t, key->tid, key->tid_text, &row->tid_str);
    row->process_sort = row->thread_sort = INT64_MAX;
    row->first_root = IDX_NONE;
    row->device = -1;
    row->stream = -1;
    hmap_add(&sh->rows, h, r, row_hash_of, t);
    return r;
}

uint32_t load_worker_row(struct worker *w, const struct rowkey *key)
{
    struct rowcache_ent *e = &w->rows[rowkey_hash(key) & (ROWCACHE_SIZE - 1)];
    if (e->row != IDX_NONE && rowkey_eq(&e->key, key))
        return e->row;
    pthread_mutex_lock(&w->sh->lock);
    uint32_t r = load_shared_row_lookup(w->sh, key);
    pthread_mutex_unlock(&w->sh->lock);
    e->key = *key;
    e->row = r;
    return r;
}

/* A decimal integer string such as "25738" or "-1" (what 2021 traces write
 * for tids); false for "stream 7", "Spans", "" and overlong digit runs. */
static bool parse_int_text(const char *s, int64_t *out)
{
    const char *p = s;
    if (*p == '-')
        p++;
    if (!*p || strlen(p) > 18)
        return false;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return false;
    *out = strtoll(s, NULL, 10);
    return true;
}

bool load_worker_id_value(struct worker *w, const cJSON *item, int64_t *num, uint32_t *text)
{
    *num = 0;
    *text = IDX_NONE;
    if (!item)
        return true;
    if (cJSON_IsNumber(item)) {
        double d = item->valuedouble;
        if (!isfinite(d) || fabs(d) > 9.0e15)
            return false;
        *num = (int64_t)d;
        return true;
    }
    if (cJSON_IsString(item)) {
        if (parse_int_text(item->valuestring, num))
            return true;
        *text = load_worker_intern(w, item->valuestring, strlen(item->valuestring));
        return true;
    }
    return false;
}
