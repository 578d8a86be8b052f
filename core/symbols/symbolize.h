/* Resolving native frames: (module, address) -> function, file, line and
 * the chain of inlined calls, from the module's DWARF (or its separate
 * debug file) through libdwarf, falling back to its symbol table.
 *
 * Addresses are module addresses: what `nm` and DWARF show, i.e. the
 * runtime address minus the load bias. That is the form PyTorch writes in
 * memory snapshots with TORCH_SYMBOLIZE_MODE=dladdr (frame filename = the
 * library path, line = offset - 1: look that number up as it is), the
 * "+0x..." of glibc backtraces, and what addr2line -e takes.
 *
 * Everything is lazy and cached per module: a module is opened the first
 * time one of its addresses is asked for, and its DWARF unit table read
 * then; a unit's line table and functions are read the first time an
 * address falls in the unit, a function's inlined calls the first time an
 * address falls in the function (dwarfidx.h). Lookups are then binary
 * searches.
 *
 * Answers match llvm-symbolizer's (function names from DWARF linkage
 * names, else DW_AT_name; the outermost function from the ELF symbol table
 * when DWARF has none, or only a plain name for a C++ symbol); the command
 * line prints them in addr2line's format. A corrupt DWARF section gives
 * partial answers, never a crash (libdwarf may keep a few hundred bytes it
 * allocated on its error paths).
 *
 * Two ways to call it:
 * - symbolizer_lookup(): synchronous, for the command line and scripts;
 * - symbolizer_request() + symbolizer_poll(): a worker thread resolves
 *   requests in order while the caller goes on (the explorer: it polls on
 *   each tick, or waits on symbolizer_notify_fd() with poll(2)).
 * Both may be used on one symbolizer from any threads; resolution itself
 * is serialised by an internal lock, so a synchronous call may wait for
 * the worker's current request.
 *
 * Ownership: every string in a result (function, file, module, reason)
 * belongs to the symbolizer and stays valid until symbolizer_free. The
 * frames array of a struct sym_result belongs to the result. */
#ifndef TORCHTOP_CORE_SYMBOLIZE_H
#define TORCHTOP_CORE_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sym_opts {
    bool demangle;                 /* demangle C++ names (cplus_demangle) */
    const char *const *debug_dirs; /* roots of separate debug files; NULL:
                                      "/usr/lib/debug" (copied) */
    size_t ndebug_dirs;
};

enum sym_status {
    SYM_OK,          /* DWARF answered (function and/or file:line) */
    SYM_SYMBOL_ONLY, /* only a symbol name: no DWARF for this address */
    SYM_NO_INFO,     /* the module is readable but knows nothing of it */
    SYM_NO_MODULE,   /* the module cannot be read (missing, not ELF) */
};

const char *sym_status_name(enum sym_status st);

struct sym_frame {
    const char *function;   /* NULL when unknown */
    const char *file;       /* NULL when unknown */
    uint32_t line;          /* 0 when unknown */
    uint32_t column;        /* 0 when unknown */
    uint32_t discriminator; /* 0 when none */
};

struct sym_result {
    enum sym_status status;
    const char *reason;       /* why the answer is partial or missing
                                 (e.g. "no debug info in libfoo.so; install
                                 the debug symbols"), or NULL */
    bool module_reason;       /* reason concerns the whole module (missing,
                                 no debug info), not just this address */
    const char *module;       /* the module path as given */
    uint64_t addr;            /* the module address looked up */
    bool is64;                /* the module is 64-bit ELF (for printing) */
    struct sym_frame *frames; /* innermost (inlined callee) first */
    size_t nframes;           /* 0 when nothing is known */
    size_t cap;               /* allocated frames */
};

void sym_result_init(struct sym_result *r);
void sym_result_done(struct sym_result *r);

struct symbolizer;

/* opts may be NULL (demangling on, default debug directory). */
struct symbolizer *symbolizer_new(const struct sym_opts *opts);
/* Stops the worker (dropping queued requests) and releases everything,
 * including every string handed out. */
void symbolizer_free(struct symbolizer *s);

/* Resolve module:addr into *out (initialised with sym_result_init; its
 * frames array is reused). Returns out->status. */
enum sym_status symbolizer_lookup(struct symbolizer *s, const char *module, uint64_t addr,
                                  struct sym_result *out);

/* A location written as text:
 *   /path/libfoo.so+0x1a2b      libfoo.so+1a2b (hex)
 *   /path/libfoo.so(+0x1a2b)    glibc backtrace_symbols, " [0x7f..]" after it ignored
 *   /path/libfoo.so(symbol+0x10)
 * module is malloc'd (caller frees); symbol is malloc'd or NULL. */
struct sym_location {
    char *module;
    char *symbol; /* offset is relative to this symbol when set */
    uint64_t offset;
};
bool sym_location_parse(const char *text, struct sym_location *out);
void sym_location_done(struct sym_location *loc);

/* Resolve a text location (sym_location_parse); a malformed text gives
 * SYM_NO_INFO with a reason. */
enum sym_status symbolizer_lookup_text(struct symbolizer *s, const char *text,
                                       struct sym_result *out);

/* ---- asynchronous use ---- */

/* An answer to a request. */
struct sym_answer {
    uint64_t id;  /* what symbolizer_request returned */
    uint64_t tag; /* the caller's tag, passed through */
    struct sym_result result;
};

/* Queue module:addr for the worker thread (started on first use); returns
 * the request id (never 0). module is copied. */
uint64_t symbolizer_request(struct symbolizer *s, const char *module, uint64_t addr, uint64_t tag);
/* Move up to max finished answers, in request order, into out; returns how
 * many. The caller frees each with sym_answer_free. Never blocks on
 * resolution. */
size_t symbolizer_poll(struct symbolizer *s, struct sym_answer **out, size_t max);
void sym_answer_free(struct sym_answer *a);
/* Requests queued or being resolved. */
size_t symbolizer_pending(struct symbolizer *s);
/* Drop queued requests (the one being resolved still answers). */
void symbolizer_cancel(struct symbolizer *s);
/* A file descriptor that is readable while answers wait to be polled. */
int symbolizer_notify_fd(struct symbolizer *s);

/* Modules opened so far, and how much DWARF each has read (tests). */
struct sym_module_stats {
    size_t modules;      /* modules opened */
    size_t units;        /* compile units with code, all modules */
    size_t units_loaded; /* of which read */
};
void symbolizer_get_stats(struct symbolizer *s, struct sym_module_stats *out);

#endif
