/* ELF reading for the symbolizer: sections, notes, debuglink, symbols,
 * and the search for separate debug files. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base/common.h"
#include "core/symbols/elfmod.h"
#include "core/base/sort.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"

/* One section header, widened to 64 bits. */
struct shdr {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t entsize;
};

static bool in_file(const struct elfmod *m, uint64_t off, uint64_t len)
{
    return off <= m->size && len <= m->size - off;
}

static uint16_t rd16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static bool read_shdr(const struct elfmod *m, uint64_t shoff, uint16_t shentsize, size_t i,
                      struct shdr *out)
{
    uint64_t off = shoff + (uint64_t)i * shentsize;
    if (m->is64) {
        if (shentsize < sizeof(Elf64_Shdr) || !in_file(m, off, sizeof(Elf64_Shdr)))
            return false;
        const uint8_t *p = m->map + off;
        out->name = rd32(p + offsetof(Elf64_Shdr, sh_name));
        out->type = rd32(p + offsetof(Elf64_Shdr, sh_type));
        out->flags = rd64(p + offsetof(Elf64_Shdr, sh_flags));
        out->addr = rd64(p + offsetof(Elf64_Shdr, sh_addr));
        out->offset = rd64(p + offsetof(Elf64_Shdr, sh_offset));
        out->size = rd64(p + offsetof(Elf64_Shdr, sh_size));
        out->link = rd32(p + offsetof(Elf64_Shdr, sh_link));
        out->info = rd32(p + offsetof(Elf64_Shdr, sh_info));
        out->entsize = rd64(p + offsetof(Elf64_Shdr, sh_entsize));
    } else {
        if (shentsize < sizeof(Elf32_Shdr) || !in_file(m, off, sizeof(Elf32_Shdr)))
            return false;
        const uint8_t *p = m->map + off;
        out->name = rd32(p + offsetof(Elf32_Shdr, sh_name));
        out->type = rd32(p + offsetof(Elf32_Shdr, sh_type));
        out->flags = rd32(p + offsetof(Elf32_Shdr, sh_flags));
        out->addr = rd32(p + offsetof(Elf32_Shdr, sh_addr));
        out->offset = rd32(p + offsetof(Elf32_Shdr, sh_offset));
        out->size = rd32(p + offsetof(Elf32_Shdr, sh_size));
        out->link = rd32(p + offsetof(Elf32_Shdr, sh_link));
        out->info = rd32(p + offsetof(Elf32_Shdr, sh_info));
        out->entsize = rd32(p + offsetof(Elf32_Shdr, sh_entsize));
    }
    return true;
}

/* The NUL-terminated string at `off` of a string table section, or NULL
 * when it runs past the section. */
static const char *str_at(const struct elfmod *m, const struct shdr *strtab, uint64_t off)
{
    if (strtab->type == SHT_NOBITS || off >= strtab->size ||
        !in_file(m, strtab->offset, strtab->size))
        return NULL;
    const char *s = (const char *)m->map + strtab->offset + off;
    return memchr(s, '\0', strtab->size - off) ? s : NULL;
}

static void parse_notes(struct elfmod *m, const struct shdr *sh)
{
    if (sh->type == SHT_NOBITS || !in_file(m, sh->offset, sh->size))
        return;
    const uint8_t *p = m->map + sh->offset, *end = p + sh->size;
    while (end - p >= 12) {
        uint32_t namesz = rd32(p), descsz = rd32(p + 4), type = rd32(p + 8);
        uint64_t nameal = ((uint64_t)namesz + 3) & ~3ull, descal = ((uint64_t)descsz + 3) & ~3ull;
        if (nameal + descal > (uint64_t)(end - p - 12))
            return;
        const uint8_t *name = p + 12, *desc = name + nameal;
        if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(name, "GNU", 4) == 0 && descsz &&
            descsz <= sizeof(m->build_id)) {
            memcpy(m->build_id, desc, descsz);
            m->build_id_len = descsz;
        }
        p = desc + descal;
    }
}

static void parse_debuglink(struct elfmod *m, const struct shdr *sh)
{
    if (sh->type == SHT_NOBITS || !in_file(m, sh->offset, sh->size) || sh->size < 5)
        return;
    const char *s = (const char *)m->map + sh->offset;
    size_t len = strnlen(s, sh->size);
    uint64_t crc_off = ((uint64_t)len + 4) & ~3ull;
    if (len == 0 || len == sh->size || crc_off + 4 > sh->size || memchr(s, '/', len))
        return;
    m->debuglink = xstrndup(s, len);
    m->debuglink_crc = rd32((const uint8_t *)s + crc_off);
}

