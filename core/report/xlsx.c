/* Report tables as an Excel workbook. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/display.h"
#include "core/base/outfile.h"
#include "core/base/strbuf.h"
#include "core/analysis/timeline.h"
#include "core/report/xlsx.h"
#include "core/report/xlsx_charts.h"
#include "core/roofline/devices.h"
#include "core/trace/devkind.h"

#ifndef HAVE_XLSXWRITER

enum status xlsx_write(const char *path, struct analysis *a, const struct table_list *tables,
                       const struct report_opts *o, struct errinfo *err)
{
    errinfo_set(err, ST_IO, path, -1,
                "this torchtop was built without libxlsxwriter "
                "(install libxlsxwriter-dev and rebuild)");
    return ST_IO;
}

#else

#include <xlsxwriter.h>

struct formats {
    lxw_format *header, *text, *integer, *real, *percent, *label;
};

/* Sheet names: at most 31 characters, none of []:*?/\, unique. */
static void sheet_name(char out[32], const char *name, const lxw_workbook *wb_names_unused,
                       int serial)
{
    size_t k = 0;
    for (const char *p = name; *p && k < 31; p++)
        out[k++] = strchr("[]:*?/\\", *p) ? '_' : *p;
    out[k] = '\0';
    if (serial > 1) {
        char suffix[16];
        snprintf(suffix, sizeof(suffix), "_%d", serial);
        size_t sl = strlen(suffix);
        if (k + sl > 31)
            k = 31 - sl;
        memcpy(out + k, suffix, sl + 1);
    }
}

static void clean(struct strbuf *sb, const char *s)
{
    sb_clear(sb);
    display_sanitize(sb, s, strlen(s));
}

/* Excel holds at most 32767 characters in a cell; text is cut well below,
 * at a character boundary, and ends with "…". */
#define XLSX_CELL_MAX 32000
#define CUT_NAMES_MAX 20

/* The cells of one sheet that were cut: a count and the first names. */
struct cuts {
    size_t n;
    struct strbuf names; /* " B5, C9, ..." */
};

/* Cut sb to XLSX_CELL_MAX characters, the last one "…"; false when it fits. */
static bool cut_cell(struct strbuf *sb)
{
    size_t chars = 0, i = 0, keep = 0;
    for (; i < sb->len; i++) {
        if (((unsigned char)sb->s[i] & 0xC0) == 0x80)
            continue; /* continuation byte */
        if (chars == XLSX_CELL_MAX - 1)
            keep = i;
        if (++chars > XLSX_CELL_MAX)
            break;
    }
    if (chars <= XLSX_CELL_MAX)
        return false;
    sb->len = keep;
    sb->s[keep] = '\0';
    sb_puts(sb, "\xe2\x80\xa6");
    return true;
}

static void note_cut(struct cuts *c, lxw_row_t row, lxw_col_t col)
{
    if (c->n++ < CUT_NAMES_MAX) {
        char name[LXW_MAX_CELL_NAME_LENGTH];
        lxw_rowcol_to_cell(name, row, col);
        sb_printf(&c->names, "%s %s", c->n > 1 ? "," : "", name);
    }
}

/* Write t to a new sheet; its name goes to name. False when the sheet could not be added. */
static bool write_table(lxw_workbook *wb, const struct table *t, const struct formats *f,
                        int serial, char name[32])
{
    struct cuts cut = {0, STRBUF_INIT};
    sheet_name(name, t->name, wb, serial);
    lxw_worksheet *ws = workbook_add_worksheet(wb, name);
    if (!ws)
        return false;
    struct strbuf sb = STRBUF_INIT;
    double *width = xcalloc(t->ncols ? t->ncols : 1, sizeof(double));
    for (size_t c = 0; c < t->ncols; c++) {
        clean(&sb, t->cols[c].name);
        worksheet_write_string(ws, 0, (lxw_col_t)c, sb_str(&sb), f->header);
        width[c] = (double)display_width(sb_str(&sb), sb.len) + 2;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            union cell v = table_cell(t, r, c);
            lxw_row_t row = (lxw_row_t)(r + 1);
            lxw_col_t col = (lxw_col_t)c;
            double w = 10;
            switch (t->cols[c].kind) {
            case COL_TEXT:
                if (!v.s)
                    break;
                clean(&sb, v.s);
                if (cut_cell(&sb))
                    note_cut(&cut, row, col);
                worksheet_write_string(ws, row, col, sb_str(&sb), f->text);
                w = (double)display_width(sb_str(&sb), sb.len) + 1;
                break;
            case COL_INT:
                if (v.i != TABLE_NO_INT)
                    worksheet_write_number(ws, row, col, (double)v.i, f->integer);
                break;
            case COL_PERCENT:
                if (v.f == v.f)
                    worksheet_write_number(ws, row, col, v.f, f->percent);
                break;
            default:
                if (v.f == v.f)
                    worksheet_write_number(ws, row, col, v.f, f->real);
                break;
            }
            if (w > width[c])
                width[c] = w;
        }
    }
    for (size_t c = 0; c < t->ncols; c++)
        worksheet_set_column(ws, (lxw_col_t)c, (lxw_col_t)c, width[c] > 80 ? 80 : width[c], NULL);
    worksheet_freeze_panes(ws, 1, 0);
    if (t->nrows)
        worksheet_autofilter(ws, 0, 0, (lxw_row_t)t->nrows, (lxw_col_t)(t->ncols - 1));
    for (size_t i = 0; i < t->notes.n; i++) {
        clean(&sb, t->notes.v[i]);
        worksheet_write_string(ws, (lxw_row_t)(t->nrows + 2 + i), 0, sb_str(&sb), f->label);
    }
    if (cut.n) {
        sb_clear(&sb);
        sb_printf(&sb,
                  "%zu cell%s cut to %d characters (Excel holds at most 32767), ending "
                  "with \xe2\x80\xa6:%s%s",
                  cut.n, cut.n == 1 ? "" : "s", XLSX_CELL_MAX, sb_str(&cut.names),
                  cut.n > CUT_NAMES_MAX ? ", ..." : "");
        worksheet_write_string(ws, (lxw_row_t)(t->nrows + 2 + t->notes.n), 0, sb_str(&sb),
                               f->label);
    }
    sb_free(&cut.names);
    free(width);
    sb_free(&sb);
    return true;
}

