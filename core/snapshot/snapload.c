/* Loading a memory snapshot pickle into struct snapshot. A seal hook turns
 * frame, stack, trace-entry, segment, block and annotation containers into
 * compact records the moment the pickle completes them; the top-level dict
 * is walked once at the end. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/snapshot/pickle.h"
#include "core/snapshot/snapintern.h"
#include "core/snapshot/snapshot.h"
#include "core/base/xalloc.h"

/* Keys, interned first so that their strtab ids are 1..K__COUNT-1. */
/* clang-format off */
#define KEY_INFO(_)                                                            \
    _(K_FILENAME, "filename") _(K_LINE, "line") _(K_NAME, "name")              \
    _(K_ACTION, "action") _(K_ADDR, "addr") _(K_SIZE, "size")                  \
    _(K_STREAM, "stream") _(K_TIME_US, "time_us") _(K_FRAMES, "frames")        \
    _(K_COMPILE_CONTEXT, "compile_context") _(K_USER_METADATA, "user_metadata") \
    _(K_DEVICE_FREE, "device_free") _(K_DEVICE, "device")                      \
    _(K_ADDRESS, "address") _(K_TOTAL_SIZE, "total_size")                      \
    _(K_ALLOCATED_SIZE, "allocated_size") _(K_ACTIVE_SIZE, "active_size")      \
    _(K_REQUESTED_SIZE, "requested_size") _(K_SEGMENT_TYPE, "segment_type")    \
    _(K_SEGMENT_POOL_ID, "segment_pool_id") _(K_IS_EXPANDABLE, "is_expandable") \
    _(K_BLOCKS, "blocks") _(K_STATE, "state") _(K_HISTORY, "history")          \
    _(K_REAL_SIZE, "real_size") _(K_STAGE, "stage") _(K_SEGMENTS, "segments")  \
    _(K_DEVICE_TRACES, "device_traces") _(K_ALLOCATOR_SETTINGS, "allocator_settings") \
    _(K_EXTERNAL_ANNOTATIONS, "external_annotations")                          \
    _(K_HOST_SEGMENTS, "host_segments") _(K_HOST_TRACES, "host_traces")
/* clang-format on */

enum key {
    K_EMPTY,
#define K_ENUM(id, name) id,
    KEY_INFO(K_ENUM)
#undef K_ENUM
        K__COUNT
};

static const char *const key_names[] = {"",
#define K_NAME_(id, name) name,
                                        KEY_INFO(K_NAME_)
#undef K_NAME_
};

#define BIT(k) (1ull << (k))
#define FRAME_KEYS (BIT(K_FILENAME) | BIT(K_LINE) | BIT(K_NAME))
#define ENTRY_KEYS                                                                                 \
    (BIT(K_ACTION) | BIT(K_ADDR) | BIT(K_SIZE) | BIT(K_STREAM) | BIT(K_TIME_US) | BIT(K_FRAMES) |  \
     BIT(K_COMPILE_CONTEXT) | BIT(K_USER_METADATA) | BIT(K_DEVICE_FREE))
#define SEGMENT_KEYS                                                                               \
    (BIT(K_DEVICE) | BIT(K_ADDRESS) | BIT(K_TOTAL_SIZE) | BIT(K_ALLOCATED_SIZE) |                  \
     BIT(K_ACTIVE_SIZE) | BIT(K_REQUESTED_SIZE) | BIT(K_STREAM) | BIT(K_SEGMENT_TYPE) |            \
     BIT(K_SEGMENT_POOL_ID) | BIT(K_IS_EXPANDABLE) | BIT(K_FRAMES) | BIT(K_BLOCKS))
#define BLOCK_KEYS                                                                                 \
    (BIT(K_ADDRESS) | BIT(K_SIZE) | BIT(K_REQUESTED_SIZE) | BIT(K_STATE) | BIT(K_FRAMES) |         \
     BIT(K_HISTORY))
#define ANNOT_KEYS (BIT(K_STAGE) | BIT(K_NAME) | BIT(K_DEVICE) | BIT(K_TIME_US))
#define TOP_KEYS                                                                                   \
    (BIT(K_SEGMENTS) | BIT(K_DEVICE_TRACES) | BIT(K_ALLOCATOR_SETTINGS) |                          \
     BIT(K_EXTERNAL_ANNOTATIONS) | BIT(K_HOST_SEGMENTS) | BIT(K_HOST_TRACES))

/* What the seal hook makes of containers (pk_value.sub of PK_USER). */
enum user_kind { UK_FRAME = 1, UK_STACK, UK_ENTRY, UK_SEGMENT, UK_BLOCK, UK_ANNOT };

