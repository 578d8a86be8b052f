/* The event store: everything torchtop knows about one loaded trace.
 *
 * Ownership: a struct trace owns every event, row, string, argument and
 * derived index reachable from it; trace_free() releases all of it. Others
 * borrow indices (uint32_t) and const pointers, valid until trace_free.
 *
 * Times are int64 nanoseconds. Event timestamps are relative to base_ns
 * (the file's baseTimeNanoseconds, or 0 for traces with epoch timestamps),
 * so absolute time = base_ns + ts; the µs values of the file convert
 * exactly, decimals included.
 *
 * Events are X (spans), i (instants), C (counters) and M (metadata) records,
 * in file order. Flow points (s/f/t) live in their own array. Kind-specific
 * hot fields live in side tables reached through event.aux; every argument
 * of every event stays available, packed, through event.args (argpack.h).
 *
 * Nothing is lost for an export of the whole trace: an event or flow point
 * that the fields here do not rebuild exactly (a global instant, a counter
 * without a tid, an unknown key, a flow id that is a string...) keeps its
 * JSON text as written (.raw, a struct rawtext: where the text lies in the
 * input file, read again by the export; rawtext.h); events of other phases
 * (B, E, b, e, n, ...) keep theirs in trace.others; verbatim repeats of a
 * metadata record are counted (event.aux). */
#ifndef TORCHTOP_CORE_TRACE_H
#define TORCHTOP_CORE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/common.h"
#include "core/base/hmap.h"
#include "core/base/strtab.h"
#include "core/base/vec.h"
#include "core/trace/pyval.h"

struct cJSON;

/* ------------------------------------------------------------------------ */
/* Events                                                                   */
/* ------------------------------------------------------------------------ */

/* Kinds, from the category (and phase). Host span kinds come first, then
 * device-row kinds, then point-like kinds; the order is relied on by the
 * evk_* predicates below. */
/* clang-format off */
#define EV_KIND_INFO(_)                                                         \
    _(EVK_OTHER,          "other")          /* host span, unknown category */   \
    _(EVK_CPU_OP,         "cpu_op")         /* cpu_op, Operator (2021) */       \
    _(EVK_ANNOTATION,     "annotation")     /* user_annotation */               \
    _(EVK_PYTHON,         "python")         /* python_function */               \
    _(EVK_RUNTIME,        "runtime")        /* cuda_runtime, Runtime, *_runtime */ \
    _(EVK_DRIVER,         "driver")         /* cuda_driver */                   \
    _(EVK_SPAN,           "span")           /* Trace: the profiler's own span */\
    _(EVK_KERNEL,         "kernel")         /* kernel, Kernel, mtia_ccp_events on a stream */ \
    _(EVK_MEMCPY,         "memcpy")         /* gpu_memcpy, Memcpy */            \
    _(EVK_MEMSET,         "memset")         /* gpu_memset, Memset */            \
    _(EVK_GPU_ANNOTATION, "gpu_annotation") /* gpu_user_annotation */           \
    _(EVK_DEVICE_OTHER,   "device_other")   /* cuda_sync, cuda_profiler_range, mtia_ccp_events off a stream */ \
    _(EVK_INSTANT,        "instant")        /* ph i / I */                      \
    _(EVK_COUNTER,        "counter")        /* ph C */                          \
    _(EVK_META,           "metadata")       /* ph M */

enum ev_kind {
#define EVK_ENUM(id, name) id,
    EV_KIND_INFO(EVK_ENUM)
#undef EVK_ENUM
    EVK__COUNT
};
/* clang-format on */

const char *ev_kind_name(enum ev_kind k);

/* GPU work: the events every GPU metric counts. */
static inline bool evk_is_gpu(unsigned k)
{
    return k >= EVK_KERNEL && k <= EVK_MEMSET;
}
/* Everything drawn on a device (stream) row. */
static inline bool evk_on_device(unsigned k)
{
    return k >= EVK_KERNEL && k <= EVK_DEVICE_OTHER;
}
/* Host spans, which nest per thread into the call tree. */
static inline bool evk_is_host_span(unsigned k)
{
    return k <= EVK_SPAN;
}
/* Host calls that carry a correlation id to GPU work. */
static inline bool evk_is_launch(unsigned k)
{
    return k == EVK_RUNTIME || k == EVK_DRIVER;
}

