/* The trace cache's file (tracecache.h): a loaded trace's arrays written as
 * they lie in memory, mapped back into place.
 *
 * File format (host byte order and struct layout; a cache written by a
 * build with another layout is refused, not converted):
 *
 *   struct tc_header          magic "TTCACHE\n", TC_VERSION, the byte-order
 *                             mark, the section count, the trace's key,
 *                             the file's length, the checksum of the
 *                             section table, then the header's own
 *                             checksum (of the bytes before it)
 *   struct tc_section[n]      per section, in enum tc_section_id order:
 *                             its id, element size, element count, offset
 *                             in the file (8-aligned, after the previous
 *                             section's end) and the checksum of its bytes
 *   sections                  each an array of fixed-size records:
 *     SCALARS     one struct tc_scalars: the trace's counts and spans
 *     EVENTS ... LAUNCH_GPU   the trace's arrays as in struct trace, indices
 *                             and offsets (never pointers); ROWS with
 *                             row.order zeroed, their orders one after the
 *                             other in ORDERS (row.nevents each)
 *     STR_LENS, STR_BYTES     trace.strs: each string's length, then every
 *                             string followed by a NUL, in id order
 *     VAL_LENS, VAL_BYTES     trace.vals, the same
 *     TOP                     trace.top as compact JSON text (empty: none)
 *
 * Reading checks, in order: the header (magic, version, byte order, its
 * checksum, the key, the file's length), the table (ids, element sizes,
 * offsets within the file, zeros between sections, nothing after the last,
 * its checksum). The file is then mapped, private, and the trace's arrays
 * point into the mapping (trace.mapped): nothing is copied. ROWS's checksum
 * is checked before the rows' orders are set in it; then, on two threads,
 * every other section's checksum and every index and offset
 * (tracecache_check.c). The string tables are interned again, which
 * rebuilds their hash maps, and the top-level keys parsed once all that
 * passed; the op name map (opname.h) is built again from the events.
 * TC_VERSION changes with any change to the records written here. */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/xalloc.h"
#include "core/trace/opname.h"
#include "core/trace/tracecache.h"
#include "core/trace/tracecache_internal.h"

#define TC_MAGIC "TTCACHE\n"
#define TC_VERSION 3u
#define TC_BYTE_ORDER 0x01020304u
#define TC_ALIGN 8u

/* The records are written as they lie in memory: a change to any of them
 * changes TC_VERSION (and these sizes). */
_Static_assert(sizeof(struct event) == 56, "struct event changed: bump TC_VERSION");
_Static_assert(sizeof(struct row) == 88, "struct row changed: bump TC_VERSION");
_Static_assert(sizeof(struct flow) == 40, "struct flow changed: bump TC_VERSION");
_Static_assert(sizeof(struct op_info) == 32, "struct op_info changed: bump TC_VERSION");
_Static_assert(sizeof(struct launch_info) == 24, "struct launch_info changed: bump TC_VERSION");
_Static_assert(sizeof(struct gpu_info) == 40, "struct gpu_info changed: bump TC_VERSION");
_Static_assert(sizeof(struct coll_info) == 40, "struct coll_info changed: bump TC_VERSION");
_Static_assert(sizeof(struct device) == 40, "struct device changed: bump TC_VERSION");
_Static_assert(sizeof(struct rawtext) == 8, "struct rawtext changed: bump TC_VERSION");

enum tc_section_id {
    SEC_SCALARS,
    SEC_EVENTS,
    SEC_ROWS,
    SEC_ORDERS,
    SEC_FLOWS,
    SEC_OPS,
    SEC_LAUNCHES,
    SEC_GPUS,
    SEC_COLLS,
    SEC_ARGBUF,
    SEC_DEVICES,
    SEC_OTHERS,
    SEC_RAWS,
    SEC_HELD,
    SEC_LAUNCH_GPU,
    SEC_STR_LENS,
    SEC_STR_BYTES,
    SEC_VAL_LENS,
    SEC_VAL_BYTES,
    SEC_TOP,
    SEC__COUNT
};

static const char *const sec_names[SEC__COUNT] = {
    "scalars",     "events",   "rows",       "row orders", "flows",
    "ops",         "launches", "gpus",       "colls",      "args",
    "devices",     "others",   "raws",       "held",       "launch_gpu",
    "string lens", "strings",  "value lens", "values",     "top-level keys",
};

