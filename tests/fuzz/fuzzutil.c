/* Helpers shared by the trace fuzz targets: load, index, analyse, report
 * in every format, and compare one-thread and two-thread loads. */
#include "config.h"

#include <cjson/cJSON.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/trace/argpack.h"
#include "core/symbols/folded.h"
#include "core/trace/load.h"
#include "core/trace/scope.h"
#include "core/report/report.h"
#include "core/report/tabfmt.h"
#include "core/symbols/traceback.h"
#include "core/trace/tree.h"
#include "tests/fuzz/fuzz.h"

/* Tracebacks are linear in the depth; a few events are enough. */
#define MAX_TRACEBACKS 64

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz oracle failed: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void fuzz_init(void)
{
    static bool done;
    if (!done) {
        setlocale(LC_CTYPE, "C.UTF-8");
        done = true;
    }
}

void fuzz_trace_opts_from_byte(struct fuzz_trace_opts *o, uint8_t b)
{
    memset(o, 0, sizeof(*o));
    o->threads = (b & 1) ? 2 : 1;
    o->linked_only = b & 2;
    o->link_require_flow = b & 4;
    o->keyavg_shape = b & 8;
    o->keyavg_top = b & 16;
    o->keyavg_stack = (b >> 5) & 3;
}

static void check_json(const struct strbuf *sb, const char *what)
{
    cJSON *j = cJSON_ParseWithLength(sb_str(sb), sb->len);
    if (!j)
        fuzz_fail("%s is not valid JSON", what);
    cJSON_Delete(j);
}

/* A scope of the middle half of t's span: what export writes for it is
 * read back as it is written (the scope's pull source, on the writer's own
 * thread), and it must load. t is in memory, so no kept text can fail to
 * be read again: any failure is the export's or the loader's. */
static void exercise_scope(const struct trace *t, const struct fuzz_trace_opts *o)
{
    if (t->t_end <= t->t_start)
        return;
    struct scope s;
    scope_init(&s);
    int64_t span = t->t_end - t->t_start; /* both within +-2^62: no overflow */
    s.window = true;
    s.from.off_ns = span / 4;
    s.to.off_ns = MAX(span - span / 4, s.from.off_ns + 1);
    struct load_opts lo = {.threads = o->threads};
    char msg[256];
    struct errinfo err = {0};
    struct trace *sub = NULL;
    if (scope_load(t, &s, &lo, &sub, msg, &err) == SCOPE_IO)
        fuzz_fail("the scope's events do not load back: %s", err.msg ? err.msg : "?");
    trace_free(sub);
    errinfo_clear(&err);
}

void fuzz_trace_exercise(struct trace *t, const struct fuzz_trace_opts *o)
{
    trace_index(t);
    struct analysis *a = analysis_new(t);
    struct report_opts ro = {0};
    ro.linked_only = o->linked_only;
    ro.keyavg.time_scale = 1e3;
    ro.keyavg.time_unit = "us";
    ro.keyavg.group_by_shape = o->keyavg_shape;
    ro.keyavg.top_level_only = o->keyavg_top;
    ro.keyavg.group_by_stack = o->keyavg_stack;
    struct table_list tables = {0};
    char msg[256];
    /* Every table, the default set and each one outside it; failing to
     * build one (e.g. nothing to report) is not a fault. */
    report_build(a, "all", &ro, &tables, msg);
    for (const struct report_table *r = report_tables; r->name; r++)
        if (!r->in_all)
            report_build(a, r->name, &ro, &tables, msg);

    struct strbuf out = STRBUF_INIT, header = STRBUF_INIT;
    report_header_json(&header, t);
    check_json(&header, "the report header");
    static const enum tab_format formats[] = {FMT_TEXT, FMT_CSV, FMT_JSON, FMT_MD};
    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        struct tabfmt_opts fo = {.format = formats[f], .all_columns = true};
        sb_clear(&out);
        tabfmt_list(&out, &tables, &fo, formats[f] == FMT_JSON ? sb_str(&header) : NULL);
        if (formats[f] == FMT_JSON)
            check_json(&out, "the JSON report");
    }
    sb_clear(&out);
    report_header_text(&out, t);
    for (size_t i = 0; i < tables.items.n; i++)
        if (tables.items.v[i]->ncols)
            report_sort_table(tables.items.v[i], tables.items.v[i]->cols[0].name);

    for (int m = FOLDED_SELF_CPU; m <= FOLDED_SELF_DEVICE; m++) {
        sb_clear(&out);
        folded_write(&out, t, (enum folded_metric)m);
    }

    struct traceback tb;
    traceback_init(&tb);
    size_t step = t->ev.n / MAX_TRACEBACKS + 1;
    for (size_t i = 0; i < t->ev.n; i += step)
        traceback_of_event(&tb, t, (uint32_t)i);
    traceback_done(&tb);

    sb_clear(&out);
    trace_memory_describe(t, &out);
    sb_free(&out);
    sb_free(&header);
    table_list_free(&tables);
    analysis_free(a);
    exercise_scope(t, o);
}

