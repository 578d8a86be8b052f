/* Combined tracebacks of trace events: kernel, launch, ops and Python
 * frames in one newest-first list (see traceback.h). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/argpack.h"
#include "core/trace/capture.h"
#include "core/symbols/demangle.h"
#include "core/symbols/traceback.h"
#include "core/trace/tree.h"

static const char *const tb_kind_names[] = {
#define TB_KIND_NAME(id, name) name,
    TB_KIND_INFO(TB_KIND_NAME)
#undef TB_KIND_NAME
};

const char *tb_kind_name(enum tb_kind k)
{
    return (unsigned)k < ARRAY_SIZE(tb_kind_names) ? tb_kind_names[k] : "?";
}

void traceback_init(struct traceback *tb)
{
    memset(tb, 0, sizeof(*tb));
    arena_init(&tb->arena, 16 * 1024);
}

void traceback_done(struct traceback *tb)
{
    VEC_FREE(&tb->frames);
    arena_free(&tb->arena);
}

void traceback_clear(struct traceback *tb)
{
    tb->frames.n = 0;
    arena_reset(&tb->arena);
}

bool traceback_pyframe_parse(const char *s, size_t n, struct pyframe *out)
{
    /* The first "(digits): " splits file from function; file names such as
     * "<string>" or paths with parentheses come before it. */
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '(')
            continue;
        size_t j = i + 1;
        int64_t line = 0;
        while (j < n && isdigit((unsigned char)s[j]) && line < INT64_MAX / 10) {
            line = line * 10 + (s[j] - '0');
            j++;
        }
        if (j == i + 1 || j + 2 > n || s[j] != ')' || s[j + 1] != ':')
            continue;
        size_t f = j + 2;
        if (f < n && s[f] == ' ')
            f++;
        out->file = s;
        out->file_len = i;
        out->line = line;
        out->func = s + f;
        out->func_len = n - f;
        return true;
    }
    return false;
}

static struct tb_frame *push_raw(struct traceback *tb, enum tb_kind kind, uint32_t ev,
                                 const char *name, const char *text)
{
    struct tb_frame *f = VEC_ADD(&tb->frames);
    f->kind = (uint8_t)kind;
    f->ev = ev;
    f->name = name;
    f->text = text;
    return f;
}

struct tb_frame *traceback_push(struct traceback *tb, enum tb_kind kind, const char *name,
                                const char *file, int64_t line)
{
    const char *n = arena_strndup(&tb->arena, name ? name : "", name ? strlen(name) : 0);
    struct tb_frame *f = push_raw(tb, kind, IDX_NONE, n, n);
    f->file = file ? arena_strndup(&tb->arena, file, strlen(file)) : NULL;
    f->line = line;
    return f;
}

/* A Python frame from its text s[0..n) (NUL-terminated at n when borrowed). */
static void push_python(struct traceback *tb, uint32_t ev, const char *s, size_t n, bool borrowed,
                        uint8_t flags)
{
    const char *text = borrowed ? s : arena_strndup(&tb->arena, s, n);
    struct pyframe pf;
    struct tb_frame *f;
    if (traceback_pyframe_parse(text, n, &pf)) {
        f = push_raw(tb, TB_PYTHON, ev, pf.func, text);
        f->file = arena_strndup(&tb->arena, pf.file, pf.file_len);
        f->line = pf.line;
    } else {
        f = push_raw(tb, TB_PYTHON, ev, text, text);
    }
    if (n >= 11 && memcmp(s, "nn.Module: ", 11) == 0)
        flags |= TBF_MODULE;
    f->flags |= flags;
}

/* The string value of arg `key` (a strtab id, IDX_NONE when the key was
 * never seen), or NULL when absent or empty. */
static const char *str_arg(const struct trace *t, uint32_t ev, uint32_t key)
{
    if (key == IDX_NONE || t->ev.v[ev].args == IDX_NONE)
        return NULL;
    struct argiter it;
    struct argval a;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a)) {
        if (a.key != key)
            continue;
        if (a.type != ARG_STR)
            return NULL;
        const char *s = trace_str(t, a.v.s);
        return *s ? s : NULL;
    }
    return NULL;
}

