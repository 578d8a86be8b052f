/* Unit tests: gzip input through core/base/source (memory, file and stdin
 * sources). Members are built here byte by byte (header fields, raw
 * deflate data, trailer), so that each optional header field, the trailer
 * and the boundaries between input windows can be placed where a test
 * wants them. zlib's inflate is the reference for truncated streams. */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/source.h"
#include "core/base/xalloc.h"

/* The raw input window of a file source (source.c INBUF_SIZE). */
#define FILE_WINDOW (256u * 1024)

enum { FEXTRA = 4, FNAME = 8, FCOMMENT = 16, FHCRC = 2 };

struct bytes {
    uint8_t *p;
    size_t n, cap;
};

static void put(struct bytes *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = xreallocarray(b->p, b->cap, 1);
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_le(struct bytes *b, uint32_t v, int n)
{
    for (int i = 0; i < n; i++) {
        uint8_t c = (uint8_t)(v >> (8 * i));
        put(b, &c, 1);
    }
}

/* Text that compresses well but not to nothing: JSON-like lines. */
static char *payload(size_t n, unsigned seed)
{
    char *s = xmalloc(n + 1);
    size_t i = 0;
    unsigned x = seed * 2654435761u + 1;
    while (i < n) {
        char line[80];
        x = x * 1103515245u + 12345u;
        int k = snprintf(line, sizeof(line), "{\"name\": \"op%u\", \"ts\": %u, \"dur\": %u},\n",
                         x % 97, x >> 4, x % 1013);
        for (int j = 0; j < k && i < n; j++)
            s[i++] = line[j];
    }
    s[n] = 0;
    return s;
}

/* Random bytes: deflate stores them, so sizes are predictable. */
static uint8_t *noise(size_t n, unsigned seed)
{
    uint8_t *p = xmalloc(n);
    unsigned x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (uint8_t)(x >> 24);
    }
    return p;
}

struct hdr {
    int flags;
    size_t extra_len; /* FEXTRA: one subfield of extra_len - 4 bytes */
    const char *name, *comment;
    bool bad_hcrc;
};

