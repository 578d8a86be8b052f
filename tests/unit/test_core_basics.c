/* Unit tests: arena, strtab, hmap, interval algebra, JSON scanning,
 * utf8, display, argpack, tables and their printers. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/jsonscan_ref.h"
#include "core/base/arena.h"
#include "core/trace/argpack.h"
#include "core/base/display.h"
#include "core/base/interval.h"
#include "core/base/rangeunion.h"
#include "core/trace/jsonscan.h"
#include "core/analysis/opcat.h"
#include "core/base/strtab.h"
#include "core/report/tabfmt.h"
#include "core/base/table.h"
#include "core/base/hmap.h"
#include "core/base/sort.h"
#include "core/base/utf8.h"

/* The merge sort against a stable reference (qsort by key, then position)
 * on inputs of every shape it takes apart: sorted, a few runs, exactly
 * SORT_MAX_RUNS runs and one more (the tournament and the pairwise
 * merges), descending, random; keys from a small range, so that ties test
 * stability. */
struct sort_item {
    int key;
    unsigned pos;
};

static inline bool sort_item_less(const struct sort_item *a, const struct sort_item *b)
{
    return a->key < b->key;
}

SORT_DEFINE(sort_items_stable, struct sort_item, sort_item_less)

static int sort_item_cmp_ref(const void *pa, const void *pb)
{
    const struct sort_item *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* An index sort: indices ordered by the keys they name, as a row's order. */
static inline bool sort_idx_less(const int *keys, const uint32_t *a, const uint32_t *b)
{
    return keys[*a] < keys[*b];
}

SORT_DEFINE_CTX(sort_idx, uint32_t, int, sort_idx_less)

static void test_sort_shapes(void **state)
{
    (void)state;
    const size_t runs_cases[] = {1, 2, 3, 7, 100, SORT_MAX_RUNS, SORT_MAX_RUNS + 1, 3000};
    const size_t n_cases[] = {1, 2, 23, 24, 25, 1000, 20000};
    unsigned seed = 12345;
    for (size_t ni = 0; ni < ARRAY_SIZE(n_cases); ni++) {
        for (size_t ri = 0; ri < ARRAY_SIZE(runs_cases) + 2; ri++) {
            size_t n = n_cases[ni];
            struct sort_item *a = malloc(n * sizeof(*a)), *ref = malloc(n * sizeof(*ref));
            int *keys = malloc(n * sizeof(*keys));
            uint32_t *idx = malloc(n * sizeof(*idx));
            for (size_t i = 0; i < n; i++) {
                seed = seed * 1103515245u + 12345u;
                a[i].key = (int)((seed >> 16) % 97);
                a[i].pos = (unsigned)i;
            }
            if (ri < ARRAY_SIZE(runs_cases)) {
                /* Cut into runs, each sorted by key (positions stay their own). */
                size_t runs = runs_cases[ri] < n ? runs_cases[ri] : n;
                for (size_t r = 0; r < runs; r++) {
                    size_t lo = n * r / runs, hi = n * (r + 1) / runs;
                    int v = 0;
                    for (size_t i = lo; i < hi; i++) {
                        v += a[i].key % 3; /* non-decreasing, with ties */
                        a[i].key = v;
                    }
                }
            } else if (ri == ARRAY_SIZE(runs_cases)) {
                for (size_t i = 0; i < n; i++)
                    a[i].key = (int)(n - i) / 2; /* descending, pairs of ties */
            }
            for (size_t i = 0; i < n; i++) {
                keys[i] = a[i].key;
                idx[i] = (uint32_t)i;
            }
            memcpy(ref, a, n * sizeof(*a));
            qsort(ref, n, sizeof(*ref), sort_item_cmp_ref);
            sort_items_stable(a, n);
            sort_idx(idx, n, keys);
            for (size_t i = 0; i < n; i++) {
                assert_int_equal(a[i].key, ref[i].key);
                assert_int_equal(a[i].pos, ref[i].pos);
                assert_int_equal(idx[i], ref[i].pos);
            }
            free(a);
            free(ref);
            free(keys);
            free(idx);
        }
    }
}

static void test_arena(void **state)
{
    struct arena a;
    arena_init(&a, 128);
    char *p = arena_alloc(&a, 10);
    char *q = arena_alloc(&a, 1000); /* larger than a chunk */
    char *r = arena_alloc(&a, 10);
    memset(p, 1, 10);
    memset(q, 2, 1000);
    memset(r, 3, 10);
    assert_int_equal(p[9], 1);
    assert_int_equal(q[999], 2);
    assert_true(((uintptr_t)r & 7) == 0);
    assert_string_equal(arena_strndup(&a, "hello world", 5), "hello");
    arena_reset(&a);
    assert_int_equal(a.used, 0);
    arena_free(&a);
}

static void test_strtab(void **state)
{
    struct strtab st;
    strtab_init(&st);
    assert_int_equal(strtab_intern(&st, "", 0), 0);
    uint32_t a = strtab_intern_cstr(&st, "aten::mm");
    uint32_t b = strtab_intern_cstr(&st, "aten::addmm");
    assert_int_not_equal(a, b);
    assert_int_equal(strtab_intern_cstr(&st, "aten::mm"), a);
    assert_string_equal(strtab_str(&st, b), "aten::addmm");
    /* Embedded NUL bytes and growth past many rehashes. */
    uint32_t z = strtab_intern(&st, "a\0b", 3);
    assert_int_equal(strtab_len(&st, z), 3);
    assert_int_not_equal(z, strtab_intern(&st, "a", 1));
    char buf[32];
    for (int i = 0; i < 50000; i++) {
        snprintf(buf, sizeof(buf), "name%d", i);
        strtab_intern_cstr(&st, buf);
    }
    assert_int_equal(strtab_find(&st, "name49999", 9) != IDX_NONE, 1);
    assert_int_equal(strtab_find(&st, "name50000", 9), IDX_NONE);
    assert_string_equal(strtab_str(&st, a), "aten::mm");
    strtab_free(&st);
}

static void test_hmap_u64(void **state)
{
    struct hmap m;
    hmap_init(&m, 4);
    for (uint64_t k = 0; k < 10000; k++)
        hmap_put(&m, k * 7919 + (1ULL << 63), (uint32_t)k);
    for (uint64_t k = 0; k < 10000; k++)
        assert_int_equal(hmap_get(&m, k * 7919 + (1ULL << 63)), k);
    assert_int_equal(hmap_get(&m, 3), IDX_NONE);
    assert_int_equal(hmap_put_first(&m, 1ULL << 63, 99), 0);
    hmap_free(&m);
}

static void test_interval(void **state)
{
    struct ival v[] = {{10, 20}, {0, 5}, {5, 8}, {15, 30}, {40, 40}, {50, 60}};
    size_t n = ival_normalize(v, ARRAY_SIZE(v));
    /* [0,8) [10,30) [50,60): touching ranges merge, empty ones go. */
    assert_int_equal(n, 3);
    assert_int_equal(v[0].start, 0);
    assert_int_equal(v[0].end, 8);
    assert_int_equal(ival_length(v, n), 8 + 20 + 10);
    struct ival b[] = {{2, 4}, {25, 55}};
    struct ival out[8];
    size_t k = ival_subtract(v, n, b, 2, out);
    /* [0,2) [4,8) [10,25) [55,60) */
    assert_int_equal(k, 4);
    assert_int_equal(ival_length(out, k), 2 + 4 + 15 + 5);
    assert_int_equal(ival_intersect_length(v, n, b, 2), 2 + 5 + 5);
    struct ival u[] = {{0, 10}, {0, 10}, {5, 15}};
    assert_int_equal(ival_union_length(u, 3), 15);
}

/* Union lengths of index ranges at once equal ival_union_length of each
 * slice: random intervals (empty ones, touching ones, one spanning the
 * whole time range, 2^63 - 1 ns) and random, nested and empty ranges. */
static void test_range_union(void **state)
{
    (void)state;
    uint64_t seed = 42;
#define RND() (seed = seed * 6364136223846793005ULL + 1442695040888963407ULL, seed >> 33)
    for (int round = 0; round < 200; round++) {
        size_t n = RND() % 40, nq = 1 + RND() % 30;
        struct ival iv[40], tmp[40];
        for (size_t i = 0; i < n; i++) {
            int64_t a = (int64_t)(RND() % 50), b = a + (int64_t)(RND() % 12) - 2;
            iv[i] = round % 10 == 0 && i % 3 == 0
                        ? (struct ival){-(INT64_C(1) << 62), (INT64_C(1) << 62) - 1}
                        : (struct ival){a, b};
        }
        struct rangeunion_query q[30];
        for (size_t k = 0; k < nq; k++) {
            uint32_t lo = (uint32_t)(RND() % (n + 1)), hi = (uint32_t)(RND() % (n + 1));
            q[k] = lo <= hi ? (struct rangeunion_query){lo, hi} : (struct rangeunion_query){hi, lo};
        }
        int64_t out[30];
        rangeunion_lengths(iv, n, q, nq, out);
        for (size_t k = 0; k < nq; k++) {
            size_t m = q[k].hi - q[k].lo;
            memcpy(tmp, iv + q[k].lo, m * sizeof(*tmp));
            assert_int_equal(out[k], ival_union_length(tmp, m));
        }
    }
#undef RND
}

/* End of the value at the start of s (offset), or -1 when incomplete. */
static long scan_end(const char *s, size_t len)
{
    const char *q = json_scan_value(s, s + len, false);
    const char *r = json_scan_value_bytewise(s, s + len, false);
    assert_ptr_equal(q, r);
    return q ? (long)(q - s) : -1;
}

static void test_json_scan(void **state)
{
    static const struct {
        const char *text;
        long end;
    } cases[] = {
        {"{}", 2},
        {"{\"a\":[1,2,{\"b\":\"}]\"}]} tail", 22},
        {"{\"k\":\"a \\\"}\\\\\"}, next", 15},
        {"{\"name\":\"x\\\\\\\"]\",\"args\":{\"Input Dims\":[[1,2],[3]]}},{", 51},
        {"[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]", 40},
        {"{\"a\":\"0123456789abcdef0123456789\\\\\",\"b\":1}", 42},
        {"{\"a\":\"unterminated", -1},
        {"{\"a\":{\"b\":[1,2,3]}", -1},
        {"{\"a\":\"\\", -1},
        {"\"str\\\"ing\" x", 10},
        {"12.5e3,", 6},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        assert_int_equal(scan_end(cases[i].text, strlen(cases[i].text)), cases[i].end);

    /* Random documents over the bytes that matter, every length and
     * alignment: the block scanner agrees with the bytewise one. The
     * alphabets: backslashes in most 64-byte blocks; none, so that whole
     * blocks are scanned, deep ones by their bracket counts; and text with
     * a rare backslash, as traces are. */
    static const char *const alphabets[] = {
        "{}[]\"\\\\\\ax,:",
        "{{{{[[}}]]\"\"ax,:",
        "{}[]\"\"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,:\\",
    };
    char buf[700];
    unsigned seed = 12345;
    for (size_t a = 0; a < ARRAY_SIZE(alphabets); a++) {
        size_t na = strlen(alphabets[a]);
        for (int iter = 0; iter < 20000; iter++) {
            size_t len = 1 + (size_t)(iter % (a ? 690 : 120));
            buf[0] = iter & 1 ? '{' : '[';
            for (size_t i = 1; i < len; i++) {
                seed = seed * 1103515245u + 12345u;
                buf[i] = alphabets[a][(seed >> 16) % na];
            }
            scan_end(buf, len);
        }
    }

    /* "\u0000" escapes: only where the backslash is not itself escaped. */
    char esc[] = "\"a\\u0000\\\\u0000\\\\\\u0000\\u000\"";
    const char *e = esc + strlen(esc);
    assert_ptr_equal(json_find_nul_escape(esc, esc, e), esc + 2);
    assert_ptr_equal(json_find_nul_escape(esc, esc + 3, e), esc + 17);
    assert_ptr_equal(json_find_nul_escape(esc, esc + 18, e), NULL);
    assert_int_equal(json_replace_nul_escapes(esc, strlen(esc)), 2);
    assert_string_equal(esc, "\"a\\u2400\\\\u0000\\\\\\u2400\\u000\"");
}

static void test_utf8_display(void **state)
{
    uint32_t cp;
    assert_int_equal(utf8_decode("\xc3\xa9", 2, &cp), 2);
    assert_int_equal(cp, 0xe9);
    assert_int_equal(utf8_decode("\xc0\xaf", 2, &cp), 0);         /* overlong */
    assert_int_equal(utf8_decode("\xed\xa0\x80", 3, &cp), 0);     /* surrogate */
    assert_int_equal(utf8_decode("\xf4\x90\x80\x80", 4, &cp), 0); /* > U+10FFFF */
    /* The first bad byte, wherever it falls in the eight-byte steps. */
    char text[40];
    for (size_t at = 0; at < 24; at++) {
        memset(text, 'a', sizeof(text));
        memcpy(text + 4, "\xc3\xa9\xe2\x82\xac", 5); /* é€ */
        assert_int_equal(utf8_find_invalid(text, sizeof(text)), sizeof(text));
        text[at < 4 ? at : at + 5] = '\xc3'; /* a lead byte without its continuation */
        assert_int_equal(utf8_find_invalid(text, sizeof(text)), at < 4 ? at : at + 5);
    }
    /* and in the 32-byte steps through ASCII */
    char ascii[100];
    for (size_t at = 0; at < sizeof(ascii); at++) {
        memset(ascii, 'a', sizeof(ascii));
        assert_int_equal(utf8_find_invalid(ascii, sizeof(ascii)), sizeof(ascii));
        ascii[at] = '\xff';
        assert_int_equal(utf8_find_invalid(ascii, sizeof(ascii)), at);
        ascii[at] = '\xc3';
        assert_int_equal(utf8_find_invalid(ascii, sizeof(ascii)), at);
    }
    assert_int_equal(utf8_find_invalid("ab\xe2\x82", 4), 2); /* cut sequence */
    assert_int_equal(utf8_find_invalid("", 0), 0);
    struct strbuf sb = STRBUF_INIT;
    const char nasty[] = "a\x1b[31mred\x07\xff\xe2\x80\xae"
                         "evil\xc2\x9b";
    display_sanitize(&sb, nasty, sizeof(nasty) - 1);
    assert_null(strchr(sb_str(&sb), '\x1b'));
    assert_null(strchr(sb_str(&sb), '\x07'));
    assert_string_equal(sb_str(&sb), "a\\x1b[31mred\\x07\xef\xbf\xbd<U+202E>evil\\u009b");
    assert_true(utf8_valid(sb.s, sb.len));
    sb_clear(&sb);
    size_t w = display_fit(&sb, "at::native::vectorized_elementwise_kernel", 41, 20, true, true);
    assert_int_equal(w, 20);
    assert_string_equal(sb_str(&sb), "at::native~se_kernel");
    sb_free(&sb);
}

static void test_argpack(void **state)
{
    argbytes_t b = {0};
    argpack_put_varint(&b, 5);
    struct argval in[5] = {
        {.key = 1, .type = ARG_INT, .v.i = -42},
        {.key = 2, .type = ARG_UINT, .v.u = 10159970886766084423ULL},
        {.key = 3, .type = ARG_DOUBLE, .v.d = 0.125},
        {.key = 4, .type = ARG_TRUE},
        {.key = 5, .type = ARG_STR, .v.s = 77},
    };
    for (int i = 0; i < 5; i++)
        argpack_put(&b, &in[i]);
    struct trace t = {0};
    struct event e = {.args = 0};
    t.ev.v = &e;
    t.ev.n = 1;
    t.argbuf.v = b.v;
    t.argbuf.n = b.n;
    struct argiter it;
    struct argval a;
    argpack_iter_init(&it, &t, 0);
    for (int i = 0; i < 5; i++) {
        assert_true(argpack_iter_next(&it, &a));
        assert_int_equal(a.key, in[i].key);
        assert_int_equal(a.type, in[i].type);
    }
    assert_false(argpack_iter_next(&it, &a));
    argpack_iter_init(&it, &t, 0);
    argpack_iter_next(&it, &a);
    assert_int_equal(a.v.i, -42);
    argpack_iter_next(&it, &a);
    assert_true(a.v.u == 10159970886766084423ULL);
    /* A truncated pack ends the iteration instead of reading past it. */
    t.argbuf.n = 3;
    argpack_iter_init(&it, &t, 0);
    int n = 0;
    while (argpack_iter_next(&it, &a))
        n++;
    assert_true(n < 5);
    VEC_FREE(&b);
}

static struct table *sample_table(void)
{
    static const struct table_col cols[] = {
        {"name", "name", COL_TEXT, 0, COLF_WIDE},
        {"count", "count", COL_INT, 0, 0},
        {"time ms", "time", COL_FLOAT, 3, 0},
    };
    struct table *t = table_new("sample", "Sample", cols, 3);
    size_t r = table_add_row(t);
    table_set_text(t, r, 0, "a,b \"quoted\"\nline|pipe");
    table_set_int(t, r, 1, 2);
    table_set_float(t, r, 2, 1.5);
    r = table_add_row(t);
    table_set_text(t, r, 0, "zeta");
    table_set_int(t, r, 1, 10);
    r = table_add_row(t);
    table_set_text(t, r, 0, "alpha");
    table_set_int(t, r, 1, 5);
    table_set_float(t, r, 2, 0.25);
    return t;
}

static void test_table_sort_and_formats(void **state)
{
    struct table *t = sample_table();
    table_sort(t, 2, true);
    /* Empty cells sort last in both directions. */
    assert_string_equal(table_cell(t, 0, 0).s, "a,b \"quoted\"\nline|pipe");
    assert_string_equal(table_cell(t, 2, 0).s, "zeta");
    table_sort(t, 2, false);
    assert_string_equal(table_cell(t, 0, 0).s, "alpha");
    assert_string_equal(table_cell(t, 2, 0).s, "zeta");
    table_sort(t, 1, true);
    assert_int_equal(table_cell(t, 0, 1).i, 10);

    struct strbuf sb = STRBUF_INIT;
    struct tabfmt_opts o = {.format = FMT_CSV};
    tabfmt_table(&sb, t, &o);
    assert_non_null(strstr(sb_str(&sb), "\"a,b \"\"quoted\"\"\\nline|pipe\",2,1.5\r\n"));
    assert_non_null(strstr(sb_str(&sb), "zeta,10,\r\n"));
    sb_clear(&sb);
    o.format = FMT_JSON;
    tabfmt_table(&sb, t, &o);
    assert_non_null(strstr(sb_str(&sb), "\"name\": \"a,b \\\"quoted\\\"\\nline|pipe\""));
    assert_non_null(strstr(sb_str(&sb), "\"time ms\": null"));
    sb_clear(&sb);
    o.format = FMT_MD;
    tabfmt_table(&sb, t, &o);
    assert_non_null(strstr(sb_str(&sb), "a,b \"quoted\"\\\\nline\\|pipe"));
    sb_clear(&sb);
    o.format = FMT_TEXT;
    o.top = 1;
    tabfmt_table(&sb, t, &o);
    assert_non_null(strstr(sb_str(&sb), "(2 more rows)"));
    assert_null(strchr(sb_str(&sb) + 7, '\r'));
    sb_free(&sb);
    table_free(t);
}

/* A cumulative percentage follows the rows in whatever order they are
 * sorted into (the report's --sort, the explorer's sort keys). */
static void test_table_cumulative(void **state)
{
    static const struct table_col cols[] = {
        {"name", NULL, COL_TEXT, 0, COLF_ASC},
        {"count", NULL, COL_INT, 0, 0},
        {"pct", NULL, COL_PERCENT, 2, 0},
        {"cum", NULL, COL_PERCENT, 2, 0},
    };
    static const struct {
        const char *name;
        int64_t count;
        double pct;
    } rows[] = {{"a", 1, 50}, {"b", 7, 30}, {"c", 3, 20}};
    struct table *t = table_new("cumul", NULL, cols, 4);
    for (size_t i = 0; i < 3; i++) {
        size_t r = table_add_row(t);
        table_set_text(t, r, 0, rows[i].name);
        table_set_int(t, r, 1, rows[i].count);
        table_set_float(t, r, 2, rows[i].pct);
    }
    table_set_cumulative(t, 3, 2);
    assert_true(t->cols[3].flags & COLF_CUMUL);
    assert_true(table_cell(t, 1, 3).f == 80 && table_cell(t, 2, 3).f == 100);
    table_sort(t, 1, true);
    assert_string_equal(table_cell(t, 0, 0).s, "b");
    assert_true(table_cell(t, 0, 3).f == 30);
    assert_true(table_cell(t, 1, 3).f == 50);
    assert_true(table_cell(t, 2, 3).f == 100);
    table_sort(t, 0, false);
    assert_true(table_cell(t, 0, 3).f == 50 && table_cell(t, 1, 3).f == 80);
    table_free(t);
}

/* Terminal controls beyond C0 (DEL, C1 such as U+009B CSI, bidi overrides
 * and isolates) are escaped in every format: \uXXXX in JSON, which reads
 * back to the exact text; shown escaped in CSV and Markdown. */
static void test_formats_escape_controls(void **state)
{
    static const char name[] = "a\x7f"
                               "b\xc2\x9b"
                               "31mc\xe2\x80\xae"
                               "d\xe2\x81\xa6"
                               "e";
    static const char *const raw[] = {"\x7f", "\xc2\x9b", "\xe2\x80\xae", "\xe2\x81\xa6"};
    static const struct table_col cols[] = {{"name", NULL, COL_TEXT, 0, 0}};
    struct table *t = table_new("controls", NULL, cols, 1);
    table_set_text(t, table_add_row(t), 0, name);
    struct strbuf sb = STRBUF_INIT;
    struct tabfmt_opts o = {.format = FMT_JSON};
    tabfmt_table(&sb, t, &o);
    assert_non_null(strstr(sb_str(&sb), "\"name\": \"a\\u007fb\\u009b31mc\\u202ed\\u2066e\""));
    for (int f = FMT_TEXT; f <= FMT_MD; f++) {
        sb_clear(&sb);
        o.format = (enum tab_format)f;
        tabfmt_table(&sb, t, &o);
        for (size_t k = 0; k < ARRAY_SIZE(raw); k++)
            assert_null(strstr(sb_str(&sb), raw[k]));
    }
    sb_clear(&sb);
    sb_put_json_string(&sb, "\xe2\x80\xa8\xe2\x80\x8f\xc2\xa0", 8);
    assert_string_equal(sb_str(&sb), "\"\\u2028\\u200f\xc2\xa0\"");
    sb_free(&sb);
    table_free(t);
}

/* A cell of several lines (source frames): its lines after the first on
 * rows of their own in text and Markdown, which --top does not count; one
 * quoted CSV field with real newlines, each line sanitized; JSON \n. */
static void test_table_lines(void **state)
{
    static const struct table_col cols[] = {
        {"name", NULL, COL_TEXT, 0, 0},
        {"frames", NULL, COL_TEXT, 0, COLF_LINES},
    };
    struct table *t = table_new("lines", "Lines", cols, 2);
    size_t r = table_add_row(t);
    table_set_text(t, r, 0, "op");
    table_set_text(t, r, 1, "f1\nf2\x1b\nf3");
    r = table_add_row(t);
    table_set_text(t, r, 0, "next");
    table_set_text(t, r, 1, "g1");
    struct strbuf sb = STRBUF_INIT;
    struct tabfmt_opts o = {.format = FMT_TEXT, .top = 1};
    tabfmt_table(&sb, t, &o);
    assert_string_equal(sb_str(&sb), "Lines\n"
                                     "name  frames\n"
                                     "----  ------\n"
                                     "op    f1\n"
                                     "      f2\\x1b\n"
                                     "      f3\n"
                                     "(1 more row)\n");
    sb_clear(&sb);
    o.format = FMT_MD;
    tabfmt_table(&sb, t, &o);
    assert_non_null(
        strstr(sb_str(&sb), "| op | f1 |\n|  | f2\\\\x1b |\n|  | f3 |\n\n(1 more row)"));
    sb_clear(&sb);
    o.format = FMT_CSV;
    o.top = 0;
    tabfmt_table(&sb, t, &o);
    assert_string_equal(sb_str(&sb), "name,frames\r\nop,\"f1\nf2\\x1b\nf3\"\r\nnext,g1\r\n");
    sb_clear(&sb);
    o.format = FMT_JSON;
    tabfmt_table(&sb, t, &o);
    assert_non_null(strstr(sb_str(&sb), "\"frames\": \"f1\\nf2\\u001b\\nf3\""));
    sb_free(&sb);
    table_free(t);
}

/* The column naming a row: COLF_NAME, else the first wide text column,
 * else the first text column. */
static void test_table_name_col(void **state)
{
    struct table_col cols[] = {
        {"cat", NULL, COL_TEXT, 0, 0},
        {"launcher", NULL, COL_TEXT, 0, COLF_WIDE},
        {"kernel", NULL, COL_TEXT, 0, COLF_WIDE | COLF_NAME},
        {"n", NULL, COL_INT, 0, 0},
    };
    struct table *t = table_new("t", "t", cols, 4);
    assert_int_equal(table_name_col(t), 2);
    t->cols[2].flags = COLF_WIDE;
    assert_int_equal(table_name_col(t), 1);
    t->cols[1].flags = t->cols[2].flags = 0;
    assert_int_equal(table_name_col(t), 0);
    table_free(t);
}

static void test_opcat(void **state)
{
    assert_string_equal(opcat_name(opcat_of_name("aten::addmm")), "GEMM");
    assert_string_equal(opcat_name(opcat_of_name("aten::miopen_convolution")), "CONV_fwd");
    assert_string_equal(opcat_name(opcat_of_name("triton_poi_fused_add_0")), "triton");
    assert_string_equal(opcat_name(opcat_of_name("record_param_comms")), "record_param_comms");
    /* TraceLens's newer mappings, spread over the sorted table. */
    static const char *const newer[][2] = {
        {"ConvBiasReLU_Backward", "CONV_bwd"},
        {"_C_cache_ops::reshape_and_cache_flash", "InferenceAttention"},
        {"aiter::_groupnorm_run", "NORM_fwd"},
        {"aiter::rmsnorm2d_fwd_with_add_ck", "RMSNorm"},
        {"aten::upsample_bilinear2d", "elementwise"},
        {"aten::upsample_nearest1d", "elementwise"},
        {"aten::upsample_nearest3d", "elementwise"},
        {"flash_attn::_flash_attn_varlen_forward", "SDPA_fwd"},
        {"vllm::rocm_aiter_triton_add_rmsnorm_pad", "RMSNorm"},
        {"vllm::unified_attention_with_output", "InferenceAttention"},
        {"CrossEntropyFunctionBackward", "CrossEntropy_bwd"},
        {"DaoAILab::_causal_conv1d_fwd_cpp", "SSM_fwd"},
        {"FusedRoPEFunc", "RoPE_fwd"},
        {"MoEDispatchBackward", "MoE_comm_bwd"},
        {"TokenPermuteMaskMap", "MoE_comm_fwd"},
        {"_Linear_yfwd_mm", "GEMM"},
        {"_moe_C::moe_align_block_size", "MoE_aux"},
        {"aiter::ck_moe_stage1", "MoE_unfused"},
        {"aiter::fmoe_g1u1", "MoE_fused"},
        {"aiter::topk_softmax", "MoE_aux"},
        {"primus_turbo::grouped_gemm_variable_k", "GroupedGEMM_fwd"},
        {"sgl_kernel::silu_and_mul", "elementwise"},
        {"vllm::rocm_unquantized_gemm", "GEMM"},
        {"zzz::not_an_op", "other"},
    };
    for (size_t i = 0; i < sizeof(newer) / sizeof(newer[0]); i++)
        assert_string_equal(opcat_name(opcat_of_name(newer[i][0])), newer[i][1]);
    assert_string_equal(
        opcat_name(opcat_classify(
            "aten::fill_", "void at::native::vectorized_elementwise_kernel<4, FillFunctor>")),
        "elementwise");
    assert_string_equal(
        opcat_name(opcat_classify("aten::all", "void at::native::reduce_kernel<512>")), "reduce");
    assert_string_equal(opcat_name(opcat_classify("aten::foo", "ampere_sgemm_128x64_tn")), "other");
}

/* A value whose input comes in pieces ends where one scan of the whole
 * ends, wherever the pieces are cut (inside strings, between a backslash
 * and what it escapes, inside scalars) and wherever the buffer moves
 * between them. */
static void test_json_scan_resume(void **state)
{
    static const char alphabet[] = "{}[]\"\"\\\\\\ax,: ";
    char buf[2][200];
    unsigned seed = 4242;
    for (int iter = 0; iter < 30000; iter++) {
        size_t len = 1 + (size_t)(iter % 150);
        buf[0][0] = "{[\"1"[iter % 4];
        for (size_t i = 1; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[0][i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
        }
        memcpy(buf[1], buf[0], len);
        const char *whole = json_scan_value(buf[0], buf[0] + len, true);
        struct jsonscan_state st = {0};
        const char *q = NULL;
        size_t end = 0;
        int which = 0;
        while (end < len && !q) {
            seed = seed * 1103515245u + 12345u;
            end += 1 + (seed >> 16) % 9;
            if (end > len)
                end = len;
            which ^= 1; /* the buffer moves between pieces */
            q = json_scan_resume(buf[which], buf[which] + end, end == len, &st);
        }
        if (whole)
            assert_ptr_equal(q, buf[which] + (whole - buf[0]));
        else
            assert_null(q);
    }
    /* A string of 1 MB fed 1000 bytes at a time: each piece is new. */
    size_t n = 1u << 20;
    char *big = malloc(n + 2);
    memset(big, 'a', n + 2);
    big[0] = '"';
    big[n + 1] = '"';
    struct jsonscan_state st = {0};
    for (size_t end = 1000; end < n + 2; end += 1000) {
        assert_null(json_scan_resume(big, big + end, false, &st));
        assert_int_equal(st.done, end);
    }
    assert_ptr_equal(json_scan_resume(big, big + n + 2, true, &st), big + n + 2);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_sort_shapes),
        cmocka_unit_test(test_strtab),
        cmocka_unit_test(test_hmap_u64),
        cmocka_unit_test(test_interval),
        cmocka_unit_test(test_range_union),
        cmocka_unit_test(test_json_scan),
        cmocka_unit_test(test_utf8_display),
        cmocka_unit_test(test_argpack),
        cmocka_unit_test(test_table_sort_and_formats),
        cmocka_unit_test(test_table_cumulative),
        cmocka_unit_test(test_formats_escape_controls),
        cmocka_unit_test(test_table_lines),
        cmocka_unit_test(test_table_name_col),
        cmocka_unit_test(test_opcat),
        cmocka_unit_test(test_json_scan_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
