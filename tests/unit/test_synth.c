/* The synthetic trace generator: what it writes loads without error, holds
 * what its counts say, and links the way real Kineto traces do. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <libiberty/demangle.h>

#include "core/trace/argpack.h"
#include "core/trace/load.h"
#include "core/synth/synth.h"
#include "core/trace/trace.h"
#include "core/trace/tree.h"
#include "tests/unit/testutil.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

struct gen {
    char *buf;
    size_t len;
    struct synth_stats st;
    struct trace *t;
};

static void gen_load(struct gen *g, const struct synth_opts *o)
{
    memset(g, 0, sizeof(*g));
    g->buf = synth_to_memory(o, &g->len, &g->st);
    assert_true(g->len > 0);
    struct errinfo err = {0};
    struct load_opts lo = {.threads = 2};
    enum status st = trace_load_mem("synth.json", g->buf, g->len, &lo, &g->t, &err);
    if (st != ST_OK) {
        char *m = errinfo_format(&err);
        print_error("load failed: %s\n", m);
        free(m);
    }
    assert_int_equal(st, ST_OK);
    assert_false(g->t->truncated);
    errinfo_clear(&err);
    /* The loaded trace does not refer to the text (the demo is loaded this way). */
    memset(g->buf, ' ', g->len);
    free(g->buf);
    g->buf = NULL;
}

static void gen_free(struct gen *g)
{
    trace_free(g->t);
    free(g->buf);
}

