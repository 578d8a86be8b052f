/* Streaming pickle reader for plain data (protocols 2-5): a value stack, a
 * memo and a container pool whose containers a hook may turn into compact
 * values as soon as they are complete. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/snapshot/pickle.h"
#include "core/snapshot/pickle_internal.h"
#include "core/base/utf8.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"

#ifndef TORCHTOP_FUZZ_SMALL_BUFFERS
#define BUF_SIZE (4u << 20) /* read window */
#else
#define BUF_SIZE 64u /* the fuzz build: small inputs cross refills */
#endif
#define PK_MAX_STR (256u << 20) /* longest string accepted */
#define PK_MAX_STACK (1u << 26) /* values on the stack */
#define PK_MAX_MEMO (1u << 27)  /* memo slots */
#define PK_MAX_LINE 256         /* GLOBAL module and name lines */
/* Working memory (stack, memo, container pool and items) may grow to this
 * much plus PK_MEM_PER_BYTE per byte of pickle read. A real snapshot needs
 * a small fraction of that; opcodes of one byte that each cost 64 bytes
 * (EMPTY_LIST) are how a small gzip file would otherwise ask for gigabytes. */
#define PK_MEM_FLOOR (64u << 20)
#define PK_MEM_PER_BYTE 32u

/* ------------------------------------------------------------------------ */
/* Opcode names                                                             */
/* ------------------------------------------------------------------------ */

static const char *const op_names[256] = {
    ['('] = "MARK",
    ['.'] = "STOP",
    ['0'] = "POP",
    ['1'] = "POP_MARK",
    ['2'] = "DUP",
    ['F'] = "FLOAT",
    ['I'] = "INT",
    ['J'] = "BININT",
    ['K'] = "BININT1",
    ['L'] = "LONG",
    ['M'] = "BININT2",
    ['N'] = "NONE",
    ['P'] = "PERSID",
    ['Q'] = "BINPERSID",
    ['R'] = "REDUCE",
    ['S'] = "STRING",
    ['T'] = "BINSTRING",
    ['U'] = "SHORT_BINSTRING",
    ['V'] = "UNICODE",
    ['X'] = "BINUNICODE",
    ['a'] = "APPEND",
    ['b'] = "BUILD",
    ['c'] = "GLOBAL",
    ['d'] = "DICT",
    ['}'] = "EMPTY_DICT",
    ['e'] = "APPENDS",
    ['g'] = "GET",
    ['h'] = "BINGET",
    ['i'] = "INST",
    ['j'] = "LONG_BINGET",
    ['l'] = "LIST",
    [']'] = "EMPTY_LIST",
    ['o'] = "OBJ",
    ['p'] = "PUT",
    ['q'] = "BINPUT",
    ['r'] = "LONG_BINPUT",
    ['s'] = "SETITEM",
    ['t'] = "TUPLE",
    [')'] = "EMPTY_TUPLE",
    ['u'] = "SETITEMS",
    ['G'] = "BINFLOAT",
    [0x80] = "PROTO",
    [0x81] = "NEWOBJ",
    [0x82] = "EXT1",
    [0x83] = "EXT2",
    [0x84] = "EXT4",
    [0x85] = "TUPLE1",
    [0x86] = "TUPLE2",
    [0x87] = "TUPLE3",
    [0x88] = "NEWTRUE",
    [0x89] = "NEWFALSE",
    [0x8a] = "LONG1",
    [0x8b] = "LONG4",
    ['B'] = "BINBYTES",
    ['C'] = "SHORT_BINBYTES",
    [0x8c] = "SHORT_BINUNICODE",
    [0x8d] = "BINUNICODE8",
    [0x8e] = "BINBYTES8",
    [0x8f] = "EMPTY_SET",
    [0x90] = "ADDITEMS",
    [0x91] = "FROZENSET",
    [0x92] = "NEWOBJ_EX",
    [0x93] = "STACK_GLOBAL",
    [0x94] = "MEMOIZE",
    [0x95] = "FRAME",
    [0x96] = "BYTEARRAY8",
    [0x97] = "NEXT_BUFFER",
    [0x98] = "READONLY_BUFFER",
};

