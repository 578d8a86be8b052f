/* CUDA memory snapshots (torch.cuda.memory._dump_snapshot pickles): the
 * model and the queries the report and the explorer views run on it.
 *
 * Ownership: a struct snapshot owns every string, frame, stack, segment,
 * block, trace entry and derived index reachable from it; snapshot_free()
 * releases all of it. Others borrow uint32_t indices and const pointers,
 * valid until snapshot_free. Nothing here prints; errors come back as an
 * enum status with a struct errinfo.
 *
 * Frames {filename, line, name} are interned: equal frames have one frame
 * id however often the file repeats them. A stack is an interned list of
 * frame ids, innermost first; stack 0 is the empty stack ("allocated
 * before _record_memory_history was enabled", or no context recorded).
 *
 * Devices: one struct snap_device per CUDA device (index = ordinal), plus
 * one for pinned host memory (host = true) when the file has host_segments
 * or host_traces. Each device's trace entries are a contiguous range of
 * snapshot.entries, in file order; per-device entry indices below count
 * from the start of that range.
 *
 * Memory over time follows PyTorch's memory_viz (MemoryViz.js
 * process_alloc_data, "Active Memory Timeline"): an allocation counts from
 * its `alloc` entry to its `free_completed` entry (a `free_requested` alone
 * changes nothing). Memory live before the trace started counts from the
 * start: a `free_completed` with no earlier `alloc` of its address was an
 * allocation made before recording began (counted with the free's size),
 * and so is every final `active_allocated` block whose address no traced
 * allocation still holds (counted with its requested_size). The peak is the
 * largest value after an alloc or free_completed entry; when the trace has
 * none, it is the memory live before it.
 *
 * Sizes there are requested sizes (trace entries carry the request), while
 * segments count blocks (requests rounded up by the allocator). The same
 * replay counted in block sizes gives peak_block_bytes: an allocation counts
 * the size of its final block when it is one, else its request rounded up
 * to a multiple of 512 bytes (at least 512), as the caching allocator
 * rounds without roundup_power2_divisions (a block it did not split can be
 * larger still). The final blocks all count, so it is never below the
 * active_allocated bytes. */
#ifndef TORCHTOP_CORE_SNAPSHOT_H
#define TORCHTOP_CORE_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/base/common.h"
#include "core/base/errinfo.h"
#include "core/base/source.h"
#include "core/base/strbuf.h"
#include "core/base/strtab.h"
#include "core/base/vec.h"

/* ------------------------------------------------------------------------ */
/* Records                                                                  */
/* ------------------------------------------------------------------------ */

/* clang-format off */
#define SNAP_ACTION_INFO(_)                                                    \
    _(SA_ALLOC,          "alloc")                                              \
    _(SA_FREE_REQUESTED, "free_requested")                                     \
    _(SA_FREE_COMPLETED, "free_completed")                                     \
    _(SA_SEGMENT_ALLOC,  "segment_alloc")                                      \
    _(SA_SEGMENT_FREE,   "segment_free")                                       \
    _(SA_SEGMENT_MAP,    "segment_map")                                        \
    _(SA_SEGMENT_UNMAP,  "segment_unmap")                                      \
    _(SA_OOM,            "oom")                                                \
    _(SA_SNAPSHOT,       "snapshot")                                           \
    _(SA_ANNOTATE,       "annotate")                                           \
    _(SA_OTHER,          "other")   /* any other action: see action_name */

enum snap_action {
#define SA_ENUM(id, name) id,
    SNAP_ACTION_INFO(SA_ENUM)
#undef SA_ENUM
    SA__COUNT
};
/* clang-format on */
const char *snapshot_action_name(enum snap_action a);

/* clang-format off */
#define SNAP_STATE_INFO(_)                                                     \
    _(BS_ACTIVE_ALLOCATED,    "active_allocated")                              \
    _(BS_ACTIVE_PENDING_FREE, "active_pending_free")                           \
    _(BS_INACTIVE,            "inactive")                                      \
    _(BS_OTHER,               "other")  /* any other state: see state_name */