static bool has(const char *s, const char *needle)
{
    return strstr(s, needle) != NULL;
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const struct row *ev_row(const struct trace *t, uint32_t i)
{
    return &t->rows.v[t->ev.v[i].row];
}

/* The configurations every structural test runs on. */
static const struct synth_opts configs[] = {
    {.seed = 1},
    {.seed = 2, .conv = true},
    {.seed = 7, .layers = 1, .steps = 1},
    {.seed = 42, .layers = 3, .steps = 2, .conv = true},
    {.seed = 9, .target_events = 6000},
};

/* ------------------------------------------------------------------------ */
/* Counts                                                                   */
/* ------------------------------------------------------------------------ */

static void t_counts(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_SIZE(configs); c++) {
        struct gen g;
        gen_load(&g, &configs[c]);
        const struct trace *t = g.t;
        const struct synth_stats *st = &g.st;
        uint64_t sum = 0;
        for (int k = 0; k < EVK__COUNT; k++) {
            if (t->n_by_kind[k] != st->by_kind[k])
                fail_msg("config %zu: %s: loaded %llu, generator says %llu", c, ev_kind_name(k),
                         (unsigned long long)t->n_by_kind[k], (unsigned long long)st->by_kind[k]);
            sum += st->by_kind[k];
        }
        assert_int_equal(t->ev.n, sum);
        assert_int_equal(t->n_meta_dups, st->meta_dups);
        assert_int_equal(t->n_unsupported, 0);
        assert_int_equal(st->events, t->ev.n + t->flows.n + st->meta_dups);
        assert_int_equal(st->json_bytes, g.len);
        assert_int_equal(st->out_bytes, g.len);

        uint64_t s_ac2g = 0, f_ac2g = 0, s_fb = 0, f_fb = 0;
        for (size_t i = 0; i < t->flows.n; i++) {
            const struct flow *fl = &t->flows.v[i];
            bool ac2g = strcmp(trace_str(t, fl->cat), "ac2g") == 0;
            assert_true(ac2g || strcmp(trace_str(t, fl->cat), "fwdbwd") == 0);
            if (fl->ph == 's')
                ac2g ? s_ac2g++ : s_fb++;
            else
                ac2g ? f_ac2g++ : f_fb++;
            assert_int_equal(fl->bind_enclosing, fl->ph == 'f');
        }
        assert_int_equal(s_ac2g, st->ac2g_s);
        assert_int_equal(f_ac2g, st->ac2g_f);
        assert_int_equal(s_fb, st->fwdbwd_s);
        assert_int_equal(f_fb, st->fwdbwd_f);
        assert_int_equal(st->fwdbwd_s, st->fwdbwd_f);
        assert_int_equal(st->ac2g_s, st->runtime_calls + st->driver_launches);
        assert_int_equal(st->ac2g_f, st->linked);

        assert_int_equal(st->kernels, t->n_by_kind[EVK_KERNEL]);
        assert_int_equal(st->memcpys, t->n_by_kind[EVK_MEMCPY]);
        assert_int_equal(st->memsets, t->n_by_kind[EVK_MEMSET]);
        assert_int_equal(st->python_frames, t->n_by_kind[EVK_PYTHON]);
        assert_int_equal(st->memory_events + 2, t->n_by_kind[EVK_INSTANT]);
        assert_int_equal(t->n_gpu, st->kernels + st->memcpys + st->memsets);
        assert_int_equal(t->n_unlinked, st->unlinked);
        assert_int_equal(st->unlinked, 3);
        assert_true(st->graph_launches == st->steps && st->graph_kernels == 4 * st->steps);
        assert_int_equal(st->comm_kernels, (uint64_t)st->steps * (st->layers + 1));
        assert_true(st->mangled_kernels > 0 && st->driver_launches > 0);
        assert_true(st->memcpys == 3 * st->steps && st->memsets == st->steps);

        /* Each kind the brief promises is present. */
        const char *needles[] = {"aten::linear",
                                 "aten::addmm",
                                 "aten::mm",
                                 "aten::bmm",
                                 "aten::_scaled_dot_product_flash_attention",
                                 "aten::_flash_attention_forward",
                                 "aten::layer_norm",
                                 "aten::native_layer_norm",
                                 "aten::add",
                                 "aten::mul",
                                 "aten::gelu",
                                 "aten::copy_",
                                 "aten::softmax",
                                 "record_param_comms",
                                 "cudaLaunchKernel",
                                 "cuLaunchKernel",
                                 "cudaGraphLaunch",
                                 "cudaMemcpyAsync",
                                 "cudaMemsetAsync"};
        bool one_layer = st->layers == 1; /* one layer has no LocalAttention */
        for (size_t k = 0; k < ARRAY_SIZE(needles); k++) {
            bool found = strtab_find(&t->strs, needles[k], strlen(needles[k])) != IDX_NONE;
            if (!found && !(one_layer && (strcmp(needles[k], "aten::bmm") == 0 ||
                                          strcmp(needles[k], "aten::mul") == 0 ||
                                          strcmp(needles[k], "aten::softmax") == 0)))
                fail_msg("config %zu: no %s", c, needles[k]);
        }
        if (configs[c].conv)
            assert_int_not_equal(strtab_find(&t->strs, "aten::cudnn_convolution", 23), IDX_NONE);
        gen_free(&g);
    }
}

/* ------------------------------------------------------------------------ */
/* GPU links and launchers                                                  */
/* ------------------------------------------------------------------------ */

