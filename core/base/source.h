/* Byte sources for the loaders: a file, stdin or a memory buffer, plain or
 * gzip-compressed (detected by content, never by name). Reads return the
 * decompressed bytes; offsets and sizes are tracked for progress reports
 * and error messages. */
#ifndef TORCHTOP_CORE_SOURCE_H
#define TORCHTOP_CORE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/base/errinfo.h"

struct inflate_state; /* ISA-L's igzip inflater (isa-l/igzip_lib.h) */

/* A producer of plain bytes (source_open_pull): the count written to buf,
 * 0 at the end, or -1 after filling err. */
typedef ssize_t (*source_pull_fn)(void *ud, void *buf, size_t cap, struct errinfo *err);

struct source {
    char *name;          /* for messages: the path, "-" or a label */
    source_pull_fn pull; /* pulled input, or NULL */
    void *pull_ud;
    int fd;             /* -1 when reading from memory */
    bool own_fd;        /* close fd in source_close */
    const uint8_t *mem; /* memory input, or NULL */
    size_t mem_len, mem_pos;
    bool gzip;                /* input is gzip-compressed */
    bool zend;                /* last gzip member ended */
    struct inflate_state *zs; /* the inflater of members' deflate data */
    uint8_t zphase;           /* the part of a member being read (source.c) */
    uint8_t zflags;           /* the member's header flags */
    uint16_t zhave;           /* bytes of zfield read */
    uint8_t zfield[10];       /* the header field or trailer being read */
    uint32_t zskip;           /* FEXTRA bytes left to skip */
    uint32_t zhcrc;           /* CRC-32 of the member's header so far */
    uint8_t *inbuf;           /* compressed input window */
    size_t inbuf_len, inbuf_pos;
    bool in_eof;               /* the raw input is exhausted */
    uint64_t in_total;         /* size of the raw input, 0 when unknown */
    uint64_t in_done;          /* raw bytes consumed so far */
    uint64_t out_done;         /* decompressed bytes returned so far */
    bool detected;             /* plain vs gzip decided */
    const char *zfail;         /* the words of a gzip fault found after data
                                  was handed out: reported by the next read */
    uint64_t zfail_at;         /* compressed offset of that fault */
    uint8_t *peek;             /* bytes decoded by source_sniff, handed */
    size_t peek_len, peek_pos; /* out again by the next reads          */
};

/* Open path ("-" for stdin). On failure fills err (ST_IO) and returns it.
 * A regular file opened is recorded as an input (input_registry.h). A
 * FIFO or device is opened as it is, waiting for a writer: for a path the
 * user named. */
enum status source_open(struct source *src, const char *path, struct errinfo *err);
/* As source_open, for a file the user did not name (a directory's or a
 * pattern's, a path written inside a file): only a regular file is read.
 * The open does not wait (O_NONBLOCK) and the type is checked before any
 * read; anything else is ST_IO naming its type. "-" is a file name here. */
enum status source_open_regular(struct source *src, const char *path, struct errinfo *err);
/* Read from buf[0..len); the buffer must outlive the source. */
void source_open_mem(struct source *src, const char *name, const void *buf, size_t len);
/* Read what pull writes, as it writes it (plain bytes, never gzip): a
 * document made while it is read, never held whole. */
void source_open_pull(struct source *src, const char *name, source_pull_fn pull, void *ud);
/* Read up to cap decompressed bytes into buf. Returns the count, 0 at the
 * end, or -1 after filling err (I/O error, corrupt or truncated gzip). */
ssize_t source_read(struct source *src, void *buf, size_t cap, struct errinfo *err);
void source_close(struct source *src);

/* What a file holds, judged from its first (decompressed) bytes. */
enum input_kind { INPUT_UNKNOWN, INPUT_JSON, INPUT_PICKLE };
/* Peek at a source that has not been read yet. */
enum input_kind source_sniff(struct source *src, struct errinfo *err);
/* The first `want` decoded bytes of a source not yet read (fewer at its
 * end) in *p[0..*n), without consuming them: the next reads hand them out
 * again, so a pipe is read once. False on a read fault (err filled), with
 * what was read before it. */
bool source_peek(struct source *src, size_t want, const uint8_t **p, size_t *n,
                 struct errinfo *err);

#endif
