/* Unit tests for the snapshot model: loading hand-written snapshot pickles
 * (modern, legacy, C++-written, host memory), the memory_viz replay, live
 * allocations, sites, fragmentation and the report tables. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/snapshot/snapreport.h"
#include "core/snapshot/snapshot.h"
#include "core/report/tabfmt.h"
#include "core/symbols/traceback.h"

/* ------------------------------------------------------------------------ */
/* A tiny pickle writer                                                     */
/* ------------------------------------------------------------------------ */

/* Append a string literal, NUL bytes included. */
#define PUT(b, lit) sb_putn((b), (lit), sizeof(lit) - 1)

static void w_byte(struct strbuf *b, int c)
{
    sb_putc(b, (char)c);
}

static void w_str(struct strbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (n < 256) {
        w_byte(b, 0x8c);
        w_byte(b, (int)n);
    } else {
        w_byte(b, 'X');
        for (int i = 0; i < 4; i++)
            w_byte(b, (int)(n >> (8 * i)) & 0xff);
    }
    sb_putn(b, s, n);
}

static void w_u64(struct strbuf *b, uint64_t v)
{
    if (v < 256) {
        w_byte(b, 'K');
        w_byte(b, (int)v);
        return;
    }
    w_byte(b, 0x8a);
    w_byte(b, 9);
    for (int i = 0; i < 8; i++)
        w_byte(b, (int)(v >> (8 * i)) & 0xff);
    w_byte(b, 0);
}

static void w_int(struct strbuf *b, int64_t v)
{
    if (v >= 0) {
        w_u64(b, (uint64_t)v);
        return;
    }
    w_byte(b, 0x8a);
    w_byte(b, 8);
    for (int i = 0; i < 8; i++)
        w_byte(b, (int)((uint64_t)v >> (8 * i)) & 0xff);
}

/* key then value */
static void kv_str(struct strbuf *b, const char *k, const char *v)
{
    w_str(b, k);
    w_str(b, v);
}

static void kv_int(struct strbuf *b, const char *k, int64_t v)
{
    w_str(b, k);
    w_int(b, v);
}

static void w_frame(struct strbuf *b, const char *name, const char *file, int64_t line)
{
    PUT(b, "}(");
    kv_str(b, "name", name);
    kv_str(b, "filename", file);
    kv_int(b, "line", line);
    sb_putc(b, 'u');
}

/* Stacks used below: F1 (one Python frame), F2 (unwinder, a raw native
 * frame, a Python frame). F2's frames are memoized at slots 1..3 the first
 * time and fetched again with BINGET later. */
static void w_f1(struct strbuf *b)
{
    PUT(b, "](");
    w_frame(b, "load_weights", "/home/u/train.py", 7);
    sb_putc(b, 'e');
}

static bool f2_written;

static void w_f2(struct strbuf *b)
{
    PUT(b, "](");
    if (!f2_written) {
        w_frame(b, "torch::unwind::unwind()", "??", 0);
        PUT(b, "q\x01");
        w_frame(b, "??", "/usr/lib/libtorch_cuda.so", 0x1a2b3c);
        PUT(b, "q\x02");
        w_frame(b, "forward", "/home/u/model.py", 10);
        PUT(b, "q\x03");
        f2_written = true;
    } else {
        PUT(b, "h\x01h\x02h\x03");
    }
    sb_putc(b, 'e');
}

static void w_entry(struct strbuf *b, const char *action, uint64_t addr, uint64_t size,
                    int64_t time, int frames)
{
    PUT(b, "}(");
    kv_str(b, "action", action);
    kv_int(b, strcmp(action, "oom") == 0 ? "device_free" : "addr", (int64_t)addr);
    kv_int(b, "size", (int64_t)size);
    kv_int(b, "stream", 0);
    if (time >= 0)
        kv_int(b, "time_us", time);
    kv_str(b, "compile_context", "N/A");
    kv_str(b, "user_metadata", "");
    w_str(b, "frames");
    if (frames == 1)
        w_f1(b);
    else if (frames == 2)
        w_f2(b);
    else
        sb_putc(b, ']');
    sb_putc(b, 'u');
}

static void w_block(struct strbuf *b, uint64_t addr, uint64_t size, uint64_t req, const char *state,
                    int frames)
{
    PUT(b, "}(");
    kv_int(b, "address", (int64_t)addr);
    kv_int(b, "size", (int64_t)size);
    kv_int(b, "requested_size", (int64_t)req);
    kv_str(b, "state", state);
    w_str(b, "frames");
    if (frames == 1)
        w_f1(b);
    else if (frames == 2)
        w_f2(b);
    else
        sb_putc(b, ']');
    sb_putc(b, 'u');
}

static void w_segment_head_x(struct strbuf *b, int device, uint64_t addr, uint64_t total,
                             bool expandable)
{
    PUT(b, "}(");
    kv_int(b, "device", device);
    kv_int(b, "address", (int64_t)addr);
    kv_int(b, "total_size", (int64_t)total);
    kv_int(b, "allocated_size", 0x2f0);
    kv_int(b, "active_size", 0x2f0);
    kv_int(b, "requested_size", 0x2e0);
    kv_int(b, "stream", 0);
    kv_str(b, "segment_type", "small");
    w_str(b, "segment_pool_id");
    PUT(b, "K\x00K\x00\x86");
    w_str(b, "is_expandable");
    sb_putc(b, (char)(expandable ? 0x88 : 0x89));
    w_str(b, "frames");
    sb_putc(b, ']');
    w_str(b, "blocks");
    PUT(b, "](");
}

static void w_segment_head(struct strbuf *b, int device, uint64_t addr, uint64_t total)
{
    w_segment_head_x(b, device, addr, total, false);
}

static struct snapshot *load_buf(const struct strbuf *b)
{
    struct errinfo err = {0};
    struct snapshot *s = NULL;
    enum status st = snapshot_load_mem("snap.pickle", b->s, b->len, NULL, &s, &err);
    if (st != ST_OK) {
        char *m = errinfo_format(&err);
        print_error("load failed: %s\n", m);
        free(m);
    }
    assert_int_equal(st, ST_OK);
    errinfo_clear(&err);
    return s;
}

