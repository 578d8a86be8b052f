/* Reading one compile unit for the DWARF index: its line table and its
 * functions (out-of-line and inlined), folded into address pieces. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/symbols/dwarfidx_internal.h"
#include "core/base/sort.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"

/* Deeper DIE nesting than this is not followed (hostile input). */
#define MAX_DIE_DEPTH 64
/* Abstract origin / specification hops followed for a name. */
#define MAX_NAME_HOPS 8

void dwarfunit_free(struct unit *u)
{
    free(u->rows);
    free(u->files);
    VEC_FREE(&u->scopes);
    for (size_t i = 0; i < u->funcs.n; i++)
        free(u->funcs.v[i].pieces);
    VEC_FREE(&u->funcs);
    free(u->franges);
    free(u->pieces);
    u->rows = NULL;
    u->files = NULL;
    u->pieces = NULL;
    u->nrows = u->nfiles = u->npieces = 0;
}

/* ------------------------------------------------------------------------ */
/* Line table                                                               */
/* ------------------------------------------------------------------------ */

struct seq {
    size_t first, count; /* rows in the unit's temporary row array */
    uint64_t lo;
};

static inline bool seq_less(const struct seq *a, const struct seq *b)
{
    return a->lo < b->lo;
}

SORT_DEFINE(seq_sort, struct seq, seq_less)