const char *pickle_opcode_name(uint8_t op)
{
    return op_names[op];
}

/* ------------------------------------------------------------------------ */
/* Errors and input                                                         */
/* ------------------------------------------------------------------------ */

static enum status ATTR_FORMAT(3, 4) fail(struct pickle *p, enum status st, const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL;
    va_end(ap);
    errinfo_set_at(p->err, st, p->src->name, pickle_offset_what(p), p->op_off, "%s",
                   msg ? msg : "error");
    free(msg);
    return st;
}

/* Try to have n unread bytes in the window; fewer remain only at the end
 * of the input. False on a read error (err filled by the source). */
static bool refill(struct pickle *p, size_t n)
{
    if (p->len - p->pos >= n)
        return true;
    if (p->pos > 0) {
        memmove(p->buf, p->buf + p->pos, p->len - p->pos);
        p->base += p->pos;
        p->len -= p->pos;
        p->pos = 0;
    }
    if (n > p->cap) {
        p->cap = n;
        p->buf = xreallocarray(p->buf, p->cap, 1);
    }
    while (!p->eof && p->len < n) {
        ssize_t got = source_read(p->src, p->buf + p->len, p->cap - p->len, p->err);
        if (got < 0)
            return false;
        if (got == 0)
            p->eof = true;
        p->len += (size_t)got;
    }
    uint64_t done = p->src->in_done;
    if (p->o.progress && done >= p->next_progress) {
        p->o.progress(p->o.progress_ud, done, p->src->in_total);
        p->next_progress = done + BUF_SIZE;
    }
    return true;
}

/* Make n argument bytes of opcode op available, or fail. */
static enum status need(struct pickle *p, size_t n, uint8_t op)
{
    if (LIKELY(p->len - p->pos >= n))
        return ST_OK;
    if (!refill(p, n))
        return p->err->status ? p->err->status : ST_IO;
    if (p->len - p->pos >= n)
        return ST_OK;
    size_t missing = n - (p->len - p->pos);
    return fail(p, ST_TRUNCATED, "the input ends inside %s, which needs %zu more byte%s",
                op_names[op], missing, missing == 1 ? "" : "s");
}

#define NEED(n, op)                                                                                \
    do {                                                                                           \
        enum status need_st_ = need(p, (n), (op));                                                 \
        if (need_st_ != ST_OK)                                                                     \
            return need_st_;                                                                       \
    } while (0)

static inline uint32_t rd_u32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static inline uint64_t rd_u64(const uint8_t *b)
{
    return (uint64_t)rd_u32(b) | (uint64_t)rd_u32(b + 4) << 32;
}

