/* Fuzz target: event args. The input is the value of "args", placed in a
 * fixed trace with one event of each kind (op, runtime call, kernel,
 * memcpy, Python frame, annotation, NCCL kernel, metadata, counter,
 * instant), so every kind's arg extraction sees it. Each arg is then read
 * back every way the analyses read args, the packed args must print as
 * valid JSON, and the trace goes through the reports. */
#include "config.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/trace/argpack.h"
#include "core/trace/load.h"
#include "core/base/strbuf.h"
#include "tests/fuzz/fuzz.h"

#define EV(rest) "{" rest ", \"args\": "
#define END "},\n"

/* Each string is followed by the args text; the last closes the trace. */
static const char *const parts[] = {
    "{\"traceEvents\": [\n" EV(
        "\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"m.py(1): f\","
        " \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 200"),
    END EV("\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"step\", \"pid\": 1,"
           " \"tid\": 1, \"ts\": 8, \"dur\": 150"),
    END EV("\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1,"
           " \"ts\": 10, \"dur\": 100"),
    END EV("\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1,"
           " \"tid\": 1, \"ts\": 20, \"dur\": 5"),
    END EV("\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"_ZN2at6native4mmK\", \"pid\": 0,"
           " \"tid\": 7, \"ts\": 30, \"dur\": 10"),
    END EV("\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> Device)\","
           " \"pid\": 0, \"tid\": 7, \"ts\": 50, \"dur\": 3"),
    END EV(
        "\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce_RING_LL_Sum_float\","
        " \"pid\": 0, \"tid\": 8, \"ts\": 45, \"dur\": 20"),
    END EV("\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1"),
    END EV("\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": 0"),
    END EV("\"ph\": \"C\", \"cat\": \"cpu_instant_event\", \"name\": \"mem\", \"pid\": 1,"
           " \"tid\": 1, \"ts\": 60"),
    END EV("\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1,"
           " \"ts\": 70"),
    END "{\"ph\": \"s\", \"id\": 1, \"pid\": 1, \"tid\": 1, \"ts\": 20, \"cat\": \"ac2g\","
        " \"name\": \"ac2g\"},\n"
        "{\"ph\": \"f\", \"id\": 1, \"pid\": 0, \"tid\": 7, \"ts\": 30, \"cat\": \"ac2g\","
        " \"name\": \"ac2g\", \"bp\": \"e\"}\n]}\n",
};

static const char *const keys[] = {
    "correlation",
    "External id",
    "external id",
    "Sequence number",
    "Python id",
    "Python parent id",
    "stream",
    "device",
    "Input Dims",
    "Input type",
    "Input Strides",
    "Concrete Inputs",
    "Collective name",
    "In msg nelems",
    "Out msg nelems",
    "Group size",
    "dtype",
    "Process Group Name",
    "Process Group Ranks",
    "Fwd thread id",
    "Call stack",
    "name",
    "sort_index",
    "grid",
    "block",
    "bytes",
    "Record function id",
    "Ev Idx",
};

static void read_args(const struct trace *t, uint32_t ev, struct strbuf *sb)
{
    struct argiter it;
    struct argval a;
    double d;
    int64_t i;
    argpack_iter_init(&it, t, ev);
    while (argpack_iter_next(&it, &a)) {
        argpack_val_number(t, &a, &d);
        argpack_val_int(t, &a, &i);
        sb_clear(sb);
        argpack_val_put_json(sb, t, &a);
        cJSON *j = cJSON_ParseWithLength(sb_str(sb), sb->len);
        if (!j)
            fuzz_fail("arg value of event %u prints as invalid JSON", ev);
        cJSON_Delete(j);
        sb_clear(sb);
        argpack_val_put_text(sb, t, &a);
    }
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
        if (argpack_find(t, ev, keys[k], &a))
            argpack_val_number(t, &a, &d);
    sb_clear(sb);
    argpack_put_json(sb, t, ev);
    cJSON *j = cJSON_ParseWithLength(sb_str(sb), sb->len);
    if (!j || !cJSON_IsObject(j))
        fuzz_fail("args of event %u print as invalid JSON", ev);
    cJSON_Delete(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    size_t nparts = sizeof(parts) / sizeof(parts[0]);
    struct strbuf doc = STRBUF_INIT;
    for (size_t i = 0; i < nparts; i++) {
        sb_puts(&doc, parts[i]);
        if (i + 1 < nparts)
            sb_putn(&doc, (const char *)data, size);
    }
    struct fuzz_trace_opts o;
    fuzz_trace_opts_from_byte(&o, size ? data[size - 1] : 0);
    o.threads = 1;
    struct load_opts lo = {.threads = 1, .no_index = true};
    struct errinfo err = {0};
    struct trace *t = NULL;
    trace_load_mem("fuzz-args", sb_str(&doc), doc.len, &lo, &t, &err);
    struct strbuf sb = STRBUF_INIT;
    for (uint32_t ev = 0; ev < t->ev.n; ev++)
        read_args(t, ev, &sb);
    sb_free(&sb);
    fuzz_trace_exercise(t, &o);
    trace_free(t);
    errinfo_clear(&err);
    sb_free(&doc);
    return 0;
}
