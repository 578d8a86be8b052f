/* An address index over the DWARF of one file, through libdwarf (the
 * 20210528 API).
 *
 * Opening reads only the unit table: .debug_aranges when present, and the
 * top DIE of every compile unit for the units aranges do not cover (clang
 * writes no aranges). The rest is read on demand and kept:
 * - a unit's line table and its out-of-line functions (DW_TAG_subprogram
 *   with code, through namespaces and classes, without their children)
 *   the first time an address falls in the unit; the line table becomes
 *   one array sorted by address (sequences starting at 0 or at a
 *   tombstone, left by the linker for discarded code, dropped), the
 *   functions' ranges one sorted array of address pieces;
 * - a function's inlined calls (DW_TAG_inlined_subroutine, through lexical
 *   blocks) the first time an address falls in that function, folded with
 *   the function's own ranges into pieces that each name the innermost
 *   inlined call there.
 * Ranges are low/high pc, DWARF 4 .debug_ranges relative to the unit base,
 * or DWARF 5 rnglists. A lookup is three binary searches and a walk up the
 * inline chain. Subprograms nested inside other subprograms (GNU C nested
 * functions) are not indexed: their addresses get the line table's answer
 * and the symbol table's name.
 * Function names are linkage names when DWARF has one (following
 * DW_AT_abstract_origin / DW_AT_specification, as llvm-symbolizer does),
 * else DW_AT_name; they are not demangled here.
 *
 * Not thread-safe: one thread at a time per index (symbolize.c holds a
 * lock). Strings handed out stay valid until dwarfidx_free. */
#ifndef TORCHTOP_CORE_DWARFIDX_H
#define TORCHTOP_CORE_DWARFIDX_H

#include <stddef.h>
#include <stdint.h>

/* One frame of an answer. */
struct dw_frame {
    const char *function;   /* linkage or plain name; NULL when unknown */
    const char *file;       /* source path; NULL when unknown */
    uint32_t line;          /* 0 when unknown (or compiler-generated) */
    uint32_t column;        /* 0 when unknown */
    uint32_t discriminator; /* 0 when none */
};

struct dwarfidx;

/* Open the DWARF of the ELF file at path. On failure returns NULL with a
 * malloc'd reason in *why (e.g. "no DWARF debug information"). */
struct dwarfidx *dwarfidx_open(const char *path, char **why);
void dwarfidx_free(struct dwarfidx *d);

/* The frames at address pc, innermost (the inlined callee) first, at most
 * max of them; returns how many were written, 0 when no unit covers pc.
 * A unit covering pc without a function there gives one frame with a NULL
 * function. */
size_t dwarfidx_lookup(struct dwarfidx *d, uint64_t pc, struct dw_frame *out, size_t max);

/* Counters for tests and benchmarks. */
struct dwarfidx_stats {
    size_t units;         /* compile units with code */
    size_t units_loaded;  /* units whose lines and functions were read */
    size_t aranges_units; /* units placed by .debug_aranges */
    size_t rows;          /* line rows kept */
    size_t funcs;         /* out-of-line functions of the units read */
    size_t funcs_read;    /* of which the inlined calls were read */
    size_t pieces;        /* inline pieces kept */
};
void dwarfidx_get_stats(const struct dwarfidx *d, struct dwarfidx_stats *out);

#endif