/* Kernel name pattern -> the op that launched it (first match wins). */
static const struct {
    const char *pattern;
    bool prefix;
    const char *launcher;
} launchers[] = {
    {"Memcpy HtoD", true, "aten::copy_"},
    {"Memcpy DtoH", true, "aten::_local_scalar_dense"},
    {"Memset", true, "aten::zero_"},
    {"ncclDevKernel_AllReduce", true, "record_param_comms"},
    {"flash_fwd_kernel", false, "aten::_flash_attention_forward"},
    {"flash_bwd", false, "aten::_flash_attention_backward"},
    {"vectorized_layer_norm_kernel", false, "aten::native_layer_norm"},
    {"layer_norm_grad_input", false, "aten::native_layer_norm_backward"},
    {"GammaBetaBackward", false, "aten::native_layer_norm_backward"},
    {"_ZN2at6native12_GLOBAL__N_125multi_tensor_apply_kernelINS1_18TensorListMetadataILi4EEENS1_"
     "20FusedAdam",
     true, "aten::_fused_adamw_"},
    {"_ZN2at6native13reduce_kernel", true, "aten::sum"},
    {"GeluBackward", false, "aten::gelu_backward"},
    {"GeluCUDAKernelImpl", false, "aten::gelu"},
    {"CUDAFunctor_add", false, "aten::add"},
    {"FillFunctor<float>", false, "aten::fill_"},
    {"MulFunctor", false, "aten::mul"},
    {"direct_copy_kernel_cuda", false, "aten::copy_"},
    {"indexSelectLargeIndex", false, "aten::index_select"},
    {"embedding_backward_feature_kernel", false, "aten::embedding_dense_backward"},
    {"LogSoftMaxForward", false, "aten::_log_softmax"},
    {"LogSoftMaxBackward", false, "aten::_log_softmax_backward_data"},
    {"softmax_warp_forward", false, "aten::_softmax"},
    {"SoftMaxForwardSmem", false, "aten::_softmax"},
    {"softmax_warp_backward", false, "aten::_softmax_backward_data"},
    {"SoftMaxBackwardSmem", false, "aten::_softmax_backward_data"},
    {"nll_loss_forward", false, "aten::nll_loss_forward"},
    {"nll_loss_backward", false, "aten::nll_loss_backward"},
    {"fprop_implicit_gemm", false, "aten::cudnn_convolution"},
    {"wgrad_implicit_gemm", false, "aten::convolution_backward"},
    {"bn_fw_tr", false, "aten::cudnn_batch_norm"},
    {"bn_bw_", false, "aten::cudnn_batch_norm_backward"},
    {"launch_clamp_scalar", false, "aten::clamp_min_"},
    {"threshold_kernel_impl", false, "aten::threshold_backward"},
};

static bool is_gemm(const char *name)
{
    return starts(name, "sm90_xmma_gemm") || starts(name, "void cutlass::Kernel2");
}

static void t_links(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_SIZE(configs); c++) {
        struct gen g;
        gen_load(&g, &configs[c]);
        const struct trace *t = g.t;
        uint64_t unlinked = 0, graph = 0, linked = 0;
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct event *e = trace_ev(t, i);
            if (!evk_is_gpu(e->kind))
                continue;
            const struct gpu_info *gi = ev_gpu(t, i);
            const char *name = ev_name(t, i);
            const struct row *row = ev_row(t, i);
            assert_int_equal(row->cls, ROW_DEVICE);
            assert_int_equal(gi->device, 0);
            assert_true(gi->stream == 7 || gi->stream == 24);
            assert_int_equal(gi->stream == 24, gpuclass_name_is_comm(name));
            assert_true(e->dur > 0);
            if (gi->launch == IDX_NONE) {
                unlinked++;
                assert_false(e->flags & EVF_LINKED);
                continue;
            }
            linked++;
            const struct launch_info *li = ev_launch(t, gi->launch);
            assert_non_null(li);
            assert_int_equal(li->corr, gi->corr);
            assert_true(e->ts >= trace_ev(t, gi->launch)->ts);
            assert_true(e->flags & EVF_LINKED);
            const char *launch_name = ev_name(t, gi->launch);
            if (e->flags & EVF_GRAPH) {
                graph++;
                assert_string_equal(launch_name, "cudaGraphLaunch");
                assert_int_equal(gi->launcher, gi->launch);
                assert_int_equal(li->gpu_count, 4);
                continue;
            }
            assert_int_equal(li->gpu_count, 1);
            assert_int_not_equal(gi->launcher, IDX_NONE);
            assert_int_equal(trace_ev(t, gi->launcher)->kind, EVK_CPU_OP);
            /* External id: the innermost op or annotation around the launch. */
            uint32_t around = trace_ev(t, gi->launch)->parent;
            assert_int_not_equal(around, IDX_NONE);
            struct argval ext;
            assert_true(argpack_find(t, around, "External id", &ext));
            assert_int_equal(gi->ext_id, ext.v.i);
            const char *op = ev_name(t, gi->launcher);
            if (is_gemm(name)) {
                if (strcmp(op, "aten::addmm") && strcmp(op, "aten::mm") && strcmp(op, "aten::bmm"))
                    fail_msg("GEMM %s launched by %s", name, op);
                assert_string_equal(launch_name,
                                    starts(name, "sm90") ? "cuLaunchKernel" : "cudaLaunchKernel");
                continue;
            }
            size_t k = 0;
            for (; k < ARRAY_SIZE(launchers); k++)
                if (launchers[k].prefix ? starts(name, launchers[k].pattern)
                                        : has(name, launchers[k].pattern))
                    break;
            if (k == ARRAY_SIZE(launchers))
                fail_msg("unexpected kernel %s", name);
            if (strcmp(op, launchers[k].launcher) != 0)
                fail_msg("%s launched by %s, expected %s", name, op, launchers[k].launcher);
        }
        assert_int_equal(unlinked, g.st.unlinked);
        assert_int_equal(linked, g.st.linked);
        assert_int_equal(graph, g.st.graph_kernels);
        gen_free(&g);
    }
}

