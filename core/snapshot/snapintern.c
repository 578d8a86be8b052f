/* Interning of frames and stacks while a snapshot loads, and the frame
 * flags decided then (hidden by the frame filter, allocator, raw native,
 * Python). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/hmap.h"
#include "core/snapshot/snapintern.h"

static bool has_suffix(const char *s, size_t n, const char *suf)
{
    size_t m = strlen(suf);
    return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/* memory_viz's frameFilter: unwinder and CPython internals. */
static bool frame_hidden(const char *name, const char *file)
{
    static const char *const names[] = {"unwind::unwind",    "CapturedTraceback::gather",
                                        "gather_with_cpp",   "_start",
                                        "__libc_start_main", "PyEval_",
                                        "PyObject_",         "PyFunction_"};
    static const char *const files[] = {"core/boxing",
                                        "/Register",
                                        "/Redispatch",
                                        "pythonrun.c",
                                        "Modules/main.c",
                                        "Objects/call.c",
                                        "Objects/methodobject.c",
                                        "pycore_ceval.h",
                                        "ceval.c",
                                        "cpython/abstract.h"};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (strstr(name, names[i]))
            return true;
    for (size_t i = 0; i < ARRAY_SIZE(files); i++)
        if (strstr(file, files[i]))
            return true;
    return false;
}

/* The allocator's own frames, which head every stack recorded with C++
 * frames: the caching allocators (device and pinned host; mangled names
 * contain the class names too), the empty-tensor helpers between an op and
 * the allocator (ATen's, and the one Inductor's generated code calls), and
 * on the way back the release of a tensor's storage down to the Python
 * object whose deallocation started it, and the CPython C functions
 * (Py*, _Py*) that ran that. */
static bool frame_allocator(const char *name)
{
    if (strncmp(name, "Py", 2) == 0 || strncmp(name, "_Py", 3) == 0)
        return true;
    static const char *const names[] = {"CachingAllocator",
                                        "CachingHostAllocator",
                                        "MallocAsyncAllocator",
                                        "at::detail::empty_",
                                        "at::native::empty_cuda(",
                                        "at::native::empty_strided_cuda(",
                                        "::create_out(",
                                        "::_empty_strided_device(",
                                        "c10::intrusive_ptr<c10::StorageImpl",
                                        "c10::intrusive_ptr<c10::TensorImpl",
                                        "c10::StorageImpl::",
                                        "c10::TensorImpl::~TensorImpl",
                                        "c10::TensorImpl::release_resources",
                                        "c10::TensorImpl::decref_pyobject",
                                        "PyInterpreterVTable::decref",
                                        "THPVariable_clear",
                                        "THPVariable_dealloc"};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (strstr(name, names[i]))
            return true;
    return false;
}

/* A frame left unresolved by the dladdr or fast symbolizers: an absolute
 * path to a shared object or executable, and an in-image address as line. */
static bool frame_raw(const char *file, size_t n, int64_t line)
{
    static const char *const src_ext[] = {"py",  "pyx", "pyi", "c",   "cc", "cpp", "cxx",
                                          "h",   "hh",  "hpp", "hxx", "cu", "cuh", "inl",
                                          "inc", "ipp", "tcc", "s",   "S",  "rs",  "go"};
    if (n < 2 || file[0] != '/' || line <= 0)
        return false;
    const char *base = strrchr(file, '/') + 1;
    const char *dot = strrchr(base, '.');
    if (dot) {
        for (size_t i = 0; i < ARRAY_SIZE(src_ext); i++)
            if (strcmp(dot + 1, src_ext[i]) == 0)
                return false;
    }
    const char *so = strstr(base, ".so");
    if (so && (so[3] == 0 || so[3] == '.'))
        return true;
    /* Executables (python3.11, /proc/self/exe targets): no source extension,
     * and a line that can only be an address. */
    bool numeric_ext = dot != NULL;
    for (const char *c = dot ? dot + 1 : ""; *c; c++)
        if (*c < '0' || *c > '9')
            numeric_ext = false;
    return (!dot || numeric_ext) && line >= 0x1000;
}

/* A frame looked up among the snapshot's frames. */
struct frame_probe {
    const struct snapshot *s;
    uint32_t file, name;
    int64_t line;
};