/* Untrusted bytes for an error message: printable ASCII only, at most 60. */
static char *msg_text(const char *s, size_t n)
{
    size_t m = MIN(n, 60);
    char *out = xmalloc(m + 4);
    size_t j = 0;
    for (size_t i = 0; i < m; i++)
        out[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    if (n > m) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = 0;
    return out;
}

/* ------------------------------------------------------------------------ */
/* Working memory                                                           */
/* ------------------------------------------------------------------------ */

/* Count `more` bytes of working memory against the budget, or fail. */
static enum status charge(struct pickle *p, size_t more)
{
    uint64_t read = p->base + p->pos;
    uint64_t limit = PK_MEM_FLOOR + PK_MEM_PER_BYTE * read;
    if (p->held + more > limit)
        return fail(p, ST_LIMIT,
                    "the pickle needs more than %llu MiB of working memory for the %llu bytes "
                    "read so far (torchtop allows %u MiB plus %u bytes per byte of pickle)",
                    (unsigned long long)(limit >> 20), (unsigned long long)read, PK_MEM_FLOOR >> 20,
                    PK_MEM_PER_BYTE);
    p->held += more;
    return ST_OK;
}

/* vec_grow within the budget: room for `want` elements of elsize bytes. */
static enum status reserve(struct pickle *p, void **v, size_t *cap, size_t want, size_t elsize)
{
    if (want <= *cap)
        return ST_OK;
    size_t c = *cap ? *cap : 16;
    while (c < want)
        c *= 2;
    enum status st = charge(p, (c - *cap) * elsize);
    if (st != ST_OK)
        return st;
    *v = xreallocarray(*v, c, elsize);
    *cap = c;
    return ST_OK;
}

#define RESERVE(vec, want) reserve(p, (void **)&(vec)->v, &(vec)->cap, (want), sizeof(*(vec)->v))

/* Free a container's items. */
static void drop_items(struct pickle *p, struct pk_cont *c)
{
    p->held -= (size_t)c->cap * sizeof(*c->items);
    free(c->items);
    c->items = NULL;
    c->n = c->cap = 0;
}

/* ------------------------------------------------------------------------ */
/* Containers, stack and memo                                               */
/* ------------------------------------------------------------------------ */

static enum status new_cont(struct pickle *p, uint8_t kind, struct pk_value *out)
{
    uint32_t id;
    if (p->free_conts.n) {
        id = p->free_conts.v[--p->free_conts.n];
    } else {
        /* A slot's id may come back to free_conts: count that room too. */
        enum status st = RESERVE(&p->conts, p->conts.n + 1);
        if (st == ST_OK)
            st = RESERVE(&p->free_conts, p->conts.cap);
        if (st != ST_OK)
            return st;
        id = (uint32_t)p->conts.n++;
    }
    struct pk_cont *c = &p->conts.v[id];
    memset(c, 0, sizeof(*c));
    c->memo = UINT32_MAX;
    c->kind = kind;
    c->state = CS_OPEN;
    c->start = p->op_off;
    *out = (struct pk_value){.tag = kind, .id = id};
    return ST_OK;
}

static inline enum status push(struct pickle *p, struct pk_value v);

static enum status push_new_cont(struct pickle *p, uint8_t kind)
{
    struct pk_value v;
    enum status st = new_cont(p, kind, &v);
    return st != ST_OK ? st : push(p, v);
}

static void release_cont(struct pickle *p, uint32_t id)
{
    struct pk_cont *c = &p->conts.v[id];
    drop_items(p, c);
    c->state = CS_FREE;
    VEC_PUSH(&p->free_conts, id); /* room reserved (and counted) in new_cont */
}

static inline uint16_t value_depth(const struct pickle *p, struct pk_value v)
{
    return pk_is_container(v) ? cont(p, v)->depth : v.depth;
}

/* A value as stored: a replaced container stands for its replacement. */
static inline struct pk_value resolve(const struct pickle *p, struct pk_value v)
{
    if (pk_is_container(v) && cont(p, v)->state == CS_REPLACED)
        return cont(p, v)->repl;
    return v;
}

static enum status seal(struct pickle *p, uint32_t id)
{
    struct pk_cont *c = &p->conts.v[id];
    uint16_t depth = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        uint16_t d = value_depth(p, c->items[i]);
        if (d > depth)
            depth = d;
    }
    depth++;
    if (depth > PK_MAX_DEPTH)
        return fail(p, ST_LIMIT, "containers nested deeper than %d levels", PK_MAX_DEPTH);
    c->depth = depth;
    c->state = CS_SEALED;
    if (!p->o.seal)
        return ST_OK;
    struct pk_value v = {.tag = c->kind, .id = id, .depth = depth};
    enum status st = p->o.seal(p->o.seal_ud, p, &v, p->err);
    if (st != ST_OK)
        return p->err->status ? p->err->status : st;
    c = &p->conts.v[id];
    if (v.tag == c->kind && v.id == id)
        return ST_OK;
    if (pk_is_container(v))
        return fail(p, ST_FORMAT, "internal: a seal hook returned another container");
    v.depth = depth;
    c->repl = v;
    c->state = CS_REPLACED;
    drop_items(p, c);
    if (c->memo != UINT32_MAX) {
        struct pk_value *m = &p->memo.v[c->memo];
        if (m->tag == c->kind && m->id == id)
            *m = v;
    }
    return ST_OK;
}

/* Take a value off the stack to store it somewhere: containers are sealed
 * (the first time) and replaced ones stand for their replacement. */