/* Mangled names are valid Itanium symbols. */
static void t_mangled(void **state)
{
    (void)state;
    struct gen g;
    gen_load(&g, &(struct synth_opts){.seed = 3});
    uint64_t n = 0;
    for (uint32_t i = 0; i < g.t->ev.n; i++) {
        const char *name = ev_name(g.t, i);
        if (g.t->ev.v[i].kind != EVK_KERNEL || !starts(name, "_Z"))
            continue;
        char *d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
        if (!d)
            fail_msg("%s does not demangle", name);
        assert_true(has(d, "at::native::"));
        free(d);
        n++;
    }
    assert_int_equal(n, g.st.mangled_kernels);
    gen_free(&g);
}

/* ------------------------------------------------------------------------ */
/* Python frames                                                            */
/* ------------------------------------------------------------------------ */

/* A frame's id arg ("Python id", "Python parent id"), UINT64_MAX when it
 * has none or it is null. */
static uint64_t py_arg_id(const struct trace *t, uint32_t ev, const char *key)
{
    struct argval a;
    uint64_t id;
    return argpack_find(t, ev, key, &a) && argpack_val_id(t, &a, &id) ? id : UINT64_MAX;
}

static void t_python(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_SIZE(configs); c++) {
        struct gen g;
        gen_load(&g, &configs[c]);
        const struct trace *t = g.t;
        uint64_t modules = 0, cross = 0, roots = 0, frames = 0;
        bool boot_root = false;
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct event *e = trace_ev(t, i);
            if (e->kind != EVK_PYTHON)
                continue;
            frames++;
            uint32_t py_parent = ev_py_parent(t, i);
            assert_true(py_arg_id(t, i, "Python id") != UINT64_MAX);
            if (e->flags & EVF_MODULE)
                modules++;
            if (py_arg_id(t, i, "Python parent id") == UINT64_MAX) {
                roots++;
                assert_int_equal(py_parent, IDX_NONE);
                if (strcmp(ev_name(t, i), "threading.py(1032): _bootstrap") == 0) {
                    assert_true(ev_row(t, i)->pid == 0 && ev_row(t, i)->tid == 0);
                    boot_root = true;
                }
                continue;
            }
            assert_int_not_equal(py_parent, IDX_NONE);
            const struct event *pe = trace_ev(t, py_parent);
            assert_int_equal(pe->kind, EVK_PYTHON);
            assert_int_equal(py_arg_id(t, py_parent, "Python id"),
                             py_arg_id(t, i, "Python parent id"));
            assert_true(pe->ts <= e->ts && ev_end(e) <= ev_end(pe));
            if (pe->row != e->row) {
                cross++;
                assert_string_equal(ev_name(t, py_parent),
                                    "<built-in method run_backward of torch._C._EngineBase "
                                    "object at 0x7f3c1a2b9e40>");
            }
        }
        assert_int_equal(frames, g.st.python_frames);
        assert_int_equal(modules, g.st.module_frames);
        assert_int_equal(cross, g.st.py_cross_thread);
        assert_int_equal(cross, (uint64_t)g.st.steps * (g.st.layers + 1));
        assert_int_equal(roots, 2);
        assert_true(boot_root);
        gen_free(&g);
    }
}

