/* Unit tests: the loader on hand-made traces covering the format variants
 * of trace-format.md section 7. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/argpack.h"
#include "core/trace/load_internal.h"
#include "core/trace/opname.h"
#include "core/trace/rawtext.h"
#include "tests/unit/testutil.h"

static void test_timestamps_exact(void **state)
{
    struct trace *t =
        load_text("{\"traceEvents\": [\n"
                  "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1,"
                  " \"ts\": 4458676524648.797, \"dur\": 189.626},\n"
                  "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, \"tid\": 1,"
                  " \"ts\": 1694128201426674, \"dur\": 3}\n"
                  "], \"baseTimeNanoseconds\": 1751410836000000000}");
    uint32_t a = find_event(t, "a"), b = find_event(t, "b");
    assert_true(t->ev.v[a].ts == 4458676524648797LL);
    assert_true(t->ev.v[a].dur == 189626);
    assert_true(t->ev.v[b].ts == 1694128201426674000LL);
    assert_true(t->base_ns == 1751410836000000000LL);
    trace_free(t);
}

/* PyTorch's legacy profiler: a bare array, no "cat", pid "CPU functions".
 * Its events are CPU ops, nested with no overhang as PyTorch nests them
 * (docs/metrics.md §5.8); elsewhere a 1 µs overhang still nests. */
#define LEGACY_EV(name, pid, ts, dur)                                                              \
    "{\"name\": \"" name "\", \"ph\": \"X\", \"ts\": " #ts ", \"dur\": " #dur                      \
    ", \"tid\": 1, \"pid\": " pid ", \"args\": {}}"
static void test_legacy_profiler(void **state)
{
    struct trace *t = load_text("[" LEGACY_EV("p", "\"CPU functions\"", 100, 10) ", " LEGACY_EV(
        "c", "\"CPU functions\"", 102,
        7) ", " LEGACY_EV("o", "\"CPU functions\"", 105,
                          6) ", " LEGACY_EV("q", "2", 100, 10) ", " LEGACY_EV("r", "2", 105,
                                                                              6) "]");
    uint32_t p = find_event(t, "p"), c = find_event(t, "c"), o = find_event(t, "o");
    assert_int_equal(t->ev.v[p].kind, EVK_CPU_OP);
    assert_int_equal(t->ev.v[o].kind, EVK_CPU_OP);
    assert_int_equal(t->ev.v[c].parent, p);
    /* o starts inside p and ends 1 µs after it: a sibling, as in PyTorch. */
    assert_int_equal(t->ev.v[o].parent, IDX_NONE);
    /* Without "CPU functions" an event without cat stays "other", and the
     * 1 µs overhang of §1.2 nests. */
    uint32_t q = find_event(t, "q"), r = find_event(t, "r");
    assert_int_equal(t->ev.v[q].kind, EVK_OTHER);
    assert_int_equal(t->ev.v[r].parent, q);
    trace_free(t);
}

static void test_top_level_keys_kept(void **state)
{
    struct trace *t =
        load_text("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA "
                  "H100 80GB HBM3\","
                  " \"numSms\": 132, \"totalGlobalMem\": 85018279936}],"
                  " \"traceEvents\": [], \"traceName\": \"x.json\", \"displayTimeUnit\": \"ms\"}");
    assert_non_null(cJSON_GetObjectItem(t->top, "schemaVersion"));
    assert_non_null(cJSON_GetObjectItem(t->top, "traceName"));
    assert_non_null(cJSON_GetObjectItem(t->top, "displayTimeUnit"));
    assert_int_equal(t->devices.n, 1);
    assert_string_equal(trace_str(t, t->devices.v[0].name), "NVIDIA H100 80GB HBM3");
    assert_int_equal(t->devices.v[0].num_sms, 132);
    assert_true(t->devices.v[0].total_mem == 85018279936ULL);
    trace_free(t);
}

