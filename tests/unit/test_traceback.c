/* Combined tracebacks and folded stacks: Python frame names, small traces
 * written here (Python parent id across threads, Call stack args, Inductor
 * kernel files, folded stacks exactly), then chosen kernels of shared
 * traces with their exact frame sequences. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/symbols/folded.h"
#include "core/trace/load.h"
#include "core/symbols/traceback.h"
#include "tests/unit/testutil.h"

struct want {
    enum tb_kind kind;
    unsigned flags;
    const char *name;
    const char *file;
    int64_t line;
};

static void check_frames(const struct traceback *tb, const struct want *w, size_t n)
{
    for (size_t k = 0; k < tb->frames.n && k < n; k++) {
        const struct tb_frame *f = &tb->frames.v[k];
        bool ok = f->kind == w[k].kind && f->flags == w[k].flags &&
                  strcmp(f->name, w[k].name) == 0 && f->line == w[k].line &&
                  (f->file && w[k].file ? strcmp(f->file, w[k].file) == 0 : f->file == w[k].file);
        if (!ok)
            print_error("frame %zu: got %s %#x '%s' %s:%lld, want %s %#x '%s' %s:%lld\n", k,
                        tb_kind_name(f->kind), f->flags, f->name, f->file ? f->file : "-",
                        (long long)f->line, tb_kind_name(w[k].kind), w[k].flags, w[k].name,
                        w[k].file ? w[k].file : "-", (long long)w[k].line);
        assert_true(ok);
    }
    /* What follows a backward op's chain is its forward op's. */
    assert_true(tb->frames.n >= n);
    for (size_t k = n; k < tb->frames.n; k++)
        assert_true(tb->frames.v[k].flags & TBF_FORWARD);
}

static void test_pyframe_parse(void **state)
{
    (void)state;
    struct pyframe p;
    const char *s = "torch/nn/modules/module.py(1501): _call_impl";
    assert_true(traceback_pyframe_parse(s, strlen(s), &p));
    assert_int_equal(p.file_len, strlen("torch/nn/modules/module.py"));
    assert_memory_equal(p.file, "torch/nn/modules/module.py", p.file_len);
    assert_int_equal(p.line, 1501);
    assert_int_equal(p.func_len, strlen("_call_impl"));
    assert_memory_equal(p.func, "_call_impl", p.func_len);
    s = "<string>(1): <module>";
    assert_true(traceback_pyframe_parse(s, strlen(s), &p));
    assert_int_equal(p.file_len, 8);
    assert_int_equal(p.line, 1);
    assert_memory_equal(p.func, "<module>", 8);
    s = "/a (copy)/x.py(12): f";
    assert_true(traceback_pyframe_parse(s, strlen(s), &p));
    assert_memory_equal(p.file, "/a (copy)/x.py", p.file_len);
    assert_int_equal(p.line, 12);
    s = "<built-in method embedding of type object at 0x7499b741df60>";
    assert_false(traceback_pyframe_parse(s, strlen(s), &p));
    s = "nn.Module: Linear_0";
    assert_false(traceback_pyframe_parse(s, strlen(s), &p));
    s = "x.py(): f";
    assert_false(traceback_pyframe_parse(s, strlen(s), &p));
    assert_false(traceback_pyframe_parse("", 0, &p));
}

/* Python frames on two threads, ops, a launch and its kernel. */
static const char *const py_trace =
    "{\"traceEvents\":["
    "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"train.py(10): main\",\"pid\":1,"
    "\"tid\":1,\"ts\":0,\"dur\":100,\"args\":{\"Python id\":1,\"Python parent id\":null}},"
    "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"nn.Module: Linear_0\",\"pid\":1,"
    "\"tid\":1,\"ts\":10,\"dur\":50,\"args\":{\"Python id\":2,\"Python parent id\":1}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":1,\"tid\":1,\"ts\":12,"
    "\"dur\":40,\"args\":{\"External id\":5}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":1,\"tid\":1,\"ts\":14,"
    "\"dur\":30,\"args\":{\"External id\":6}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":20,\"dur\":10,\"args\":{\"correlation\":7,\"External id\":6}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"_Z6kernelv\",\"pid\":0,\"tid\":7,\"ts\":40,"
    "\"dur\":25,\"args\":{\"correlation\":7,\"External id\":6,\"device\":0,\"stream\":7}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"autograd::engine::evaluate_function: MulBackward0"
    "\",\"pid\":1,\"tid\":2,\"ts\":68,\"dur\":25,\"args\":{\"External id\":8}},"
    "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"hooks.py(5): hook\",\"pid\":1,"
    "\"tid\":2,\"ts\":70,\"dur\":20,\"args\":{\"Python id\":3,\"Python parent id\":2}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mul\",\"pid\":1,\"tid\":2,\"ts\":72,"
    "\"dur\":10,\"args\":{\"External id\":9}}"
    "]}";

