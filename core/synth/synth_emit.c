/* JSON text of the synthetic traces, laid out the way Kineto writes it
 * (one member group per line, 2-space indents); counts go to synth_stats. */
#include "config.h"

#include <stdio.h>

#include "core/synth/synth_internal.h"

#define BASE_TIME_NS 1767189312000000000LL
#define TRACE_SPAN_SORT 536870912
#define GPU_SORT_BASE 5000000
#define VISIBLE_GPUS 16

static const char *const ann_names[ANN__COUNT] = {
    [ANN_STEP] = "ProfilerStep#",
    [ANN_ZERO_GRAD] = "Optimizer.zero_grad#AdamW.zero_grad",
    [ANN_OPT_STEP] = "Optimizer.step#AdamW.step",
    [ANN_NCCL_ALLREDUCE] = "nccl:all_reduce",
};

/* ------------------------------------------------------------------------ */
/* Event framing                                                            */
/* ------------------------------------------------------------------------ */

static void ev_begin(struct emitter *e)
{
    if (e->need_comma)
        PUT(e->o, ",\n  {\n    ");
    else
        PUT(e->o, "\n  {\n    ");
    e->need_comma = true;
    e->st->events++;
}

static void ev_close(struct emitter *e)
{
    PUT(e->o, "\n  }");
}

/* "ph": "X" ... up to and including the opening of "args". */
static void x_head(struct emitter *e, const char *cat, size_t cat_len, const char *name,
                   size_t name_len, int64_t pid, int64_t tid, int64_t ts, int64_t dur)
{
    struct synth_out *o = e->o;
    PUT(o, "\"ph\": \"X\", \"cat\": \"");
    synth_out_put(o, cat, cat_len);
    PUT(o, "\", \"name\": \"");
    synth_out_put(o, name, name_len);
    PUT(o, "\", \"pid\": ");
    synth_out_i64(o, pid);
    PUT(o, ", \"tid\": ");
    synth_out_i64(o, tid);
    PUT(o, ",\n    \"ts\": ");
    synth_out_us(o, ts);
    PUT(o, ", \"dur\": ");
    synth_out_us(o, dur);
    PUT(o, ",\n    \"args\": {\n      ");
}

#define X_HEAD(e, cat, name, name_len, pid, tid, ts, dur)                                          \
    x_head(e, cat, sizeof(cat) - 1, name, name_len, pid, tid, ts, dur)

static void args_end(struct emitter *e)
{
    PUT(e->o, "\n    }");
}

static void ev_idx(struct emitter *e)
{
    PUT(e->o, "\"Ev Idx\": ");
    synth_out_u64(e->o, e->ev_idx++);
}

static int64_t host_tid(const struct sim *s, int th)
{
    return th == TH_AUTOGRAD ? s->tid_autograd : th == TH_BOOT ? 0 : s->pid;
}

static int64_t host_pid(const struct sim *s, int th)
{
    return th == TH_BOOT ? 0 : s->pid;
}

static int stream_id(int st)
{
    return st == ST_COMM ? SYNTH_STREAM_COMM : SYNTH_STREAM_COMPUTE;
}

/* ------------------------------------------------------------------------ */
/* Host records                                                             */
/* ------------------------------------------------------------------------ */

static void flow(struct emitter *e, char ph, const char *cat, uint64_t id, int64_t pid, int64_t tid,
                 int64_t ts)
{
    struct synth_out *o = e->o;
    ev_begin(e);
    PUT(o, "\"ph\": \"");
    synth_out_putc(o, ph);
    PUT(o, "\", \"id\": ");
    synth_out_u64(o, id);
    PUT(o, ", \"pid\": ");
    synth_out_i64(o, pid);
    PUT(o, ", \"tid\": ");
    synth_out_i64(o, tid);
    PUT(o, ", \"ts\": ");
    synth_out_us(o, ts);
    PUT(o, ",\n    \"cat\": \"");
    synth_out_puts(o, cat);
    PUT(o, "\", \"name\": \"");
    synth_out_puts(o, cat);
    if (ph == 'f')
        PUT(o, "\", \"bp\": \"e\"");
    else
        synth_out_putc(o, '"');
    ev_close(e);
}