/* Sizes in a snapshot (and their sums over every record, shared ones counted
 * each time) stay below this, so that every total and running replay value
 * fits an int64. */
#define SNAP_MAX_BYTES (UINT64_C(1) << 62)
/* Times (time_us) stay within +-this, so that their differences fit. */
#define SNAP_MAX_TIME (INT64_C(1) << 62)
/* finish() copies a segment, block, trace entry or annotation once for each
 * reference to it. A pickle may name one record many times through its
 * memo, a few bytes each; the copies may number at most twice the records
 * the file spells out, plus this many. */
#define SNAP_SHARED_SLACK 65536
/* More records than this would overflow the model's uint32 indices. */
#define SNAP_MAX_RECORDS (UINT32_C(1) << 31)
/* device_traces may list this many devices (as segments may name). */
#define SNAP_MAX_DEVICES 4096

/* What a value turns into when finish() copies records out of it: the
 * records (segments, blocks, trace entries, annotations), and the bytes
 * their size fields add up to. Frames and stacks are interned and stay
 * shared, so they cost nothing. Sums saturate at UINT64_MAX. */
struct cost {
    uint64_t records;
    uint64_t bytes;
};

struct pend_segment {
    struct snap_segment seg;
    uint64_t offset; /* where its dict starts, for messages */
    int64_t device;
    uint32_t first_ref, nrefs; /* pending blocks: seg_blocks[first_ref .. +nrefs) */
    struct cost cost;          /* itself and its blocks */
};

struct pend_block {
    struct snap_block b;
    bool has_address;
};

struct u32vec {
    uint32_t *v;
    size_t n, cap;
};

struct builder {
    struct snapshot *s;
    uint32_t action_ids[SA__COUNT]; /* strtab ids of the action names */
    uint32_t state_ids[BS__COUNT];
    struct snapintern in;
    VEC(uint32_t) tmp;
    /* Records in the order the pickle completed them. */
    VEC(struct snap_entry) entries;
    VEC(struct pend_segment) segs;
    VEC(uint32_t) seg_blocks;
    VEC(struct pend_block) blocks;
    VEC(struct snap_annotation) annots;
    VEC(struct cost) costs; /* per pickle container id, set when it is sealed */
    /* The first value the seal hook refused (ST_OK while there is none). */
    struct pickle *p;
    struct errinfo *err;
    enum status st;
};

static inline struct pk_value user(uint8_t kind, uint32_t id)
{
    return (struct pk_value){.tag = PK_USER, .sub = kind, .id = id};
}

static inline bool is_user(struct pk_value v, uint8_t kind)
{
    return v.tag == PK_USER && v.sub == kind;
}

/* ------------------------------------------------------------------------ */
/* Limits                                                                   */
/* ------------------------------------------------------------------------ */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void cost_add(struct cost *c, struct cost d)
{
    c->records = sat_add(c->records, d.records);
    c->bytes = sat_add(c->bytes, d.bytes);
}

/* Refuse the snapshot at the opcode being run (the first refusal wins). */
static void ATTR_FORMAT(2, 3) refuse(struct builder *b, const char *fmt, ...)
{
    if (b->st != ST_OK)
        return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    b->st = ST_LIMIT;
    errinfo_set_at(b->err, ST_LIMIT, b->s->path, pickle_offset_what(b->p), pickle_offset(b->p),
                   "%s", msg);
}

/* A size field of a record: a non-negative integer up to SNAP_MAX_BYTES.
 * None and values of other types read as 0 (counted as bad values). */
static uint64_t get_size(struct builder *b, struct pk_value v, const char *what, const char *field)
{
    if (v.tag == PK_INT && v.i < 0) {
        refuse(b, "a %s with %s %lld: sizes are never negative", what, field, (long long)v.i);
        return 0;
    }
    uint64_t u = 0;
    if (!pk_as_u64(v, &u)) {
        if (v.tag != PK_NONE)
            b->s->n_bad_values++;
        return 0;
    }
    if (u > SNAP_MAX_BYTES)
        refuse(b, "a %s with %s %llu: sizes above 2^62 bytes are refused", what, field,
               (unsigned long long)u);
    return u;
}