static void test_ids_and_rows(void **state)
{
    struct trace *t =
        load_text("{\"traceEvents\": ["
                  "{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"op\", \"pid\": 25738, "
                  "\"tid\": \"25738\", \"ts\": 10, \"dur\": 5},"
                  "{\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": "
                  "25738, \"tid\": 25738, \"ts\": 11, \"dur\": 1,"
                  " \"args\": {\"correlation\": 7, \"external id\": 3}},"
                  "{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": "
                  "\"stream 7\", \"ts\": 20, \"dur\": 2,"
                  " \"args\": {\"correlation\": 7, \"stream\": 7, \"device\": 0}},"
                  "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"neg\", \"pid\": 5, "
                  "\"tid\": -549452224, \"ts\": 1, \"dur\": 1},"
                  "{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (0)\", "
                  "\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"ts\": 0, \"dur\": 100},"
                  "{\"ph\": \"i\", \"s\": \"g\", \"name\": \"Record Window End\", \"pid\": \"\", "
                  "\"tid\": \"\", \"ts\": 100}"
                  "]}");
    uint32_t op = find_event(t, "op"), rt = find_event(t, "cudaLaunchKernel");
    uint32_t k = find_event(t, "k"), neg = find_event(t, "neg");
    assert_int_equal(t->ev.v[op].kind, EVK_CPU_OP);
    assert_int_equal(t->ev.v[rt].kind, EVK_RUNTIME);
    assert_int_equal(t->ev.v[k].kind, EVK_KERNEL);
    /* "25738" and 25738 are the same thread. */
    assert_int_equal(t->ev.v[op].row, t->ev.v[rt].row);
    assert_int_equal(t->ev.v[rt].parent, op);
    const struct row *kr = &t->rows.v[t->ev.v[k].row];
    assert_int_equal(kr->cls, ROW_DEVICE);
    assert_true(kr->flags & ROW_TID_TEXT);
    assert_string_equal(trace_str(t, kr->tid_str), "stream 7");
    assert_true(t->rows.v[t->ev.v[neg].row].tid == -549452224);
    assert_int_equal(ev_gpu(t, k)->launch, rt);
    assert_int_equal(ev_gpu(t, k)->launcher, op);
    assert_int_equal(ev_gpu(t, k)->stream, 7);
    assert_true(ev_launch(t, rt)->ext_id == 3);
    trace_free(t);
}

static void test_args_packed(void **state)
{
    struct trace *t = load_text("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cuda_runtime\", "
                                "\"name\": \"hipMemcpyWithStream\","
                                " \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1, \"args\": "
                                "{\"stream\": \"0x0\", \"size\": \"2560\","
                                " \"Comms Id\": 10159970886766084423, \"neg\": -9007199254740993, "
                                "\"f\": 0.25, \"nil\": null,"
                                " \"flag\": true, \"grid\": [1, 40, 1], \"occupancy\": {\"a\": 1}, "
                                "\"correlation\": 117}}]}");
    uint32_t e = find_event(t, "hipMemcpyWithStream");
    struct argval a;
    assert_true(argpack_find(t, e, "Comms Id", &a));
    assert_int_equal(a.type, ARG_UINT);
    assert_true(a.v.u == 10159970886766084423ULL);
    assert_true(argpack_find(t, e, "neg", &a));
    assert_int_equal(a.type, ARG_INT);
    assert_true(a.v.i == -9007199254740993LL);
    assert_true(argpack_find(t, e, "stream", &a));
    int64_t v;
    assert_true(argpack_val_int(t, &a, &v));
    assert_int_equal(v, 0);
    assert_true(argpack_find(t, e, "size", &a));
    assert_true(argpack_val_int(t, &a, &v));
    assert_int_equal(v, 2560);
    assert_true(argpack_find(t, e, "grid", &a));
    assert_int_equal(a.type, ARG_JSON);
    assert_string_equal(trace_str(t, a.v.s), "[1,40,1]");
    struct strbuf sb = STRBUF_INIT;
    argpack_put_json(&sb, t, e);
    assert_non_null(strstr(sb_str(&sb), "\"Comms Id\": 10159970886766084423"));
    assert_non_null(strstr(sb_str(&sb), "\"nil\": null"));
    assert_non_null(strstr(sb_str(&sb), "\"occupancy\": {\"a\":1}"));
    /* The whole object reads back as JSON. */
    cJSON *j = cJSON_Parse(sb_str(&sb));
    assert_non_null(j);
    cJSON_Delete(j);
    sb_free(&sb);
    assert_true(ev_launch(t, e)->corr == 117);
    trace_free(t);
}

static void test_metadata_dedup(void **state)
{
    const char *m = "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 9, \"tid\": 7, \"args\": "
                    "{\"name\": \"stream 7 \"}}";
    char buf[4096];
    snprintf(
        buf, sizeof(buf),
        "{\"traceEvents\": [%s, %s, {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": "
        "9,"
        " \"tid\": 7, \"ts\": 1, \"dur\": 1}, %s, {\"name\": \"process_labels\", \"ph\": \"M\","
        " \"pid\": 9, \"tid\": 0, \"args\": {\"labels\": \"GPU 9\"}}]}",
        m, m, m);
    struct trace *t = load_text(buf);
    assert_int_equal(t->n_by_kind[EVK_META], 2);
    assert_int_equal(t->n_meta_dups, 2);
    uint32_t k = find_event(t, "k");
    /* The repeats dropped still count in the file's positions. */
    assert_int_equal(trace_file_index(t, k), 2);
    assert_int_equal(trace_file_index(t, k + 1), 4);
    const struct row *r = &t->rows.v[t->ev.v[k].row];
    assert_string_equal(trace_str(t, r->thread_name), "stream 7 ");
    assert_string_equal(trace_str(t, r->process_label), "GPU 9");
    char label[64];
    assert_string_equal(trace_row_label(t, t->ev.v[k].row, label, sizeof(label)), "GPU 9 stream 7");
    trace_free(t);
    /* A stream's tid as text, as older Kineto writes it: not "stream stream 7". */
    t = load_text("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\","
                  " \"pid\": 0, \"tid\": \"stream 7\", \"ts\": 1, \"dur\": 1,"
                  " \"args\": {\"device\": 0, \"stream\": 7}}]}");
    k = find_event(t, "k");
    const char *got = trace_row_label(t, t->ev.v[k].row, label, sizeof(label));
    assert_null(strstr(got, "stream stream"));
    assert_non_null(strstr(got, "stream 7"));
    trace_free(t);
}

