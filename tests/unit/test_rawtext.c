/* Unit tests: events kept as written are kept as where they lie in the
 * input and read again by the export (core/trace/rawtext), from a plain or
 * a gzip file, byte for byte what a load that keeps the texts in memory
 * exports; a file changed between the load and the export is refused. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/input_registry.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/trace/export.h"
#include "core/trace/load.h"
#include "core/trace/rawtext.h"
#include "core/trace/scope.h"
#include "tests/unit/testutil.h"

/* Events of every kind the export writes as read: a ts with four decimals
 * (X), an unknown key, a global instant, a B/E pair (trace.others), a flow
 * point with a string id, metadata repeated; blanks of every kind between
 * tokens, and inside strings, which stay. */
static const char TRACE[] =
    "{\"schemaVersion\": 1,\n\"traceEvents\": [\n"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": "
    "\"main  thread\"}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1,\n"
    "  \"ts\": 1419118589013.5278, \"dur\": 2.5, \"args\": {\"a b\": [1, 2]}},\n"
    "{\"ph\": \"B\", \"name\": \"begin\", \"pid\": 1, \"tid\": 2, \"ts\": 13},\r\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"rebuilt\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":1}"
    ",\n"
    "{\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"f\", \"id\": \"0xABC\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 20},\n"
    "{\"ph\": \"i\", \"s\": \"g\", \"name\": \"global\", \"pid\": 1, \"tid\": 1, \"ts\": 21},\n"
    "{\"ph\": \"E\", \"pid\": 1, \"tid\": 2, \"ts\": 14},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"tts\", \"pid\": 1, \"tid\": 1, \"ts\": 22,"
    "\t\"dur\": 1, \"tts\": 5},\n"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": "
    "\"main  thread\"}},\n"
    "{\"ph\": \"f\", \"cat\": \"ac2g\", \"name\": \"f\", \"id\": \"0xABC\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 22, \"bp\": \"e\"}\n"
    "]}\n";

struct dir {
    char path[64];
};

static int dir_setup(void **state)
{
    struct dir *d = xcalloc(1, sizeof(*d));
    snprintf(d->path, sizeof(d->path), "/tmp/tt-rawtext.XXXXXX");
    if (!mkdtemp(d->path))
        return -1;
    *state = d;
    return 0;
}

static const char *const FILES[] = {"t.json", "t.json.gz", "mem.json", "file.json", "again.json"};

static int dir_teardown(void **state)
{
    struct dir *d = *state;
    for (size_t i = 0; i < ARRAY_SIZE(FILES); i++) {
        char *p = xasprintf("%s/%s", d->path, FILES[i]);
        unlink(p);
        free(p);
    }
    rmdir(d->path);
    free(d);
    input_registry_clear();
    return 0;
}

static char *in_dir(const struct dir *d, const char *name)
{
    return xasprintf("%s/%s", d->path, name);
}