/* DWARF 5 range and location list sections are checked before libdwarf
 * sees them. libdwarf 20210528 frees a malformed unit header's context and
 * then keeps using it (a double free), and follows offset table entries
 * (DW_FORM_rnglistx) without bounds. The unit headers must tile the
 * section: a unit length of at least the header, version 5, an address
 * size of 4 or 8, an offset table inside the unit, and every table entry
 * pointing inside the unit. In a relocatable object libdwarf applies the
 * section's relocations first: none may touch a header or offset table
 * (lists_relocs_ok). */
struct span {
    uint64_t lo, hi;
};
typedef VEC(struct span) span_vec;

struct lists_walk {
    uint64_t pos;    /* bytes seen */
    uint64_t next;   /* offset of the next unit header */
    uint8_t buf[20]; /* the header or table entry being gathered */
    size_t have;
    uint64_t entries; /* table entries of this unit still to check */
    uint8_t esize;    /* their size: 4, or 8 in 64-bit DWARF */
    uint64_t limit;   /* they must be below this */
    bool bad;
    span_vec *fixed; /* each unit's header and offset table */
};

/* buf holds a whole header, which ended at pos. */
static void lists_header(struct lists_walk *w)
{
    bool dw64 = rd32(w->buf) == 0xffffffffu;
    size_t hsize = dw64 ? 20 : 12;
    uint64_t start = w->pos - hsize;
    uint64_t len = dw64 ? rd64(w->buf + 4) : rd32(w->buf);
    const uint8_t *h = w->buf + (dw64 ? 12 : 4);
    uint64_t count = rd32(h + 4);
    w->esize = dw64 ? 8 : 4;
    if ((!dw64 && len >= 0xfffffff0u) || len < 8 || len > UINT64_MAX - start - 12 || rd16(h) != 5 ||
        (h[2] != 4 && h[2] != 8) || count * w->esize > len - 8) {
        w->bad = true;
        return;
    }
    w->next = start + len + (dw64 ? 12 : 4);
    w->entries = count;
    VEC_PUSH(w->fixed, ((struct span){start, w->pos + count * w->esize}));
    w->limit = w->next - (start + hsize); /* entries count from the table's start */
}

static void lists_feed(struct lists_walk *w, const uint8_t *p, size_t n)
{
    while (n && !w->bad) {
        if (w->pos < w->next && !w->entries) {
            size_t skip = w->next - w->pos < n ? (size_t)(w->next - w->pos) : n;
            p += skip;
            n -= skip;
            w->pos += skip;
            continue;
        }
        /* A table entry, or a header (its first 4 bytes tell the 32- from
         * the 64-bit form). */
        size_t want = w->entries                    ? w->esize
                      : w->have < 4                 ? 4
                      : rd32(w->buf) == 0xffffffffu ? 20
                                                    : 12;
        size_t take = MIN(n, want - w->have);
        memcpy(w->buf + w->have, p, take);
        w->have += take;
        w->pos += take;
        p += take;
        n -= take;
        if (w->have < want || (!w->entries && want == 4))
            continue;
        if (w->entries) {
            uint64_t v = w->esize == 8 ? rd64(w->buf) : rd32(w->buf);
            w->bad = v >= w->limit;
            w->entries--;
        } else {
            lists_header(w);
        }
        w->have = 0;
    }
}

static bool lists_done(const struct lists_walk *w)
{
    return !w->bad && w->have == 0 && w->entries == 0 && w->next == w->pos;
}

/* Feed the inflated zlib stream in[0..n) to w; false when it is corrupt
 * or does not inflate to exactly `size` bytes. */
static bool lists_inflate(struct lists_walk *w, const uint8_t *in, uint64_t n, uint64_t size)
{
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    if (n > UINT32_MAX || inflateInit(&zs) != Z_OK)
        return false;
    uint8_t *buf = xmalloc(64 * 1024);
    zs.next_in = (Bytef *)in;
    zs.avail_in = (uInt)n;
    int r;
    do {
        zs.next_out = buf;
        zs.avail_out = 64 * 1024;
        r = inflate(&zs, Z_NO_FLUSH);
        lists_feed(w, buf, 64 * 1024 - zs.avail_out);
    } while (r == Z_OK && !w->bad && zs.total_out <= size);
    bool ok = r == Z_STREAM_END && zs.total_out == size;
    inflateEnd(&zs);
    free(buf);
    return ok;
}