/* Metadata reaches every row of its process or thread, whatever the number
 * of records and rows: the last record of a kind wins, a thread record
 * names only its own pid's thread, and rows of another class on the same
 * pid and tid (a kernel's) are named too. */
static void test_metadata_every_row(void **state)
{
    enum { NT = 3000 };
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "{\"traceEvents\": [");
    sb_puts(&sb, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"tid\": 0,"
                 " \"args\": {\"name\": \"first\"}},\n");
    for (int i = 0; i < NT; i++)
        sb_printf(&sb,
                  "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": %d,"
                  " \"ts\": %d, \"dur\": 1},\n"
                  "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": %d,"
                  " \"args\": {\"name\": \"t%d\"}},\n",
                  i, i, i, i);
    for (int i = 0; i < NT; i += 7)
        sb_printf(&sb,
                  "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": %d,"
                  " \"args\": {\"name\": \"late%d\"}},\n",
                  i, i);
    sb_puts(
        &sb,
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 1, \"tid\": 5, \"ts\": 1,"
        " \"dur\": 1, \"args\": {\"device\": 0, \"stream\": 5}},\n"
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 2, \"tid\": 0, \"ts\": 1,"
        " \"dur\": 1},\n"
        "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 2, \"tid\": 0,"
        " \"args\": {\"name\": \"p2t0\"}},\n"
        "{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": 1, \"tid\": 0,"
        " \"args\": {\"sort_index\": 3}},\n"
        "{\"ph\": \"M\", \"name\": \"thread_sort_index\", \"pid\": 1, \"tid\": 2,"
        " \"args\": {\"sort_index\": 9}},\n"
        "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"tid\": 0,"
        " \"args\": {\"name\": \"second\"}},\n"
        "{\"ph\": \"M\", \"name\": \"process_labels\", \"pid\": 1, \"tid\": 0,"
        " \"args\": {\"labels\": 5}}\n"
        "]}");
    struct trace *t = load_text(sb_str(&sb));
    size_t named = 0;
    for (uint32_t r = 0; r < t->rows.n; r++) {
        const struct row *row = &t->rows.v[r];
        char want[32];
        if (row->pid == 2) {
            assert_string_equal(trace_str(t, row->thread_name), "p2t0");
            assert_int_equal(row->process_name, 0);
            assert_true(row->process_sort == INT64_MAX);
            continue;
        }
        assert_int_equal(row->pid, 1);
        snprintf(want, sizeof(want), "%s%d", row->tid % 7 ? "t" : "late", (int)row->tid);
        assert_string_equal(trace_str(t, row->thread_name), want);
        assert_string_equal(trace_str(t, row->process_name), "second");
        assert_int_equal(row->process_label, 0); /* a label that is not text is none */
        assert_true(row->process_sort == 3);
        assert_true(row->thread_sort == (row->tid == 2 ? 9 : INT64_MAX));
        named++;
    }
    assert_int_equal(named, NT + 1); /* and the kernel's row */
    trace_free(t);
    sb_free(&sb);
}

/* An event and a top-level value of several MB, longer than the loader's
 * window and read in many pieces, load whole. */
static void test_huge_values(void **state)
{
    size_t n = 5u << 20;
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"");
    for (size_t i = 0; i < n; i++) /* escaped quotes across the pieces */
        sb_putc(&sb, i % 1000 == 998 ? '\\' : i % 1000 == 999 ? '"' : 'a');
    sb_puts(&sb, "z\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}], \"traceName\": \"");
    for (size_t i = 0; i < n; i++)
        sb_putc(&sb, 'b');
    sb_puts(&sb, "\\\"\"}");
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct load_opts o = {.threads = 1};
    enum status st = trace_load_mem("huge.json", sb.s, sb.len, &o, &t, &err);
    assert_int_equal(st, ST_OK);
    assert_int_equal(t->ev.n, 1);
    assert_int_equal(strlen(ev_name(t, 0)), n - n / 1000 + 1);
    const cJSON *name = cJSON_GetObjectItem(t->top, "traceName");
    assert_true(cJSON_IsString(name));
    assert_int_equal(strlen(name->valuestring), n + 1); /* ends in an escaped quote */
    trace_free(t);
    sb_free(&sb);
}