/* ------------------------------------------------------------------------ */
/* Forward / backward                                                       */
/* ------------------------------------------------------------------------ */

static const struct {
    const char *bwd, *fwd;
} fwd_of[] = {
    {"AddmmBackward0", "aten::addmm"},
    {"MmBackward0", "aten::mm"},
    {"NativeLayerNormBackward0", "aten::native_layer_norm"},
    {"AddBackward0", "aten::add"},
    {"GeluBackward0", "aten::gelu"},
    {"ScaledDotProductFlashAttentionBackward0", "aten::_scaled_dot_product_flash_attention"},
    {"BmmBackward0", "aten::bmm"},
    {"SoftmaxBackward0", "aten::_softmax"},
    {"MulBackward0", "aten::mul"},
    {"EmbeddingBackward0", "aten::embedding"},
    {"LogSoftmaxBackward0", "aten::_log_softmax"},
    {"NllLossBackward0", "aten::nll_loss_forward"},
    {"ConvolutionBackward0", "aten::convolution"},
    {"CudnnBatchNormBackward0", "aten::cudnn_batch_norm"},
    {"ReluBackward0", "aten::relu_"},
};

static void t_fwd_bwd(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_SIZE(configs); c++) {
        struct gen g;
        gen_load(&g, &configs[c]);
        const struct trace *t = g.t;
        uint64_t paired = 0;
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct event *e = trace_ev(t, i);
            if (!(e->flags & EVF_BACKWARD))
                continue;
            const struct op_info *o = ev_op(t, i);
            const char *node = ev_name(t, i) + strlen("autograd::engine::evaluate_function: ");
            if (o->seq < 0) {
                assert_string_equal(node, "torch::autograd::AccumulateGrad");
                continue;
            }
            struct argval fwd;
            assert_true(argpack_find(t, i, "Fwd thread id", &fwd));
            assert_int_equal(fwd.v.i, 1);
            assert_int_not_equal(o->partner, IDX_NONE);
            const struct op_info *f = ev_op(t, o->partner);
            assert_int_equal(f->seq, o->seq);
            assert_int_equal(f->partner, i);
            assert_true(argpack_find(t, o->partner, "Fwd thread id", &fwd));
            assert_int_equal(fwd.v.i, 0);
            assert_int_not_equal(trace_ev(t, o->partner)->row, e->row);
            assert_true(trace_ev(t, o->partner)->ts < e->ts);
            size_t k = 0;
            while (k < ARRAY_SIZE(fwd_of) && strcmp(fwd_of[k].bwd, node) != 0)
                k++;
            if (k == ARRAY_SIZE(fwd_of))
                fail_msg("unexpected backward op %s", node);
            assert_string_equal(ev_name(t, o->partner), fwd_of[k].fwd);
            paired++;
        }
        assert_int_equal(paired, g.st.bwd_ops);
        assert_int_equal(paired, g.st.fwd_ops);

        /* fwdbwd flows: s at the forward op, f inside the backward op. */
        for (size_t a = 0; a < t->flows.n; a++) {
            const struct flow *s = &t->flows.v[a];
            if (s->ph != 's' || strcmp(trace_str(t, s->cat), "fwdbwd") != 0)
                continue;
            size_t b = 0;
            for (; b < t->flows.n; b++) {
                const struct flow *f = &t->flows.v[b];
                if (f->ph == 'f' && f->id == s->id && f->cat == s->cat)
                    break;
            }
            assert_true(b < t->flows.n);
            assert_true(t->flows.v[b].ts > s->ts);
            assert_int_not_equal(t->flows.v[b].row, s->row);
        }
        gen_free(&g);
    }
}