static void emit_op(struct emitter *e, const struct sim *s, const struct rec *r)
{
    struct synth_out *o = e->o;
    int64_t pid = host_pid(s, r->th), tid = host_tid(s, r->th);
    ev_begin(e);
    if (r->type == R_ANN) {
        const char *name = ann_names[r->tmpl];
        if (r->tmpl == ANN_STEP) {
            char buf[48];
            char *p = synth_fmt_u64(buf + sizeof(buf), (uint64_t)r->bytes);
            size_t n = strlen(name);
            p -= n;
            memcpy(p, name, n);
            X_HEAD(e, "user_annotation", p, (size_t)(buf + sizeof(buf) - p), pid, tid, r->ts,
                   r->dur);
        } else {
            X_HEAD(e, "user_annotation", name, strlen(name), pid, tid, r->ts, r->dur);
        }
        e->st->by_kind[EVK_ANNOTATION]++;
        PUT(o, "\"External id\": ");
        synth_out_u64(o, r->ext);
        PUT(o, ",\"Record function id\": 0, ");
    } else {
        const struct sop *op = &e->m->ops.v[r->tmpl];
        X_HEAD(e, "cpu_op", op->name, strlen(op->name), pid, tid, r->ts, r->dur);
        e->st->by_kind[EVK_CPU_OP]++;
        PUT(o, "\"External id\": ");
        synth_out_u64(o, r->ext);
        if (r->seq >= 0) {
            PUT(o, ",\"Sequence number\": ");
            synth_out_i64(o, r->seq);
            if (r->flags & RF_BACKWARD)
                PUT(o, ", \"Fwd thread id\": 1, \"Record function id\": 0, ");
            else
                PUT(o, ", \"Fwd thread id\": 0, \"Record function id\": 0, ");
        } else {
            PUT(o, ",\"Record function id\": 0, ");
        }
        if (op->args_len) {
            synth_out_put(o, op->args, op->args_len);
            PUT(o, ", ");
        }
    }
    ev_idx(e);
    args_end(e);
    ev_close(e);
    if (r->flow) {
        if (r->flags & RF_BACKWARD) {
            flow(e, 'f', "fwdbwd", r->flow, pid, tid, r->ts + r->dur / 8);
            e->st->fwdbwd_f++;
            e->st->bwd_ops++;
        } else {
            flow(e, 's', "fwdbwd", r->flow, pid, tid, r->ts);
            e->st->fwdbwd_s++;
            e->st->fwd_ops++;
        }
    }
}

static void emit_mem(struct emitter *e, const struct sim *s, const struct rec *r)
{
    struct synth_out *o = e->o;
    ev_begin(e);
    PUT(o, "\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\",\n"
           "    \"pid\": ");
    synth_out_i64(o, host_pid(s, r->th));
    PUT(o, ", \"tid\": ");
    synth_out_i64(o, host_tid(s, r->th));
    PUT(o, ",\n    \"ts\": ");
    synth_out_us(o, r->ts);
    PUT(o, ",\n    \"args\": {\n      \"Total Reserved\": ");
    synth_out_u64(o, r->reserved);
    PUT(o, ", \"Total Allocated\": ");
    synth_out_u64(o, r->total);
    PUT(o, ", \"Bytes\": ");
    synth_out_i64(o, r->bytes);
    PUT(o, ", \"Addr\": ");
    synth_out_u64(o, r->id);
    PUT(o, ", \"Device Id\": 0, \"Device Type\": 1, ");
    ev_idx(e);
    args_end(e);
    ev_close(e);
    e->st->by_kind[EVK_INSTANT]++;
    e->st->memory_events++;
}