enum ev_flags {
    EVF_LINKED = 1 << 0,      /* GPU event claimed by a runtime call */
    EVF_GRAPH = 1 << 1,       /* launched by a graph launch */
    EVF_COMM = 1 << 2,        /* communication kernel (nccl/rccl/...) */
    EVF_MEMCPY_LIKE = 1 << 3, /* copy kernel counted as memcpy */
    EVF_BACKWARD = 1 << 4,    /* autograd::engine::evaluate_function: ... */
    EVF_OVERHANG = 1 << 5,    /* nested although it outlives its parent (<1 µs) */
    EVF_SIBLING = 1 << 6,     /* overlapped its predecessor by >= 1 µs: kept as a sibling */
    EVF_HAS_SHAPES = 1 << 7,  /* op with Input Dims */
    EVF_MODULE = 1 << 8,      /* python frame "nn.Module: ..." */
    EVF_LAUNCHER = 1 << 9,    /* op that launched GPU work directly */
    EVF_PID_QUOTED = 1 << 10, /* "pid" written as a string of digits ("25738") */
    EVF_TID_QUOTED = 1 << 11, /* "tid" written as a string of digits */
    EVF_CAPTURED = 1 << 12,   /* copied from a graph capture trace (capture.h) */
};

struct event {
    int64_t ts;            /* start, ns relative to trace.base_ns */
    int64_t dur;           /* duration in ns; 0 for instants and metadata */
    uint32_t name;         /* strtab id */
    uint32_t cat;          /* strtab id of the category as written ("" if none) */
    uint32_t row;          /* index into trace.rows */
    uint32_t args;         /* offset into trace.argbuf, IDX_NONE when no args */
    uint32_t parent;       /* enclosing host event in the call tree, IDX_NONE */
    uint32_t first_child;  /* first child in time order, IDX_NONE */
    uint32_t next_sibling; /* next sibling in time order, IDX_NONE */
    uint32_t aux;          /* index into the kind's side table, IDX_NONE;
                              EVK_PYTHON: the parent frame's event (any
                              thread; from "Python parent id", linked by
                              the index, tree.c), IDX_NONE;
                              EVK_META: verbatim repeats of the record that
                              followed it (dropped, counted) */
    uint32_t raw;          /* index into trace.raws of the event's JSON text
                              as written when the fields here do not
                              rebuild it; 0 otherwise */
    uint8_t kind;          /* enum ev_kind */
    uint8_t ph;            /* phase character as written ('X', 'i', 'C', 'M') */
    uint16_t flags;        /* enum ev_flags */
};

/* Side table of EVK_CPU_OP and EVK_ANNOTATION events. Kept small: ops are
 * half the events of a big trace. Other args (External id, Fwd thread id,
 * ...) are read through argpack_find() (argpack.h). */
struct op_info {
    int64_t seq;              /* "Sequence number", -1 = none */
    uint32_t input_dims;      /* ids in trace.vals of the parsed lists   */
    uint32_t input_type;      /* "Input Dims", "Input type",             */
    uint32_t input_strides;   /* "Input Strides", "Concrete Inputs"      */
    uint32_t concrete_inputs; /* (trace_val); 0 when absent              */
    uint32_t partner;         /* forward <-> backward op, IDX_NONE */
    uint32_t coll;            /* index into trace.colls, IDX_NONE */
};

/* Side table of runtime / driver calls (EVK_RUNTIME, EVK_DRIVER). */
struct launch_info {
    uint64_t corr;      /* "correlation", 0 = none */
    uint64_t ext_id;    /* "External id", 0 = none */
    uint32_t gpu_first; /* first index into trace.launch_gpu */
    uint32_t gpu_count; /* GPU events it launched */
};

/* Side table of device-row events (evk_on_device). */
struct gpu_info {
    uint64_t corr;     /* "correlation", 0 = none */
    uint64_t ext_id;   /* "External id", 0 = none */
    int64_t stream;    /* args.stream, else the row's tid (64-bit: CUDA's sync
                        * events name the stream 2^32 - 1) */
    int32_t device;    /* args.device, else the row's pid */
    uint32_t launch;   /* runtime/driver event that launched it, IDX_NONE */
    uint32_t launcher; /* launcher op, or the launch itself, IDX_NONE */
    uint32_t coll;     /* index into trace.colls, IDX_NONE */
};

/* Collective metadata carried by NCCL/RCCL kernels and record_param_comms. */
struct coll_info {
    uint32_t name;      /* "Collective name" */
    uint32_t dtype;     /* "dtype" */
    uint32_t pg_name;   /* "Process Group Name" */
    uint32_t pg_desc;   /* "Process Group Description" */
    uint32_t pg_ranks;  /* "Process Group Ranks" (text) */
    int32_t group_size; /* "Group size", -1 = none */
    int64_t in_nelems;  /* "In msg nelems", -1 = none */
    int64_t out_nelems; /* "Out msg nelems", -1 = none */
};

/* Flow endpoints: ac2g (launch -> GPU), fwdbwd, and the older names. */
struct flow {
    int64_t ts; /* ns relative to base_ns */
    uint64_t id;
    uint32_t cat;           /* strtab id */
    uint32_t name;          /* strtab id */
    uint32_t row;           /* index into trace.rows (host class) */
    uint8_t ph;             /* 's', 't' or 'f' */
    uint8_t bind_enclosing; /* "bp": "e" */
    uint8_t quoted;         /* FLOW_PID_QUOTED, FLOW_TID_QUOTED */
    uint32_t raw;           /* as event.raw */
};

