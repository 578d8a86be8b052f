/* torchtop symbolize: addresses to function, file and line, in addr2line's
 * output format (or JSON lines). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/display.h"
#include "core/base/xalloc.h"
#include "core/symbols/elfmod.h"
#include "core/base/strbuf.h"
#include "core/symbols/symbolize.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"
#include "core/base/strtab.h"
#include "src/commands.h"

#define OUT_CHUNK (256 * 1024) /* output is written out in pieces this big */
#define BATCH_MAX (1u << 20)   /* input lines answered together at most */

struct sym_cli {
    const char *exe; /* -e; NULL: locations are LIB+0xOFF */
    bool functions, inlines, addresses, pretty, basenames, json;
    struct symbolizer *s;
    struct sym_result res;
    struct strbuf out;
    struct strtab warned; /* reasons already printed to stderr */
    bool batching;        /* answers of a batch collect in out */
};

static void usage(FILE *f)
{
    fprintf(f, "usage: torchtop symbolize [-e BINARY] [-a] [-f] [-i] [-C] [-p] [-s] [--json]\n"
               "                          [--debug-dir DIR] [ADDRESS... | LIB+0xOFFSET...]\n\n"
               "Translate addresses into function names and source locations, through the\n"
               "DWARF debug information (or the separate debug file found by build id or\n"
               ".gnu_debuglink), as addr2line does and in its output format.\n\n"
               "  -e, --exe BINARY     the file the addresses belong to (default a.out)\n"
               "  -a, --addresses      print the address before its location\n"
               "  -f, --functions      print the function name\n"
               "  -i, --inlines        also print the callers an address was inlined into\n"
               "  -C, --demangle       demangle C++ names\n"
               "  -p, --pretty-print   one line per address\n"
               "  -s, --basenames      file names without directories\n"
               "      --json           one JSON object per address (module, status, reason,\n"
               "                       frames with function, file, line, column)\n"
               "      --debug-dir DIR  where separate debug files live (default\n"
               "                       /usr/lib/debug; may be repeated)\n\n"
               "Addresses are hexadecimal module addresses (as nm shows them), read from\n"
               "stdin, one per line, when none are given. Without -e, each location is\n"
               "LIB+0xOFFSET, LIB(+0xOFFSET) or LIB(SYMBOL+0xOFFSET): a library and an\n"
               "offset such as a PyTorch memory snapshot records with\n"
               "TORCH_SYMBOLIZE_MODE=dladdr (filename, line).\n");
}

static void flush_out(struct sym_cli *c)
{
    if (c->out.len)
        fwrite(c->out.s, 1, c->out.len, stdout);
    sb_clear(&c->out);
    fflush(stdout);
}

/* Names and paths are printable ASCII nearly always: copy those as they
 * are, sanitize the rest. */
static void put_text(struct strbuf *out, const char *s)
{
    size_t n = 0;
    while (s[n] >= 0x20 && s[n] < 0x7f)
        n++;
    if (!s[n])
        sb_putn(out, s, n);
    else
        display_sanitize(out, s, n + strlen(s + n));
}

static void put_uint(struct strbuf *out, uint32_t v)
{
    char buf[12];
    size_t i = sizeof(buf);
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_putn(out, buf + i, sizeof(buf) - i);
}

static void warn_once(struct sym_cli *c, const char *reason)
{
    if (!reason || strtab_find(&c->warned, reason, strlen(reason)) != IDX_NONE)
        return;
    strtab_intern_cstr(&c->warned, reason);
    struct strbuf sb = STRBUF_INIT;
    put_text(&sb, reason);
    fprintf(stderr, "torchtop symbolize: %s\n", sb_str(&sb));
    sb_free(&sb);
}

/* 0x and `digits` lower-case hex digits (more when the value needs them),
 * as addr2line -a prints addresses. */