/* A time_us field: an integer within +-SNAP_MAX_TIME. */
static int64_t get_time(struct builder *b, struct pk_value v, const char *what)
{
    int64_t t = 0;
    if (v.tag == PK_UINT || (pk_as_i64(v, &t) && (t <= -SNAP_MAX_TIME || t >= SNAP_MAX_TIME))) {
        if (v.tag == PK_UINT)
            refuse(b, "a %s with time_us %llu: times beyond +-2^62 us are refused", what,
                   (unsigned long long)v.u);
        else
            refuse(b, "a %s with time_us %lld: times beyond +-2^62 us are refused", what,
                   (long long)t);
        return 0;
    }
    if (v.tag != PK_INT && v.tag != PK_BOOL && v.tag != PK_NONE)
        b->s->n_bad_values++;
    return t;
}

/* An address range [addr, addr + size) must not wrap past 2^64. */
static void check_range(struct builder *b, uint64_t addr, uint64_t size, const char *what)
{
    if (size > UINT64_MAX - addr)
        refuse(b, "a %s at 0x%llx of %llu bytes runs past the end of the 64-bit address space",
               what, (unsigned long long)addr, (unsigned long long)size);
}

/* The cost of a value as an item of a container. */
static struct cost cost_of(struct builder *b, struct pk_value v)
{
    if (pk_is_container(v))
        return v.id < b->costs.n ? b->costs.v[v.id] : (struct cost){0, 0};
    if (v.tag != PK_USER)
        return (struct cost){0, 0};
    switch (v.sub) {
    case UK_ENTRY:
        return (struct cost){1, b->entries.v[v.id].size};
    case UK_SEGMENT:
        return b->segs.v[v.id].cost;
    case UK_BLOCK: {
        const struct snap_block *k = &b->blocks.v[v.id].b;
        return (struct cost){1, k->size + k->requested_size};
    }
    case UK_ANNOT:
        return (struct cost){1, 0};
    default:
        return (struct cost){0, 0};
    }
}

/* Check what a sealed value will be copied into against the limits. */
static void check_cost(struct builder *b, struct cost c)
{
    uint64_t spelled = b->entries.n + b->blocks.n + b->segs.n + b->annots.n;
    uint64_t allowed = MIN(2 * spelled + SNAP_SHARED_SLACK, SNAP_MAX_RECORDS);
    if (c.records > allowed)
        refuse(b,
               "shared (memoized) references would copy the %llu segments, blocks and trace "
               "entries read so far into %s%llu; torchtop refuses more than %llu (twice the "
               "records plus %d)",
               (unsigned long long)spelled, c.records == UINT64_MAX ? "more than " : "",
               (unsigned long long)c.records, (unsigned long long)allowed, SNAP_SHARED_SLACK);
    else if (c.bytes > SNAP_MAX_BYTES)
        refuse(b, "the sizes of the segments, blocks and trace entries add up to more than 2^62 "
                  "bytes: more than torchtop computes with");
}

/* ------------------------------------------------------------------------ */
/* Field helpers                                                            */
/* ------------------------------------------------------------------------ */

static void count_unknown(struct snapshot *s, const char *where, uint32_t key)
{
    for (size_t i = 0; i < s->unknown.n; i++) {
        if (s->unknown.v[i].key == key && strcmp(s->unknown.v[i].where, where) == 0) {
            s->unknown.v[i].count++;
            return;
        }
    }
    VEC_PUSH(&s->unknown, ((struct snap_unknown){.where = where, .key = key, .count = 1}));
}

static void count_unknown_keys(struct builder *b, const struct pk_value *it, size_t n,
                               uint64_t allowed, const char *where)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        if (it[i].tag != PK_STR) {
            b->s->n_bad_values++;
            continue;
        }
        if (it[i].id >= K__COUNT || !(allowed & BIT(it[i].id)))
            count_unknown(b->s, where, it[i].id);
    }
}

static uint64_t get_u64(struct builder *b, struct pk_value v)
{
    uint64_t u = 0;
    if (!pk_as_u64(v, &u) && v.tag != PK_NONE)
        b->s->n_bad_values++;
    return u;
}

static int64_t get_i64(struct builder *b, struct pk_value v)
{
    int64_t i = 0;
    if (!pk_as_i64(v, &i) && v.tag != PK_NONE)
        b->s->n_bad_values++;
    return i;
}

static uint32_t get_str(struct builder *b, struct pk_value v)
{
    if (v.tag == PK_STR)
        return v.id;
    if (v.tag != PK_NONE)
        b->s->n_bad_values++;
    return 0;
}

static uint32_t get_stack(struct builder *b, struct pk_value v)
{
    if (is_user(v, UK_STACK))
        return v.id;
    if (v.tag != PK_NONE)
        b->s->n_bad_values++;
    return 0;
}