/* Events and their args, the fault and what the trace says of the input
 * read must not depend on the thread count. String ids may (workers intern
 * concurrently), so strings are compared. */
static void compare_loads(const struct trace *a, enum status sa, const struct errinfo *ea,
                          const struct trace *b, enum status sb_, const struct errinfo *eb)
{
    char *ma = errinfo_format(ea), *mb = errinfo_format(eb);
    if (sa != sb_ || strcmp(ma, mb) != 0)
        fuzz_fail("one thread: %s (%s); two threads: %s (%s)", status_str(sa), ma, status_str(sb_),
                  mb);
    free(ma);
    free(mb);
    if (a->json_bytes != b->json_bytes || a->file_bytes != b->file_bytes ||
        a->truncated != b->truncated || a->lost_bytes != b->lost_bytes || a->partial != b->partial)
        fuzz_fail("read %llu bytes (truncated %d, %llu lost) with one thread, %llu (%d, %llu) with "
                  "two",
                  (unsigned long long)a->json_bytes, a->truncated,
                  (unsigned long long)a->lost_bytes, (unsigned long long)b->json_bytes,
                  b->truncated, (unsigned long long)b->lost_bytes);
    if (cJSON_GetArraySize(a->top) != cJSON_GetArraySize(b->top))
        fuzz_fail("%d top-level keys with one thread, %d with two", cJSON_GetArraySize(a->top),
                  cJSON_GetArraySize(b->top));
    if (a->ev.n != b->ev.n)
        fuzz_fail("%zu events with one thread, %zu with two", a->ev.n, b->ev.n);
    if (a->flows.n != b->flows.n)
        fuzz_fail("%zu flows with one thread, %zu with two", a->flows.n, b->flows.n);
    /* After a fault, workers may have met rows of events that were then
     * dropped; only complete loads must agree on the rows. */
    if (sa == ST_OK && a->rows.n != b->rows.n)
        fuzz_fail("%zu rows with one thread, %zu with two", a->rows.n, b->rows.n);
    struct strbuf ja = STRBUF_INIT, jb = STRBUF_INIT;
    for (uint32_t i = 0; i < a->ev.n; i++) {
        const struct event *x = &a->ev.v[i], *y = &b->ev.v[i];
        if (x->ts != y->ts || x->dur != y->dur || x->kind != y->kind || x->ph != y->ph ||
            strcmp(ev_name(a, i), ev_name(b, i)) != 0 || strcmp(ev_cat(a, i), ev_cat(b, i)) != 0)
            fuzz_fail("event %u differs between one and two threads", i);
        sb_clear(&ja);
        sb_clear(&jb);
        argpack_put_json(&ja, a, i);
        argpack_put_json(&jb, b, i);
        if (ja.len != jb.len || memcmp(sb_str(&ja), sb_str(&jb), ja.len) != 0)
            fuzz_fail("args of event %u differ between one and two threads", i);
    }
    sb_free(&ja);
    sb_free(&jb);
}

void fuzz_trace_run(const void *buf, size_t len, const struct fuzz_trace_opts *o)
{
    struct load_opts lo = {
        .threads = o->threads, .no_index = true, .link_require_flow = o->link_require_flow};
    struct errinfo err = {0};
    struct trace *t = NULL;
    enum status st = trace_load_mem("fuzz", buf, len, &lo, &t, &err);
    if (st != ST_OK) {
        char *m = errinfo_format(&err);
        free(m);
    }
    if (o->threads > 1) {
        struct load_opts lo1 = lo;
        lo1.threads = 1;
        struct errinfo err1 = {0};
        struct trace *t1 = NULL;
        enum status st1 = trace_load_mem("fuzz", buf, len, &lo1, &t1, &err1);
        compare_loads(t1, st1, &err1, t, st, &err);
        trace_free(t1);
        errinfo_clear(&err1);
    }
    fuzz_trace_exercise(t, o);
    trace_free(t);
    errinfo_clear(&err);
}
