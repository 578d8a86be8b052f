/* Unit tests for the pickle reader: every accepted opcode with hand-made
 * byte strings, the memo, framing, protocols, the restore_type_tag form,
 * and the refusal of every opcode that would construct objects. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "core/snapshot/pickle.h"

/* Load bytes; returns the status, sets *repr (malloc'd, the value or the
 * formatted error). */
static enum status run_hooked(const void *buf, size_t len, char **repr, pk_seal_fn seal, void *ud)
{
    struct strtab st;
    strtab_init(&st);
    struct source src;
    source_open_mem(&src, "test.pickle", buf, len);
    struct errinfo err = {0};
    struct pickle_opts o = {.strs = &st, .seal = seal, .seal_ud = ud};
    struct pickle *p = NULL;
    struct pk_value root;
    enum status s = pickle_load(&src, &o, &p, &root, &err);
    if (s == ST_OK) {
        struct strbuf sb = STRBUF_INIT;
        pickle_repr(p, root, &sb);
        *repr = sb_steal(&sb);
        assert_int_equal(err.status, ST_OK);
    } else {
        assert_null(p);
        *repr = errinfo_format(&err);
    }
    pickle_free(p);
    errinfo_clear(&err);
    source_close(&src);
    strtab_free(&st);
    return s;
}

static enum status run(const void *buf, size_t len, char **repr)
{
    return run_hooked(buf, len, repr, NULL, NULL);
}

#define OK_REPR(bytes, want)                                                                       \
    do {                                                                                           \
        char *r_;                                                                                  \
        enum status s_ = run(bytes, sizeof(bytes) - 1, &r_);                                       \
        if (s_ != ST_OK)                                                                           \
            print_error("error: %s\n", r_);                                                        \
        assert_int_equal(s_, ST_OK);                                                               \
        assert_string_equal(r_, want);                                                             \
        free(r_);                                                                                  \
    } while (0)

#define BAD(bytes, st_want, want)                                                                  \
    do {                                                                                           \
        char *r_;                                                                                  \
        enum status s_ = run(bytes, sizeof(bytes) - 1, &r_);                                       \
        if (s_ != (st_want) || strcmp(r_, want) != 0)                                              \
            print_error("got: %s\n", r_);                                                          \
        assert_int_equal(s_, st_want);                                                             \
        assert_string_equal(r_, want);                                                             \
        free(r_);                                                                                  \
    } while (0)

static void test_protocols(void **state)
{
    /* Protocol 2 (C++ writer style: BINPUT after each value, no FRAME). */
    OK_REPR("\x80\x02]q\x00(K\x01K\x02"
            "e.",
            "[1, 2]");
    /* Protocol 4: FRAME then MEMOIZE. */
    OK_REPR("\x80\x04\x95\x0b\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x01"
            "a\x94K\x01u.",
            "{'a': 1}");
    /* Protocol 5 reads the same. */
    OK_REPR("\x80\x05\x95\x0b\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x01"
            "a\x94K\x01u.",
            "{'a': 1}");
    /* Protocol 3 too. */
    OK_REPR("\x80\x03N.", "None");
    BAD("\x80\x01N.", ST_FORMAT,
        "test.pickle: byte 0: pickle protocol 1 is not supported (2 to 5 are)");
    BAD("\x80\x06N.", ST_FORMAT,
        "test.pickle: byte 0: pickle protocol 6 is not supported (2 to 5 are)");
    /* Several FRAMEs; framing is not needed to read. */
    OK_REPR("\x80\x04\x95\x02\x00\x00\x00\x00\x00\x00\x00]\x94\x95\x03\x00\x00\x00\x00\x00\x00"
            "\x00K\x07"
            "a.",
            "[7]");
}

static void test_scalars(void **state)
{
    OK_REPR("\x80\x02(N\x88\x89t.", "(None, True, False)");
}