/* The main scenario (see the replay test for the expected numbers). */
static struct snapshot *load_main(void)
{
    struct strbuf b = STRBUF_INIT;
    f2_written = false;
    PUT(&b, "\x80\x04}q\x00(");
    w_str(&b, "segments");
    PUT(&b, "](");
    w_segment_head(&b, 0, 0x1000, 0x10000);
    w_block(&b, 0x1000, 0x100, 0x100, "active_allocated", 1);
    w_block(&b, 0x1100, 0x200, 0x1f0, "active_allocated", 2);
    w_block(&b, 0x1300, 0x300, 0x300, "active_pending_free", 0);
    w_block(&b, 0x1600, 0xea00, 0xea00, "inactive", 0);
    PUT(&b, "eu");
    w_segment_head(&b, 1, 0x100000, 0x200);
    w_block(&b, 0x100000, 0x80, 0x80, "inactive", 0);
    w_block(&b, 0x100080, 0x100, 0x100, "inactive", 0);
    w_block(&b, 0x100180, 0x80, 0x80, "active_allocated", 0);
    PUT(&b, "eu");
    sb_putc(&b, 'e');
    w_str(&b, "device_traces");
    PUT(&b, "](](");
    w_entry(&b, "free_requested", 0x9000, 0x40, 90, 0);
    w_entry(&b, "free_completed", 0x9000, 0x40, 95, 0);
    w_entry(&b, "alloc", 0x1100, 0x1f0, 100, 2);
    w_entry(&b, "alloc", 0x5000, 0x80, 110, 2);
    w_entry(&b, "free_requested", 0x5000, 0x80, 120, 2);
    w_entry(&b, "segment_alloc", 0x20000, 0x200000, 130, 0);
    w_entry(&b, "free_completed", 0x5000, 0x80, 150, 2);
    w_entry(&b, "oom", 123, 0x999, 160, 0);
    /* an unknown action and an unknown key */
    PUT(&b, "}(");
    kv_str(&b, "action", "teleport");
    kv_int(&b, "addr", 1);
    kv_str(&b, "category", "x");
    PUT(&b, "u");
    PUT(&b, "ee");
    w_str(&b, "allocator_settings");
    PUT(&b, "}(");
    kv_str(&b, "PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True");
    kv_int(&b, "max_split_size", -1);
    w_str(&b, "roundup_power2_divisions");
    PUT(&b, "}(");
    kv_int(&b, "1", 0);
    kv_int(&b, "2", 4);
    PUT(&b, "u");
    PUT(&b, "u");
    w_str(&b, "external_annotations");
    PUT(&b, "](}(");
    kv_str(&b, "stage", "START");
    kv_str(&b, "name", "step");
    kv_int(&b, "device", 0);
    kv_int(&b, "time_us", 99);
    PUT(&b, "ue");
    kv_int(&b, "mystery", 1);
    PUT(&b, "u.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);
    return s;
}

static void test_model(void **state)
{
    struct snapshot *s = load_main();
    assert_int_equal(s->protocol, 4);
    assert_int_equal(s->devices.n, 2);
    assert_int_equal(s->segments.n, 2);
    assert_int_equal(s->blocks.n, 7);
    assert_int_equal(s->devices.v[0].nentries, 9);
    assert_int_equal(s->devices.v[1].nentries, 0);
    const struct snap_device *d = &s->devices.v[0];
    assert_int_equal(d->nsegments, 1);
    assert_int_equal(d->nblocks, 4);
    assert_int_equal(d->reserved, 0x10000);
    assert_int_equal(d->block_bytes[BS_ACTIVE_ALLOCATED], 0x300);
    assert_int_equal(d->block_bytes[BS_ACTIVE_PENDING_FREE], 0x300);
    assert_int_equal(d->block_bytes[BS_INACTIVE], 0xea00);
    assert_int_equal(d->nactions[SA_ALLOC], 2);
    assert_int_equal(d->nactions[SA_FREE_REQUESTED], 2);
    assert_int_equal(d->nactions[SA_FREE_COMPLETED], 2);
    assert_int_equal(d->nactions[SA_OOM], 1);
    assert_int_equal(d->nactions[SA_OTHER], 1);
    const struct snap_entry *e = snapshot_entry(s, 0, 7);
    assert_int_equal(e->action, SA_OOM);
    assert_int_equal(e->addr, 123);
    e = snapshot_entry(s, 0, 8);
    assert_string_equal(snapshot_str(s, e->action_name), "teleport");
    assert_string_equal(snapshot_str(s, snapshot_entry(s, 0, 2)->compile_context), "N/A");
    /* frames: F1's one, F2's three, interned once however often written */
    assert_int_equal(s->frames.n, 4);
    assert_int_equal(snapshot_nstacks(s), 3);
    uint32_t f2 = snapshot_entry(s, 0, 2)->frames;
    assert_int_equal(snapshot_entry(s, 0, 6)->frames, f2);
    assert_int_equal(s->blocks.v[1].frames, f2);
    const uint32_t *fr;
    assert_int_equal(snapshot_stack(s, f2, &fr), 3);
    assert_true(s->frames.v[fr[0]].flags & SFF_HIDDEN);
    assert_true(s->frames.v[fr[1]].flags & SFF_RAW);
    assert_int_equal(s->frames.v[fr[1]].line, 0x1a2b3c);
    assert_true(s->frames.v[fr[2]].flags & SFF_PYTHON);
    assert_int_equal(s->n_raw_frames, 1);
    assert_int_equal(snapshot_top_frame(s, f2), fr[1]);
    assert_int_equal(snapshot_site_frame(s, f2), fr[2]);
    struct strbuf sb = STRBUF_INIT;
    snapshot_frame_format(s, fr[1], &sb);
    assert_string_equal(sb_str(&sb), "?? (/usr/lib/libtorch_cuda.so+0x1a2b3c)");
    sb_clear(&sb);
    snapshot_frame_format(s, fr[2], &sb);
    assert_string_equal(sb_str(&sb), "forward (/home/u/model.py:10)");
    sb_free(&sb);
    struct traceback tb;
    traceback_init(&tb);
    assert_int_equal(snapshot_stack_traceback(s, f2, false, &tb), 2);
    assert_int_equal(tb.frames.v[0].kind, TB_NATIVE);
    assert_int_equal(tb.frames.v[0].line, 0x1a2b3c);
    assert_int_equal(tb.frames.v[1].kind, TB_PYTHON);
    assert_string_equal(tb.frames.v[1].file, "/home/u/model.py");
    traceback_clear(&tb);
    assert_int_equal(snapshot_stack_traceback(s, f2, true, &tb), 3);
    assert_string_equal(tb.frames.v[0].name, "torch::unwind::unwind()");
    traceback_done(&tb);
    /* settings, annotations, unknown keys */
    assert_true(s->has_settings);
    assert_int_equal(s->settings.n, 3);
    assert_string_equal(snapshot_str(s, s->settings.v[1].value), "-1");
    assert_string_equal(snapshot_str(s, s->settings.v[2].value), "{'1': 0, '2': 4}");
    assert_int_equal(s->annotations.n, 1);
    assert_string_equal(snapshot_str(s, s->annotations.v[0].name), "step");
    assert_int_equal(s->unknown.n, 2);
    assert_string_equal(s->unknown.v[0].where, "trace entry");
    assert_string_equal(snapshot_str(s, s->unknown.v[0].key), "category");
    assert_string_equal(s->unknown.v[1].where, "top");
    assert_string_equal(snapshot_str(s, s->unknown.v[1].key), "mystery");
    assert_int_equal(s->segments.v[0].pool_id[0], 0);
    assert_string_equal(snapshot_str(s, s->segments.v[0].segment_type), "small");
    snapshot_free(s);
}

/* The allocation at addr live at the end of device 0's replay. */
static uint32_t live_alloc(const struct snapshot *s, uint64_t addr)
{
    const struct snap_device *d = &s->devices.v[0];
    for (uint32_t k = d->first_alloc; k < d->first_alloc + d->nallocs; k++)
        if (s->allocs.v[k].addr == addr && s->allocs.v[k].free_idx == IDX_NONE)
            return k;
    fail_msg("no live allocation at 0x%llx", (unsigned long long)addr);
    return IDX_NONE;
}

static void test_replay(void **state)
{
    struct snapshot *s = load_main();
    const struct snap_device *d = &s->devices.v[0];
    /* Before the trace: the free of 0x9000 (0x40) and block 0x1000 (0x100). */
    assert_int_equal(d->base_allocated, 0x140);
    static const int64_t want[] = {0x140, 0x100, 0x2f0, 0x370, 0x370, 0x370, 0x2f0, 0x2f0, 0x2f0};
    for (uint32_t i = 0; i < ARRAY_SIZE(want); i++)
        assert_int_equal(d->allocated_after[i], want[i]);
    assert_int_equal(d->peak_allocated, 0x370);
    assert_int_equal(d->peak_idx, 3);
    /* In block sizes: 0x1100 is its final 0x200 block, 0x5000 and the free of
     * 0x9000 round up to 0x200, block 0x1000 is 0x100; 0x300 before the
     * trace, 0x100 after the free, then 0x300, 0x500. */
    assert_int_equal(s->allocs.v[live_alloc(s, 0x1100)].block, 1);
    assert_int_equal(d->peak_block_bytes, 0x500);
    assert_int_equal(d->peak_block_idx, 3);
    assert_int_equal(d->nallocs, 4);
    /* Live allocations add up to the series at every point. */
    for (uint32_t i = 0; i <= ARRAY_SIZE(want); i++) {
        uint32_t idx = i == ARRAY_SIZE(want) ? IDX_NONE : i;
        uint32_t *live;
        size_t n = snapshot_live_at(s, 0, idx, &live);
        int64_t sum = 0;
        for (size_t k = 0; k < n; k++) {
            sum += (int64_t)s->allocs.v[live[k]].size;
            if (k)
                assert_true(s->allocs.v[live[k - 1]].size >= s->allocs.v[live[k]].size);
        }
        assert_int_equal(sum, snapshot_allocated_at(s, 0, idx));
        free(live);
    }
    uint32_t *live;
    size_t n = snapshot_live_at(s, 0, d->peak_idx, &live);
    assert_int_equal(n, 3);
    assert_int_equal(s->allocs.v[live[0]].addr, 0x1100);
    assert_int_equal(s->allocs.v[live[1]].addr, 0x1000);
    assert_int_equal(s->allocs.v[live[1]].block, 0);
    assert_int_equal(s->allocs.v[live[2]].addr, 0x5000);
    free(live);
    /* Reserved: the final segment (0x10000) before the trace, then a segment_alloc. */
    assert_int_equal(d->base_reserved, 0x10000);
    assert_int_equal(d->reserved_after[5], 0x210000);
    assert_int_equal(d->peak_reserved, 0x210000);
    /* Device 1: only its final active block. */
    assert_int_equal(s->devices.v[1].peak_allocated, 0x80);
    assert_int_equal(s->devices.v[1].peak_idx, IDX_NONE);
    assert_int_equal(s->devices.v[1].peak_block_bytes, 0x80);
    assert_int_equal(s->devices.v[1].peak_block_idx, IDX_NONE);
    /* Buckets and jumps. */
    int64_t bk[3];
    snapshot_series_buckets(s, 0, 0, 9, 3, bk);
    assert_int_equal(bk[0], 0x2f0);
    assert_int_equal(bk[1], 0x370);
    assert_int_equal(bk[2], 0x2f0);
    assert_int_equal(snapshot_find_action(s, 0, 0, SA_OOM), 7);
    assert_int_equal(snapshot_find_action(s, 0, 8, SA_OOM), IDX_NONE);
    snapshot_free(s);
}

static void test_sites(void **state)
{
    struct snapshot *s = load_main();
    struct snap_sites ss;
    snapshot_sites(s, 0, 0, &ss);
    assert_int_equal(ss.n, 3);
    /* F2: 0x1100 and 0x5000, both live at the peak; only 0x5000 has a lifetime. */
    assert_int_equal(ss.v[0].count, 2);
    assert_int_equal(ss.v[0].total_bytes, 0x270);
    assert_int_equal(ss.v[0].max_bytes, 0x1f0);
    assert_int_equal(ss.v[0].peak_bytes, 0x270);
    assert_int_equal(ss.v[0].nlifetimes, 1);
    assert_true(fabs(ss.v[0].mean_lifetime_us - 40.0) < 1e-9);
    assert_int_equal(ss.v[0].nframes, 3);
    assert_int_equal(ss.v[1].peak_bytes, 0x100);
    assert_int_equal(ss.v[2].stack, 0);
    assert_int_equal(ss.v[2].peak_bytes, 0);
    assert_true(isnan(ss.v[2].mean_lifetime_us));
    snapshot_sites_free(&ss);
    /* By the first visible frame: the unwinder frame does not count. */
    snapshot_sites(s, IDX_NONE, 1, &ss);
    assert_int_equal(ss.n, 3); /* device 1's block joins the empty stack's site */
    assert_int_equal(ss.v[0].nframes, 1);
    assert_true(s->frames.v[ss.frames[ss.v[0].first_frame]].flags & SFF_RAW);
    snapshot_sites_free(&ss);
    struct snap_frag fr;
    snapshot_segment_frag(s, 1, &fr);
    assert_int_equal(fr.free, 0x180);
    assert_int_equal(fr.largest_free, 0x100);
    assert_int_equal(fr.allocated, 0x80);
    assert_int_equal(fr.nfree, 2);
    snapshot_free(s);
}

/* An alloc entry whose traceback is recorded with C++ frames: the
 * unwinder, the caching allocator and ATen's empty-tensor helper head it,
 * then `op` and `inner` (each NULL: none), then the interpreter and two
 * Python frames, the innermost at `line`. */
static void w_cpp_alloc(struct strbuf *b, uint64_t addr, const char *op, const char *inner,
                        int line)
{
    PUT(b, "}(");
    kv_str(b, "action", "alloc");
    kv_int(b, "addr", (int64_t)addr);
    kv_int(b, "size", 0x100);
    w_str(b, "frames");
    PUT(b, "](");
    w_frame(b, "torch::unwind::unwind()", "??", 0);
    w_frame(b, "torch::CapturedTraceback::gather(bool, bool, bool)", "??", 0);
    w_frame(b,
            "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(unsigned "
            "long, CUstream_st*)",
            "CUDACachingAllocator.cpp", 0);
    w_frame(b,
            "c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned "
            "long)",
            "", 0);
    w_frame(b, "at::detail::empty_cuda(c10::ArrayRef<long>, c10::TensorOptions const&)", "??", 0);
    if (op)
        w_frame(b, op, "RegisterCUDA_0.cpp", 0);
    if (inner)
        w_frame(b, inner, "??", 0);
    w_frame(b, "_PyEval_EvalFrameDefault", "??", 0);
    w_frame(b, "forward", "/home/u/model.py", line);
    w_frame(b, "<module>", "/home/u/train.py", 5);
    PUT(b, "e");
    sb_putc(b, 'u');
}

/* Grouping by the first frames skips the allocator's own frames that head
 * every C++ traceback; the traceback itself keeps them. */
static void test_sites_cpp(void **state)
{
    static const char add[] = "at::(anonymous namespace)::structured_ufunc_add_CUDA_functional::"
                              "set_output_raw_strided(long, c10::ArrayRef<long>)";
    static const char mul[] = "at::(anonymous namespace)::structured_mul_out_functional::"
                              "set_output_raw_strided(long, c10::ArrayRef<long>)";
    struct strbuf b = STRBUF_INIT;
    PUT(&b, "\x80\x04}(");
    w_str(&b, "segments");
    PUT(&b, "]");
    w_str(&b, "device_traces");
    PUT(&b, "](](");
    w_cpp_alloc(&b, 0x1000, add, NULL, 10);
    w_cpp_alloc(&b, 0x2000, add, NULL, 11);
    w_cpp_alloc(&b, 0x3000, mul, NULL, 12);
    /* An allocator frame past the first other one is not skipped. */
    w_cpp_alloc(&b, 0x4000, "torch::autograd::Engine::evaluate_function()",
                "c10::cuda::CUDACachingAllocator::raw_alloc(unsigned long)", 13);
    /* Nothing but the allocator before Python. */
    w_cpp_alloc(&b, 0x5000, NULL, NULL, 14);
    PUT(&b, "eeu.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);
    uint32_t st = snapshot_entry(s, 0, 0)->frames;
    const uint32_t *f;
    assert_int_equal(snapshot_stack(s, st, &f), 9);
    assert_true(s->frames.v[f[0]].flags & SFF_HIDDEN);
    assert_true(s->frames.v[f[2]].flags & SFF_ALLOCATOR);
    assert_true(s->frames.v[f[4]].flags & SFF_ALLOCATOR);
    assert_false(s->frames.v[f[5]].flags & (SFF_ALLOCATOR | SFF_HIDDEN));
    assert_int_equal(snapshot_site_start(s, st), 5);
    assert_int_equal(snapshot_top_frame(s, st), f[5]);
    assert_string_equal(snapshot_str(s, s->frames.v[snapshot_site_frame(s, st)].name), "forward");
    /* The traceback pane still gets every frame the filter does not hide. */
    struct traceback tb;
    traceback_init(&tb);
    assert_int_equal(snapshot_stack_traceback(s, st, false, &tb), 6);
    assert_string_equal(tb.frames.v[0].name, snapshot_str(s, s->frames.v[f[2]].name));
    traceback_done(&tb);

    struct snap_sites ss;
    for (unsigned depth = 1; depth <= 3; depth++) {
        snapshot_sites(s, 0, depth, &ss);
        assert_int_equal(ss.n, 4 + (depth > 1)); /* from 2 on, add's two Python lines */
        snapshot_sites_free(&ss);
    }
    snapshot_sites(s, 0, 1, &ss);
    assert_int_equal(ss.v[0].count, 2);
    assert_int_equal(ss.v[0].nframes, 1);
    assert_string_equal(snapshot_str(s, s->frames.v[ss.frames[ss.v[0].first_frame]].name), add);
    snapshot_sites_free(&ss);
    snapshot_sites(s, 0, 2, &ss);
    for (size_t i = 0; i < ss.n; i++) {
        const uint32_t *k = ss.frames + ss.v[i].first_frame;
        const char *first = snapshot_str(s, s->frames.v[k[0]].name);
        if (strncmp(first, "torch::autograd", 15) == 0)
            assert_string_equal(snapshot_str(s, s->frames.v[k[1]].name),
                                "c10::cuda::CUDACachingAllocator::raw_alloc(unsigned long)");
        if (strcmp(first, "forward") == 0)
            assert_string_equal(snapshot_str(s, s->frames.v[k[1]].name), "<module>");
    }
    snapshot_sites_free(&ss);
    /* Labels: the op by its simplified name, Python frames as they are. */
    struct table *t = snapreport_sites(s, 0, 1, 0);
    assert_int_equal(t->nrows, 4);
    assert_string_equal(table_cell(t, 0, 0).s,
                        "at::structured_ufunc_add_CUDA_functional::set_output_raw_strided");
    assert_non_null(strstr(t->title, "first 1 frame past the allocator's own"));
    bool seen_py = false;
    for (size_t r = 0; r < t->nrows; r++)
        seen_py |= strcmp(table_cell(t, r, 0).s, "forward (/home/u/model.py:14)") == 0;
    assert_true(seen_py);
    table_free(t);
    snapshot_free(s);
}

/* An alloc entry with the frames given as name, file, line triples. */
static void w_alloc_frames(struct strbuf *b, uint64_t addr, const char *const *fr, size_t n)
{
    PUT(b, "}(");
    kv_str(b, "action", "alloc");
    kv_int(b, "addr", (int64_t)addr);
    kv_int(b, "size", 0x100);
    w_str(b, "frames");
    PUT(b, "](");
    for (size_t i = 0; i + 2 < n; i += 3)
        w_frame(b, fr[i], fr[i + 1], strtoll(fr[i + 2], NULL, 10));
    PUT(b, "e");
    sb_putc(b, 'u');
}

static bool has_row(const struct table *t, const char *label)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (table_cell(t, r, 0).s && strcmp(table_cell(t, r, 0).s, label) == 0)
            return true;
    return false;
}

/* Sites that read the same say the first frame that tells them apart: a
 * caller (via), a C++ frame inside the named one (calling), the end of a
 * shorter stack; grouped by two frames, the key frames decide. */
static void test_sites_told_apart(void **state)
{
    (void)state;
    static const char mul[] = "at::(anonymous namespace)::structured_mul_out_functional::"
                              "set_output_raw_strided(long, c10::ArrayRef<long>)";
#define STEP "step", "/u/optim.py", "80"
#define ADAM "adam", "/u/adam.py", "123"
    const char *const a[] = {STEP, ADAM, "main", "/u/train.py", "5"};
    const char *const bb[] = {STEP, "sgd", "/u/sgd.py", "40", "main", "/u/train.py", "5"};
    const char *const c[] = {STEP, ADAM, "main", "/u/train.py", "9"};
    const char *const d[] = {mul,    "RegisterCUDA_0.cpp", "0", STEP, ADAM,
                             "main", "/u/train.py",        "5"};
    const char *const g[] = {STEP, ADAM};
    const char *const e[] = {"forward", "/u/model.py", "3", "main", "/u/train.py", "5"};
#undef STEP
#undef ADAM
    struct strbuf b = STRBUF_INIT;
    PUT(&b, "\x80\x04}(");
    w_str(&b, "segments");
    PUT(&b, "]");
    w_str(&b, "device_traces");
    PUT(&b, "](](");
    w_alloc_frames(&b, 0x1000, a, ARRAY_SIZE(a));
    w_alloc_frames(&b, 0x2000, bb, ARRAY_SIZE(bb));
    w_alloc_frames(&b, 0x3000, c, ARRAY_SIZE(c));
    w_alloc_frames(&b, 0x4000, d, ARRAY_SIZE(d));
    w_alloc_frames(&b, 0x5000, g, ARRAY_SIZE(g));
    w_alloc_frames(&b, 0x6000, e, ARRAY_SIZE(e));
    PUT(&b, "eeu.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);
    struct table *t = snapreport_sites(s, 0, 0, 0);
    assert_int_equal(t->nrows, 6);
    assert_true(has_row(t, "step (optim.py:80) via train.py:5"));
    assert_true(has_row(t, "step (optim.py:80) via sgd.py:40"));
    assert_true(has_row(t, "step (optim.py:80) via train.py:9"));
    assert_true(has_row(t, "step (optim.py:80) calling "
                           "structured_mul_out_functional::set_output_raw_strided"));
    assert_true(has_row(t, "step (optim.py:80) (no deeper frame)"));
    assert_true(has_row(t, "forward (/u/model.py:3)"));
    table_free(t);
    /* By two frames: a, c and g are one site, told from sgd's by adam. */
    t = snapreport_sites(s, 0, 2, 0);
    assert_int_equal(t->nrows, 4);
    assert_true(has_row(t, "step (optim.py:80) via adam.py:123"));
    assert_true(has_row(t, "step (optim.py:80) via sgd.py:40"));
    assert_true(has_row(t, "step (optim.py:80) calling "
                           "structured_mul_out_functional::set_output_raw_strided"));
    assert_true(has_row(t, "forward (/u/model.py:3)"));
    table_free(t);
    /* Sites that differ in no frame past the allocator's keep their name. */
    const char *const h1[] = {"torch::unwind::unwind()", "??", "0", "forward", "/u/m.py", "1"};
    const char *const h2[] = {"forward", "/u/m.py", "1"};
    b = (struct strbuf)STRBUF_INIT;
    PUT(&b, "\x80\x04}(");
    w_str(&b, "segments");
    PUT(&b, "]");
    w_str(&b, "device_traces");
    PUT(&b, "](](");
    w_alloc_frames(&b, 0x1000, h1, ARRAY_SIZE(h1));
    w_alloc_frames(&b, 0x2000, h2, ARRAY_SIZE(h2));
    PUT(&b, "eeu.");
    snapshot_free(s);
    s = load_buf(&b);
    sb_free(&b);
    t = snapreport_sites(s, 0, 0, 0);
    assert_int_equal(t->nrows, 2);
    assert_string_equal(table_cell(t, 0, 0).s, "forward (/u/m.py:1)");
    assert_string_equal(table_cell(t, 1, 0).s, "forward (/u/m.py:1)");
    table_free(t);
    snapshot_free(s);
}

/* Segments at an entry: the cursor is entry 4. Segment 0x30000 is
 * allocated after it, 0x20000 freed after it (its allocation's free
 * requested at the cursor), 0x10200's free requested before it; the
 * expandable 0x40000 maps 0x40200 and unmaps 0x40400 after it. */
static void test_segments_at(void **state)
{
    struct strbuf b = STRBUF_INIT;
    PUT(&b, "\x80\x04}(");
    w_str(&b, "segments");
    PUT(&b, "](");
    w_segment_head(&b, 0, 0x10000, 0x1000);
    w_block(&b, 0x10000, 0x200, 0x1f0, "active_allocated", 1);
    w_block(&b, 0x10200, 0x100, 0x100, "active_pending_free", 0);
    w_block(&b, 0x10300, 0xd00, 0xd00, "inactive", 0);
    PUT(&b, "eu");
    w_segment_head(&b, 0, 0x30000, 0x800);
    w_block(&b, 0x30000, 0x200, 0x200, "active_allocated", 0);
    w_block(&b, 0x30200, 0x600, 0x600, "inactive", 0);
    PUT(&b, "eu");
    w_segment_head_x(&b, 0, 0x40000, 0x400, true);
    w_block(&b, 0x40000, 0x400, 0x400, "inactive", 0);
    PUT(&b, "eu");
    sb_putc(&b, 'e');
    w_str(&b, "device_traces");
    PUT(&b, "](](");
    w_entry(&b, "alloc", 0x10000, 0x1f0, 0, 1);
    w_entry(&b, "alloc", 0x10200, 0x100, 1, 0);
    w_entry(&b, "alloc", 0x20000, 0x200, 2, 0);
    w_entry(&b, "free_requested", 0x10200, 0x100, 3, 0);
    w_entry(&b, "free_requested", 0x20000, 0x200, 4, 0);
    w_entry(&b, "segment_alloc", 0x30000, 0x800, 5, 0);
    w_entry(&b, "alloc", 0x30000, 0x200, 6, 0);
    w_entry(&b, "free_completed", 0x20000, 0x200, 7, 0);
    w_entry(&b, "segment_free", 0x20000, 0x400, 8, 0);
    w_entry(&b, "segment_map", 0x40200, 0x200, 9, 0);
    w_entry(&b, "segment_unmap", 0x40400, 0x200, 10, 0);
    PUT(&b, "eeu.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);

    struct snap_seg_state st;
    snapshot_segments_at(s, 0, 4, &st);
    assert_false(st.final);
    assert_int_equal(st.nsegs, 4);
    static const uint64_t addr[] = {0x10000, 0x20000, 0x40000, 0x40400};
    static const uint64_t size[] = {0x1000, 0x400, 0x200, 0x200};
    for (size_t i = 0; i < st.nsegs; i++) {
        assert_int_equal(st.segs[i].address, addr[i]);
        assert_int_equal(st.segs[i].size, size[i]);
    }
    assert_int_equal(st.reserved, 0x1800);
    const struct snap_seg_at *g = &st.segs[0];
    assert_int_equal(g->segment, 0);
    assert_int_equal(g->nlive, 2);
    assert_false(st.live[g->first_live].pending);
    assert_true(st.live[g->first_live + 1].pending);
    assert_int_equal(g->frag.allocated, 0x200);
    assert_int_equal(g->frag.requested, 0x1f0);
    assert_int_equal(g->frag.pending, 0x100);
    assert_int_equal(g->frag.free, 0xd00);
    assert_int_equal(g->frag.largest_free, 0xd00);
    /* Freed after the cursor: the size its segment_free gives. */
    g = &st.segs[1];
    assert_int_equal(g->segment, IDX_NONE);
    assert_int_equal(g->freed, 8);
    assert_int_equal(g->nlive, 1);
    assert_int_equal(g->frag.pending, 0x200);
    assert_int_equal(g->frag.allocated, 0);
    assert_int_equal(g->frag.free, 0x200);
    /* The expandable segment split around the range mapped later. */
    assert_int_equal(st.segs[2].segment, 2);
    assert_int_equal(st.segs[3].segment, 2);
    assert_true(st.segs[3].is_expandable);
    assert_int_equal(st.allocated, 0x200);
    assert_int_equal(st.pending, 0x300);
    assert_int_equal(st.outside, 0);
    snapshot_seg_state_free(&st);

    /* One entry earlier the free of 0x20000 is not requested yet. */
    snapshot_segments_at(s, 0, 3, &st);
    assert_int_equal(st.segs[1].frag.allocated, 0x200);
    assert_int_equal(st.segs[1].frag.pending, 0);
    snapshot_seg_state_free(&st);

    /* Before the first entry: nothing traced is live yet. */
    snapshot_segments_at(s, 0, IDX_NONE, &st);
    assert_int_equal(st.nsegs, 4);
    assert_int_equal(st.nlive, 0);
    snapshot_seg_state_free(&st);

    /* At the last entry: the final segments and their blocks' totals. */
    snapshot_segments_at(s, 0, 10, &st);
    assert_true(st.final);
    assert_int_equal(st.nsegs, 3);
    for (size_t i = 0; i < st.nsegs; i++) {
        g = &st.segs[i];
        const struct snap_segment *sg = &s->segments.v[g->segment];
        assert_int_equal(g->address, sg->address);
        assert_int_equal(g->size, sg->total_size);
        struct snap_frag fr;
        snapshot_segment_frag(s, g->segment, &fr);
        assert_int_equal(g->frag.allocated, fr.allocated);
        assert_int_equal(g->frag.pending, fr.pending);
        assert_int_equal(g->frag.free, fr.free);
        assert_int_equal(g->frag.largest_free, fr.largest_free);
        assert_int_equal(g->frag.requested, fr.requested);
    }
    assert_int_equal(st.reserved, s->devices.v[0].reserved);
    snapshot_seg_state_free(&st);
    snapshot_free(s);
}

static void test_tables(void **state)
{
    struct snapshot *s = load_main();
    struct table_list tl = {0};
    snapshot_tables(s, NULL, 0, &tl);
    assert_int_equal(tl.items.n, 4);
    assert_string_equal(tl.items.v[0]->name, "memory_summary");
    assert_string_equal(tl.items.v[1]->name, "allocator_settings");
    assert_string_equal(tl.items.v[2]->name, "allocation_sites");
    assert_string_equal(tl.items.v[3]->name, "segments");
    const struct table *t = tl.items.v[0];
    assert_int_equal(t->nrows, 3);
    int c = table_col_index(t, "peak_allocated_bytes");
    assert_true(c >= 0);
    assert_int_equal(table_cell(t, 0, (size_t)c).i, 0x500);
    assert_int_equal(table_cell(t, 0, (size_t)table_col_index(t, "peak_requested_bytes")).i, 0x370);
    assert_int_equal(table_cell(t, 0, (size_t)table_col_index(t, "peak_index")).i, 3);
    assert_string_equal(t->cols[table_col_index(t, "peak_index")].title, "peak at entry");
    assert_string_equal(table_cell(t, 2, 0).s, "all");
    t = tl.items.v[2];
    assert_string_equal(table_cell(t, 0, 0).s, "forward (/home/u/model.py:10)");
    /* Sites count requests; "at peak" is the requests' peak, device 0's. */
    assert_int_equal(t->notes.n, 1);
    assert_non_null(strstr(t->notes.v[0], "bytes are requested sizes"));
    assert_non_null(strstr(t->notes.v[0], "(after entry 3 on cuda:0)"));
    t = tl.items.v[3];
    c = table_col_index(t, "fragmentation_pct");
    assert_true(fabs(table_cell(t, 1, (size_t)c).f - 100.0 / 3.0) < 1e-9);
    table_list_free(&tl);
    snapshot_tables(s, "trace", 0, &tl);
    assert_int_equal(tl.items.n, 1);
    t = tl.items.v[0];
    assert_int_equal(t->nrows, 9);
    assert_non_null(strstr(t->title, "allocated = requested bytes"));
    assert_string_equal(table_cell(t, 8, (size_t)table_col_index(t, "action")).s, "teleport");
    assert_string_equal(table_cell(t, 3, (size_t)table_col_index(t, "address")).s, "0x5000");
    assert_true(fabs(table_cell(t, 3, (size_t)table_col_index(t, "t_ms")).f - 0.02) < 1e-9);
    struct strbuf out = STRBUF_INIT;
    struct tabfmt_opts o = {.format = FMT_JSON};
    tabfmt_list(&out, &tl, &o, NULL);
    assert_non_null(strstr(sb_str(&out), "\"top_frame\": \"forward (/home/u/model.py:10)\""));
    sb_free(&out);
    table_list_free(&tl);
    assert_true(snapshot_table_known("sites"));
    assert_false(snapshot_table_known("nope"));
    snapshot_free(s);
}

/* A trace whose first entry frees 0xa000, allocated before recording, with
 * stack F1; then 0xb000 is allocated with F2 and freed with F2 again
 * (`free_own`: with F1, the free's own stack as under context="all"). */
static struct snapshot *load_freed_before(bool free_own)
{
    struct strbuf b = STRBUF_INIT;
    f2_written = false;
    PUT(&b, "\x80\x04}q\x00(");
    w_str(&b, "segments");
    PUT(&b, "](");
    w_segment_head(&b, 0, 0xa000, 0x2000);
    w_block(&b, 0xa000, 0x2000, 0x2000, "inactive", 0);
    PUT(&b, "eue");
    w_str(&b, "device_traces");
    PUT(&b, "](](");
    w_entry(&b, "free_requested", 0xa000, 0x400, 10, 1);
    w_entry(&b, "free_completed", 0xa000, 0x400, 11, 1);
    w_entry(&b, "alloc", 0xb000, 0x80, 20, 2);
    w_entry(&b, "free_requested", 0xb000, 0x80, 30, free_own ? 1 : 2);
    w_entry(&b, "free_completed", 0xb000, 0x80, 31, free_own ? 1 : 2);
    PUT(&b, "eeu.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);
    return s;
}

/* An allocation made before recording is never given its free's stack as
 * if it were where it was made: its site is apart, named by the free. When
 * the file records frees with the allocation's context, the free's stack is
 * the allocation's and it stays an allocation site. */
static void test_sites_freed_before(void **state)
{
    (void)state;
    struct snapshot *s = load_freed_before(true);
    const struct snap_device *d = &s->devices.v[0];
    assert_true(d->free_stacks);
    uint32_t f1 = snapshot_entry(s, 0, 1)->frames, f2 = snapshot_entry(s, 0, 2)->frames;
    assert_int_not_equal(f1, 0);
    const struct snap_alloc *pre = &s->allocs.v[d->first_alloc];
    assert_int_equal(pre->addr, 0xa000);
    assert_int_equal(pre->alloc_idx, IDX_NONE);
    assert_int_equal(pre->frames, 0);
    assert_int_equal(snapshot_alloc_free_stack(s, 0, pre), f1);
    struct snap_sites ss;
    for (unsigned depth = 0; depth < 2; depth++) {
        snapshot_sites(s, 0, depth, &ss);
        assert_int_equal(ss.n, 2);
        /* F2's 0x80 live at the peak first, then the 0x400 freed before it. */
        assert_int_equal(ss.v[0].stack, f2);
        assert_int_equal(ss.v[0].free_stack, 0);
        assert_int_equal(ss.v[1].stack, 0);
        assert_int_equal(ss.v[1].free_stack, f1);
        assert_int_equal(ss.v[1].total_bytes, 0x400);
        assert_int_equal(ss.v[1].count, 1);
        snapshot_sites_free(&ss);
    }
    struct table *t = snapreport_sites(s, IDX_NONE, 0, 0);
    assert_int_equal(t->nrows, 2);
    assert_string_equal(table_cell(t, 1, 0).s, SNAPREPORT_FREED_PREFIX "load_weights (train.py:7)");
    assert_int_equal(table_ref(t, 1), SNAPREPORT_FREE_STACK_REF | f1);
    assert_int_equal(table_ref(t, 0), f2);
    int c = table_col_index(t, "stack");
    assert_string_equal(table_cell(t, 1, (size_t)c).s,
                        "freed at: load_weights (/home/u/train.py:7)");
    assert_int_equal(t->notes.n, 2);
    assert_non_null(strstr(t->notes.v[1], "grouped by where they were freed"));
    table_free(t);
    snapshot_free(s);

    s = load_freed_before(false);
    d = &s->devices.v[0];
    assert_false(d->free_stacks);
    f1 = snapshot_entry(s, 0, 1)->frames;
    pre = &s->allocs.v[d->first_alloc];
    assert_int_equal(pre->frames, f1);
    assert_int_equal(snapshot_alloc_free_stack(s, 0, pre), 0);
    snapshot_sites(s, 0, 0, &ss);
    assert_int_equal(ss.n, 2);
    assert_int_equal(ss.v[1].stack, f1);
    assert_int_equal(ss.v[1].free_stack, 0);
    snapshot_sites_free(&ss);
    snapshot_free(s);
}

/* The oldest layout: a bare list of segments; blocks without address or
 * frames, their context in history. */
static void test_legacy(void **state)
{
    struct strbuf b = STRBUF_INIT;
    f2_written = false;
    PUT(&b, "\x80\x02](}(");
    kv_int(&b, "device", 0);
    kv_int(&b, "address", 0x4000);
    kv_int(&b, "total_size", 0x300);
    w_str(&b, "blocks");
    PUT(&b, "](}(");
    kv_int(&b, "size", 0x100);
    kv_str(&b, "state", "active_allocated");
    w_str(&b, "history");
    PUT(&b, "]}(");
    kv_int(&b, "addr", 0x4000);
    kv_int(&b, "real_size", 0xf0);
    w_str(&b, "frames");
    w_f1(&b);
    PUT(&b, "uau}(");
    kv_int(&b, "size", 0x200);
    kv_str(&b, "state", "inactive");
    PUT(&b, "ueue.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);
    assert_true(s->legacy_list);
    assert_false(s->has_settings);
    assert_int_equal(s->blocks.n, 2);
    assert_int_equal(s->blocks.v[0].address, 0x4000);
    assert_int_equal(s->blocks.v[1].address, 0x4100);
    assert_int_equal(s->blocks.v[0].requested_size, 0xf0);
    assert_int_equal(s->blocks.v[1].requested_size, 0x200);
    const uint32_t *f;
    assert_int_equal(snapshot_stack(s, s->blocks.v[0].frames, &f), 1);
    assert_string_equal(snapshot_str(s, s->frames.v[f[0]].name), "load_weights");
    assert_int_equal(s->devices.v[0].peak_allocated, 0xf0);
    /* Without a trace the peak allocated is the allocated blocks, not their
     * requests: never below the allocated bytes. */
    struct table *t = snapreport_summary(s);
    int peak = table_col_index(t, "peak_allocated_bytes");
    assert_int_equal(table_cell(t, 0, (size_t)peak).i, 0x100);
    assert_int_equal(table_cell(t, 0, (size_t)table_col_index(t, "active_allocated_bytes")).i,
                     0x100);
    assert_int_equal(table_cell(t, 0, (size_t)table_col_index(t, "peak_requested_bytes")).i, 0xf0);
    assert_int_equal(table_cell(t, 0, (size_t)table_col_index(t, "peak_index")).i, TABLE_NO_INT);
    /* Live before the trace: blocks too; one device, so "all" has its peaks. */
    assert_int_equal(table_cell(t, 0, (size_t)table_col_index(t, "allocated_before_trace_bytes")).i,
                     0x100);
    assert_string_equal(table_cell(t, 1, 0).s, "all");
    assert_int_equal(table_cell(t, 1, (size_t)peak).i, 0x100);
    assert_int_equal(table_cell(t, 1, (size_t)table_col_index(t, "peak_reserved_bytes")).i, 0x300);
    table_free(t);
    snapshot_free(s);
}

/* What older C++ writers produce: protocol 2, BINPUT memo, every dict and
 * list wrapped in restore_type_tag. */
static void test_cpp_tagged(void **state)
{
    struct strbuf b = STRBUF_INIT;
    PUT(&b, "\x80\x02"
            "ctorch.jit._pickle\nrestore_type_tag\nq\x00");
    PUT(&b, "}q\x01(");
    w_str(&b, "segments");
    PUT(&b, "h\x00]q\x02");
    w_str(&b, "List[Dict[str, Any]]");
    PUT(&b, "\x86R");
    w_str(&b, "device_traces");
    PUT(&b, "h\x00](h\x00](h\x00}(");
    kv_str(&b, "action", "alloc");
    kv_int(&b, "addr", 0x10);
    kv_int(&b, "size", 0x20);
    w_str(&b, "frames");
    PUT(&b, "h\x00](h\x00}(");
    kv_str(&b, "name", "f");
    kv_str(&b, "filename", "/tmp/torchinductor_u/ab/cab.py");
    kv_int(&b, "line", 3);
    PUT(&b, "u");
    w_str(&b, "Dict[str, Any]");
    PUT(&b, "\x86Rq\x05"
            "e");
    w_str(&b, "List[Dict[str, Any]]");
    PUT(&b, "\x86R");
    PUT(&b, "u");
    w_str(&b, "Dict[str, Any]");
    PUT(&b, "\x86Rh\x00}(");
    kv_str(&b, "action", "free_completed");
    kv_int(&b, "addr", 0x10);
    kv_int(&b, "size", 0x20);
    w_str(&b, "frames");
    PUT(&b, "h\x00](h\x05"
            "e");
    w_str(&b, "List[Dict[str, Any]]");
    PUT(&b, "\x86R");
    PUT(&b, "u");
    w_str(&b, "Dict[str, Any]");
    PUT(&b, "\x86R"
            "e");
    w_str(&b, "List[Dict[str, Any]]");
    PUT(&b, "\x86R"
            "e");
    w_str(&b, "List[List[Dict[str, Any]]]");
    PUT(&b, "\x86R"
            "u");
    w_str(&b, "Dict[str, Any]");
    PUT(&b, "\x86R.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);
    assert_int_equal(s->protocol, 2);
    assert_int_equal(s->devices.n, 1);
    assert_int_equal(s->entries.n, 2);
    assert_int_equal(s->frames.n, 1);
    assert_int_equal(snapshot_entry(s, 0, 0)->frames, snapshot_entry(s, 0, 1)->frames);
    assert_int_equal(s->frames.v[0].flags, SFF_PYTHON | SFF_INDUCTOR);
    struct traceback tb;
    traceback_init(&tb);
    snapshot_stack_traceback(s, snapshot_entry(s, 0, 0)->frames, false, &tb);
    assert_int_equal(tb.frames.n, 1);
    assert_int_equal(tb.frames.v[0].kind, TB_INDUCTOR);
    traceback_done(&tb);
    assert_int_equal(s->devices.v[0].peak_allocated, 0x20);
    assert_int_equal(s->devices.v[0].peak_idx, 0);
    snapshot_free(s);
}

static void test_host(void **state)
{
    struct strbuf b = STRBUF_INIT;
    f2_written = false;
    PUT(&b, "\x80\x04}(");
    w_str(&b, "segments");
    PUT(&b, "]");
    w_str(&b, "device_traces");
    PUT(&b, "](]e");
    w_str(&b, "host_segments");
    PUT(&b, "](");
    w_segment_head(&b, 0, 0x7000, 0x1000);
    w_block(&b, 0x7000, 0x1000, 0x1000, "active_allocated", 0);
    PUT(&b, "eue");
    w_str(&b, "host_traces");
    PUT(&b, "](");
    w_entry(&b, "alloc", 0x8000, 0x10, -1, 0);
    PUT(&b, "eu.");
    struct snapshot *s = load_buf(&b);
    sb_free(&b);
    assert_int_equal(s->devices.n, 2);
    assert_true(s->devices.v[1].host);
    assert_int_equal(s->devices.v[1].id, -1);
    assert_int_equal(s->devices.v[1].nentries, 1);
    assert_int_equal(s->devices.v[1].nsegments, 1);
    assert_int_equal(s->devices.v[1].peak_allocated, 0x1010);
    assert_int_equal(s->segments.v[0].device, 1);
    assert_false(snapshot_entry(s, 1, 0)->flags & SEF_TIME);
    struct table *t = snapreport_summary(s);
    assert_string_equal(table_cell(t, 1, 0).s, "host");
    table_free(t);
    snapshot_free(s);
}

static void expect_error(const char *bytes, size_t len, enum status want, const char *msg)
{
    struct errinfo err = {0};
    struct snapshot *s = (struct snapshot *)1;
    assert_int_equal(snapshot_load_mem("snap.pickle", bytes, len, NULL, &s, &err), want);
    assert_null(s);
    char *m = errinfo_format(&err);
    assert_string_equal(m, msg);
    free(m);
    errinfo_clear(&err);
}

static void test_not_snapshots(void **state)
{
    expect_error("\x80\x04K\x05.", 5, ST_FORMAT,
                 "snap.pickle: byte 4: not a memory snapshot: the pickle holds no dict or list "
                 "of segments");
    expect_error("\x80\x04}\x8c\x01"
                 "aK\x01s.",
                 10, ST_FORMAT,
                 "snap.pickle: byte 2: not a memory snapshot: the pickle's dict has no "
                 "'segments' or 'device_traces'");
    expect_error("\x80\x04"
                 "cos\nsystem\n.",
                 14, ST_UNSAFE,
                 "snap.pickle: byte 2: refused GLOBAL os.system: torchtop reads plain data and "
                 "never imports or calls anything (only torch.jit._pickle.restore_type_tag is "
                 "accepted)");
    /* A segment on device 70000. */
    struct strbuf b = STRBUF_INIT;
    PUT(&b, "\x80\x04}(");
    w_str(&b, "segments");
    PUT(&b, "](}(");
    kv_int(&b, "device", 70000);
    kv_int(&b, "total_size", 1);
    PUT(&b, "ueu.");
    expect_error(b.s, b.len, ST_FORMAT,
                 "snap.pickle: byte 16: segment 0 is on device 70000 (devices 0 to 4095 are "
                 "supported)");
    sb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_replay),
        cmocka_unit_test(test_sites),
        cmocka_unit_test(test_sites_cpp),
        cmocka_unit_test(test_sites_told_apart),
        cmocka_unit_test(test_sites_freed_before),
        cmocka_unit_test(test_segments_at),
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_legacy),
        cmocka_unit_test(test_cpp_tagged),
        cmocka_unit_test(test_host),
        cmocka_unit_test(test_not_snapshots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
