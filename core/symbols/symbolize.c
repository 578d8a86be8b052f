/* The symbolizer: a cache of modules (ELF + DWARF index), synchronous
 * lookups, and a worker thread for asynchronous ones. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/symbols/demangle.h"
#include "core/symbols/dwarfidx.h"
#include "core/symbols/elfmod.h"
#include "core/base/strtab.h"
#include "core/symbols/symbolize.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"

#define MAX_FRAMES 128 /* inline depth kept per address */

const char *sym_status_name(enum sym_status st)
{
    switch (st) {
    case SYM_OK:
        return "ok";
    case SYM_SYMBOL_ONLY:
        return "symbol_only";
    case SYM_NO_INFO:
        return "no_info";
    case SYM_NO_MODULE:
        return "no_module";
    }
    return "?";
}

struct module {
    const char *path; /* in s->strs */
    bool opened;
    enum sym_status level;    /* best status any address can get */
    const char *reason;       /* why level is not SYM_OK, or NULL */
    struct elfmod *elf;       /* the module itself */
    struct elfmod *syms;      /* where symbols come from (elf or the debug file) */
    struct elfmod *debug_elf; /* the separate debug file, when used for symbols */
    struct dwarfidx *dw;
    bool mangled_syms; /* some symbol is a C++ name */
};

struct request {
    uint64_t id, tag, addr;
    char *module;
};

struct symbolizer {
    struct sym_opts opts;
    char **dirs;                /* copied debug_dirs */
    pthread_mutex_t lock;       /* modules, strings, libdwarf */
    struct strtab strs;         /* paths, reasons, demangled names */
    struct hmap module_of_path; /* strtab id of path -> index in modules */
    VEC(struct module *) modules;
    struct hmap demangled; /* name pointer -> strtab id + 1 (0 = not mangled) */
    struct dw_frame scratch[MAX_FRAMES];
    struct module *last; /* the module of the previous lookup */

    /* Asynchronous requests. */
    pthread_mutex_t qlock;
    pthread_cond_t qcond;
    VEC(struct request) queue; /* FIFO from qhead */
    size_t qhead;
    VEC(struct sym_answer *) done; /* FIFO from dhead */
    size_t dhead;
    size_t busy; /* requests being resolved (0 or 1) */
    uint64_t next_id;
    bool worker_started, stopping;
    pthread_t worker;
    int notify[2]; /* pipe: a byte per pending answer batch */
    bool notified;
};

/* ------------------------------------------------------------------------ */
/* Results                                                                  */
/* ------------------------------------------------------------------------ */

void sym_result_init(struct sym_result *r)
{
    memset(r, 0, sizeof(*r));
}

void sym_result_done(struct sym_result *r)
{
    free(r->frames);
    memset(r, 0, sizeof(*r));
}

static struct sym_frame *result_add(struct sym_result *r)
{
    if (r->nframes == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4;
        r->frames = xreallocarray(r->frames, r->cap, sizeof(*r->frames));
    }
    struct sym_frame *f = &r->frames[r->nframes++];
    memset(f, 0, sizeof(*f));
    return f;
}

/* ------------------------------------------------------------------------ */
/* Modules                                                                  */
/* ------------------------------------------------------------------------ */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static const char *intern(struct symbolizer *s, const char *text)
{
    return strtab_str(&s->strs, strtab_intern_cstr(&s->strs, text));
}

static const char *internf(struct symbolizer *s, char *text)
{
    const char *r = intern(s, text);
    free(text);
    return r;
}

static void module_open(struct symbolizer *s, struct module *m)
{
    m->opened = true;
    const char *why = NULL;
    m->elf = elfmod_open(m->path, &why);
    if (!m->elf) {
        m->level = SYM_NO_MODULE;
        m->reason = internf(s, xasprintf("%s: %s", m->path, why));
        return;
    }
    m->syms = m->elf;
    const char *name = base_name(m->path);
    char *dw_why = NULL;
    if (m->elf->has_dwarf) {
        m->dw = dwarfidx_open(m->path, &dw_why);
    } else {
        char *dbg =
            elfmod_find_debug_file(m->elf, (const char *const *)s->dirs, s->opts.ndebug_dirs);
        if (dbg) {
            m->dw = dwarfidx_open(dbg, &dw_why);
            if (m->dw && !m->elf->has_symtab) {
                m->debug_elf = elfmod_open(dbg, &why);
                if (m->debug_elf && m->debug_elf->nsyms)
                    m->syms = m->debug_elf;
            }
            free(dbg);
        }
    }
    for (size_t i = 0; i < m->syms->nsyms && !m->mangled_syms; i++)
        m->mangled_syms = demangle_is_mangled(m->syms->syms[i].name);
    if (m->dw) {
        m->level = SYM_OK;
    } else if (dw_why) {
        m->level = m->syms->nsyms ? SYM_SYMBOL_ONLY : SYM_NO_INFO;
        m->reason = internf(s, xasprintf("%s: %s", name, dw_why));
    } else if (m->elf->has_symtab) {
        m->level = SYM_SYMBOL_ONLY;
        m->reason = internf(
            s,
            xasprintf("no debug info in %s; install the debug symbols (symbol table only)", name));
    } else if (m->syms->nsyms) {
        m->level = SYM_SYMBOL_ONLY;
        m->reason = internf(
            s,
            xasprintf("stripped: exported symbols only; install the debug symbols for %s", name));
    } else {
        m->level = SYM_NO_INFO;
        m->reason =
            internf(s, xasprintf("stripped: no symbols in %s; install the debug symbols", name));
    }
    free(dw_why);
}