/* Items of a list value (empty lists arrive as the empty stack). */
static const struct pk_value *list_items(struct builder *b, struct pickle *p, struct pk_value v,
                                         size_t *n)
{
    *n = 0;
    if (is_user(v, UK_STACK) && v.id == 0)
        return NULL;
    if (v.tag != PK_LIST && v.tag != PK_TUPLE) {
        if (v.tag != PK_NONE)
            b->s->n_bad_values++;
        return NULL;
    }
    return pk_items(p, v, n);
}

/* ------------------------------------------------------------------------ */
/* The seal hook                                                            */
/* ------------------------------------------------------------------------ */

static struct pk_value seal_entry(struct builder *b, const struct pk_value *f, uint64_t have)
{
    struct snap_entry e = {.action = SA_OTHER};
    if (f[K_ACTION].tag == PK_STR) {
        e.action_name = f[K_ACTION].id;
        for (int a = 0; a < SA_OTHER; a++)
            if (b->action_ids[a] == e.action_name)
                e.action = (uint8_t)a;
    } else {
        b->s->n_bad_values++;
    }
    if (have & BIT(K_ADDR))
        e.addr = get_u64(b, f[K_ADDR]);
    if (have & BIT(K_DEVICE_FREE))
        e.addr = get_u64(b, f[K_DEVICE_FREE]);
    if (have & BIT(K_SIZE))
        e.size = get_size(b, f[K_SIZE], "trace entry", "size");
    if (e.action != SA_OOM)
        check_range(b, e.addr, e.size, "trace entry");
    if (have & BIT(K_STREAM))
        e.stream = get_i64(b, f[K_STREAM]);
    if (have & BIT(K_TIME_US)) {
        e.time_us = get_time(b, f[K_TIME_US], "trace entry");
        e.flags |= SEF_TIME;
    }
    if (have & BIT(K_FRAMES))
        e.frames = get_stack(b, f[K_FRAMES]);
    if (have & BIT(K_COMPILE_CONTEXT))
        e.compile_context = get_str(b, f[K_COMPILE_CONTEXT]);
    if (have & BIT(K_USER_METADATA))
        e.user_metadata = get_str(b, f[K_USER_METADATA]);
    VEC_PUSH(&b->entries, e);
    return user(UK_ENTRY, (uint32_t)b->entries.n - 1);
}

static struct pk_value seal_segment(struct builder *b, struct pickle *p, const struct pk_value *f,
                                    uint64_t have, uint64_t offset)
{
    struct pend_segment ps = {.first_ref = (uint32_t)b->seg_blocks.n, .offset = offset};
    struct snap_segment *g = &ps.seg;
    if (have & BIT(K_DEVICE))
        ps.device = get_i64(b, f[K_DEVICE]);
    if (have & BIT(K_ADDRESS))
        g->address = get_u64(b, f[K_ADDRESS]);
    if (have & BIT(K_TOTAL_SIZE))
        g->total_size = get_size(b, f[K_TOTAL_SIZE], "segment", "total_size");
    if (have & BIT(K_ALLOCATED_SIZE))
        g->allocated_size = get_size(b, f[K_ALLOCATED_SIZE], "segment", "allocated_size");
    if (have & BIT(K_ACTIVE_SIZE))
        g->active_size = get_size(b, f[K_ACTIVE_SIZE], "segment", "active_size");
    if (have & BIT(K_REQUESTED_SIZE))
        g->requested_size = get_size(b, f[K_REQUESTED_SIZE], "segment", "requested_size");
    check_range(b, g->address, g->total_size, "segment");
    ps.cost = (struct cost){1, g->total_size};
    cost_add(&ps.cost, (struct cost){0, g->allocated_size});
    cost_add(&ps.cost, (struct cost){0, g->active_size});
    cost_add(&ps.cost, (struct cost){0, g->requested_size});
    if (have & BIT(K_STREAM))
        g->stream = get_i64(b, f[K_STREAM]);
    if (have & BIT(K_SEGMENT_TYPE))
        g->segment_type = get_str(b, f[K_SEGMENT_TYPE]);
    if (have & BIT(K_IS_EXPANDABLE))
        g->is_expandable = f[K_IS_EXPANDABLE].tag == PK_BOOL && f[K_IS_EXPANDABLE].i;
    if (have & BIT(K_FRAMES))
        g->frames = get_stack(b, f[K_FRAMES]);
    if (have & BIT(K_SEGMENT_POOL_ID)) {
        size_t n;
        const struct pk_value *it = list_items(b, p, f[K_SEGMENT_POOL_ID], &n);
        for (size_t i = 0; i < n && i < 2; i++)
            g->pool_id[i] = get_i64(b, it[i]);
    }
    if (have & BIT(K_BLOCKS)) {
        size_t n;
        const struct pk_value *it = list_items(b, p, f[K_BLOCKS], &n);
        for (size_t i = 0; i < n; i++) {
            if (is_user(it[i], UK_BLOCK)) {
                VEC_PUSH(&b->seg_blocks, it[i].id);
                cost_add(&ps.cost, cost_of(b, it[i]));
            } else {
                b->s->n_bad_values++;
            }
        }
    }
    ps.nrefs = (uint32_t)(b->seg_blocks.n - ps.first_ref);
    check_cost(b, ps.cost);
    VEC_PUSH(&b->segs, ps);
    return user(UK_SEGMENT, (uint32_t)b->segs.n - 1);
}

