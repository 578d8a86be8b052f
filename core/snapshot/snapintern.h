/* Interning of frames and stacks while a snapshot loads (snapload.c):
 * equal {filename, line, name} triples get one frame id, equal frame-id
 * lists one stack id. Frame flags (enum snap_frame_flags) are set when a
 * frame is first interned. */
#ifndef TORCHTOP_CORE_SNAPINTERN_H
#define TORCHTOP_CORE_SNAPINTERN_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/hmap.h"
#include "core/snapshot/snapshot.h"
#include "core/base/vec.h"

struct snapintern {
    struct hmap frames;  /* (file, name, line) -> frame id */
    struct hmap stacks;  /* frame ids -> stack id */
    VEC(uint32_t) shash; /* per stack: low bits of hash_bytes of its frame ids */
};

/* Start interning into s, whose frames and stacks are empty; creates the
 * empty stack 0. */
void snapintern_init(struct snapintern *x, struct snapshot *s);
void snapintern_free(struct snapintern *x);
/* Frame id of (file, name, line), strtab ids of s; adds it when new. */
uint32_t snapintern_frame(struct snapintern *x, struct snapshot *s, uint32_t file, uint32_t name,
                          int64_t line);
/* Stack id of the frame ids ids[0..n), n >= 1; adds it when new. */
uint32_t snapintern_stack(struct snapintern *x, struct snapshot *s, const uint32_t *ids, size_t n);

#endif