static struct module *module_get(struct symbolizer *s, const char *path)
{
    if (s->last && strcmp(s->last->path, path) == 0)
        return s->last; /* addresses come in runs of one module */
    uint32_t id = strtab_intern_cstr(&s->strs, path);
    uint32_t idx = hmap_get(&s->module_of_path, id);
    if (idx != IDX_NONE)
        return s->last = s->modules.v[idx];
    struct module *m = xcalloc(1, sizeof(*m));
    m->path = strtab_str(&s->strs, id);
    hmap_put(&s->module_of_path, id, (uint32_t)s->modules.n);
    VEC_PUSH(&s->modules, m);
    return s->last = m;
}

static void module_free(struct module *m)
{
    dwarfidx_free(m->dw);
    elfmod_free(m->debug_elf);
    elfmod_free(m->elf);
    free(m);
}

/* The name to show for a raw (possibly mangled) name; stable pointers. */
static const char *show_name(struct symbolizer *s, const char *raw)
{
    if (!raw || !s->opts.demangle || !demangle_is_mangled(raw))
        return raw;
    uint64_t key = (uint64_t)(uintptr_t)raw;
    uint32_t v = hmap_get(&s->demangled, key);
    if (v == IDX_NONE) {
        char *d = demangle(raw);
        v = d ? strtab_intern_cstr(&s->strs, d) + 1 : 0;
        free(d);
        hmap_put(&s->demangled, key, v);
    }
    return v ? strtab_str(&s->strs, v - 1) : raw;
}

/* ------------------------------------------------------------------------ */
/* Lookups                                                                  */
/* ------------------------------------------------------------------------ */

/* Length of name without gcc's clone suffixes (".cold", ".part.1",
 * ".constprop.0", ".isra.0", and chains of them). */
static size_t clone_base_len(const char *name)
{
    size_t n = strlen(name);
    for (;;) {
        size_t k = n;
        while (k > 0 && isdigit((unsigned char)name[k - 1]))
            k--;
        if (k < n && k > 0 && name[k - 1] == '.')
            k--; /* ".0" */
        else
            k = n;
        static const char *const tags[] = {".cold", ".part", ".constprop", ".isra", ".lto_priv"};
        bool cut = false;
        for (size_t t = 0; t < ARRAY_SIZE(tags) && !cut; t++) {
            size_t tl = strlen(tags[t]);
            if (k > tl && memcmp(name + k - tl, tags[t], tl) == 0) {
                n = k - tl;
                cut = true;
            }
        }
        if (!cut)
            return n;
    }
}

/* The mangled symbol covering addr when DWARF only named the function
 * `plain` (an internal-linkage C++ function), without clone suffixes;
 * NULL when there is none. */
static const char *linkage_from_symbol(struct symbolizer *s, struct module *m, uint64_t addr,
                                       const char *plain)
{
    if (!m->mangled_syms)
        return NULL;
    const struct elf_sym *sym = elfmod_symbol_at(m->syms, addr);
    if (!sym || !demangle_is_mangled(sym->name))
        return NULL;
    size_t len = clone_base_len(sym->name);
    size_t pl = strlen(plain);
    bool names_it = false;
    for (size_t i = 0; i + pl <= len && !names_it; i++)
        names_it = memcmp(sym->name + i, plain, pl) == 0;
    if (!names_it)
        return NULL;
    if (len == strlen(sym->name))
        return sym->name;
    return strtab_str(&s->strs, strtab_intern(&s->strs, sym->name, len));
}