static void test_ints(void **state)
{
    OK_REPR("\x80\x02(K\x00K\xffM\x34\x12J\xff\xff\xff\xffJ\x00\x00\x00\x80t.",
            "(0, 255, 4660, -1, -2147483648)");
    /* LONG1: empty, small, negative, 5 and 7 bytes as addresses and times use. */
    OK_REPR("\x80\x02(\x8a\x00\x8a\x01\x7f\x8a\x01\xff\x8a\x02\x00\xff\x8a\x05\x00\x00\x00\x00"
            "\x08\x8a\x07\x8d\xae\xa6\x9b\xc7\x4c\x06t.",
            "(0, 127, -1, -256, 34359738368, 1773270053858957)");
    /* 8 bytes: the int64 extremes. */
    OK_REPR("\x80\x02(\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80"
            "\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7ft.",
            "(-9223372036854775808, 9223372036854775807)");
    /* 9 bytes: unsigned 64-bit values (a 0x00 top byte), and a redundant
     * 9-byte encoding of a value that fits anyway. */
    OK_REPR("\x80\x02(\x8a\x09\xff\xff\xff\xff\xff\xff\xff\xff\x00"
            "\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\x00"
            "\x8a\x09\x01\x00\x00\x00\x00\x00\x00\x00\x00"
            "\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\xfft.",
            "(18446744073709551615, 9223372036854775808, 1, -9223372036854775808)");
    BAD("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.", ST_LIMIT,
        "test.pickle: byte 2: LONG1 value does not fit in 64 bits");
    BAD("\x80\x02\x8a\x09\xff\xff\xff\xff\xff\xff\xff\x7f\xff.", ST_LIMIT,
        "test.pickle: byte 2: LONG1 value does not fit in 64 bits");
    BAD("\x80\x02\x8a\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01.", ST_LIMIT,
        "test.pickle: byte 2: LONG1 of 10 bytes: integers wider than 64 bits are not supported");
}

static void test_floats(void **state)
{
    OK_REPR("\x80\x02(G?\xf0\x00\x00\x00\x00\x00\x00G\x00\x00\x00\x00\x00\x00\x00\x00"
            "G?\xb9\x99\x99\x99\x99\x99\x9aG\xc0\x09\x21\xfb\x54\x44\x2d\x18t.",
            "(1.0, 0.0, 0.1, -3.141592653589793)");
}

static void test_strings(void **state)
{
    OK_REPR("\x80\x04(\x8c\x03"
            "abcX\x02\x00\x00\x00\xc3\xa9"
            "\x8d\x01\x00\x00\x00\x00\x00\x00\x00z\x8c\x00t.",
            "('abc', '\xc3\xa9', 'z', '')");
    OK_REPR("\x80\x02X\x04\x00\x00\x00"
            "a'\\\n.",
            "'a\\'\\\\\\n'");
    BAD("\x80\x02\x8c\x02\xc3\x28.", ST_FORMAT,
        "test.pickle: byte 2: SHORT_BINUNICODE holds "
        "invalid UTF-8");
    BAD("\x80\x02X\xff\xff\xff\x7f"
        "abc.",
        ST_LIMIT,
        "test.pickle: byte 2: BINUNICODE of 2147483647 bytes: strings longer than 256 MiB are "
        "refused");
    BAD("\x80\x02X\x00\x01\x00\x00"
        "abc.",
        ST_TRUNCATED,
        "test.pickle: byte 2: BINUNICODE of 256 bytes runs past the end of the input");
}

