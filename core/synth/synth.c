/* Synthetic trace generation: the writer and its sinks (callback, gzip,
 * memory, file), size planning, and the generation loop. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/outfile.h"
#include "core/synth/synth_internal.h"

#define SOUT_CAP (1u << 20)

/* ------------------------------------------------------------------------ */
/* Number formatting                                                        */
/* ------------------------------------------------------------------------ */

static const char digit_pairs[201] = "00010203040506070809"
                                     "10111213141516171819"
                                     "20212223242526272829"
                                     "30313233343536373839"
                                     "40414243444546474849"
                                     "50515253545556575859"
                                     "60616263646566676869"
                                     "70717273747576777879"
                                     "80818283848586878889"
                                     "90919293949596979899";

char *synth_fmt_u64(char *end, uint64_t v)
{
    char *p = end;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = digit_pairs[d + 1];
        *--p = digit_pairs[d];
    }
    if (v >= 10) {
        unsigned d = (unsigned)v * 2;
        *--p = digit_pairs[d + 1];
        *--p = digit_pairs[d];
    } else {
        *--p = (char)('0' + v);
    }
    return p;
}

void synth_rng_seed(struct synth_rng *r, uint64_t seed)
{
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) {
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = x ^ (x >> 31);
    }
}

void synth_out_fixed(struct synth_out *o, uint64_t v, unsigned decimals)
{
    char tmp[48];
    char *end = tmp + sizeof(tmp);
    char *p = end;
    for (unsigned i = 0; i < decimals; i++) {
        *--p = (char)('0' + v % 10);
        v /= 10;
    }
    if (decimals)
        *--p = '.';
    p = synth_fmt_u64(p, v);
    synth_out_put(o, p, (size_t)(end - p));
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                   */
/* ------------------------------------------------------------------------ */

static void synth_out_init(struct synth_out *o, synth_out_sink_fn sink, void *ud)
{
    memset(o, 0, sizeof(*o));
    o->cap = SOUT_CAP;
    o->buf = xmalloc(o->cap);
    o->sink = sink;
    o->ud = ud;
}

void synth_out_flush(struct synth_out *o)
{
    if (!o->len)
        return;
    if (!o->err && o->sink)
        o->err = o->sink(o, o->buf, o->len);
    o->flushed += o->len;
    o->len = 0;
}

static void synth_out_done(struct synth_out *o)
{
    free(o->buf);
    o->buf = NULL;
}

/* The caller's callback. */
struct user_sink {
    synth_write_fn fn;
    void *ud;
    uint64_t bytes; /* handed to fn */
};

static int user_write(struct user_sink *u, const char *buf, size_t len)
{
    u->bytes += len;
    return u->fn(u->ud, buf, len);
}

static int sink_user(struct synth_out *o, const char *buf, size_t len)
{
    return user_write(o->ud, buf, len);
}

/* gzip in front of the callback. */
struct gz_sink {
    z_stream zs;
    unsigned char *zbuf;
    size_t zcap;
    struct user_sink *next;
};

static int gz_run(struct gz_sink *g, const char *buf, size_t len, int flush)
{
    g->zs.next_in = (unsigned char *)(uintptr_t)buf;
    g->zs.avail_in = (uInt)len;
    for (;;) {
        g->zs.next_out = g->zbuf;
        g->zs.avail_out = (uInt)g->zcap;
        int rc = deflate(&g->zs, flush);
        if (rc == Z_STREAM_ERROR)
            return EIO;
        size_t have = g->zcap - g->zs.avail_out;
        if (have) {
            int err = user_write(g->next, (const char *)g->zbuf, have);
            if (err)
                return err;
        }
        if (flush == Z_FINISH ? rc == Z_STREAM_END : g->zs.avail_out != 0)
            return 0;
    }
}

static int sink_gzip(struct synth_out *o, const char *buf, size_t len)
{
    return gz_run(o->ud, buf, len, Z_NO_FLUSH);
}

/* ------------------------------------------------------------------------ */
/* Generation                                                               */
/* ------------------------------------------------------------------------ */

static void generate(const struct synth_opts *opts, const struct synth_plan *plan,
                     struct synth_out *o, struct synth_stats *st)
{
    memset(st, 0, sizeof(*st));
    st->layers = plan->layers;
    st->steps = plan->steps;
    st->data_frames = plan->data_frames;
    struct smodel m;
    smodel_init(&m, opts, plan->layers);
    struct sim s;
    sim_init(&s, &m, opts->seed, plan->data_frames);
    s.inject = opts->inject_us;
    struct emitter e = {.o = o, .m = &m, .st = st};
    synth_emit_header(&e, opts->seed);
    for (unsigned i = 0; i < plan->steps && !o->err; i++) {
        sim_step(&s);
        synth_emit_step(&e, &s);
        s.r.n = 0;
    }
    if (!o->err)
        synth_emit_trailer(&e, &s, opts->seed);
    synth_out_flush(o);
    st->json_bytes = o->flushed;
    sim_done(&s);
    smodel_done(&m);
}

/* Bytes or events (whichever opts targets) of a generation that writes
 * nothing. */
static double measure(const struct synth_opts *opts, unsigned layers, unsigned steps,
                      unsigned data_frames)
{
    struct synth_out o;
    struct synth_stats st;
    struct synth_plan plan = {layers, steps, data_frames};
    synth_out_init(&o, NULL, NULL);
    generate(opts, &plan, &o, &st);
    synth_out_done(&o);
    return (double)(opts->target_bytes ? st.json_bytes : st.events);
}

/* Data frames per step at most when filling up to a target. */
#define MAX_DATA_FRAMES 4000

void synth_plan(const struct synth_opts *opts, struct synth_plan *plan)
{
    uint64_t target = opts->target_bytes ? opts->target_bytes : opts->target_events;
    plan->layers = opts->layers ? opts->layers : SYNTH_DEMO_LAYERS;
    plan->steps = opts->steps ? opts->steps : SYNTH_DEMO_STEPS;
    plan->data_frames = SYNTH_DEMO_DATA_FRAMES;
    plan->layers = MIN(plan->layers, SYNTH_MAX_LAYERS);
    if (!target || (opts->layers && opts->steps))
        return;
    /* Size is affine in each knob: fixed + steps * (per_step + (layers - 1)
     * * per_layer + frames * per_frame). Small generations give the terms. */
    double c11 = measure(opts, 1, 1, 0);
    /* Blocks alternate two attention kinds: average a pair. */
    double per_layer = (measure(opts, 3, 1, 0) - c11) / 2;
    double per_step = measure(opts, 1, 2, 0) - c11;
    double per_frame = (measure(opts, 1, 1, 400) - c11) / 400;
    double fixed = c11 - per_step;
    double room = MAX((double)target - fixed, 0.0);

    double l, n;
    if (opts->layers) {
        l = opts->layers;
        n = floor(room / (per_step + (l - 1) * per_layer));
    } else if (opts->steps) {
        n = opts->steps;
        l = floor((room / n - per_step) / per_layer) + 1;
    } else {
        /* Deep enough that a step is at most a tenth of the target, up to
         * a realistic 24 blocks; then whole steps. */
        l = CLAMP(floor((room / 10 - per_step) / per_layer) + 1, 1, 24);
        n = floor(room / (per_step + (l - 1) * per_layer));
    }
    l = MAX(l, 1);
    n = MAX(n, 1);
    double rest = room - n * (per_step + (l - 1) * per_layer);
    double frames = rest > 0 ? round(rest / (n * per_frame)) : 0;
    plan->layers = (unsigned)MIN(l, SYNTH_MAX_LAYERS);
    plan->steps = (unsigned)MIN(n, 100000000);
    plan->data_frames = (unsigned)MIN(frames, MAX_DATA_FRAMES);
}

enum status synth_write(const struct synth_opts *opts, synth_write_fn write, void *ud,
                        struct synth_stats *st, struct errinfo *err)
{
    struct synth_stats local;
    if (!st)
        st = &local;
    struct synth_plan plan;
    synth_plan(opts, &plan);

    struct user_sink user = {write, ud, 0};
    struct gz_sink gz;
    struct synth_out o;
    int zerr = 0;
    if (opts->gzip) {
        memset(&gz, 0, sizeof(gz));
        int level = opts->gzip_level >= 1 && opts->gzip_level <= 9 ? opts->gzip_level : 1;
        if (deflateInit2(&gz.zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            abort();
        gz.zcap = 256 * 1024;
        gz.zbuf = xmalloc(gz.zcap);
        gz.next = &user;
        synth_out_init(&o, sink_gzip, &gz);
    } else {
        synth_out_init(&o, sink_user, &user);
    }
    generate(opts, &plan, &o, st);
    int e = o.err;
    if (opts->gzip) {
        if (!e)
            zerr = gz_run(&gz, "", 0, Z_FINISH);
        deflateEnd(&gz.zs);
        free(gz.zbuf);
        e = e ? e : zerr;
    }
    synth_out_done(&o);
    st->out_bytes = user.bytes;
    if (e) {
        errinfo_set(err, ST_IO, NULL, -1, "cannot write the trace: %s", strerror(e));
        return ST_IO;
    }
    return ST_OK;
}

/* ------------------------------------------------------------------------ */
/* Files and memory                                                         */
/* ------------------------------------------------------------------------ */

static int fd_write(void *ud, const void *buf, size_t len)
{
    int fd = *(int *)ud;
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno ? errno : EIO;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

enum status synth_to_file(const struct synth_opts *opts, const char *path, struct synth_stats *st,
                          struct errinfo *err)
{
    struct outfile of;
    if (outfile_open(&of, path, err) != ST_OK)
        return ST_IO;
    struct errinfo werr = {0};
    enum status s = synth_write(opts, fd_write, &of.fd, st, &werr);
    if (s != ST_OK) {
        errinfo_set(err, s, path, -1, "%s", werr.msg ? werr.msg : "write failed");
        outfile_discard(&of);
    } else {
        s = outfile_commit(&of, err);
    }
    errinfo_clear(&werr);
    return s;
}

static int mem_write(void *ud, const void *buf, size_t len)
{
    sb_putn(ud, buf, len);
    return 0;
}

char *synth_to_memory(const struct synth_opts *opts, size_t *len, struct synth_stats *st)
{
    struct strbuf sb = STRBUF_INIT;
    struct errinfo err = {0};
    synth_write(opts, mem_write, &sb, st, &err);
    errinfo_clear(&err);
    *len = sb.len;
    char *s = sb_steal(&sb);
    return s ? s : xstrdup("");
}

bool synth_parse_size(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !isfinite(v) || v <= 0)
        return false;
    double mul = 1;
    switch (*end) {
    case 'k':
    case 'K':
        mul = 1024.0;
        end++;
        break;
    case 'm':
    case 'M':
        mul = 1024.0 * 1024;
        end++;
        break;
    case 'g':
    case 'G':
        mul = 1024.0 * 1024 * 1024;
        end++;
        break;
    default:
        break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        return false;
    v *= mul;
    if (v < 1 || v > 9.0e15)
        return false;
    *out = (uint64_t)v;
    return true;
}