static enum sym_status lookup_locked(struct symbolizer *s, const char *module, uint64_t addr,
                                     struct sym_result *out)
{
    struct module *m = module_get(s, module);
    if (!m->opened)
        module_open(s, m);
    out->nframes = 0;
    out->module = m->path;
    out->addr = addr;
    out->is64 = m->elf ? m->elf->is64 : true;
    out->reason = m->reason;
    out->module_reason = m->reason != NULL;
    if (!m->elf) {
        out->status = SYM_NO_MODULE;
        return out->status;
    }
    size_t n = m->dw ? dwarfidx_lookup(m->dw, addr, s->scratch, MAX_FRAMES) : 0;
    bool have_line = false;
    for (size_t i = 0; i < n; i++) {
        struct sym_frame *f = result_add(out);
        f->function = show_name(s, s->scratch[i].function);
        f->file = s->scratch[i].file;
        f->line = s->scratch[i].line;
        f->column = s->scratch[i].column;
        f->discriminator = s->scratch[i].discriminator;
        have_line |= f->file != NULL;
    }
    /* The outermost function from the symbol table: when DWARF has none,
     * or only a plain DW_AT_name where the symbol is a C++ linkage name
     * (gcc writes no linkage name for internal-linkage functions). */
    if (n && s->scratch[n - 1].function && !demangle_is_mangled(s->scratch[n - 1].function)) {
        const char *better = linkage_from_symbol(s, m, addr, s->scratch[n - 1].function);
        if (better)
            out->frames[n - 1].function = show_name(s, better);
    }
    if (!n || !out->frames[n - 1].function) {
        const struct elf_sym *sym = elfmod_symbol_at(m->syms, addr);
        if (sym) {
            if (!n)
                result_add(out);
            out->frames[out->nframes - 1].function = show_name(s, sym->name);
        }
    }
    if (have_line || (n && out->frames[0].function && m->dw)) {
        out->status = SYM_OK;
        out->reason = NULL;
        out->module_reason = false;
    } else if (out->nframes && out->frames[out->nframes - 1].function) {
        out->status = SYM_SYMBOL_ONLY;
        if (!out->reason)
            out->reason = intern(s, "no line information for this address");
    } else {
        out->nframes = 0;
        out->status = SYM_NO_INFO;
        if (!out->reason)
            out->reason = intern(s, "no debug information or symbol covers this address");
    }
    return out->status;
}

enum sym_status symbolizer_lookup(struct symbolizer *s, const char *module, uint64_t addr,
                                  struct sym_result *out)
{
    pthread_mutex_lock(&s->lock);
    enum sym_status st = lookup_locked(s, module, addr, out);
    pthread_mutex_unlock(&s->lock);
    return st;
}

static bool parse_hex(const char *p, const char *end, uint64_t *out)
{
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    if (p >= end || end - p > 16)
        return false;
    uint64_t v = 0;
    for (; p < end; p++) {
        int c = (unsigned char)*p;
        if (!isxdigit(c))
            return false;
        v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
    }
    *out = v;
    return true;
}

bool sym_location_parse(const char *text, struct sym_location *out)
{
    memset(out, 0, sizeof(*out));
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    while (n && isspace((unsigned char)*text)) {
        text++;
        n--;
    }
    /* "path(sym+0x10) [0x7f...]": drop the bracketed runtime address. */
    if (n && text[n - 1] == ']') {
        const char *br = memchr(text, '[', n);
        if (br) {
            n = (size_t)(br - text);
            while (n && text[n - 1] == ' ')
                n--;
        }
    }
    if (n && text[n - 1] == ')') {
        const char *open = NULL;
        for (size_t i = n - 1; i-- > 0;)
            if (text[i] == '(') {
                open = text + i;
                break;
            }
        const char *plus = open ? memchr(open, '+', (size_t)(text + n - 1 - open)) : NULL;
        if (!open || open == text || !plus || !parse_hex(plus + 1, text + n - 1, &out->offset))
            return false;
        out->module = xstrndup(text, (size_t)(open - text));
        if (plus > open + 1)
            out->symbol = xstrndup(open + 1, (size_t)(plus - open - 1));
        return true;
    }
    /* "path+0x1a2b": the last '+' (paths may contain '+'). */
    for (size_t i = n; i-- > 0;) {
        if (text[i] != '+')
            continue;
        if (i == 0 || !parse_hex(text + i + 1, text + n, &out->offset))
            return false;
        out->module = xstrndup(text, i);
        return true;
    }
    return false;
}