static void test_containers(void **state)
{
    OK_REPR("\x80\x02(])}t.", "([], (), {})");
    OK_REPR("\x80\x02K\x01\x85K\x01K\x02\x86K\x01K\x02K\x03\x87\x87.", "((1,), (1, 2), (1, 2, 3))");
    OK_REPR("\x80\x02(K\x01K\x02K\x03K\x04t.", "(1, 2, 3, 4)");
    OK_REPR("\x80\x02}K\x01K\x02s.", "{1: 2}");
    OK_REPR("\x80\x02]K\x01"
            "aK\x02"
            "a.",
            "[1, 2]");
    OK_REPR("\x80\x02](K\x01"
            "e(K\x02K\x03"
            "e.",
            "[1, 2, 3]");
    OK_REPR("\x80\x02}(K\x01]K\x02}u.", "{1: [], 2: {}}");
    BAD("\x80\x02}(K\x01u.", ST_FORMAT,
        "test.pickle: byte 6: SETITEMS with an odd number of keys and values");
    BAD("\x80\x02](K\x01K\x02u.", ST_FORMAT,
        "test.pickle: byte 8: SETITEMS needs a dict below its items");
    BAD("\x80\x02K\x01(K\x01"
        "e.",
        ST_FORMAT, "test.pickle: byte 7: APPENDS needs a list below its items");
    BAD("\x80\x02K\x01"
        "e.",
        ST_FORMAT, "test.pickle: byte 4: APPENDS without a MARK");
    BAD("\x80\x02"
        "a.",
        ST_FORMAT, "test.pickle: byte 2: APPEND needs a list and a value");
    BAD("\x80\x02.", ST_FORMAT, "test.pickle: byte 2: STOP with an empty stack");
    /* A list appended into itself (recursive structures are refused). */
    BAD("\x80\x02]q\x00h\x00"
        "a.",
        ST_FORMAT,
        "test.pickle: byte 7: APPEND modifies a container that is already stored elsewhere "
        "(recursive or shared structures are not supported)");
}

static void test_memo(void **state)
{
    /* BINGET and LONG_BINGET of BINPUT / LONG_BINPUT slots. */
    OK_REPR("\x80\x02](X\x01\x00\x00\x00"
            "aq\x01h\x01j\x01\x00\x00\x00"
            "X\x01\x00\x00\x00"
            "br\x07\x00\x00\x00j\x07\x00\x00\x00"
            "e.",
            "['a', 'a', 'a', 'b', 'b']");
    /* MEMOIZE numbers slots in order; a shared dict appears twice. */
    OK_REPR("\x80\x04]\x94(}\x94(\x8c\x01"
            "a\x94K\x01uh\x01h\x02"
            "e.",
            "[{'a': 1}, {'a': 1}, 'a']");
    BAD("\x80\x02h\x05.", ST_FORMAT,
        "test.pickle: byte 2: BINGET refers to memo entry 5, which was never set");
    BAD("\x80\x02j\x00\x00\x01\x00.", ST_FORMAT,
        "test.pickle: byte 2: LONG_BINGET refers to memo entry 65536, which was never set");
    BAD("\x80\x02Nr\xff\xff\xff\xff.", ST_LIMIT,
        "test.pickle: byte 3: LONG_BINPUT index 4294967295 is out of range");
    BAD("\x80\x04\x94.", ST_FORMAT, "test.pickle: byte 2: MEMOIZE with an empty stack");
}

static void test_type_tag(void **state)
{
    /* Older C++ writers: restore_type_tag(value, type) around dicts and
     * lists, the global itself memoized and fetched again. */
    OK_REPR("\x80\x02"
            "ctorch.jit._pickle\nrestore_type_tag\nq\x00"
            "}q\x01(X\x01\x00\x00\x00"
            "aq\x02"
            "h\x00]q\x03K\x05"
            "aX\x09\x00\x00\x00List[int]q\x04\x86R"
            "uX\x0e\x00\x00\x00"
            "Dict[str, Any]q\x05\x86R.",
            "{'a': [5]}");
    /* STACK_GLOBAL naming the same function. */
    OK_REPR("\x80\x04\x8c\x11torch.jit._pickle\x8c\x10restore_type_tag\x93K\x07\x85R.", "7");
    BAD("\x80\x02"
        "ctorch.jit._pickle\nrestore_type_tag\nK\x01R.",
        ST_FORMAT, "test.pickle: byte 40: REDUCE of restore_type_tag without an argument tuple");
}