static inline enum status take(struct pickle *p, struct pk_value *v)
{
    if (!pk_is_container(*v))
        return ST_OK;
    uint32_t id = v->id;
    struct pk_cont *c = &p->conts.v[id];
    c->stack_refs--;
    if (c->state == CS_OPEN) {
        enum status st = seal(p, id);
        if (st != ST_OK)
            return st;
        c = &p->conts.v[id];
    }
    if (c->state == CS_REPLACED) {
        *v = c->repl;
        if (c->stack_refs == 0 && !c->pinned)
            release_cont(p, id);
    }
    return ST_OK;
}

static inline enum status push(struct pickle *p, struct pk_value v)
{
    if (UNLIKELY(p->stack.n >= PK_MAX_STACK))
        return fail(p, ST_LIMIT, "more than %u values on the pickle stack", PK_MAX_STACK);
    if (UNLIKELY(p->stack.n == p->stack.cap)) {
        enum status st = RESERVE(&p->stack, p->stack.n + 1);
        if (st != ST_OK)
            return st;
    }
    if (pk_is_container(v))
        cont(p, v)->stack_refs++;
    p->stack.v[p->stack.n++] = v;
    return ST_OK;
}

#define PUSH(v)                                                                                    \
    do {                                                                                           \
        enum status push_st_ = push(p, (v));                                                       \
        if (push_st_ != ST_OK)                                                                     \
            return push_st_;                                                                       \
    } while (0)

static enum status memo_put(struct pickle *p, uint64_t idx, uint8_t op)
{
    if (p->stack.n == 0)
        return fail(p, ST_FORMAT, "%s with an empty stack", op_names[op]);
    /* Writers number memo slots from 0 up, one per memoized value at most. */
    if (idx >= PK_MAX_MEMO || idx > 2 * p->op_off + 256)
        return fail(p, ST_LIMIT, "%s index %llu is out of range", op_names[op],
                    (unsigned long long)idx);
    if (idx >= p->memo.n) {
        enum status st = RESERVE(&p->memo, idx + 1);
        if (st != ST_OK)
            return st;
        memset(p->memo.v + p->memo.n, 0, (idx + 1 - p->memo.n) * sizeof(*p->memo.v));
        p->memo.n = idx + 1;
    }
    struct pk_value *m = &p->memo.v[idx];
    if (m->tag == PK_UNSET)
        p->memo_count++;
    else if (pk_is_container(*m))
        cont(p, *m)->pinned = true;
    struct pk_value v = resolve(p, p->stack.v[p->stack.n - 1]);
    *m = v;
    if (pk_is_container(v)) {
        struct pk_cont *c = cont(p, v);
        if (c->memo == UINT32_MAX)
            c->memo = (uint32_t)idx;
        else
            c->pinned = true;
    }
    return ST_OK;
}

static enum status memo_get(struct pickle *p, uint64_t idx, uint8_t op)
{
    if (idx >= p->memo.n || p->memo.v[idx].tag == PK_UNSET)
        return fail(p, ST_FORMAT, "%s refers to memo entry %llu, which was never set", op_names[op],
                    (unsigned long long)idx);
    return push(p, resolve(p, p->memo.v[idx]));
}

static enum status pop_mark(struct pickle *p, uint8_t op, size_t *mark)
{
    if (p->marks.n == 0)
        return fail(p, ST_FORMAT, "%s without a MARK", op_names[op]);
    *mark = p->marks.v[--p->marks.n];
    if (*mark > p->stack.n)
        return fail(p, ST_FORMAT, "%s: the stack is shorter than at its MARK", op_names[op]);
    return ST_OK;
}

static enum status cont_append(struct pickle *p, struct pk_value target, const struct pk_value *v,
                               size_t n)
{
    struct pk_cont *c = cont(p, target);
    if (n == 0)
        return ST_OK;
    if (c->n + n > c->cap) {
        size_t cap = c->cap ? c->cap : 4;
        while (cap < c->n + n)
            cap *= 2;
        enum status st = charge(p, (cap - c->cap) * sizeof(*c->items));
        if (st != ST_OK)
            return st;
        c->items = xreallocarray(c->items, cap, sizeof(*c->items));
        c->cap = (uint32_t)cap;
    }
    memcpy(c->items + c->n, v, n * sizeof(*v));
    c->n += (uint32_t)n;
    return ST_OK;
}