enum snap_block_state {
#define BS_ENUM(id, name) id,
    SNAP_STATE_INFO(BS_ENUM)
#undef BS_ENUM
    BS__COUNT
};
/* clang-format on */
const char *snapshot_state_name(enum snap_block_state st);

enum snap_frame_flags {
    SFF_HIDDEN = 1 << 0,    /* hidden by memory_viz's frame filter (unwinder, CPython internals) */
    SFF_RAW = 1 << 1,       /* unresolved native frame: filename is an absolute ELF path and
                               line is (return address - 1) - load bias, an ELF vaddr */
    SFF_PYTHON = 1 << 2,    /* a .py source file */
    SFF_INDUCTOR = 1 << 3,  /* Inductor generated code (a torchinductor_* cache file); the
                               frames after it are its original source */
    SFF_ALLOCATOR = 1 << 4, /* the caching allocator's, tensor creation's or tensor release's
                               own code (c10::cuda::CUDACachingAllocator::...,
                               at::detail::empty_*, ~TensorImpl...): it heads every C++ stack,
                               so it names no site */
};

struct snap_frame {
    uint32_t filename; /* strtab id */
    uint32_t name;     /* strtab id */
    int64_t line;      /* line number; SFF_RAW: the vaddr to look up as is */
    uint32_t flags;    /* enum snap_frame_flags */
};

struct snap_segment {
    uint64_t address;
    uint64_t total_size;     /* reserved bytes */
    uint64_t allocated_size; /* as written by PyTorch */
    uint64_t active_size;
    uint64_t requested_size;
    int64_t stream;        /* cudaStream_t as an integer, 0 = default */
    int64_t pool_id[2];    /* segment_pool_id, (0, 0) = default pool */
    uint32_t device;       /* index into snapshot.devices */
    uint32_t segment_type; /* strtab id: "large", "small" or "" */
    uint32_t frames;       /* stack of the segment_alloc, 0 = none */
    uint32_t first_block;  /* blocks[first_block .. +nblocks), address order */
    uint32_t nblocks;
    bool is_expandable;
};

struct snap_block {
    uint64_t address; /* as written, else the segment's tiling */
    uint64_t size;
    uint64_t requested_size; /* legacy files: history[0].real_size, else size */
    uint32_t segment;        /* index into snapshot.segments */
    uint32_t frames;         /* stack; legacy files: history[0].frames */
    uint32_t state_name;     /* strtab id of the state as written */
    uint8_t state;           /* enum snap_block_state */
};

enum snap_entry_flags {
    SEF_TIME = 1 << 0, /* time_us was present */
};

struct snap_entry {
    uint64_t addr; /* address; for oom, device_free (bytes free on the device) */
    uint64_t size;
    int64_t time_us; /* Unix-epoch microseconds; 0 when absent */
    int64_t stream;
    uint32_t frames;          /* stack id */
    uint32_t compile_context; /* strtab id, 0 = absent */
    uint32_t user_metadata;   /* strtab id, 0 = absent */
    uint32_t action_name;     /* strtab id of the action as written */
    uint8_t action;           /* enum snap_action */
    uint8_t flags;            /* enum snap_entry_flags */
};

/* One allocation of the memory replay (memory_viz's "element"). */
struct snap_alloc {
    uint64_t addr;
    uint64_t size;      /* bytes counted: the alloc's size, else the free's size,
                           else the block's requested_size */
    uint32_t alloc_idx; /* device entry index of its alloc; IDX_NONE = before the trace */
    uint32_t free_idx;  /* device entry index of its free_completed; IDX_NONE = live at
                           the end */
    uint32_t frames;    /* stack of the allocation: its alloc entry's, else its final
                           block's; 0 when not recorded (allocated before recording
                           and freed during it: see snapshot_alloc_free_stack) */
    uint32_t block;     /* final active_allocated block it is, IDX_NONE = none */
};