static void read_files(struct dwarfidx *d, struct unit *u, Dwarf_Die cu, uint64_t line_version)
{
    Dwarf_Error err = NULL;
    char **names = NULL;
    Dwarf_Signed n = 0;
    if (dwarf_srcfiles(cu, &names, &n, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    u->files = xmalloc((n ? (size_t)n : 1) * sizeof(*u->files));
    u->nfiles = (size_t)n;
    for (Dwarf_Signed i = 0; i < n; i++) {
        u->files[i] = strtab_intern_cstr(&d->strs, names[i] ? names[i] : "");
        dwarf_dealloc(d->dbg, names[i], DW_DLA_STRING);
    }
    dwarf_dealloc(d->dbg, names, DW_DLA_LIST);
    /* File numbers start at 1 before DWARF 5 and at 0 from DWARF 5 on;
     * dwarf_srcfiles lists them from the first. */
    u->file_base = line_version >= 5 ? 0 : 1;
}

/* Whether a DWARF 5 line table relies on the file register's default of 1,
 * which this libdwarf starts at 0 instead: gcc (and GNU as) never name file
 * 0 in the line program; clang always sets the register and does use file
 * 0. A row of a GNU unit reported in file 0 is then in file 1. */
static bool v5_default_file_is_one(struct dwarfidx *d, Dwarf_Die cu)
{
    Dwarf_Error err = NULL;
    Dwarf_Attribute attr = NULL;
    bool gnu = false;
    if (dwarf_attr(cu, DW_AT_producer, &attr, &err) == DW_DLV_OK) {
        char *producer = NULL;
        if (dwarf_formstring(attr, &producer, &err) == DW_DLV_OK && producer)
            gnu = strncmp(producer, "GNU ", 4) == 0;
        dwarf_dealloc_attribute(attr);
    }
    dwarfidx_drop_error(d, &err);
    return gnu;
}

static void read_lines(struct dwarfidx *d, struct unit *u, Dwarf_Die cu)
{
    Dwarf_Error err = NULL;
    Dwarf_Unsigned version = 0;
    Dwarf_Small tables = 0;
    Dwarf_Line_Context ctx = NULL;
    if (dwarf_srclines_b(cu, &version, &tables, &ctx, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    read_files(d, u, cu, version);
    Dwarf_Line *lines = NULL;
    Dwarf_Signed n = 0;
    if (tables == 0 || dwarf_srclines_from_linecontext(ctx, &lines, &n, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        dwarf_srclines_dealloc_b(ctx);
        return;
    }
    bool zero_is_one = version >= 5 && v5_default_file_is_one(d, cu);
    struct lrow *tmp = xmalloc((n ? (size_t)n : 1) * sizeof(*tmp));
    VEC(struct seq) seqs = {0};
    size_t seq_start = 0;
    for (Dwarf_Signed i = 0; i < n; i++) {
        Dwarf_Addr addr = 0;
        Dwarf_Unsigned lineno = 0, col = 0, fileno = 0, isa = 0, discr = 0;
        Dwarf_Bool end = 0, prologue = 0, epilogue = 0;
        if (dwarf_lineaddr(lines[i], &addr, &err) != DW_DLV_OK ||
            dwarf_lineendsequence(lines[i], &end, &err) != DW_DLV_OK) {
            dwarfidx_drop_error(d, &err);
            end = 1; /* close the sequence rather than misplace rows */
        }
        if (dwarf_lineno(lines[i], &lineno, &err) != DW_DLV_OK)
            lineno = 0;
        dwarfidx_drop_error(d, &err);
        if (dwarf_lineoff_b(lines[i], &col, &err) != DW_DLV_OK)
            col = 0;
        dwarfidx_drop_error(d, &err);
        if (dwarf_line_srcfileno(lines[i], &fileno, &err) != DW_DLV_OK)
            fileno = UINT32_MAX;
        dwarfidx_drop_error(d, &err);
        if (dwarf_prologue_end_etc(lines[i], &prologue, &epilogue, &isa, &discr, &err) != DW_DLV_OK)
            discr = 0;
        dwarfidx_drop_error(d, &err);
        if (fileno == 0 && zero_is_one)
            fileno = 1;
        uint32_t file = IDX_NONE;
        if (fileno >= u->file_base && fileno - u->file_base < u->nfiles)
            file = (uint32_t)(fileno - u->file_base);
        tmp[i] = (struct lrow){addr, lineno > UINT32_MAX ? 0 : (uint32_t)lineno, file,
                               col > UINT32_MAX ? 0 : (uint32_t)col,
                               (uint32_t)(discr > UINT32_MAX / 2 ? 0 : discr) << 1 | (end != 0)};
        if (end) {
            size_t count = (size_t)i + 1 - seq_start;
            /* A sequence with a row before its end; code the linker
             * discarded starts at 0 or at a -1/-2 tombstone. */
            uint64_t lo = tmp[seq_start].addr;
            if (count >= 2 && lo != 0 && lo < UINT64_MAX - 1 && addr > lo)
                VEC_PUSH(&seqs, ((struct seq){seq_start, count, lo}));
            seq_start = (size_t)i + 1;
        }
    }
    dwarf_srclines_dealloc_b(ctx);

    /* Sequences in address order; one that starts inside the previous
     * one is dropped, so the concatenation stays sorted. */
    seq_sort(seqs.v, seqs.n);
    size_t total = 0;
    for (size_t k = 0; k < seqs.n; k++)
        total += seqs.v[k].count;
    u->rows = xmalloc((total ? total : 1) * sizeof(*u->rows));
    uint64_t covered = 0;
    for (size_t k = 0; k < seqs.n; k++) {
        const struct seq *s = &seqs.v[k];
        if (s->lo < covered)
            continue;
        bool sorted = true;
        for (size_t r = 1; r < s->count && sorted; r++)
            sorted = tmp[s->first + r].addr >= tmp[s->first + r - 1].addr;
        if (!sorted)
            continue;
        memcpy(u->rows + u->nrows, tmp + s->first, s->count * sizeof(*tmp));
        u->nrows += s->count;
        covered = tmp[s->first + s->count - 1].addr;
    }
    VEC_FREE(&seqs);
    free(tmp);
}

/* ------------------------------------------------------------------------ */
/* Functions                                                                */
/* ------------------------------------------------------------------------ */

/* An unsigned attribute value. DW_FORM_implicit_const (gcc's DWARF 5
 * call_file) is refused by this libdwarf's dwarf_formudata; read it signed. */
static bool attr_unsigned(struct dwarfidx *d, Dwarf_Attribute attr, Dwarf_Unsigned *out)
{
    Dwarf_Error err = NULL;
    Dwarf_Half form = 0;
    if (dwarf_whatform(attr, &form, &err) == DW_DLV_OK && form != DW_FORM_implicit_const &&
        dwarf_formudata(attr, out, &err) == DW_DLV_OK)
        return true;
    dwarfidx_drop_error(d, &err);
    Dwarf_Signed v = 0;
    if (dwarf_formsdata(attr, &v, &err) == DW_DLV_OK && v >= 0) {
        *out = (Dwarf_Unsigned)v;
        return true;
    }
    dwarfidx_drop_error(d, &err);
    return false;
}

/* What a function DIE says about itself. */
struct die_facts {
    const char *linkage; /* DW_AT_linkage_name / DW_AT_MIPS_linkage_name */
    const char *name;    /* DW_AT_name */
    Dwarf_Off origin;    /* DW_AT_abstract_origin, or 0 */
    Dwarf_Off spec;      /* DW_AT_specification, or 0 */
    Dwarf_Unsigned call_file, call_line, call_column, discr;
};

struct walker;
static void add_scope_range(void *ud, uint64_t lo, uint64_t hi);

/* Read a DIE's facts, and with a walker, its address ranges too (one pass
 * over the attributes). */
static void die_facts(struct dwarfidx *d, Dwarf_Die die, struct die_facts *f, struct walker *w,
                      uint16_t version, uint64_t base)
{
    memset(f, 0, sizeof(*f));
    Dwarf_Error err = NULL;
    Dwarf_Attribute *attrs = NULL;
    Dwarf_Signed n = 0;
    if (dwarf_attrlist(die, &attrs, &n, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    for (Dwarf_Signed i = 0; i < n; i++) {
        Dwarf_Half at = 0;
        if (dwarf_whatattr(attrs[i], &at, &err) != DW_DLV_OK) {
            dwarfidx_drop_error(d, &err);
            continue;
        }
        char *s = NULL;
        Dwarf_Off off = 0;
        switch (at) {
        case DW_AT_linkage_name:
        case DW_AT_MIPS_linkage_name:
            if (dwarf_formstring(attrs[i], &s, &err) == DW_DLV_OK && s && *s)
                f->linkage = s;
            break;
        case DW_AT_name:
            if (dwarf_formstring(attrs[i], &s, &err) == DW_DLV_OK && s && *s)
                f->name = s;
            break;
        case DW_AT_abstract_origin:
            if (dwarf_global_formref(attrs[i], &off, &err) == DW_DLV_OK)
                f->origin = off;
            break;
        case DW_AT_specification:
            if (dwarf_global_formref(attrs[i], &off, &err) == DW_DLV_OK)
                f->spec = off;
            break;
        case DW_AT_call_file:
            if (!attr_unsigned(d, attrs[i], &f->call_file))
                f->call_file = UINT32_MAX;
            break;
        case DW_AT_call_line:
            if (!attr_unsigned(d, attrs[i], &f->call_line))
                f->call_line = 0;
            break;
        case DW_AT_call_column:
            if (!attr_unsigned(d, attrs[i], &f->call_column))
                f->call_column = 0;
            break;
        case DW_AT_GNU_discriminator:
            if (!attr_unsigned(d, attrs[i], &f->discr))
                f->discr = 0;
            break;
        default:
            break;
        }
        dwarfidx_drop_error(d, &err);
    }
    if (w)
        dwarfidx_attrs_ranges(d, die, attrs, n, version, base, add_scope_range, w);
    /* Strings from dwarf_formstring point into the section data and stay
     * valid after the attributes are released. */
    for (Dwarf_Signed i = 0; i < n; i++)
        dwarf_dealloc_attribute(attrs[i]);
    dwarf_dealloc(d->dbg, attrs, DW_DLA_LIST);
}

/* The name llvm-symbolizer prints for a function DIE: the first linkage
 * name along the abstract-origin / specification chain, else the first
 * plain name along it. Cached by DIE offset for referenced DIEs. */
static uint32_t function_name(struct dwarfidx *d, const struct die_facts *self)
{
    if (self->linkage)
        return strtab_intern_cstr(&d->strs, self->linkage);
    const char *plain = self->name;
    Dwarf_Off ref = self->origin ? self->origin : self->spec;
    Dwarf_Off first_ref = ref;
    if (ref) {
        uint32_t cached = hmap_get(&d->name_of_die, ref);
        if (cached != IDX_NONE)
            return cached ? cached : plain ? strtab_intern_cstr(&d->strs, plain) : 0;
    }
    uint32_t found = 0;
    const char *ref_plain = NULL;
    for (int hop = 0; ref && hop < MAX_NAME_HOPS; hop++) {
        Dwarf_Error err = NULL;
        Dwarf_Die die = NULL;
        if (dwarf_offdie_b(d->dbg, ref, 1, &die, &err) != DW_DLV_OK) {
            dwarfidx_drop_error(d, &err);
            break;
        }
        struct die_facts f;
        die_facts(d, die, &f, NULL, 0, 0);
        if (f.linkage) {
            found = strtab_intern_cstr(&d->strs, f.linkage);
            dwarf_dealloc_die(die);
            break;
        }
        if (!ref_plain && f.name)
            ref_plain = f.name;
        Dwarf_Off next = f.origin ? f.origin : f.spec;
        dwarf_dealloc_die(die);
        if (next == ref)
            break;
        ref = next;
    }
    if (!found && ref_plain)
        found = strtab_intern_cstr(&d->strs, ref_plain);
    if (first_ref)
        hmap_put(&d->name_of_die, first_ref, found);
    if (!found && plain)
        found = strtab_intern_cstr(&d->strs, plain);
    return found;
}

/* A range before folding into pieces: of a scope or of a function. */
struct srange {
    uint64_t lo, hi;
    uint32_t id;
    uint32_t depth;
};

typedef VEC(struct srange) srange_vec;

struct walker {
    struct dwarfidx *d;
    struct unit *u;
    uint64_t base; /* unit base address (DWARF 4 ranges) */
    srange_vec ranges;
    uint32_t cur_id; /* for the range callback */
    uint32_t cur_depth;
};

static void add_scope_range(void *ud, uint64_t lo, uint64_t hi)
{
    struct walker *w = ud;
    if (lo != 0 && lo < UINT64_MAX - 1)
        VEC_PUSH(&w->ranges, ((struct srange){lo, hi, w->cur_id, w->cur_depth}));
}

static uint32_t add_scope(struct unit *u, const struct die_facts *f, uint32_t name, uint32_t parent)
{
    struct scope s = {name, parent, IDX_NONE, 0, 0, 0};
    if (parent != IDX_NONE) {
        s.call_file = f->call_file > UINT32_MAX ? IDX_NONE : (uint32_t)f->call_file;
        s.call_line = f->call_line > UINT32_MAX ? 0 : (uint32_t)f->call_line;
        s.call_column = f->call_column > UINT32_MAX ? 0 : (uint32_t)f->call_column;
        s.call_discr = f->discr > UINT32_MAX ? 0 : (uint32_t)f->discr;
    }
    VEC_PUSH(&u->scopes, s);
    return (uint32_t)(u->scopes.n - 1);
}

/* The inlined calls under a function's DIE (through lexical blocks). */
static void walk_inlined(struct walker *w, Dwarf_Die parent, uint32_t scope, uint32_t depth)
{
    if (depth > MAX_DIE_DEPTH)
        return;
    Dwarf_Error err = NULL;
    Dwarf_Die die = NULL;
    int res = dwarf_child(parent, &die, &err);
    while (res == DW_DLV_OK) {
        Dwarf_Half tag = 0;
        if (dwarf_tag(die, &tag, &err) == DW_DLV_OK) {
            if (tag == DW_TAG_inlined_subroutine) {
                size_t before = w->ranges.n;
                w->cur_id = (uint32_t)w->u->scopes.n;
                w->cur_depth = depth;
                struct die_facts f;
                die_facts(w->d, die, &f, w, w->u->version, w->base);
                if (w->ranges.n > before) {
                    uint32_t id = add_scope(w->u, &f, function_name(w->d, &f), scope);
                    walk_inlined(w, die, id, depth + 1);
                }
            } else if (tag == DW_TAG_lexical_block || tag == DW_TAG_try_block ||
                       tag == DW_TAG_catch_block) {
                walk_inlined(w, die, scope, depth + 1);
            }
        }
        dwarfidx_drop_error(w->d, &err);
        Dwarf_Die next = NULL;
        res = dwarf_siblingof_b(w->d->dbg, die, 1, &next, &err);
        dwarf_dealloc_die(die);
        die = next;
    }
    dwarfidx_drop_error(w->d, &err);
}

/* The out-of-line functions of a unit (through namespaces and classes),
 * without their children. */
static void walk_functions(struct walker *w, Dwarf_Die parent, uint32_t depth)
{
    if (depth > MAX_DIE_DEPTH)
        return;
    Dwarf_Error err = NULL;
    Dwarf_Die die = NULL;
    int res = dwarf_child(parent, &die, &err);
    while (res == DW_DLV_OK) {
        Dwarf_Half tag = 0;
        if (dwarf_tag(die, &tag, &err) == DW_DLV_OK) {
            switch (tag) {
            case DW_TAG_subprogram: {
                size_t before = w->ranges.n;
                w->cur_id = (uint32_t)w->u->funcs.n;
                w->cur_depth = 0;
                struct die_facts f;
                die_facts(w->d, die, &f, w, w->u->version, w->base);
                Dwarf_Off off = 0;
                if (w->ranges.n > before && dwarf_dieoffset(die, &off, &err) == DW_DLV_OK) {
                    struct func *fn = VEC_ADD(&w->u->funcs);
                    fn->off = off;
                    fn->scope = add_scope(w->u, &f, function_name(w->d, &f), IDX_NONE);
                } else {
                    w->ranges.n = before; /* a declaration or an abstract instance */
                }
                break;
            }
            case DW_TAG_namespace:
            case DW_TAG_module:
            case DW_TAG_class_type:
            case DW_TAG_structure_type:
            case DW_TAG_union_type:
            case DW_TAG_interface_type:
                walk_functions(w, die, depth + 1);
                break;
            default:
                break;
            }
        }
        dwarfidx_drop_error(w->d, &err);
        Dwarf_Die next = NULL;
        res = dwarf_siblingof_b(w->d->dbg, die, 1, &next, &err);
        dwarf_dealloc_die(die);
        die = next;
    }
    dwarfidx_drop_error(w->d, &err);
}

static inline bool depth_less(const struct srange *a, const struct srange *b)
{
    return a->depth < b->depth;
}

SORT_DEFINE(depth_sort, struct srange, depth_less)

static inline bool u64_less(const uint64_t *a, const uint64_t *b)
{
    return *a < *b;
}

SORT_DEFINE(u64_sort, uint64_t, u64_less)

/* Fold ranges into pieces: cut the address space at every range end, then
 * paint each cut with the ranges from the outermost to the innermost, so
 * that each address keeps its innermost range's id. */
static struct piece *fold_pieces(srange_vec *ranges, size_t *npieces)
{
    size_t nr = ranges->n;
    *npieces = 0;
    if (!nr)
        return NULL;
    uint64_t *cuts = xmalloc(2 * nr * sizeof(*cuts));
    for (size_t i = 0; i < nr; i++) {
        cuts[2 * i] = ranges->v[i].lo;
        cuts[2 * i + 1] = ranges->v[i].hi;
    }
    u64_sort(cuts, 2 * nr);
    size_t nc = 0;
    for (size_t i = 0; i < 2 * nr; i++)
        if (nc == 0 || cuts[nc - 1] != cuts[i])
            cuts[nc++] = cuts[i];
    uint32_t *paint = xmalloc(nc * sizeof(*paint));
    for (size_t i = 0; i < nc; i++)
        paint[i] = IDX_NONE;
    depth_sort(ranges->v, nr);
    for (size_t i = 0; i < nr; i++) {
        const struct srange *r = &ranges->v[i];
        size_t lo = 0, hi = nc;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (cuts[mid] < r->lo)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t k = lo; k + 1 < nc && cuts[k] < r->hi; k++)
            paint[k] = r->id;
    }
    struct piece *pieces = xmalloc(nc * sizeof(*pieces));
    size_t np = 0;
    for (size_t k = 0; k < nc; k++) {
        if (np && pieces[np - 1].id == paint[k])
            continue;
        pieces[np++] = (struct piece){cuts[k], paint[k]};
    }
    free(cuts);
    free(paint);
    *npieces = np;
    return pieces;
}

static uint64_t unit_base(struct dwarfidx *d, Dwarf_Die cu)
{
    Dwarf_Error err = NULL;
    Dwarf_Addr base = 0;
    if (dwarf_lowpc(cu, &base, &err) != DW_DLV_OK)
        base = 0;
    dwarfidx_drop_error(d, &err);
    return base;
}

void dwarfunit_load(struct dwarfidx *d, struct unit *u)
{
    Dwarf_Error err = NULL;
    Dwarf_Die cu = NULL;
    u->state = UNIT_FAILED;
    if (dwarf_offdie_b(d->dbg, u->off, 1, &cu, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    read_lines(d, u, cu);
    struct walker w;
    memset(&w, 0, sizeof(w));
    w.d = d;
    w.u = u;
    w.base = u->base = unit_base(d, cu);
    walk_functions(&w, cu, 0);
    /* Keep each function's ranges for when its inlined calls are read;
     * walk_functions added them function by function. */
    u->franges = xmalloc((w.ranges.n ? w.ranges.n : 1) * sizeof(*u->franges));
    for (size_t i = 0; i < w.ranges.n; i++) {
        struct func *f = &u->funcs.v[w.ranges.v[i].id];
        if (!f->nranges)
            f->ranges = (uint32_t)i;
        f->nranges++;
        u->franges[i] = (struct frange){w.ranges.v[i].lo, w.ranges.v[i].hi};
    }
    u->pieces = fold_pieces(&w.ranges, &u->npieces);
    VEC_FREE(&w.ranges);
    dwarf_dealloc_die(cu);
    u->state = UNIT_READY;
}

void dwarfunit_func_load(struct dwarfidx *d, struct unit *u, struct func *f)
{
    f->read = true;
    Dwarf_Error err = NULL;
    Dwarf_Die die = NULL;
    struct walker w;
    memset(&w, 0, sizeof(w));
    w.d = d;
    w.u = u;
    w.base = u->base;
    if (dwarf_offdie_b(d->dbg, f->off, 1, &die, &err) != DW_DLV_OK) {
        dwarfidx_drop_error(d, &err);
        return;
    }
    /* The function's own ranges (depth 0), then its inlined calls. */
    for (uint32_t i = 0; i < f->nranges; i++) {
        const struct frange *r = &u->franges[f->ranges + i];
        VEC_PUSH(&w.ranges, ((struct srange){r->lo, r->hi, f->scope, 0}));
    }
    walk_inlined(&w, die, f->scope, 1);
    dwarf_dealloc_die(die);
    f->pieces = fold_pieces(&w.ranges, &f->npieces);
    VEC_FREE(&w.ranges);
    d->funcs_read++;
}
