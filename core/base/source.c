/* File, stdin and memory sources with transparent gzip decompression. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/input_registry.h"
#include "core/base/source.h"
#include "core/base/xalloc.h"

#define INBUF_SIZE (256 * 1024)

/* What a file type is called in messages. */
static const char *file_type_name(mode_t m)
{
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISDIR(m))
        return "a directory";
    return "not a regular file";
}

static enum status open_common(struct source *src, const char *path, bool regular_only,
                               struct errinfo *err)
{
    memset(src, 0, sizeof(*src));
    src->name = xstrdup(path);
    if (strcmp(path, "-") == 0 && !regular_only) {
        src->fd = STDIN_FILENO;
    } else {
        /* O_NONBLOCK: opening a FIFO waits for a writer, which may never
         * come; the type check below runs first. */
        int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | (regular_only ? O_NONBLOCK : 0);
        src->fd = open(path, flags);
        if (src->fd < 0) {
            errinfo_set(err, ST_IO, path, -1, "cannot open: %s", strerror(errno));
            return ST_IO;
        }
        src->own_fd = true;
    }
    struct stat st;
    if (fstat(src->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            errinfo_set(err, ST_IO, path, -1, "is a directory, expected a trace file");
            return ST_IO;
        }
        if (regular_only && !S_ISREG(st.st_mode)) {
            errinfo_set(err, ST_IO, path, -1,
                        "is %s: only regular files are read from a directory or pattern (name "
                        "it on the command line to read it once)",
                        file_type_name(st.st_mode));
            return ST_IO;
        }
        if (S_ISREG(st.st_mode)) {
            src->in_total = (uint64_t)st.st_size;
            input_registry_add(&st, path);
        }
    }
    if (regular_only) {
        int fl = fcntl(src->fd, F_GETFL);
        if (fl >= 0)
            (void)fcntl(src->fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    src->inbuf = xmalloc(INBUF_SIZE);
    return ST_OK;
}

enum status source_open(struct source *src, const char *path, struct errinfo *err)
{
    return open_common(src, path, false, err);
}

enum status source_open_regular(struct source *src, const char *path, struct errinfo *err)
{
    return open_common(src, path, true, err);
}

void source_open_mem(struct source *src, const char *name, const void *buf, size_t len)
{
    memset(src, 0, sizeof(*src));
    src->name = xstrdup(name);
    src->fd = -1;
    src->mem = buf;
    src->mem_len = len;
    src->in_total = len;
}

void source_open_pull(struct source *src, const char *name, source_pull_fn pull, void *ud)
{
    memset(src, 0, sizeof(*src));
    src->name = xstrdup(name);
    src->fd = -1;
    src->pull = pull;
    src->pull_ud = ud;
    src->detected = true;
}

void source_close(struct source *src)
{
    if (src->zinit)
        inflateEnd(&src->zs);
    if (src->own_fd)
        close(src->fd);
    free(src->inbuf);
    free(src->name);
    free(src->peek);
    memset(src, 0, sizeof(*src));
    src->fd = -1;
}

/* Make at least `want` unread raw bytes available when the input has them
 * (want <= INBUF_SIZE). Returns false on a read error (err filled). */
static bool fill_raw(struct source *src, size_t want, struct errinfo *err)
{
    if (src->mem)
        return true;
    while (!src->in_eof && src->inbuf_len - src->inbuf_pos < want) {
        if (src->inbuf_pos > 0) {
            memmove(src->inbuf, src->inbuf + src->inbuf_pos, src->inbuf_len - src->inbuf_pos);
            src->inbuf_len -= src->inbuf_pos;
            src->inbuf_pos = 0;
        }
        ssize_t n = read(src->fd, src->inbuf + src->inbuf_len, INBUF_SIZE - src->inbuf_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            errinfo_set(err, ST_IO, src->name, (int64_t)src->in_done, "read failed: %s",
                        strerror(errno));
            return false;
        }
        if (n == 0)
            src->in_eof = true;
        src->inbuf_len += (size_t)n;
    }
    return true;
}

/* Unread raw bytes, without consuming them. */
static void raw_window(const struct source *src, const uint8_t **p, size_t *n)
{
    if (src->mem) {
        *p = src->mem + src->mem_pos;
        *n = src->mem_len - src->mem_pos;
    } else {
        *p = src->inbuf + src->inbuf_pos;
        *n = src->inbuf_len - src->inbuf_pos;
    }
}

static void raw_consume(struct source *src, size_t n)
{
    if (src->mem)
        src->mem_pos += n;
    else
        src->inbuf_pos += n;
    src->in_done += n;
}

/* Decide plain vs gzip from the first two raw bytes. */
static bool detect(struct source *src, struct errinfo *err)
{
    if (src->detected)
        return true;
    if (!fill_raw(src, 2, err))
        return false;
    const uint8_t *p;
    size_t n;
    raw_window(src, &p, &n);
    src->detected = true;
    src->gzip = n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
    if (src->gzip) {
        if (inflateInit2(&src->zs, 15 + 16) != Z_OK) {
            errinfo_set(err, ST_GZIP, src->name, 0, "cannot initialise zlib");
            return false;
        }
        src->zinit = true;
    }
    return true;
}

/* A gzip fault in the words of gzip -t where zlib's are less clear. */
static void gzip_fault(struct source *src, uint64_t at, const char *zmsg, struct errinfo *err)
{
    if (zmsg && strcmp(zmsg, "incorrect length check") == 0)
        errinfo_set_at(err, ST_GZIP, src->name, "compressed byte", at,
                       "corrupt gzip data (length error: the size in the member's trailer is "
                       "not the size of its data)");
    else
        errinfo_set_at(err, ST_GZIP, src->name, "compressed byte", at, "corrupt gzip data (%s)",
                       zmsg ? zmsg : "no progress");
}

static ssize_t read_gzip(struct source *src, uint8_t *buf, size_t cap, struct errinfo *err)
{
    size_t produced = 0;
    if (src->zfail) {
        gzip_fault(src, src->zfail_at, src->zfail, err);
        return -1;
    }
    while (produced < cap && !src->zend) {
        if (!fill_raw(src, 1, err))
            return produced ? (ssize_t)produced : -1;
        const uint8_t *p;
        size_t n;
        raw_window(src, &p, &n);
        if (n == 0) {
            if (produced)
                break;
            errinfo_set_at(err, ST_TRUNCATED, src->name, "compressed byte", src->in_done,
                           "gzip stream ends early: the file is truncated");
            return -1;
        }
        src->zs.next_in = (Bytef *)p;
        src->zs.avail_in = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
        src->zs.next_out = buf + produced;
        src->zs.avail_out = (uInt)(cap - produced > UINT32_MAX ? UINT32_MAX : cap - produced);
        uInt out_before = src->zs.avail_out, in_before = src->zs.avail_in;
        int r = inflate(&src->zs, Z_NO_FLUSH);
        size_t used = in_before - src->zs.avail_in;
        size_t made = out_before - src->zs.avail_out;
        raw_consume(src, used);
        produced += made;
        if (r == Z_STREAM_END) {
            /* Another member may follow (concatenated gzip files); anything
             * else after the last member is ignored, as gzip does. */
            if (!fill_raw(src, 2, err))
                return produced ? (ssize_t)produced : -1;
            raw_window(src, &p, &n);
            if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
                inflateReset(&src->zs);
            else
                src->zend = true;
            continue;
        }
        if (r != Z_OK && !(r == Z_BUF_ERROR && (used || made))) {
            if (produced) {
                /* Hand out what decoded; the next call reports the fault
                 * (kept: the bytes zlib read for it may have been the last). */
                src->zfail = src->zs.msg ? src->zs.msg : "no progress";
                src->zfail_at = src->in_done;
                break;
            }
            gzip_fault(src, src->in_done, src->zs.msg, err);
            return -1;
        }
    }
    return (ssize_t)produced;
}

static ssize_t read_decoded(struct source *src, void *buf, size_t cap, struct errinfo *err)
{
    if (src->pull) {
        ssize_t got = src->pull(src->pull_ud, buf, cap, err);
        if (got > 0) {
            src->in_done += (uint64_t)got;
            src->out_done += (uint64_t)got;
        }
        return got;
    }
    if (!detect(src, err))
        return -1;
    ssize_t got;
    if (src->gzip) {
        got = read_gzip(src, buf, cap, err);
    } else if (!src->mem && src->inbuf_pos == src->inbuf_len && !src->in_eof && cap >= INBUF_SIZE) {
        /* A large read with nothing buffered goes straight into the
         * caller's buffer: no copy through inbuf. */
        ssize_t n;
        do
            n = read(src->fd, buf, cap);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
            errinfo_set(err, ST_IO, src->name, (int64_t)src->in_done, "read failed: %s",
                        strerror(errno));
            return -1;
        }
        if (n == 0)
            src->in_eof = true;
        src->in_done += (uint64_t)n;
        got = n;
    } else {
        if (!fill_raw(src, 1, err))
            return -1;
        const uint8_t *p;
        size_t n;
        raw_window(src, &p, &n);
        if (n > cap)
            n = cap;
        memcpy(buf, p, n);
        raw_consume(src, n);
        got = (ssize_t)n;
    }
    if (got > 0)
        src->out_done += (uint64_t)got;
    return got;
}

ssize_t source_read(struct source *src, void *buf, size_t cap, struct errinfo *err)
{
    if (src->peek_pos < src->peek_len) {
        size_t n = src->peek_len - src->peek_pos;
        if (n > cap)
            n = cap;
        memcpy(buf, src->peek + src->peek_pos, n);
        src->peek_pos += n;
        return (ssize_t)n;
    }
    return read_decoded(src, buf, cap, err);
}

bool source_peek(struct source *src, size_t want, const uint8_t **p, size_t *n, struct errinfo *err)
{
    bool ok = true;
    if (src->peek_len < want) {
        src->peek = xreallocarray(src->peek, want, 1);
        ssize_t r = 0;
        while (src->peek_len < want &&
               (r = read_decoded(src, src->peek + src->peek_len, want - src->peek_len, err)) > 0)
            src->peek_len += (size_t)r;
        ok = r >= 0;
    }
    *p = src->peek ? src->peek : (const uint8_t *)"";
    *n = src->peek_len < want ? src->peek_len : want;
    return ok;
}

enum input_kind source_sniff(struct source *src, struct errinfo *err)
{
    const uint8_t *b;
    size_t n;
    source_peek(src, 64, &b, &n, err);
    size_t i = 0;
    while (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t'))
        i++;
    if (i == 0 && n && b[0] == 0x80)
        return INPUT_PICKLE;
    if (i < n && (b[i] == '{' || b[i] == '['))
        return INPUT_JSON;
    return INPUT_UNKNOWN;
}