static struct pk_value seal_block(struct builder *b, struct pickle *p, const struct pk_value *f,
                                  uint64_t have)
{
    struct pend_block pb = {.has_address = (have & BIT(K_ADDRESS)) != 0};
    struct snap_block *k = &pb.b;
    k->state = BS_OTHER;
    if (have & BIT(K_ADDRESS))
        k->address = get_u64(b, f[K_ADDRESS]);
    if (have & BIT(K_SIZE))
        k->size = get_size(b, f[K_SIZE], "block", "size");
    if (have & BIT(K_REQUESTED_SIZE))
        k->requested_size = get_size(b, f[K_REQUESTED_SIZE], "block", "requested_size");
    if (have & BIT(K_ADDRESS))
        check_range(b, k->address, k->size, "block");
    k->state_name = get_str(b, f[K_STATE]);
    for (int st = 0; st < BS_OTHER; st++)
        if (b->state_ids[st] == k->state_name)
            k->state = (uint8_t)st;
    if (have & BIT(K_FRAMES))
        k->frames = get_stack(b, f[K_FRAMES]);
    /* Legacy blocks keep their context in history[0] (memory_viz does the same). */
    size_t nh = 0;
    const struct pk_value *h = (have & BIT(K_HISTORY)) ? list_items(b, p, f[K_HISTORY], &nh) : NULL;
    struct pk_value v;
    if (!(have & BIT(K_FRAMES)) && nh > 0) {
        if (pk_dict_get(p, h[0], K_FRAMES, &v))
            k->frames = get_stack(b, v);
        if (k->requested_size == 0 && pk_dict_get(p, h[0], K_REAL_SIZE, &v))
            k->requested_size = get_size(b, v, "block", "history real_size");
    }
    if (k->requested_size == 0 && !(have & BIT(K_REQUESTED_SIZE)))
        k->requested_size = k->size;
    VEC_PUSH(&b->blocks, pb);
    return user(UK_BLOCK, (uint32_t)b->blocks.n - 1);
}

static struct pk_value seal_annotation(struct builder *b, const struct pk_value *f, uint64_t have)
{
    struct snap_annotation a = {0};
    a.stage = get_str(b, f[K_STAGE]);
    if (have & BIT(K_NAME))
        a.name = get_str(b, f[K_NAME]);
    if (have & BIT(K_DEVICE))
        a.device = (int32_t)get_i64(b, f[K_DEVICE]);
    if (have & BIT(K_TIME_US))
        a.time_us = get_time(b, f[K_TIME_US], "annotation");
    VEC_PUSH(&b->annots, a);
    return user(UK_ANNOT, (uint32_t)b->annots.n - 1);
}

static void seal_dict(struct builder *b, struct pickle *p, struct pk_value *v)
{
    size_t n;
    const struct pk_value *it = pk_items(p, *v, &n);
    struct pk_value f[K__COUNT];
    uint64_t have = 0;
    bool other = false;
    for (size_t i = 0; i + 1 < n; i += 2) {
        if (it[i].tag == PK_STR && it[i].id > 0 && it[i].id < K__COUNT) {
            f[it[i].id] = it[i + 1];
            have |= BIT(it[i].id);
        } else {
            other = true;
        }
    }
    uint64_t allowed;
    const char *where;
    if ((have & FRAME_KEYS) == FRAME_KEYS) {
        if (f[K_FILENAME].tag != PK_STR || f[K_NAME].tag != PK_STR || f[K_LINE].tag != PK_INT)
            return; /* not a frame after all: stays a dict */
        *v = user(UK_FRAME,
                  snapintern_frame(&b->in, b->s, f[K_FILENAME].id, f[K_NAME].id, f[K_LINE].i));
        allowed = FRAME_KEYS;
        where = "frame";
    } else if (have & BIT(K_ACTION)) {
        *v = seal_entry(b, f, have);
        allowed = ENTRY_KEYS;
        where = "trace entry";
    } else if (have & (BIT(K_BLOCKS) | BIT(K_TOTAL_SIZE))) {
        *v = seal_segment(b, p, f, have, pk_offset(p, *v));
        allowed = SEGMENT_KEYS;
        where = "segment";
    } else if (have & BIT(K_STATE)) {
        *v = seal_block(b, p, f, have);
        allowed = BLOCK_KEYS;
        where = "block";
    } else if (have & BIT(K_STAGE)) {
        *v = seal_annotation(b, f, have);
        allowed = ANNOT_KEYS;
        where = "annotation";
    } else {
        return;
    }
    if (other || (have & ~allowed))
        count_unknown_keys(b, it, n, allowed, where);
}