static void test_python_frames(void **state)
{
    (void)state;
    struct trace *t = load_text(py_trace);
    struct traceback tb;
    traceback_init(&tb);
    traceback_of_event(&tb, t, find_event(t, "_Z6kernelv"));
    static const struct want kernel[] = {
        {TB_KERNEL, 0, "kernel()", NULL, 0},
        {TB_RUNTIME, 0, "cudaLaunchKernel", NULL, 0},
        {TB_OP, 0, "aten::addmm", NULL, 0},
        {TB_OP, 0, "aten::linear", NULL, 0},
        {TB_PYTHON, TBF_MODULE, "nn.Module: Linear_0", NULL, 0},
        {TB_PYTHON, 0, "main", "train.py", 10},
    };
    check_frames(&tb, kernel, ARRAY_SIZE(kernel));
    assert_string_equal(tb.frames.v[0].text, "_Z6kernelv");
    assert_string_equal(tb.frames.v[5].text, "train.py(10): main");
    /* A hook on another thread: its own thread's op, then its Python parent. */
    traceback_of_event(&tb, t, find_event(t, "aten::mul"));
    static const struct want mul[] = {
        {TB_OP, 0, "aten::mul", NULL, 0},
        {TB_PYTHON, 0, "hook", "hooks.py", 5},
        {TB_OP, 0, "autograd::engine::evaluate_function: MulBackward0", NULL, 0},
        {TB_PYTHON, TBF_MODULE | TBF_CROSS_THREAD, "nn.Module: Linear_0", NULL, 0},
        {TB_PYTHON, TBF_CROSS_THREAD, "main", "train.py", 10},
    };
    check_frames(&tb, mul, ARRAY_SIZE(mul));
    /* A host event starts at itself. */
    traceback_of_event(&tb, t, find_event(t, "train.py(10): main"));
    assert_int_equal(tb.frames.n, 1);
    traceback_of_event(&tb, t, IDX_NONE);
    assert_int_equal(tb.frames.n, 0);
    /* Frames added by hand copy their strings. */
    char name[] = "at::native::foo(int)";
    traceback_push(&tb, TB_NATIVE, name, "/src/foo.cpp", 42);
    name[0] = 'X';
    assert_string_equal(tb.frames.v[0].name, "at::native::foo(int)");
    assert_string_equal(tb.frames.v[0].file, "/src/foo.cpp");
    assert_int_equal(tb.frames.v[0].ev, IDX_NONE);
    assert_string_equal(tb_kind_name(TB_INDUCTOR), "inductor");
    traceback_done(&tb);
    trace_free(t);
}

static void test_folded(void **state)
{
    (void)state;
    struct trace *t = load_text(py_trace);
    struct strbuf sb = STRBUF_INIT;
    folded_write(&sb, t, FOLDED_SELF_CPU);
    assert_string_equal(
        sb_str(&sb),
        "train.py(10):_main 50\n"
        "train.py(10):_main;nn.Module:_Linear_0 10\n"
        "train.py(10):_main;nn.Module:_Linear_0;aten::linear 10\n"
        "train.py(10):_main;nn.Module:_Linear_0;aten::linear;aten::addmm 20\n"
        "train.py(10):_main;nn.Module:_Linear_0;aten::linear;aten::addmm;cudaLaunchKernel 10\n"
        /* the backward op alone: only its hook links it to the main thread */
        "autograd::engine::evaluate_function:_MulBackward0 5\n"
        "train.py(10):_main;nn.Module:_Linear_0;autograd::engine::evaluate_function:_MulBackward0"
        ";hooks.py(5):_hook 10\n"
        "train.py(10):_main;nn.Module:_Linear_0;autograd::engine::evaluate_function:_MulBackward0"
        ";hooks.py(5):_hook;aten::mul 10\n");
    sb_clear(&sb);
    folded_write(&sb, t, FOLDED_SELF_DEVICE);
    assert_string_equal(sb_str(&sb),
                        "train.py(10):_main;nn.Module:_Linear_0;aten::linear;aten::addmm 25\n");
    sb_free(&sb);
    enum folded_metric m;
    assert_true(folded_metric_parse("self_cpu", &m));
    assert_int_equal(m, FOLDED_SELF_CPU);
    assert_true(folded_metric_parse("self_cuda_time_total", &m));
    assert_int_equal(m, FOLDED_SELF_DEVICE);
    assert_false(folded_metric_parse("total", &m));
    trace_free(t);
}