static void test_array_format_and_counters(void **state)
{
    /* Chrome's array format may omit the closing bracket. */
    struct trace *t = load_text(
        "[{\"ph\": \"C\", \"name\": \"GPU 0 Utilization\", \"pid\": 3, \"ts\": 5, \"args\": {\"GPU "
        "Utilization\": 0.5}},\n"
        " {\"ph\": \"X\", \"name\": \"x\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 2},\n");
    assert_int_equal(t->n_by_kind[EVK_COUNTER], 1);
    assert_int_equal(t->n_by_kind[EVK_OTHER], 1);
    trace_free(t);
}

static void test_flows_and_phases(void **state)
{
    struct trace *t = load_text(
        "{\"traceEvents\": ["
        "{\"ph\": \"s\", \"id\": 34441, \"pid\": 25738, \"tid\": 25738, \"ts\": 1, \"cat\": "
        "\"async\", \"name\": \"launch\"},"
        "{\"ph\": \"f\", \"id\": 34441, \"pid\": 0, \"tid\": \"stream 7\", \"ts\": 2, \"cat\": "
        "\"async\", \"name\": \"launch\", \"bp\": \"e\"},"
        "{\"ph\": \"B\", \"name\": \"legacy\", \"pid\": 1, \"tid\": 1, \"ts\": 3},"
        "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 4,"
        " \"args\": {\"Bytes\": -4, \"Total Allocated\": 0}}"
        "]}");
    assert_int_equal(t->flows.n, 2);
    assert_true(t->flows.v[0].id == 34441);
    assert_int_equal(t->flows.v[1].bind_enclosing, 1);
    assert_int_equal(t->n_unsupported, 1);
    assert_int_equal(t->n_by_kind[EVK_INSTANT], 1);
    /* The instant is the fourth element of traceEvents. */
    assert_int_equal(t->ev.n, 1);
    assert_int_equal(trace_file_index(t, 0), 3);
    trace_free(t);
}

/* TraceLens's names of sglang's profiler ops: Python's
 * re.match(r"^(sglang_profiler::.+?)_\d+$", name).group(1), or the name. */
static void test_opname_sglang(void **state)
{
    static const struct {
        const char *name, *stem;
    } cases[] = {
        {"sglang_profiler::a_12", "sglang_profiler::a"},
        {"sglang_profiler::a_1_2", "sglang_profiler::a_1"},
        {"sglang_profiler::_5", "sglang_profiler::_5"},
        {"sglang_profiler::x_5", "sglang_profiler::x"},
        {"sglang_profiler::a__5", "sglang_profiler::a_"},
        {"sglang_profiler::a_5\n", "sglang_profiler::a"},
        {"sglang_profiler::a\nb_5", "sglang_profiler::a\nb_5"},
        {"sglang_profiler::a_", "sglang_profiler::a_"},
        {"sglang_profiler::a5", "sglang_profiler::a5"},
        {"sglang_profiler::a_12x", "sglang_profiler::a_12x"},
        {"sglang_profiler::", "sglang_profiler::"},
        {"xsglang_profiler::a_1", "xsglang_profiler::a_1"},
        {"aten::add_1", "aten::add_1"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        size_t n = opname_stem_len(cases[i].name, strlen(cases[i].name));
        assert_int_equal(n, strlen(cases[i].stem));
        assert_memory_equal(cases[i].name, cases[i].stem, n);
    }
    /* Two versions' line numbers, one op; a python frame keeps its name. */
    struct trace *t =
        load_text("{\"traceEvents\": ["
                  "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"sglang_profiler::mha_167\","
                  " \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},"
                  "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"sglang_profiler::mha_171\","
                  " \"pid\": 1, \"tid\": 1, \"ts\": 3, \"dur\": 1},"
                  "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"sglang_x_1\","
                  " \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 1}"
                  "]}");
    assert_string_equal(opname_str(t, 0), "sglang_profiler::mha");
    assert_int_equal(opname_of(t, 0), opname_of(t, 1));
    assert_string_equal(ev_name(t, 1), "sglang_profiler::mha_171");
    assert_string_equal(opname_str(t, 2), "sglang_x_1");
    trace_free(t);
}

/* trace_file_index counts the flow points between events, whatever the
 * batches and threads: element 3k is an event, 3k+1 and 3k+2 flow points. */
static void test_file_index_threads(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "{\"traceEvents\": [");
    for (int i = 0; i < 40000; i++)
        sb_printf(&sb,
                  "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1,"
                  " \"tid\": 1, \"ts\": %d, \"dur\": 1},\n"
                  "{\"ph\": \"s\", \"id\": %d, \"pid\": 1, \"tid\": 1, \"ts\": %d,"
                  " \"cat\": \"ac2g\", \"name\": \"f\"},\n"
                  "{\"ph\": \"f\", \"id\": %d, \"pid\": 0, \"tid\": 7, \"ts\": %d,"
                  " \"cat\": \"ac2g\", \"name\": \"f\", \"bp\": \"e\"}",
                  i ? ",\n" : "", 2 * i, i, 2 * i, i, 2 * i + 1);
    sb_puts(&sb, "]}");
    for (unsigned n = 1; n <= 4; n++) {
        struct errinfo err = {0};
        struct trace *t = NULL;
        struct load_opts o = {.threads = n};
        assert_int_equal(trace_load_mem("flows.json", sb.s, sb.len, &o, &t, &err), ST_OK);
        assert_int_equal(t->ev.n, 40000);
        for (uint32_t i = 0; i < t->ev.n; i++)
            assert_int_equal(trace_file_index(t, i), 3 * (uint64_t)i);
        trace_free(t);
    }
    sb_free(&sb);
}