static void seal_list(struct builder *b, struct pickle *p, struct pk_value *v)
{
    size_t n;
    const struct pk_value *it = pk_items(p, *v, &n);
    b->tmp.n = 0;
    for (size_t i = 0; i < n; i++) {
        if (!is_user(it[i], UK_FRAME))
            return;
        VEC_PUSH(&b->tmp, it[i].id);
    }
    *v = user(UK_STACK, n ? snapintern_stack(&b->in, b->s, b->tmp.v, n) : 0);
}

/* The cost of a container that stays one: that of its items. */
static void seal_cost(struct builder *b, struct pickle *p, struct pk_value v)
{
    size_t n;
    const struct pk_value *it = pk_items(p, v, &n);
    struct cost c = {0, 0};
    for (size_t i = 0; i < n; i++)
        cost_add(&c, cost_of(b, it[i]));
    if (v.id >= b->costs.n) {
        VEC_RESERVE(&b->costs, v.id + 1);
        memset(b->costs.v + b->costs.n, 0, (v.id + 1 - b->costs.n) * sizeof(*b->costs.v));
        b->costs.n = v.id + 1;
    }
    b->costs.v[v.id] = c;
    check_cost(b, c);
}

static enum status seal_hook(void *ud, struct pickle *p, struct pk_value *v, struct errinfo *err)
{
    struct builder *b = ud;
    (void)err; /* b->err is the same */
    b->p = p;
    if (v->tag == PK_DICT)
        seal_dict(b, p, v);
    else if (v->tag == PK_LIST)
        seal_list(b, p, v);
    if (pk_is_container(*v) && b->st == ST_OK)
        seal_cost(b, p, *v);
    return b->st;
}

/* ------------------------------------------------------------------------ */
/* The top level                                                            */
/* ------------------------------------------------------------------------ */

static uint32_t add_device(struct snapshot *s, int32_t id, bool host)
{
    struct snap_device *d = VEC_ADD(&s->devices);
    d->id = id;
    d->host = host;
    return (uint32_t)s->devices.n - 1;
}

/* Append the entries a trace list refers to (one list level is flattened,
 * for host_traces of either shape) to order. */
static void collect_entries(struct builder *b, struct pickle *p, struct pk_value list,
                            struct u32vec *order, int depth)
{
    size_t n;
    const struct pk_value *it = list_items(b, p, list, &n);
    for (size_t i = 0; i < n; i++) {
        if (is_user(it[i], UK_ENTRY))
            VEC_PUSH(order, it[i].id);
        else if (depth == 0 && (it[i].tag == PK_LIST || is_user(it[i], UK_STACK)))
            collect_entries(b, p, it[i], order, 1);
        else
            b->s->n_bad_values++;
    }
}

static enum status add_segments(struct builder *b, struct pickle *p, struct pk_value list,
                                uint32_t host_dev, struct errinfo *err)
{
    struct snapshot *s = b->s;
    size_t n;
    const struct pk_value *it = list_items(b, p, list, &n);
    for (size_t i = 0; i < n; i++) {
        if (!is_user(it[i], UK_SEGMENT)) {
            s->n_bad_values++;
            continue;
        }
        const struct pend_segment *ps = &b->segs.v[it[i].id];
        struct snap_segment g = ps->seg;
        if (host_dev != IDX_NONE) {
            g.device = host_dev;
        } else if (ps->device < 0 || ps->device >= 4096) {
            errinfo_set_at(err, ST_FORMAT, s->path, pickle_offset_what(p), ps->offset,
                           "segment %zu is on device %lld (devices 0 to 4095 are supported)", i,
                           (long long)ps->device);
            return ST_FORMAT;
        } else {
            while (s->devices.n <= (size_t)ps->device)
                add_device(s, (int32_t)s->devices.n, false);
            g.device = (uint32_t)ps->device;
        }
        g.first_block = (uint32_t)s->blocks.n;
        g.nblocks = ps->nrefs;
        uint64_t tile = g.address;
        for (uint32_t r = 0; r < ps->nrefs; r++) {
            const struct pend_block *pb = &b->blocks.v[b->seg_blocks.v[ps->first_ref + r]];
            struct snap_block k = pb->b;
            if (!pb->has_address)
                k.address = tile;
            k.segment = (uint32_t)s->segments.n;
            tile = k.address + k.size;
            VEC_PUSH(&s->blocks, k);
        }
        VEC_PUSH(&s->segments, g);
    }
    return ST_OK;
}