/* ------------------------------------------------------------------------ */
/* Timeline                                                                 */
/* ------------------------------------------------------------------------ */

struct ival {
    int64_t a, b;
    bool comm;
};

static int ival_cmp(const void *x, const void *y)
{
    const struct ival *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a;
}

static void t_timeline(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct gen g;
        gen_load(&g, &(struct synth_opts){.seed = seed, .steps = 2});
        const struct trace *t = g.t;
        struct ival *iv = calloc(t->n_gpu, sizeof(*iv));
        size_t n = 0;
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct event *e = trace_ev(t, i);
            if (!evk_is_gpu(e->kind))
                continue;
            bool comm = (e->flags & EVF_COMM) != 0;
            iv[n++] = (struct ival){e->ts, ev_end(e), comm};
        }
        qsort(iv, n, sizeof(*iv), ival_cmp);
        int64_t busy = 0, cur_a = iv[0].a, cur_b = iv[0].b;
        for (size_t k = 1; k < n; k++) {
            if (iv[k].a > cur_b) {
                busy += cur_b - cur_a;
                cur_a = iv[k].a;
            }
            cur_b = MAX(cur_b, iv[k].b);
        }
        busy += cur_b - cur_a;
        double util = (double)busy / (double)(t->gpu_end - t->gpu_start);
        if (util < 0.5 || util > 0.97)
            fail_msg("seed %llu: GPU busy %.2f of the time", (unsigned long long)seed, util);

        /* Each stream runs one activity at a time; some all-reduce runs
         * while compute kernels run on the other stream. */
        size_t overlaps = 0;
        int64_t end_by[2] = {INT64_MIN, INT64_MIN};
        for (size_t k = 0; k < n; k++) {
            assert_true(iv[k].a >= end_by[iv[k].comm]);
            end_by[iv[k].comm] = iv[k].b;
            if (!iv[k].comm && iv[k].a < end_by[1])
                overlaps++;
        }
        assert_true(overlaps > 0);
        assert_true(t->t_start < t->gpu_start && t->gpu_end < t->t_end);
        free(iv);
        gen_free(&g);
    }
}

/* ------------------------------------------------------------------------ */
/* Output forms                                                             */
/* ------------------------------------------------------------------------ */

static void t_gzip_same_events(void **state)
{
    (void)state;
    struct synth_opts o = {.seed = 11, .layers = 2, .steps = 2};
    struct gen plain, gz;
    gen_load(&plain, &o);
    o.gzip = true;
    gen_load(&gz, &o);
    assert_true(gz.t->gzip);
    assert_false(plain.t->gzip);
    assert_true(gz.st.out_bytes == gz.len && gz.len < plain.len / 4);
    assert_int_equal(gz.st.json_bytes, plain.st.json_bytes);
    assert_int_equal(gz.t->json_bytes, plain.len);
    assert_int_equal(gz.t->ev.n, plain.t->ev.n);
    assert_int_equal(gz.t->flows.n, plain.t->flows.n);
    assert_int_equal(gz.t->base_ns, plain.t->base_ns);
    assert_int_equal(plain.t->base_ns, plain.st.base_ns);
    for (uint32_t i = 0; i < plain.t->ev.n; i++) {
        const struct event *a = trace_ev(plain.t, i), *b = trace_ev(gz.t, i);
        assert_true(a->ts == b->ts && a->dur == b->dur && a->kind == b->kind);
        assert_true(a->parent == b->parent && a->flags == b->flags);
        assert_string_equal(ev_name(plain.t, i), ev_name(gz.t, i));
        assert_true(ev_row(plain.t, i)->pid == ev_row(gz.t, i)->pid);
        assert_true(ev_row(plain.t, i)->tid == ev_row(gz.t, i)->tid);
    }
    for (size_t i = 0; i < plain.t->flows.n; i++)
        assert_true(plain.t->flows.v[i].id == gz.t->flows.v[i].id &&
                    plain.t->flows.v[i].ts == gz.t->flows.v[i].ts);
    gen_free(&plain);
    gen_free(&gz);
}