/* Append one gzip member holding data[0..n) to b, compressed at level. */
static void member(struct bytes *b, const struct hdr *h, const void *data, size_t n, int level)
{
    size_t start = b->n;
    uint8_t fixed[10] = {0x1f, 0x8b, 8, (uint8_t)h->flags, 1, 2, 3, 4, 0, 3};
    put(b, fixed, sizeof(fixed));
    if (h->flags & FEXTRA) {
        assert_true(h->extra_len >= 4 && h->extra_len <= 65535);
        put_le(b, (uint32_t)h->extra_len, 2);
        put(b, "tt", 2);
        put_le(b, (uint32_t)(h->extra_len - 4), 2);
        for (size_t i = 0; i < h->extra_len - 4; i++)
            put(b, i % 2 ? "\x1f" : "\x8b", 1); /* gzip's magic, to mislead */
    }
    if (h->flags & FNAME)
        put(b, h->name, strlen(h->name) + 1);
    if (h->flags & FCOMMENT)
        put(b, h->comment, strlen(h->comment) + 1);
    if (h->flags & FHCRC) {
        uint32_t c = (uint32_t)crc32(0, b->p + start, (uInt)(b->n - start));
        put_le(b, (c & 0xffff) ^ (h->bad_hcrc ? 1u : 0u), 2);
    }
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    assert_int_equal(deflateInit2(&zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&zs, (uLong)n) + 16;
    uint8_t *out = xmalloc(cap);
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    put(b, out, cap - zs.avail_out);
    deflateEnd(&zs);
    free(out);
    put_le(b, (uint32_t)crc32(0, data, (uInt)n), 4);
    put_le(b, (uint32_t)n, 4);
}

static const struct hdr plain_hdr = {0};
static const struct hdr all_fields = {FEXTRA | FNAME | FCOMMENT | FHCRC, 23, "trace.json",
                                      "a comment", false};

/* Read src to its end in reads of at most cap bytes into *out. Returns the
 * last read's result (0 at a clean end, -1 on a fault). */
static ssize_t read_all(struct source *src, size_t cap, struct bytes *out, struct errinfo *err)
{
    uint8_t *buf = xmalloc(cap);
    ssize_t r;
    while ((r = source_read(src, buf, cap, err)) > 0)
        put(out, buf, (size_t)r);
    free(buf);
    return r;
}

/* The message of a fault, "FILE: compressed byte N: MSG". */
static void assert_fault(const struct errinfo *err, enum status st, const char *want)
{
    assert_int_equal(err->status, st);
    char *m = errinfo_format(err);
    if (strcmp(m, want) != 0)
        print_error("got  %s\nwant %s\n", m, want);
    assert_string_equal(m, want);
    free(m);
}

static void assert_same(const struct bytes *got, const void *want, size_t n)
{
    assert_int_equal(got->n, n);
    assert_memory_equal(got->p, want, n);
}

/* A file holding b, written to a fresh temporary path (the caller unlinks). */
static char *temp_file(const struct bytes *b)
{
    char *path = xstrdup("/tmp/tt-source.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b->p, b->n), (ssize_t)b->n);
    close(fd);
    return path;
}

/* Every optional header field (FEXTRA, FNAME, FCOMMENT, FHCRC), read from
 * memory in reads of every size from one byte to all of it. */
static void t_header_fields(void **state)
{
    (void)state;
    char *text = payload(5000, 1);
    for (int flags = 0; flags < 32; flags += 2) {
        struct hdr h = all_fields;
        h.flags = flags;
        struct bytes gz = {0};
        member(&gz, &h, text, 5000, 6);
        static const size_t caps[] = {1, 3, 64, 4096, 1 << 20};
        for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
            struct source src;
            source_open_mem(&src, "t.gz", gz.p, gz.n);
            struct errinfo err = {0};
            struct bytes out = {0};
            assert_int_equal(read_all(&src, caps[c], &out, &err), 0);
            assert_same(&out, text, 5000);
            source_close(&src);
            free(out.p);
        }
        free(gz.p);
    }
    free(text);
}

/* Members one after another are one stream; bytes after the last member
 * that do not start another are ignored, as gzip does. */
static void t_concatenated_and_trailing(void **state)
{
    (void)state;
    char *text = payload(70000, 2);
    static const struct {
        const char *tail;
        size_t n;
    } tails[] = {{"", 0}, {"\x1f", 1}, {"\x1fjunk", 5}, {"\0\0\0\0\0\0\0\0", 8}, {"\x8b\x1f", 2}};
    for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
        struct bytes gz = {0};
        member(&gz, &all_fields, text, 1000, 1);
        member(&gz, &plain_hdr, text + 1000, 0, 6); /* an empty member */
        member(&gz, &plain_hdr, text + 1000, 69000, 9);
        put(&gz, tails[t].tail, tails[t].n);
        for (size_t cap = 1; cap <= (1u << 20); cap *= 64) {
            struct source src;
            source_open_mem(&src, "t.gz", gz.p, gz.n);
            struct errinfo err = {0};
            struct bytes out = {0};
            assert_int_equal(read_all(&src, cap, &out, &err), 0);
            assert_same(&out, text, 70000);
            source_close(&src);
            free(out.p);
        }
        free(gz.p);
    }
    free(text);
}

/* What zlib inflates from a gzip stream cut short: every byte it decodes. */
static size_t zlib_decodes(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    assert_int_equal(inflateInit2(&zs, 15 + 16), Z_OK);
    zs.next_in = (Bytef *)in;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    int r = inflate(&zs, Z_NO_FLUSH);
    assert_true(r == Z_OK || r == Z_BUF_ERROR);
    size_t made = cap - zs.avail_out;
    inflateEnd(&zs);
    return made;
}

/* A stream cut anywhere: the bytes decoded from it are handed out, then
 * the truncation is reported at the end of the input. */