struct refusal {
    const char *bytes;
    size_t len;
    const char *want;
};

#define R(b, w)                                                                                    \
    {                                                                                              \
        b, sizeof(b) - 1, w                                                                        \
    }

static void test_refused(void **state)
{
    static const struct refusal cases[] = {
        R("\x80\x02"
          "cos\nsystem\nX\x02\x00\x00\x00id\x85R.",
          "test.pickle: byte 2: refused GLOBAL os.system: torchtop reads plain data and never "
          "imports or calls anything (only torch.jit._pickle.restore_type_tag is accepted)"),
        R("\x80\x04\x8c\x08"
          "builtins\x8c\x04"
          "eval\x93.",
          "test.pickle: byte 18: refused STACK_GLOBAL builtins.eval: torchtop reads plain data "
          "and never imports or calls anything (only torch.jit._pickle.restore_type_tag is "
          "accepted)"),
        R("\x80\x02NNR.",
          "test.pickle: byte 4: refused opcode REDUCE (0x52): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02}}b.",
          "test.pickle: byte 4: refused opcode BUILD (0x62): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02(ios\nsystem\n.",
          "test.pickle: byte 3: refused opcode INST (0x69): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02(No.",
          "test.pickle: byte 4: refused opcode OBJ (0x6f): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02N)\x81.",
          "test.pickle: byte 4: refused opcode NEWOBJ (0x81): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x04N)}\x92.",
          "test.pickle: byte 5: refused opcode NEWOBJ_EX (0x92): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02P1\n.",
          "test.pickle: byte 2: refused opcode PERSID (0x50): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02NQ.",
          "test.pickle: byte 3: refused opcode BINPERSID (0x51): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02\x82\x01.",
          "test.pickle: byte 2: refused opcode EXT1 (0x82): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02\x83\x01\x00.",
          "test.pickle: byte 2: refused opcode EXT2 (0x83): torchtop reads plain data and "
          "never constructs objects"),
        R("\x80\x02\x84\x01\x00\x00\x00.",
          "test.pickle: byte 2: refused opcode EXT4 (0x84): torchtop reads plain data and "
          "never constructs objects"),
        /* restore_type_tag's callable cannot be smuggled into another REDUCE target. */
        R("\x80\x02"
          "cbuiltins\ngetattr\n.",
          "test.pickle: byte 2: refused GLOBAL builtins.getattr: torchtop reads plain data and "
          "never imports or calls anything (only torch.jit._pickle.restore_type_tag is "
          "accepted)"),
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *r;
        enum status s = run(cases[i].bytes, cases[i].len, &r);
        if (s != ST_UNSAFE || strcmp(r, cases[i].want) != 0)
            print_error("case %zu: %s\n", i, r);
        assert_int_equal(s, ST_UNSAFE);
        assert_string_equal(r, cases[i].want);
        free(r);
    }
}

static void test_unsupported(void **state)
{
    BAD("\x80\x02\x8b\x01\x00\x00\x00\x01.", ST_FORMAT,
        "test.pickle: byte 2: unsupported opcode LONG4 (0x8b): memory snapshots do not use it");
    BAD("\x80\x02(d.", ST_FORMAT,
        "test.pickle: byte 3: unsupported opcode DICT (0x64): memory snapshots do not use it");
    BAD("\x80\x02N0.", ST_FORMAT,
        "test.pickle: byte 3: unsupported opcode POP (0x30): memory snapshots do not use it");
    BAD("\x80\x05\x96\x00\x00\x00\x00\x00\x00\x00\x00.", ST_FORMAT,
        "test.pickle: byte 2: unsupported opcode BYTEARRAY8 (0x96): memory snapshots do not "
        "use it");
    BAD("\x80\x02\xff.", ST_FORMAT,
        "test.pickle: byte 2: unknown opcode 0xff: not a pickle, or a corrupt one");
}