/* A Python frame; `parent` 0 writes null. */
static void emit_py_frame(struct emitter *e, int64_t pid, int64_t tid, const char *name,
                          size_t name_len, int64_t ts, int64_t dur, uint64_t id, uint64_t parent,
                          int module_inst)
{
    struct synth_out *o = e->o;
    ev_begin(e);
    X_HEAD(e, "python_function", name, name_len, pid, tid, ts, dur);
    PUT(o, "\"Python parent id\": ");
    if (parent)
        synth_out_u64(o, parent);
    else
        PUT(o, "null");
    PUT(o, ", \"Python id\": ");
    synth_out_u64(o, id);
    if (module_inst >= 0) {
        PUT(o, ", \"Python module id\": ");
        synth_out_u64(o, (uint64_t)module_inst);
    }
    PUT(o, ", ");
    ev_idx(e);
    args_end(e);
    ev_close(e);
    e->st->by_kind[EVK_PYTHON]++;
    e->st->python_frames++;
}

static void emit_py(struct emitter *e, const struct sim *s, const struct rec *r)
{
    int64_t pid = host_pid(s, r->th), tid = host_tid(s, r->th);
    if (r->flags & RF_MODULE) {
        char buf[96];
        const char *cls = synth_module_names[r->tmpl];
        char *p = synth_fmt_u64(buf + sizeof(buf), r->inst);
        *--p = '_';
        size_t n = strlen(cls);
        p -= n;
        memcpy(p, cls, n);
        p -= 11;
        memcpy(p, "nn.Module: ", 11);
        emit_py_frame(e, pid, tid, p, (size_t)(buf + sizeof(buf) - p), r->ts, r->dur, r->id,
                      r->parent, r->inst);
        e->st->module_frames++;
    } else {
        const char *name = synth_py_names[r->tmpl];
        emit_py_frame(e, pid, tid, name, strlen(name), r->ts, r->dur, r->id, r->parent, -1);
    }
    if (r->tmpl == PY_HOOK && !(r->flags & RF_MODULE))
        e->st->py_cross_thread++;
}

/* ------------------------------------------------------------------------ */
/* Launches and GPU work                                                    */
/* ------------------------------------------------------------------------ */

static void emit_gpu(struct emitter *e, const struct rec *r)
{
    struct synth_out *o = e->o;
    const struct skern *k = &e->m->kerns.v[r->tmpl];
    int stream = stream_id(r->th);
    ev_begin(e);
    switch (k->kind) {
    case SK_MEMCPY:
        X_HEAD(e, "gpu_memcpy", k->name, strlen(k->name), 0, stream, r->ts, r->dur);
        e->st->by_kind[EVK_MEMCPY]++;
        e->st->memcpys++;
        break;
    case SK_MEMSET:
        X_HEAD(e, "gpu_memset", k->name, strlen(k->name), 0, stream, r->ts, r->dur);
        e->st->by_kind[EVK_MEMSET]++;
        e->st->memsets++;
        break;
    default:
        X_HEAD(e, "kernel", k->name, strlen(k->name), 0, stream, r->ts, r->dur);
        e->st->by_kind[EVK_KERNEL]++;
        e->st->kernels++;
        e->st->comm_kernels += k->comm;
        e->st->mangled_kernels += k->mangled;
        if (r->flags & RF_GRAPH)
            e->st->graph_kernels++;
        break;
    }
    if (r->ext) {
        PUT(o, "\"External id\": ");
        synth_out_u64(o, r->ext);
        PUT(o, ",      ");
    }
    if (k->kind == SK_KERNEL)
        PUT(o, "\"queued\": 0, ");
    PUT(o, "\"device\": 0, \"context\": 1,      \"stream\": ");
    synth_out_u64(o, (uint64_t)stream);
    PUT(o, ", \"correlation\": ");
    synth_out_u64(o, r->id);
    if (k->kind == SK_KERNEL) {
        PUT(o, ",      ");
        synth_out_put(o, k->args, k->args_len);
    } else {
        PUT(o, ",      \"bytes\": ");
        synth_out_u64(o, (uint64_t)k->bytes);
        PUT(o, ", \"memory bandwidth (GB/s)\": ");
        /* bytes per ns is GB/s */
        synth_out_fixed(o, (uint64_t)k->bytes * 1000000 / (uint64_t)MAX(r->dur, 1), 6);
    }
    args_end(e);
    ev_close(e);
    if (r->flags & RF_UNLINKED) {
        e->st->unlinked++;
    } else {
        e->st->linked++;
        flow(e, 'f', "ac2g", r->id, 0, stream, r->ts);
        e->st->ac2g_f++;
    }
}