void sym_location_done(struct sym_location *loc)
{
    free(loc->module);
    free(loc->symbol);
    memset(loc, 0, sizeof(*loc));
}

enum sym_status symbolizer_lookup_text(struct symbolizer *s, const char *text,
                                       struct sym_result *out)
{
    struct sym_location loc;
    if (!sym_location_parse(text, &loc)) {
        pthread_mutex_lock(&s->lock);
        out->nframes = 0;
        out->status = SYM_NO_INFO;
        out->module = intern(s, text);
        out->addr = 0;
        out->reason = intern(s, "not a location (expected LIB+0xOFFSET or LIB(SYMBOL+0xOFFSET))");
        out->module_reason = false;
        pthread_mutex_unlock(&s->lock);
        return out->status;
    }
    pthread_mutex_lock(&s->lock);
    uint64_t addr = loc.offset;
    enum sym_status st;
    if (loc.symbol) {
        struct module *m = module_get(s, loc.module);
        if (!m->opened)
            module_open(s, m);
        uint64_t base;
        if (!m->elf || !elfmod_symbol_addr(m->syms, loc.symbol, &base)) {
            out->nframes = 0;
            out->module = m->path;
            out->addr = 0;
            out->status = m->elf ? SYM_NO_INFO : SYM_NO_MODULE;
            out->module_reason = !m->elf;
            out->reason =
                m->elf ? internf(s, xasprintf("%s: no symbol %s", base_name(m->path), loc.symbol))
                       : m->reason;
            pthread_mutex_unlock(&s->lock);
            sym_location_done(&loc);
            return out->status;
        }
        addr = base + loc.offset;
    }
    st = lookup_locked(s, loc.module, addr, out);
    pthread_mutex_unlock(&s->lock);
    sym_location_done(&loc);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Life cycle                                                               */
/* ------------------------------------------------------------------------ */

struct symbolizer *symbolizer_new(const struct sym_opts *opts)
{
    struct symbolizer *s = xcalloc(1, sizeof(*s));
    if (opts) {
        s->opts = *opts;
    } else {
        s->opts.demangle = true;
    }
    if (s->opts.debug_dirs && s->opts.ndebug_dirs) {
        s->dirs = xcalloc(s->opts.ndebug_dirs, sizeof(*s->dirs));
        for (size_t i = 0; i < s->opts.ndebug_dirs; i++)
            s->dirs[i] = xstrdup(s->opts.debug_dirs[i]);
    } else {
        s->opts.ndebug_dirs = 0;
    }
    s->opts.debug_dirs = NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->qlock, NULL);
    pthread_cond_init(&s->qcond, NULL);
    strtab_init(&s->strs);
    hmap_init(&s->module_of_path, 16);
    hmap_init(&s->demangled, 256);
    s->notify[0] = s->notify[1] = -1;
    s->next_id = 1;
    return s;
}

static void stop_worker(struct symbolizer *s)
{
    pthread_mutex_lock(&s->qlock);
    bool started = s->worker_started;
    s->stopping = true;
    pthread_cond_broadcast(&s->qcond);
    pthread_mutex_unlock(&s->qlock);
    if (started)
        pthread_join(s->worker, NULL);
}