static void t_determinism(void **state)
{
    (void)state;
    const struct synth_opts opts[] = {
        {.seed = 5},
        {.seed = 5, .gzip = true},
        {.seed = 5, .conv = true, .layers = 2, .steps = 1},
        {.seed = 123456789, .target_bytes = 600000},
    };
    for (size_t c = 0; c < ARRAY_SIZE(opts); c++) {
        size_t n1, n2;
        char *a = synth_to_memory(&opts[c], &n1, NULL);
        char *b = synth_to_memory(&opts[c], &n2, NULL);
        assert_int_equal(n1, n2);
        assert_memory_equal(a, b, n1);
        struct synth_opts other = opts[c];
        other.seed++;
        char *d = synth_to_memory(&other, &n2, NULL);
        assert_true(n1 != n2 || memcmp(a, d, n1) != 0);
        free(a);
        free(b);
        free(d);
    }
}

static void t_size_targets(void **state)
{
    (void)state;
    const uint64_t sizes[] = {300 * 1000, 700 * 1000, 3 * 1000 * 1000, 12 * 1000 * 1000};
    for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            struct synth_opts o = {.seed = seed * 31 + i, .target_bytes = sizes[i]};
            size_t len;
            struct synth_stats st;
            char *b = synth_to_memory(&o, &len, &st);
            double err = ((double)len - (double)sizes[i]) / (double)sizes[i];
            if (err < -0.1 || err > 0.1)
                fail_msg("target %llu bytes, wrote %zu (%u layers x %u steps)",
                         (unsigned long long)sizes[i], len, st.layers, st.steps);
            free(b);
        }
    }
    const uint64_t events[] = {2500, 9000, 40000};
    for (size_t i = 0; i < ARRAY_SIZE(events); i++) {
        struct synth_opts o = {.seed = 77 + i, .target_events = events[i], .conv = i == 1};
        size_t len;
        struct synth_stats st;
        char *b = synth_to_memory(&o, &len, &st);
        double err = ((double)st.events - (double)events[i]) / (double)events[i];
        if (err < -0.1 || err > 0.1)
            fail_msg("target %llu events, wrote %llu", (unsigned long long)events[i],
                     (unsigned long long)st.events);
        free(b);
    }
    /* Below the smallest trace: one layer, one step. */
    struct synth_opts tiny = {.seed = 3, .target_bytes = 1000};
    struct synth_plan plan;
    synth_plan(&tiny, &plan);
    assert_true(plan.layers == 1 && plan.steps == 1 && plan.data_frames == 0);

    /* With the step count fixed, the layers make up the size. */
    struct synth_opts o = {.seed = 4, .target_bytes = 4000000, .steps = 2};
    size_t len;
    struct synth_stats st;
    char *b = synth_to_memory(&o, &len, &st);
    assert_int_equal(st.steps, 2);
    assert_true(len > 3600000 && len < 4400000);
    free(b);
}

