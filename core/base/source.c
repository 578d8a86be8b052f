/* File, stdin and memory sources with transparent gzip decompression.
 * The deflate data is inflated by ISA-L's igzip: streaming in constant
 * memory as zlib does, and about three times as fast on x86 (4 GB/s of
 * JSON against zlib's 1.4 on the shared traces); the loader's scanning
 * thread inflates while the others parse. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/common.h"
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

/* The parts of a gzip member (RFC 1952), in the order they come: the
 * header's fixed fields and its optional ones, the deflate data, the
 * trailer. The header and trailer are read here: ISA-L 2.30's own header
 * parser fails on a header with FHCRC that arrives in more than one
 * piece, as it does across input windows. */
enum gz_phase { GZ_FIXED, GZ_XLEN, GZ_EXTRA, GZ_NAME, GZ_COMMENT, GZ_HCRC, GZ_DATA, GZ_TRAILER };

enum { GZ_FHCRC = 2, GZ_FEXTRA = 4, GZ_FNAME = 8, GZ_FCOMMENT = 16, GZ_FRESERVED = 0xe0 };

/* The next part of the member after `after`: an optional header field
 * when its flag is set. */
static enum gz_phase gz_next(const struct source *src, enum gz_phase after)
{
    static const uint8_t flag_of[] = {[GZ_XLEN] = GZ_FEXTRA,
                                      [GZ_EXTRA] = GZ_FEXTRA,
                                      [GZ_NAME] = GZ_FNAME,
                                      [GZ_COMMENT] = GZ_FCOMMENT,
                                      [GZ_HCRC] = GZ_FHCRC};
    enum gz_phase ph = after + 1;
    while (ph < GZ_DATA && !(src->zflags & flag_of[ph]))
        ph++;
    return ph;
}

static void gz_enter(struct source *src, enum gz_phase ph)
{
    src->zphase = (uint8_t)ph;
    src->zhave = 0;
}

/* A new member starts: its header is read next. */
static void gz_member_start(struct source *src)
{
    isal_inflate_reset(src->zs);
    src->zs->crc_flag = ISAL_GZIP_NO_HDR; /* CRC-32 of the output; no wrapper */
    src->zflags = 0;
    src->zhcrc = 0;
    gz_enter(src, GZ_FIXED);
}

static uint32_t le16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
    return le16(p) | le16(p + 2) << 16;
}

/* Read header bytes from p[0..n) until the header ends (zphase GZ_DATA)
 * or the bytes do. Returns the bytes used; *bad gets the words of a fault
 * in the header. */
static size_t gz_header_bytes(struct source *src, const uint8_t *p, size_t n, const char **bad)
{
    size_t i = 0;
    while (i < n && src->zphase < GZ_DATA && !*bad) {
        enum gz_phase ph = src->zphase;
        size_t take;
        bool done;
        if (ph == GZ_EXTRA) {
            take = MIN(src->zskip, n - i);
            src->zskip -= (uint32_t)take;
            done = src->zskip == 0;
        } else if (ph == GZ_NAME || ph == GZ_COMMENT) {
            const uint8_t *nul = memchr(p + i, 0, n - i);
            take = nul ? (size_t)(nul - (p + i)) + 1 : n - i;
            done = nul != NULL;
        } else {
            size_t want = ph == GZ_FIXED ? 10 : 2;
            take = MIN(want - src->zhave, n - i);
            memcpy(src->zfield + src->zhave, p + i, take);
            src->zhave = (uint16_t)(src->zhave + take);
            done = src->zhave == want;
        }
        if (ph != GZ_HCRC)
            src->zhcrc = (uint32_t)crc32(src->zhcrc, p + i, (uInt)take);
        i += take;
        if (!done)
            break;
        if (ph == GZ_FIXED) {
            if (src->zfield[2] != 8)
                *bad = "unknown compression method";
            else if (src->zfield[3] & GZ_FRESERVED)
                *bad = "unknown header flags set";
            src->zflags = src->zfield[3];
        } else if (ph == GZ_XLEN) {
            src->zskip = le16(src->zfield);
            if (src->zskip) {
                gz_enter(src, GZ_EXTRA);
                continue;
            }
            ph = GZ_EXTRA;
        } else if (ph == GZ_HCRC && le16(src->zfield) != (src->zhcrc & 0xffff)) {
            *bad = "header crc mismatch";
        }
        gz_enter(src, gz_next(src, ph));
    }
    return i;
}

/* The deflate data ended: the trailer follows. The inflater has read up
 * to 8 of its bytes into its bit buffer, past the last byte's padding. */