static void test_bad_input(void **state)
{
    BAD("", ST_FORMAT, "test.pickle: byte 0: empty input: expected a pickle");
    BAD("{\"traceEvents\": []}", ST_FORMAT,
        "test.pickle: byte 0: not a pickle of protocol 2 to 5: it starts with 0x7b, not PROTO "
        "(0x80)");
    BAD("\x80", ST_TRUNCATED,
        "test.pickle: byte 0: the input ends inside PROTO, which needs 1 "
        "more byte");
    BAD("\x80\x02]q", ST_TRUNCATED,
        "test.pickle: byte 3: the input ends inside BINPUT, which needs 1 more byte");
    BAD("\x80\x02](K\x01", ST_TRUNCATED,
        "test.pickle: byte 6: the input ends before the pickle's STOP opcode");
    BAD("\x80\x04\x95\x10\x00\x00", ST_TRUNCATED,
        "test.pickle: byte 2: the input ends inside FRAME, which needs 5 more bytes");
    BAD("\x80\x02"
        "ctorch",
        ST_TRUNCATED, "test.pickle: byte 2: the input ends inside GLOBAL");
}

static void test_deep(void **state)
{
    /* 300 nested tuples, then 300 nested lists. */
    size_t n = 300;
    char *b = malloc(2 * n + 8);
    size_t k = 0;
    b[k++] = (char)0x80;
    b[k++] = 2;
    b[k++] = 'N';
    for (size_t i = 0; i < n; i++)
        b[k++] = (char)0x85;
    b[k++] = '.';
    char *r;
    assert_int_equal(run(b, k, &r), ST_LIMIT);
    assert_string_equal(r, "test.pickle: byte 260: containers nested deeper than 256 levels");
    free(r);
    k = 2;
    for (size_t i = 0; i < n; i++)
        b[k++] = ']';
    for (size_t i = 0; i + 1 < n; i++)
        b[k++] = 'a';
    b[k++] = '.';
    assert_int_equal(run(b, k, &r), ST_LIMIT);
    free(r);
    k = 2;
    for (size_t i = 0; i < n; i++)
        b[k++] = '(';
    assert_int_equal(run(b, k, &r), ST_LIMIT);
    assert_string_equal(r, "test.pickle: byte 266: MARKs nested deeper than 264 levels");
    free(r);
    free(b);
}

/* A large input crosses the reader's window several times. */
static void test_large(void **state)
{
    size_t n = 3u << 20, k = 0;
    char *b = malloc(2 * n + 600);
    memcpy(b, "\x80\x04]\x94(", 5);
    k = 5;
    for (size_t i = 0; i < n; i++) {
        if (i == n / 2) { /* a string straddling the first window's end */
            memcpy(b + k, "X\x00\x02\x00\x00", 5);
            k += 5;
            memset(b + k, 'x', 512);
            k += 512;
            continue;
        }
        b[k++] = 'K';
        b[k++] = (char)(i & 0x7f);
    }
    b[k++] = 'e';
    b[k++] = '.';
    struct strtab st;
    strtab_init(&st);
    struct source src;
    source_open_mem(&src, "big.pickle", b, k);
    struct errinfo err = {0};
    struct pickle_opts o = {.strs = &st};
    struct pickle *p;
    struct pk_value root;
    assert_int_equal(pickle_load(&src, &o, &p, &root, &err), ST_OK);
    size_t cnt;
    const struct pk_value *it = pk_items(p, root, &cnt);
    assert_int_equal(cnt, n);
    assert_int_equal(it[0].tag, PK_INT);
    assert_int_equal(it[n / 2].tag, PK_STR);
    assert_int_equal(strtab_len(&st, it[n / 2].id), 512);
    assert_int_equal(it[n - 1].i, (int64_t)((n - 1) & 0x7f));
    pickle_free(p);
    source_close(&src);
    strtab_free(&st);
    free(b);
}