struct snap_device {
    int32_t id;           /* CUDA ordinal; -1 for pinned host memory */
    bool host;            /* the pinned host memory allocator */
    uint32_t first_entry; /* entries[first_entry .. +nentries) */
    uint32_t nentries;
    uint32_t first_alloc; /* allocs[first_alloc .. +nallocs) */
    uint32_t nallocs;
    uint32_t nsegments, nblocks;
    uint64_t reserved;               /* sum of segment total_size */
    uint64_t allocated;              /* sum of segment allocated_size */
    uint64_t active;                 /* sum of segment active_size */
    uint64_t requested;              /* sum of segment requested_size */
    uint64_t block_bytes[BS__COUNT]; /* block sizes by state */
    uint32_t block_count[BS__COUNT];
    uint64_t nactions[SA__COUNT]; /* trace entries by action */
    /* Replay (see the top of this file). */
    int64_t *allocated_after; /* nentries: bytes allocated after each entry */
    int64_t *reserved_after;  /* nentries: bytes reserved after each entry (segment_alloc /
                                 segment_free, as memory_viz's segment timeline) */
    int64_t base_allocated;   /* live before the first entry */
    int64_t base_reserved;
    int64_t peak_allocated;   /* in requested sizes, as memory_viz */
    uint32_t peak_idx;        /* entry of the peak, first reached; IDX_NONE = before the trace */
    int64_t peak_block_bytes; /* the same replay's peak in block sizes, the basis of
                                 `allocated`: never below it (see snapshot_index) */
    uint32_t peak_block_idx;  /* entry of that peak, first reached; IDX_NONE = before */
    int64_t base_block_bytes; /* base_allocated in block sizes */
    int64_t peak_reserved;
    uint32_t peak_reserved_idx;
    bool free_stacks; /* free entries carry the stack of the free (recorded with
                         context="all"), not the allocation's: some alloc / free_completed
                         pair has different stacks, or no pair tells */
};

struct snap_annotation {
    int64_t time_us;
    int32_t device;
    uint32_t stage; /* strtab id: "START" or "END" */
    uint32_t name;  /* strtab id */
};

struct snap_setting {
    uint32_t key;   /* strtab id */
    uint32_t value; /* strtab id of the value as Python would print it */
};

struct snap_unknown {
    const char *where; /* "top", "segment", "block", "trace entry", "frame"... */
    uint32_t key;      /* strtab id */
    uint64_t count;
};

struct snapshot {
    char *path;          /* as given; "-" for stdin */
    bool gzip;           /* the input was gzip-compressed */
    uint64_t file_bytes; /* raw bytes read */
    int protocol;        /* pickle protocol */
    bool legacy_list;    /* the file is a bare list of segments */
    bool has_settings;   /* allocator_settings was present */

    struct strtab strs;
    VEC(struct snap_frame) frames;
    VEC(uint32_t) stack_first; /* nstacks + 1 offsets into stack_frames */
    VEC(uint32_t) stack_frames;
    VEC(struct snap_device) devices;
    VEC(struct snap_segment) segments; /* file order (host segments last) */
    VEC(struct snap_block) blocks;
    VEC(struct snap_entry) entries; /* by device, file order within one */
    VEC(struct snap_alloc) allocs;  /* by device, then in replay order */
    VEC(struct snap_annotation) annotations;
    VEC(struct snap_setting) settings; /* allocator_settings, file order */
    VEC(struct snap_unknown) unknown;  /* keys torchtop does not interpret */
    uint64_t n_bad_values;             /* known keys whose value had an unexpected type */
    uint32_t n_raw_frames;             /* frames with SFF_RAW */
};

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */
/* ------------------------------------------------------------------------ */

