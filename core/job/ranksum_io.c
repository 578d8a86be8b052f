/* Rank summary files: gzip-compressed JSON, versioned (the schema is in
 * the man page, torchtop(1), SUMMARY FILES). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cJSON.h>
#include <zlib.h>

#include "core/base/outfile.h"
#include "core/base/sort.h"
#include "core/base/source.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/job/ranksum.h"

/* The first bytes of every summary: the format's key comes first. */
#define MAGIC "{\"torchtop_rank_summary\":"

/* The timeline object's fields, in the order of the file. */
/* A bound_by's key in critical_path_us: HTA's name, "zero_weight" for
 * none. */
static const char *cp_bound_key(enum cp_bound b)
{
    return b == CPB_NONE ? "zero_weight" : critpath_bound_name(b);
}

static const char *const TL_KEYS[] = {"computation", "exposed_comm", "exposed_memcpy",
                                      "busy",        "idle",         "total",
                                      "total_comm",  "total_memcpy", "events"};

static void put_str_or_null(struct strbuf *sb, const struct ranksum *s, uint32_t id)
{
    if (!id)
        sb_puts(sb, "null");
    else
        sb_put_json_string(sb, strtab_str(&s->strs, id), strtab_len(&s->strs, id));
}

/* JSON readers hold numbers as doubles, exact up to 2^53: an integer
 * beyond that is written as a decimal string, which get_i64 reads back
 * exactly. Whatever is written here is read. */
#define EXACT_MAX (INT64_C(1) << 53)

static void put_i64(struct strbuf *sb, int64_t v)
{
    if (v >= -EXACT_MAX && v <= EXACT_MAX)
        sb_printf(sb, "%lld", (long long)v);
    else
        sb_printf(sb, "\"%lld\"", (long long)v);
}

static void put_int_or_null(struct strbuf *sb, int64_t v)
{
    if (v < 0)
        sb_puts(sb, "null");
    else
        put_i64(sb, v);
}

