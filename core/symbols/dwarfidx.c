/* The unit table of a DWARF index and address lookups (see dwarfidx.h);
 * reading a unit's contents is in dwarfunit.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/symbols/dwarfidx_internal.h"
#include "core/symbols/elfmod.h"
#include "core/base/sort.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"

/* Nested or overlapping unit ranges are rare; a lookup looks this many
 * ranges back from the last one starting at or below the address. */
#define UNIT_LOOKBACK 16

void dwarfidx_drop_error(struct dwarfidx *d, Dwarf_Error *err)
{
    if (*err)
        dwarf_dealloc_error(d->dbg, *err);
    *err = NULL;
}

/* ------------------------------------------------------------------------ */
/* Ranges of a DIE                                                          */
/* ------------------------------------------------------------------------ */

static bool is_addr_form(Dwarf_Half form)
{
    return form == DW_FORM_addr || form == DW_FORM_addrx || form == DW_FORM_addrx1 ||
           form == DW_FORM_addrx2 || form == DW_FORM_addrx3 || form == DW_FORM_addrx4 ||
           form == DW_FORM_GNU_addr_index;
}

static void ranges_v4(struct dwarfidx *d, Dwarf_Die die, Dwarf_Attribute attr, uint64_t base,
                      range_fn add, void *ud)
{
    Dwarf_Error err = NULL;
    Dwarf_Off off = 0, real = 0;
    if (dwarf_global_formref(attr, &off, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        Dwarf_Unsigned u = 0;
        if (dwarf_formudata(attr, &u, &err) != DW_DLV_OK) {
            dwarfidx_drop_error(d, &err);
            return;
        }
        off = u;
    }
    Dwarf_Ranges *r = NULL;
    Dwarf_Signed n = 0;
    Dwarf_Unsigned bytes = 0;
    if (dwarf_get_ranges_b(d->dbg, off, die, &real, &r, &n, &bytes, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    for (Dwarf_Signed i = 0; i < n; i++) {
        if (r[i].dwr_type == DW_RANGES_END)
            break;
        if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
            base = r[i].dwr_addr2;
        else if (r[i].dwr_addr2 > r[i].dwr_addr1)
            add(ud, base + r[i].dwr_addr1, base + r[i].dwr_addr2);
    }
    dwarf_ranges_dealloc(d->dbg, r, n);
}

static Dwarf_Unsigned rnglists_size(struct dwarfidx *d)
{
    Dwarf_Unsigned sz[20] = {0};
    if (dwarf_get_section_max_offsets_d(d->dbg, &sz[0], &sz[1], &sz[2], &sz[3], &sz[4], &sz[5],
                                        &sz[6], &sz[7], &sz[8], &sz[9], &sz[10], &sz[11], &sz[12],
                                        &sz[13], &sz[14], &sz[15], &sz[16], &sz[17], &sz[18],
                                        &sz[19]) != DW_DLV_OK)
        return 0;
    return sz[19]; /* .debug_rnglists */
}

static void ranges_v5(struct dwarfidx *d, Dwarf_Attribute attr, range_fn add, void *ud)
{
    Dwarf_Error err = NULL;
    Dwarf_Half form = 0;
    if (dwarf_whatform(attr, &form, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    Dwarf_Unsigned value = 0;
    int res;
    if (form == DW_FORM_rnglistx) {
        res = dwarf_formudata(attr, &value, &err);
    } else {
        Dwarf_Off off = 0;
        res = dwarf_global_formref(attr, &off, &err);
        value = off;
    }
    if (res != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    /* libdwarf 20210528 reads a list at any offset it is given when the
     * unit has DW_AT_rnglists_base: keep offsets inside the section. Table
     * entries (DW_FORM_rnglistx) were checked by elfmod_dwarf_safe. */
    if (form != DW_FORM_rnglistx && value >= rnglists_size(d))
        return;
    Dwarf_Rnglists_Head head = NULL;
    Dwarf_Unsigned count = 0, global = 0;
    if (dwarf_rnglists_get_rle_head(attr, form, value, &head, &count, &global, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    for (Dwarf_Unsigned i = 0; i < count; i++) {
        unsigned len = 0, code = 0;
        Dwarf_Unsigned raw1 = 0, raw2 = 0, lo = 0, hi = 0;
        Dwarf_Bool unavailable = 0;
        if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &raw1, &raw2, &unavailable, &lo,
                                              &hi, &err) != DW_DLV_OK) {
            dwarfidx_drop_error(d, &err);
            break;
        }
        if (code == DW_RLE_end_of_list)
            break;
        bool is_range = code == DW_RLE_offset_pair || code == DW_RLE_startx_endx ||
                        code == DW_RLE_startx_length || code == DW_RLE_start_end ||
                        code == DW_RLE_start_length;
        if (is_range && !unavailable && hi > lo)
            add(ud, lo, hi);
    }
    dwarf_dealloc_rnglists_head(head);
}

/* Address ranges of a DIE: calls add(ud, lo, hi) for each non-empty range.
 * `base` is the unit base for DWARF 4 .debug_ranges; `version` the unit's. */
static void dwarfidx_die_ranges(struct dwarfidx *d, Dwarf_Die die, uint16_t version, uint64_t base,
                                range_fn add, void *ud)
{
    Dwarf_Error err = NULL;
    Dwarf_Attribute *attrs = NULL;
    Dwarf_Signed n = 0;
    if (dwarf_attrlist(die, &attrs, &n, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    dwarfidx_attrs_ranges(d, die, attrs, n, version, base, add, ud);
    for (Dwarf_Signed i = 0; i < n; i++)
        dwarf_dealloc_attribute(attrs[i]);
    dwarf_dealloc(d->dbg, attrs, DW_DLA_LIST);
}

void dwarfidx_attrs_ranges(struct dwarfidx *d, Dwarf_Die die, Dwarf_Attribute *attrs,
                           Dwarf_Signed n, uint16_t version, uint64_t base, range_fn add, void *ud)
{
    Dwarf_Error err = NULL;
    bool has_lo = false, has_hi = false, hi_is_addr = false;
    Dwarf_Addr lo = 0;
    Dwarf_Unsigned hi = 0;
    Dwarf_Attribute ranges = NULL;
    for (Dwarf_Signed i = 0; i < n; i++) {
        Dwarf_Half at = 0, form = 0;
        if (dwarf_whatattr(attrs[i], &at, &err) != DW_DLV_OK ||
            dwarf_whatform(attrs[i], &form, &err) != DW_DLV_OK) {
            dwarfidx_drop_error(d, &err);
            continue;
        }
        if (at == DW_AT_low_pc) {
            has_lo = dwarf_formaddr(attrs[i], &lo, &err) == DW_DLV_OK;
        } else if (at == DW_AT_high_pc) {
            hi_is_addr = is_addr_form(form);
            if (hi_is_addr) {
                Dwarf_Addr a = 0;
                has_hi = dwarf_formaddr(attrs[i], &a, &err) == DW_DLV_OK;
                hi = a;
            } else {
                has_hi = dwarf_formudata(attrs[i], &hi, &err) == DW_DLV_OK;
            }
        } else if (at == DW_AT_ranges) {
            ranges = attrs[i];
        }
        dwarfidx_drop_error(d, &err);
    }
    if (has_lo && has_hi) {
        uint64_t end = hi_is_addr ? hi : lo + hi;
        if (end > lo)
            add(ud, lo, end);
    } else if (ranges) {
        if (version >= 5)
            ranges_v5(d, ranges, add, ud);
        else
            ranges_v4(d, die, ranges, has_lo ? lo : base, add, ud);
    }
}

/* ------------------------------------------------------------------------ */
/* The unit table                                                           */
/* ------------------------------------------------------------------------ */

static inline bool range_less(const struct unit_range *a, const struct unit_range *b)
{
    if (a->lo != b->lo)
        return a->lo < b->lo;
    return a->hi > b->hi;
}

SORT_DEFINE(range_sort, struct unit_range, range_less)

typedef VEC(struct unit_range) range_vec;

struct range_sink {
    range_vec *v;
    uint32_t unit;
};

/* Addresses at 0 or at the -1/-2 tombstones belong to code the linker
 * discarded. */
static bool discarded(uint64_t lo)
{
    return lo == 0 || lo >= UINT64_MAX - 1;
}

static void add_unit_range(void *ud, uint64_t lo, uint64_t hi)
{
    struct range_sink *s = ud;
    if (!discarded(lo))
        VEC_PUSH(s->v, ((struct unit_range){lo, hi, s->unit}));
}

/* .debug_aranges: (start, length, unit DIE offset) triples. */
struct arange {
    uint64_t lo, hi;
    Dwarf_Off unit_off;
};

typedef VEC(struct arange) arange_vec;

static void read_aranges(struct dwarfidx *d, arange_vec *out)
{
    Dwarf_Error err = NULL;
    Dwarf_Arange *ar = NULL;
    Dwarf_Signed n = 0;
    int res = dwarf_get_aranges(d->dbg, &ar, &n, &err);
    if (res != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    for (Dwarf_Signed i = 0; i < n; i++) {
        Dwarf_Unsigned seg = 0, seg_size = 0, len = 0;
        Dwarf_Addr start = 0;
        Dwarf_Off off = 0;
        if (dwarf_get_arange_info_b(ar[i], &seg, &seg_size, &start, &len, &off, &err) ==
                DW_DLV_OK &&
            len > 0)
            VEC_PUSH(out, ((struct arange){start, start + len, off}));
        dwarfidx_drop_error(d, &err);
        dwarf_dealloc(d->dbg, ar[i], DW_DLA_ARANGE);
    }
    dwarf_dealloc(d->dbg, ar, DW_DLA_LIST);
}

static inline bool arange_less(const struct arange *a, const struct arange *b)
{
    return a->unit_off < b->unit_off;
}

SORT_DEFINE(arange_sort, struct arange, arange_less)

static bool build_unit_table(struct dwarfidx *d, char **why)
{
    arange_vec ar = {0};
    read_aranges(d, &ar);
    arange_sort(ar.v, ar.n);

    VEC(struct unit) units = {0};
    range_vec ranges = {0};
    Dwarf_Error err = NULL;
    for (;;) {
        Dwarf_Unsigned hdr_len = 0, typeoff = 0, next = 0;
        Dwarf_Half version = 0, addr_size = 0, len_size = 0, ext_size = 0, unit_type = 0;
        Dwarf_Off abbrev = 0;
        Dwarf_Sig8 sig;
        int res =
            dwarf_next_cu_header_d(d->dbg, 1, &hdr_len, &version, &abbrev, &addr_size, &len_size,
                                   &ext_size, &sig, &typeoff, &next, &unit_type, &err);
        if (res == DW_DLV_NO_ENTRY)
            break;
        if (res != DW_DLV_OK) {
            /* The iterator cannot go on; keep the units read so far. */
            dwarfidx_drop_error(d, &err);
            break;
        }
        Dwarf_Die die = NULL;
        if (dwarf_siblingof_b(d->dbg, NULL, 1, &die, &err) != DW_DLV_OK) {
            dwarfidx_drop_error(d, &err);
            continue;
        }
        Dwarf_Half tag = 0;
        Dwarf_Off off = 0;
        if (dwarf_tag(die, &tag, &err) != DW_DLV_OK ||
            dwarf_dieoffset(die, &off, &err) != DW_DLV_OK ||
            (tag != DW_TAG_compile_unit && tag != DW_TAG_skeleton_unit)) {
            dwarfidx_drop_error(d, &err);
            dwarf_dealloc_die(die);
            continue;
        }
        uint32_t idx = (uint32_t)units.n;
        struct unit *u = VEC_ADD(&units);
        u->off = off;
        u->version = version;
        u->state = UNIT_NEW;
        /* Ranges from aranges when it lists this unit, else from its DIE. */
        size_t lo = 0, hi = ar.n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (ar.v[mid].unit_off < off)
                lo = mid + 1;
            else
                hi = mid;
        }
        struct range_sink sink = {&ranges, idx};
        if (lo < ar.n && ar.v[lo].unit_off == off) {
            d->aranges_units++;
            for (; lo < ar.n && ar.v[lo].unit_off == off; lo++)
                add_unit_range(&sink, ar.v[lo].lo, ar.v[lo].hi);
        } else {
            dwarfidx_die_ranges(d, die, version, 0, add_unit_range, &sink);
        }
        dwarf_dealloc_die(die);
    }
    VEC_FREE(&ar);
    range_sort(ranges.v, ranges.n);
    d->units = units.v;
    d->nunits = units.n;
    d->ranges = ranges.v;
    d->nranges = ranges.n;
    if (!d->nunits) {
        *why = xstrdup("no compile units in the DWARF debug information");
        return false;
    }
    return true;
}

struct dwarfidx *dwarfidx_open(const char *path, char **why)
{
    Dwarf_Debug dbg = NULL;
    Dwarf_Error err = NULL;
    *why = NULL;
    const char *unsafe = NULL;
    if (!elfmod_dwarf_safe(path, &unsafe)) {
        *why = xstrdup(unsafe);
        return NULL;
    }
    /* Every libdwarf object is released by its owner here, so libdwarf's
     * own tracking of allocations (a search tree, a third of the time of
     * reading a unit) is not needed. */
    dwarf_set_de_alloc_flag(0);
    int res = dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg,
                              NULL, 0, NULL, &err);
    if (res == DW_DLV_NO_ENTRY) {
        *why = xstrdup("no DWARF debug information");
        return NULL;
    }
    if (res != DW_DLV_OK) {
        *why = xasprintf("cannot read the DWARF: %s", err ? dwarf_errmsg(err) : "unknown error");
        if (err)
            dwarf_dealloc_error(dbg, err);
        return NULL;
    }
    struct dwarfidx *d = xcalloc(1, sizeof(*d));
    d->dbg = dbg;
    strtab_init(&d->strs);
    hmap_init(&d->name_of_die, 1024);
    if (!build_unit_table(d, why)) {
        dwarfidx_free(d);
        return NULL;
    }
    return d;
}

void dwarfidx_free(struct dwarfidx *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->nunits; i++)
        dwarfunit_free(&d->units[i]);
    free(d->units);
    free(d->ranges);
    hmap_free(&d->name_of_die);
    strtab_free(&d->strs);
    Dwarf_Error err = NULL;
    if (d->dbg && dwarf_finish(d->dbg, &err) != DW_DLV_OK && err)
        dwarf_dealloc_error(NULL, err);
    free(d);
}

/* ------------------------------------------------------------------------ */
/* Lookups                                                                  */
/* ------------------------------------------------------------------------ */

static struct unit *unit_for(struct dwarfidx *d, uint64_t pc)
{
    size_t lo = 0, hi = d->nranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->ranges[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = 0; k < UNIT_LOOKBACK && lo > 0; k++, lo--) {
        const struct unit_range *r = &d->ranges[lo - 1];
        if (pc < r->hi)
            return &d->units[r->unit];
    }
    return NULL;
}

static const struct lrow *row_for(const struct unit *u, uint64_t pc)
{
    size_t lo = 0, hi = u->nrows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->rows[mid].addr <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || (u->rows[lo - 1].discr_end & 1))
        return NULL;
    return &u->rows[lo - 1];
}

static uint32_t piece_at(const struct piece *p, size_t n, uint64_t pc)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? p[lo - 1].id : IDX_NONE;
}

/* The innermost scope at pc: the function there, then its inlined calls
 * (read on first use). */
static uint32_t scope_for(struct dwarfidx *d, struct unit *u, uint64_t pc)
{
    uint32_t fi = piece_at(u->pieces, u->npieces, pc);
    if (fi == IDX_NONE)
        return IDX_NONE;
    struct func *f = &u->funcs.v[fi];
    if (!f->read)
        dwarfunit_func_load(d, u, f);
    uint32_t s = piece_at(f->pieces, f->npieces, pc);
    return s != IDX_NONE ? s : f->scope;
}

static const char *file_name(const struct dwarfidx *d, const struct unit *u, uint32_t file)
{
    if (file == IDX_NONE || file < u->file_base || file - u->file_base >= u->nfiles)
        return NULL;
    return strtab_str(&d->strs, u->files[file - u->file_base]);
}

static const char *scope_name(const struct dwarfidx *d, const struct scope *s)
{
    return s->name ? strtab_str(&d->strs, s->name) : NULL;
}

size_t dwarfidx_lookup(struct dwarfidx *d, uint64_t pc, struct dw_frame *out, size_t max)
{
    if (!max)
        return 0;
    struct unit *u = unit_for(d, pc);
    if (!u)
        return 0;
    if (u->state == UNIT_NEW) {
        dwarfunit_load(d, u);
        d->units_loaded++;
    }
    const struct lrow *row = row_for(u, pc);
    uint32_t s = scope_for(d, u, pc);
    struct dw_frame *f = &out[0];
    memset(f, 0, sizeof(*f));
    if (row) {
        f->file = row->file == IDX_NONE ? NULL : strtab_str(&d->strs, u->files[row->file]);
        f->line = row->line;
        f->column = row->column;
        f->discriminator = row->discr_end >> 1;
    }
    if (s == IDX_NONE)
        return 1;
    f->function = scope_name(d, &u->scopes.v[s]);
    size_t n = 1;
    while (u->scopes.v[s].parent != IDX_NONE && n < max) {
        const struct scope *callee = &u->scopes.v[s];
        s = callee->parent;
        f = &out[n++];
        f->function = scope_name(d, &u->scopes.v[s]);
        f->file = file_name(d, u, callee->call_file);
        f->line = callee->call_line;
        f->column = callee->call_column;
        f->discriminator = callee->call_discr;
    }
    return n;
}

void dwarfidx_get_stats(const struct dwarfidx *d, struct dwarfidx_stats *out)
{
    memset(out, 0, sizeof(*out));
    out->aranges_units = d->aranges_units;
    out->units_loaded = d->units_loaded;
    out->funcs_read = d->funcs_read;
    for (size_t i = 0; i < d->nunits; i++) {
        const struct unit *u = &d->units[i];
        out->rows += u->nrows;
        out->funcs += u->funcs.n;
        for (size_t k = 0; k < u->funcs.n; k++)
            out->pieces += u->funcs.v[k].npieces;
    }
    /* Units with code: those with at least one range. */
    bool *seen = xcalloc(d->nunits ? d->nunits : 1, sizeof(*seen));
    for (size_t i = 0; i < d->nranges; i++)
        if (!seen[d->ranges[i].unit]) {
            seen[d->ranges[i].unit] = true;
            out->units++;
        }
    free(seen);
}