/* Whether a .debug_rnglists / .debug_loclists section (plain, SHF_COMPRESSED
 * or .zdebug_) is safe to hand to libdwarf; *fixed receives the spans of
 * its unit headers and offset tables. */
static bool lists_section_ok(const struct elfmod *m, const struct shdr *sh, bool zdebug,
                             span_vec *fixed)
{
    if (sh->type == SHT_NOBITS || sh->size == 0)
        return true;
    if (!in_file(m, sh->offset, sh->size))
        return false;
    const uint8_t *p = m->map + sh->offset;
    struct lists_walk w = {.fixed = fixed};
    if (sh->flags & SHF_COMPRESSED) {
        size_t hlen = m->is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
        if (sh->size < hlen || rd32(p) != ELFCOMPRESS_ZLIB)
            return false;
        uint64_t size = m->is64 ? rd64(p + offsetof(Elf64_Chdr, ch_size))
                                : rd32(p + offsetof(Elf32_Chdr, ch_size));
        if (!lists_inflate(&w, p + hlen, sh->size - hlen, size))
            return false;
    } else if (zdebug) {
        if (sh->size < 12 || memcmp(p, "ZLIB", 4) != 0)
            return false;
        uint64_t size = 0;
        for (int i = 4; i < 12; i++)
            size = size << 8 | p[i];
        if (!lists_inflate(&w, p + 12, sh->size - 12, size))
            return false;
    } else {
        lists_feed(&w, p, sh->size);
    }
    return lists_done(&w);
}

/* Whether the relocations in section rel (SHT_RELA or SHT_REL) stay clear
 * of the spans in fixed. A relocation is taken to write 8 bytes, the
 * widest there is. */
static bool lists_relocs_ok(const struct elfmod *m, const struct shdr *rel, const span_vec *fixed)
{
    size_t esize = rel->type == SHT_RELA ? (m->is64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rela))
                                         : (m->is64 ? sizeof(Elf64_Rel) : sizeof(Elf32_Rel));
    if (rel->size == 0 || fixed->n == 0)
        return true;
    if (!in_file(m, rel->offset, rel->size))
        return false;
    for (uint64_t k = 0; k < rel->size / esize; k++) {
        const uint8_t *e = m->map + rel->offset + k * esize;
        uint64_t at = m->is64 ? rd64(e) : rd32(e);
        for (size_t j = 0; j < fixed->n; j++)
            if (at < fixed->v[j].hi && at + 8 > fixed->v[j].lo)
                return false;
    }
    return true;
}

#define DWARF_LISTS_BAD                                                                            \
    "corrupt DWARF: a malformed range or location list header, or a relocation over one"

static bool is_lists_section(const char *name, bool *zdebug)
{
    *zdebug = strncmp(name, ".zdebug_", 8) == 0;
    const char *s = name + (*zdebug ? 8 : strncmp(name, ".debug_", 7) == 0 ? 7 : 0);
    if (s == name)
        return false;
    return strcmp(s, "rnglists") == 0 || strcmp(s, "loclists") == 0 ||
           strcmp(s, "rnglists.dwo") == 0 || strcmp(s, "loclists.dwo") == 0;
}

/* Of several symbols at one address the largest is kept, and of those the
 * last in the symbol table, as llvm-symbolizer does (the sort is stable). */
struct symkey {
    struct elf_sym sym;
    uint64_t section_end; /* end of the symbol's section, for size-less ones */
};

static inline bool sym_less(const struct symkey *a, const struct symkey *b)
{
    if (a->sym.addr != b->sym.addr)
        return a->sym.addr < b->sym.addr;
    return a->sym.size < b->sym.size;
}

SORT_DEFINE(sym_sort, struct symkey, sym_less)