/* More distinct strings than a worker's own index holds (it starts over):
 * every name still gets its own id, once in the shared table, with one
 * thread or several. */
static void test_many_distinct_strings(void **state)
{
    (void)state;
    enum { N = 2 * INTERN_SEEN_MAX + 5000 };
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "{\"traceEvents\": [");
    for (int i = 0; i < N; i++)
        sb_printf(&sb,
                  "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"name %d\", \"pid\": 1,"
                  " \"tid\": 1, \"ts\": %d, \"dur\": 1, \"args\": {\"v\": \"value %d\"}}",
                  i ? ",\n" : "", i % (N / 2), 2 * i, i);
    sb_puts(&sb, "]}");
    for (unsigned threads = 1; threads <= 4; threads += 3) {
        struct errinfo err = {0};
        struct trace *t;
        struct load_opts o = {.threads = threads};
        assert_int_equal(trace_load_mem("many.json", sb.s, sb.len, &o, &t, &err), ST_OK);
        assert_int_equal(t->ev.n, N);
        char want[32];
        for (uint32_t i = 0; i < N; i++) {
            snprintf(want, sizeof(want), "name %d", (int)(i % (N / 2)));
            assert_string_equal(ev_name(t, i), want);
            if (i >= N / 2)
                assert_int_equal(t->ev.v[i].name, t->ev.v[i - N / 2].name);
            struct argval a;
            assert_true(argpack_find(t, i, "v", &a));
            snprintf(want, sizeof(want), "value %d", (int)i);
            assert_string_equal(trace_str(t, a.v.s), want);
        }
        /* N / 2 names, N values, "cpu_op", "v", "1" (the row's ids as
         * text) and "" with the hot keys. */
        assert_int_equal(strtab_count(&t->strs), N / 2 + N + 3 + KEY__COUNT);
        trace_free(t);
    }
    sb_free(&sb);
}

/* The same events load identically with one or several threads, and in
 * batches of any size. */
static void test_threads_deterministic(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "{\"traceEvents\": [");
    for (int i = 0; i < 60000; i++)
        sb_printf(&sb,
                  "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"op%d\", \"pid\": 1, \"tid\": %d,"
                  " \"ts\": %d.%03d, \"dur\": 1.5, \"args\": {\"correlation\": %d, \"k%d\": [%d]}}",
                  i ? ",\n" : "", i % 3 ? "cpu_op" : "cuda_runtime", i % 97, i % 5, i, i % 1000, i,
                  i % 13, i);
    sb_puts(&sb, "]}");
    struct trace *t[3];
    for (int k = 0; k < 3; k++) {
        struct errinfo err = {0};
        struct load_opts o = {.threads = (unsigned)(k + 1)};
        assert_int_equal(trace_load_mem("big.json", sb.s, sb.len, &o, &t[k], &err), ST_OK);
    }
    for (int k = 1; k < 3; k++) {
        assert_int_equal(t[k]->ev.n, t[0]->ev.n);
        for (uint32_t i = 0; i < t[0]->ev.n; i++) {
            assert_true(t[k]->ev.v[i].ts == t[0]->ev.v[i].ts);
            assert_string_equal(ev_name(t[k], i), ev_name(t[0], i));
            assert_int_equal(t[k]->ev.v[i].parent == IDX_NONE, t[0]->ev.v[i].parent == IDX_NONE);
            struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
            argpack_put_json(&a, t[0], i);
            argpack_put_json(&b, t[k], i);
            assert_string_equal(sb_str(&a), sb_str(&b));
            sb_free(&a);
            sb_free(&b);
        }
    }
    for (int k = 0; k < 3; k++)
        trace_free(t[k]);
    sb_free(&sb);
}