static void emit_rt(struct emitter *e, const struct sim *s, const struct rec *r)
{
    struct synth_out *o = e->o;
    const struct rt_info *api = &synth_rt[r->tmpl];
    int64_t pid = host_pid(s, r->th), tid = host_tid(s, r->th);
    ev_begin(e);
    if (api->driver) {
        X_HEAD(e, "cuda_driver", api->name, strlen(api->name), pid, tid, r->ts, r->dur);
        e->st->by_kind[EVK_DRIVER]++;
        e->st->driver_launches++;
    } else {
        X_HEAD(e, "cuda_runtime", api->name, strlen(api->name), pid, tid, r->ts, r->dur);
        e->st->by_kind[EVK_RUNTIME]++;
        e->st->runtime_calls++;
    }
    if (r->ext) {
        PUT(o, "\"External id\": ");
        synth_out_u64(o, r->ext);
        PUT(o, ",      ");
    }
    PUT(o, "\"cbid\": ");
    synth_out_u64(o, api->cbid);
    PUT(o, ", \"correlation\": ");
    synth_out_u64(o, r->id);
    args_end(e);
    ev_close(e);
    if (r->tmpl == RT_GRAPH_LAUNCH)
        e->st->graph_launches++;
    flow(e, 's', "ac2g", r->id, pid, tid, r->ts);
    e->st->ac2g_s++;
}

/* A stream sync as CUPTI records it (cuda_sync): the GPU side of the
 * cudaStreamSynchronize of the same correlation. */
static void emit_sync(struct emitter *e, const struct rec *r)
{
    struct synth_out *o = e->o;
    int stream = stream_id(r->th);
    ev_begin(e);
    X_HEAD(e, "cuda_sync", "Stream Sync", 11, 0, stream, r->ts, r->dur);
    e->st->by_kind[EVK_DEVICE_OTHER]++;
    if (r->ext) {
        PUT(o, "\"External id\": ");
        synth_out_u64(o, r->ext);
        PUT(o, ",      ");
    }
    PUT(o, "\"cuda_sync_kind\": \"Stream Sync\", \"stream\": ");
    synth_out_u64(o, (uint64_t)stream);
    PUT(o, ", \"correlation\": ");
    synth_out_u64(o, r->id);
    PUT(o, ", \"device\": 0, \"context\": 1");
    args_end(e);
    ev_close(e);
}

/* ------------------------------------------------------------------------ */
/* Steps                                                                    */
/* ------------------------------------------------------------------------ */