static void parse_symbols(struct elfmod *m, const struct shdr *shs, size_t nsh, size_t symsec)
{
    const struct shdr *sh = &shs[symsec];
    size_t entsize = m->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
    if (sh->type == SHT_NOBITS || !in_file(m, sh->offset, sh->size) || sh->link >= nsh)
        return;
    const struct shdr *strtab = &shs[sh->link];
    size_t n = sh->size / entsize;
    VEC(struct symkey) v = {0};
    for (size_t i = 1; i < n; i++) {
        const uint8_t *p = m->map + sh->offset + i * entsize;
        uint32_t name;
        uint64_t value, size;
        uint8_t info;
        uint16_t shndx;
        if (m->is64) {
            name = rd32(p + offsetof(Elf64_Sym, st_name));
            info = p[offsetof(Elf64_Sym, st_info)];
            shndx = rd16(p + offsetof(Elf64_Sym, st_shndx));
            value = rd64(p + offsetof(Elf64_Sym, st_value));
            size = rd64(p + offsetof(Elf64_Sym, st_size));
        } else {
            name = rd32(p + offsetof(Elf32_Sym, st_name));
            info = p[offsetof(Elf32_Sym, st_info)];
            shndx = rd16(p + offsetof(Elf32_Sym, st_shndx));
            value = rd32(p + offsetof(Elf32_Sym, st_value));
            size = rd32(p + offsetof(Elf32_Sym, st_size));
        }
        unsigned type = info & 0xf;
        if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || value == 0)
            continue;
        bool code = shndx < nsh && (shs[shndx].flags & SHF_EXECINSTR);
        if (!(type == STT_FUNC || type == STT_GNU_IFUNC || (type == STT_NOTYPE && code)))
            continue;
        const char *s = str_at(m, strtab, name);
        if (!s || !*s || s[0] == '$')
            continue;
        uint64_t end = 0;
        if (code && value >= shs[shndx].addr && value - shs[shndx].addr < shs[shndx].size)
            end = shs[shndx].addr + shs[shndx].size;
        VEC_PUSH(&v, ((struct symkey){{value, size, s}, end}));
    }
    sym_sort(v.v, v.n);
    m->syms = xmalloc((v.n ? v.n : 1) * sizeof(*m->syms));
    for (size_t i = 0; i < v.n; i++) {
        if (i + 1 < v.n && v.v[i + 1].sym.addr == v.v[i].sym.addr)
            continue; /* keep the best one per address */
        struct elf_sym sym = v.v[i].sym;
        /* A symbol kept without a size (_init, _fini, assembly) covers up
         * to the next symbol, as llvm-symbolizer has it, but never past the
         * end of its section (the PLT after _init is in no function). */
        if (sym.size == 0 && v.v[i].section_end > sym.addr) {
            uint64_t end = v.v[i].section_end;
            if (i + 1 < v.n && v.v[i + 1].sym.addr < end)
                end = v.v[i + 1].sym.addr;
            sym.size = end - sym.addr;
        }
        m->syms[m->nsyms++] = sym;
    }
    VEC_FREE(&v);
}