static void render(const struct ranksum *s, struct strbuf *sb)
{
    sb_printf(sb, MAGIC " %d,\n\"source\": ", RANKSUM_VERSION);
    sb_put_json_string(sb, s->source, strlen(s->source));
    sb_puts(sb, ",\n\"rank\": ");
    put_int_or_null(sb, s->dist_rank);
    sb_puts(sb, ", \"world_size\": ");
    put_int_or_null(sb, s->world_size);
    const struct timeline_breakdown *b = &s->tl;
    const int64_t tl[] = {b->computation, b->exposed_comm, b->exposed_memcpy,
                          b->busy,        b->idle,         b->total,
                          b->total_comm,  b->total_memcpy, (int64_t)b->n_events};
    sb_puts(sb, ",\n\"timeline_ns\": {");
    for (size_t i = 0; i < ARRAY_SIZE(tl); i++) {
        sb_printf(sb, "%s\"%s\": ", i ? ", " : "", TL_KEYS[i]);
        put_i64(sb, tl[i]);
    }
    sb_printf(sb, "},\n\"steps\": {\"count\": %u, \"total_ns\": ", s->nsteps);
    put_i64(sb, s->steps_ns);
    sb_puts(sb, "},\n");
    /* Absolute ns times (~2^60) are written as a base (a decimal string)
     * and offsets from it. */
    int64_t base = s->colls.n ? s->colls.v[0].ts : 0;
    sb_printf(sb, "\"collectives_base_ns\": \"%lld\",\n\"collectives\": [", (long long)base);
    for (size_t i = 0; i < s->colls.n; i++) {
        const struct rank_coll *c = &s->colls.v[i];
        sb_puts(sb, i ? ",\n[" : "\n[");
        put_i64(sb, c->ts - base);
        sb_puts(sb, ", ");
        put_i64(sb, c->dur);
        sb_puts(sb, ", ");
        put_i64(sb, c->stream);
        sb_puts(sb, ", ");
        put_str_or_null(sb, s, c->name);
        sb_puts(sb, ", ");
        put_str_or_null(sb, s, c->dtype);
        sb_puts(sb, ", ");
        put_str_or_null(sb, s, c->pg_name);
        sb_puts(sb, ", ");
        put_str_or_null(sb, s, c->pg_ranks);
        sb_puts(sb, ", ");
        put_int_or_null(sb, c->group_size);
        sb_puts(sb, ", ");
        put_int_or_null(sb, c->in_nelems);
        sb_puts(sb, ", ");
        put_int_or_null(sb, c->out_nelems);
        if (c->has_seq) {
            sb_printf(sb, ", %lld, ", (long long)c->seq);
            put_str_or_null(sb, s, c->comms_id);
        }
        sb_putc(sb, ']');
    }
    sb_puts(sb, "],\n\"ops\": [");
    for (size_t i = 0; i < s->ops.n; i++) {
        const struct rank_op *o = &s->ops.v[i];
        sb_puts(sb, i ? ",\n[" : "\n[");
        put_str_or_null(sb, s, o->name);
        sb_printf(sb, ", %u, ", o->count);
        put_i64(sb, o->gpu_ns);
        sb_putc(sb, ']');
    }
    int64_t cbase = s->busy.n ? s->busy.v[0].start : 0;
    sb_puts(sb, "],\n\"compute_gap_ns\": ");
    put_i64(sb, s->busy_gap_ns);
    sb_printf(sb, ", \"compute_base_ns\": \"%lld\",\n\"compute\": [", (long long)cbase);
    for (size_t i = 0; i < s->busy.n; i++) {
        sb_puts(sb, i ? (i % 8 ? ", " : ",\n") : "");
        put_i64(sb, s->busy.v[i].start - cbase);
        sb_putc(sb, ',');
        put_i64(sb, s->busy.v[i].end - s->busy.v[i].start);
    }
    sb_putc(sb, ']');
    if (s->cp.regions) {
        sb_printf(sb, ",\n\"critical_path_us\": {\"regions\": %u, \"length\": ", s->cp.regions);
        put_i64(sb, s->cp.length);
        for (int k = 0; k < CPB__COUNT; k++) {
            sb_printf(sb, ", \"%s\": ", cp_bound_key((enum cp_bound)k));
            put_i64(sb, s->cp.by[k]);
        }
        sb_putc(sb, '}');
    }
    sb_puts(sb, "}\n");
}

enum status ranksum_write(const struct ranksum *s, const char *path, struct errinfo *err)
{
    struct strbuf sb = STRBUF_INIT;
    render(s, &sb);
    if (sb.len > RANKSUM_MAX_TEXT) {
        /* The trace is what is too large: it is named, not the output. */
        errinfo_set(err, ST_LIMIT, s->source, -1,
                    "its rank summary would be %zu MiB of JSON; a summary holds at most %u MiB "
                    "(RANKSUM_MAX_TEXT), so that reading one stays bounded",
                    (sb.len + (1u << 20) - 1) >> 20, RANKSUM_MAX_TEXT >> 20);
        sb_free(&sb);
        return ST_LIMIT;
    }
    struct outfile of;
    if (outfile_open(&of, path, err) != ST_OK) {
        sb_free(&sb);
        return ST_IO;
    }
    /* The gzip stream owns a copy of the descriptor; the outfile closes
     * its own and renames the finished file into place. */
    /* The reason is errno of the write that failed: gzwrite's, or
     * gzclose's when the buffered bytes meet a full disk there. */
    errno = 0;
    int fd = dup(of.fd);
    gzFile gz = fd >= 0 ? gzdopen(fd, "wb6") : NULL;
    bool ok = gz && gzwrite(gz, sb.s, (unsigned)sb.len) == (int)sb.len;
    int e = ok ? 0 : errno;
    if (gz) {
        errno = 0;
        if (gzclose(gz) != Z_OK) {
            e = e ? e : errno;
            ok = false;
        }
    } else if (fd >= 0) {
        close(fd);
    }
    e = e ? e : EIO;
    sb_free(&sb);
    if (!ok) {
        errinfo_set(err, ST_IO, path, -1, "cannot write: %s", strerror(e));
        outfile_discard(&of);
        return ST_IO;
    }
    return outfile_commit(&of, err);
}