/* A bad event near the start of a document that is also cut at its end,
 * or followed by top-level keys: whatever the thread count, the same fault
 * is reported and the trace says the same of what was read (bytes, cut,
 * keys), namely what one thread, which stops at the bad event, has read. */
static void test_fault_same_any_threads(void **state)
{
    for (int variant = 0; variant < 2; variant++) {
        struct strbuf sb = STRBUF_INIT;
        sb_puts(&sb, "{\"traceEvents\": [");
        for (int i = 0; i < 30000; i++)
            sb_printf(&sb,
                      "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op%d\", \"pid\": 1,"
                      " \"tid\": %d, \"ts\": %d, \"dur\": %d}",
                      i ? ",\n" : "", i % 50, i % 3, i * 10, i == 5 ? -1 : 5);
        sb_puts(&sb, "], \"traceName\": \"after\"}");
        size_t len = variant == 0 ? sb.len - 60 : sb.len; /* cut inside the last event */
        struct trace *ref = NULL;
        char *ref_msg = NULL;
        for (unsigned n = 1; n <= 8; n++) {
            struct errinfo err = {0};
            struct trace *t = NULL;
            struct load_opts o = {.threads = n};
            assert_int_equal(trace_load_mem("cut.json", sb.s, len, &o, &t, &err), ST_FORMAT);
            char *msg = errinfo_format(&err);
            errinfo_clear(&err);
            assert_non_null(strstr(msg, "expected a non-negative \"dur\""));
            assert_int_equal(t->ev.n, 5);
            assert_true(t->partial);
            assert_false(t->truncated);
            assert_null(t->top ? cJSON_GetObjectItem(t->top, "traceName") : NULL);
            if (!ref) {
                ref = t;
                ref_msg = msg;
                assert_true(ref->json_bytes < len);
                continue;
            }
            assert_string_equal(msg, ref_msg);
            assert_int_equal(t->json_bytes, ref->json_bytes);
            assert_int_equal(t->file_bytes, ref->file_bytes);
            assert_int_equal(t->lost_bytes, ref->lost_bytes);
            free(msg);
            trace_free(t);
        }
        free(ref_msg);
        trace_free(ref);
        sb_free(&sb);
    }
}

static void test_truncated_keeps_events(void **state)
{
    const char *doc = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, "
                      "\"ts\": 1, \"dur\": 1},"
                      " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 2, "
                      "\"dur\": 1}, {\"ph\": \"X\", \"na";
    struct trace *t;
    char *msg;
    assert_int_equal(load_fail(doc, strlen(doc), &t, &msg), ST_TRUNCATED);
    assert_int_equal(t->ev.n, 2);
    assert_true(t->truncated);
    assert_int_equal(t->lost_bytes, 15);
    assert_non_null(strstr(msg, "15 bytes lost"));
    assert_non_null(strstr(msg, "bad.json: byte "));
    free(msg);
    trace_free(t);
}

static void test_bad_event_keeps_earlier(void **state)
{
    const char *doc =
        "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
        "\"dur\": 1},"
        " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": \"soon\", \"dur\": 1}]}";
    struct trace *t;
    char *msg;
    assert_int_equal(load_fail(doc, strlen(doc), &t, &msg), ST_FORMAT);
    assert_int_equal(t->ev.n, 1);
    assert_non_null(strstr(msg, "byte 82: expected a finite number of microseconds for \"ts\""));
    free(msg);
    trace_free(t);
}

/* Invalid UTF-8 loses nothing: every event loads (the bytes kept as they
 * are) and the first bad byte is reported, with any thread count. */
static void test_invalid_utf8_keeps_all(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "{\"traceEvents\": [");
    for (int i = 0; i < 3000; i++)
        sb_printf(&sb,
                  "%s{\"ph\": \"X\", \"name\": \"op%d%s\", \"pid\": 1, \"tid\": 1, \"ts\": %d,"
                  " \"dur\": 1, \"args\": {\"k\": \"%s\"}}",
                  i ? ", " : "", i, i == 2000 ? "\xff" : "", i, i == 2500 ? "\xc3(" : "v");
    sb_puts(&sb, "], \"x\": \"\xfe\"}");
    const char *bad = strstr(sb.s, "\xff");
    for (unsigned threads = 1; threads <= 3; threads++) {
        struct errinfo err = {0};
        struct trace *t;
        struct load_opts o = {.threads = threads};
        assert_int_equal(trace_load_mem("u.json", sb.s, sb.len, &o, &t, &err), ST_FORMAT);
        assert_int_equal(t->ev.n, 3000);
        assert_false(t->partial);
        assert_true(err.offset == (uint64_t)(bad - sb.s));
        assert_non_null(strstr(err.msg, "invalid UTF-8 in a string"));
        find_event(t, "op2999");
        errinfo_clear(&err);
        trace_free(t);
    }
    sb_free(&sb);
}

