/* Shared between dwarfidx.c (unit table, lookups) and dwarfunit.c (reading
 * one unit's lines and functions). Not an API. */
#ifndef TORCHTOP_CORE_DWARFIDX_INTERNAL_H
#define TORCHTOP_CORE_DWARFIDX_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "core/symbols/dwarfidx.h"
#include "core/base/strtab.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"

/* A line table row. */
struct lrow {
    uint64_t addr;
    uint32_t line;
    uint32_t file; /* index into unit.files, IDX_NONE when unknown */
    uint32_t column;
    uint32_t discr_end; /* discriminator << 1 | end_sequence */
};

/* A function instance: an out-of-line subprogram or an inlined call. */
struct scope {
    uint32_t name;      /* strtab id, 0 ("") when unknown */
    uint32_t parent;    /* caller scope for inlined calls, else IDX_NONE */
    uint32_t call_file; /* where the caller called it (inlined calls) */
    uint32_t call_line;
    uint32_t call_column;
    uint32_t call_discr;
};

/* A run of addresses [lo, next piece's lo) mapped to `id` (IDX_NONE: a
 * gap). In a unit's pieces the id is a function (index into unit.funcs);
 * in a function's pieces, the innermost scope there. */
struct piece {
    uint64_t lo;
    uint32_t id;
};

/* An address range [lo, hi). */
struct frange {
    uint64_t lo, hi;
};

/* An out-of-line function of a unit. Its inlined calls are read the first
 * time an address falls in it. */
struct func {
    Dwarf_Off off;   /* its DIE */
    uint32_t scope;  /* its scope */
    uint32_t ranges; /* its ranges: unit.franges[ranges .. ranges + nranges) */
    uint32_t nranges;
    bool read;            /* inlined calls read into pieces */
    struct piece *pieces; /* the function and its inlined calls, folded */
    size_t npieces;
};

enum unit_state { UNIT_NEW, UNIT_READY, UNIT_FAILED };

struct unit {
    Dwarf_Off off;     /* global offset of the unit's top DIE */
    uint16_t version;  /* DWARF version of the unit header */
    uint64_t base;     /* the unit's base address (DW_AT_low_pc), once read */
    uint8_t state;     /* enum unit_state */
    struct lrow *rows; /* sorted by address */
    size_t nrows;
    uint32_t *files; /* strtab ids of the line table's files */
    size_t nfiles;
    uint32_t file_base;       /* file number of files[0]: 1 before DWARF 5 */
    VEC(struct scope) scopes; /* functions and inlined calls read so far */
    VEC(struct func) funcs;   /* out-of-line functions */
    struct frange *franges;   /* the functions' ranges, by function */
    struct piece *pieces;     /* the functions' ranges folded, sorted by lo */
    size_t npieces;
};

struct unit_range {
    uint64_t lo, hi;
    uint32_t unit;
};

struct dwarfidx {
    Dwarf_Debug dbg;
    struct strtab strs; /* names and paths */
    struct unit *units;
    size_t nunits;
    struct unit_range *ranges; /* sorted by lo */
    size_t nranges;
    struct hmap name_of_die; /* DIE offset -> strtab id of its name */
    size_t aranges_units;
    size_t units_loaded;
    size_t funcs_read; /* functions whose inlined calls were read */
};

typedef void (*range_fn)(void *ud, uint64_t lo, uint64_t hi);
/* Address ranges of a DIE from its attribute list, already read: calls
 * add(ud, lo, hi) for each non-empty range. `base` is the unit base for
 * DWARF 4 .debug_ranges; `version` the unit's. */
void dwarfidx_attrs_ranges(struct dwarfidx *d, Dwarf_Die die, Dwarf_Attribute *attrs,
                           Dwarf_Signed n, uint16_t version, uint64_t base, range_fn add, void *ud);

/* Discard a libdwarf error (every call passes a Dwarf_Error*). */
void dwarfidx_drop_error(struct dwarfidx *d, Dwarf_Error *err);

/* Read the lines and the out-of-line functions of unit u (dwarfunit.c);
 * sets u->state. */
void dwarfunit_load(struct dwarfidx *d, struct unit *u);
/* Read the inlined calls of function f of unit u (once). */
void dwarfunit_func_load(struct dwarfidx *d, struct unit *u, struct func *f);
void dwarfunit_free(struct unit *u);

#endif
