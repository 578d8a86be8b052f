/* Interning of frames and stacks while a snapshot loads, and the frame
 * flags decided then (hidden by the frame filter, allocator, raw native,
 * Python). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/snapshot/snapintern.h"
#include "core/base/xalloc.h"

static bool has_suffix(const char *s, size_t n, const char *suf)
{
    size_t m = strlen(suf);
    return n >= m && memcmp(s + n - m, suf, m) == 0;
}

/* memory_viz's frameFilter: unwinder and CPython internals. */
static bool frame_hidden(const char *name, const char *file)
{
    static const char *const names[] = {"unwind::unwind", "CapturedTraceback::gather",
                                        "gather_with_cpp", "_start", "__libc_start_main",
                                        "PyEval_", "PyObject_", "PyFunction_"};
    static const char *const files[] = {"core/boxing", "/Register", "/Redispatch",
                                        "pythonrun.c", "Modules/main.c", "Objects/call.c",
                                        "Objects/methodobject.c", "pycore_ceval.h", "ceval.c",
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
    static const char *const names[] = {
        "CachingAllocator", "CachingHostAllocator", "MallocAsyncAllocator",
        "at::detail::empty_", "at::native::empty_cuda(", "at::native::empty_strided_cuda(",
        "::create_out(", "::_empty_strided_device(", "c10::intrusive_ptr<c10::StorageImpl",
        "c10::intrusive_ptr<c10::TensorImpl", "c10::StorageImpl::", "c10::TensorImpl::~TensorImpl",
        "c10::TensorImpl::release_resources", "c10::TensorImpl::decref_pyobject",
        "PyInterpreterVTable::decref", "THPVariable_clear", "THPVariable_dealloc"};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (strstr(name, names[i]))
            return true;
    return false;
}

/* A frame left unresolved by the dladdr or fast symbolizers: an absolute
 * path to a shared object or executable, and an in-image address as line. */
static bool frame_raw(const char *file, size_t n, int64_t line)
{
    static const char *const src_ext[] = {"py", "pyx", "pyi", "c", "cc", "cpp", "cxx", "h",
                                          "hh", "hpp", "hxx", "cu", "cuh", "inl", "inc", "ipp",
                                          "tcc", "s", "S", "rs", "go"};
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

static void rehash(uint32_t **slots, size_t *mask, const uint32_t *hashes, size_t n, size_t cap)
{
    free(*slots);
    *slots = xcalloc(cap, sizeof(**slots));
    *mask = cap - 1;
    for (size_t id = 0; id < n; id++) {
        size_t i = hashes[id] & *mask;
        while ((*slots)[i])
            i = (i + 1) & *mask;
        (*slots)[i] = (uint32_t)id + 1;
    }
}

uint32_t snapintern_frame(struct snapintern *b, struct snapshot *s, uint32_t file, uint32_t name,
                          int64_t line)
{
    uint32_t h = (uint32_t)hash_mix64(((uint64_t)file << 32 | name) ^ hash_mix64((uint64_t)line));
    size_t i = h & b->fmask;
    for (uint32_t slot; (slot = b->fslots[i]) != 0; i = (i + 1) & b->fmask) {
        const struct snap_frame *f = &s->frames.v[slot - 1];
        if (b->fhash.v[slot - 1] == h && f->filename == file && f->name == name && f->line == line)
            return slot - 1;
    }
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
    VEC_PUSH(&b->fhash, h);
    b->fslots[i] = id + 1;
    if (s->frames.n * 2 > b->fmask)
        rehash(&b->fslots, &b->fmask, b->fhash.v, s->frames.n, (b->fmask + 1) * 2);
    return id;
}

uint32_t snapintern_stack(struct snapintern *b, struct snapshot *s, const uint32_t *ids, size_t n)
{
    uint32_t h = (uint32_t)hash_bytes(ids, n * sizeof(*ids));
    size_t i = h & b->smask;
    for (uint32_t slot; (slot = b->sslots[i]) != 0; i = (i + 1) & b->smask) {
        uint32_t id = slot - 1;
        uint32_t first = s->stack_first.v[id], len = s->stack_first.v[id + 1] - first;
        if (b->shash.v[id] == h && len == n &&
            memcmp(s->stack_frames.v + first, ids, n * sizeof(*ids)) == 0)
            return id;
    }
    uint32_t id = (uint32_t)s->stack_first.n - 1;
    VEC_RESERVE(&s->stack_frames, s->stack_frames.n + n);
    memcpy(s->stack_frames.v + s->stack_frames.n, ids, n * sizeof(*ids));
    s->stack_frames.n += n;
    VEC_PUSH(&s->stack_first, (uint32_t)s->stack_frames.n);
    VEC_PUSH(&b->shash, h);
    b->sslots[i] = id + 1;
    if (b->shash.n * 2 > b->smask)
        rehash(&b->sslots, &b->smask, b->shash.v, b->shash.n, (b->smask + 1) * 2);
    return id;
}

void snapintern_init(struct snapintern *x, struct snapshot *s)
{
    memset(x, 0, sizeof(*x));
    rehash(&x->fslots, &x->fmask, NULL, 0, 1024);
    rehash(&x->sslots, &x->smask, NULL, 0, 1024);
    VEC_RESERVE(&s->stack_frames, 64); /* never NULL: snap_stack offsets into it */
    VEC_PUSH(&s->stack_first, 0);      /* stack 0: empty */
    VEC_PUSH(&s->stack_first, 0);
    VEC_PUSH(&x->shash, 0);
}

void snapintern_free(struct snapintern *x)
{
    free(x->fslots);
    free(x->sslots);
    VEC_FREE(&x->fhash);
    VEC_FREE(&x->shash);
}
