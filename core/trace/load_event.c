/* Per-event conversion: one cJSON event object -> compact records. Runs on
 * the loader's worker threads; shared state is touched only under the lock. */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/xalloc.h"
#include "core/trace/devkind.h"
#include "core/trace/jsonfast.h"
#include "core/trace/jsonfault.h"
#include "core/trace/jsonscan.h"
#include "core/trace/load.h"
#include "core/trace/load_internal.h"
#include "core/trace/pyval.h"
#include "core/base/utf8.h"

/* ------------------------------------------------------------------------ */
/* cJSON hooks: a thread-local arena while parsing events                   */
/* ------------------------------------------------------------------------ */

static __thread struct arena *tls_arena;
/* Set when an event's parse asked for more than LOAD_MAX_EVENT_MEMORY:
 * cJSON then sees a failed allocation and gives up on the event. */
static __thread bool tls_over_budget;

static void *hook_malloc(size_t n)
{
    if (tls_arena) {
        if (n > LOAD_MAX_EVENT_MEMORY - MIN(tls_arena->used, LOAD_MAX_EVENT_MEMORY)) {
            tls_over_budget = true;
            return NULL;
        }
        return arena_alloc(tls_arena, n);
    }
    return malloc(n);
}

static void hook_free(void *p)
{
    if (!tls_arena)
        free(p);
}

static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static void hooks_init(void)
{
    cJSON_Hooks h = {hook_malloc, hook_free};
    cJSON_InitHooks(&h);
}

void load_hooks_install(void)
{
    pthread_once(&hooks_once, hooks_init);
}

static void load_hooks_set_arena(struct arena *a)
{
    tls_arena = a;
}

/* ------------------------------------------------------------------------ */
/* Worker state                                                             */
/* ------------------------------------------------------------------------ */

static void seen_init(struct intern_seen *m, uint32_t size)
{
    m->v = xcalloc(size, sizeof(*m->v));
    m->mask = size - 1;
    m->n = 0;
}

static void seen_put(struct intern_seen *m, uint64_t h, const char *s, uint32_t len, uint32_t id)
{
    struct intern_ent *e = m->v;
    size_t i = h & m->mask;
    while (e[i].s)
        i = (i + 1) & m->mask;
    e[i] = (struct intern_ent){.hash = h, .s = s, .len = len, .id = id};
    m->n++;
}

/* Room for one more string: twice the slots when half full, or none of the
 * strings any more at INTERN_SEEN_MAX. */
static void seen_reserve(struct intern_seen *m)
{
    uint32_t size = m->mask + 1;
    if ((m->n + 1) * 2 <= size)
        return;
    if (m->n + 1 > INTERN_SEEN_MAX) {
        memset(m->v, 0, size * sizeof(*m->v));
        m->n = 0;
        return;
    }
    struct intern_seen old = *m;
    seen_init(m, size * 2);
    for (uint32_t i = 0; i < size; i++)
        if (old.v[i].s)
            seen_put(m, old.v[i].hash, old.v[i].s, old.v[i].len, old.v[i].id);
    free(old.v);
}

void load_worker_init(struct worker *w, struct load_shared *sh)
{
    memset(w, 0, sizeof(*w));
    w->sh = sh;
    arena_init(&w->arena, 64 * 1024);
    seen_init(&w->strs, 1024);
    seen_init(&w->vals, 256);
    for (size_t i = 0; i < ROWCACHE_SIZE; i++)
        w->rows[i].row = IDX_NONE;
}

void load_worker_done(struct worker *w)
{
    arena_free(&w->arena);
    free(w->strs.v);
    free(w->vals.v);
    sb_free(&w->tmp);
    sb_free(&w->val);
    sb_free(&w->esc);
    sb_free(&w->raw);
}

void load_batch_clear(struct batch_out *b)
{
    b->ev.n = b->arglen.n = b->ops.n = b->launches.n = 0;
    b->gpus.n = b->colls.n = b->flows.n = b->args.n = b->others.n = b->held.n = 0;
    b->raws.n = 0;
    b->n_unsupported = 0;
    b->err_status = ST_OK;
    b->err_offset = 0;
    b->err_msg[0] = '\0';
    b->soft = false;
    b->soft_offset = 0;
    b->soft_msg[0] = '\0';
}

void load_batch_free(struct batch_out *b)
{
    VEC_FREE(&b->ev);
    VEC_FREE(&b->arglen);
    VEC_FREE(&b->ops);
    VEC_FREE(&b->launches);
    VEC_FREE(&b->gpus);
    VEC_FREE(&b->colls);
    VEC_FREE(&b->flows);
    VEC_FREE(&b->args);
    VEC_FREE(&b->others);
    VEC_FREE(&b->raws);
    VEC_FREE(&b->held);
}

/* Intern s in tab (shared, under the lock) unless this worker's index m
 * already has it. */
static uint32_t intern_cached(struct worker *w, struct strtab *tab, struct intern_seen *m,
                              const char *s, size_t len)
{
    uint64_t h = hash_bytes(s, len);
    for (size_t i = h & m->mask; m->v[i].s; i = (i + 1) & m->mask) {
        const struct intern_ent *e = &m->v[i];
        if (e->hash == h && e->len == len && memcmp(e->s, s, len) == 0)
            return e->id;
    }
    pthread_mutex_lock(&w->sh->lock);
    uint32_t id = strtab_intern_hashed(tab, s, len, h);
    const char *stored = strtab_str(tab, id);
    pthread_mutex_unlock(&w->sh->lock);
    seen_reserve(m);
    seen_put(m, h, stored, (uint32_t)len, id);
    return id;
}