static void put_hex(struct strbuf *out, uint64_t v, int digits)
{
    char buf[18];
    int i = (int)sizeof(buf);
    do {
        buf[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
        digits--;
    } while (v || digits > 0);
    buf[--i] = 'x';
    buf[--i] = '0';
    sb_putn(out, buf + i, sizeof(buf) - (size_t)i);
}

static void put_location(struct sym_cli *c, const struct sym_frame *f)
{
    const char *file = f->file;
    if (file && c->basenames) {
        const char *sl = strrchr(file, '/');
        if (sl)
            file = sl + 1;
    }
    if (file)
        put_text(&c->out, file);
    else
        sb_puts(&c->out, "??");
    sb_putc(&c->out, ':');
    if (!f->line && !file && !(f->function && *f->function)) {
        sb_puts(&c->out, "0\n"); /* addr2line's "nothing known" */
        return;
    }
    if (!f->line) {
        sb_puts(&c->out, "?\n");
        return;
    }
    put_uint(&c->out, f->line);
    if (f->discriminator) {
        sb_puts(&c->out, " (discriminator ");
        put_uint(&c->out, f->discriminator);
        sb_putc(&c->out, ')');
    }
    sb_putc(&c->out, '\n');
}

static void put_a2l(struct sym_cli *c, const struct sym_result *r)
{
    if (c->addresses) {
        put_hex(&c->out, r->addr, r->is64 ? 16 : 8);
        sb_puts(&c->out, c->pretty ? ": " : "\n");
    }
    if (!r->nframes) {
        if (c->functions)
            sb_puts(&c->out, c->pretty ? "?? " : "??\n");
        sb_puts(&c->out, "??:0\n");
        return;
    }
    size_t n = c->inlines ? r->nframes : 1;
    for (size_t i = 0; i < n; i++) {
        const struct sym_frame *f = &r->frames[i];
        if (i && c->pretty)
            sb_puts(&c->out, " (inlined by) ");
        if (c->functions) {
            if (f->function && *f->function)
                put_text(&c->out, f->function);
            else
                sb_puts(&c->out, "??");
            sb_puts(&c->out, c->pretty ? " at " : "\n");
        }
        put_location(c, f);
    }
}

static void put_json_str(struct strbuf *out, const char *s)
{
    if (s)
        sb_put_json_string(out, s, strlen(s));
    else
        sb_puts(out, "null");
}

static void put_json(struct sym_cli *c, const char *input, const struct sym_result *r)
{
    struct strbuf *o = &c->out;
    sb_puts(o, "{\"input\":");
    put_json_str(o, input);
    sb_puts(o, ",\"module\":");
    put_json_str(o, r->module);
    sb_printf(o,
              ",\"address\":\"0x%llx\",\"status\":\"%s\",\"reason\":", (unsigned long long)r->addr,
              sym_status_name(r->status));
    put_json_str(o, r->reason);
    sb_puts(o, ",\"frames\":[");
    size_t n = c->inlines || !r->nframes ? r->nframes : 1;
    for (size_t i = 0; i < n; i++) {
        const struct sym_frame *f = &r->frames[i];
        sb_puts(o, i ? ",{\"function\":" : "{\"function\":");
        put_json_str(o, f->function);
        sb_puts(o, ",\"file\":");
        put_json_str(o, f->file);
        sb_printf(o, ",\"line\":%u,\"column\":%u,\"discriminator\":%u,\"inlined\":%s}", f->line,
                  f->column, f->discriminator, i + 1 < r->nframes ? "true" : "false");
    }
    sb_puts(o, "]}\n");
}

/* A hexadecimal address with or without "0x"; like addr2line, the digits
 * that parse (none: 0), the rest ignored. */
static uint64_t parse_address(const char *p)
{
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    uint64_t v = 0;
    for (;; p++) {
        unsigned c = (unsigned char)*p, d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            return v;
        v = v << 4 | d;
    }
}

/* Whether an input word is LIB+0xOFF rather than an address of -e. */
static bool is_location(const struct sym_cli *c, const char *word)
{
    return !c->exe || strpbrk(word, "+(") != NULL;
}

/* One address (addr, parsed from word) or location: resolve and print. */
static void handle(struct sym_cli *c, const char *word, bool location, uint64_t addr)
{
    struct sym_result *r = &c->res;
    if (location)
        symbolizer_lookup_text(c->s, word, r);
    else
        symbolizer_lookup(c->s, c->exe, addr, r);
    /* Like addr2line, nothing about single addresses on stderr; a module
     * that cannot answer at all is worth a line. */
    if (r->status != SYM_OK && (r->module_reason || location))
        warn_once(c, r->reason);
    if (c->json)
        put_json(c, word, r);
    else
        put_a2l(c, r);
    if (!c->batching && c->out.len >= OUT_CHUNK) {
        fwrite(c->out.s, 1, c->out.len, stdout);
        sb_clear(&c->out);
    }
}

/* A batch of input lines, answered in address order (the DWARF index is
 * then walked with warm caches) and printed in input order. */
struct batch_line {
    uint64_t addr; /* module address; location lines sort last */
    uint32_t idx;  /* position in the input */
    uint32_t text; /* offset of the line in the batch text */
};

/* Lines by address, equal addresses in input order: a stable LSD radix
 * sort by bytes, skipping the bytes all addresses share (most of them:
 * addresses of one module are close together). */
static void line_sort(struct batch_line *v, size_t n)
{
    size_t(*count)[256] = xcalloc(8, sizeof(*count));
    for (size_t i = 0; i < n; i++)
        for (unsigned d = 0; d < 8; d++)
            count[d][(v[i].addr >> (8 * d)) & 0xff]++;
    struct batch_line *tmp = xmalloc(n * sizeof(*tmp)), *src = v, *dst = tmp;
    for (unsigned d = 0; d < 8; d++) {
        if (count[d][(v[0].addr >> (8 * d)) & 0xff] == n)
            continue; /* every address has this byte */
        size_t at = 0;
        for (unsigned k = 0; k < 256; k++) {
            size_t c = count[d][k];
            count[d][k] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[d][(src[i].addr >> (8 * d)) & 0xff]++] = src[i];
        struct batch_line *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof(*v));
    free(tmp);
    free(count);
}

struct batch {
    struct strbuf text; /* the lines, NUL-separated */
    VEC(struct batch_line) lines;
};

static void batch_add(struct sym_cli *c, struct batch *b, const char *line)
{
    struct batch_line *l = VEC_ADD(&b->lines);
    l->idx = (uint32_t)(b->lines.n - 1);
    l->text = (uint32_t)b->text.len;
    l->addr = is_location(c, line) ? UINT64_MAX : parse_address(line);
    sb_putn(&b->text, line, strlen(line) + 1);
}

static void batch_run(struct sym_cli *c, struct batch *b)
{
    size_t n = b->lines.n;
    if (!n)
        return;
    line_sort(b->lines.v, n);
    /* Answers go to c->out in address order; slices remember where. */
    size_t *start = xmalloc((n + 1) * sizeof(size_t)), *len = xmalloc((n + 1) * sizeof(size_t));
    size_t base = c->out.len;
    c->batching = true;
    for (size_t k = 0; k < n; k++) {
        const struct batch_line *l = &b->lines.v[k];
        size_t at = c->out.len;
        handle(c, b->text.s + l->text, l->addr == UINT64_MAX, l->addr);
        start[l->idx] = at;
        len[l->idx] = c->out.len - at;
    }
    c->batching = false;
    /* stdio's buffer does the reordering copy; no second batch-sized one. */
    fwrite(c->out.s, 1, base, stdout);
    for (size_t i = 0; i < n; i++)
        fwrite(c->out.s + start[i], 1, len[i], stdout);
    sb_clear(&c->out);
    free(start);
    free(len);
    b->lines.n = 0;
    sb_clear(&b->text);
}

/* Whether more input is ready without waiting. */
static bool input_ready(void)
{
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

/* Addresses from stdin, one per line (the first word). Lines that are
 * already there are answered as a batch; output is flushed before each
 * read that could block, so a script can drive the command one address at
 * a time through pipes, as it can drive addr2line. */
static void read_stdin(struct sym_cli *c)
{
    size_t cap = 64 * 1024, len = 0, pos = 0;
    char *buf = xmalloc(cap + 1);
    bool eof = false;
    struct batch b = {STRBUF_INIT, {0}};
    for (;;) {
        char *nl = pos < len ? memchr(buf + pos, '\n', len - pos) : NULL;
        if (!nl && !eof) {
            memmove(buf, buf + pos, len - pos);
            len -= pos;
            pos = 0;
            if (len == cap) {
                cap *= 2;
                buf = xreallocarray(buf, cap + 1, 1);
            }
            if (!input_ready() || b.lines.n >= BATCH_MAX) {
                batch_run(c, &b);
                flush_out(c);
            }
            ssize_t got = read(STDIN_FILENO, buf + len, cap - len);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                eof = true;
            else
                len += (size_t)got;
            continue;
        }
        if (!nl && pos == len)
            break;
        size_t end = nl ? (size_t)(nl - buf) : len;
        buf[end] = '\0';
        char *line = buf + pos;
        pos = nl ? end + 1 : len;
        while (*line == ' ' || *line == '\t')
            line++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = '\0';
        if (c->exe && !strchr(line, '(')) {
            /* addr2line takes the first word of the line */
            char *sp = strpbrk(line, " \t");
            if (sp)
                *sp = '\0';
        }
        /* An empty line is answered too (as address 0, like addr2line), so
         * that output records pair with input lines. */
        batch_add(c, &b, *line ? line : "0");
    }
    batch_run(c, &b);
    sb_free(&b.text);
    VEC_FREE(&b.lines);
    free(buf);
}

int cmd_symbolize(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"exe", required_argument, NULL, 'e'},
        {"addresses", no_argument, NULL, 'a'},
        {"functions", no_argument, NULL, 'f'},
        {"inlines", no_argument, NULL, 'i'},
        {"demangle", no_argument, NULL, 'C'},
        {"pretty-print", no_argument, NULL, 'p'},
        {"basenames", no_argument, NULL, 's'},
        {"json", no_argument, NULL, 'J'},
        {"debug-dir", required_argument, NULL, 'D'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct sym_cli c;
    static char stdout_buf[OUT_CHUNK]; /* answers are small writes, flushed before reads */
    setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
    memset(&c, 0, sizeof(c));
    bool demangle = false;
    const char *dirs[16];
    size_t ndirs = 0;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "e:afiCpsh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'e':
            c.exe = optarg;
            break;
        case 'a':
            c.addresses = true;
            break;
        case 'f':
            c.functions = true;
            break;
        case 'i':
            c.inlines = true;
            break;
        case 'C':
            demangle = true;
            break;
        case 'p':
            c.pretty = true;
            break;
        case 's':
            c.basenames = true;
            break;
        case 'J':
            c.json = true;
            break;
        case 'D':
            if (ndirs == ARRAY_SIZE(dirs)) {
                fprintf(stderr, "torchtop symbolize: too many --debug-dir options\n");
                return EXIT_USAGE;
            }
            dirs[ndirs++] = optarg;
            break;
        case 'h':
            usage(stdout);
            return EXIT_OK;
        default:
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    /* Bare addresses with no -e and no LIB+ form: addr2line's a.out. */
    bool any_bare = false;
    for (int i = optind; i < argc; i++)
        any_bare |= !strchr(argv[i], '+') && !strchr(argv[i], '(');
    if (!c.exe && any_bare)
        c.exe = "a.out";
    const char *why = c.exe ? elfmod_check(c.exe) : NULL;
    if (why) {
        struct strbuf name = STRBUF_INIT;
        display_sanitize(&name, c.exe, strlen(c.exe));
        fprintf(stderr, "torchtop symbolize: %s: %s\n", sb_str(&name), why);
        sb_free(&name);
        return EXIT_FAILURE_RUN;
    }
    struct sym_opts o = {
        .demangle = demangle, .debug_dirs = ndirs ? dirs : NULL, .ndebug_dirs = ndirs};
    c.s = symbolizer_new(&o);
    sym_result_init(&c.res);
    strtab_init(&c.warned);
    if (optind < argc)
        for (int i = optind; i < argc; i++)
            handle(&c, argv[i], is_location(&c, argv[i]), parse_address(argv[i]));
    else
        read_stdin(&c);
    flush_out(&c);
    sb_free(&c.out);
    strtab_free(&c.warned);
    sym_result_done(&c.res);
    symbolizer_free(c.s);
    return ferror(stdout) ? EXIT_FAILURE_RUN : EXIT_OK;
}