/* The summary sheet; the place of its GPU timeline block goes to *ref. */
static void write_summary(lxw_workbook *wb, struct analysis *a, const struct formats *f,
                          struct xlsx_summary_ref *ref)
{
    const struct trace *t = a->t;
    lxw_worksheet *ws = workbook_add_worksheet(wb, "summary");
    struct strbuf sb = STRBUF_INIT;
    lxw_row_t r = 0;
#define KV_TEXT(k, v)                                                                              \
    do {                                                                                           \
        worksheet_write_string(ws, r, 0, k, f->label);                                             \
        clean(&sb, v);                                                                             \
        worksheet_write_string(ws, r++, 1, sb_str(&sb), f->text);                                  \
    } while (0)
#define KV_NUM(k, v, fmt)                                                                          \
    do {                                                                                           \
        worksheet_write_string(ws, r, 0, k, f->label);                                             \
        worksheet_write_number(ws, r++, 1, (double)(v), fmt);                                      \
    } while (0)
    KV_TEXT("trace", t->path);
    KV_TEXT("format", t->gzip ? "gzip JSON" : "JSON");
    KV_NUM("JSON MB", (double)t->json_bytes / 1e6, f->real);
    if (t->truncated)
        KV_TEXT("truncated", "yes: the input ended early");
    for (size_t d = 0; d < t->devices.n; d++) {
        char key[32];
        snprintf(key, sizeof(key), "device %d", t->devices.v[d].id);
        KV_TEXT(key, trace_str(t, t->devices.v[d].name));
    }
    /* The device named by kind, as the report header names it: "MTIA
     * events" on an MTIA trace (devkind.h). */
    const char *dev = devkind_name(t->device_kind);
    char lab[4][64];
    snprintf(lab[0], sizeof(lab[0]), "%s events", dev);
    snprintf(lab[1], sizeof(lab[1]), "%s events not linked to a launch", dev);
    snprintf(lab[2], sizeof(lab[2]), "%s span ms", dev);
    snprintf(lab[3], sizeof(lab[3]), "%s timeline (all %s events)", dev, dev);
    KV_NUM("events", t->ev.n, f->integer);
    KV_NUM(lab[0], t->n_gpu, f->integer);
    KV_NUM(lab[1], t->n_unlinked, f->integer);
    KV_NUM("trace span ms", (double)(t->t_end - t->t_start) / 1e6, f->real);
    KV_NUM(lab[2], (double)(t->gpu_end - t->gpu_start) / 1e6, f->real);
    r++;
    const struct timeline_breakdown *b = analysis_breakdown(a, false);
    ref->sheet = "summary";
    ref->header_row = r;
    ref->first_row = r + 1;
    worksheet_write_string(ws, r, 0, lab[3], f->header);
    worksheet_write_string(ws, r, 1, "time ms", f->header);
    worksheet_write_string(ws, r++, 2, "percent", f->header);
    const struct {
        const char *name;
        int64_t v;
    } rows[] = {{"computation_time", b->computation},
                {"exposed_comm_time", b->exposed_comm},
                {"exposed_memcpy_time", b->exposed_memcpy},
                {"idle_time", b->idle},
                {"busy_time", b->busy},
                {"total_time", b->total}};
    for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
        worksheet_write_string(ws, r, 0, rows[i].name, f->label);
        worksheet_write_number(ws, r, 1, (double)rows[i].v / 1e6, f->real);
        worksheet_write_number(
            ws, r++, 2, b->total ? 100.0 * (double)rows[i].v / (double)b->total : 0, f->percent);
    }