/* The whole document is strict JSON with Kineto's key order. */
static void t_strict_json(void **state)
{
    (void)state;
    size_t len;
    char *b = synth_to_memory(&(struct synth_opts){.seed = 8, .conv = true}, &len, NULL);
    cJSON *doc = cJSON_ParseWithLength(b, len);
    assert_non_null(doc);
    const char *order[] = {"schemaVersion",
                           "deviceProperties",
                           "cupti_version",
                           "cuda_runtime_version",
                           "distributedInfo",
                           "record_shapes",
                           "cuda_driver_version",
                           "profile_memory",
                           "with_stack",
                           "with_modules",
                           "trace_id",
                           "traceEvents",
                           "traceName",
                           "displayTimeUnit",
                           "baseTimeNanoseconds"};
    size_t k = 0;
    for (const cJSON *c = doc->child; c; c = c->next, k++) {
        assert_true(k < ARRAY_SIZE(order));
        assert_string_equal(c->string, order[k]);
    }
    assert_int_equal(k, ARRAY_SIZE(order));
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "deviceProperties");
    assert_int_equal(cJSON_GetArraySize(dev), 2);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(dev, 0), "name")->valuestring,
                        "NVIDIA H100 80GB HBM3");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(dev, 1), "numSms")->valueint, 132);
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");
    /* ts and dur carry three decimals */
    const cJSON *first = cJSON_GetArrayItem(ev, 0);
    assert_non_null(first);
    cJSON_Delete(doc);
    const char *p = strstr(b, "\"ts\": ");
    assert_non_null(p);
    p += 6;
    while (*p >= '0' && *p <= '9')
        p++;
    assert_true(p[0] == '.' && p[4] == ',');
    free(b);
}

static int failing_write(void *ud, const void *buf, size_t len)
{
    size_t *budget = ud;
    (void)buf;
    if (len > *budget)
        return ENOSPC;
    *budget -= len;
    return 0;
}

static void t_write_error(void **state)
{
    (void)state;
    size_t budget = 100000;
    struct errinfo err = {0};
    struct synth_stats st;
    enum status s = synth_write(&(struct synth_opts){.seed = 1}, failing_write, &budget, &st, &err);
    assert_int_equal(s, ST_IO);
    assert_int_equal(err.status, ST_IO);
    assert_non_null(err.msg);
    assert_true(has(err.msg, strerror(ENOSPC)));
    errinfo_clear(&err);
}

static void t_parse_size(void **state)
{
    (void)state;
    uint64_t v;
    assert_true(synth_parse_size("512", &v) && v == 512);
    assert_true(synth_parse_size("64k", &v) && v == 65536);
    assert_true(synth_parse_size("1.5M", &v) && v == 1572864);
    assert_true(synth_parse_size("2G", &v) && v == 2147483648ULL);
    assert_true(synth_parse_size("3MB", &v) && v == 3145728);
    assert_false(synth_parse_size("", &v));
    assert_false(synth_parse_size("0", &v));
    assert_false(synth_parse_size("-5M", &v));
    assert_false(synth_parse_size("12X", &v));
    assert_false(synth_parse_size("M", &v));
}

static void t_demo_plan(void **state)
{
    (void)state;
    struct synth_plan plan;
    synth_plan(&(struct synth_opts){.seed = 1}, &plan);
    assert_true(plan.layers == SYNTH_DEMO_LAYERS && plan.steps == SYNTH_DEMO_STEPS);
    assert_int_equal(plan.data_frames, SYNTH_DEMO_DATA_FRAMES);
    struct gen g;
    gen_load(&g, &(struct synth_opts){.seed = 1});
    assert_true(g.st.events >= 2000 && g.st.events <= 10000);
    gen_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_counts),           cmocka_unit_test(t_links),
        cmocka_unit_test(t_mangled),          cmocka_unit_test(t_python),
        cmocka_unit_test(t_fwd_bwd),          cmocka_unit_test(t_timeline),
        cmocka_unit_test(t_gzip_same_events), cmocka_unit_test(t_determinism),
        cmocka_unit_test(t_size_targets),     cmocka_unit_test(t_strict_json),
        cmocka_unit_test(t_write_error),      cmocka_unit_test(t_parse_size),
        cmocka_unit_test(t_demo_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