/* A fault that stops loading outranks an earlier one that loses nothing. */
static void test_hard_fault_outranks_soft(void **state)
{
    const char *doc =
        "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\xff\", \"pid\": 1, \"tid\": 1, \"ts\": "
        "1, \"dur\": 1},"
        " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": \"soon\", \"dur\": 1}]}";
    struct trace *t;
    char *msg;
    assert_int_equal(load_fail(doc, strlen(doc), &t, &msg), ST_FORMAT);
    assert_int_equal(t->ev.n, 1);
    assert_true(t->partial);
    assert_non_null(strstr(msg, "expected a finite number of microseconds for \"ts\""));
    free(msg);
    trace_free(t);
}

/* Values of the wrong type that can still be read are read, and the first
 * is reported: a number for a name, a string for a time, a second
 * traceEvents array, a deviceProperties that is no array. */
static void test_wrong_types_kept(void **state)
{
    const char *doc = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": 123, \"pid\": 1, \"tid\": 1, "
                      "\"ts\": 1, \"dur\": \"5\"}],"
                      " \"deviceProperties\": 5,"
                      " \"traceEvents\": [{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, "
                      "\"ts\": \"20\", \"dur\": 1}]}";
    struct trace *t;
    char *msg;
    assert_int_equal(load_fail(doc, strlen(doc), &t, &msg), ST_FORMAT);
    assert_int_equal(t->ev.n, 2);
    assert_false(t->partial);
    assert_true(t->ev.v[find_event(t, "123")].dur == 5000);
    assert_true(t->ev.v[find_event(t, "b")].ts == 20000);
    assert_non_null(strstr(msg, "bad.json: byte 17: expected a string for \"name\""));
    free(msg);
    trace_free(t);
    const char *later[][2] = {
        {"{\"traceEvents\": [], \"deviceProperties\": 5}", "byte 40: expected an array of objects"},
        {"{\"traceEvents\": [], \"traceEvents\": []}", "byte 20: expected one \"traceEvents\" key"},
        {"{\"traceEvents\": [{\"ph\": \"i\", \"ts\": \"1\"}]}",
         "byte 17: expected a number for \"ts\""},
    };
    for (size_t i = 0; i < ARRAY_SIZE(later); i++) {
        assert_int_equal(load_fail(later[i][0], strlen(later[i][0]), &t, &msg), ST_FORMAT);
        assert_non_null(strstr(msg, later[i][1]));
        free(msg);
        trace_free(t);
    }
}

/* "\u0000" reads as U+2400 (␀), so names differing after it stay apart;
 * an escaped backslash before "u0000" is no escape of NUL. */
static void test_nul_escapes_keep_names(void **state)
{
    struct trace *t = load_text("{\"traceEvents\": ["
                                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\\u0000b\", "
                                "\"pid\": 0, \"tid\": 7, \"ts\": 1, \"dur\": 1},"
                                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\\u0000c\", "
                                "\"pid\": 0, \"tid\": 7, \"ts\": 3, \"dur\": 1,"
                                " \"args\": {\"k\\u0000\": \"v\\u0000\", \"j\": [\"\\u0000\"]}},"
                                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"d\\\\u0000\", "
                                "\"pid\": 0, \"tid\": 7, \"ts\": 5, \"dur\": 1},"
                                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"e\\\\\\u0000\", "
                                "\"pid\": 0, \"tid\": 7, \"ts\": 7, \"dur\": 1}"
                                "], \"deviceProperties\": [{\"id\": 0, \"name\": \"g\\u0000h\"}]}");
    uint32_t b = find_event(t, "a\xe2\x90\x80"
                               "b"),
             c = find_event(t, "a\xe2\x90\x80"
                               "c");
    assert_int_not_equal(t->ev.v[b].name, t->ev.v[c].name);
    find_event(t, "d\\u0000");
    find_event(t, "e\\\xe2\x90\x80");
    struct argval a;
    assert_true(argpack_find(t, c, "k\xe2\x90\x80", &a));
    assert_string_equal(trace_str(t, a.v.s), "v\xe2\x90\x80");
    assert_true(argpack_find(t, c, "j", &a));
    assert_string_equal(trace_str(t, a.v.s), "[\"\xe2\x90\x80\"]");
    assert_string_equal(trace_str(t, t->devices.v[0].name), "g\xe2\x90\x80h");
    trace_free(t);
}

