/* ELF files as the symbolizer needs them: identity (build id,
 * .gnu_debuglink), whether DWARF is present, the function symbols, and
 * where the separate debug file is.
 *
 * The file is mapped read-only and checked before any use: every offset
 * and size read from it is bounds-checked, so a truncated or hostile file
 * gives an error, never a crash. 32- and 64-bit little-endian ELF. */
#ifndef TORCHTOP_CORE_ELFMOD_H
#define TORCHTOP_CORE_ELFMOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A function symbol: [addr, addr + size) (size 0: up to the next one). */
struct elf_sym {
    uint64_t addr;
    uint64_t size;
    const char *name; /* NUL-terminated, inside the mapped string table */
};

struct elfmod {
    char *path;         /* as opened */
    const uint8_t *map; /* the whole file, read-only */
    size_t size;
    bool is64;
    uint16_t type;          /* ET_EXEC, ET_DYN, ... */
    uint16_t machine;       /* EM_X86_64, EM_AARCH64, ... */
    bool has_dwarf;         /* .debug_info (or .zdebug_info) with content */
    bool has_symtab;        /* a .symtab (not only .dynsym) */
    uint8_t build_id[64];   /* NT_GNU_BUILD_ID descriptor */
    size_t build_id_len;    /* 0 when none */
    char *debuglink;        /* .gnu_debuglink file name, or NULL */
    uint32_t debuglink_crc; /* its CRC-32 */
    struct elf_sym *syms;   /* function symbols, sorted by addr */
    size_t nsyms;
    const char *dwarf_unsafe; /* why libdwarf must not read this file (a
                                 static string), or NULL: see
                                 elfmod_dwarf_safe */
};

/* Open and check path. On failure returns NULL and sets *why to a static
 * reason ("file not found", "not an ELF file", ...). The caller frees the
 * module with elfmod_free. */
struct elfmod *elfmod_open(const char *path, const char **why);
void elfmod_free(struct elfmod *m);

/* The symbol covering addr: the last symbol at or below addr, unless it
 * has a size and addr lies past its end. NULL when none. */
const struct elf_sym *elfmod_symbol_at(const struct elfmod *m, uint64_t addr);

/* The address of the function symbol named `name`, for "lib.so(sym+0x10)"
 * locations; false when there is none. Linear in the symbol count. */
bool elfmod_symbol_addr(const struct elfmod *m, const char *name, uint64_t *addr);

/* Find the separate debug file of m the way gdb does:
 *   DIR/.build-id/xx/yyyy.debug             for each DIR in debug_dirs
 *   <dir of m>/NAME, <dir of m>/.debug/NAME, DIR/<dir of m>/NAME
 *                                           for the .gnu_debuglink NAME
 * A build-id candidate must carry the same build id; a debuglink candidate
 * must match the CRC-32. Returns a malloc'd path or NULL. debug_dirs may be
 * NULL (then "/usr/lib/debug" alone). */
char *elfmod_find_debug_file(const struct elfmod *m, const char *const *debug_dirs, size_t ndirs);

/* Whether libdwarf may read path: an ELF file whose DWARF 5 range and
 * location list headers are well formed (libdwarf 20210528 corrupts its
 * heap on malformed ones). False with a static reason in *why otherwise. */
bool elfmod_dwarf_safe(const char *path, const char **why);

/* Why path cannot be read as an ELF file ("file not found", "not a regular
 * file (a FIFO): ...", "not an ELF file"), or NULL when it is a regular
 * ELF file. Only regular files are opened, and never in a way that waits
 * (a FIFO without a writer would block forever). The reason is static. */
const char *elfmod_check(const char *path);
/* Whether path is a regular ELF file (elfmod_check finds nothing wrong). */
bool elfmod_is_elf(const char *path);

#endif