struct tc_header {
    char magic[8];
    uint32_t version;
    uint32_t byte_order;
    uint32_t nsections;
    uint32_t reserved;
    struct tracecache_key key;
    uint64_t file_bytes; /* this cache file's length */
    uint64_t table_sum;  /* checksum of the section table */
    uint64_t header_sum; /* checksum of the bytes above */
};

struct tc_section {
    uint32_t id;
    uint32_t elsize;
    uint64_t count;
    uint64_t offset;
    uint64_t sum;
};

/* Everything in struct trace that is not an array. */
struct tc_scalars {
    uint64_t file_bytes, json_bytes;
    uint64_t n_by_kind[EVK__COUNT];
    uint64_t n_meta_dups, n_unsupported;
    uint64_t n_gpu, n_unlinked;
    int64_t base_ns;
    int64_t gpu_start, gpu_end;
    int64_t t_start, t_end;
    uint8_t gzip, raw_in_file, link_require_flow, device_kind;
    uint32_t reserved;
};

/* ------------------------------------------------------------------------ */
/* Checksum                                                                 */
/* ------------------------------------------------------------------------ */

#define TC_P1 UINT64_C(0x9E3779B185EBCA87)
#define TC_P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define TC_P3 UINT64_C(0x165667B19E3779F9)
#define TC_P4 UINT64_C(0x85EBCA77C2B2AE63)

