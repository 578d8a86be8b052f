/* Rank summary files: gzip-compressed JSON, versioned (the schema is in
 * the man page, torchtop(1), SUMMARY FILES). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>
#include <zlib.h>

#include "core/base/outfile.h"
#include "core/base/source.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/job/ranksum.h"

/* The first bytes of every summary: the format's key comes first. */
#define MAGIC "{\"torchtop_rank_summary\":"
/* A summary is small (a few hundred KB); anything this large is refused. */
#define MAX_SUMMARY_BYTES (512u << 20)

static void put_str_or_null(struct strbuf *sb, const struct ranksum *s, uint32_t id)
{
    if (!id)
        sb_puts(sb, "null");
    else
        sb_put_json_string(sb, strtab_str(&s->strs, id), strtab_len(&s->strs, id));
}

static void put_int_or_null(struct strbuf *sb, int64_t v)
{
    if (v < 0)
        sb_puts(sb, "null");
    else
        sb_printf(sb, "%lld", (long long)v);
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
    sb_printf(sb,
              ",\n\"timeline_ns\": {\"computation\": %lld, \"exposed_comm\": %lld, "
              "\"exposed_memcpy\": %lld, \"busy\": %lld, \"idle\": %lld, \"total\": %lld, "
              "\"total_comm\": %lld, \"total_memcpy\": %lld, \"events\": %llu},\n",
              (long long)b->computation, (long long)b->exposed_comm, (long long)b->exposed_memcpy,
              (long long)b->busy, (long long)b->idle, (long long)b->total, (long long)b->total_comm,
              (long long)b->total_memcpy, (unsigned long long)b->n_events);
    sb_printf(sb, "\"steps\": {\"count\": %u, \"total_ns\": %lld},\n", s->nsteps,
              (long long)s->steps_ns);
    /* JSON readers hold numbers as doubles, exact below 2^53: absolute ns
     * times (~2^60) are written as a base (a decimal string) and offsets. */
    int64_t base = s->colls.n ? s->colls.v[0].ts : 0;
    sb_printf(sb, "\"collectives_base_ns\": \"%lld\",\n\"collectives\": [", (long long)base);
    for (size_t i = 0; i < s->colls.n; i++) {
        const struct rank_coll *c = &s->colls.v[i];
        sb_printf(sb, "%s\n[%lld, %lld, %lld, ", i ? "," : "", (long long)(c->ts - base),
                  (long long)c->dur, (long long)c->stream);
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
        sb_printf(sb, ", %u, %lld]", o->count, (long long)o->gpu_ns);
    }
    int64_t cbase = s->busy.n ? s->busy.v[0].start : 0;
    sb_printf(sb, "],\n\"compute_gap_ns\": %lld, \"compute_base_ns\": \"%lld\",\n\"compute\": [",
              (long long)s->busy_gap_ns, (long long)cbase);
    for (size_t i = 0; i < s->busy.n; i++)
        sb_printf(sb, "%s%lld,%lld", i ? (i % 8 ? ", " : ",\n") : "",
                  (long long)(s->busy.v[i].start - cbase),
                  (long long)(s->busy.v[i].end - s->busy.v[i].start));
    sb_puts(sb, "]}\n");
}

enum status ranksum_write(const struct ranksum *s, const char *path, struct errinfo *err)
{
    struct strbuf sb = STRBUF_INIT;
    render(s, &sb);
    struct outfile of;
    if (outfile_open(&of, path, err) != ST_OK) {
        sb_free(&sb);
        return ST_IO;
    }
    /* The gzip stream owns a copy of the descriptor; the outfile closes
     * its own and renames the finished file into place. */
    int fd = dup(of.fd);
    gzFile gz = fd >= 0 ? gzdopen(fd, "wb6") : NULL;
    bool ok = gz && gzwrite(gz, sb.s, (unsigned)sb.len) == (int)sb.len;
    int e = errno ? errno : EIO;
    if (gz)
        ok = gzclose(gz) == Z_OK && ok;
    else if (fd >= 0)
        close(fd);
    sb_free(&sb);
    if (!ok) {
        errinfo_set(err, ST_IO, path, -1, "cannot write: %s", strerror(e));
        outfile_discard(&of);
        return ST_IO;
    }
    return outfile_commit(&of, err);
}

bool ranksum_is_summary(const char *path)
{
    /* Peeking would consume standard input, which the trace loader reads. */
    if (strcmp(path, "-") == 0)
        return false;
    struct source src;
    struct errinfo err = {0};
    bool yes = false;
    if (source_open(&src, path, &err) == ST_OK) {
        char buf[sizeof(MAGIC)];
        size_t got = 0;
        ssize_t n;
        while (got < sizeof(MAGIC) - 1 &&
               (n = source_read(&src, buf + got, sizeof(MAGIC) - 1 - got, &err)) > 0)
            got += (size_t)n;
        yes = got == sizeof(MAGIC) - 1 && memcmp(buf, MAGIC, got) == 0;
    }
    source_close(&src);
    errinfo_clear(&err);
    return yes;
}

/* Field readers: false when the value is not of the expected type. */
static bool get_i64(const cJSON *v, bool nullable, int64_t *out)
{
    if (nullable && cJSON_IsNull(v)) {
        *out = -1;
        return true;
    }
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
    if (!ok || gs > INT32_MAX || c.ts < 0 || c.ts > INT64_MAX - base)
        return false;
    c.ts += base;
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

/* The timeline object's fields, in the order of the file. */
static const char *const TL_KEYS[] = {"computation", "exposed_comm", "exposed_memcpy",
                                      "busy",        "idle",         "total",
                                      "total_comm",  "total_memcpy", "events"};

/* A decimal integer in a JSON string (absolute ns times). */
static bool get_base(const cJSON *v, int64_t *out)
{
    if (!cJSON_IsString(v) || !*v->valuestring)
        return false;
    char *end;
    errno = 0;
    long long x = strtoll(v->valuestring, &end, 10);
    if (*end || errno)
        return false;
    *out = x;
    return true;
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
    if (version == 1) {
        s->busy_gap_ns = -1;
        return NULL;
    }
    return read_busy(s, doc);
}

enum status ranksum_read(const char *path, struct ranksum **out, struct errinfo *err)
{
    *out = NULL;
    struct source src;
    if (source_open(&src, path, err) != ST_OK) {
        source_close(&src);
        return err->status;
    }
    struct strbuf text = STRBUF_INIT;
    char buf[65536];
    ssize_t n;
    while ((n = source_read(&src, buf, sizeof(buf), err)) > 0) {
        if (text.len + (size_t)n > MAX_SUMMARY_BYTES) {
            errinfo_set(err, ST_LIMIT, path, (int64_t)text.len, "a rank summary of at most %u MiB",
                        MAX_SUMMARY_BYTES >> 20);
            n = -1;
            break;
        }
        sb_putn(&text, buf, (size_t)n);
    }
    source_close(&src);
    if (n < 0) {
        sb_free(&text);
        return err->status;
    }
    cJSON *doc = cJSON_ParseWithLength(sb_str(&text), text.len);
    if (!doc) {
        const char *at = cJSON_GetErrorPtr();
        int64_t off =
            at && at >= sb_str(&text) && at <= sb_str(&text) + text.len ? at - sb_str(&text) : -1;
        errinfo_set(err, ST_FORMAT, path, off, "a rank summary (JSON)");
        sb_free(&text);
        return ST_FORMAT;
    }
    sb_free(&text);
    struct ranksum *s = ranksum_new(path);
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
