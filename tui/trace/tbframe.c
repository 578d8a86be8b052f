/* Frame classes of the traceback view (tui/trace/tbframe.h). */
#include "config.h"

#include <string.h>

#include "tui/trace/tbframe.h"

enum tbframe_class tbframe_classify(const struct tb_frame *f, bool raw)
{
    if (raw)
        return TBC_RESOLVE;
    switch (f->kind) {
    case TB_PYTHON:
    case TB_INDUCTOR:
        /* "<string>", "<frozen importlib._bootstrap>": code not read from a file. */
        return f->file && f->file[0] && f->file[0] != '<' ? TBC_SOURCE : TBC_NO_SOURCE;
    case TB_NATIVE:
        return f->file && f->file[0] && f->line > 0 && strcmp(f->file, "??") != 0 ? TBC_SOURCE
                                                                                  : TBC_NO_SOURCE;
    default:
        return TBC_NO_SOURCE;
    }
}

long tbframe_original(const struct traceback *tb, size_t i)
{
    for (size_t j = i + 1; j < tb->frames.n; j++) {
        const struct tb_frame *f = &tb->frames.v[j];
        if (f->kind == TB_PYTHON && !(f->flags & TBF_MODULE))
            return (long)j;
    }
    return -1;
}

long tbframe_source_below(const struct traceback *tb, size_t i)
{
    for (size_t j = i + 1; j < tb->frames.n; j++)
        if (tbframe_classify(&tb->frames.v[j], false) == TBC_SOURCE)
            return (long)j;
    return -1;
}