uint32_t load_worker_intern(struct worker *w, const char *s, size_t len)
{
    return intern_cached(w, &w->sh->t->strs, &w->strs, s, len);
}

/* Id in trace.vals of a parsed op argument list. */
static uint32_t intern_value(struct worker *w, const cJSON *v)
{
    sb_clear(&w->val);
    pyval_encode(&w->val, v);
    return intern_cached(w, &w->sh->t->vals, &w->vals, w->val.s, w->val.len);
}

static uint32_t intern_item_string(struct worker *w, const cJSON *item)
{
    const char *s = item->valuestring ? item->valuestring : "";
    return load_worker_intern(w, s, strlen(s));
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */
/* ------------------------------------------------------------------------ */

#define TWO53 9007199254740992.0

/* Microseconds (as a double from the file) -> integer nanoseconds, exact for
 * the three-decimal values Kineto writes: the fraction is taken apart from
 * the integer part, whose subtraction is exact. False when the result is
 * not within +-LOAD_MAX_TIME_NS. */
static bool us_to_ns(double us, int64_t *ns)
{
    if (!(fabs(us) < LOAD_MAX_TIME_NS / 1000.0))
        return false;
    double ip = floor(us);
    double frac = us - ip;
    *ns = (int64_t)ip * 1000 + (int64_t)llround(frac * 1000.0);
    return *ns > -LOAD_MAX_TIME_NS && *ns < LOAD_MAX_TIME_NS;
}

/* Integers beyond 2^53 lose digits in a double: find the literal after
 * "key": in the event's text and read it exactly. */
static bool raw_integer(const char *text, size_t len, const char *key, struct argval *a)
{
    size_t klen = strlen(key);
    const char *end = text + len;
    for (const char *p = text; p + klen + 2 < end; p++) {
        p = memchr(p, '"', (size_t)(end - p));
        if (!p || (size_t)(end - p) < klen + 2)
            return false;
        if (memcmp(p + 1, key, klen) != 0 || p[klen + 1] != '"')
            continue;
        const char *q = json_skip_ws(p + klen + 2, end);
        if (q >= end || *q != ':')
            continue;
        q = json_skip_ws(q + 1, end);
        bool neg = q < end && *q == '-';
        const char *digits = q + neg;
        const char *d = digits;
        while (d < end && *d >= '0' && *d <= '9')
            d++;
        if (d == digits || d - digits > 20 || (d < end && (*d == '.' || *d == 'e' || *d == 'E')))
            return false;
        char buf[24];
        memcpy(buf, digits, (size_t)(d - digits));
        buf[d - digits] = '\0';
        errno = 0;
        unsigned long long u = strtoull(buf, NULL, 10);
        if (errno)
            return false;
        if (neg) {
            if (u > (unsigned long long)INT64_MAX + 1)
                return false;
            a->type = ARG_INT;
            a->v.i = (int64_t)(0 - u);
        } else if (u > INT64_MAX) {
            a->type = ARG_UINT;
            a->v.u = u;
        } else {
            a->type = ARG_INT;
            a->v.i = (int64_t)u;
        }
        return true;
    }
    return false;
}

static void number_arg(const cJSON *item, const char *text, size_t len, struct argval *a)
{
    double d = item->valuedouble;
    if (d == floor(d) && fabs(d) < TWO53) {
        a->type = ARG_INT;
        a->v.i = (int64_t)d;
        return;
    }
    if (d == floor(d) && isfinite(d) && item->string && raw_integer(text, len, item->string, a))
        return;
    a->type = ARG_DOUBLE;
    a->v.d = d;
}

/* Unsigned id from an int arg, a numeric string ("0x0" or "2560"), or none. */
static bool arg_u64(const struct argval *a, const cJSON *item, uint64_t *out)
{
    if (a->type == ARG_INT && a->v.i >= 0) {
        *out = (uint64_t)a->v.i;
        return true;
    }
    if (a->type == ARG_UINT) {
        *out = a->v.u;
        return true;
    }
    return a->type == ARG_STR && argpack_id_text(item->valuestring, out);
}

static bool arg_i64(const struct argval *a, const cJSON *item, int64_t *out)
{
    if (a->type == ARG_INT) {
        *out = a->v.i;
        return true;
    }
    uint64_t u;
    if (arg_u64(a, item, &u) && u <= INT64_MAX) {
        *out = (int64_t)u;
        return true;
    }
    if (a->type == ARG_DOUBLE && isfinite(a->v.d) && fabs(a->v.d) < 9e18) {
        *out = (int64_t)a->v.d;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------ */
/* Compact JSON text of array and object args                               */
/* ------------------------------------------------------------------------ */

static void put_int(struct strbuf *sb, int64_t v)
{
    char buf[24], *p = buf + sizeof(buf);
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    sb_putn(sb, p, (size_t)(buf + sizeof(buf) - p));
}

/* Compact JSON of a parsed value, as cJSON_PrintUnformatted writes it but
 * without printf for the integers that shape arrays are made of. */
static void put_compact(struct strbuf *sb, const cJSON *v)
{
    switch (v->type & 0xff) {
    case cJSON_NULL:
        sb_puts(sb, "null");
        break;
    case cJSON_False:
        sb_puts(sb, "false");
        break;
    case cJSON_True:
        sb_puts(sb, "true");
        break;
    case cJSON_Number: {
        double d = v->valuedouble;
        if (d == floor(d) && fabs(d) < TWO53) {
            put_int(sb, (int64_t)d);
        } else if (!isfinite(d)) {
            sb_puts(sb, "null");
        } else {
            char buf[32];
            snprintf(buf, sizeof(buf), "%.15g", d);
            if (strtod(buf, NULL) != d)
                snprintf(buf, sizeof(buf), "%.17g", d);
            sb_puts(sb, buf);
        }
        break;
    }
    case cJSON_String: {
        const char *s = v->valuestring ? v->valuestring : "";
        sb_put_json_string(sb, s, strlen(s));
        break;
    }
    case cJSON_Array:
    case cJSON_Object: {
        bool obj = (v->type & 0xff) == cJSON_Object;
        sb_putc(sb, obj ? '{' : '[');
        for (const cJSON *c = v->child; c; c = c->next) {
            if (c != v->child)
                sb_putc(sb, ',');
            if (obj) {
                const char *k = c->string ? c->string : "";
                sb_put_json_string(sb, k, strlen(k));
                sb_putc(sb, ':');
            }
            put_compact(sb, c);
        }
        sb_putc(sb, obj ? '}' : ']');
        break;
    }
    default:
        sb_puts(sb, "null");
        break;
    }
}

static uint32_t intern_compact(struct worker *w, const cJSON *v)
{
    sb_clear(&w->tmp);
    put_compact(&w->tmp, v);
    return load_worker_intern(w, sb_str(&w->tmp), w->tmp.len);
}

/* ------------------------------------------------------------------------ */
/* Categories                                                               */
/* ------------------------------------------------------------------------ */

static enum ev_kind kind_of_category(const char *c)
{
    static const struct {
        const char *cat;
        enum ev_kind kind;
    } table[] = {
        {"cpu_op", EVK_CPU_OP},
        {"Operator", EVK_CPU_OP},
        {"user_annotation", EVK_ANNOTATION},
        {"python_function", EVK_PYTHON},
        {"cuda_runtime", EVK_RUNTIME},
        {"Runtime", EVK_RUNTIME},
        {"cuda_driver", EVK_DRIVER},
        {"Trace", EVK_SPAN},
        {"kernel", EVK_KERNEL},
        {"Kernel", EVK_KERNEL},
        {"gpu_memcpy", EVK_MEMCPY},
        {"Memcpy", EVK_MEMCPY},
        {"gpu_memset", EVK_MEMSET},
        {"Memset", EVK_MEMSET},
        {"gpu_user_annotation", EVK_GPU_ANNOTATION},
        {"cuda_sync", EVK_DEVICE_OTHER},
        {"cuda_profiler_range", EVK_DEVICE_OTHER},
        {"mtia_ccp_events", EVK_DEVICE_OTHER},
    };
    for (size_t i = 0; i < ARRAY_SIZE(table); i++)
        if (strcmp(c, table[i].cat) == 0)
            return table[i].kind;
    size_t n = strlen(c);
    if (n > 8 && strcmp(c + n - 8, "_runtime") == 0)
        return EVK_RUNTIME; /* mtia_runtime and similar */
    return EVK_OTHER;
}

/* Kind of an X event's category, cached per category id. */
static enum ev_kind worker_kind(struct worker *w, uint32_t cat_id, const char *cat)
{
    struct kindcache_ent *e = &w->kinds[cat_id & (KINDCACHE_SIZE - 1)];
    if (e->cat != cat_id + 1) {
        e->cat = cat_id + 1;
        e->kind = (uint8_t)kind_of_category(cat);
    }
    return (enum ev_kind)e->kind;
}

/* ------------------------------------------------------------------------ */
/* Args                                                                     */
/* ------------------------------------------------------------------------ */

/* Hot fields gathered from one event's args. */
struct hot {
    bool has_corr, has_ext, has_seq;
    bool has_stream, has_device, has_coll;
    uint64_t corr, ext;
    int64_t seq, stream, device;
    uint32_t dims, types, strides, concrete;
    struct coll_info coll;
};

static void hot_init(struct hot *h)
{
    memset(h, 0, sizeof(*h));
    h->coll = (struct coll_info){0, 0, 0, 0, 0, -1, -1, -1};
}

static void note_hot(struct hot *h, uint32_t key, const struct argval *a, const cJSON *item)
{
    int64_t i;
    switch (key) {
    case KEY_CORRELATION:
        h->has_corr = arg_u64(a, item, &h->corr);
        break;
    case KEY_EXT_ID:
    case KEY_EXT_ID_LOWER:
        h->has_ext = arg_u64(a, item, &h->ext);
        break;
    case KEY_SEQ:
        h->has_seq = arg_i64(a, item, &h->seq);
        break;
    case KEY_STREAM:
        h->has_stream = arg_i64(a, item, &h->stream);
        break;
    case KEY_DEVICE:
        h->has_device = arg_i64(a, item, &h->device);
        break;
    case KEY_INPUT_DIMS:
        if (a->type == ARG_VALUE)
            h->dims = a->v.s;
        break;
    case KEY_INPUT_TYPE:
        if (a->type == ARG_VALUE)
            h->types = a->v.s;
        break;
    case KEY_INPUT_STRIDES:
        if (a->type == ARG_VALUE)
            h->strides = a->v.s;
        break;
    case KEY_CONCRETE:
        if (a->type == ARG_VALUE)
            h->concrete = a->v.s;
        break;
    case KEY_COLL_NAME:
        if (a->type == ARG_STR) {
            h->coll.name = a->v.s;
            h->has_coll = true;
        }
        break;
    case KEY_IN_NELEMS:
        if (arg_i64(a, item, &i))
            h->coll.in_nelems = i;
        break;
    case KEY_OUT_NELEMS:
        if (arg_i64(a, item, &i))
            h->coll.out_nelems = i;
        break;
    case KEY_GROUP_SIZE:
        if (arg_i64(a, item, &i))
            h->coll.group_size = (int32_t)i;
        break;
    case KEY_DTYPE:
        if (a->type == ARG_STR)
            h->coll.dtype = a->v.s;
        break;
    case KEY_PG_NAME:
        if (a->type == ARG_STR)
            h->coll.pg_name = a->v.s;
        break;
    case KEY_PG_RANKS:
        if (a->type == ARG_STR || a->type == ARG_JSON)
            h->coll.pg_ranks = a->v.s;
        break;
    case KEY_PG_DESC:
        if (a->type == ARG_STR)
            h->coll.pg_desc = a->v.s;
        break;
    default:
        break;
    }
}

/* The op argument lists, parsed into values (pyval.h) rather than kept as
 * JSON text. */
static bool is_op_args_key(uint32_t key)
{
    return key == KEY_INPUT_DIMS || key == KEY_INPUT_TYPE || key == KEY_INPUT_STRIDES ||
           key == KEY_CONCRETE;
}

/* Pack every arg of `args` into out->args; gather hot fields. */
static bool pack_args(struct worker *w, const cJSON *args, const char *text, size_t len,
                      struct batch_out *out, struct hot *h)
{
    size_t count_at = out->args.n;
    uint64_t count = 0;
    for (const cJSON *c = args->child; c; c = c->next)
        count++;
    argpack_put_varint(&out->args, count);
    for (const cJSON *c = args->child; c; c = c->next) {
        struct argval a = {0};
        const char *key = c->string ? c->string : "";
        a.key = load_worker_intern(w, key, strlen(key));
        switch (c->type & 0xff) {
        case cJSON_NULL:
            a.type = ARG_NULL;
            break;
        case cJSON_False:
            a.type = ARG_FALSE;
            break;
        case cJSON_True:
            a.type = ARG_TRUE;
            break;
        case cJSON_Number:
            number_arg(c, text, len, &a);
            break;
        case cJSON_String:
            a.type = ARG_STR;
            a.v.s = intern_item_string(w, c);
            break;
        case cJSON_Array:
        case cJSON_Object:
            if (is_op_args_key(a.key)) {
                a.type = ARG_VALUE;
                a.v.s = intern_value(w, c);
            } else {
                a.type = ARG_JSON;
                a.v.s = intern_compact(w, c);
            }
            break;
        default:
            a.type = ARG_NULL;
            break;
        }
        argpack_put(&out->args, &a);
        if (a.key < KEY__COUNT)
            note_hot(h, a.key, &a, c);
    }
    (void)count_at;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Events                                                                   */
/* ------------------------------------------------------------------------ */

/* The keys of an event the loader reads. keys has bit i set for each key
 * of event_key index i present; odd is set when a key is not one of them,
 * or comes twice (the event then keeps its text: rebuildable). */
struct fields {
    const cJSON *ph, *cat, *name, *pid, *tid, *ts, *dur, *args, *id, *bp, *scope;
    unsigned keys;
    bool odd;
};

/* Whether k is the short key lit: compared byte by byte, up to k's end
 * (every key of every event goes through here: no call). */
static inline bool key_is(const char *k, const char *lit)
{
    size_t i = 0;
    for (; lit[i]; i++)
        if (k[i] != lit[i])
            return false;
    return k[i] == '\0';
}

/* Index of a key the export writes: ph cat name pid tid ts args dur s id
 * bp are 0..10; -1 for any other. */
static int event_key(const char *k)
{
    if (!k)
        return -1;
    switch (k[0]) {
    case 'p':
        return key_is(k, "ph") ? 0 : key_is(k, "pid") ? 3 : -1;
    case 'c':
        return key_is(k, "cat") ? 1 : -1;
    case 'n':
        return key_is(k, "name") ? 2 : -1;
    case 't':
        return key_is(k, "tid") ? 4 : key_is(k, "ts") ? 5 : -1;
    case 'a':
        return key_is(k, "args") ? 6 : -1;
    case 'd':
        return key_is(k, "dur") ? 7 : -1;
    case 's':
        return k[1] == '\0' ? 8 : -1;
    case 'i':
        return key_is(k, "id") ? 9 : -1;
    case 'b':
        return key_is(k, "bp") ? 10 : -1;
    default:
        return -1;
    }
}

/* Where f keeps the value of the key of event_key index i. */
static const cJSON **field_slot(struct fields *f, int i)
{
    const cJSON **slots[] = {&f->ph,   &f->cat, &f->name,  &f->pid, &f->tid, &f->ts,
                             &f->args, &f->dur, &f->scope, &f->id,  &f->bp};
    return slots[i];
}

/* The event's keys: the first value of each. */
static void collect_fields(const cJSON *obj, struct fields *f)
{
    memset(f, 0, sizeof(*f));
    for (const cJSON *c = obj->child; c; c = c->next) {
        int i = event_key(c->string);
        if (i < 0 || (f->keys & (1u << i))) {
            f->odd = true;
            continue;
        }
        f->keys |= 1u << i;
        *field_slot(f, i) = c;
    }
}

static void fail(struct batch_out *out, enum status st, uint64_t offset, const char *fmt, ...)
    ATTR_FORMAT(4, 5);

static void fail(struct batch_out *out, enum status st, uint64_t offset, const char *fmt, ...)
{
    if (out->err_status != ST_OK)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->err_msg, sizeof(out->err_msg), fmt, ap);
    va_end(ap);
    out->err_status = st;
    out->err_offset = offset;
}

static void soft_fail(struct batch_out *out, uint64_t offset, const char *fmt, ...)
    ATTR_FORMAT(3, 4);

/* Record a soft fault when it is the batch's first in file order. */
static void soft_fail(struct batch_out *out, uint64_t offset, const char *fmt, ...)
{
    if (out->soft && out->soft_offset <= offset)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->soft_msg, sizeof(out->soft_msg), fmt, ap);
    va_end(ap);
    out->soft = true;
    out->soft_offset = offset;
}

/* A time field in µs: a number, or a string holding one (read, and a soft
 * fault: the format wants a number). False, with the fault recorded, when
 * it is neither or out of range. */
static bool time_field(const cJSON *item, const char *key, uint64_t offset, int64_t *ns,
                       struct batch_out *out)
{
    double d;
    if (cJSON_IsNumber(item)) {
        d = item->valuedouble;
    } else if (cJSON_IsString(item) && item->valuestring[0]) {
        char *end;
        d = strtod(item->valuestring, &end);
        if (*end)
            d = NAN;
        else
            soft_fail(out, offset,
                      "expected a number for \"%s\", found a string (its number is used)", key);
    } else {
        d = NAN;
    }
    if (!isfinite(d)) {
        fail(out, ST_FORMAT, offset, "expected a finite number of microseconds for \"%s\"", key);
        return false;
    }
    if (!us_to_ns(d, ns)) {
        fail(out, ST_LIMIT, offset,
             "expected \"%s\" within +-%" PRId64 " microseconds (2^62 ns, 146 years around "
             "1970), found %.17g",
             key, LOAD_MAX_TIME_NS / 1000, d);
        return false;
    }
    return true;
}

static uint32_t name_of(struct worker *w, const cJSON *name)
{
    if (!name)
        return 0;
    if (cJSON_IsString(name))
        return intern_item_string(w, name);
    return intern_compact(w, name);
}

static void add_flow(struct worker *w, const struct fields *f, char ph, uint32_t row, int64_t ts,
                     struct batch_out *out)
{
    struct flow *fl = VEC_ADD(&out->flows);
    fl->ts = ts;
    fl->ph = (uint8_t)ph;
    fl->row = row;
    fl->cat = f->cat && cJSON_IsString(f->cat) ? intern_item_string(w, f->cat) : 0;
    fl->name = name_of(w, f->name);
    fl->bind_enclosing = f->bp && cJSON_IsString(f->bp) && strcmp(f->bp->valuestring, "e") == 0;
    if (f->id) {
        if (cJSON_IsNumber(f->id) && f->id->valuedouble >= 0 &&
            f->id->valuedouble < 18446744073709551616.0)
            fl->id = (uint64_t)f->id->valuedouble;
        else if (cJSON_IsString(f->id))
            fl->id = strtoull(f->id->valuestring, NULL, 0);
    }
}

/* Attach the kind's side record from the hot fields. */
static uint32_t add_aux(enum ev_kind kind, const struct hot *h, const char *name,
                        struct batch_out *out, uint16_t *flags)
{
    uint32_t coll = IDX_NONE;
    if (h->has_coll) {
        coll = (uint32_t)out->colls.n;
        VEC_PUSH(&out->colls, h->coll);
    }
    switch (kind) {
    case EVK_CPU_OP:
    case EVK_ANNOTATION: {
        struct op_info *o = VEC_ADD(&out->ops);
        o->seq = h->has_seq ? h->seq : -1;
        o->input_dims = h->dims;
        o->input_type = h->types;
        o->input_strides = h->strides;
        o->concrete_inputs = h->concrete;
        o->partner = IDX_NONE;
        o->coll = coll;
        if (h->dims)
            *flags |= EVF_HAS_SHAPES;
        if (strncmp(name, "autograd::engine::evaluate_function: ", 37) == 0)
            *flags |= EVF_BACKWARD;
        return (uint32_t)out->ops.n - 1;
    }
    case EVK_PYTHON:
        /* aux: the parent frame, linked by the index (tree.c). */
        if (strncmp(name, "nn.Module: ", 11) == 0)
            *flags |= EVF_MODULE;
        return IDX_NONE;
    case EVK_RUNTIME:
    case EVK_DRIVER: {
        struct launch_info *l = VEC_ADD(&out->launches);
        l->corr = h->has_corr ? h->corr : 0;
        l->ext_id = h->has_ext ? h->ext : 0;
        return (uint32_t)out->launches.n - 1;
    }
    default:
        if (evk_on_device(kind)) {
            struct gpu_info *g = VEC_ADD(&out->gpus);
            g->corr = h->has_corr ? h->corr : 0;
            g->ext_id = h->has_ext ? h->ext : 0;
            g->device = h->has_device ? (int32_t)h->device : -1;
            g->stream = h->has_stream ? h->stream : -1;
            g->launch = g->launcher = IDX_NONE;
            g->coll = coll;
            return (uint32_t)out->gpus.n - 1;
        }
        return IDX_NONE;
    }
}

/* ------------------------------------------------------------------------ */
/* Events kept as written                                                   */
/* ------------------------------------------------------------------------ */

/* The text of an event its fields do not rebuild, text[0..len) at JSON
 * offset `at`: where it lies when the input can be read again, else the
 * text (struct rawtext). Metadata records keep their text: repeats are
 * found by it. Returns the index + 1 of the entry in out->raws. */
static uint32_t keep_raw(struct worker *w, const char *text, size_t len, uint64_t at, bool meta,
                         struct batch_out *out)
{
    struct rawtext x;
    if (w->sh->raw_in_file && !meta && at <= RAWTEXT_MAX_AT && len && len <= RAWTEXT_MAX_LEN) {
        x.at = at;
        x.len = len;
    } else {
        sb_clear(&w->raw);
        rawtext_strip(&w->raw, text, len);
        x.at = load_worker_intern(w, sb_str(&w->raw), w->raw.len);
        x.len = 0;
    }
    VEC_PUSH(&out->raws, x);
    return (uint32_t)out->raws.n;
}

/* Whether a time in µs, read as ns, is written back as the same number:
 * the export prints ns / 1000 with at most three decimals. */
static bool us_exact(const cJSON *item, int64_t ns)
{
    if (!item || !cJSON_IsNumber(item))
        return false;
    double d = item->valuedouble;
    /* Whole microseconds print as the integer they are. */
    if (d == floor(d) && fabs(d) < 9.0e15)
        return true;
    /* ns and 1000 are exact doubles, so the quotient is the double nearest
     * ns / 1000, as strtod of its decimals would be. */
    if (ns > -(int64_t)TWO53 && ns < (int64_t)TWO53)
        return (double)ns / 1000.0 == d;
    char buf[32];
    uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(buf, sizeof(buf), "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000, a % 1000);
    return strtod(buf, NULL) == d;
}

/* Whether a pid or tid is written back as read: an integer, text that is
 * not a number, or digits in a string ("25738": *quoted) as the number
 * prints. */
static bool id_exact(const cJSON *item, int64_t num, uint32_t text, bool *quoted)
{
    *quoted = false;
    if (!item)
        return false;
    if (cJSON_IsNumber(item))
        return (double)num == item->valuedouble;
    if (text != IDX_NONE)
        return true;
    char buf[24];
    snprintf(buf, sizeof(buf), "%" PRId64, num);
    *quoted = true;
    return cJSON_IsString(item) && strcmp(buf, item->valuestring) == 0;
}

/* Whether the export (export.c) rebuilds the event exactly from what the
 * loader keeps: "ph", "cat" (when not empty), "name", "pid", "tid", "ts",
 * "dur" (X), "s": "t" (instants) and "args"; flow points "id" and "bp":
 * "e". Any other key, a key twice, or a value that would not be written
 * back as it was read makes the event keep its text (event.raw).
 * *quoted gets bit 0 for a quoted pid, bit 1 for a quoted tid. */
static bool rebuildable(const struct fields *f, char ph, const struct rowkey *key, int64_t ts,
                        int64_t dur, uint8_t *quoted)
{
    bool flow = ph == 's' || ph == 't' || ph == 'f';
    if (f->odd)
        return false;
    unsigned seen = f->keys;
    bool allowed = (!(seen & (1u << 6)) || !flow) && (!(seen & (1u << 7)) || ph == 'X') &&
                   (!(seen & (1u << 8)) || ph == 'i' || ph == 'I') && (!(seen & (3u << 9)) || flow);
    if (!allowed || strlen(f->ph->valuestring) != 1 || !f->name || !cJSON_IsString(f->name))
        return false;
    if (flow ? !f->cat : f->cat && !f->cat->valuestring[0])
        return false;
    bool qp, qt;
    if (!id_exact(f->pid, key->pid, key->pid_text, &qp) ||
        !id_exact(f->tid, key->tid, key->tid_text, &qt) || !us_exact(f->ts, ts))
        return false;
    *quoted = (uint8_t)(qp | qt << 1);
    if (ph == 'X' && !us_exact(f->dur, dur))
        return false;
    if ((ph == 'i' || ph == 'I') &&
        (!f->scope || !cJSON_IsString(f->scope) || strcmp(f->scope->valuestring, "t") != 0))
        return false;
    if (flow) {
        double id = f->id && cJSON_IsNumber(f->id) ? f->id->valuedouble : -1;
        if (!(id >= 0 && id < TWO53 && id == floor(id)))
            return false;
        if (f->bp && (!cJSON_IsString(f->bp) || strcmp(f->bp->valuestring, "e") != 0))
            return false;
    }
    return true;
}

static void convert_event(struct worker *w, const cJSON *obj, const char *text, size_t len,
                          const char *orig, uint64_t offset, struct batch_out *out)
{
    struct fields f;
    collect_fields(obj, &f);

    if (!f.ph || !cJSON_IsString(f.ph) || !f.ph->valuestring[0]) {
        fail(out, ST_FORMAT, offset, "expected a \"ph\" string in the trace event");
        return;
    }
    char ph = f.ph->valuestring[0];
    enum ev_kind kind;
    switch (ph) {
    case 'X':
        kind = EVK_OTHER;
        break;
    case 'i':
    case 'I':
        kind = EVK_INSTANT;
        break;
    case 'C':
        kind = EVK_COUNTER;
        break;
    case 'M':
        kind = EVK_META;
        break;
    case 's':
    case 't':
    case 'f':
        kind = EVK_OTHER;
        break;
    default:
        /* Kept as written, for the export of the whole trace. */
        out->n_unsupported++;
        VEC_PUSH(&out->others, keep_raw(w, orig, len, offset, false, out));
        VEC_PUSH(&out->held, (uint32_t)out->ev.n);
        return;
    }
    if (f.cat && !cJSON_IsString(f.cat)) {
        fail(out, ST_FORMAT, offset, "expected a string for \"cat\"");
        return;
    }
    if (f.name && !cJSON_IsString(f.name))
        soft_fail(out, offset,
                  "expected a string for \"name\" (the event is kept, named by the "
                  "value's JSON text)");
    uint32_t cat_id = f.cat ? intern_item_string(w, f.cat) : 0;
    if (ph == 'X')
        kind = worker_kind(w, cat_id, f.cat ? f.cat->valuestring : "");
    /* PyTorch's legacy (non-Kineto) profiler writes its CPU ops without a
     * "cat", on the process "CPU functions" (docs/metrics.md §5.8). */
    if (ph == 'X' && !f.cat && cJSON_IsString(f.pid) &&
        strcmp(f.pid->valuestring, "CPU functions") == 0)
        kind = EVK_CPU_OP;

    int64_t ts = 0, dur = 0;
    if (f.ts) {
        if (!time_field(f.ts, "ts", offset, &ts, out))
            return;
    } else if (ph != 'M') {
        fail(out, ST_FORMAT, offset, "expected \"ts\" in a '%c' event", ph);
        return;
    }
    if (ph == 'X' && f.dur) {
        if (!time_field(f.dur, "dur", offset, &dur, out))
            return;
        if (dur < 0) {
            fail(out, ST_FORMAT, offset, "expected a non-negative \"dur\"");
            return;
        }
        /* Ends within the range too, so that any two times subtract
         * without overflow. */
        if (dur >= LOAD_MAX_TIME_NS - ts) {
            fail(out, ST_LIMIT, offset,
                 "expected the event to end (ts + dur) within +-%" PRId64 " microseconds "
                 "(2^62 ns), found %.17g",
                 LOAD_MAX_TIME_NS / 1000, ((double)ts + (double)dur) / 1000.0);
            return;
        }
    }

    struct rowkey key;
    if (!load_worker_id_value(w, f.pid, &key.pid, &key.pid_text)) {
        fail(out, ST_FORMAT, offset, "expected a number or string for \"pid\"");
        return;
    }
    if (!load_worker_id_value(w, f.tid, &key.tid, &key.tid_text)) {
        fail(out, ST_FORMAT, offset, "expected a number or string for \"tid\"");
        return;
    }
    key.cls = evk_on_device(kind) ? ROW_DEVICE : ROW_HOST;
    uint32_t row = load_worker_row(w, &key);

    /* Parsed from a copy with "\u0000" rewritten: only the text is exact. */
    bool exact = orig == text;
    uint8_t quoted = 0;
    if (ph == 's' || ph == 't' || ph == 'f') {
        add_flow(w, &f, ph, row, ts, out);
        VEC_PUSH(&out->held, (uint32_t)out->ev.n);
        struct flow *fl = &out->flows.v[out->flows.n - 1];
        if (exact && rebuildable(&f, ph, &key, ts, 0, &quoted))
            fl->quoted =
                (uint8_t)((quoted & 1 ? FLOW_PID_QUOTED : 0) | (quoted & 2 ? FLOW_TID_QUOTED : 0));
        else
            fl->raw = keep_raw(w, orig, len, offset, false, out);
        return;
    }
    if (f.args && !cJSON_IsObject(f.args)) {
        fail(out, ST_FORMAT, offset, "expected an object for \"args\"");
        return;
    }

    struct event *e = VEC_ADD(&out->ev);
    e->ts = ts;
    e->dur = dur;
    e->name = name_of(w, f.name);
    e->cat = cat_id;
    e->row = row;
    e->parent = e->first_child = e->next_sibling = IDX_NONE;
    e->kind = (uint8_t)kind;
    e->ph = (uint8_t)ph;

    struct hot h;
    hot_init(&h);
    size_t args_at = out->args.n;
    if (f.args) {
        e->args = (uint32_t)args_at;
        pack_args(w, f.args, text, len, out, &h);
    } else {
        e->args = IDX_NONE;
    }
    VEC_PUSH(&out->arglen, (uint32_t)(out->args.n - args_at));
    const char *name = f.name && cJSON_IsString(f.name) ? f.name->valuestring : "";
    /* MTIA's work on a stream is its kernels (devkind.h); the row is a
     * device row either way. */
    if (kind == EVK_DEVICE_OTHER && devkind_is_mtia_work(f.cat->valuestring, h.has_stream))
        e->kind = (uint8_t)(kind = EVK_KERNEL);
    uint16_t flags = 0;
    e->aux = add_aux(kind, &h, name, out, &flags);
    if (exact && rebuildable(&f, ph, &key, ts, dur, &quoted))
        flags |= (quoted & 1 ? EVF_PID_QUOTED : 0) | (quoted & 2 ? EVF_TID_QUOTED : 0);
    else
        e->raw = keep_raw(w, orig, len, offset, ph == 'M', out);
    e->flags = flags;
}

void load_worker_parse_batch(struct worker *w, const char *buf, size_t len, uint64_t offset,
                             struct batch_out *out)
{
    const char *p = buf, *end = buf + len;
    /* Strings keep invalid UTF-8 as it is (shown as U+FFFD); the first bad
     * byte is reported. A batch is whole events, so no sequence is cut. */
    size_t bad_utf8 = utf8_find_invalid(buf, len);
    if (bad_utf8 < len)
        soft_fail(out, offset + bad_utf8, "%s", LOAD_MSG_BAD_UTF8);
    /* An event holding a "\u0000" escape is parsed from a copy where it
     * reads "\u2400" (json_replace_nul_escapes), so that "a\u0000b" and
     * "a\u0000c" stay two names. Batches without one (nearly all) pay one
     * memchr for backslashes. */
    const char *nul_esc = json_find_nul_escape(buf, buf, end);
    load_hooks_set_arena(&w->arena);
    while (p < end && out->err_status == ST_OK) {
        while (p < end && (json_is_ws((unsigned char)*p) || *p == ','))
            p++;
        if (p >= end)
            break;
        const char *text = p;
        size_t text_len = (size_t)(end - p);
        if (nul_esc && nul_esc < p)
            nul_esc = json_find_nul_escape(buf, p, end);
        if (nul_esc) {
            const char *q = json_scan_value(p, end, true);
            if (q && nul_esc < q) {
                sb_clear(&w->esc);
                sb_putn(&w->esc, p, (size_t)(q - p));
                json_replace_nul_escapes(w->esc.s, w->esc.len);
                text = w->esc.s;
                text_len = w->esc.len;
            }
        }
        const char *pe = NULL;
        tls_over_budget = false;
        /* Strict JSON (nearly every event) parses without cJSON's literal
         * compares and locale-aware strtod; the rest, and every fault, is
         * cJSON's to read and to report as before. */
        cJSON *obj = jsonfast_parse(text, text_len, &w->arena, LOAD_MAX_EVENT_MEMORY, &pe);
        bool strict = obj != NULL;
        if (!strict) {
            arena_reset(&w->arena);
            pe = NULL;
            obj = cJSON_ParseWithLengthOpts(text, text_len, &pe, 0);
        }
        if (pe)
            pe = p + (pe - text); /* the copy has the same length */
        uint64_t at = offset + (uint64_t)(p - buf);
        if (!obj && tls_over_budget) {
            fail(out, ST_LIMIT, at,
                 "a trace event that needs more than %u MiB of memory to parse (it holds millions "
                 "of values): torchtop refuses it",
                 LOAD_MAX_EVENT_MEMORY >> 20);
            break;
        }
        char why[96];
        if (!obj) {
            uint64_t bad = pe && pe >= buf && pe <= end ? offset + (uint64_t)(pe - buf) : at;
            if (jsonfault_describe(p, pe, end, why, sizeof(why)))
                fail(out, ST_LIMIT, bad, "a trace event %s", why);
            else if (why[0])
                fail(out, ST_FORMAT, bad, "invalid JSON in a trace event (%s)", why);
            else
                fail(out, ST_FORMAT, bad, "invalid JSON in a trace event");
            break;
        }
        /* cJSON takes NUL bytes for whitespace, and "0001" and "5." for
         * numbers; JSON does not. */
        const char *nul = strict ? NULL : memchr(p, '\0', (size_t)(pe - p));
        const char *num = nul || strict ? NULL : jsonfault_number(p, pe, why, sizeof(why));
        if (nul)
            fail(out, ST_FORMAT, offset + (uint64_t)(nul - buf),
                 "unexpected NUL byte in a trace event");
        else if (num)
            fail(out, ST_FORMAT, offset + (uint64_t)(num - buf),
                 "invalid JSON in a trace event (%s)", why);
        else if (!cJSON_IsObject(obj))
            fail(out, ST_FORMAT, at, "expected a JSON object for a trace event");
        else
            convert_event(w, obj, text, (size_t)(pe - p), p, at, out);
        arena_reset(&w->arena);
        p = pe;
    }
    load_hooks_set_arena(NULL);
}