enum flow_quoted {
    FLOW_PID_QUOTED = 1 << 0, /* "pid" written as a string of digits */
    FLOW_TID_QUOTED = 1 << 1, /* "tid" written as a string of digits */
};

/* The JSON text of an event kept as written (event.raw, flow.raw,
 * trace.others): where it lies in the input (JSON byte offset `at`, `len`
 * bytes), read again when exported (rawtext.h); or, when the input cannot
 * be read again (stdin, memory, a pipe) or the event is a metadata record
 * (repeats are found by their text), the text itself: len 0 and `at` the
 * strtab id of the text without the blanks outside strings. */
struct rawtext {
    uint64_t at : 40;
    uint64_t len : 24;
};

#define RAWTEXT_MAX_AT ((UINT64_C(1) << 40) - 1)
#define RAWTEXT_MAX_LEN ((UINT64_C(1) << 24) - 1)

/* The input file as it was when loaded, so that an export reading it again
 * finds out whether it changed. */
struct rawtext_origin {
    uint64_t dev, ino;
    uint64_t size;
    int64_t mtime_ns;
};

/* ------------------------------------------------------------------------ */
/* Rows: one per (pid, tid) and side (host or device)                        */
/* ------------------------------------------------------------------------ */

enum row_class { ROW_HOST, ROW_DEVICE };

enum row_flags {
    ROW_PID_TEXT = 1 << 0, /* pid is not a number: see pid_str */
    ROW_TID_TEXT = 1 << 1, /* tid is not a number: see tid_str */
};

struct row {
    int64_t pid, tid;          /* numeric ids (numeric strings are parsed) */
    uint32_t pid_str, tid_str; /* strtab ids of the ids as text */
    uint8_t cls;               /* enum row_class */
    uint8_t flags;             /* enum row_flags */
    uint32_t process_name;     /* from metadata; 0 ("") = none */
    uint32_t process_label;
    uint32_t thread_name;
    int64_t process_sort; /* sort indices, INT64_MAX = none */
    int64_t thread_sort;
    uint32_t nevents;    /* events on this row */
    uint32_t first_root; /* first top-level host span, time order */
    uint32_t *order;     /* this row's events sorted by start (tree.c) */
    int32_t device;      /* device rows: from the events' args */
    int64_t stream;      /* device rows: from the events' args */
};

/* A host row of captured copies (capture.h) and the graph launch whose
 * replay it stands for: tree views show the row's spans under the launch. */
struct capture_graft {
    uint32_t launch; /* graph launch event */
    uint32_t row;    /* host row of the copies */
};

/* ------------------------------------------------------------------------ */
/* Devices (deviceProperties)                                               */
/* ------------------------------------------------------------------------ */

struct device {
    int32_t id;
    uint32_t name; /* strtab id ("" when unnamed) */
    uint32_t arch; /* gcnArchName (ROCm), strtab id */
    int32_t compute_major, compute_minor;
    int32_t num_sms;
    int32_t warp_size;
    uint64_t total_mem;
};

/* ------------------------------------------------------------------------ */
/* The trace                                                                */
/* ------------------------------------------------------------------------ */

/* Which accelerator ran the device work (devkind.h). */
enum device_kind { DEVKIND_GPU, DEVKIND_MTIA, DEVKIND_MIXED };

struct trace {
    char *path;          /* as given; "-" for stdin */
    bool gzip;           /* input was gzip-compressed */
    uint64_t file_bytes; /* bytes read from the file */
    uint64_t json_bytes; /* bytes of JSON text */
    int64_t base_ns;     /* baseTimeNanoseconds, 0 when absent */
    bool truncated;      /* the input ended early */
    uint64_t lost_bytes; /* bytes of incomplete data at the cut */
    bool partial;        /* a fault stopped loading: events after it are missing */
    char *scope_text;    /* the part of the file this trace holds, in words, with
                            how much of it that is (scope.h); NULL = all of it */

    struct strtab strs;   /* every string */
    struct strtab vals;   /* op argument lists, encoded (pyval.h);
                             id 0 is the absent value */
    VEC(struct event) ev; /* events, file order (metadata repeats counted) */
    VEC(struct row) rows;
    VEC(struct flow) flows;
    VEC(struct op_info) ops;
    VEC(struct launch_info) launches;
    VEC(struct gpu_info) gpus;
    VEC(struct coll_info) colls;
    VEC(uint8_t) argbuf; /* packed args (argpack.h) */
    VEC(struct device) devices;
    VEC(uint32_t)
    others; /* indices into raws of the JSON text of events of phases
               torchtop does not model (B, E, b, e, n, ...), file order */
    VEC(struct rawtext)
    raws;                         /* texts kept as written; index 0 unused */
    bool raw_in_file;             /* some raws lie in the input file */
    struct rawtext_origin origin; /* that file when loaded */
    struct hmap op_names;         /* name id -> id of its name in TraceLens's
                                     tables, where they differ (opname.h) */
    VEC(uint32_t)
    held; /* per traceEvents element not in ev (flow points,
             events of other phases, metadata repeats), in file
             order: the number of ev before it (trace_file_index) */