/* APPEND(S) and SETITEM(S): move stack[from..] into the container below. */
static enum status add_items(struct pickle *p, size_t from, uint8_t kind, uint8_t op)
{
    if (from == 0)
        return fail(p, ST_FORMAT, "%s without a container below its items", op_names[op]);
    size_t n = p->stack.n - from;
    if (kind == PK_DICT && n % 2)
        return fail(p, ST_FORMAT, "%s with an odd number of keys and values", op_names[op]);
    struct pk_value target = p->stack.v[from - 1];
    if (target.tag != kind)
        return fail(p, ST_FORMAT, "%s needs a %s below its items", op_names[op],
                    kind == PK_DICT ? "dict" : "list");
    if (n + cont(p, target)->n > UINT32_MAX / 2)
        return fail(p, ST_LIMIT, "a container with more than 2^31 items");
    for (size_t i = from; i < p->stack.n; i++) {
        if (cont(p, target)->state != CS_OPEN)
            break;
        enum status st = take(p, &p->stack.v[i]);
        if (st != ST_OK)
            return st;
    }
    if (cont(p, target)->state != CS_OPEN)
        return fail(p, ST_FORMAT,
                    "%s modifies a container that is already stored elsewhere "
                    "(recursive or shared structures are not supported)",
                    op_names[op]);
    enum status st = cont_append(p, target, p->stack.v + from, n);
    p->stack.n = from;
    return st;
}

static enum status make_tuple(struct pickle *p, size_t from)
{
    struct pk_value t;
    enum status st = new_cont(p, PK_TUPLE, &t);
    if (st != ST_OK)
        return st;
    for (size_t i = from; i < p->stack.n; i++) {
        st = take(p, &p->stack.v[i]);
        if (st != ST_OK)
            return st;
    }
    if (p->stack.n > from) /* the stack may still be unallocated */
        st = cont_append(p, t, p->stack.v + from, p->stack.n - from);
    p->stack.n = from;
    return st != ST_OK ? st : push(p, t);
}

/* ------------------------------------------------------------------------ */
/* Opcodes with arguments                                                   */
/* ------------------------------------------------------------------------ */

static enum status op_long1(struct pickle *p)
{
    NEED(1, 0x8a);
    size_t n = p->buf[p->pos];
    if (n > 9)
        return fail(p, ST_LIMIT,
                    "LONG1 of %zu bytes: integers wider than 64 bits are not supported", n);
    NEED(1 + n, 0x8a);
    const uint8_t *b = p->buf + p->pos + 1;
    p->pos += 1 + n;
    struct pk_value v = {.tag = PK_INT};
    uint64_t u = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        u |= (uint64_t)b[i] << (8 * i);
    if (n > 0 && n < 8 && (b[n - 1] & 0x80))
        u |= ~(uint64_t)0 << (8 * n); /* sign-extend */
    if (n == 9) {
        if (b[8] == 0x00 && (u >> 63)) {
            v.tag = PK_UINT;
        } else if (!((b[8] == 0x00 && !(u >> 63)) || (b[8] == 0xff && (u >> 63)))) {
            return fail(p, ST_LIMIT, "LONG1 value does not fit in 64 bits");
        }
    }
    v.u = u;
    return push(p, v);
}

static enum status op_string(struct pickle *p, uint8_t op)
{
    size_t hdr = op == 0x8c ? 1 : op == 'X' ? 4 : 8;
    NEED(hdr, op);
    const uint8_t *b = p->buf + p->pos;
    uint64_t len = op == 0x8c ? b[0] : op == 'X' ? rd_u32(b) : rd_u64(b);
    if (len > PK_MAX_STR)
        return fail(p, ST_LIMIT, "%s of %llu bytes: strings longer than %u MiB are refused",
                    op_names[op], (unsigned long long)len, PK_MAX_STR >> 20);
    if (!p->src->gzip && p->src->in_total && p->op_off + 1 + hdr + len > p->src->in_total)
        return fail(p, ST_TRUNCATED, "%s of %llu byte%s runs past the end of the input",
                    op_names[op], (unsigned long long)len, len == 1 ? "" : "s");
    NEED(hdr + (size_t)len, op);
    const char *s = (const char *)p->buf + p->pos + hdr;
    if (!utf8_valid(s, (size_t)len))
        return fail(p, ST_FORMAT, "%s holds invalid UTF-8", op_names[op]);
    uint32_t id = strtab_intern(p->o.strs, s, (size_t)len);
    p->pos += hdr + (size_t)len;
    return push(p, (struct pk_value){.tag = PK_STR, .id = id});
}