static void t_truncated(void **state)
{
    (void)state;
    char *text = payload(20000, 3);
    struct bytes gz = {0};
    member(&gz, &all_fields, text, 20000, 6);
    uint8_t *ref = xmalloc(20000);
    for (size_t cut = 2; cut < gz.n; cut += (cut < 64 || gz.n - cut < 64) ? 1 : 13) {
        size_t want = zlib_decodes(gz.p, cut, ref, 20000);
        for (size_t cap = 1; cap <= (1u << 20); cap *= 128) {
            struct source src;
            source_open_mem(&src, "t.gz", gz.p, cut);
            struct errinfo err = {0};
            struct bytes out = {0};
            assert_int_equal(read_all(&src, cap, &out, &err), -1);
            /* ISA-L decodes a symbol only once the bits its table looks up
             * are there: at a cut it may hold back the last few bytes zlib
             * hands out (1 or 2 here), never more than one match. */
            assert_true(out.n <= want && out.n + 258 >= want);
            assert_memory_equal(out.p, ref, out.n);
            char msg[128];
            snprintf(msg, sizeof(msg),
                     "t.gz: compressed byte %zu: gzip stream ends early: the file is truncated",
                     cut);
            assert_fault(&err, ST_TRUNCATED, msg);
            errinfo_clear(&err);
            source_close(&src);
            free(out.p);
        }
    }
    free(ref);
    free(gz.p);
    free(text);
}

/* The trailer's CRC-32 and size, and the header's CRC-16, are checked; the
 * data decoded before a bad trailer is handed out first. */