/* The kept text t->raws[id] (a static buffer, until the next call). */
static const char *kept_text(const struct trace *t, uint32_t id)
{
    static struct strbuf sb;
    struct rawtext_reader r;
    struct errinfo err = {0};
    sb_clear(&sb);
    rawtext_reader_init(&r, t);
    assert_int_equal(rawtext_put(&r, id, &sb, &err), ST_OK);
    rawtext_reader_close(&r);
    return sb_str(&sb);
}

/* What the fields do not rebuild is kept as written, for the export of
 * the whole trace: events of other phases, global instants, quoted ids,
 * odd flow ids, unknown keys; metadata repeats are counted. */
static void test_kept_as_written(void **state)
{
    struct trace *t = load_text(
        "{\"traceEvents\": ["
        "{\"ph\": \"B\", \"name\": \"b\",  \"pid\": 1, \"tid\": 1, \"ts\": 3},\n"
        "{\"ph\": \"i\", \"s\": \"g\", \"name\": \"global\", \"pid\": 1, \"tid\": 1,"
        " \"ts\": 4},"
        "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"thread\", \"pid\": 1, \"tid\": 1,"
        " \"ts\": 4},"
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"q\", \"pid\": 1, \"tid\": \"7\","
        " \"ts\": 5, \"dur\": 1},"
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"u\", \"pid\": 1, \"tid\": 7,"
        " \"ts\": 5, \"dur\": 1, \"tts\": 2},"
        "{\"ph\": \"s\", \"id\": \"0x1f\", \"pid\": 1, \"tid\": 1, \"ts\": 5,"
        " \"cat\": \"c\", \"name\": \"f\"},"
        "{\"ph\": \"f\", \"id\": 31, \"pid\": 1, \"tid\": \"1\", \"ts\": 6,"
        " \"cat\": \"c\", \"name\": \"f\"},"
        "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"ts\": 0,"
        " \"args\": {\"name\": \"t\"}},"
        "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"ts\": 0,"
        " \"args\": {\"name\": \"t\"}},"
        "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"ts\": 9,"
        " \"args\": {\"name\": \"t\"}}"
        "]}");
    assert_int_equal(t->others.n, 1);
    assert_string_equal(kept_text(t, t->others.v[0]),
                        "{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":3}");
    const struct event *g = &t->ev.v[find_event(t, "global")];
    assert_string_equal(kept_text(t, g->raw), "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"global\","
                                              "\"pid\":1,\"tid\":1,\"ts\":4}");
    assert_int_equal(t->ev.v[find_event(t, "thread")].raw, 0);
    const struct event *q = &t->ev.v[find_event(t, "q")];
    assert_int_equal(q->raw, 0);
    assert_true(q->flags & EVF_TID_QUOTED);
    assert_false(q->flags & EVF_PID_QUOTED);
    assert_int_not_equal(t->ev.v[find_event(t, "u")].raw, 0);
    assert_int_not_equal(t->flows.v[0].raw, 0);
    assert_int_equal(t->flows.v[1].raw, 0);
    assert_int_equal(t->flows.v[1].quoted, FLOW_TID_QUOTED);
    /* Two verbatim records and one at another time. */
    assert_int_equal(t->n_by_kind[EVK_META], 2);
    assert_int_equal(t->n_meta_dups, 1);
    uint32_t m = find_event(t, "thread_name");
    assert_int_equal(t->ev.v[m].aux, 1);
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timestamps_exact),
        cmocka_unit_test(test_top_level_keys_kept),
        cmocka_unit_test(test_ids_and_rows),
        cmocka_unit_test(test_args_packed),
        cmocka_unit_test(test_metadata_dedup),
        cmocka_unit_test(test_file_index_threads),
        cmocka_unit_test(test_opname_sglang),
        cmocka_unit_test(test_metadata_every_row),
        cmocka_unit_test(test_huge_values),
        cmocka_unit_test(test_array_format_and_counters),
        cmocka_unit_test(test_flows_and_phases),
        cmocka_unit_test(test_threads_deterministic),
        cmocka_unit_test(test_many_distinct_strings),
        cmocka_unit_test(test_fault_same_any_threads),
        cmocka_unit_test(test_truncated_keeps_events),
        cmocka_unit_test(test_bad_event_keeps_earlier),
        cmocka_unit_test(test_invalid_utf8_keeps_all),
        cmocka_unit_test(test_hard_fault_outranks_soft),
        cmocka_unit_test(test_wrong_types_kept),
        cmocka_unit_test(test_nul_escapes_keep_names),
        cmocka_unit_test(test_kept_as_written),
        cmocka_unit_test(test_legacy_profiler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