typedef void (*snapshot_progress_fn)(void *ud, uint64_t done, uint64_t total);

struct snapshot_load_opts {
    snapshot_progress_fn progress; /* optional: raw bytes read of total (0 = unknown) */
    void *progress_ud;
    const volatile int *cancel; /* optional: stop with ST_CANCELLED when *cancel != 0 */
};

/* Load a snapshot pickle (plain or gzip) held in memory and build its
 * indices; `name` is used in messages. On ST_OK *out is the snapshot (free
 * with snapshot_free). On failure *out is NULL and err holds the file, the
 * byte offset and what was wrong: ST_IO, ST_GZIP, ST_TRUNCATED, ST_FORMAT
 * (not a snapshot, malformed pickle), ST_UNSAFE (an opcode that would
 * construct objects), ST_LIMIT, ST_CANCELLED. ST_LIMIT covers what torchtop
 * cannot compute with or hold: a negative size or one above 2^62 bytes,
 * sizes adding up beyond 2^62, a time_us beyond +-2^62, an address range
 * past 2^64, more than 4096 devices, shared (memoized) records that would be
 * copied into more than twice the records the file spells out (plus 65536),
 * and a pickle needing more working memory than 64 MiB plus 32 bytes per
 * byte read. opts may be NULL. */
enum status snapshot_load_mem(const char *name, const void *buf, size_t len,
                              const struct snapshot_load_opts *opts, struct snapshot **out,
                              struct errinfo *err);
/* Same for an open source (which the caller closes). */
enum status snapshot_load_source(struct source *src, const struct snapshot_load_opts *opts,
                                 struct snapshot **out, struct errinfo *err);
void snapshot_free(struct snapshot *s);
/* (Re)build every device's totals and replay (allocs, series, peaks) from
 * the segments, blocks and entries; the loaders call it. */
void snapshot_index(struct snapshot *s);

/* ------------------------------------------------------------------------ */
/* Frames and stacks                                                        */
/* ------------------------------------------------------------------------ */

static inline const char *snapshot_str(const struct snapshot *s, uint32_t id)
{
    return strtab_str(&s->strs, id);
}
static inline const struct snap_frame *snapshot_frame(const struct snapshot *s, uint32_t id)
{
    return &s->frames.v[id];
}
static inline size_t snapshot_nstacks(const struct snapshot *s)
{
    return s->stack_first.n - 1;
}
/* Frames of a stack, innermost first: sets *frames, returns the count. */
static inline size_t snapshot_stack(const struct snapshot *s, uint32_t stack,
                                    const uint32_t **frames)
{
    *frames = s->stack_frames.v + s->stack_first.v[stack];
    return s->stack_first.v[stack + 1] - s->stack_first.v[stack];
}
/* Where the frames that name an allocation's site start: the index of the
 * first frame that is neither hidden by the frame filter nor SFF_ALLOCATOR
 * (allocator frames count only while they lead the stack); the frame count
 * when there is none. Sites and their labels use the frames from there on,
 * less hidden ones; tracebacks keep every frame. */
size_t snapshot_site_start(const struct snapshot *s, uint32_t stack);
/* The frame at snapshot_site_start, else (a stack of nothing but allocator and
 * hidden frames) the innermost frame not hidden, else the innermost frame;
 * IDX_NONE for the empty stack. */
uint32_t snapshot_top_frame(const struct snapshot *s, uint32_t stack);
/* The frame that best names where an allocation comes from: the innermost
 * Python frame, else snapshot_top_frame; IDX_NONE for the empty stack. */
