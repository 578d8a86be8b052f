/* Internals of the pickle reader shared by its files (pickle.c reads,
 * pickle_value.c gives access to what was read). Not for other modules. */
#ifndef TORCHTOP_CORE_PICKLE_INTERNAL_H
#define TORCHTOP_CORE_PICKLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/snapshot/pickle.h"
#include "core/base/vec.h"

enum cont_state { CS_OPEN, CS_SEALED, CS_REPLACED, CS_FREE };

/* A list, dict or tuple in the pool. */
struct pk_cont {
    struct pk_value *items; /* n values (dicts: key, value pairs) */
    uint32_t n, cap;
    uint32_t memo;        /* memo index that holds it, UINT32_MAX = none */
    uint32_t stack_refs;  /* handles to it on the value stack */
    uint16_t depth;       /* set when sealed */
    uint8_t kind;         /* PK_LIST, PK_DICT or PK_TUPLE */
    uint8_t state;        /* enum cont_state */
    bool pinned;          /* referenced from the memo in ways we do not track */
    struct pk_value repl; /* CS_REPLACED: what the hook made of it */
    uint64_t start;       /* offset of the opcode that made it */
};

/* The reader. */
struct pickle {
    struct source *src;
    struct errinfo *err;
    struct pickle_opts o;

    uint8_t *buf; /* window of the decompressed input */
    size_t cap, pos, len;
    uint64_t base; /* offset of buf[0] in the input */
    bool eof;
    uint64_t next_progress;

    uint64_t op_off; /* offset of the opcode being run */
    int proto;

    VEC(struct pk_value) stack;
    VEC(size_t) marks;
    VEC(struct pk_value) memo;
    size_t memo_count; /* memo slots set (Python's len(memo)) */
    VEC(struct pk_cont) conts;
    VEC(uint32_t) free_conts;
    size_t held; /* bytes of stack, memo, pool and items (the budget's count) */
};

static inline struct pk_cont *cont(const struct pickle *p, struct pk_value v)
{
    return &p->conts.v[v.id];
}

#endif
