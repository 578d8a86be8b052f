/* Unit tests: the trace cache (core/trace/tracecache). A trace written and
 * read back is the same trace; a damaged, foreign or inconsistent cache is
 * refused with a reason, whether its checksums match or not. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/xalloc.h"
#include "core/trace/tracecache.h"
#include "tests/unit/testutil.h"

/* Nested ops with args and shapes, Python frames with ids, a launch, its
 * kernel and their flow, a counter, a B/E pair (kept as written) and a
 * top-level key. */
static const char TRACE[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU X\"}],\n"
    "\"traceEvents\": [\n"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": "
    "\"main\"}},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"train.py(1): step\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 0, \"dur\": 100, \"args\": {\"Python id\": 1, \"Python parent id\": "
    "null}},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"nn.Module: Linear_0\", \"pid\": "
    "1, \"tid\": 1, \"ts\": 1, \"dur\": 90, \"args\": {\"Python id\": 2, \"Python parent id\": "
    "1}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 2, \"dur\": 80, \"args\": {\"External id\": 7, \"Sequence number\": 3, \"Input "
    "Dims\": [[4, 8], [8, 8]], \"Input type\": [\"float\", \"float\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 3, \"dur\": 70, \"args\": {\"External id\": 8}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
    "\"tid\": 1, \"ts\": 4, \"dur\": 10, \"args\": {\"correlation\": 42, \"External id\": 8}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": "
    "20, \"dur\": 30, \"args\": {\"correlation\": 42, \"device\": 0, \"stream\": 7, \"grid\": "
    "[1, 2, 1]}},\n"
    "{\"ph\": \"s\", \"id\": 42, \"pid\": 1, \"tid\": 1, \"ts\": 4, \"cat\": \"ac2g\", \"name\": "
    "\"ac2g\"},\n"
    "{\"ph\": \"f\", \"id\": 42, \"pid\": 0, \"tid\": 7, \"ts\": 20, \"cat\": \"ac2g\", "
    "\"name\": \"ac2g\", \"bp\": \"e\"},\n"
    "{\"ph\": \"C\", \"name\": \"mem\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"args\": "
    "{\"bytes\": 1.5}},\n"
    "{\"ph\": \"B\", \"name\": \"begin\", \"pid\": 1, \"tid\": 2, \"ts\": 13},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, "
    "\"ts\": 200, \"dur\": 5}\n"
    "], \"distributedInfo\": {\"rank\": 0, \"world\": [1, 2.5, \"x\"]}}\n";

static const struct tracecache_key KEY = {.size = 1234, .mtime_ns = 5678, .edges = 99};

static char *tmp_path(const char *name)
{
    static char dir[] = "/tmp/torchtop-tracecache-XXXXXX";
    static bool made;
    if (!made) {
        assert_non_null(mkdtemp(dir));
        made = true;
    }
    return xasprintf("%s/%s", dir, name);
}

static struct trace *load_indexed(void)
{
    struct trace *t = load_text(TRACE);
    assert_true(t->indexed);
    return t;
}

/* Same arrays, strings and counts. */
static void assert_same_trace(const struct trace *a, const struct trace *b)
{
    assert_int_equal(a->ev.n, b->ev.n);
    assert_memory_equal(a->ev.v, b->ev.v, a->ev.n * sizeof(*a->ev.v));
    assert_int_equal(a->rows.n, b->rows.n);
    for (size_t r = 0; r < a->rows.n; r++) {
        assert_int_equal(a->rows.v[r].nevents, b->rows.v[r].nevents);
        assert_int_equal(a->rows.v[r].first_root, b->rows.v[r].first_root);
        assert_memory_equal(a->rows.v[r].order, b->rows.v[r].order,
                            a->rows.v[r].nevents * sizeof(uint32_t));
    }
    assert_int_equal(a->flows.n, b->flows.n);
    assert_int_equal(a->ops.n, b->ops.n);
    assert_memory_equal(a->ops.v, b->ops.v, a->ops.n * sizeof(*a->ops.v));
    assert_int_equal(a->gpus.n, b->gpus.n);
    assert_memory_equal(a->gpus.v, b->gpus.v, a->gpus.n * sizeof(*a->gpus.v));
    assert_int_equal(a->argbuf.n, b->argbuf.n);
    assert_memory_equal(a->argbuf.v, b->argbuf.v, a->argbuf.n);
    assert_int_equal(a->others.n, b->others.n);
    assert_int_equal(a->raws.n, b->raws.n);
    assert_int_equal(strtab_count(&a->strs), strtab_count(&b->strs));
    for (uint32_t i = 0; i < strtab_count(&a->strs); i++)
        assert_string_equal(trace_str(a, i), trace_str(b, i));
    assert_int_equal(strtab_count(&a->vals), strtab_count(&b->vals));
    assert_int_equal(a->devices.n, b->devices.n);
    assert_int_equal(a->n_gpu, b->n_gpu);
    assert_int_equal(a->t_start, b->t_start);
    assert_int_equal(a->t_end, b->t_end);
    assert_int_equal(hmap_count(&a->op_names), hmap_count(&b->op_names));
    assert_non_null(b->top);
    char *ta = cJSON_PrintUnformatted(a->top), *tb = cJSON_PrintUnformatted(b->top);
    assert_string_equal(ta, tb);
    cJSON_free(ta);
    cJSON_free(tb);
}

static void test_round_trip(void **state)
{
    (void)state;
    struct trace *t = load_indexed();
    char why[256] = "";
    assert_true(tracecache_check(t, why, sizeof(why)));
    char *path = tmp_path("a.ttc");
    assert_true(tracecache_write_file(path, &KEY, t, NULL, why, sizeof(why)));
    struct trace *back = NULL;
    assert_int_equal(tracecache_read_file(path, &KEY, "back.json", &back, why, sizeof(why)),
                     TRACECACHE_OK);
    assert_non_null(back->mapped);
    assert_string_equal(back->path, "back.json");
    assert_same_trace(t, back);
    /* A trace read back can be given arrays of its own, and grown. */
    trace_own_arrays(back);
    assert_null(back->mapped);
    assert_same_trace(t, back);
    *VEC_ADD(&back->ev) = t->ev.v[0];
    trace_free(back);
    trace_free(t);
    unlink(path);
    free(path);
}

/* Writes t to a new cache and returns its bytes (*n). */
static unsigned char *cache_bytes(const struct trace *t, const char *path, size_t *n)
{
    char why[256];
    assert_true(tracecache_write_file(path, &KEY, t, NULL, why, sizeof(why)));
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *buf = xmalloc(1 << 20);
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static void put_bytes(const char *path, const unsigned char *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

/* Read path back, expecting a refusal whose reason holds `reason`. */
static void assert_refused(const char *path, const struct tracecache_key *key, const char *reason)
{
    char why[256] = "";
    struct trace *back = NULL;
    assert_int_equal(tracecache_read_file(path, key, "x", &back, why, sizeof(why)), TRACECACHE_BAD);
    assert_null(back);
    if (!strstr(why, reason))
        fail_msg("refused for \"%s\", expected \"%s\"", why, reason);
}

static void test_damaged_files(void **state)
{
    (void)state;
    struct trace *t = load_indexed();
    char *path = tmp_path("b.ttc");
    size_t n;
    unsigned char *good = cache_bytes(t, path, &n);
    unsigned char *bad = xmalloc(n);
    char why[256];
    struct trace *back = NULL;

    /* No file: missing, not bad. */
    char *none = tmp_path("none.ttc");
    assert_int_equal(tracecache_read_file(none, &KEY, "x", &back, why, sizeof(why)),
                     TRACECACHE_MISSING);
    free(none);

    /* Cut anywhere: before the header's end, in the table, in a section. */
    size_t cuts[] = {0, 7, 40, 200, n / 2, n - 1};
    for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
        put_bytes(path, good, cuts[i]);
        assert_refused(path, &KEY, i < 3 ? "too short" : "");
    }
    put_bytes(path, good, n / 2);
    assert_refused(path, &KEY, "bytes long");
    /* Any byte flipped, in the header, the table or a section. */
    for (size_t at = 0; at < n; at += 1 + at / 8) {
        memcpy(bad, good, n);
        bad[at] ^= 0x10;
        put_bytes(path, bad, n);
        char why2[256] = "";
        assert_int_equal(tracecache_read_file(path, &KEY, "x", &back, why2, sizeof(why2)),
                         TRACECACHE_BAD);
    }
    /* Another version, another file's key. */
    memcpy(bad, good, n);
    bad[8] = 99;
    put_bytes(path, bad, n);
    assert_refused(path, &KEY, "version 99");
    put_bytes(path, good, n);
    struct tracecache_key other = KEY;
    other.edges++;
    assert_refused(path, &other, "another file");
    other = KEY;
    other.options = TRACECACHE_LINK_REQUIRE_FLOW;
    assert_refused(path, &other, "another file");
    /* Not a cache at all. */
    memset(bad, 'x', n);
    put_bytes(path, bad, n);
    assert_refused(path, &KEY, "not a torchtop cache");
    /* And the good one still reads. */
    put_bytes(path, good, n);
    assert_int_equal(tracecache_read_file(path, &KEY, "x", &back, why, sizeof(why)), TRACECACHE_OK);
    trace_free(back);
    free(good);
    free(bad);
    trace_free(t);
    unlink(path);
    free(path);
}

/* An inconsistency the checksums cannot see (a cache made to pass them):
 * each refused by tracecache_check, with its reason. */
static void expect_check_fails(void (*spoil)(struct trace *), const char *reason)
{
    struct trace *t = load_indexed();
    spoil(t);
    char why[256] = "";
    assert_false(tracecache_check(t, why, sizeof(why)));
    if (!strstr(why, reason))
        fail_msg("refused for \"%s\", expected \"%s\"", why, reason);
    /* The tree's links are not walked by trace_free. */
    trace_free(t);
}

static void spoil_name(struct trace *t)
{
    t->ev.v[1].name = (uint32_t)strtab_count(&t->strs);
}
static void spoil_kind(struct trace *t)
{
    t->ev.v[1].kind = EVK__COUNT;
}
static void spoil_aux(struct trace *t)
{
    uint32_t i = find_event(t, "aten::mm");
    t->ev.v[i].aux = (uint32_t)t->ops.n;
}
static void spoil_parent_loop(struct trace *t)
{
    uint32_t a = find_event(t, "aten::linear"), b = find_event(t, "aten::mm");
    t->ev.v[a].parent = b; /* b's parent is a */
}
static void spoil_child_twice(struct trace *t)
{
    uint32_t a = find_event(t, "aten::linear"), b = find_event(t, "aten::add");
    t->ev.v[b].first_child = t->ev.v[a].first_child;
}
static void spoil_sibling_loop(struct trace *t)
{
    uint32_t a = find_event(t, "aten::add");
    t->ev.v[a].next_sibling = t->rows.v[t->ev.v[a].row].first_root;
}
static void spoil_py_loop(struct trace *t)
{
    uint32_t a = find_event(t, "train.py(1): step");
    uint32_t b = find_event(t, "nn.Module: Linear_0");
    t->ev.v[a].aux = b; /* its parent frame */
}
static void spoil_order(struct trace *t)
{
    uint32_t k = find_event(t, "gemm");
    uint32_t r = t->ev.v[find_event(t, "aten::add")].row;
    t->rows.v[r].order[0] = k; /* on another row */
}
static void spoil_launch(struct trace *t)
{
    uint32_t k = find_event(t, "gemm");
    t->gpus.v[t->ev.v[k].aux].launch = find_event(t, "aten::mm"); /* not a launch */
}
static void spoil_launch_gpu(struct trace *t)
{
    t->launch_gpu[0] = find_event(t, "aten::mm");
}
static void spoil_arg_key(struct trace *t)
{
    uint32_t i = find_event(t, "aten::mm");
    /* count 1, then a key id past the strings (an int, payload 0). */
    uint32_t at = t->ev.v[i].args;
    t->argbuf.v[at] = 1;
    t->argbuf.v[at + 1] = 0xF8;
    t->argbuf.v[at + 2] = 0x7F;
    t->argbuf.v[at + 3] = 0;
}
static void spoil_arg_count(struct trace *t)
{
    uint32_t i = find_event(t, "aten::add");
    t->ev.v[i].args = (uint32_t)t->argbuf.n - 1;
    t->argbuf.v[t->argbuf.n - 1] = 5; /* 5 args, none there */
}
static void spoil_raw(struct trace *t)
{
    t->raws.v[t->others.v[0]].at = t->json_bytes;
    t->raws.v[t->others.v[0]].len = 10;
}
static void spoil_val(struct trace *t)
{
    t->ops.v[0].input_dims = (uint32_t)strtab_count(&t->vals);
}

static void test_checks(void **state)
{
    (void)state;
    expect_check_fails(spoil_name, "event 1 points outside the arrays");
    expect_check_fails(spoil_kind, "event 1 points outside the arrays");
    expect_check_fails(spoil_aux, "outside its side table");
    expect_check_fails(spoil_parent_loop, "parents loop");
    expect_check_fails(spoil_child_twice, "reached twice");
    expect_check_fails(spoil_sibling_loop, "the call tree loops");
    expect_check_fails(spoil_py_loop, "Python frames' parents loop");
    expect_check_fails(spoil_order, "lists an event not on it");
    expect_check_fails(spoil_launch, "GPU record");
    expect_check_fails(spoil_launch_gpu, "is not a GPU event");
    expect_check_fails(spoil_arg_key, "arguments of event");
    expect_check_fails(spoil_arg_count, "arguments of event");
    expect_check_fails(spoil_raw, "kept text");
    expect_check_fails(spoil_val, "op record");
}

/* Files in the folder of path whose names start with prefix. */
static int files_named(const char *path, const char *prefix)
{
    char *dir = xstrdup(path);
    *strrchr(dir, '/') = '\0';
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    free(dir);
    return n;
}

/* A cache write to path under KEY, as the load hands one out. */
static struct tracecache_later *later_to(const char *path, struct strbuf *notes)
{
    struct tracecache tc = {
        .active = true,
        .path = xstrdup(path),
        .dir = xstrdup(path),
        .max_bytes = UINT64_MAX,
        .key = KEY,
        .notes = notes,
    };
    *strrchr(tc.dir, '/') = '\0';
    struct tracecache_later *l = tracecache_later_new(&tc);
    assert_false(tc.active); /* taken over */
    assert_null(tc.path);
    return l;
}

/* A stopped write leaves nothing; a write put off is made here, or behind
 * the caller, or dropped when never started; an abandoned one leaves a
 * whole cache or none, and never its temporary file. */
static void test_later(void **state)
{
    (void)state;
    struct trace *t = load_indexed();
    char why[256] = "";
    char *path = tmp_path("later.ttc");
    struct trace *back = NULL;

    volatile int stop = 1;
    assert_false(tracecache_write_file(path, &KEY, t, &stop, why, sizeof(why)));
    assert_non_null(strstr(why, strerror(ECANCELED)));
    assert_int_equal(files_named(path, "later.ttc"), 0);
    assert_int_equal(files_named(path, ".later.ttc"), 0);

    struct strbuf notes = STRBUF_INIT;
    tracecache_later_write(later_to(path, &notes), t);
    assert_int_equal(tracecache_read_file(path, &KEY, "x", &back, why, sizeof(why)), TRACECACHE_OK);
    assert_same_trace(t, back);
    trace_free(back);
    unlink(path);

    struct tracecache_later *l = later_to(path, &notes);
    tracecache_later_start(l, t);
    assert_null(tracecache_later_finish(l, false));
    assert_int_equal(tracecache_read_file(path, &KEY, "x", &back, why, sizeof(why)), TRACECACHE_OK);
    assert_same_trace(t, back);
    trace_free(back);
    unlink(path);

    assert_null(tracecache_later_finish(later_to(path, &notes), false)); /* never started */
    assert_int_equal(files_named(path, "later.ttc"), 0);

    for (int i = 0; i < 20; i++) {
        l = later_to(path, &notes);
        tracecache_later_start(l, t);
        assert_null(tracecache_later_finish(l, true));
        assert_int_equal(files_named(path, ".later.ttc"), 0);
        enum tracecache_result r = tracecache_read_file(path, &KEY, "x", &back, why, sizeof(why));
        assert_true(r == TRACECACHE_OK || r == TRACECACHE_MISSING);
        if (r == TRACECACHE_OK) {
            assert_same_trace(t, back);
            trace_free(back);
        }
        unlink(path);
    }
    assert_int_equal(notes.len, 0);

    /* A write that fails: its note comes back from finish, not from the
     * thread. */
    char *file = tmp_path("a-file"), *nowhere = xasprintf("%s/sub/later.ttc", file);
    put_bytes(file, (const unsigned char *)"x", 1); /* a folder no one can make */
    l = later_to(nowhere, &notes);
    tracecache_later_start(l, t);
    char *n = tracecache_later_finish(l, false);
    assert_non_null(n);
    assert_non_null(strstr(n, "cannot make the cache folder"));
    free(n);
    assert_int_equal(notes.len, 0);
    unlink(file);
    free(file);
    free(nowhere);
    sb_free(&notes);
    trace_free(t);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_damaged_files),
        cmocka_unit_test(test_checks),
        cmocka_unit_test(test_later),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