bool ranksum_source_is_summary(struct source *src, struct errinfo *err)
{
    const uint8_t *p;
    size_t n;
    return source_peek(src, sizeof(MAGIC) - 1, &p, &n, err) && n == sizeof(MAGIC) - 1 &&
           memcmp(p, MAGIC, n) == 0;
}

bool ranksum_is_summary(const char *path)
{
    /* Peeking would consume standard input or a pipe, which the trace
     * loader reads; a FIFO is never opened here. */
    if (strcmp(path, "-") == 0)
        return false;
    /* Not even opened without waiting: that open would let a writer
     * waiting on the FIFO go on, and our close then leaves it without a
     * reader (it dies of SIGPIPE before the loader opens the FIFO). */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    struct source src;
    struct errinfo err = {0};
    bool yes =
        source_open_regular(&src, path, &err) == ST_OK && ranksum_source_is_summary(&src, &err);
    source_close(&src);
    errinfo_clear(&err);
    return yes;
}

/* A decimal integer: an optional '-', digits, nothing else, in int64. */
static bool parse_decimal(const char *p, int64_t *out)
{
    const char *d = p + (*p == '-');
    if (!*d || strspn(d, "0123456789") != strlen(d))
        return false;
    char *end;
    errno = 0;
    long long x = strtoll(p, &end, 10);
    if (*end || errno)
        return false;
    *out = x;
    return true;
}

/* Field readers: false when the value is not of the expected type. */
static bool get_i64(const cJSON *v, bool nullable, int64_t *out)
{
    if (nullable && cJSON_IsNull(v)) {
        *out = -1;
        return true;
    }
    /* Integers past 2^53, as put_i64 writes them. */
    if (cJSON_IsString(v))
        return parse_decimal(v->valuestring, out);
    /* cJSON reads numbers as doubles: only integers it holds exactly. */
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || fabs(v->valuedouble) > 0x1p53 ||
        v->valuedouble != floor(v->valuedouble))
        return false;
    *out = (int64_t)v->valuedouble;
    return true;
}

static bool get_str(struct ranksum *s, const cJSON *v, uint32_t *out)
{
    if (cJSON_IsNull(v)) {
        *out = 0;
        return true;
    }
    if (!cJSON_IsString(v))
        return false;
    *out = strtab_intern_cstr(&s->strs, v->valuestring);
    return true;
}

static bool read_coll(struct ranksum *s, const cJSON *a, int64_t base)
{
    /* Ten elements, or twelve with the kernel's Seq and Comms Id. */
    int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;
    if (n != 10 && n != 12)
        return false;
    struct rank_coll c = {0};
    int64_t gs;
    const cJSON *x = a->child;
    bool ok = get_i64(x, false, &c.ts) && get_i64(x = x->next, false, &c.dur) &&
              get_i64(x = x->next, false, &c.stream) && get_str(s, x = x->next, &c.name) &&
              get_str(s, x = x->next, &c.dtype) && get_str(s, x = x->next, &c.pg_name) &&
              get_str(s, x = x->next, &c.pg_ranks) && get_i64(x = x->next, true, &gs) &&
              get_i64(x = x->next, true, &c.in_nelems) && get_i64(x = x->next, true, &c.out_nelems);
    if (ok && n == 12) {
        ok = get_i64(x = x->next, false, &c.seq) && get_str(s, x = x->next, &c.comms_id);
        c.has_seq = true;
    }
    /* Offsets from the first collective: 0 or more, the sum in int64
     * whatever the sign of the base. */
    if (!ok || gs > INT32_MAX || c.ts < 0 || __builtin_add_overflow(c.ts, base, &c.ts))
        return false;
    c.group_size = (int32_t)gs;
    VEC_PUSH(&s->colls, c);
    return true;
}