#undef KV_TEXT
#undef KV_NUM
    worksheet_set_column(ws, 0, 0, 36, NULL);
    worksheet_set_column(ws, 1, 1, 60, NULL);
    worksheet_set_column(ws, 2, 2, 10, NULL);
    sb_free(&sb);
}

/* workbook_close with standard error sent to /dev/null: libxlsxwriter
 * prints its own "[ERROR]" lines there, and the caller reports the failure
 * in one line of its own. */
static lxw_error close_quietly(lxw_workbook *wb)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    if (null >= 0)
        close(null);
    lxw_error e = workbook_close(wb);
    fflush(stderr);
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    return e;
}

enum status xlsx_write(const char *path, struct analysis *a, const struct table_list *tables,
                       const struct report_opts *o, struct errinfo *err)
{
    /* libxlsxwriter writes the file by name, when the workbook is closed:
     * it gets the temporary file, renamed onto path once complete. */
    struct outfile of;
    if (outfile_open_path(&of, path, err) != ST_OK)
        return ST_IO;
    lxw_workbook_options opts = {.constant_memory = LXW_FALSE, .tmpdir = NULL};
    lxw_workbook *wb = workbook_new_opt(of.tmp, &opts);
    if (!wb) {
        errinfo_set(err, ST_IO, path, -1, "cannot create the workbook");
        outfile_discard(&of);
        return ST_IO;
    }
    struct formats f;
    f.header = workbook_add_format(wb);
    format_set_bold(f.header);
    format_set_bottom(f.header, LXW_BORDER_THIN);
    f.text = NULL;
    f.label = workbook_add_format(wb);
    format_set_bold(f.label);
    f.integer = workbook_add_format(wb);
    format_set_num_format(f.integer, "0");
    f.real = workbook_add_format(wb);
    format_set_num_format(f.real, "0.000");
    f.percent = workbook_add_format(wb);
    format_set_num_format(f.percent, "0.00");
    /* Charts come first, the sheet a reader opens on: for a trace, a diff
     * (its trace_diff table), a snapshot (its memory_timeline) and a job
     * (no trace, a ranks table). Their charts are added once the sheets they
     * read exist. */
    const struct table *delta = NULL, *memory = NULL;
    bool job = false;
    for (size_t i = 0; !a && i < tables->items.n; i++) {
        const char *name = tables->items.v[i]->name;
        if (strcmp(name, "trace_diff") == 0 && !delta)
            delta = tables->items.v[i];
        if (strcmp(name, "memory_timeline") == 0 && !memory)
            memory = tables->items.v[i];
        job |= strcmp(name, "ranks") == 0;
    }
    lxw_worksheet *charts =
        a || delta || memory || job ? workbook_add_worksheet(wb, XLSX_CHARTS_SHEET) : NULL;
    struct xlsx_summary_ref sum = {0};
    if (a)
        write_summary(wb, a, &f, &sum);
    struct xlsx_sheet_ref *refs = xcalloc(tables->items.n + 1, sizeof(*refs));
    size_t nrefs = 0;
    for (size_t i = 0; i < tables->items.n; i++) {
        int serial = 1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(tables->items.v[j]->name, tables->items.v[i]->name) == 0)
                serial++;
        refs[nrefs].t = tables->items.v[i];
        if (write_table(wb, tables->items.v[i], &f, serial, refs[nrefs].name))
            nrefs++;
    }
    if (charts && job && !delta) {
        xlsx_charts_job(wb, charts, refs, nrefs);
    } else if (charts && !a) {
        for (size_t i = 0; i < nrefs; i++) {
            int nc = table_col_index(refs[i].t, "name");
            if (nc < 0)
                nc = table_col_index(refs[i].t, "short_name");
            int dc = table_col_index(refs[i].t, "diff_duration");
            if (refs[i].t == delta && nc >= 0 && dc >= 0)
                xlsx_charts_delta(wb, charts, 0, &refs[i], (size_t)nc, (size_t)dc, XLSX_CHART_TOP,
                                  "Duration change by name");
            if (refs[i].t == memory)
                xlsx_charts_memory(wb, charts, 0, &refs[i]);
        }
    } else if (charts) {
        struct device_peaks peaks;
        char msg[256];
        bool have_peaks = devices_resolve(a->t, o ? o->arch : NULL, &peaks, msg, sizeof(msg));
        xlsx_charts_write(wb, charts, refs, nrefs, &sum, have_peaks ? &peaks : NULL);
    }
    free(refs);
    lxw_error e = close_quietly(wb);
    if (e != LXW_NO_ERROR) {
        errinfo_set(err, ST_IO, path, -1, "cannot write the workbook: %s", lxw_strerror(e));
        outfile_discard(&of);
        return ST_IO;
    }
    return outfile_commit(&of, err);
}

#endif
