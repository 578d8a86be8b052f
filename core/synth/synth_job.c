/* Synthetic multi-rank jobs: per-rank traces with skewed collectives and
 * one straggler (synth_job.h gives the timing rule). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "core/base/outfile.h"
#include "core/base/xalloc.h"
#include "core/synth/synth_job.h"

#define EPOCH_US INT64_C(1700000000000000)
#define PID 1000
#define TID 1001
#define COMP_STREAM 7
#define COMM_STREAM 20

struct kind {
    const char *coll;   /* Collective name */
    const char *kernel; /* kernel name */
    const char *dtype;
    int64_t nelems; /* In msg nelems (Out: times the group for all-gather) */
};

static const struct kind kinds[] = {
    {"allreduce", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     "Float", 1 << 20},
    {"allgather", "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     "BFloat16", 1 << 18},
    {"reducescatter",
     "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     "BFloat16", 1 << 20},
    {"all_to_all", "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)", "Float",
     1 << 16},
};

static unsigned opt_steps(const struct synth_job_opts *o)
{
    return o->steps ? o->steps : 2;
}
static unsigned opt_colls(const struct synth_job_opts *o)
{
    return o->colls ? o->colls : 4;
}
static int opt_straggler(const struct synth_job_opts *o)
{
    return o->straggler >= 0 ? o->straggler : (int)(o->ranks / 2);
}

static int64_t opt_delay(const struct synth_job_opts *o)
{
    return o->straggler_us ? o->straggler_us : 300;
}

/* Start of step s, µs from the epoch: steps are long enough for every
 * collective, the straggler's delay and the broadcast. */
static int64_t step_base(const struct synth_job_opts *o, unsigned s)
{
    return EPOCH_US + (int64_t)s * (2000 * (int64_t)opt_colls(o) + 5000 + opt_delay(o));
}

/* Arrival of rank r at collective c of step s, µs from the epoch. */
static int64_t arrival(const struct synth_job_opts *o, unsigned r, unsigned c, unsigned s)
{
    int64_t t = step_base(o, s) + 1000 + 2000 * (int64_t)c + ((7 * r + 3 * c + s) % 13) * 4;
    if ((int)r != opt_straggler(o))
        return t;
    if (o->straggler_after_last && o->ranks > 1) {
        /* the latest of the others (a skew is at most 12 x 4 µs: stop there) */
        int64_t own = t;
        t = INT64_MIN;
        for (unsigned k = 0;
             k < o->ranks && t < own - (int64_t)(((7 * r + 3 * c + s) % 13) * 4) + 48; k++)
            if ((int)k != opt_straggler(o)) {
                int64_t a = arrival(o, k, c, s);
                t = a > t ? a : t;
            }
    }
    return t + opt_delay(o);
}

static int64_t latest_arrival(const struct synth_job_opts *o, unsigned c, unsigned s)
{
    int64_t m = INT64_MIN;
    for (unsigned r = 0; r < o->ranks; r++) {
        int64_t a = arrival(o, r, c, s);
        m = a > m ? a : m;
    }
    return m;
}

static void span(struct strbuf *sb, const char *cat, const char *name, int tid, int64_t ts,
                 int64_t dur, const char *args)
{
    sb_printf(sb,
              ",\n{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, "
              "\"ts\": %" PRId64 ", \"dur\": %" PRId64 ", \"args\": {%s}}",
              cat, name, tid == COMP_STREAM || tid == COMM_STREAM ? 0 : PID, tid, ts, dur, args);
}

/* A cpu_op launching one kernel: op, runtime call, kernel. */
static void launch(struct strbuf *sb, const char *op, const char *kernel, int stream, int64_t at,
                   int64_t kstart, int64_t kdur, uint64_t *corr, const char *kargs)
{
    uint64_t c = ++*corr;
    char a[128];
    snprintf(a, sizeof(a), "\"External id\": %" PRIu64, c);
    span(sb, "cpu_op", op, TID, at, 20, a);
    snprintf(a, sizeof(a), "\"External id\": %" PRIu64 ", \"correlation\": %" PRIu64, c, c);
    span(sb, "cuda_runtime", "cudaLaunchKernel", TID, at + 5, 8, a);
    struct strbuf ka = STRBUF_INIT;
    sb_printf(&ka,
              "\"External id\": %" PRIu64 ", \"device\": 0, \"stream\": %d, \"correlation\": "
              "%" PRIu64 "%s%s",
              c, stream, c, kargs ? ", " : "", kargs ? kargs : "");
    span(sb, "kernel", kernel, stream, kstart, kdur, sb_str(&ka));
    sb_free(&ka);
}

void synth_job_rank(const struct synth_job_opts *o, unsigned r, struct strbuf *out)
{
    sb_printf(
        out,
        "{\n\"schemaVersion\": 1,\n\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %u, "
        "\"world_size\": %u},\n"
        "\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", "
        "\"totalGlobalMem\": 85045854208, \"computeMajor\": 9, \"computeMinor\": 0, "
        "\"numSms\": 132, \"warpSize\": 32}],\n\"traceEvents\": [\n"
        "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"tid\": 0, \"args\": "
        "{\"name\": \"python3\"}}",
        r, o->ranks, PID);
    struct strbuf ranks = STRBUF_INIT;
    sb_putc(&ranks, '[');
    for (unsigned k = 0; k < o->ranks; k++)
        sb_printf(&ranks, "%s%u", k ? ", " : "", k);
    sb_putc(&ranks, ']');
    uint64_t corr = 0;
    struct strbuf args = STRBUF_INIT;
    for (unsigned s = 0; s < opt_steps(o); s++) {
        int64_t t0 = step_base(o, s);
        int64_t step_end = t0;
        for (unsigned c = 0; c < opt_colls(o); c++) {
            const struct kind *k = &kinds[c % ARRAY_SIZE(kinds)];
            int64_t a = arrival(o, r, c, s);
            int64_t latency = 100 + 20 * (int64_t)(c % 5);
            int64_t end = latest_arrival(o, c, s) + latency + r % 3;
            /* The compute before it: longer on ranks that arrive later. */
            launch(out, "aten::mm", "sm90_xmma_gemm_bf16bf16_bf16f32", COMP_STREAM, a - 900,
                   a - 800, 700, &corr, NULL);
            sb_clear(&args);
            if (o->metadata) {
                int64_t outn = strcmp(k->coll, "allgather") == 0       ? k->nelems * o->ranks
                               : strcmp(k->coll, "reducescatter") == 0 ? k->nelems / o->ranks
                                                                       : k->nelems;
                sb_printf(&args,
                          "\"Collective name\": \"%s\", \"dtype\": \"%s\", \"In msg nelems\": "
                          "%" PRId64 ", \"Out msg nelems\": %" PRId64 ", \"Group size\": %u, "
                          "\"Process Group Name\": \"0\", \"Process Group Description\": "
                          "\"default_pg\", \"Process Group Ranks\": \"%s\"",
                          k->coll, k->dtype, k->nelems, outn, o->ranks, sb_str(&ranks));
            }
            launch(out, "record_param_comms", k->kernel, COMM_STREAM, a - 30, a, end - a, &corr,
                   args.len ? sb_str(&args) : NULL);
            step_end = end > step_end ? end : step_end;
        }
        if (o->metadata) {
            /* A broadcast each step: not an implicit-sync collective. */
            int64_t a = step_end + 100 + r;
            sb_clear(&args);
            sb_printf(&args,
                      "\"Collective name\": \"broadcast\", \"dtype\": \"Float\", \"In msg "
                      "nelems\": 1024, \"Out msg nelems\": 1024, \"Group size\": %u, \"Process "
                      "Group Name\": \"0\", \"Process Group Description\": \"default_pg\", "
                      "\"Process Group Ranks\": \"%s\"",
                      o->ranks, sb_str(&ranks));
            launch(out, "record_param_comms",
                   "ncclDevKernel_Broadcast_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
                   COMM_STREAM, a - 30, a, 50, &corr, sb_str(&args));
            step_end = a + 50;
        }
        char name[32];
        snprintf(name, sizeof(name), "ProfilerStep#%u", s);
        span(out, "user_annotation", name, TID, t0, step_end + 50 - t0, "");
    }
    sb_free(&args);
    sb_free(&ranks);
    sb_puts(out, "\n]}\n");
}

static enum status write_one(const char *path, const struct strbuf *sb, bool gzip,
                             struct errinfo *err)
{
    struct outfile of;
    if (outfile_open(&of, path, err) != ST_OK)
        return ST_IO;
    bool ok;
    int e = 0;
    if (gzip) {
        int fd = dup(of.fd);
        gzFile gz = fd >= 0 ? gzdopen(fd, "wb1") : NULL;
        ok = gz && gzwrite(gz, sb->s, (unsigned)sb->len) == (int)sb->len;
        e = errno;
        if (gz)
            ok = gzclose(gz) == Z_OK && ok;
        else if (fd >= 0)
            close(fd);
    } else {
        const char *p = sb->s;
        size_t left = sb->len;
        ok = true;
        while (ok && left) {
            ssize_t n = write(of.fd, p, left);
            if (n < 0 && errno == EINTR)
                continue;
            ok = n > 0;
            e = errno;
            if (ok) {
                p += n;
                left -= (size_t)n;
            }
        }
    }
    if (!ok) {
        errinfo_set(err, ST_IO, path, -1, "cannot write: %s", strerror(e ? e : EIO));
        outfile_discard(&of);
        return ST_IO;
    }
    return outfile_commit(&of, err);
}

enum status synth_job_write(const struct synth_job_opts *o, const char *dir, struct errinfo *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        errinfo_set(err, ST_IO, dir, -1, "cannot create the directory: %s", strerror(errno));
        return ST_IO;
    }
    struct strbuf sb = STRBUF_INIT;
    enum status st = ST_OK;
    for (unsigned r = 0; r < o->ranks && st == ST_OK; r++) {
        sb_clear(&sb);
        synth_job_rank(o, r, &sb);
        char *path = xasprintf("%s/rank-%u.json%s", dir, r, o->gzip ? ".gz" : "");
        st = write_one(path, &sb, o->gzip, err);
        free(path);
    }
    sb_free(&sb);
    return st;
}