static inline uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t rd64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* A 64-bit checksum of n bytes, four lanes wide (xxHash64's rounds): fast
 * enough to check a cache of hundreds of MB in a fraction of its read. */
uint64_t tracecache_sum(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h;
    size_t len = n;
    if (n >= 32) {
        uint64_t a = TC_P1 + TC_P2, b = TC_P2, c = 0, d = -TC_P1;
        do {
            a = rotl64(a + rd64(p) * TC_P2, 31) * TC_P1;
            b = rotl64(b + rd64(p + 8) * TC_P2, 31) * TC_P1;
            c = rotl64(c + rd64(p + 16) * TC_P2, 31) * TC_P1;
            d = rotl64(d + rd64(p + 24) * TC_P2, 31) * TC_P1;
            p += 32;
            n -= 32;
        } while (n >= 32);
        h = rotl64(a, 1) + rotl64(b, 7) + rotl64(c, 12) + rotl64(d, 18);
    } else {
        h = TC_P3;
    }
    h += len;
    for (; n >= 8; p += 8, n -= 8)
        h = rotl64(h ^ (rotl64(rd64(p) * TC_P2, 31) * TC_P1), 27) * TC_P1 + TC_P4;
    for (; n; p++, n--)
        h = rotl64(h ^ (*p * TC_P3), 11) * TC_P1;
    h ^= h >> 33;
    h *= TC_P2;
    h ^= h >> 29;
    h *= TC_P3;
    h ^= h >> 32;
    return h;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */
/* ------------------------------------------------------------------------ */

/* Bytes written at a time: a stop is seen within one of them. */
#define TC_WRITE_CHUNK (4u << 20)

struct tc_writer {
    int fd;
    const volatile int *stop; /* optional: the write fails (ECANCELED) once *stop != 0 */
    uint64_t at;              /* bytes written so far */
    struct tc_section sec[SEC__COUNT];
    bool ok;
    int err; /* errno of the failure */
};

static void put_bytes(struct tc_writer *w, const void *p, size_t n)
{
    const char *c = p;
    while (w->ok && n) {
        if (w->stop && *w->stop) {
            w->ok = false;
            w->err = ECANCELED;
            return;
        }
        ssize_t k = write(w->fd, c, n > TC_WRITE_CHUNK ? TC_WRITE_CHUNK : n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            w->ok = false;
            w->err = k < 0 ? errno : EIO;
            return;
        }
        c += k;
        n -= (size_t)k;
        w->at += (uint64_t)k;
    }
}

static void put_section(struct tc_writer *w, enum tc_section_id id, const void *p, size_t elsize,
                        size_t count)
{
    static const char zeros[TC_ALIGN];
    put_bytes(w, zeros, (TC_ALIGN - w->at % TC_ALIGN) % TC_ALIGN);
    if (w->ok && w->stop && *w->stop) {
        w->ok = false;
        w->err = ECANCELED;
    }
    if (!w->ok)
        return; /* failed or stopped: no checksum to take */
    w->sec[id] = (struct tc_section){
        .id = id,
        .elsize = (uint32_t)elsize,
        .count = count,
        .offset = w->at,
        .sum = tracecache_sum(p, elsize * count),
    };
    put_bytes(w, p, elsize * count);
}

#define PUT_VEC(w, id, vec) put_section(w, id, (vec).v, sizeof(*(vec).v), (vec).n)

static void put_strtab(struct tc_writer *w, enum tc_section_id lens_id, const struct strtab *st)
{
    size_t n = st->ents.n, bytes = 0;
    uint32_t *lens = xmalloc((n ? n : 1) * sizeof(*lens));
    for (size_t i = 0; i < n; i++) {
        lens[i] = st->ents.v[i].len;
        bytes += (size_t)lens[i] + 1;
    }
    char *blob = xmalloc(bytes ? bytes : 1), *p = blob;
    for (size_t i = 0; i < n; i++) {
        memcpy(p, st->ents.v[i].s, (size_t)lens[i] + 1);
        p += lens[i] + 1;
    }
    put_section(w, lens_id, lens, sizeof(*lens), n);
    put_section(w, lens_id + 1, blob, 1, bytes);
    free(blob);
    free(lens);
}

static void put_trace(struct tc_writer *w, const struct trace *t)
{
    struct tc_scalars sc = {
        .file_bytes = t->file_bytes,
        .json_bytes = t->json_bytes,
        .n_meta_dups = t->n_meta_dups,
        .n_unsupported = t->n_unsupported,
        .n_gpu = t->n_gpu,
        .n_unlinked = t->n_unlinked,
        .base_ns = t->base_ns,
        .gpu_start = t->gpu_start,
        .gpu_end = t->gpu_end,
        .t_start = t->t_start,
        .t_end = t->t_end,
        .gzip = t->gzip,
        .raw_in_file = t->raw_in_file,
        .link_require_flow = t->link_require_flow,
        .device_kind = t->device_kind,
    };
    memcpy(sc.n_by_kind, t->n_by_kind, sizeof(sc.n_by_kind));
    put_section(w, SEC_SCALARS, &sc, sizeof(sc), 1);
    PUT_VEC(w, SEC_EVENTS, t->ev);

    struct row *rows = xmalloc((t->rows.n ? t->rows.n : 1) * sizeof(*rows));
    size_t norder = 0;
    for (size_t r = 0; r < t->rows.n; r++) {
        rows[r] = t->rows.v[r];
        rows[r].order = NULL;
        norder += rows[r].nevents;
    }
    put_section(w, SEC_ROWS, rows, sizeof(*rows), t->rows.n);
    free(rows);
    uint32_t *order = xmalloc((norder ? norder : 1) * sizeof(*order)), *o = order;
    for (size_t r = 0; r < t->rows.n; r++) {
        if (t->rows.v[r].nevents)
            memcpy(o, t->rows.v[r].order, t->rows.v[r].nevents * sizeof(*o));
        o += t->rows.v[r].nevents;
    }
    put_section(w, SEC_ORDERS, order, sizeof(*order), norder);
    free(order);

    /* struct flow has padding (after `quoted`, and at its end) that the
     * loader never sets: the section gets a copy with it zeroed, so the file
     * holds no uninitialised bytes and its checksums are of defined ones. */
    struct flow *flows = xcalloc(t->flows.n ? t->flows.n : 1, sizeof(*flows));
    for (size_t i = 0; i < t->flows.n; i++) {
        const struct flow *f = &t->flows.v[i];
        flows[i].ts = f->ts;
        flows[i].id = f->id;
        flows[i].cat = f->cat;
        flows[i].name = f->name;
        flows[i].row = f->row;
        flows[i].ph = f->ph;
        flows[i].bind_enclosing = f->bind_enclosing;
        flows[i].quoted = f->quoted;
        flows[i].raw = f->raw;
    }
    put_section(w, SEC_FLOWS, flows, sizeof(*flows), t->flows.n);
    free(flows);
    PUT_VEC(w, SEC_OPS, t->ops);
    PUT_VEC(w, SEC_LAUNCHES, t->launches);
    PUT_VEC(w, SEC_GPUS, t->gpus);
    PUT_VEC(w, SEC_COLLS, t->colls);
    PUT_VEC(w, SEC_ARGBUF, t->argbuf);
    PUT_VEC(w, SEC_DEVICES, t->devices);
    PUT_VEC(w, SEC_OTHERS, t->others);
    PUT_VEC(w, SEC_RAWS, t->raws);
    PUT_VEC(w, SEC_HELD, t->held);
    put_section(w, SEC_LAUNCH_GPU, t->launch_gpu, sizeof(uint32_t), tracecache_launch_gpu_len(t));
    put_strtab(w, SEC_STR_LENS, &t->strs);
    put_strtab(w, SEC_VAL_LENS, &t->vals);
    char *top = t->top ? cJSON_PrintUnformatted(t->top) : NULL;
    put_section(w, SEC_TOP, top ? top : "", 1, top ? strlen(top) : 0);
    cJSON_free(top);
}

static void header_seal(struct tc_header *h, const struct tc_section *sec)
{
    h->table_sum = tracecache_sum(sec, SEC__COUNT * sizeof(*sec));
    h->header_sum = tracecache_sum(h, offsetof(struct tc_header, header_sum));
}

bool tracecache_write_file(const char *path, const struct tracecache_key *key,
                           const struct trace *t, const volatile int *stop, char *why,
                           size_t whylen)
{
    /* Beside the cache, hidden, unique: renamed over it once complete. */
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = xasprintf("%.*s.%s.tmp-XXXXXX", (int)dirlen, path, path + dirlen);
    struct tc_writer w = {.ok = true, .stop = stop};
    w.fd = mkstemp(tmp);
    if (w.fd < 0) {
        tracecache_fail(why, whylen, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return false;
    }
    struct tc_header h = {
        .version = TC_VERSION, .byte_order = TC_BYTE_ORDER, .nsections = SEC__COUNT, .key = *key};
    memcpy(h.magic, TC_MAGIC, sizeof(h.magic));
    /* The header and table last, once the sections' places are known. */
    if (lseek(w.fd, (off_t)(sizeof(h) + sizeof(w.sec)), SEEK_SET) < 0) {
        w.ok = false;
        w.err = errno;
    }
    w.at = sizeof(h) + sizeof(w.sec);
    put_trace(&w, t);
    h.file_bytes = w.at;
    header_seal(&h, w.sec);
    if (w.ok && lseek(w.fd, 0, SEEK_SET) < 0) {
        w.ok = false;
        w.err = errno;
    }
    w.at = 0;
    put_bytes(&w, &h, sizeof(h));
    put_bytes(&w, w.sec, sizeof(w.sec));
    if (close(w.fd) != 0 && w.ok) {
        w.ok = false;
        w.err = errno;
    }
    if (w.ok && rename(tmp, path) != 0) {
        w.ok = false;
        w.err = errno;
    }
    if (!w.ok) {
        tracecache_fail(why, whylen, "cannot write %s: %s", path, strerror(w.err));
        unlink(tmp);
    }
    free(tmp);
    return w.ok;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */
/* ------------------------------------------------------------------------ */

/* The cache file is mapped (private, copy on write) and the trace's arrays
 * point into the mapping (trace.mapped): no copy, and the pages are the
 * page cache's until someone writes to them. */
struct tc_reader {
    int fd;
    uint64_t size;
    const unsigned char *map;
    struct tc_section sec[SEC__COUNT];
    char *why;
    size_t whylen;
};

bool tracecache_read_at(int fd, void *buf, size_t n, uint64_t at)
{
    char *p = buf;
    while (n) {
        ssize_t k = pread(fd, p, n > (1u << 30) ? (1u << 30) : n, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return true;
}

/* Section id's records in the mapping (*v, *n; NULL when empty), their
 * size checked. Its checksum is checked later (sums_match). */
static bool get_section(struct tc_reader *r, enum tc_section_id id, size_t elsize, void **v,
                        size_t *n)
{
    const struct tc_section *s = &r->sec[id];
    *v = NULL;
    *n = 0;
    if (s->elsize != elsize)
        return tracecache_fail(r->why, r->whylen, "the %s section has records of another size",
                               sec_names[id]);
    *v = s->count ? (void *)(r->map + s->offset) : NULL;
    *n = (size_t)s->count; /* within the file: checked with the table */
    return true;
}

#define GET_VEC(r, id, vec)                                                                        \
    (get_section(r, id, sizeof(*(vec).v), (void **)&(vec).v, &(vec).n) && ((vec).cap = (vec).n, 1))

/* Whether section i's bytes have the checksum the table gives. */
static bool sum_matches(const struct tc_reader *r, enum tc_section_id i, char *why, size_t whylen)
{
    const struct tc_section *s = &r->sec[i];
    if (tracecache_sum(r->map + s->offset, (size_t)(s->count * s->elsize)) != s->sum)
        return tracecache_fail(why, whylen, "the %s section's checksum does not match",
                               sec_names[i]);
    return true;
}

/* The same for every section but ROWS, whose orders the reader has set
 * (it checks ROWS before). */
static bool sums_match(const struct tc_reader *r, char *why, size_t whylen)
{
    for (unsigned i = 0; i < SEC__COUNT; i++)
        if (i != SEC_ROWS && !sum_matches(r, i, why, whylen))
            return false;
    return true;
}

/* The string table from its lengths and bytes; false when they disagree or
 * a string repeats (an interned table holds each once). */
static bool get_strtab(struct tc_reader *r, enum tc_section_id lens_id, struct strtab *st)
{
    uint32_t *lens;
    char *blob;
    size_t n, bytes;
    if (!get_section(r, lens_id, sizeof(*lens), (void **)&lens, &n) ||
        !get_section(r, lens_id + 1, 1, (void **)&blob, &bytes))
        return false;
    if (n == 0 || n >= IDX_NONE || lens[0] != 0)
        return tracecache_fail(r->why, r->whylen,
                               "the %s section does not start with the empty string",
                               sec_names[lens_id + 1]);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (lens[i] >= bytes - at || blob[at + lens[i]] != '\0')
            return tracecache_fail(r->why, r->whylen, "the %s section is cut short",
                                   sec_names[lens_id + 1]);
        at += (size_t)lens[i] + 1;
    }
    if (at != bytes)
        return tracecache_fail(r->why, r->whylen, "the %s section is longer than its strings",
                               sec_names[lens_id + 1]);
    VEC_RESERVE(&st->ents, n);
    at = 1;
    for (size_t i = 1; i < n; i++) {
        if (strtab_intern(st, blob + at, lens[i]) != i)
            return tracecache_fail(r->why, r->whylen, "the %s section repeats a string",
                                   sec_names[lens_id + 1]);
        at += (size_t)lens[i] + 1;
    }
    return true;
}

static bool get_header(struct tc_reader *r, const struct tracecache_key *key)
{
    struct tc_header h;
    if (r->size < sizeof(h) + sizeof(r->sec) || !tracecache_read_at(r->fd, &h, sizeof(h), 0))
        return tracecache_fail(r->why, r->whylen, "too short to be a cache");
    if (memcmp(h.magic, TC_MAGIC, sizeof(h.magic)) != 0)
        return tracecache_fail(r->why, r->whylen, "not a torchtop cache");
    if (h.version != TC_VERSION)
        return tracecache_fail(r->why, r->whylen,
                               "version %" PRIu32 ", this torchtop reads version %u", h.version,
                               TC_VERSION);
    if (h.byte_order != TC_BYTE_ORDER || h.nsections != SEC__COUNT)
        return tracecache_fail(r->why, r->whylen, "written by a build with another layout");
    if (h.header_sum != tracecache_sum(&h, offsetof(struct tc_header, header_sum)))
        return tracecache_fail(r->why, r->whylen, "the header's checksum does not match");
    if (memcmp(&h.key, key, sizeof(*key)) != 0)
        return tracecache_fail(r->why, r->whylen, "a cache of another file");
    if (h.file_bytes != r->size)
        return tracecache_fail(r->why, r->whylen,
                               "%" PRIu64 " bytes long, its header says %" PRIu64, r->size,
                               h.file_bytes);
    if (!tracecache_read_at(r->fd, r->sec, sizeof(r->sec), sizeof(h)) ||
        h.table_sum != tracecache_sum(r->sec, sizeof(r->sec)))
        return tracecache_fail(r->why, r->whylen, "the section table's checksum does not match");
    uint64_t end = sizeof(h) + sizeof(r->sec);
    for (unsigned i = 0; i < SEC__COUNT; i++) {
        const struct tc_section *s = &r->sec[i];
        if (s->id != i || s->elsize == 0 || s->offset < end || s->offset % TC_ALIGN ||
            s->offset > r->size || s->count > (r->size - s->offset) / s->elsize)
            return tracecache_fail(r->why, r->whylen, "the %s section lies outside the file",
                                   sec_names[i]);
        /* The bytes between sections are zeros, as written. */
        char gap[TC_ALIGN];
        size_t ngap = (size_t)(s->offset - end);
        if (ngap >= TC_ALIGN || !tracecache_read_at(r->fd, gap, ngap, end) ||
            (ngap && (gap[0] || memcmp(gap, gap + 1, ngap - 1) != 0)))
            return tracecache_fail(r->why, r->whylen,
                                   "the bytes before the %s section are not padding", sec_names[i]);
        end = s->offset + s->count * s->elsize;
    }
    if (end != r->size)
        return tracecache_fail(r->why, r->whylen, "bytes follow the last section");
    return true;
}

/* The check a second thread runs beside the others (the checksums, the
 * tree, the rows), about as long as they are: the packed arguments. */
struct tc_side {
    const struct tc_reader *r;
    const struct trace *t;
    bool ok;
    char why[256];
};

static void *side_checks(void *arg)
{
    struct tc_side *sd = arg;
    sd->ok = tracecache_check_args(sd->t, sd->why, sizeof(sd->why));
    return NULL;
}

/* Every check of the sections and of the trace they make (tracecache_check),
 * on two threads. */
static bool checks_pass(struct tc_reader *r, const struct trace *t)
{
    struct tc_side sd = {.r = r, .t = t};
    pthread_t th;
    bool threaded = pthread_create(&th, NULL, side_checks, &sd) == 0;
    if (!threaded)
        side_checks(&sd);
    bool ok = sums_match(r, r->why, r->whylen) && tracecache_check_counts(t, r->why, r->whylen) &&
              tracecache_check_tree(t, r->why, r->whylen) &&
              tracecache_check_rows(t, r->why, r->whylen);
    if (threaded)
        pthread_join(th, NULL);
    if (ok && !sd.ok) {
        snprintf(r->why, r->whylen, "%s", sd.why);
        ok = false;
    }
    return ok;
}

/* The trace the sections hold; NULL with why filled. */
static struct trace *get_trace(struct tc_reader *r, const char *name)
{
    struct trace *t = xcalloc(1, sizeof(*t));
    t->path = xstrdup(name);
    t->mapped = (void *)r->map;
    t->mapped_len = (size_t)r->size;
    strtab_init(&t->strs);
    strtab_init(&t->vals);
    const struct tc_scalars *sc = NULL;
    uint32_t *order = NULL;
    const char *top = NULL;
    size_t n, norder = 0, ntop = 0, nlinks = 0;
    bool ok = get_section(r, SEC_SCALARS, sizeof(*sc), (void **)&sc, &n);
    if (ok && n != 1)
        ok = tracecache_fail(r->why, r->whylen, "the scalars section holds %zu records", n);
    ok = ok && GET_VEC(r, SEC_EVENTS, t->ev) && GET_VEC(r, SEC_ROWS, t->rows) &&
         get_section(r, SEC_ORDERS, sizeof(*order), (void **)&order, &norder) &&
         GET_VEC(r, SEC_FLOWS, t->flows) && GET_VEC(r, SEC_OPS, t->ops) &&
         GET_VEC(r, SEC_LAUNCHES, t->launches) && GET_VEC(r, SEC_GPUS, t->gpus) &&
         GET_VEC(r, SEC_COLLS, t->colls) && GET_VEC(r, SEC_ARGBUF, t->argbuf) &&
         GET_VEC(r, SEC_DEVICES, t->devices) && GET_VEC(r, SEC_OTHERS, t->others) &&
         GET_VEC(r, SEC_RAWS, t->raws) && GET_VEC(r, SEC_HELD, t->held) &&
         get_section(r, SEC_LAUNCH_GPU, sizeof(uint32_t), (void **)&t->launch_gpu, &nlinks) &&
         get_strtab(r, SEC_STR_LENS, &t->strs) && get_strtab(r, SEC_VAL_LENS, &t->vals) &&
         get_section(r, SEC_TOP, 1, (void **)&top, &ntop);

    /* The rows' orders: each row's share of ORDERS, in row order, set in
     * the mapping once its checksum is checked. */
    ok = ok && sum_matches(r, SEC_ROWS, r->why, r->whylen);
    size_t at = 0;
    for (size_t i = 0; ok && i < t->rows.n; i++) {
        struct row *row = &t->rows.v[i];
        if (row->nevents > norder - at) {
            ok = tracecache_fail(r->why, r->whylen, "the rows hold more events than their orders");
            break;
        }
        row->order = row->nevents ? order + at : NULL;
        at += row->nevents;
    }
    if (!ok) /* no row's order to free: none is the trace's own */
        for (size_t i = 0; i < t->rows.n; i++)
            t->rows.v[i].order = NULL;
    if (ok && at != norder)
        ok = tracecache_fail(r->why, r->whylen, "the rows hold fewer events than their orders");
    if (ok && nlinks != tracecache_launch_gpu_len(t))
        ok = tracecache_fail(r->why, r->whylen, "the launches' GPU events do not add up");
    if (ok) {
        t->file_bytes = sc->file_bytes;
        t->json_bytes = sc->json_bytes;
        memcpy(t->n_by_kind, sc->n_by_kind, sizeof(t->n_by_kind));
        t->n_meta_dups = sc->n_meta_dups;
        t->n_unsupported = sc->n_unsupported;
        t->n_gpu = sc->n_gpu;
        t->n_unlinked = sc->n_unlinked;
        t->base_ns = sc->base_ns;
        t->gpu_start = sc->gpu_start;
        t->gpu_end = sc->gpu_end;
        t->t_start = sc->t_start;
        t->t_end = sc->t_end;
        t->gzip = sc->gzip != 0;
        t->raw_in_file = sc->raw_in_file != 0;
        t->link_require_flow = sc->link_require_flow != 0;
        t->device_kind = sc->device_kind;
        t->indexed = true;
        ok = checks_pass(r, t);
    }
    if (ok && ntop) {
        t->top = cJSON_ParseWithLength(top, ntop);
        if (!cJSON_IsObject(t->top))
            ok = tracecache_fail(r->why, r->whylen, "the top-level keys do not read");
    }
    if (ok)
        opname_index(t);
    if (!ok) {
        trace_free(t); /* unmaps */
        return NULL;
    }
    return t;
}

enum tracecache_result tracecache_read_file(const char *path, const struct tracecache_key *key,
                                            const char *name, struct trace **out, char *why,
                                            size_t whylen)
{
    *out = NULL;
    struct tc_reader r = {.why = why, .whylen = whylen};
    r.fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (r.fd < 0) {
        if (errno == ENOENT)
            return TRACECACHE_MISSING;
        tracecache_fail(why, whylen, "cannot open: %s", strerror(errno));
        return TRACECACHE_BAD;
    }
    struct stat st;
    if (fstat(r.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(r.fd);
        tracecache_fail(why, whylen, "not a regular file");
        return TRACECACHE_BAD;
    }
    r.size = (uint64_t)st.st_size;
    if (get_header(&r, key)) {
        /* Populated read-only: the page cache's pages, not copies (a
         * writable private mapping is populated with copies); writable
         * after, a page copied when written to. */
        void *m = r.size > SIZE_MAX
                      ? MAP_FAILED
                      : mmap(NULL, (size_t)r.size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, r.fd, 0);
        if (m != MAP_FAILED && mprotect(m, (size_t)r.size, PROT_READ | PROT_WRITE) != 0) {
            munmap(m, (size_t)r.size);
            m = MAP_FAILED;
        }
        if (m == MAP_FAILED) {
            tracecache_fail(why, whylen, "cannot map: %s", strerror(errno));
        } else {
            r.map = m;
            *out = get_trace(&r, name);
        }
    }
    if (*out)
        futimens(r.fd, NULL); /* used now: pruned last */
    close(r.fd);
    return *out ? TRACECACHE_OK : TRACECACHE_BAD;
}