static void add_settings(struct builder *b, struct pickle *p, struct pk_value d)
{
    struct snapshot *s = b->s;
    if (d.tag != PK_DICT) {
        s->n_bad_values++;
        return;
    }
    s->has_settings = true;
    size_t n;
    const struct pk_value *it = pk_items(p, d, &n);
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i + 1 < n; i += 2) {
        if (it[i].tag != PK_STR) {
            s->n_bad_values++;
            continue;
        }
        sb_clear(&sb);
        if (is_user(it[i + 1], UK_STACK) && it[i + 1].id == 0)
            sb_puts(&sb, "[]");
        else if (it[i + 1].tag == PK_STR)
            sb_puts(&sb, strtab_str(&s->strs, it[i + 1].id));
        else
            pickle_repr(p, it[i + 1], &sb);
        struct snap_setting st = {.key = it[i].id,
                                  .value = strtab_intern(&s->strs, sb_str(&sb), sb.len)};
        VEC_PUSH(&s->settings, st);
    }
    sb_free(&sb);
}

static enum status finish(struct builder *b, struct pickle *p, struct pk_value root,
                          struct errinfo *err)
{
    struct snapshot *s = b->s;
    struct pk_value f[K__COUNT];
    uint64_t have = 0;
    if (root.tag == PK_LIST || is_user(root, UK_STACK)) {
        s->legacy_list = true;
        f[K_SEGMENTS] = root;
        have = BIT(K_SEGMENTS);
    } else if (root.tag == PK_DICT) {
        size_t n;
        const struct pk_value *it = pk_items(p, root, &n);
        for (size_t i = 0; i + 1 < n; i += 2) {
            if (it[i].tag == PK_STR && it[i].id > 0 && it[i].id < K__COUNT &&
                (TOP_KEYS & BIT(it[i].id))) {
                f[it[i].id] = it[i + 1];
                have |= BIT(it[i].id);
            } else if (it[i].tag == PK_STR) {
                count_unknown(s, "top", it[i].id);
            }
        }
        if (!(have & (BIT(K_SEGMENTS) | BIT(K_DEVICE_TRACES)))) {
            errinfo_set_at(err, ST_FORMAT, s->path, pickle_offset_what(p), pk_offset(p, root),
                           "not a memory snapshot: the pickle's dict has no 'segments' or "
                           "'device_traces'");
            return ST_FORMAT;
        }
    } else {
        errinfo_set_at(err, ST_FORMAT, s->path, pickle_offset_what(p), pk_offset(p, root),
                       "not a memory snapshot: the pickle holds no dict or list of segments");
        return ST_FORMAT;
    }

    /* CUDA devices: one per device_traces list, and as many as segments name. */
    struct u32vec order = {0};
    struct u32vec dev_count = {0};
    if (have & BIT(K_DEVICE_TRACES)) {
        size_t n;
        const struct pk_value *it = list_items(b, p, f[K_DEVICE_TRACES], &n);
        if (n > SNAP_MAX_DEVICES) {
            errinfo_set_at(err, ST_LIMIT, s->path, pickle_offset_what(p),
                           pk_offset(p, f[K_DEVICE_TRACES]),
                           "device_traces lists %zu devices (devices 0 to %d are supported)", n,
                           SNAP_MAX_DEVICES - 1);
            VEC_FREE(&order);
            VEC_FREE(&dev_count);
            return ST_LIMIT;
        }
        for (size_t d = 0; d < n; d++) {
            add_device(s, (int32_t)d, false);
            size_t before = order.n;
            collect_entries(b, p, it[d], &order, 1);
            VEC_PUSH(&dev_count, (uint32_t)(order.n - before));
        }
    }
    enum status st = ST_OK;
    if (have & BIT(K_SEGMENTS))
        st = add_segments(b, p, f[K_SEGMENTS], IDX_NONE, err);
    uint32_t host = IDX_NONE;
    if (st == ST_OK && (have & (BIT(K_HOST_SEGMENTS) | BIT(K_HOST_TRACES)))) {
        host = add_device(s, -1, true);
        if (have & BIT(K_HOST_SEGMENTS))
            st = add_segments(b, p, f[K_HOST_SEGMENTS], host, err);
    }
    if (st != ST_OK) {
        VEC_FREE(&order);
        VEC_FREE(&dev_count);
        return st;
    }
    while (dev_count.n < s->devices.n)
        VEC_PUSH(&dev_count, 0);
    if (host != IDX_NONE && (have & BIT(K_HOST_TRACES))) {
        size_t before = order.n;
        collect_entries(b, p, f[K_HOST_TRACES], &order, 0);
        dev_count.v[host] = (uint32_t)(order.n - before);
    }