static bool frame_eq(const void *probe, uint32_t id)
{
    const struct frame_probe *p = probe;
    const struct snap_frame *f = &p->s->frames.v[id];
    return f->filename == p->file && f->name == p->name && f->line == p->line;
}

static uint32_t frame_hash(uint32_t file, uint32_t name, int64_t line)
{
    return (uint32_t)hash_mix64(((uint64_t)file << 32 | name) ^ hash_mix64((uint64_t)line));
}

static uint32_t frame_hash_of(const void *s, uint32_t id)
{
    const struct snap_frame *f = &((const struct snapshot *)s)->frames.v[id];
    return frame_hash(f->filename, f->name, f->line);
}

uint32_t snapintern_frame(struct snapintern *b, struct snapshot *s, uint32_t file, uint32_t name,
                          int64_t line)
{
    uint32_t h = frame_hash(file, name, line);
    struct frame_probe probe = {s, file, name, line};
    uint32_t found = hmap_find(&b->frames, h, frame_eq, &probe);
    if (found != IDX_NONE)
        return found;
    uint32_t id = (uint32_t)s->frames.n;
    const char *fn = strtab_str(&s->strs, file);
    size_t fnlen = strtab_len(&s->strs, file);
    struct snap_frame f = {.filename = file, .name = name, .line = line};
    if (frame_hidden(strtab_str(&s->strs, name), fn))
        f.flags |= SFF_HIDDEN;
    if (frame_allocator(strtab_str(&s->strs, name)))
        f.flags |= SFF_ALLOCATOR;
    if (frame_raw(fn, fnlen, line)) {
        f.flags |= SFF_RAW;
        s->n_raw_frames++;
    }
    if (has_suffix(fn, fnlen, ".py"))
        f.flags |= SFF_PYTHON;
    if ((f.flags & SFF_PYTHON) && strstr(fn, "torchinductor_"))
        f.flags |= SFF_INDUCTOR;
    VEC_PUSH(&s->frames, f);
    hmap_add(&b->frames, h, id, frame_hash_of, s);
    return id;
}

/* A list of frame ids looked up among the snapshot's stacks. */
struct stack_probe {
    const struct snapintern *x;
    const struct snapshot *s;
    const uint32_t *ids;
    size_t n;
    uint32_t hash;
};

static bool stack_eq(const void *probe, uint32_t id)
{
    const struct stack_probe *p = probe;
    const struct snapshot *s = p->s;
    uint32_t first = s->stack_first.v[id], len = s->stack_first.v[id + 1] - first;
    return p->x->shash.v[id] == p->hash && len == p->n &&
           memcmp(s->stack_frames.v + first, p->ids, p->n * sizeof(*p->ids)) == 0;
}

static uint32_t stack_hash_of(const void *x, uint32_t id)
{
    return ((const struct snapintern *)x)->shash.v[id];
}

uint32_t snapintern_stack(struct snapintern *b, struct snapshot *s, const uint32_t *ids, size_t n)
{
    uint32_t h = (uint32_t)hash_bytes(ids, n * sizeof(*ids));
    struct stack_probe probe = {b, s, ids, n, h};
    uint32_t found = hmap_find(&b->stacks, h, stack_eq, &probe);
    if (found != IDX_NONE)
        return found;
    uint32_t id = (uint32_t)s->stack_first.n - 1;
    VEC_RESERVE(&s->stack_frames, s->stack_frames.n + n);
    memcpy(s->stack_frames.v + s->stack_frames.n, ids, n * sizeof(*ids));
    s->stack_frames.n += n;
    VEC_PUSH(&s->stack_first, (uint32_t)s->stack_frames.n);
    VEC_PUSH(&b->shash, h);
    hmap_add(&b->stacks, h, id, stack_hash_of, b);
    return id;
}

void snapintern_init(struct snapintern *x, struct snapshot *s)
{
    memset(x, 0, sizeof(*x));
    hmap_init(&x->frames, 512);
    hmap_init(&x->stacks, 512);
    VEC_RESERVE(&s->stack_frames, 64); /* never NULL: snap_stack offsets into it */
    VEC_PUSH(&s->stack_first, 0);      /* stack 0: empty */
    VEC_PUSH(&s->stack_first, 0);
    VEC_PUSH(&x->shash, 0);
}

void snapintern_free(struct snapintern *x)
{
    hmap_free(&x->frames);
    hmap_free(&x->stacks);
    VEC_FREE(&x->shash);
}