uint32_t snapshot_site_frame(const struct snapshot *s, uint32_t stack);
/* Append "name (file:line)"; raw native frames as "name (lib.so+0x1a2b)". */
void snapshot_frame_format(const struct snapshot *s, uint32_t frame, struct strbuf *out);
/* Append the frames of a stack to tb, innermost first, for the traceback
 * pane: SFF_PYTHON frames as TB_PYTHON, SFF_INDUCTOR ones as TB_INDUCTOR,
 * the rest as TB_NATIVE (raw ones keep their vaddr as line; check
 * SFF_RAW through the frame ids, in the same order). Frames hidden by the
 * frame filter are left out unless `all`. Returns the frames appended. */
struct traceback;
size_t snapshot_stack_traceback(const struct snapshot *s, uint32_t stack, bool all,
                                struct traceback *tb);

/* A device's entry i (0-based within the device). */
static inline const struct snap_entry *snapshot_entry(const struct snapshot *s, uint32_t dev,
                                                      uint32_t i)
{
    return &s->entries.v[s->devices.v[dev].first_entry + i];
}

/* ------------------------------------------------------------------------ */
/* Queries (snapquery.c)                                                    */
/* ------------------------------------------------------------------------ */

/* The stack recorded with the free_completed of allocation a of device dev
 * when it is the stack of the free (dev's free_stacks); 0 when a is not
 * freed in the trace or its free carries the allocation's context (PyTorch
 * records a free with the allocation's context unless context="all"). For
 * an allocation made before recording, this is all the trace says of it. */
uint32_t snapshot_alloc_free_stack(const struct snapshot *s, uint32_t dev,
                                   const struct snap_alloc *a);
/* Bytes allocated after device entry idx (IDX_NONE: before the first). */
int64_t snapshot_allocated_at(const struct snapshot *s, uint32_t dev, uint32_t idx);
/* Whether allocation a is live after device entry idx (IDX_NONE: before the first). */
bool snapshot_alloc_live(const struct snap_alloc *a, uint32_t idx);
/* Allocations live after device entry idx (IDX_NONE: before the first),
 * largest first (then by address): *out receives a malloc'd array of
 * indices into s->allocs (caller frees); returns the count. Their sizes
 * add up to snapshot_allocated_at(). */
size_t snapshot_live_at(const struct snapshot *s, uint32_t dev, uint32_t idx, uint32_t **out);
/* The allocated-bytes series of entries [from, to) of a device cut into n
 * buckets (n >= 1): out[b] receives the largest value in bucket b (for bar
 * charts). Empty buckets repeat the previous value. */
void snapshot_series_buckets(const struct snapshot *s, uint32_t dev, uint32_t from, uint32_t to,
                             size_t n, int64_t *out);
/* First device entry at index >= from with the given action, IDX_NONE if none
 * (e.g. to jump from one OOM to the next). */
uint32_t snapshot_find_action(const struct snapshot *s, uint32_t dev, uint32_t from,
                              enum snap_action a);

/* Allocation sites: allocations grouped by stack (depth 0) or by their first
 * `depth` frames from snapshot_site_start on, not counting hidden ones.
 * Allocations made before recording with no allocation stack but a free
 * stack (snapshot_alloc_free_stack) are grouped apart, by that free stack
 * the same way: their site has stack 0 and free_stack set; no allocation
 * site holds a free stack. */
struct snap_site {
    uint32_t first_frame; /* key frames: sites.frames[first_frame .. +nframes) */
    uint32_t nframes;
    uint32_t stack;      /* the whole stack (depth 0), else that of the largest alloc */
    uint32_t free_stack; /* allocated before recording: the stack of their free (whole,
                            else that of the largest); 0 for allocation sites */
    uint32_t largest;    /* index into s->allocs of its largest allocation */
    uint64_t count;      /* allocations */
    uint64_t total_bytes;
    uint64_t max_bytes;
    uint64_t peak_bytes;     /* bytes live at its device's peak */
    uint64_t nlifetimes;     /* allocations with both ends timed */
    double mean_lifetime_us; /* NaN when nlifetimes is 0 */
};

struct snap_sites {
    struct snap_site *v; /* sorted by peak_bytes, then total_bytes, descending */
    size_t n;
    uint32_t *frames; /* key frames of every site */
};