static void write_file(const char *path, const char *text, size_t len, bool gzip)
{
    if (gzip) {
        gzFile gz = gzopen(path, "wb");
        assert_non_null(gz);
        assert_int_equal(gzwrite(gz, text, (unsigned)len), (int)len);
        assert_int_equal(gzclose(gz), Z_OK);
        return;
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* TRACE at its size with every event one byte earlier: a blank less
 * before them, one more after them. */
static char *shifted_trace(void)
{
    char *s = xstrdup(TRACE);
    char *colon = strstr(s, "\"schemaVersion\": 1");
    memmove(colon + 16, colon + 17, strlen(colon + 17) + 1);
    strcpy(s + strlen(s) - 1, " \n");
    assert_int_equal(strlen(s), sizeof(TRACE) - 1);
    return s;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    struct strbuf sb = STRBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        sb_putn(&sb, buf, n);
    fclose(f);
    *len = sb.len;
    return sb_steal(&sb);
}

static struct trace *load_path(const char *path, unsigned threads)
{
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct load_opts o = {.threads = threads};
    assert_int_equal(trace_load_file(path, &o, &t, &err), ST_OK);
    errinfo_clear(&err);
    return t;
}

/* Export all of t to path; the status, with the message in *msg. */
static enum status export_all(const struct trace *t, const char *path, char **msg)
{
    uint8_t *keep = xmalloc(t->ev.n + 1);
    char why[256];
    assert_true(export_select(t, &(struct export_sel){.kind = EXPORT_ALL}, keep, why));
    struct errinfo err = {0};
    enum status st = export_chrome(t, keep, path, false, NULL, NULL, &err);
    *msg = st != ST_OK ? errinfo_format(&err) : NULL;
    errinfo_clear(&err);
    free(keep);
    return st;
}

/* The export of a file equals that of the same text loaded from memory,
 * where the texts are kept as before: plain and gzip, one and four
 * threads. */
static void test_file_export_as_memory(void **state)
{
    struct dir *d = *state;
    char *mem_out = in_dir(d, "mem.json"), *file_out = in_dir(d, "file.json");
    struct trace *m = load_text(TRACE);
    assert_false(m->raw_in_file);
    char *msg;
    assert_int_equal(export_all(m, mem_out, &msg), ST_OK);
    size_t want_len;
    char *want = read_file(mem_out, &want_len);
    trace_free(m);

    for (int gz = 0; gz < 2; gz++) {
        char *in = in_dir(d, gz ? "t.json.gz" : "t.json");
        write_file(in, TRACE, sizeof(TRACE) - 1, gz);
        for (unsigned threads = 1; threads <= 4; threads += 3) {
            struct trace *t = load_path(in, threads);
            assert_true(t->raw_in_file);
            assert_int_equal(t->gzip, gz);
            /* Every text but the metadata's lies in the file. */
            size_t in_file = 0;
            for (size_t k = 1; k < t->raws.n; k++)
                in_file += t->raws.v[k].len != 0;
            assert_int_equal(in_file, 7);
            assert_int_equal(export_all(t, file_out, &msg), ST_OK);
            size_t got_len;
            char *got = read_file(file_out, &got_len);
            assert_int_equal(got_len, want_len);
            assert_memory_equal(got, want, want_len);
            free(got);
            trace_free(t);
        }
        free(in);
    }
    assert_non_null(strstr(want, "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,"
                                 "\"tid\":1,\"ts\":1419118589013.5278,\"dur\":2.5,\"args\":{\"a "
                                 "b\":[1,2]}}"));
    free(want);
    free(mem_out);
    free(file_out);
}

/* A file changed between the load and the export is refused with a
 * message, and no output is written: grown, or rewritten at its size with
 * another time, plain or gzip. */
static void test_changed_file_refused(void **state)
{
    struct dir *d = *state;
    char *out = in_dir(d, "again.json");
    for (int gz = 0; gz < 2; gz++) {
        for (int same_size = 0; same_size < 2; same_size++) {
            char *in = in_dir(d, gz ? "t.json.gz" : "t.json");
            write_file(in, TRACE, sizeof(TRACE) - 1, gz);
            struct trace *t = load_path(in, 1);
            struct stat st;
            assert_int_equal(stat(in, &st), 0);
            char *other = shifted_trace();
            if (same_size) {
                write_file(in, other, sizeof(TRACE) - 1, gz);
                struct timespec times[2] = {st.st_atim, st.st_mtim};
                times[1].tv_sec += 2;
                assert_int_equal(utimensat(AT_FDCWD, in, times, 0), 0);
            } else {
                struct strbuf sb = STRBUF_INIT;
                sb_printf(&sb, " %s", TRACE);
                write_file(in, sb.s, sb.len, gz);
                sb_free(&sb);
            }
            free(other);
            unlink(out);
            char *msg = NULL;
            assert_int_equal(export_all(t, out, &msg), ST_IO);
            assert_non_null(msg);
            assert_non_null(strstr(msg, "changed since it was loaded"));
            assert_non_null(strstr(msg, in));
            assert_int_equal(access(out, F_OK), -1);
            free(msg);
            trace_free(t);
            free(in);
        }
    }
    free(out);
}

/* A scope of a file changed since its load is refused as export refuses
 * it (the scope's events are written as export writes them, on a thread of
 * their own, while they are read back): the scope is NULL, the message
 * names the file, and scope_apply leaves no trace behind. */
static void test_changed_file_scope_refused(void **state)
{
    struct dir *d = *state;
    char *in = in_dir(d, "scoped.json");
    write_file(in, TRACE, sizeof(TRACE) - 1, 0);
    struct trace *t = load_path(in, 1);
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, " %s", TRACE);
    write_file(in, sb.s, sb.len, 0);
    sb_free(&sb);
    struct scope s;
    char msg[256];
    scope_init(&s);
    s.match = "^aten::mm$";
    struct load_opts lo = {.threads = 2};
    for (int in_place = 0; in_place < 2; in_place++) {
        struct errinfo err = {0};
        struct trace *sub = NULL;
        enum scope_result r = in_place ? scope_apply(&t, &s, &lo, msg, &err)
                                       : scope_load(t, &s, &lo, &sub, msg, &err);
        assert_int_equal(r, SCOPE_IO);
        assert_null(in_place ? t : sub);
        char *m = errinfo_format(&err);
        assert_non_null(strstr(m, "changed since it was loaded"));
        assert_non_null(strstr(m, in));
        free(m);
        errinfo_clear(&err);
    }
    free(in);
}

/* A file whose bytes changed although its size and time did not: the text
 * read where an event was is not an object, which is refused too. */
static void test_changed_content_refused(void **state)
{
    struct dir *d = *state;
    char *in = in_dir(d, "t.json"), *out = in_dir(d, "again.json");
    write_file(in, TRACE, sizeof(TRACE) - 1, false);
    struct trace *t = load_path(in, 1);
    struct stat st;
    assert_int_equal(stat(in, &st), 0);
    char *other = shifted_trace();
    write_file(in, other, sizeof(TRACE) - 1, false);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    assert_int_equal(utimensat(AT_FDCWD, in, times, 0), 0);
    char *msg = NULL;
    assert_int_equal(export_all(t, out, &msg), ST_IO);
    assert_non_null(strstr(msg, "changed since it was loaded"));
    assert_int_equal(access(out, F_OK), -1);
    free(msg);
    free(other);
    trace_free(t);
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_file_export_as_memory, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_changed_file_refused, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_changed_content_refused, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_changed_file_scope_refused, dir_setup, dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
