/* Events kept as written (struct rawtext in trace.h): their text, read
 * again from the input file for an export.
 *
 * The loader keeps where each such event lies in its input, not its text
 * (a json.dumps rewrite of a trace makes nearly every event one). The
 * export reads the bytes again: a plain file by offset, a gzip file by
 * decompressing it again in file order (the export asks for texts in file
 * order, a pass for each part of traceEvents; a request before the last
 * one starts the decompression over). A file that changed since it was
 * loaded (size, modification time or inode) is refused, never read as the
 * trace it no longer is. */
#ifndef TORCHTOP_CORE_RAWTEXT_H
#define TORCHTOP_CORE_RAWTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/base/errinfo.h"
#include "core/base/source.h"
#include "core/base/strbuf.h"
#include "core/trace/trace.h"

/* Append text[0..len) without the blanks outside strings: the form every
 * kept text is written in. */
void rawtext_strip(struct strbuf *out, const char *text, size_t len);

/* The identity of the file st describes, as struct rawtext_origin keeps it. */
void rawtext_origin_of(struct rawtext_origin *o, const struct stat *st);

/* Reads the kept texts of one trace. */
struct rawtext_reader {
    const struct trace *t;
    bool open;
    struct source src;
    char *buf; /* bytes [at, at + len) of the JSON text */
    size_t cap, len;
    uint64_t at;
};

void rawtext_reader_init(struct rawtext_reader *r, const struct trace *t);
/* Append the text of t->raws[id] (id != 0) to out, blanks outside strings
 * removed. ST_IO with err filled when the file cannot be read again, or
 * changed since it was loaded. */
enum status rawtext_put(struct rawtext_reader *r, uint32_t id, struct strbuf *out,
                        struct errinfo *err);
void rawtext_reader_close(struct rawtext_reader *r);

#endif