/* Old traces: the Python stack in each op's "Call stack". */
static void test_call_stack(void **state)
{
    (void)state;
    struct trace *t = load_text(
        "{\"traceEvents\":["
        "{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
        "\"ts\":0,\"dur\":100,\"args\":{\"Call stack\":\"prof.py(20): step;run.py(9): <module>\"}},"
        "{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"aten::conv2d\",\"pid\":1,\"tid\":1,"
        "\"ts\":10,\"dur\":50,\"args\":{\"Call stack\":\"conv.py(5): forward;model.py(3): forward;"
        "run.py(7): <module>\"}},"
        "{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"aten::convolution\",\"pid\":1,\"tid\":1,"
        "\"ts\":11,\"dur\":40,\"args\":{\"Call stack\":\"conv.py(5): forward;model.py(3): forward;"
        "run.py(7): <module>\"}},"
        "{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"aten::add_\",\"pid\":1,\"tid\":1,"
        "\"ts\":12,\"dur\":5,\"args\":{\"Call stack\":\"hook.py(2): h;conv.py(5): forward;"
        "model.py(3): forward;run.py(7): <module>\"}}"
        "]}");
    struct traceback tb;
    traceback_init(&tb);
    traceback_of_event(&tb, t, find_event(t, "aten::add_"));
    static const struct want w[] = {
        {TB_OP, 0, "aten::add_", NULL, 0},
        {TB_PYTHON, TBF_CALLSTACK, "h", "hook.py", 2},
        {TB_OP, 0, "aten::convolution", NULL, 0},
        {TB_OP, 0, "aten::conv2d", NULL, 0},
        {TB_PYTHON, TBF_CALLSTACK, "forward", "conv.py", 5},
        {TB_PYTHON, TBF_CALLSTACK, "forward", "model.py", 3},
        {TB_OP, 0, "ProfilerStep#1", NULL, 0},
        {TB_PYTHON, TBF_CALLSTACK, "<module>", "run.py", 7},
    };
    check_frames(&tb, w, ARRAY_SIZE(w));
    assert_string_equal(tb.frames.v[1].text, "hook.py(2): h");
    assert_int_equal(tb.frames.v[1].ev, IDX_NONE);
    traceback_done(&tb);
    trace_free(t);
}

#define SP "/home/yangu/anaconda3/envs/kineto/lib/python3.7/site-packages/"

/* The kernel at ts 1419247333430849 ns. */
static const struct want want_bert[] = {
    {TB_KERNEL, 0,
     "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, "
     "unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned "
     "int>, at::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, "
     "at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, "
     "unsigned int, long)",
     NULL, 0},
    {TB_RUNTIME, 0, "cudaLaunchKernel", NULL, 0},
    {TB_OP, 0, "aten::index_select", NULL, 0},
    {TB_OP, 0, "aten::embedding", NULL, 0},
    {TB_PYTHON, 0, "<built-in method embedding of type object at 0x7499b741df60>", NULL, 0},
    {TB_PYTHON, 0, "embedding", "torch/nn/functional.py", 2437},
    {TB_PYTHON, 0, "forward", "torch/nn/modules/sparse.py", 189},
    {TB_PYTHON, 0, "_call_impl", "torch/nn/modules/module.py", 1743},
    {TB_PYTHON, TBF_MODULE, "nn.Module: Embedding_0", NULL, 0},
    {TB_PYTHON, 0, "forward", "transformers/models/bert/modeling_bert.py", 181},
    {TB_PYTHON, 0, "_call_impl", "torch/nn/modules/module.py", 1743},
    {TB_PYTHON, TBF_MODULE, "nn.Module: BertEmbeddings_0", NULL, 0},
    {TB_PYTHON, 0, "forward", "transformers/models/bert/modeling_bert.py", 1001},
    {TB_PYTHON, 0, "_call_impl", "torch/nn/modules/module.py", 1743},
    {TB_PYTHON, TBF_MODULE, "nn.Module: BertModel_0", NULL, 0},
    {TB_PYTHON, 0, "forward", "transformers/models/bert/modeling_bert.py", 1306},
    {TB_PYTHON, 0, "_call_impl", "torch/nn/modules/module.py", 1743},
    {TB_PYTHON, TBF_MODULE, "nn.Module: BertLMHeadModel_0", NULL, 0},
    {TB_PYTHON, 0, "run_on_input",
     "moca/library/model_hub/huggingface/model/adapters/text_base_model.py", 28},
    {TB_PYTHON, 0, "run_action", "moca/library/model_hub/entry_point.py", 106},
    {TB_OP, TBF_ANNOTATION, "ProfilerStep#6", NULL, 0},
    {TB_PYTHON, 0, "run_torch_profiler", "moca/library/profiling/profile.py", 34},
    {TB_PYTHON, 0, "profile_function", "moca/library/profiling/profile.py", 53},
    {TB_PYTHON, 0, "wrapper", "moca/shared/maybe/_decorator.py", 90},
    {TB_PYTHON, 0, "profile", "moca/library/pipeline/profile_model_pipeline.py", 102},
    {TB_PYTHON, 0, "_profile_model", "moca/application/profile/profile_model.py", 37},
    {TB_PYTHON, 0, "run", "multiprocessing/process.py", 108},
    {TB_PYTHON, 0, "_bootstrap", "multiprocessing/process.py", 314},
    {TB_PYTHON, 0, "_main", "multiprocessing/spawn.py", 135},
    {TB_PYTHON, 0, "spawn_main", "multiprocessing/spawn.py", 122},
    {TB_PYTHON, 0, "<module>", "<string>", 1},
};