/* Group the allocations of device dev (IDX_NONE = all devices) into sites.
 * out is filled with malloc'd arrays; release with snapshot_sites_free. */
void snapshot_sites(const struct snapshot *s, uint32_t dev, unsigned depth, struct snap_sites *out);
void snapshot_sites_free(struct snap_sites *ss);

/* Fragmentation of one segment from its final blocks. */
struct snap_frag {
    uint64_t allocated;    /* active_allocated bytes */
    uint64_t pending;      /* active_pending_free bytes */
    uint64_t free;         /* inactive bytes */
    uint64_t largest_free; /* largest inactive block */
    uint64_t requested;    /* requested bytes of the active_allocated blocks */
    uint32_t nfree;        /* inactive blocks */
};
void snapshot_segment_frag(const struct snapshot *s, uint32_t seg, struct snap_frag *out);

/* An allocation's size in block bytes: its final block's size when it has
 * one, else its request rounded up as the caching allocator rounds (see
 * peak_block_bytes at the top of this file). */
uint64_t snapshot_alloc_block_bytes(const struct snapshot *s, const struct snap_alloc *a);

/* Segments at a trace entry (snapseg.c). */
struct snap_seg_at {
    uint64_t address;
    uint64_t size; /* reserved bytes then */
    int64_t stream;
    uint32_t segment;    /* the final segment it is, or is part of (index into
                            s->segments); IDX_NONE: freed or unmapped later */
    uint32_t freed;      /* device entry of the segment_free / segment_unmap that gave
                            it back later; IDX_NONE: none */
    uint32_t first_live; /* its allocations: state.live[first_live .. +nlive) */
    uint32_t nlive;
    struct snap_frag frag; /* allocated, pending, free bytes; the largest free gap
                              (largest_free) and the gaps (nfree) between allocations */
    bool is_expandable;
};

struct snap_seg_live {
    uint64_t addr;
    uint64_t size;      /* block bytes (snapshot_alloc_block_bytes) */
    uint64_t requested; /* requested bytes */
    uint32_t alloc;     /* index into s->allocs; IDX_NONE: a final active_pending_free
                           block the allocated replay does not count */
    uint32_t frames;    /* stack of the allocation (or of that block) */
    bool pending;       /* free requested, not completed (waiting on other streams) */
};

struct snap_seg_state {
    uint32_t idx;             /* the entry asked for */
    bool final;               /* idx is the last entry, or the device has none: these are
                                 the final segments */
    struct snap_seg_at *segs; /* by address */
    size_t nsegs;
    struct snap_seg_live *live; /* by address; those in no segment are left out */
    size_t nlive;
    uint64_t reserved, allocated, pending; /* sums over segs */
    uint64_t outside; /* block bytes of live allocations in no segment (history the
                         ring buffer dropped, or an inconsistent file) */
};

/* The segments of device dev after device entry idx (IDX_NONE: before the
 * first entry; past the last: the last), as memory_viz's segment view
 * rebuilds them: the final segments, less those segment_alloc'ed after idx,
 * plus those segment_free'd after idx (with the size their entry gives);
 * segment_map / segment_unmap after idx shrink or grow (and split or join)
 * expandable segments the same way. Each segment gets the allocations live
 * after idx inside it (snapshot_alloc_live, plus final active_pending_free blocks
 * no allocation accounts for), pending when their free_requested is at or
 * before idx. out is filled with malloc'd arrays; release with
 * snapshot_seg_state_free. */
void snapshot_segments_at(const struct snapshot *s, uint32_t dev, uint32_t idx,
                          struct snap_seg_state *out);
void snapshot_seg_state_free(struct snap_seg_state *st);

/* Memory held by the snapshot, in bytes (for benchmarks). */
size_t snapshot_memory(const struct snapshot *s);

#endif