/* Frames of a ';'-separated Call stack, innermost first. */
struct cs_frames {
    const char *s;      /* the whole arg */
    size_t starts[256]; /* frame k is s[starts[k] .. ends[k]) */
    size_t ends[256];
    size_t n;
    size_t first; /* frames before this one were pushed already */
};

static void cs_split(struct cs_frames *c, const char *s)
{
    c->s = s;
    c->n = 0;
    c->first = 0;
    size_t i = 0, len = strlen(s);
    while (i < len && c->n < ARRAY_SIZE(c->starts)) {
        size_t j = i;
        while (j < len && s[j] != ';')
            j++;
        size_t a = i, b = j;
        while (a < b && s[a] == ' ')
            a++;
        while (b > a && s[b - 1] == ' ')
            b--;
        if (b > a) {
            c->starts[c->n] = a;
            c->ends[c->n] = b;
            c->n++;
        }
        i = j + 1;
    }
}

/* Frames i of a and j of b are the same function (file and name; the line
 * may differ: an outer scope was opened at another line of it). */
static bool cs_same(const struct cs_frames *a, size_t i, const struct cs_frames *b, size_t j)
{
    const char *sa = a->s + a->starts[i], *sb = b->s + b->starts[j];
    size_t la = a->ends[i] - a->starts[i], lb = b->ends[j] - b->starts[j];
    struct pyframe fa, fb;
    if (traceback_pyframe_parse(sa, la, &fa) && traceback_pyframe_parse(sb, lb, &fb))
        return fa.file_len == fb.file_len && fa.func_len == fb.func_len &&
               memcmp(fa.file, fb.file, fa.file_len) == 0 &&
               memcmp(fa.func, fb.func, fa.func_len) == 0;
    return la == lb && memcmp(sa, sb, la) == 0;
}

static void cs_push_range(struct traceback *tb, const struct cs_frames *c, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++)
        push_python(tb, IDX_NONE, c->s + c->starts[k], c->ends[k] - c->starts[k], false,
                    TBF_CALLSTACK);
}

/* An outer op with Call stack `outer` encloses the frames of `c` from
 * c->first on: push the frames of c that are not in their common tail,
 * which stays pending (in c's version, with c's lines). The outer stack's
 * own extra frames are where that scope was opened, not on the stack now. */
static void cs_advance(struct traceback *tb, struct cs_frames *c, const struct cs_frames *outer)
{
    size_t i = c->n, j = outer->n;
    while (i > c->first && j > 0 && cs_same(c, i - 1, outer, j - 1)) {
        i--;
        j--;
    }
    cs_push_range(tb, c, c->first, i);
    c->first = i;
}

/* Whether op ev is the backward of its partner: the partner, linked by
 * Sequence number, ran first. */
static uint32_t forward_of(const struct trace *t, uint32_t ev)
{
    const struct op_info *o = ev_op(t, ev);
    if (!o || o->partner == IDX_NONE || o->partner >= t->ev.n)
        return IDX_NONE;
    return t->ev.v[o->partner].ts < t->ev.v[ev].ts ? o->partner : IDX_NONE;
}

/* Append the frames from host event cur up to its thread's (and its Python
 * parents') outermost; *fwd gets the forward op of the innermost backward
 * op on the way (IDX_NONE: none). */