static bool read_op(struct ranksum *s, const cJSON *a)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3)
        return false;
    struct rank_op o;
    int64_t count;
    if (!get_str(s, a->child, &o.name) || !get_i64(a->child->next, false, &count) || count < 0 ||
        count > UINT32_MAX || !get_i64(a->child->next->next, false, &o.gpu_ns))
        return false;
    o.count = (uint32_t)count;
    VEC_PUSH(&s->ops, o);
    return true;
}

/* A decimal integer in a JSON string (absolute ns times). */
static bool get_base(const cJSON *v, int64_t *out)
{
    return cJSON_IsString(v) && parse_decimal(v->valuestring, out);
}

/* Version 2's compute intervals: [start_ns, dur_ns] pairs flattened, starts
 * from compute_base_ns, ascending and apart. */
static const char *read_busy(struct ranksum *s, const cJSON *doc)
{
    int64_t gap, base;
    if (!get_i64(cJSON_GetObjectItemCaseSensitive(doc, "compute_gap_ns"), false, &gap) || gap < 0)
        return "\"compute_gap_ns\": a count of ns";
    if (!get_base(cJSON_GetObjectItemCaseSensitive(doc, "compute_base_ns"), &base))
        return "\"compute_base_ns\": a decimal integer in a string";
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(doc, "compute");
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) % 2 ||
        cJSON_GetArraySize(a) / 2 > RANKSUM_MAX_BUSY)
        return "\"compute\": an array of [start_ns, dur_ns] pairs, at most 8192";
    int64_t prev_end = INT64_MIN;
    for (const cJSON *x = a->child; x; x = x->next->next) {
        int64_t st, d, a0, a1;
        if (!get_i64(x, false, &st) || !get_i64(x->next, false, &d) || st < 0 || d <= 0 ||
            __builtin_add_overflow(base, st, &a0) || __builtin_add_overflow(a0, d, &a1) ||
            a0 <= prev_end)
            return "\"compute\": [start_ns, dur_ns] pairs, ascending and apart, durations "
                   "above 0";
        prev_end = a1;
        *VEC_ADD(&s->busy) = (struct ival){a0, a1};
    }
    s->busy_gap_ns = gap;
    return NULL;
}

/* The optional critical path (absent: not known): regions, length and
 * the spans per bound_by, in µs. */
static const char *read_critpath(struct ranksum *s, const cJSON *doc)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "critical_path_us");
    if (!o)
        return NULL;
    const char *want = "\"critical_path_us\": {\"regions\": N, \"length\": N, and N per bound_by}";
    int64_t r, len, by[CPB__COUNT];
    if (!cJSON_IsObject(o) || !get_i64(cJSON_GetObjectItemCaseSensitive(o, "regions"), false, &r) ||
        r <= 0 || r > UINT32_MAX ||
        !get_i64(cJSON_GetObjectItemCaseSensitive(o, "length"), false, &len) || len < 0)
        return want;
    for (int b = 0; b < CPB__COUNT; b++)
        if (!get_i64(cJSON_GetObjectItemCaseSensitive(o, cp_bound_key((enum cp_bound)b)), false,
                     &by[b]))
            return want;
    s->cp.regions = (uint32_t)r;
    s->cp.length = len;
    memcpy(s->cp.by, by, sizeof(by));
    return NULL;
}