static void t_checks(void **state)
{
    (void)state;
    char *text = payload(30000, 4);
    static const struct {
        size_t flip; /* bytes from the end, 0: the header CRC */
        long at;     /* from the end */
        const char *what;
    } cases[] = {
        {8, -4, "incorrect data check"},
        {5, -4, "incorrect data check"},
        {4, 0, "length error: the size in the member's trailer is not the size of its data"},
        {1, 0, "length error: the size in the member's trailer is not the size of its data"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct bytes gz = {0};
        member(&gz, &all_fields, text, 30000, 6);
        gz.p[gz.n - cases[c].flip] ^= 0x40;
        for (size_t cap = 64; cap <= (1u << 20); cap *= 128) {
            struct source src;
            source_open_mem(&src, "t.gz", gz.p, gz.n);
            struct errinfo err = {0};
            struct bytes out = {0};
            assert_int_equal(read_all(&src, cap, &out, &err), -1);
            assert_same(&out, text, 30000);
            char msg[256];
            snprintf(msg, sizeof(msg), "t.gz: compressed byte %ld: corrupt gzip data (%s)",
                     (long)gz.n + cases[c].at, cases[c].what);
            assert_fault(&err, ST_GZIP, msg);
            /* The fault stays: a further read reports it again. */
            uint8_t one;
            struct errinfo again = {0};
            assert_int_equal(source_read(&src, &one, 1, &again), -1);
            assert_int_equal(again.status, ST_GZIP);
            errinfo_clear(&again);
            errinfo_clear(&err);
            source_close(&src);
            free(out.p);
        }
        free(gz.p);
    }
    struct hdr h = all_fields;
    h.bad_hcrc = true;
    struct bytes gz = {0};
    member(&gz, &h, text, 100, 6);
    struct source src;
    source_open_mem(&src, "t.gz", gz.p, gz.n);
    struct errinfo err = {0};
    struct bytes out = {0};
    assert_int_equal(read_all(&src, 4096, &out, &err), -1);
    assert_int_equal(out.n, 0);
    assert_int_equal(err.status, ST_GZIP);
    assert_non_null(strstr(err.msg, "(header crc mismatch)"));
    errinfo_clear(&err);
    source_close(&src);
    free(gz.p);
    free(text);
}

/* Corrupt deflate data: a fault at a compressed offset within the stream,
 * with the bytes decoded before it handed out first; never a crash, for a
 * flip of any bit of the first bytes. */
static void t_corrupt_data(void **state)
{
    (void)state;
    char *text = payload(50000, 5);
    struct bytes gz = {0};
    member(&gz, &plain_hdr, text, 50000, 6);
    for (size_t i = 10; i < 200 && i < gz.n - 8; i++)
        for (int bit = 0; bit < 8; bit += 3) {
            uint8_t *p = xmalloc(gz.n);
            memcpy(p, gz.p, gz.n);
            p[i] ^= (uint8_t)(1u << bit);
            struct source src;
            source_open_mem(&src, "t.gz", p, gz.n);
            struct errinfo err = {0};
            struct bytes out = {0};
            ssize_t r = read_all(&src, 1 << 16, &out, &err);
            if (r < 0) {
                assert_true(err.status == ST_GZIP || err.status == ST_TRUNCATED);
                assert_true(err.has_offset && err.offset <= gz.n);
            } else {
                /* A flip that leaves a valid stream of the same data. */
                assert_same(&out, text, 50000);
            }
            errinfo_clear(&err);
            source_close(&src);
            free(out.p);
            free(p);
        }
    free(gz.p);
    free(text);
}

/* A file source reads the input in windows: a member's header, deflate
 * data and trailer cut by a window's end at every byte near it, and the
 * same file read as standard input. */
static void t_file_windows(void **state)
{
    (void)state;
    const size_t n1 = 220000;
    uint8_t *first = noise(n1, 6);
    char *text = payload(40000, 7);
    struct bytes probe = {0};
    struct hdr h1 = {FEXTRA, 4, NULL, NULL, false};
    member(&probe, &h1, first, n1, 0);
    size_t base = probe.n - 4; /* the first member with no extra bytes */
    free(probe.p);
    for (size_t start = FILE_WINDOW - 40; start <= FILE_WINDOW + 8; start++) {
        struct bytes gz = {0};
        h1.extra_len = start - base;
        member(&gz, &h1, first, n1, 0);
        assert_int_equal(gz.n, start);
        member(&gz, &all_fields, text, 40000, 6);
        char *path = temp_file(&gz);
        for (int use_stdin = 0; use_stdin < 2; use_stdin += (start % 8 == 0) ? 1 : 2) {
            int saved = -1;
            struct source src;
            struct errinfo err = {0};
            if (use_stdin) {
                saved = dup(STDIN_FILENO);
                int fd = open(path, O_RDONLY);
                assert_true(saved >= 0 && fd >= 0);
                assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
                close(fd);
                assert_int_equal(source_open(&src, "-", &err), ST_OK);
            } else {
                assert_int_equal(source_open(&src, path, &err), ST_OK);
            }
            struct bytes out = {0};
            assert_int_equal(read_all(&src, 100000, &out, &err), 0);
            assert_int_equal(out.n, n1 + 40000);
            assert_memory_equal(out.p, first, n1);
            assert_memory_equal(out.p + n1, text, 40000);
            assert_int_equal(src.in_done, gz.n);
            source_close(&src);
            if (use_stdin) {
                assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
                close(saved);
            }
            free(out.p);
        }
        /* The first member's CRC broken, its trailer cut by the window's
         * end or not: its data first, then the fault at the CRC's end. */
        gz.p[start - 6] ^= 1;
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(gz.p, 1, gz.n, f), gz.n);
        fclose(f);
        struct source src;
        struct errinfo err = {0};
        assert_int_equal(source_open(&src, path, &err), ST_OK);
        struct bytes out = {0};
        assert_int_equal(read_all(&src, 100000, &out, &err), -1);
        assert_int_equal(out.n, n1);
        char msg[256];
        snprintf(msg, sizeof(msg),
                 "%s: compressed byte %zu: corrupt gzip data (incorrect data check)", path,
                 start - 4);
        assert_fault(&err, ST_GZIP, msg);
        errinfo_clear(&err);
        source_close(&src);
        free(out.p);
        unlink(path);
        free(path);
        free(gz.p);
    }
    free(text);
    free(first);
}

/* Peeking decodes the first bytes once; the reads hand them out again. */
static void t_peek_then_read(void **state)
{
    (void)state;
    char *text = payload(10000, 8);
    struct bytes gz = {0};
    member(&gz, &all_fields, text, 10000, 6);
    struct source src;
    source_open_mem(&src, "t.gz", gz.p, gz.n);
    struct errinfo err = {0};
    assert_int_equal(source_sniff(&src, &err), INPUT_JSON);
    struct bytes out = {0};
    assert_int_equal(read_all(&src, 333, &out, &err), 0);
    assert_same(&out, text, 10000);
    source_close(&src);
    free(out.p);
    free(gz.p);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_header_fields),  cmocka_unit_test(t_concatenated_and_trailing),
        cmocka_unit_test(t_truncated),      cmocka_unit_test(t_checks),
        cmocka_unit_test(t_corrupt_data),   cmocka_unit_test(t_file_windows),
        cmocka_unit_test(t_peek_then_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