static bool parse(struct elfmod *m, bool symbols, const char **why)
{
    const uint8_t *h = m->map;
    if (m->size < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG) != 0) {
        *why = "not an ELF file";
        return false;
    }
    if (h[EI_DATA] != ELFDATA2LSB || (h[EI_CLASS] != ELFCLASS64 && h[EI_CLASS] != ELFCLASS32)) {
        *why = "unsupported ELF class or byte order";
        return false;
    }
    m->is64 = h[EI_CLASS] == ELFCLASS64;
    uint64_t shoff;
    uint16_t shentsize, shnum_raw, shstrndx;
    if (m->is64) {
        if (m->size < sizeof(Elf64_Ehdr))
            goto truncated;
        m->type = rd16(h + offsetof(Elf64_Ehdr, e_type));
        m->machine = rd16(h + offsetof(Elf64_Ehdr, e_machine));
        shoff = rd64(h + offsetof(Elf64_Ehdr, e_shoff));
        shentsize = rd16(h + offsetof(Elf64_Ehdr, e_shentsize));
        shnum_raw = rd16(h + offsetof(Elf64_Ehdr, e_shnum));
        shstrndx = rd16(h + offsetof(Elf64_Ehdr, e_shstrndx));
    } else {
        if (m->size < sizeof(Elf32_Ehdr))
            goto truncated;
        m->type = rd16(h + offsetof(Elf32_Ehdr, e_type));
        m->machine = rd16(h + offsetof(Elf32_Ehdr, e_machine));
        shoff = rd32(h + offsetof(Elf32_Ehdr, e_shoff));
        shentsize = rd16(h + offsetof(Elf32_Ehdr, e_shentsize));
        shnum_raw = rd16(h + offsetof(Elf32_Ehdr, e_shnum));
        shstrndx = rd16(h + offsetof(Elf32_Ehdr, e_shstrndx));
    }
    if (shoff == 0)
        return true; /* no sections: nothing to read, not an error */
    struct shdr first;
    if (!read_shdr(m, shoff, shentsize, 0, &first))
        goto truncated;
    uint64_t nsh = shnum_raw ? shnum_raw : first.size;
    uint32_t strndx = shstrndx == SHN_XINDEX ? first.link : shstrndx;
    if (nsh > m->size / (shentsize ? shentsize : 1))
        goto truncated;
    struct shdr *shs = xmalloc(nsh * sizeof(*shs));
    for (size_t i = 0; i < nsh; i++)
        if (!read_shdr(m, shoff, shentsize, i, &shs[i])) {
            free(shs);
            goto truncated;
        }
    size_t symtab = SIZE_MAX, dynsym = SIZE_MAX;
    span_vec *fixed = xcalloc(nsh ? nsh : 1, sizeof(*fixed)); /* of the lists sections */
    for (size_t i = 0; i < nsh; i++) {
        const char *name = strndx < nsh ? str_at(m, &shs[strndx], shs[i].name) : NULL;
        if (!name)
            name = "";
        if ((strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0) &&
            shs[i].type != SHT_NOBITS && shs[i].size > 0)
            m->has_dwarf = true;
        else if (strcmp(name, ".gnu_debuglink") == 0 && !m->debuglink)
            parse_debuglink(m, &shs[i]);
        bool zdebug;
        if (is_lists_section(name, &zdebug) && !lists_section_ok(m, &shs[i], zdebug, &fixed[i]))
            m->dwarf_unsafe = DWARF_LISTS_BAD;
        /* libdwarf allocates a section's size before it checks that the
         * file holds it. */
        if (shs[i].type != SHT_NOBITS && !in_file(m, shs[i].offset, shs[i].size) &&
            !m->dwarf_unsafe)
            m->dwarf_unsafe = "corrupt ELF: a section extends past the end of the file";
        if (shs[i].type == SHT_NOTE && !m->build_id_len)
            parse_notes(m, &shs[i]);
        else if (shs[i].type == SHT_SYMTAB && symtab == SIZE_MAX)
            symtab = i;
        else if (shs[i].type == SHT_DYNSYM && dynsym == SIZE_MAX)
            dynsym = i;
    }
    for (size_t i = 0; i < nsh; i++)
        if (m->type == ET_REL && (shs[i].type == SHT_RELA || shs[i].type == SHT_REL) &&
            shs[i].info < nsh && !lists_relocs_ok(m, &shs[i], &fixed[shs[i].info]))
            m->dwarf_unsafe = DWARF_LISTS_BAD;
    for (size_t i = 0; i < nsh; i++)
        VEC_FREE(&fixed[i]);
    free(fixed);
    m->has_symtab = symtab != SIZE_MAX;
    if (symbols && (symtab != SIZE_MAX || dynsym != SIZE_MAX))
        parse_symbols(m, shs, nsh, symtab != SIZE_MAX ? symtab : dynsym);
    free(shs);
    return true;
truncated:
    *why = "truncated or corrupt ELF file";
    return false;
}

/* Why a file that is not a regular one is not read: a FIFO or a device
 * would block or never end. */
static const char *not_regular(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "not a regular file (a FIFO): only regular ELF files are read";
    if (S_ISDIR(mode))
        return "not a regular file (a directory): only regular ELF files are read";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "not a regular file (a device): only regular ELF files are read";
    return "not a regular file: only regular ELF files are read";
}

/* Open path for reading without blocking: O_NONBLOCK returns at once from
 * a FIFO with no writer (then rejected), and does nothing to a regular
 * file. */
static int open_regular(const char *path, struct stat *st, const char **why)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        *why = errno == ENOENT || errno == ENOTDIR ? "file not found" : "cannot open the file";
        return -1;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        *why = not_regular(st->st_mode);
        return -1;
    }
    return fd;
}

static struct elfmod *open_file(const char *path, bool symbols, const char **why)
{
    struct stat st;
    int fd = open_regular(path, &st, why);
    if (fd < 0)
        return NULL;
    if (st.st_size < EI_NIDENT) {
        close(fd);
        *why = "not an ELF file";
        return NULL;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        *why = "cannot map the file";
        return NULL;
    }
    struct elfmod *m = xcalloc(1, sizeof(*m));
    m->path = xstrdup(path);
    m->map = map;
    m->size = (size_t)st.st_size;
    if (!parse(m, symbols, why)) {
        elfmod_free(m);
        return NULL;
    }
    return m;
}

struct elfmod *elfmod_open(const char *path, const char **why)
{
    return open_file(path, true, why);
}

