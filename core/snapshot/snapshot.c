/* CUDA memory snapshots: names, frame helpers and release of the model. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/snapshot/snapshot.h"
#include "core/symbols/traceback.h"

const char *snapshot_action_name(enum snap_action a)
{
    static const char *const names[] = {
#define SA_NAME(id, name) [id] = name,
        SNAP_ACTION_INFO(SA_NAME)
#undef SA_NAME
    };
    return (unsigned)a < SA__COUNT ? names[a] : "other";
}

const char *snapshot_state_name(enum snap_block_state st)
{
    static const char *const names[] = {
#define BS_NAME(id, name) [id] = name,
        SNAP_STATE_INFO(BS_NAME)
#undef BS_NAME
    };
    return (unsigned)st < BS__COUNT ? names[st] : "other";
}

size_t snapshot_site_start(const struct snapshot *s, uint32_t stack)
{
    const uint32_t *f;
    size_t n = snapshot_stack(s, stack, &f), i = 0;
    while (i < n && (s->frames.v[f[i]].flags & (SFF_HIDDEN | SFF_ALLOCATOR)))
        i++;
    return i;
}

uint32_t snapshot_top_frame(const struct snapshot *s, uint32_t stack)
{
    const uint32_t *f;
    size_t n = snapshot_stack(s, stack, &f), i = snapshot_site_start(s, stack);
    if (i < n)
        return f[i];
    for (i = 0; i < n; i++)
        if (!(s->frames.v[f[i]].flags & SFF_HIDDEN))
            return f[i];
    return n ? f[0] : IDX_NONE;
}

uint32_t snapshot_site_frame(const struct snapshot *s, uint32_t stack)
{
    const uint32_t *f;
    size_t n = snapshot_stack(s, stack, &f);
    for (size_t i = 0; i < n; i++)
        if (s->frames.v[f[i]].flags & SFF_PYTHON)
            return f[i];
    return snapshot_top_frame(s, stack);
}

static bool unknown_file(const char *fn)
{
    return fn[0] == 0 || strcmp(fn, "??") == 0;
}

void snapshot_frame_format(const struct snapshot *s, uint32_t frame, struct strbuf *out)
{
    const struct snap_frame *f = snapshot_frame(s, frame);
    const char *fn = snapshot_str(s, f->filename);
    sb_puts(out, snapshot_str(s, f->name));
    if (f->flags & SFF_RAW)
        sb_printf(out, " (%s+0x%llx)", fn, (unsigned long long)f->line);
    else if (!unknown_file(fn) && f->line > 0)
        sb_printf(out, " (%s:%lld)", fn, (long long)f->line);
    else if (!unknown_file(fn))
        sb_printf(out, " (%s)", fn);
}

size_t snapshot_stack_traceback(const struct snapshot *s, uint32_t stack, bool all,
                                struct traceback *tb)
{
    const uint32_t *f;
    size_t n = snapshot_stack(s, stack, &f), added = 0;
    for (size_t i = 0; i < n; i++) {
        const struct snap_frame *fr = snapshot_frame(s, f[i]);
        if ((fr->flags & SFF_HIDDEN) && !all)
            continue;
        enum tb_kind k = (fr->flags & SFF_INDUCTOR) ? TB_INDUCTOR
                         : (fr->flags & SFF_PYTHON) ? TB_PYTHON
                                                    : TB_NATIVE;
        const char *file = snapshot_str(s, fr->filename);
        traceback_push(tb, k, snapshot_str(s, fr->name), file[0] ? file : NULL, fr->line);
        added++;
    }
    return added;
}

void snapshot_free(struct snapshot *s)
{
    if (!s)
        return;
    free(s->path);
    strtab_free(&s->strs);
    VEC_FREE(&s->frames);
    VEC_FREE(&s->stack_first);
    VEC_FREE(&s->stack_frames);
    for (size_t i = 0; i < s->devices.n; i++) {
        free(s->devices.v[i].allocated_after);
        free(s->devices.v[i].reserved_after);
    }
    VEC_FREE(&s->devices);
    VEC_FREE(&s->segments);
    VEC_FREE(&s->blocks);
    VEC_FREE(&s->entries);
    VEC_FREE(&s->allocs);
    VEC_FREE(&s->annotations);
    VEC_FREE(&s->settings);
    VEC_FREE(&s->unknown);
    free(s);
}

size_t snapshot_memory(const struct snapshot *s)
{
    size_t m = sizeof(*s) + strtab_memory(&s->strs);
    m += s->frames.cap * sizeof(*s->frames.v);
    m += (s->stack_first.cap + s->stack_frames.cap) * sizeof(uint32_t);
    m += s->devices.cap * sizeof(*s->devices.v);
    for (size_t i = 0; i < s->devices.n; i++)
        m += 2 * s->devices.v[i].nentries * sizeof(int64_t);
    m += s->segments.cap * sizeof(*s->segments.v);
    m += s->blocks.cap * sizeof(*s->blocks.v);
    m += s->entries.cap * sizeof(*s->entries.v);
    m += s->allocs.cap * sizeof(*s->allocs.v);
    m += s->annotations.cap * sizeof(*s->annotations.v);
    m += s->settings.cap * sizeof(*s->settings.v);
    m += s->unknown.cap * sizeof(*s->unknown.v);
    return m;
}