static const char *read_doc(struct ranksum *s, const cJSON *doc)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "torchtop_rank_summary");
    if (!cJSON_IsNumber(v) || (v->valuedouble != 1 && v->valuedouble != RANKSUM_VERSION))
        return "format version 1 or 2 (\"torchtop_rank_summary\": 2)";
    int version = v->valueint;
    v = cJSON_GetObjectItemCaseSensitive(doc, "source");
    if (!cJSON_IsString(v))
        return "\"source\": a string";
    free(s->source);
    s->source = xstrdup(v->valuestring);
    int64_t r, w;
    if (!get_i64(cJSON_GetObjectItemCaseSensitive(doc, "rank"), true, &r) || r > INT32_MAX)
        return "\"rank\": a number or null";
    if (!get_i64(cJSON_GetObjectItemCaseSensitive(doc, "world_size"), true, &w) || w > INT32_MAX)
        return "\"world_size\": a number or null";
    s->dist_rank = (int)r;
    s->world_size = (int)w;
    const cJSON *tl = cJSON_GetObjectItemCaseSensitive(doc, "timeline_ns");
    int64_t f[ARRAY_SIZE(TL_KEYS)];
    for (size_t i = 0; i < ARRAY_SIZE(TL_KEYS); i++)
        if (!cJSON_IsObject(tl) ||
            !get_i64(cJSON_GetObjectItemCaseSensitive(tl, TL_KEYS[i]), false, &f[i]) || f[i] < 0)
            return "\"timeline_ns\": an object of counts (computation, exposed_comm, ...)";
    s->tl =
        (struct timeline_breakdown){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], (uint64_t)f[8]};
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(doc, "steps");
    int64_t sc, sn;
    if (!cJSON_IsObject(st) ||
        !get_i64(cJSON_GetObjectItemCaseSensitive(st, "count"), false, &sc) ||
        !get_i64(cJSON_GetObjectItemCaseSensitive(st, "total_ns"), false, &sn) || sc < 0 ||
        sc > UINT32_MAX)
        return "\"steps\": {\"count\": N, \"total_ns\": N}";
    s->nsteps = (uint32_t)sc;
    s->steps_ns = sn;
    int64_t base;
    if (!get_base(cJSON_GetObjectItemCaseSensitive(doc, "collectives_base_ns"), &base))
        return "\"collectives_base_ns\": a decimal integer in a string";
    const cJSON *cs = cJSON_GetObjectItemCaseSensitive(doc, "collectives");
    if (!cJSON_IsArray(cs))
        return "\"collectives\": an array";
    for (const cJSON *c = cs->child; c; c = c->next)
        if (!read_coll(s, c, base))
            return "a collective: [ts_ns, dur_ns, stream, name, dtype, pg_name, pg_ranks, "
                   "group_size, in_nelems, out_nelems] and optionally seq, comms_id";
    const cJSON *os = cJSON_GetObjectItemCaseSensitive(doc, "ops");
    if (!cJSON_IsArray(os))
        return "\"ops\": an array";
    for (const cJSON *o = os->child; o; o = o->next)
        if (!read_op(s, o))
            return "an op: [name, count, gpu_ns]";
    const char *fault = read_critpath(s, doc);
    if (fault)
        return fault;
    if (version == 1) {
        s->busy_gap_ns = -1;
        return NULL;
    }
    return read_busy(s, doc);
}

/* A key of the object being scanned: where it starts (its opening quote)
 * and its bytes as written. */
struct key_at {
    size_t off, len;
    const char *s;
};

static bool key_less(const struct key_at *a, const struct key_at *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->s, b->s, n);
    if (c || a->len != b->len)
        return c ? c < 0 : a->len < b->len;
    return a->off < b->off;
}
SORT_DEFINE(key_sort, struct key_at, key_less)

/* The offset of the first key that repeats an earlier key of its object
 * in the JSON text p[0..n) (valid JSON: cJSON parsed it), or -1. Keys are
 * compared as written. A loop with a stack of open containers, so any
 * nesting is fine. */