bool elfmod_dwarf_safe(const char *path, const char **why)
{
    struct elfmod *m = open_file(path, false, why);
    if (!m)
        return false;
    const char *bad = m->dwarf_unsafe;
    elfmod_free(m);
    if (bad)
        *why = bad;
    return !bad;
}

void elfmod_free(struct elfmod *m)
{
    if (!m)
        return;
    if (m->map)
        munmap((void *)m->map, m->size);
    free(m->path);
    free(m->debuglink);
    free(m->syms);
    free(m);
}

const struct elf_sym *elfmod_symbol_at(const struct elfmod *m, uint64_t addr)
{
    size_t lo = 0, hi = m->nsyms;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct elf_sym *s = &m->syms[lo - 1];
    if (s->size && addr - s->addr >= s->size)
        return NULL;
    return s;
}

bool elfmod_symbol_addr(const struct elfmod *m, const char *name, uint64_t *addr)
{
    for (size_t i = 0; i < m->nsyms; i++)
        if (strcmp(m->syms[i].name, name) == 0) {
            *addr = m->syms[i].addr;
            return true;
        }
    return false;
}

const char *elfmod_check(const char *path)
{
    unsigned char magic[SELFMAG];
    struct stat st;
    const char *why;
    int fd = open_regular(path, &st, &why);
    if (fd < 0)
        return why;
    bool ok = read(fd, magic, SELFMAG) == SELFMAG && memcmp(magic, ELFMAG, SELFMAG) == 0;
    close(fd);
    return ok ? NULL : "not an ELF file";
}

bool elfmod_is_elf(const char *path)
{
    return !elfmod_check(path);
}

static bool same_build_id(const struct elfmod *m, const char *path)
{
    const char *why;
    struct elfmod *d = open_file(path, false, &why);
    bool ok = d && d->build_id_len == m->build_id_len &&
              memcmp(d->build_id, m->build_id, m->build_id_len) == 0 && d->has_dwarf;
    elfmod_free(d);
    return ok;
}

static bool crc_matches(const char *path, uint32_t want)
{
    const char *why;
    struct elfmod *d = open_file(path, false, &why);
    if (!d)
        return false;
    uLong crc = crc32(0L, Z_NULL, 0);
    for (size_t off = 0; off < d->size;) {
        size_t chunk = d->size - off > (1u << 30) ? (1u << 30) : d->size - off;
        crc = crc32(crc, d->map + off, (uInt)chunk);
        off += chunk;
    }
    bool ok = (uint32_t)crc == want && d->has_dwarf;
    elfmod_free(d);
    return ok;
}

char *elfmod_find_debug_file(const struct elfmod *m, const char *const *debug_dirs, size_t ndirs)
{
    static const char *const default_dirs[] = {"/usr/lib/debug"};
    if (!debug_dirs || !ndirs) {
        debug_dirs = default_dirs;
        ndirs = 1;
    }
    if (m->build_id_len >= 2) {
        char hex[2 * sizeof(m->build_id) + 1];
        for (size_t i = 0; i < m->build_id_len; i++)
            snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
        for (size_t d = 0; d < ndirs; d++) {
            char *p = xasprintf("%s/.build-id/%.2s/%s.debug", debug_dirs[d], hex, hex + 2);
            if (same_build_id(m, p))
                return p;
            free(p);
        }
    }
    if (!m->debuglink)
        return NULL;
    char real[PATH_MAX];
    const char *base = realpath(m->path, real) ? real : m->path;
    const char *slash = strrchr(base, '/');
    char *dir = slash ? xstrndup(base, (size_t)(slash - base)) : xstrdup(".");
    char *found = NULL;
    char *cands[2] = {
        xasprintf("%s/%s", dir, m->debuglink),
        xasprintf("%s/.debug/%s", dir, m->debuglink),
    };
    for (size_t k = 0; k < 2 && !found; k++)
        if (strcmp(cands[k], base) != 0 && crc_matches(cands[k], m->debuglink_crc))
            found = xstrdup(cands[k]);
    for (size_t d = 0; d < ndirs && !found; d++) {
        char *p =
            xasprintf("%s%s%s/%s", debug_dirs[d], dir[0] == '/' ? "" : "/", dir, m->debuglink);
        if (crc_matches(p, m->debuglink_crc))
            found = p;
        else
            free(p);
    }
    free(cands[0]);
    free(cands[1]);
    free(dir);
    return found;
}