static bool is_type_tag(const char *mod, size_t nm, const char *name, size_t nn)
{
    return nm == 17 && memcmp(mod, "torch.jit._pickle", 17) == 0 && nn == 16 &&
           memcmp(name, "restore_type_tag", 16) == 0;
}

static enum status refuse_global(struct pickle *p, uint8_t op, const char *mod, size_t nm,
                                 const char *name, size_t nn)
{
    char *m = msg_text(mod, nm), *n = msg_text(name, nn);
    fail(p, ST_UNSAFE,
         "refused %s %s.%s: torchtop reads plain data and never imports or calls anything "
         "(only torch.jit._pickle.restore_type_tag is accepted)",
         op_names[op], m, n);
    free(m);
    free(n);
    return ST_UNSAFE;
}

static enum status op_global(struct pickle *p)
{
    if (!refill(p, 2 * PK_MAX_LINE + 2))
        return p->err->status;
    const char *s = (const char *)p->buf + p->pos;
    size_t avail = p->len - p->pos;
    const char *nl1 = memchr(s, '\n', MIN(avail, PK_MAX_LINE + 1));
    const char *nl2 =
        nl1 ? memchr(nl1 + 1, '\n', MIN(avail - (size_t)(nl1 + 1 - s), PK_MAX_LINE + 1)) : NULL;
    if (!nl1 || !nl2) {
        if (p->eof && avail < 2 * PK_MAX_LINE + 2)
            return fail(p, ST_TRUNCATED, "the input ends inside GLOBAL");
        return fail(p, ST_FORMAT, "GLOBAL with a module or name longer than %d bytes", PK_MAX_LINE);
    }
    size_t nm = (size_t)(nl1 - s), nn = (size_t)(nl2 - nl1 - 1);
    if (!is_type_tag(s, nm, nl1 + 1, nn))
        return refuse_global(p, 'c', s, nm, nl1 + 1, nn);
    p->pos += (size_t)(nl2 + 1 - s);
    return push(p, (struct pk_value){.tag = PK_TAGFN});
}

static enum status op_stack_global(struct pickle *p)
{
    if (p->stack.n < 2)
        return fail(p, ST_FORMAT, "STACK_GLOBAL needs a module and a name on the stack");
    struct pk_value mod = p->stack.v[p->stack.n - 2], name = p->stack.v[p->stack.n - 1];
    if (mod.tag != PK_STR || name.tag != PK_STR)
        return refuse_global(p, 0x93, "?", 1, "?", 1);
    const struct strtab *st = p->o.strs;
    if (!is_type_tag(strtab_str(st, mod.id), strtab_len(st, mod.id), strtab_str(st, name.id),
                     strtab_len(st, name.id)))
        return refuse_global(p, 0x93, strtab_str(st, mod.id), strtab_len(st, mod.id),
                             strtab_str(st, name.id), strtab_len(st, name.id));
    p->stack.n -= 2;
    return push(p, (struct pk_value){.tag = PK_TAGFN});
}

static enum status refuse(struct pickle *p, uint8_t op)
{
    return fail(p, ST_UNSAFE,
                "refused opcode %s (0x%02x): torchtop reads plain data and never constructs "
                "objects",
                op_names[op], op);
}