void symbolizer_free(struct symbolizer *s)
{
    if (!s)
        return;
    stop_worker(s);
    for (size_t i = s->qhead; i < s->queue.n; i++)
        free(s->queue.v[i].module);
    VEC_FREE(&s->queue);
    for (size_t i = s->dhead; i < s->done.n; i++)
        sym_answer_free(s->done.v[i]);
    VEC_FREE(&s->done);
    for (size_t i = 0; i < s->modules.n; i++)
        module_free(s->modules.v[i]);
    VEC_FREE(&s->modules);
    for (size_t i = 0; i < s->opts.ndebug_dirs; i++)
        free(s->dirs[i]);
    free(s->dirs);
    hmap_free(&s->module_of_path);
    hmap_free(&s->demangled);
    strtab_free(&s->strs);
    if (s->notify[0] >= 0) {
        close(s->notify[0]);
        close(s->notify[1]);
    }
    pthread_cond_destroy(&s->qcond);
    pthread_mutex_destroy(&s->qlock);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void symbolizer_get_stats(struct symbolizer *s, struct sym_module_stats *out)
{
    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < s->modules.n; i++) {
        const struct module *m = s->modules.v[i];
        if (!m->opened)
            continue;
        out->modules++;
        if (m->dw) {
            struct dwarfidx_stats ds;
            dwarfidx_get_stats(m->dw, &ds);
            out->units += ds.units;
            out->units_loaded += ds.units_loaded;
        }
    }
    pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------------------ */
/* Asynchronous requests                                                    */
/* ------------------------------------------------------------------------ */

void sym_answer_free(struct sym_answer *a)
{
    if (!a)
        return;
    sym_result_done(&a->result);
    free(a);
}

static void open_pipe_locked(struct symbolizer *s)
{
    if (s->notify[0] >= 0)
        return;
    if (pipe(s->notify) != 0) {
        s->notify[0] = s->notify[1] = -1;
        return;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(s->notify[i], F_SETFD, FD_CLOEXEC);
        fcntl(s->notify[i], F_SETFL, O_NONBLOCK);
    }
}

static void notify_locked(struct symbolizer *s)
{
    if (s->notified || s->notify[1] < 0)
        return;
    char byte = 1;
    ssize_t w;
    do
        w = write(s->notify[1], &byte, 1);
    while (w < 0 && errno == EINTR);
    s->notified = w == 1;
}

static void *worker_main(void *arg)
{
    struct symbolizer *s = arg;
    pthread_mutex_lock(&s->qlock);
    for (;;) {
        while (!s->stopping && s->qhead == s->queue.n)
            pthread_cond_wait(&s->qcond, &s->qlock);
        if (s->stopping)
            break;
        struct request rq = s->queue.v[s->qhead++];
        if (s->qhead == s->queue.n)
            s->qhead = s->queue.n = 0;
        s->busy = 1;
        pthread_mutex_unlock(&s->qlock);

        struct sym_answer *a = xcalloc(1, sizeof(*a));
        a->id = rq.id;
        a->tag = rq.tag;
        sym_result_init(&a->result);
        symbolizer_lookup(s, rq.module, rq.addr, &a->result);
        free(rq.module);

        pthread_mutex_lock(&s->qlock);
        s->busy = 0;
        VEC_PUSH(&s->done, a);
        notify_locked(s);
    }
    pthread_mutex_unlock(&s->qlock);
    return NULL;
}

uint64_t symbolizer_request(struct symbolizer *s, const char *module, uint64_t addr, uint64_t tag)
{
    pthread_mutex_lock(&s->qlock);
    if (!s->worker_started && !s->stopping) {
        open_pipe_locked(s);
        if (pthread_create(&s->worker, NULL, worker_main, s) != 0) {
            pthread_mutex_unlock(&s->qlock);
            /* No thread: answer now, so callers still get results. */
            struct sym_answer *a = xcalloc(1, sizeof(*a));
            sym_result_init(&a->result);
            symbolizer_lookup(s, module, addr, &a->result);
            pthread_mutex_lock(&s->qlock);
            a->id = s->next_id++;
            a->tag = tag;
            VEC_PUSH(&s->done, a);
            notify_locked(s);
            uint64_t id = a->id;
            pthread_mutex_unlock(&s->qlock);
            return id;
        }
        s->worker_started = true;
    }
    uint64_t id = s->next_id++;
    VEC_PUSH(&s->queue, ((struct request){id, tag, addr, xstrdup(module)}));
    pthread_cond_signal(&s->qcond);
    pthread_mutex_unlock(&s->qlock);
    return id;
}

size_t symbolizer_poll(struct symbolizer *s, struct sym_answer **out, size_t max)
{
    pthread_mutex_lock(&s->qlock);
    size_t n = 0;
    while (n < max && s->dhead < s->done.n)
        out[n++] = s->done.v[s->dhead++];
    if (s->dhead == s->done.n) {
        s->dhead = s->done.n = 0;
        if (s->notified) {
            char buf[16];
            while (read(s->notify[0], buf, sizeof(buf)) > 0)
                ;
            s->notified = false;
        }
    }
    pthread_mutex_unlock(&s->qlock);
    return n;
}

size_t symbolizer_pending(struct symbolizer *s)
{
    pthread_mutex_lock(&s->qlock);
    size_t n = s->queue.n - s->qhead + s->busy;
    pthread_mutex_unlock(&s->qlock);
    return n;
}

void symbolizer_cancel(struct symbolizer *s)
{
    pthread_mutex_lock(&s->qlock);
    for (size_t i = s->qhead; i < s->queue.n; i++)
        free(s->queue.v[i].module);
    s->qhead = s->queue.n = 0;
    pthread_mutex_unlock(&s->qlock);
}

int symbolizer_notify_fd(struct symbolizer *s)
{
    pthread_mutex_lock(&s->qlock);
    open_pipe_locked(s);
    int fd = s->notify[0];
    pthread_mutex_unlock(&s->qlock);
    return fd;
}