    struct cJSON *top; /* every top-level key except traceEvents,
                          in file order (an object) */

    /* A trace read from its cache (tracecache.h): the mapping of the cache
     * file that its arrays (events, rows and their orders, side tables,
     * args, kept texts, ...) lie in, NULL otherwise. trace_free unmaps it;
     * trace_own_arrays copies them out before anything grows them. */
    void *mapped;
    size_t mapped_len;

    /* Counts gathered while loading. */
    uint64_t n_by_kind[EVK__COUNT];
    uint64_t n_meta_dups;   /* duplicate metadata records dropped */
    uint64_t n_unsupported; /* events of phases torchtop ignores (others) */

    /* Graph replays attributed through capture traces (capture.h). */
    uint32_t n_captures;      /* capture traces merged in */
    uint64_t graph_kernels;   /* GPU events graph launches owned before the merge */
    uint64_t graph_aligned;   /* of them, aligned with a captured launch */
    int64_t graph_ns;         /* durations of graph_kernels, ns */
    int64_t graph_aligned_ns; /* durations of graph_aligned, ns */
    VEC(struct capture_graft)
    grafts; /* the rows of captured copies and the graph launch each
               hangs under in tree views, by launch and row */

    /* Built by trace_index() (tree.c). */
    bool link_require_flow; /* set before indexing: link GPU work to a
                               launch only when the launch also starts
                               an ac2g flow (TraceLens's rule) */
    bool index_one_thread;  /* set before indexing: no second thread (the
                               load was asked for one) */
    bool indexed;
    uint32_t *launch_gpu;       /* CSR: GPU events per launch */
    uint64_t n_gpu;             /* GPU work events */
    uint64_t n_unlinked;        /* GPU work events no launch claimed */
    uint8_t device_kind;        /* enum device_kind of the GPU work */
    int64_t gpu_start, gpu_end; /* span of GPU work, ns; 0/0 when none */
    int64_t t_start, t_end;     /* span of all timed events */
};

void trace_free(struct trace *t);
/* Give t arrays of its own (malloc'd) where they lie in its cache
 * file's mapping (trace.mapped), which is released: for a caller about to
 * add events, rows or anything else to t. */
void trace_own_arrays(struct trace *t);

static inline const char *trace_str(const struct trace *t, uint32_t id)
{
    return strtab_str(&t->strs, id);
}
/* The op argument value of id (op_info, ARG_VALUE); id 0 is absent. */
static inline struct pyval trace_val(const struct trace *t, uint32_t id)
{
    return pyval_of(strtab_str(&t->vals, id), strtab_len(&t->vals, id));
}
static inline const struct event *trace_ev(const struct trace *t, uint32_t i)
{
    return &t->ev.v[i];
}
static inline const char *ev_name(const struct trace *t, uint32_t i)
{
    return strtab_str(&t->strs, t->ev.v[i].name);
}
static inline int64_t ev_end(const struct event *e)
{
    return e->ts + e->dur;
}
/* Side-table accessors; NULL when the event has none of that kind. */
const struct op_info *ev_op(const struct trace *t, uint32_t i);
/* The parent frame of Python frame i (event.aux), IDX_NONE for none or
 * for an event of another kind. */
uint32_t ev_py_parent(const struct trace *t, uint32_t i);
const struct launch_info *ev_launch(const struct trace *t, uint32_t i);
const struct gpu_info *ev_gpu(const struct trace *t, uint32_t i);

/* Event i's position in the file's traceEvents array, counting every
 * element (flow points, other phases, metadata repeats): the event's UID in
 * TraceLens, which numbers the array as loaded. Events added after loading
 * (captured ops) count from the end. */
uint64_t trace_file_index(const struct trace *t, uint32_t i);

/* Category string of an event as written. */
static inline const char *ev_cat(const struct trace *t, uint32_t i)
{
    return strtab_str(&t->strs, t->ev.v[i].cat);
}

/* A row's display label, e.g. "thread 19392 (python3)" or "GPU 0 stream 7";
 * written into buf (size n), which is returned. */
const char *trace_row_label(const struct trace *t, uint32_t row, char *buf, size_t n);

struct strbuf;
/* One line of the memory by part, in MB, for benchmarks. */
void trace_memory_describe(const struct trace *t, struct strbuf *out);

#endif