/* restore_type_tag(value, type_string) is the identity on value. */
static enum status op_reduce(struct pickle *p)
{
    if (p->stack.n < 2 || p->stack.v[p->stack.n - 2].tag != PK_TAGFN)
        return refuse(p, 'R');
    struct pk_value args = p->stack.v[--p->stack.n];
    p->stack.n--;
    if (args.tag != PK_TUPLE)
        return fail(p, ST_FORMAT, "REDUCE of restore_type_tag without an argument tuple");
    enum status st = take(p, &args);
    if (st != ST_OK)
        return st;
    if (args.tag != PK_TUPLE)
        return fail(p, ST_FORMAT, "REDUCE of restore_type_tag without an argument tuple");
    struct pk_cont *c = cont(p, args);
    if (c->n < 1 || c->n > 2)
        return fail(p, ST_FORMAT, "restore_type_tag takes 1 or 2 arguments, not %u", c->n);
    struct pk_value v = c->items[0];
    if (c->memo == UINT32_MAX && c->stack_refs == 0)
        release_cont(p, args.id);
    return push(p, v);
}

/* ------------------------------------------------------------------------ */
/* The machine                                                              */
/* ------------------------------------------------------------------------ */

static enum status step(struct pickle *p, uint8_t op, struct pk_value *root, bool *stop)
{
    const uint8_t *b;
    size_t mark;
    enum status st;
    switch (op) {
    case 0x80: /* PROTO */
        NEED(1, op);
        p->proto = p->buf[p->pos++];
        if (p->proto < 2 || p->proto > 5)
            return fail(p, ST_FORMAT, "pickle protocol %d is not supported (2 to 5 are)", p->proto);
        return ST_OK;
    case 0x95: /* FRAME: framing is a hint for buffered readers; we stream anyway */
        NEED(8, op);
        p->pos += 8;
        return ST_OK;
    case '.':
        if (p->stack.n == 0)
            return fail(p, ST_FORMAT, "STOP with an empty stack");
        *root = p->stack.v[--p->stack.n];
        *stop = true;
        return take(p, root);
    case '(':
        if (p->marks.n >= PK_MAX_DEPTH + 8)
            return fail(p, ST_LIMIT, "MARKs nested deeper than %d levels", PK_MAX_DEPTH + 8);
        VEC_PUSH(&p->marks, p->stack.n);
        return ST_OK;
    case '}':
        return push_new_cont(p, PK_DICT);
    case ']':
        return push_new_cont(p, PK_LIST);
    case ')':
        return push_new_cont(p, PK_TUPLE);
    case 's':
        if (p->stack.n < 3)
            return fail(p, ST_FORMAT, "SETITEM needs a dict, a key and a value");
        return add_items(p, p->stack.n - 2, PK_DICT, op);
    case 'u':
        if ((st = pop_mark(p, op, &mark)) != ST_OK)
            return st;
        return add_items(p, mark, PK_DICT, op);
    case 'a':
        if (p->stack.n < 2)
            return fail(p, ST_FORMAT, "APPEND needs a list and a value");
        return add_items(p, p->stack.n - 1, PK_LIST, op);
    case 'e':
        if ((st = pop_mark(p, op, &mark)) != ST_OK)
            return st;
        return add_items(p, mark, PK_LIST, op);
    case 0x85:
    case 0x86:
    case 0x87:
        if (p->stack.n < (size_t)(op - 0x84))
            return fail(p, ST_FORMAT, "%s needs %d value%s on the stack", op_names[op], op - 0x84,
                        op == 0x85 ? "" : "s");
        return make_tuple(p, p->stack.n - (size_t)(op - 0x84));
    case 't':
        if ((st = pop_mark(p, op, &mark)) != ST_OK)
            return st;
        return make_tuple(p, mark);
    case 'N':
        return push(p, (struct pk_value){.tag = PK_NONE});
    case 0x88:
    case 0x89:
        return push(p, (struct pk_value){.tag = PK_BOOL, .i = op == 0x88});
    case 'J':
        NEED(4, op);
        b = p->buf + p->pos;
        p->pos += 4;
        return push(p, (struct pk_value){.tag = PK_INT, .i = (int32_t)rd_u32(b)});
    case 'K':
        NEED(1, op);
        return push(p, (struct pk_value){.tag = PK_INT, .i = p->buf[p->pos++]});
    case 'M':
        NEED(2, op);
        b = p->buf + p->pos;
        p->pos += 2;
        return push(p, (struct pk_value){.tag = PK_INT, .i = b[0] | b[1] << 8});
    case 0x8a:
        return op_long1(p);
    case 'G': {
        NEED(8, op);
        b = p->buf + p->pos;
        p->pos += 8;
        uint64_t u = 0;
        for (int i = 0; i < 8; i++)
            u = u << 8 | b[i];
        struct pk_value v = {.tag = PK_FLOAT};
        memcpy(&v.f, &u, sizeof(u));
        return push(p, v);
    }
    case 0x8c:
    case 'X':
    case 0x8d:
        return op_string(p, op);
    case 0x94:
        return memo_put(p, p->memo_count, op);
    case 'q':
        NEED(1, op);
        return memo_put(p, p->buf[p->pos++], op);
    case 'r':
        NEED(4, op);
        p->pos += 4;
        return memo_put(p, rd_u32(p->buf + p->pos - 4), op);
    case 'h':
        NEED(1, op);
        return memo_get(p, p->buf[p->pos++], op);
    case 'j':
        NEED(4, op);
        p->pos += 4;
        return memo_get(p, rd_u32(p->buf + p->pos - 4), op);
    case 'c':
        return op_global(p);
    case 0x93:
        return op_stack_global(p);
    case 'R':
        return op_reduce(p);
    case 'b':
    case 'i':
    case 'o':
    case 0x81:
    case 0x92:
    case 'P':
    case 'Q':
    case 0x82:
    case 0x83:
    case 0x84:
        return refuse(p, op);
    default:
        if (op_names[op])
            return fail(p, ST_FORMAT,
                        "unsupported opcode %s (0x%02x): memory snapshots do not use it",
                        op_names[op], op);
        return fail(p, ST_FORMAT, "unknown opcode 0x%02x: not a pickle, or a corrupt one", op);
    }
}