/* The kernel at ts 1623142623533658000 ns. */
static const struct want want_resnet[] = {
    {TB_KERNEL, 0,
     "void cudnn::winograd::generateWinogradTilesKernel<0, float, "
     "float>(cudnn::winograd::GenerateWinogradTilesParams<float, float>)",
     NULL, 0},
    {TB_RUNTIME, 0, "cudaLaunchKernel", NULL, 0},
    {TB_OP, 0, "aten::cudnn_convolution", NULL, 0},
    {TB_OP, 0, "aten::_convolution", NULL, 0},
    {TB_OP, 0, "aten::convolution", NULL, 0},
    {TB_OP, 0, "aten::conv2d", NULL, 0},
    {TB_PYTHON, TBF_CALLSTACK, "_conv_forward", SP "torch/nn/modules/conv.py", 440},
    {TB_PYTHON, TBF_CALLSTACK, "forward", SP "torch/nn/modules/conv.py", 443},
    {TB_PYTHON, TBF_CALLSTACK, "_call_impl", SP "torch/nn/modules/module.py", 1051},
    {TB_PYTHON, TBF_CALLSTACK, "forward", SP "torchvision/models/resnet.py", 128},
    {TB_PYTHON, TBF_CALLSTACK, "_call_impl", SP "torch/nn/modules/module.py", 1051},
    {TB_PYTHON, TBF_CALLSTACK, "forward", SP "torch/nn/modules/container.py", 139},
    {TB_PYTHON, TBF_CALLSTACK, "_call_impl", SP "torch/nn/modules/module.py", 1051},
    {TB_PYTHON, TBF_CALLSTACK, "_forward_impl", SP "torchvision/models/resnet.py", 237},
    {TB_PYTHON, TBF_CALLSTACK, "forward", SP "torchvision/models/resnet.py", 249},
    {TB_PYTHON, TBF_CALLSTACK, "_call_impl", SP "torch/nn/modules/module.py", 1051},
    {TB_OP, 0, "ProfilerStep#5", NULL, 0},
    {TB_PYTHON, TBF_CALLSTACK, "<module>", "resnet50_profiler_api.py", 46},
};

/* The kernel at ts 2413669097444592 ns. */
static const struct want want_triton[] = {
    {TB_KERNEL, 0, "triton_poi_fused_add_cos_sin_0", NULL, 0},
    {TB_RUNTIME, 0, "cuLaunchKernel", NULL, 0},
    {TB_INDUCTOR, 0, "triton_poi_fused_add_cos_sin_0",
     "/tmp/torchinductor_bcoutinho/qa/cqaokwf2bph4egogzevc22vluasiyuui4i54zpemp6knbsggfbuu.py", 0},
    {TB_OP, 0, "triton_poi_fused_add_cos_sin_0", NULL, 0},
    {TB_OP, 0, "Torch-Compiled Region: 0/0", NULL, 0},
};

