/* Kept event texts, read again from the input file. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/xalloc.h"
#include "core/trace/jsonscan.h"
#include "core/trace/rawtext.h"

#define WINDOW_BYTES (1u << 20) /* input read at once */

void rawtext_strip(struct strbuf *out, const char *text, size_t len)
{
    bool in_str = false;
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (json_is_ws((unsigned char)c)) {
            sb_putn(out, text + from, i - from);
            from = i + 1;
        }
    }
    sb_putn(out, text + from, len - from);
}

void rawtext_origin_of(struct rawtext_origin *o, const struct stat *st)
{
    o->dev = (uint64_t)st->st_dev;
    o->ino = (uint64_t)st->st_ino;
    o->size = (uint64_t)st->st_size;
    o->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

void rawtext_reader_init(struct rawtext_reader *r, const struct trace *t)
{
    memset(r, 0, sizeof(*r));
    r->t = t;
    r->src.fd = -1;
}

void rawtext_reader_close(struct rawtext_reader *r)
{
    if (r->open)
        source_close(&r->src);
    free(r->buf);
    memset(r, 0, sizeof(*r));
}

static enum status changed(struct rawtext_reader *r, struct errinfo *err)
{
    errinfo_set(err, ST_IO, r->t->path, -1,
                "changed since it was loaded: the events kept as written cannot be read from "
                "it again; load the trace again to export it");
    return ST_IO;
}

/* (Re)open the input at its start, as it was loaded. */
static enum status reopen(struct rawtext_reader *r, struct errinfo *err)
{
    if (r->open)
        source_close(&r->src);
    r->open = false;
    r->at = r->len = 0;
    if (source_open_regular(&r->src, r->t->path, err) != ST_OK)
        return ST_IO;
    r->open = true;
    struct stat st;
    struct rawtext_origin now;
    if (fstat(r->src.fd, &st) != 0) {
        errinfo_set(err, ST_IO, r->t->path, -1, "cannot read it again: %s", strerror(errno));
        return ST_IO;
    }
    rawtext_origin_of(&now, &st);
    if (memcmp(&now, &r->t->origin, sizeof(now)) != 0)
        return changed(r, err);
    return ST_OK;
}

static void reserve(struct rawtext_reader *r, size_t need)
{
    if (r->cap >= need)
        return;
    r->cap = need > WINDOW_BYTES ? need : WINDOW_BYTES;
    r->buf = xreallocarray(r->buf, r->cap, 1);
}

/* A plain file: [at, at + len) and what follows, by offset. */
static enum status read_plain(struct rawtext_reader *r, uint64_t at, size_t len,
                              struct errinfo *err)
{
    reserve(r, len);
    r->at = at;
    r->len = 0;
    while (r->len < r->cap) {
        ssize_t n = pread(r->src.fd, r->buf + r->len, r->cap - r->len, (off_t)(at + r->len));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            errinfo_set(err, ST_IO, r->t->path, -1, "cannot read it again: %s", strerror(errno));
            return ST_IO;
        }
        if (n == 0)
            break;
        r->len += (size_t)n;
    }
    return ST_OK;
}

/* A gzip file: decompressed on to [at, at + len) and what follows, from
 * the start again when `at` lies before the window. */
static enum status read_gzip(struct rawtext_reader *r, uint64_t at, size_t len, struct errinfo *err)
{
    if (at < r->at && reopen(r, err) != ST_OK)
        return ST_IO;
    reserve(r, len);
    uint64_t end = r->at + r->len;
    if (at < end) {
        size_t drop = (size_t)(at - r->at);
        memmove(r->buf, r->buf + drop, r->len - drop);
        r->len -= drop;
        r->at = at;
    } else {
        r->len = 0;
        r->at = end;
        while (r->at < at) {
            uint64_t gap = at - r->at;
            ssize_t n = source_read(&r->src, r->buf, gap < r->cap ? (size_t)gap : r->cap, err);
            if (n < 0)
                return ST_IO;
            if (n == 0)
                return ST_OK; /* ended early: the caller finds the text missing */
            r->at += (uint64_t)n;
        }
    }
    while (r->len < len) {
        ssize_t n = source_read(&r->src, r->buf + r->len, r->cap - r->len, err);
        if (n < 0)
            return ST_IO;
        if (n == 0)
            break;
        r->len += (size_t)n;
    }
    return ST_OK;
}

enum status rawtext_put(struct rawtext_reader *r, uint32_t id, struct strbuf *out,
                        struct errinfo *err)
{
    const struct trace *t = r->t;
    struct rawtext x = t->raws.v[id];
    if (!x.len) {
        uint32_t s = (uint32_t)x.at;
        sb_putn(out, strtab_str(&t->strs, s), strtab_len(&t->strs, s));
        return ST_OK;
    }
    if (!r->open && reopen(r, err) != ST_OK)
        return ST_IO;
    uint64_t at = x.at;
    size_t len = x.len;
    if (at < r->at || at + len > r->at + r->len) {
        enum status st = t->gzip ? read_gzip(r, at, len, err) : read_plain(r, at, len, err);
        if (st != ST_OK)
            return st;
        if (at < r->at || at + len > r->at + r->len)
            return changed(r, err);
    }
    /* What the loader read there was one object: anything else means the
     * file is not the one loaded, whatever its size and time say. */
    size_t from = out->len;
    rawtext_strip(out, r->buf + (at - r->at), len);
    if (out->len - from < 2 || out->s[from] != '{' || out->s[out->len - 1] != '}') {
        out->len = from;
        return changed(r, err);
    }
    return ST_OK;
}