    /* Entries by device; files list them in completion order, so usually
     * the pending array is already the final one. */
    bool same = order.n == b->entries.n;
    for (size_t i = 0; same && i < order.n; i++)
        same = order.v[i] == i;
    if (same) {
        s->entries.v = b->entries.v;
        s->entries.n = b->entries.n;
        s->entries.cap = b->entries.cap;
        b->entries.v = NULL;
        b->entries.n = b->entries.cap = 0;
    } else {
        VEC_RESERVE(&s->entries, order.n);
        for (size_t i = 0; i < order.n; i++)
            s->entries.v[i] = b->entries.v[order.v[i]];
        s->entries.n = order.n;
    }
    uint32_t first = 0;
    for (size_t d = 0; d < s->devices.n; d++) {
        s->devices.v[d].first_entry = first;
        s->devices.v[d].nentries = dev_count.v[d];
        first += dev_count.v[d];
    }
    VEC_FREE(&order);
    VEC_FREE(&dev_count);

    if (have & BIT(K_ALLOCATOR_SETTINGS))
        add_settings(b, p, f[K_ALLOCATOR_SETTINGS]);
    if (have & BIT(K_EXTERNAL_ANNOTATIONS)) {
        size_t n;
        const struct pk_value *it = list_items(b, p, f[K_EXTERNAL_ANNOTATIONS], &n);
        for (size_t i = 0; i < n; i++) {
            if (is_user(it[i], UK_ANNOT))
                VEC_PUSH(&s->annotations, b->annots.v[it[i].id]);
            else
                s->n_bad_values++;
        }
    }
    return ST_OK;
}

static void builder_free(struct builder *b)
{
    snapintern_free(&b->in);
    VEC_FREE(&b->tmp);
    VEC_FREE(&b->entries);
    VEC_FREE(&b->segs);
    VEC_FREE(&b->seg_blocks);
    VEC_FREE(&b->blocks);
    VEC_FREE(&b->annots);
    VEC_FREE(&b->costs);
}

enum status snapshot_load_source(struct source *src, const struct snapshot_load_opts *opts,
                                 struct snapshot **out, struct errinfo *err)
{
    *out = NULL;
    struct snapshot *s = xcalloc(1, sizeof(*s));
    s->path = xstrdup(src->name);
    strtab_init(&s->strs);
    for (int k = 1; k < K__COUNT; k++)
        strtab_intern_cstr(&s->strs, key_names[k]);
    struct builder b = {.s = s, .err = err};
    for (int a = 0; a < SA_OTHER; a++)
        b.action_ids[a] = strtab_intern_cstr(&s->strs, snapshot_action_name(a));
    for (int st = 0; st < BS_OTHER; st++)
        b.state_ids[st] = strtab_intern_cstr(&s->strs, snapshot_state_name(st));
    snapintern_init(&b.in, s);

    struct pickle_opts po = {.strs = &s->strs, .seal = seal_hook, .seal_ud = &b};
    if (opts) {
        po.progress = opts->progress;
        po.progress_ud = opts->progress_ud;
        po.cancel = opts->cancel;
    }
    struct pickle *p = NULL;
    struct pk_value root;
    enum status st = pickle_load(src, &po, &p, &root, err);
    s->gzip = src->gzip;
    s->file_bytes = src->in_done;
    if (st == ST_OK) {
        s->protocol = pickle_protocol(p);
        st = finish(&b, p, root, err);
    }
    pickle_free(p);
    builder_free(&b);
    if (st != ST_OK) {
        snapshot_free(s);
        return st;
    }
    snapshot_index(s);
    *out = s;
    return ST_OK;
}

enum status snapshot_load_mem(const char *name, const void *buf, size_t len,
                              const struct snapshot_load_opts *opts, struct snapshot **out,
                              struct errinfo *err)
{
    struct source src;
    source_open_mem(&src, name, buf, len);
    enum status st = snapshot_load_source(&src, opts, out, err);
    source_close(&src);
    return st;
}