static enum status run(struct pickle *p, struct pk_value *root)
{
    bool stop = false;
    if (!refill(p, 2))
        return p->err->status;
    if (p->len == 0)
        return fail(p, ST_FORMAT, "empty input: expected a pickle");
    if (p->buf[0] != 0x80)
        return fail(p, ST_FORMAT,
                    "not a pickle of protocol 2 to 5: it starts with 0x%02x, not PROTO (0x80)",
                    p->buf[0]);
    while (!stop) {
        if (UNLIKELY(p->pos >= p->len)) {
            if (!refill(p, 1))
                return p->err->status;
            if (p->pos >= p->len) {
                p->op_off = p->base + p->pos;
                return fail(p, ST_TRUNCATED, "the input ends before the pickle's STOP opcode");
            }
            if (p->o.cancel && *p->o.cancel)
                return fail(p, ST_CANCELLED, "loading cancelled");
        }
        p->op_off = p->base + p->pos;
        uint8_t op = p->buf[p->pos++];
        enum status st = step(p, op, root, &stop);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

enum status pickle_load(struct source *src, const struct pickle_opts *opts, struct pickle **out,
                        struct pk_value *root, struct errinfo *err)
{
    struct pickle *p = xcalloc(1, sizeof(*p));
    p->src = src;
    p->err = err;
    p->o = *opts;
    p->cap = BUF_SIZE;
    p->buf = xmalloc(p->cap);
    p->proto = 0;
    *root = (struct pk_value){.tag = PK_NONE};
    enum status st = run(p, root);
    if (st != ST_OK && err->status == ST_OK)
        errinfo_set_at(err, st, src->name, pickle_offset_what(p), p->op_off, "%s", status_str(st));
    /* Only the containers reachable from root are needed from here on. */
    free(p->buf);
    p->buf = NULL;
    VEC_FREE(&p->stack);
    VEC_FREE(&p->marks);
    VEC_FREE(&p->memo);
    VEC_FREE(&p->free_conts);
    if (st != ST_OK) {
        pickle_free(p);
        *out = NULL;
        *root = (struct pk_value){.tag = PK_NONE};
        return st;
    }
    *out = p;
    return ST_OK;
}

void pickle_free(struct pickle *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->conts.n; i++)
        free(p->conts.v[i].items);
    VEC_FREE(&p->conts);
    VEC_FREE(&p->free_conts);
    VEC_FREE(&p->stack);
    VEC_FREE(&p->marks);
    VEC_FREE(&p->memo);
    free(p->buf);
    free(p);
}