static void walk_up(struct traceback *tb, const struct trace *t, uint32_t cur, uint32_t key_cs,
                    uint32_t key_kf, uint32_t *fwd)
{
    const struct event *e;
    *fwd = IDX_NONE;
    /* Call stacks of old traces: the innermost one, whose frames from
     * `first` on are not placed yet. */
    struct cs_frames *pending = NULL;
    struct cs_frames bufs[2];
    bool seen_python = false, crossed = false;
    /* A Python frame whose parent frame is not above it on its thread:
     * the ops above it on its thread come first, then that parent. */
    uint32_t jump = IDX_NONE;
    size_t guard = 0;
    while (cur != IDX_NONE && guard++ < t->ev.n) {
        e = &t->ev.v[cur];
        if (jump != IDX_NONE && e->kind == EVK_PYTHON) {
            cur = jump;
            jump = IDX_NONE;
            crossed |= t->ev.v[cur].row != e->row;
            continue;
        }
        uint32_t next = e->parent;
        const char *name = trace_str(t, e->name);
        size_t first = tb->frames.n;
        bool was_crossed = crossed;
        switch (e->kind) {
        case EVK_RUNTIME:
        case EVK_DRIVER:
            push_raw(tb, TB_RUNTIME, cur, name, name);
            break;
        case EVK_CPU_OP:
        case EVK_ANNOTATION:
        case EVK_OTHER: {
            if (*fwd == IDX_NONE && e->kind == EVK_CPU_OP)
                *fwd = forward_of(t, cur);
            const char *cs = seen_python ? NULL : str_arg(t, cur, key_cs);
            if (cs) {
                if (pending) {
                    struct cs_frames *outer = pending == &bufs[0] ? &bufs[1] : &bufs[0];
                    cs_split(outer, cs);
                    cs_advance(tb, pending, outer);
                } else {
                    pending = &bufs[0];
                    cs_split(pending, cs);
                }
            }
            const char *kf = str_arg(t, cur, key_kf);
            if (kf) {
                struct tb_frame *f = push_raw(tb, TB_INDUCTOR, cur, name, name);
                f->file = kf;
            }
            struct tb_frame *f = push_raw(tb, TB_OP, cur, name, name);
            if (e->kind == EVK_ANNOTATION)
                f->flags |= TBF_ANNOTATION;
            break;
        }
        case EVK_PYTHON: {
            /* Python events are more precise than any Call stack arg. */
            seen_python = true;
            pending = NULL;
            push_python(tb, cur, name, strlen(name), true, 0);
            uint32_t py_parent = ev_py_parent(t, cur);
            if (py_parent != IDX_NONE && !tree_is_descendant(t, cur, py_parent))
                jump = py_parent;
            break;
        }
        default:
            break; /* the profiler's own spans, instants */
        }
        if (was_crossed)
            for (size_t k = first; k < tb->frames.n; k++)
                tb->frames.v[k].flags |= TBF_CROSS_THREAD;
        if (e->flags & EVF_CAPTURED)
            for (size_t k = first; k < tb->frames.n; k++)
                tb->frames.v[k].flags |= TBF_CAPTURED;
        if (next == IDX_NONE && jump != IDX_NONE) {
            crossed |= t->ev.v[jump].row != e->row;
            next = jump;
            jump = IDX_NONE;
        }
        /* A captured copy's topmost span: the replay's graph launch and
         * the stack that ran it come next. */
        if (next == IDX_NONE && (e->flags & EVF_CAPTURED) && t->grafts.n)
            next = capture_graft_launch(t, e->row);
        cur = next;
    }
    if (pending)
        cs_push_range(tb, pending, pending->first, pending->n);
}

static void of_event(struct traceback *tb, const struct trace *t, uint32_t ev, bool forward);

void traceback_of_event(struct traceback *tb, const struct trace *t, uint32_t ev)
{
    of_event(tb, t, ev, false);
}

void traceback_of_event_forward(struct traceback *tb, const struct trace *t, uint32_t ev)
{
    of_event(tb, t, ev, true);
}

static void of_event(struct traceback *tb, const struct trace *t, uint32_t ev, bool forward)
{
    traceback_clear(tb);
    if (ev >= t->ev.n)
        return;
    uint32_t key_cs = strtab_find(&t->strs, "Call stack", 10);
    uint32_t key_kf = strtab_find(&t->strs, "kernel_file", 11);

    uint32_t cur = ev;
    const struct event *e = &t->ev.v[ev];
    if (evk_on_device(e->kind)) {
        const char *name = trace_str(t, e->name);
        char *dem = demangle(name);
        if (dem) {
            name = arena_strndup(&tb->arena, dem, strlen(dem));
            free(dem);
        }
        push_raw(tb, TB_KERNEL, ev, name, trace_str(t, e->name));
        const struct gpu_info *g = ev_gpu(t, ev);
        cur = g ? g->launch : IDX_NONE;
    }
    uint32_t fwd;
    walk_up(tb, t, cur, key_cs, key_kf, &fwd);
    /* A backward op continues into its forward op and the Python code that
     * ran it (where the user's model line is). */
    if (forward && fwd != IDX_NONE) {
        size_t first = tb->frames.n;
        uint32_t again;
        walk_up(tb, t, fwd, key_cs, key_kf, &again);
        for (size_t k = first; k < tb->frames.n; k++)
            tb->frames.v[k].flags |= TBF_FORWARD;
    }
}