/* The kernel at ts 3743411255233937 ns. */
static const struct want want_mi300[] = {
    {TB_KERNEL, 0, "SubTensorOpWithScalar1d", NULL, 0},
    {TB_RUNTIME, 0, "hipExtModuleLaunchKernel", NULL, 0},
    {TB_OP, 0, "aten::miopen_convolution", NULL, 0},
    {TB_OP, 0, "aten::_convolution", NULL, 0},
    {TB_OP, 0, "aten::convolution", NULL, 0},
    {TB_OP, 0, "aten::conv2d", NULL, 0},
    {TB_PYTHON, 0, "<built-in method conv2d of type object at 0x7f4f7dff0640>", NULL, 0},
    {TB_PYTHON, 0, "_conv_forward", "torch/nn/modules/conv.py", 536},
    {TB_PYTHON, 0, "forward", "torch/nn/modules/conv.py", 553},
    {TB_PYTHON, 0, "_call_impl", "torch/nn/modules/module.py", 1743},
    {TB_PYTHON, TBF_MODULE, "nn.Module: Conv2d_15", NULL, 0},
    {TB_PYTHON, 0, "forward", "torchvision/models/resnet.py", 89},
    {TB_PYTHON, 0, "_call_impl", "torch/nn/modules/module.py", 1743},
    {TB_PYTHON, TBF_MODULE, "nn.Module: BasicBlock_6", NULL, 0},
    {TB_PYTHON, 0, "forward", "torch/nn/modules/container.py", 248},
    {TB_PYTHON, 0, "_call_impl", "torch/nn/modules/module.py", 1743},
    {TB_PYTHON, TBF_MODULE, "nn.Module: Sequential_5", NULL, 0},
    {TB_PYTHON, 0, "recompute_fn", "torch/utils/checkpoint.py", 1500},
    {TB_PYTHON, 0, "unpack_hook", "torch/utils/checkpoint.py", 1111},
    {TB_OP, 0, "ReluBackward0", NULL, 0},
    {TB_OP, 0, "autograd::engine::evaluate_function: ReluBackward0", NULL, 0},
    {TB_PYTHON, TBF_CROSS_THREAD,
     "<built-in method run_backward of torch._C._EngineBase object at 0x7f4f85497ec0>", NULL, 0},
    {TB_PYTHON, TBF_CROSS_THREAD, "_engine_run_backward", "torch/autograd/graph.py", 814},
    {TB_PYTHON, TBF_CROSS_THREAD, "backward", "torch/autograd/__init__.py", 242},
    {TB_PYTHON, TBF_CROSS_THREAD, "backward", "torch/_tensor.py", 570},
    {TB_PYTHON, TBF_CROSS_THREAD, "train_step", "train_ddp.py", 82},
    {TB_OP, TBF_CROSS_THREAD | TBF_ANNOTATION, "ProfilerStep#15", NULL, 0},
    {TB_PYTHON, TBF_CROSS_THREAD, "ddp_worker", "train_ddp.py", 161},
    {TB_PYTHON, TBF_CROSS_THREAD, "main", "train_ddp.py", 180},
    {TB_PYTHON, TBF_CROSS_THREAD, "<module>", "train_ddp.py", 184},
};

/* The combined traceback of the kernel named `name` starting at ts (ns,
 * relative to the trace's base) in shared trace `file`. */
/* backward: the kernel runs for a backward op, whose forward op's frames
 * (at least `backward` of them) follow the n frames w. */
static void check_shared(const char *file, const char *name, int64_t ts, const struct want *w,
                         size_t n, size_t backward)
{
    const char *shared = shared_dir();
    if (!shared) {
        print_message("SKIP: ../shared not found\n");
        return;
    }
    char path[4300];
    snprintf(path, sizeof(path), "%s/traces/%s", shared, file);
    struct errinfo err = {0};
    struct trace *t = NULL;
    enum status st = trace_load_file(path, NULL, &t, &err);
    errinfo_clear(&err);
    assert_int_equal(st, ST_OK);
    uint32_t ev = IDX_NONE;
    for (uint32_t i = 0; i < t->ev.n && ev == IDX_NONE; i++)
        if (evk_on_device(t->ev.v[i].kind) && t->ev.v[i].ts == ts && strstr(ev_name(t, i), name))
            ev = i;
    assert_int_not_equal(ev, IDX_NONE);
    struct traceback tb;
    traceback_init(&tb);
    traceback_of_event_forward(&tb, t, ev);
    check_frames(&tb, w, n);
    if (backward) {
        assert_true(tb.frames.n >= n + backward);
        /* The first forward frame is the op the backward op is paired with. */
        const struct tb_frame *f = &tb.frames.v[n];
        assert_int_equal(f->kind, TB_OP);
        bool paired = false;
        for (size_t k = 0; k < n; k++) {
            const struct op_info *o =
                tb.frames.v[k].ev != IDX_NONE ? ev_op(t, tb.frames.v[k].ev) : NULL;
            paired |= o && o->partner == f->ev;
        }
        assert_true(paired);
    } else {
        assert_int_equal(tb.frames.n, n);
    }
    /* Without the forward link the chain ends where it ran. */
    traceback_of_event(&tb, t, ev);
    assert_int_equal(tb.frames.n, n);
    traceback_done(&tb);
    trace_free(t);
}