void synth_emit_step(struct emitter *e, const struct sim *s)
{
    const struct rec *v = s->r.v;
    size_t n = s->r.n;
    for (size_t i = 0; i < n; i++)
        if (v[i].type == R_OP || v[i].type == R_ANN)
            emit_op(e, s, &v[i]);
    for (size_t i = 0; i < n; i++)
        if (v[i].type == R_MEM)
            emit_mem(e, s, &v[i]);
    for (size_t i = 0; i < n; i++)
        if (v[i].type == R_PY)
            emit_py(e, s, &v[i]);
    for (size_t i = 0; i < n; i++) {
        if (v[i].type == R_RT) {
            emit_rt(e, s, &v[i]);
            for (uint32_t k = 1; k <= v[i].ngpu; k++)
                emit_gpu(e, &v[i + k]);
            i += v[i].ngpu;
        } else if (v[i].type == R_GPU) {
            emit_gpu(e, &v[i]);
        } else if (v[i].type == R_SYNC) {
            emit_sync(e, &v[i]);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Header and trailer                                                       */
/* ------------------------------------------------------------------------ */

void synth_emit_header(struct emitter *e, uint64_t seed)
{
    struct synth_out *o = e->o;
    PUT(o, "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
    for (int d = 0; d < 2; d++) {
        if (d)
            synth_out_putc(o, ',');
        PUT(o, "\n    {\n      \"id\": ");
        synth_out_u64(o, (uint64_t)d);
        PUT(o, ", \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85018279936,\n"
               "      \"computeMajor\": 9, \"computeMinor\": 0,\n"
               "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
               "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
               "      \"sharedMemPerBlock\": 49152, \"numSms\": 132\n"
               "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 232448, "
               "\"sharedMemPerMultiprocessor\": 233472\n    }");
    }
    PUT(o, "\n  ],\n  \"cupti_version\": 24,\n  \"cuda_runtime_version\": 12040,\n"
           "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 2, "
           "\"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
           "\"backend_config\": \"cuda:nccl\", \"pg_size\": 2, \"ranks\": [0, 1]}], "
           "\"nccl_version\": \"2.21.5\"},\n"
           "  \"record_shapes\": 1,\n  \"cuda_driver_version\": 12080,\n"
           "  \"profile_memory\": 1,\n  \"with_stack\": 1,\n  \"with_modules\": 1,\n"
           "  \"trace_id\": \"");
    struct synth_rng r;
    synth_rng_seed(&r, seed ^ 0x7472616365ULL);
    static const char hex[] = "0123456789ABCDEF";
    for (int i = 0; i < 32; i++)
        synth_out_putc(o, hex[synth_rng_below(&r, 16)]);
    PUT(o, "\",\n  \"traceEvents\": [");
}

static void meta(struct emitter *e, const char *what, int64_t ts, const char *pid_text, int64_t pid,
                 int64_t tid, const char *key, const char *sval, int64_t ival, bool dup)
{
    struct synth_out *o = e->o;
    ev_begin(e);
    PUT(o, "\"name\": \"");
    synth_out_puts(o, what);
    PUT(o, "\", \"ph\": \"M\", \"ts\": ");
    synth_out_us(o, ts);
    PUT(o, ", \"pid\": ");
    if (pid_text) {
        synth_out_putc(o, '"');
        synth_out_puts(o, pid_text);
        synth_out_putc(o, '"');
    } else {
        synth_out_i64(o, pid);
    }
    PUT(o, ", \"tid\": ");
    synth_out_i64(o, tid);
    PUT(o, ",\n    \"args\": {\n      \"");
    synth_out_puts(o, key);
    PUT(o, "\": ");
    if (sval) {
        synth_out_putc(o, '"');
        synth_out_puts(o, sval);
        synth_out_putc(o, '"');
    } else {
        synth_out_i64(o, ival);
    }
    args_end(e);
    ev_close(e);
    if (dup)
        e->st->meta_dups++;
    else
        e->st->by_kind[EVK_META]++;
}

static void thread_meta(struct emitter *e, int64_t ts, int64_t pid, int64_t tid, const char *name,
                        bool dup)
{
    meta(e, "thread_name", ts, NULL, pid, tid, "name", name, 0, dup);
    meta(e, "thread_sort_index", ts, NULL, pid, tid, "sort_index", NULL, tid, dup);
}

void synth_emit_trailer(struct emitter *e, const struct sim *s, uint64_t seed)
{
    struct synth_out *o = e->o;
    int64_t end = sim_end(s) + 40 * 1000;
    int64_t mts = s->t0 + 190 * 1000;

    /* Frames open for the whole window: a thread that started before the
     * profiler (recorded at pid 0 / tid 0) and the training script. */
    static const uint16_t boot[] = {PY_BOOT, PY_BOOT_INNER, PY_TQDM_RUN, PY_WAIT, PY_WAIT_INNER};
    for (size_t i = 0; i < ARRAY_SIZE(boot); i++) {
        const char *name = synth_py_names[boot[i]];
        int64_t ts = s->boot_ts + (int64_t)i * 1500;
        emit_py_frame(e, 0, 0, name, strlen(name), ts, end - 1000 * (int64_t)i - ts, PYID_BOOT + i,
                      i ? PYID_BOOT + i - 1 : 0, -1);
    }
    const char *script = synth_py_names[PY_SCRIPT], *mainf = synth_py_names[PY_MAIN];
    emit_py_frame(e, s->pid, s->pid, script, strlen(script), s->script_ts, end - 500 - s->script_ts,
                  PYID_SCRIPT, 0, -1);
    emit_py_frame(e, s->pid, s->pid, mainf, strlen(mainf), s->script_ts + 1300,
                  end - 1600 - s->script_ts - 1300, PYID_MAIN, PYID_SCRIPT, -1);

    for (size_t i = 0; i < s->spans.n; i++) {
        const struct step_span *sp = &s->spans.v[i];
        char buf[48];
        char *p = synth_fmt_u64(buf + sizeof(buf), sp->step);
        p -= 13;
        memcpy(p, "ProfilerStep#", 13);
        ev_begin(e);
        X_HEAD(e, "gpu_user_annotation", p, (size_t)(buf + sizeof(buf) - p), 0,
               SYNTH_STREAM_COMPUTE, sp->ts, sp->dur);
        PUT(o, "\"External id\": ");
        synth_out_u64(o, sp->ext);
        args_end(e);
        ev_close(e);
        e->st->by_kind[EVK_GPU_ANNOTATION]++;
    }

    char buf[64];
    meta(e, "process_name", mts, NULL, s->pid, 0, "name", "python3", 0, false);
    meta(e, "process_labels", mts, NULL, s->pid, 0, "labels", "CPU", 0, false);
    meta(e, "process_sort_index", mts, NULL, s->pid, 0, "sort_index", NULL, s->pid, false);
    for (int d = 0; d < VISIBLE_GPUS; d++) {
        snprintf(buf, sizeof(buf), "GPU %d", d);
        meta(e, "process_name", mts, NULL, d, 0, "name", "python3", 0, false);
        meta(e, "process_labels", mts, NULL, d, 0, "labels", buf, 0, false);
        meta(e, "process_sort_index", mts, NULL, d, 0, "sort_index", NULL, GPU_SORT_BASE + d,
             false);
    }
    thread_meta(e, mts, 0, 0, "thread 0 (python3)", false);
    thread_meta(e, mts, 0, SYNTH_STREAM_COMPUTE, "stream 7 ", false);
    thread_meta(e, mts, 0, SYNTH_STREAM_COMM, "stream 24 ", false);
    snprintf(buf, sizeof(buf), "thread %lld (python3)", (long long)s->pid);
    thread_meta(e, mts, s->pid, s->pid, buf, false);
    char ag[64];
    snprintf(ag, sizeof(ag), "thread %lld (pt_autograd_0)", (long long)s->tid_autograd);
    thread_meta(e, mts, s->pid, s->tid_autograd, ag, false);
    /* Kineto repeats the main thread's records verbatim. */
    thread_meta(e, mts, s->pid, s->pid, buf, true);

    ev_begin(e);
    PUT(o, "\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
    synth_out_us(o, s->t0);
    PUT(o, ", \"dur\": ");
    synth_out_us(o, end - s->t0);
    PUT(o, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
           "    \"name\": \"PyTorch Profiler (0)\",\n    \"args\": {\n      \"Op count\": 0");
    args_end(e);
    ev_close(e);
    e->st->by_kind[EVK_SPAN]++;
    meta(e, "process_sort_index", s->t0, "Spans", 0, 0, "sort_index", NULL, TRACE_SPAN_SORT, false);

    ev_begin(e);
    PUT(o, "\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
           "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
    synth_out_us(o, s->t0);
    ev_close(e);
    ev_begin(e);
    PUT(o, "\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
           "    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
    synth_out_us(o, end + 8 * 1000 * 1000);
    ev_close(e);
    e->st->by_kind[EVK_INSTANT] += 2;

    PUT(o, "\n  ],\n  \"traceName\": \"/tmp/torchtop-synth-");
    synth_out_u64(o, seed);
    PUT(o, ".pt.trace.json\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": ");
    synth_out_i64(o, BASE_TIME_NS);
    PUT(o, "\n}\n");
    e->st->base_ns = BASE_TIME_NS;
}