static void gz_data_end(struct source *src)
{
    const struct inflate_state *zs = src->zs;
    gz_enter(src, GZ_TRAILER);
    int bits = zs->read_in_length > 0 ? zs->read_in_length : 0;
    uint64_t ahead = zs->read_in >> (bits % 8);
    for (int k = 0; k < bits / 8 && k < 8; k++)
        src->zfield[src->zhave++] = (uint8_t)(ahead >> (8 * k));
}

/* The bytes the inflater has read ahead into its bit buffer: consumed from
 * the input, not yet decoded. */
static uint64_t gz_read_ahead(const struct source *src)
{
    int bits = src->zs->read_in_length;
    return bits > 0 ? (uint64_t)bits / 8 : 0;
}

/* The words for the inflater's fault r. */
static const char *inflate_fault(int r)
{
    switch (r) {
    case ISAL_INVALID_BLOCK:
        return "invalid deflate block";
    case ISAL_INVALID_SYMBOL:
        return "invalid code in a deflate block";
    case ISAL_INVALID_LOOKBACK:
        return "invalid distance too far back";
    default:
        return "no progress";
    }
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
        src->zs = xcalloc(1, sizeof(*src->zs));
        isal_inflate_init(src->zs);
        gz_member_start(src);
    }
    return true;
}

static void gzip_fault(struct source *src, uint64_t at, const char *what, struct errinfo *err)
{
    errinfo_set_at(err, ST_GZIP, src->name, "compressed byte", at, "corrupt gzip data (%s)", what);
}

/* Feed header or trailer bytes. Returns false with *bad and *at set on a
 * fault. A whole trailer is checked, and the next member started when one
 * follows (anything else after the last member is ignored, as gzip does);
 * false with *bad NULL on a read error. */
static bool gz_wrapper(struct source *src, const char **bad, uint64_t *at, struct errinfo *err)
{
    const uint8_t *p;
    size_t n;
    raw_window(src, &p, &n);
    if (src->zphase < GZ_DATA) {
        raw_consume(src, gz_header_bytes(src, p, n, bad));
        *at = src->in_done;
        return !*bad;
    }
    size_t take = MIN(8u - src->zhave, n);
    memcpy(src->zfield + src->zhave, p, take);
    src->zhave = (uint16_t)(src->zhave + take);
    raw_consume(src, take);
    if (src->zhave < 8)
        return true;
    /* The trailer: CRC-32, then the size modulo 2^32, each reported at
     * the byte after it, as gzip -t does. */
    if (le32(src->zfield) != src->zs->crc) {
        *bad = "incorrect data check";
        *at = src->in_done - 4;
        return false;
    }
    if (le32(src->zfield + 4) != src->zs->total_out) { /* both modulo 2^32 */
        *bad = "length error: the size in the member's trailer is not the size of its data";
        *at = src->in_done;
        return false;
    }
    if (!fill_raw(src, 2, err))
        return false;
    raw_window(src, &p, &n);
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        gz_member_start(src);
    else
        src->zend = true;
    return true;
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
        const char *bad = NULL;
        uint64_t at = 0;
        bool more = true; /* progress made */
        if (src->zphase != GZ_DATA) {
            /* A whole trailer (read ahead by the inflater) needs no input. */
            more = n > 0 || (src->zphase == GZ_TRAILER && src->zhave == 8);
            if (more && !gz_wrapper(src, &bad, &at, err) && !bad)
                return produced ? (ssize_t)produced : -1;
        } else {
            /* At the end of the input (n == 0) the inflater is called still:
             * it may hold decoded bytes that did not fit the last output. */
            zs->next_in = (uint8_t *)p;
            zs->avail_in = (uint32_t)MIN(n, UINT32_MAX);
            zs->next_out = buf + produced;
            zs->avail_out = (uint32_t)MIN(cap - produced, UINT32_MAX);
            uint32_t out_before = zs->avail_out, in_before = zs->avail_in;
            int r = isal_inflate(zs);
            size_t used = in_before - zs->avail_in;
            size_t made = out_before - zs->avail_out;
            raw_consume(src, used);
            produced += made;
            more = used || made;
            if (r == ISAL_DECOMP_OK && zs->block_state == ISAL_BLOCK_FINISH) {
                gz_data_end(src);
                more = true;
            } else if (r != ISAL_DECOMP_OK || (!more && n > 0)) {
                bad = inflate_fault(r);
                at = src->in_done - gz_read_ahead(src);
            }
        }
        if (bad) {
            /* Kept, and reported by every later read: the bytes read for
             * it may have been the last. What decoded before it is handed
             * out first. */
            src->zfail = bad;
            src->zfail_at = at;
            if (produced)
                break;
            gzip_fault(src, at, bad, err);
            return -1;
        }
        if (!more) {
            if (produced)
                break;
            errinfo_set_at(err, ST_TRUNCATED, src->name, "compressed byte", src->in_done,
                           "gzip stream ends early: the file is truncated");
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