static void test_gzip(void **state)
{
    static const char raw[] = "\x80\x04]\x94(K\x01\x8c\x02"
                              "abe.";
    uint8_t gz[256];
    z_stream zs = {0};
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (Bytef *)raw;
    zs.avail_in = sizeof(raw) - 1;
    zs.next_out = gz;
    zs.avail_out = sizeof(gz);
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t n = sizeof(gz) - zs.avail_out;
    deflateEnd(&zs);
    char *r;
    assert_int_equal(run(gz, n, &r), ST_OK);
    assert_string_equal(r, "[1, 'ab']");
    free(r);
    /* A gzip-compressed truncated pickle: the offset counts uncompressed bytes. */
    static const char cut[] = "\x80\x04]\x94(K\x01";
    memset(&zs, 0, sizeof(zs));
    assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (Bytef *)cut;
    zs.avail_in = sizeof(cut) - 1;
    zs.next_out = gz;
    zs.avail_out = sizeof(gz);
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    n = sizeof(gz) - zs.avail_out;
    deflateEnd(&zs);
    assert_int_equal(run(gz, n, &r), ST_TRUNCATED);
    assert_string_equal(
        r, "test.pickle: byte (uncompressed) 7: the input ends before the pickle's STOP opcode");
    free(r);
}

/* A hook replacing dicts: memo references then yield the replacement. */
static enum status count_dicts(void *ud, struct pickle *p, struct pk_value *v, struct errinfo *err)
{
    int *calls = ud;
    if (v->tag == PK_DICT) {
        *v = (struct pk_value){.tag = PK_USER, .sub = 1, .id = (uint32_t)(*calls)++};
    }
    return ST_OK;
}

static enum status failing_hook(void *ud, struct pickle *p, struct pk_value *v, struct errinfo *err)
{
    errinfo_set_at(err, ST_FORMAT, "test.pickle", "byte", pickle_offset(p), "hook says no");
    return ST_FORMAT;
}

static void test_hook(void **state)
{
    static const char b[] = "\x80\x04]\x94(}\x94(\x8c\x01"
                            "a\x94K\x01uh\x01h\x01}\x94"
                            "e.";
    int calls = 0;
    char *r;
    assert_int_equal(run_hooked(b, sizeof(b) - 1, &r, count_dicts, &calls), ST_OK);
    assert_string_equal(r, "[<user 1:0>, <user 1:0>, <user 1:0>, <user 1:1>]");
    assert_int_equal(calls, 2);
    free(r);
    /* BINGET of a dict still on the stack: the stack copy and the memo copy
     * both end up as the one replacement. */
    static const char c[] = "\x80\x04}\x94h\x00\x86.";
    calls = 0;
    assert_int_equal(run_hooked(c, sizeof(c) - 1, &r, count_dicts, &calls), ST_OK);
    assert_string_equal(r, "(<user 1:0>, <user 1:0>)");
    assert_int_equal(calls, 1);
    free(r);
    assert_int_equal(run_hooked(b, sizeof(b) - 1, &r, failing_hook, NULL), ST_FORMAT);
    assert_string_equal(r, "test.pickle: byte 21: hook says no");
    free(r);
}

static void test_names(void **state)
{
    assert_string_equal(pickle_opcode_name('h'), "BINGET");
    assert_string_equal(pickle_opcode_name(0x95), "FRAME");
    assert_null(pickle_opcode_name(0xff));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_protocols), cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_ints),      cmocka_unit_test(test_floats),
        cmocka_unit_test(test_strings),   cmocka_unit_test(test_containers),
        cmocka_unit_test(test_memo),      cmocka_unit_test(test_type_tag),
        cmocka_unit_test(test_refused),   cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_bad_input), cmocka_unit_test(test_deep),
        cmocka_unit_test(test_large),     cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_hook),      cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
