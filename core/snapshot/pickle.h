/* A streaming reader for the data subset of Python pickles (protocols 2-5).
 *
 * It reads through a struct source (file, gzip, stdin or memory) and never
 * constructs objects: the accepted opcodes are PROTO, FRAME, STOP, MARK,
 * EMPTY_DICT, SETITEM(S), EMPTY_LIST, APPEND(S), EMPTY_TUPLE, TUPLE1/2/3,
 * TUPLE, NONE, NEWTRUE/NEWFALSE, BININT, BININT1, BININT2, LONG1 (up to 9
 * bytes: a 9-byte value in [2^63, 2^64) is PK_UINT), BINFLOAT,
 * SHORT_BINUNICODE, BINUNICODE, BINUNICODE8, MEMOIZE, BINPUT/LONG_BINPUT
 * and BINGET/LONG_BINGET. Strings must be valid UTF-8. The one call allowed
 * is torch.jit._pickle.restore_type_tag (GLOBAL or STACK_GLOBAL, then its
 * argument tuple and REDUCE), which older C++ writers wrap around dicts and
 * lists: the reader keeps the value and drops the tag. Every other opcode
 * that builds objects (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ,
 * NEWOBJ, NEWOBJ_EX, PERSID, BINPERSID, EXT1/2/4) is refused with ST_UNSAFE,
 * and the remaining opcodes with ST_FORMAT, naming the opcode and its byte.
 *
 * Values are small tagged records (struct pk_value). Strings are interned
 * into the caller's strtab. Lists, dicts and tuples live in a container
 * pool; each container is "sealed" when it is first stored into another
 * container (or returned at STOP), and a seal hook may then replace it by a
 * compact value of its own (PK_USER), which frees the container and is what
 * later memo references (BINGET) yield. This is how a consumer turns
 * millions of memoized frame dicts into shared frame ids without a generic
 * object tree of the whole file. A sealed container cannot be modified
 * again, so recursive structures are refused. */
#ifndef TORCHTOP_CORE_PICKLE_H
#define TORCHTOP_CORE_PICKLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/errinfo.h"
#include "core/base/source.h"
#include "core/base/strbuf.h"
#include "core/base/strtab.h"

/* Nesting deeper than this is refused (ST_LIMIT). */
#define PK_MAX_DEPTH 256

enum pk_tag {
    PK_UNSET, /* internal: an unused memo slot */
    PK_NONE,
    PK_BOOL,  /* i: 0 or 1 */
    PK_INT,   /* i: a signed 64-bit integer */
    PK_UINT,  /* u: an integer in [2^63, 2^64) (9-byte LONG1) */
    PK_FLOAT, /* f */
    PK_STR,   /* id: strtab id (valid UTF-8) */
    PK_LIST,  /* id: container */
    PK_DICT,  /* id: container; items are key, value, key, value... */
    PK_TUPLE, /* id: container */
    PK_USER,  /* set by the seal hook: sub = its kind, id and i its payload */
    PK_TAGFN, /* internal: the restore_type_tag callable */
};

struct pk_value {
    uint8_t tag;    /* enum pk_tag */
    uint8_t sub;    /* PK_USER: the hook's kind */
    uint16_t depth; /* nesting depth of containers and user values, 0 for scalars */
    uint32_t id;    /* PK_STR: strtab id; containers: pool index; PK_USER: payload */
    union {
        int64_t i;
        uint64_t u;
        double f;
    };
};

struct pickle;

/* Called once per container when it is sealed, with *v a PK_LIST, PK_DICT
 * or PK_TUPLE whose items are final (nested containers already sealed or
 * replaced). The hook may read it (pk_items) and replace *v by any value
 * that is not a container (typically PK_USER); leaving *v as it is keeps
 * the container. Returning anything but ST_OK (with err filled) stops the
 * load with that status. */
typedef enum status (*pk_seal_fn)(void *ud, struct pickle *p, struct pk_value *v,
                                  struct errinfo *err);
/* Progress: raw input bytes consumed, and the raw input size (0 = unknown). */
typedef void (*pk_progress_fn)(void *ud, uint64_t done, uint64_t total);

struct pickle_opts {
    struct strtab *strs; /* where strings are interned (required) */
    pk_seal_fn seal;     /* optional */
    void *seal_ud;
    pk_progress_fn progress; /* optional, called about every 4 MiB */
    void *progress_ud;
    const volatile int *cancel; /* optional: stop (ST_CANCELLED) when *cancel != 0 */
};

/* Read one pickle from src up to its STOP; bytes after STOP are not read.
 * On ST_OK, *out is a reader holding every container still reachable from
 * *root (free it with pickle_free; strings stay in opts->strs). On failure
 * *out is NULL and err says what was wrong at which byte (uncompressed
 * offset for gzip input): ST_TRUNCATED, ST_FORMAT, ST_UNSAFE, ST_LIMIT,
 * ST_IO, ST_GZIP or ST_CANCELLED. */
enum status pickle_load(struct source *src, const struct pickle_opts *opts, struct pickle **out,
                        struct pk_value *root, struct errinfo *err);
void pickle_free(struct pickle *p);

/* Protocol from PROTO (2-5). */
int pickle_protocol(const struct pickle *p);
/* Offset (decompressed bytes) of the opcode being executed; for hooks' messages. */
uint64_t pickle_offset(const struct pickle *p);
/* Offset of the opcode that made container v (EMPTY_DICT, EMPTY_LIST, a
 * tuple opcode), for messages about it; pickle_offset for anything else
 * (after the load: the STOP opcode's). */
uint64_t pk_offset(const struct pickle *p, struct pk_value v);
/* What offsets count: "byte", or "byte (uncompressed)" in gzip input. */
const char *pickle_offset_what(const struct pickle *p);

static inline bool pk_is_container(struct pk_value v)
{
    return v.tag == PK_LIST || v.tag == PK_DICT || v.tag == PK_TUPLE;
}
/* Items of a container: n values (for a dict 2 * pairs, keys at even
 * positions, in file order; a later equal key overrides an earlier one).
 * Empty for anything else. Pointers are valid until the next opcode runs
 * (inside a hook) or until pickle_free (after the load). */
const struct pk_value *pk_items(const struct pickle *p, struct pk_value v, size_t *n);
/* Value of a dict for a string key id (the last one set), or false. */
bool pk_dict_get(const struct pickle *p, struct pk_value dict, uint32_t key, struct pk_value *out);
/* An integer value as int64 (PK_INT, PK_BOOL; PK_UINT wraps); false otherwise. */
bool pk_as_i64(struct pk_value v, int64_t *out);
/* An integer value as uint64 (negative PK_INT wraps); false otherwise. */
bool pk_as_u64(struct pk_value v, uint64_t *out);

/* Python-like repr of a value ({'a': [1, (2,)], 'b': None}); PK_USER
 * values print as <user K:ID>. Appends to out at most PK_REPR_MAX bytes and
 * "..." when the repr is longer: memo references can make a small pickle's
 * repr exponentially long. */
#define PK_REPR_MAX 4096
void pickle_repr(const struct pickle *p, struct pk_value v, struct strbuf *out);

/* Name of an opcode byte ("BINGET"), or NULL for bytes that are no opcode. */
const char *pickle_opcode_name(uint8_t op);

#endif