static int64_t duplicate_key_at(const char *p, size_t n)
{
    struct frame {
        bool object, expect_key;
        size_t keys_from;
    };
    VEC(struct frame) st = {0};
    VEC(struct key_at) keys = {0};
    int64_t found = -1;
    for (size_t i = 0; i < n && found < 0; i++) {
        char ch = p[i];
        if (ch == '{' || ch == '[') {
            *VEC_ADD(&st) = (struct frame){ch == '{', ch == '{', keys.n};
        } else if (ch == ',' && st.n) {
            st.v[st.n - 1].expect_key = st.v[st.n - 1].object;
        } else if ((ch == '}' || ch == ']') && st.n) {
            struct frame f = st.v[--st.n];
            size_t k = keys.n - f.keys_from;
            if (f.object && k > 1) {
                struct key_at *v = keys.v + f.keys_from;
                key_sort(v, k);
                for (size_t a = 1; a < k; a++)
                    if (v[a].len == v[a - 1].len && memcmp(v[a].s, v[a - 1].s, v[a].len) == 0 &&
                        (found < 0 || (int64_t)v[a].off < found))
                        found = (int64_t)v[a].off;
            }
            keys.n = f.keys_from;
        } else if (ch == '"') {
            size_t start = i++;
            while (i < n && p[i] != '"')
                i += p[i] == '\\' ? 2 : 1;
            if (st.n && st.v[st.n - 1].expect_key) {
                *VEC_ADD(&keys) = (struct key_at){start, i - start - 1, p + start + 1};
                st.v[st.n - 1].expect_key = false;
            }
        }
    }
    VEC_FREE(&st);
    VEC_FREE(&keys);
    return found;
}

enum status ranksum_read(const char *path, struct ranksum **out, struct errinfo *err)
{
    *out = NULL;
    struct source src;
    if (source_open(&src, path, err) != ST_OK) {
        source_close(&src);
        return err->status;
    }
    enum status st = ranksum_read_source(&src, out, err);
    source_close(&src);
    return st;
}

enum status ranksum_read_source(struct source *src, struct ranksum **out, struct errinfo *err)
{
    *out = NULL;
    const char *path = src->name;
    struct strbuf text = STRBUF_INIT;
    char buf[65536];
    ssize_t n;
    while ((n = source_read(src, buf, sizeof(buf), err)) > 0) {
        if (text.len + (size_t)n > RANKSUM_MAX_TEXT) {
            /* Counted while inflating: a gzip bomb stops here, at the limit. */
            errinfo_set(err, ST_LIMIT, path, (int64_t)RANKSUM_MAX_TEXT,
                        "a rank summary of at most %u MiB of JSON once decompressed "
                        "(RANKSUM_MAX_TEXT)",
                        RANKSUM_MAX_TEXT >> 20);
            n = -1;
            break;
        }
        sb_putn(&text, buf, (size_t)n);
    }
    if (n < 0) {
        sb_free(&text);
        return err->status;
    }
    const char *doc_end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(sb_str(&text), text.len, &doc_end, false);
    if (!doc) {
        const char *at = cJSON_GetErrorPtr();
        int64_t off =
            at && at >= sb_str(&text) && at <= sb_str(&text) + text.len ? at - sb_str(&text) : -1;
        errinfo_set(err, ST_FORMAT, path, off, "a rank summary (JSON)");
        sb_free(&text);
        return ST_FORMAT;
    }
    /* One document, each key once: what summarize writes; anything else
     * is not a summary, whatever a lenient reading would take of it. */
    size_t end = (size_t)(doc_end - sb_str(&text));
    while (end < text.len && strchr(" \t\r\n", text.s[end]))
        end++;
    int64_t dup = end < text.len ? -1 : duplicate_key_at(sb_str(&text), text.len);
    if (end < text.len || dup >= 0) {
        errinfo_set(err, ST_FORMAT, path, end < text.len ? (int64_t)end : dup,
                    end < text.len ? "rank summary: expected one JSON document, then nothing "
                                     "but white space, found more"
                                   : "rank summary: expected each key once in an object, found "
                                     "it again");
        cJSON_Delete(doc);
        sb_free(&text);
        return ST_FORMAT;
    }
    sb_free(&text);
    struct ranksum *s = ranksum_new(path);
    s->file = xstrdup(path);
    const char *want = cJSON_IsObject(doc) ? read_doc(s, doc) : "a JSON object";
    cJSON_Delete(doc);
    if (want) {
        errinfo_set(err, ST_FORMAT, path, -1, "rank summary: expected %s", want);
        ranksum_free(s);
        return ST_FORMAT;
    }
    *out = s;
    return ST_OK;
}