/* with_stack: python_function events, nn.Module frames, a ProfilerStep. */
static void test_shared_bert(void **state)
{
    (void)state;
    check_shared("tracelens-h100-bert-small-infer.json.gz", "indexSelectLargeIndex",
                 1419247333430849, want_bert, ARRAY_SIZE(want_bert), 0);
}

/* PyTorch 1.9: Call stack args, and a ProfilerStep opened at another line. */
static void test_shared_resnet_call_stack(void **state)
{
    (void)state;
    check_shared("kineto-v100-resnet50-pt19.pt.trace.json.gz", "generateWinogradTilesKernel",
                 1623142623533658000, want_resnet, ARRAY_SIZE(want_resnet), 0);
}

/* torch.compile: the Triton kernel's generated file. */
static void test_shared_triton(void **state)
{
    (void)state;
    check_shared("hta-a100-triton-tiny.json.gz", "triton_poi_fused_add_cos_sin_0", 2413669097444592,
                 want_triton, ARRAY_SIZE(want_triton), 0);
}

/* Activation checkpointing: recomputation on the autograd thread, called
 * from backward() on the main thread. */
static void test_shared_cross_thread(void **state)
{
    (void)state;
    check_shared("tracelens-mi300-resnet-ddp-8rank-rank0.json.gz", "SubTensorOpWithScalar1d",
                 3743411255233937, want_mi300, ARRAY_SIZE(want_mi300), 3);
}

/* Folded stacks of a real trace: well-formed lines whose values add up to
 * the host time the events cover. */
static void test_shared_folded(void **state)
{
    (void)state;
    const char *shared = shared_dir();
    if (!shared) {
        print_message("SKIP: ../shared not found\n");
        return;
    }
    char path[4300];
    snprintf(path, sizeof(path), "%s/traces/tracelens-h100-bert-small-infer.json.gz", shared);
    struct errinfo err = {0};
    struct trace *t = NULL;
    assert_int_equal(trace_load_file(path, NULL, &t, &err), ST_OK);
    errinfo_clear(&err);
    struct strbuf sb = STRBUF_INIT;
    folded_write(&sb, t, FOLDED_SELF_DEVICE);
    size_t lines = 0;
    long long total = 0;
    for (const char *p = sb_str(&sb); *p;) {
        const char *nl = strchr(p, '\n');
        assert_non_null(nl);
        const char *sp = nl;
        while (sp > p && sp[-1] != ' ')
            sp--;
        assert_true(sp > p + 1);
        assert_null(memchr(p, ' ', (size_t)(sp - 1 - p)));
        total += atoll(sp);
        lines++;
        p = nl + 1;
    }
    /* Device time of linked kernels, within truncation to whole µs. */
    int64_t want = 0;
    for (uint32_t i = 0; i < t->ev.n; i++)
        if (evk_is_gpu(t->ev.v[i].kind) && (t->ev.v[i].flags & EVF_LINKED))
            want += t->ev.v[i].dur;
    assert_true(lines > 0);
    assert_true(total <= want / 1000 && total + (long long)lines >= want / 1000);
    assert_non_null(strstr(sb_str(&sb), "nn.Module:_BertModel_0;"));
    sb_free(&sb);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pyframe_parse), cmocka_unit_test(test_python_frames),
        cmocka_unit_test(test_folded),        cmocka_unit_test(test_call_stack),
        cmocka_unit_test(test_shared_bert),   cmocka_unit_test(test_shared_resnet_call_stack),
        cmocka_unit_test(test_shared_triton), cmocka_unit_test(test_shared_cross_thread),
        cmocka_unit_test(test_shared_folded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
