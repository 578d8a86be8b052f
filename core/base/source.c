/* File, stdin and memory sources with transparent gzip decompression.
 * Gzip is inflated by ISA-L's igzip: streaming in constant memory, and two
 * to three times as fast as zlib on x86, where inflating is most of the
 * time of a load that parses on other threads. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
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

void source_close(struct source *src)
{
    free(src->zs);
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
        /* Each member's header (every optional field) is parsed and its
         * trailer (CRC-32 and size) checked by the inflater. */
        src->zs = xcalloc(1, sizeof(*src->zs));
        isal_inflate_init(src->zs);
        src->zs->crc_flag = ISAL_GZIP;
    }
    return true;
}

/* Remember the last raw bytes the inflater consumed: p[0..used). */
static void keep_tail(struct source *src, const uint8_t *p, size_t used)
{
    size_t keep = sizeof(src->ztail);
    if (used >= keep) {
        memcpy(src->ztail, p + used - keep, keep);
    } else if (used) {
        memmove(src->ztail, src->ztail + used, keep - used);
        memcpy(src->ztail + keep - used, p, used);
    }
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool in_header(enum isal_block_state s)
{
    return s == ISAL_GZIP_EXTRA_LEN || s == ISAL_GZIP_EXTRA || s == ISAL_GZIP_NAME ||
           s == ISAL_GZIP_COMMENT || s == ISAL_GZIP_HCRC;
}

/* The words for the inflater's fault r and the compressed offset it lies
 * at (*at: consumed so far on entry). The inflater reads ahead a few bytes
 * into its bit buffer; those bytes are not yet decoded and not counted. A
 * failed trailer check names the field that disagrees, as gzip -t does. */
static const char *inflate_fault(struct source *src, int r, uint64_t *at)
{
    const struct inflate_state *zs = src->zs;
    if (zs->read_in_length > 0 && (uint64_t)zs->read_in_length / 8 <= *at)
        *at -= (uint64_t)zs->read_in_length / 8;
    switch (r) {
    case ISAL_INVALID_BLOCK:
        return "invalid deflate block";
    case ISAL_INVALID_SYMBOL:
        return "invalid code in a deflate block";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER:
        return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD:
        return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
        if (in_header(zs->block_state))
            return "header crc mismatch";
        /* The trailer was the last 8 bytes read: CRC-32, then ISIZE. */
        if (le32(src->ztail) != zs->crc) {
            *at = *at >= 4 ? *at - 4 : 0;
            return "incorrect data check";
        }
        return "length error: the size in the member's trailer is not the size of its data";
    default:
        return "no progress";
    }
}

static void gzip_fault(struct source *src, uint64_t at, const char *what, struct errinfo *err)
{
    errinfo_set_at(err, ST_GZIP, src->name, "compressed byte", at, "corrupt gzip data (%s)", what);
}

static ssize_t read_gzip(struct source *src, uint8_t *buf, size_t cap, struct errinfo *err)
{
    size_t produced = 0;
    if (src->zfail) {
        gzip_fault(src, src->zfail_at, src->zfail, err);
        return -1;
    }
    struct inflate_state *zs = src->zs;
    while (produced < cap && !src->zend) {
        if (!fill_raw(src, 1, err))
            return produced ? (ssize_t)produced : -1;
        const uint8_t *p;
        size_t n;
        raw_window(src, &p, &n);
        /* At the end of the input (n == 0) the inflater is called still:
         * it may hold decoded bytes that did not fit the last output. */
        zs->next_in = (uint8_t *)p;
        zs->avail_in = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
        zs->next_out = buf + produced;
        zs->avail_out = (uint32_t)(cap - produced > UINT32_MAX ? UINT32_MAX : cap - produced);
        uint32_t out_before = zs->avail_out, in_before = zs->avail_in;
        int r = isal_inflate(zs);
        size_t used = in_before - zs->avail_in;
        size_t made = out_before - zs->avail_out;
        keep_tail(src, p, used);
        raw_consume(src, used);
        produced += made;
        if (r == ISAL_DECOMP_OK && zs->block_state == ISAL_BLOCK_FINISH) {
            /* Another member may follow (concatenated gzip files); anything
             * else after the last member is ignored, as gzip does. */
            if (!fill_raw(src, 2, err))
                return produced ? (ssize_t)produced : -1;
            raw_window(src, &p, &n);
            if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
                isal_inflate_reset(zs);
            else
                src->zend = true;
            continue;
        }
        if (r == ISAL_DECOMP_OK && !used && !made && n == 0) {
            if (produced)
                break;
            errinfo_set_at(err, ST_TRUNCATED, src->name, "compressed byte", src->in_done,
                           "gzip stream ends early: the file is truncated");
            return -1;
        }
        if (r != ISAL_DECOMP_OK || (!used && !made)) {
            uint64_t at = src->in_done;
            const char *what = inflate_fault(src, r, &at);
            if (produced) {
                /* Hand out what decoded; the next call reports the fault
                 * (kept: the bytes read for it may have been the last). */
                src->zfail = what;
                src->zfail_at = at;
                break;
            }
            gzip_fault(src, at, what, err);
            return -1;
        }
    }
    return (ssize_t)produced;
}

static ssize_t read_decoded(struct source *src, void *buf, size_t cap, struct errinfo *err)
{
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
