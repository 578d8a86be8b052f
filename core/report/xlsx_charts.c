/* The Charts sheet of a report workbook: charts over the table sheets'
 * cells, and the few helper cells they need (short names, roofs). */
#include "config.h"

#ifdef HAVE_XLSXWRITER

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/report/xlsx_charts.h"

/* Charts are 2 x 1.5 times Excel's default 480 x 288 pixels; a chart's
 * rows at the default 20 pixels a row, plus a gap. */
#define CHART_ROWS 24
/* Helper cells start in this column, right of the charts. */
#define HELP_COL 18
/* Category names on the bar charts are cut to this many characters. */
#define NAME_CHARS 48

struct charts {
    lxw_workbook *wb;
    lxw_worksheet *ws;
    uint32_t row;      /* next free row for a chart */
    uint32_t help_col; /* next free helper column */
    lxw_format *bold;
    struct strbuf sb;
};

static const struct xlsx_sheet_ref *find_sheet(const struct xlsx_sheet_ref *s, size_t n,
                                               const char *table)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s[i].t->name, table) == 0)
            return &s[i];
    return NULL;
}

/* "'sheet'!$C$5": a cell of another sheet for a formula. */
static void cell_ref(struct strbuf *sb, const char *sheet, uint32_t row, uint32_t col)
{
    char cell[LXW_MAX_CELL_NAME_LENGTH];
    lxw_rowcol_to_cell_abs(cell, row, (lxw_col_t)col, 1, 1);
    sb_putc(sb, '\'');
    for (const char *p = sheet; *p; p++) {
        if (*p == '\'')
            sb_putc(sb, '\'');
        sb_putc(sb, *p);
    }
    sb_printf(sb, "'!%s", cell);
}

static void place(struct charts *c, lxw_chart *chart, double yscale)
{
    lxw_chart_options o = {.x_scale = 2.0, .y_scale = yscale};
    worksheet_insert_chart_opt(c->ws, c->row, 0, chart, &o);
    c->row += (uint32_t)(CHART_ROWS * yscale / 1.5 + 0.5);
}

static void note(struct charts *c, const char *fmt, const char *what)
{
    sb_clear(&c->sb);
    sb_printf(&c->sb, fmt, what);
    worksheet_write_string(c->ws, c->row++, 0, sb_str(&c->sb), NULL);
}

/* Whether the first k rows of column col hold its k largest values. */
static bool is_top(const struct table *t, size_t col, size_t k)
{
    double lo = INFINITY;
    for (size_t r = 0; r < k; r++) {
        double v = table_cell(t, r, col).f;
        if (v != v)
            return false;
        lo = v < lo ? v : lo;
    }
    for (size_t r = k; r < t->nrows; r++)
        if (table_cell(t, r, col).f > lo)
            return false;
    return true;
}

static size_t row_named(const struct table *t, const char *name)
{
    for (size_t r = 0; r < t->nrows; r++) {
        const char *s = table_cell(t, r, 0).s;
        if (s && strcmp(s, name) == 0)
            return r;
    }
    return SIZE_MAX;
}

/* ------------------------------------------------------------------------ */
/* GPU timeline                                                             */
/* ------------------------------------------------------------------------ */

static const char *const breakdown_rows[] = {"computation_time", "exposed_comm_time",
                                             "exposed_memcpy_time", "idle_time"};
static const char *const breakdown_titles[] = {"computation", "exposed communication",
                                               "exposed memcpy", "idle"};

static void chart_timeline(struct charts *c, const struct xlsx_sheet_ref *s, size_t n,
                           const struct xlsx_summary_ref *sum)
{
    const struct xlsx_sheet_ref *dev = find_sheet(s, n, "gpu_timeline_per_device");
    const struct xlsx_sheet_ref *one = find_sheet(s, n, "gpu_timeline");
    const struct xlsx_sheet_ref *use = dev ? dev : one;
    if (!use && !(sum && sum->sheet)) {
        note(c, "%s", "No GPU timeline chart: the workbook has no GPU timeline.");
        return;
    }
    lxw_chart *ch = workbook_add_chart(c->wb, LXW_CHART_BAR_STACKED);
    const char *sheet = use ? use->name : sum->sheet;
    /* Per device: a column each; gpu_timeline and the summary: milliseconds in column 1. */
    lxw_col_t last = dev ? (lxw_col_t)(dev->t->ncols - 1) : 1;
    for (size_t k = 0; k < ARRAY_SIZE(breakdown_rows); k++) {
        uint32_t row;
        if (use) {
            size_t r = row_named(use->t, breakdown_rows[k]);
            if (r == SIZE_MAX)
                continue;
            row = (uint32_t)r + 1;
        } else {
            /* The summary block lists busy_time between exposed memcpy and idle. */
            row = sum->first_row + (uint32_t)(k == 3 ? 4 : k);
        }
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, sheet, use ? 0 : sum->header_row, 1,
                                    use ? 0 : sum->header_row, last);
        chart_series_set_values(se, sheet, row, 1, row, last);
        chart_series_set_name(se, breakdown_titles[k]);
    }
    sb_clear(&c->sb);
    sb_printf(&c->sb, "GPU timeline breakdown%s (%s)", dev ? " per device" : "",
              use && strstr(use->t->title, "linked") ? "GPU events linked to a launch"
                                                     : "all GPU events");
    chart_title_set_name(ch, sb_str(&c->sb));
    /* In libxlsxwriter's bar charts x_axis is the value axis (horizontal)
     * and y_axis the category axis, reversed so the first row is on top. */
    chart_axis_set_name(ch->x_axis, "time (ms)");
    if (dev)
        chart_axis_set_name(ch->y_axis, "device");
    chart_axis_set_reverse(ch->y_axis);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    size_t bars = dev ? dev->t->ncols - 1 : 1;
    place(c, ch, bars > 4 ? 1.5 : 1.0);
}

/* ------------------------------------------------------------------------ */
/* Rankings                                                                 */
/* ------------------------------------------------------------------------ */

/* Helper cells: =LEFT(name, NAME_CHARS) for the first k rows of column
 * name_col of s, with the value Excel would compute cached. Returns the
 * helper column. */
static lxw_col_t short_names(struct charts *c, const struct xlsx_sheet_ref *s, size_t name_col,
                             size_t k, const char *what)
{
    lxw_col_t col = (lxw_col_t)c->help_col++;
    worksheet_write_string(c->ws, 0, col, what, c->bold);
    struct strbuf f = STRBUF_INIT;
    for (size_t r = 0; r < k; r++) {
        const char *name = table_cell(s->t, r, name_col).s;
        sb_clear(&f);
        sb_puts(&f, "=LEFT(");
        cell_ref(&f, s->name, (uint32_t)r + 1, (uint32_t)name_col);
        sb_printf(&f, ",%d)", NAME_CHARS);
        sb_clear(&c->sb);
        if (name)
            display_fit(&c->sb, name, strlen(name), NAME_CHARS, false, false);
        worksheet_write_formula_str(c->ws, (lxw_row_t)r + 1, col, sb_str(&f), NULL, sb_str(&c->sb));
    }
    sb_free(&f);
    worksheet_set_column(c->ws, col, col, 30, NULL);
    return col;
}

static void chart_ranking(struct charts *c, const struct xlsx_sheet_ref *s, const char *name_cn,
                          const char *value_cn, const char *what, const char *unit)
{
    int nc = table_col_index(s->t, name_cn), vc = table_col_index(s->t, value_cn);
    if (nc < 0 || vc < 0 || !s->t->nrows)
        return;
    size_t k = s->t->nrows < XLSX_CHART_TOP ? s->t->nrows : XLSX_CHART_TOP;
    sb_clear(&c->sb);
    sb_printf(&c->sb, "%s: %s names (first %d characters)", s->name, what, NAME_CHARS);
    lxw_col_t hc = short_names(c, s, (size_t)nc, k, sb_str(&c->sb));
    lxw_chart *ch = workbook_add_chart(c->wb, LXW_CHART_BAR);
    lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
    chart_series_set_categories(se, XLSX_CHARTS_SHEET, 1, hc, (lxw_row_t)k, hc);
    chart_series_set_values(se, s->name, 1, (lxw_col_t)vc, (lxw_row_t)k, (lxw_col_t)vc);
    chart_series_set_name(se, value_cn);
    sb_clear(&c->sb);
    if (k == s->t->nrows)
        sb_printf(&c->sb, "%s by GPU time (all %zu, sheet %s)", what, k, s->name);
    else if (is_top(s->t, (size_t)vc, k))
        sb_printf(&c->sb, "Top %zu %s by GPU time (of %zu, sheet %s)", k, what, s->t->nrows,
                  s->name);
    else
        sb_printf(&c->sb, "%s: the first %zu rows of sheet %s as sorted (of %zu)", what, k, s->name,
                  s->t->nrows);
    /* Titles start with a capital. */
    if (c->sb.s[0] >= 'a' && c->sb.s[0] <= 'z')
        c->sb.s[0] = (char)(c->sb.s[0] - 'a' + 'A');
    chart_title_set_name(ch, sb_str(&c->sb));
    sb_clear(&c->sb);
    sb_printf(&c->sb, "GPU time (%s)", unit);
    chart_axis_set_name(ch->x_axis, sb_str(&c->sb)); /* the value axis (see chart_timeline) */
    chart_axis_set_reverse(ch->y_axis);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
    place(c, ch, k > 10 ? 2.0 : 1.0);
}

/* ------------------------------------------------------------------------ */
/* Roofline                                                                 */
/* ------------------------------------------------------------------------ */

#define MAX_SPECS 6

struct roof_input {
    const struct xlsx_sheet_ref *sheet;
    int x, y, spec, first_metric; /* columns */
    size_t k;                     /* rows charted */
};

/* "aten::mm M=4096 N=4096 K=4096 bf16": the row's op and parameters, but
 * the detail ones. */
static void point_label(struct strbuf *out, const struct roof_input *in, size_t r)
{
    const struct table *t = in->sheet->t;
    const char *name = table_cell(t, r, 0).s;
    struct strbuf raw = STRBUF_INIT;
    sb_puts(&raw, name ? name : "?");
    for (int c = 1; c < in->first_metric; c++) {
        if (t->cols[c].flags & COLF_DETAIL) /* strides and layouts: the sheet has them */
            continue;
        union cell v = table_cell(t, r, (size_t)c);
        if (t->cols[c].kind == COL_TEXT && v.s)
            sb_printf(&raw, " %s=%s", t->cols[c].title ? t->cols[c].title : t->cols[c].name, v.s);
        else if (t->cols[c].kind == COL_INT && v.i != TABLE_NO_INT)
            sb_printf(&raw, " %s=%lld", t->cols[c].title ? t->cols[c].title : t->cols[c].name,
                      (long long)v.i);
    }
    display_fit(out, sb_str(&raw), raw.len, 60, false, false);
    sb_free(&raw);
}

static bool plottable(double x, double y)
{
    return x > 0 && y > 0 && isfinite(x) && isfinite(y);
}

static void chart_roofline(struct charts *c, const struct xlsx_sheet_ref *s, size_t n,
                           const struct device_peaks *peaks)
{
    struct roof_input in[32];
    size_t nin = 0;
    bool cut = false;
    double xmin = INFINITY, xmax = 0;
    const char *specs[MAX_SPECS];
    size_t nspec = 0;
    for (size_t i = 0; i < n && nin < ARRAY_SIZE(in); i++) {
        const struct table *t = s[i].t;
        struct roof_input r = {&s[i],
                               table_col_index(t, "FLOPS/Byte_first"),
                               table_col_index(t, "TFLOPS/s_mean"),
                               table_col_index(t, "Compute Spec"),
                               table_col_index(t, "GFLOPS_first"),
                               0};
        if (r.x < 0 || r.y < 0 || r.first_metric < 1 || !t->nrows)
            continue;
        r.k = t->nrows < XLSX_CHART_ROOF_POINTS ? t->nrows : XLSX_CHART_ROOF_POINTS;
        cut |= r.k < t->nrows;
        for (size_t row = 0; row < r.k; row++) {
            double x = table_cell(t, row, (size_t)r.x).f, y = table_cell(t, row, (size_t)r.y).f;
            if (!plottable(x, y))
                continue;
            xmin = x < xmin ? x : xmin;
            xmax = x > xmax ? x : xmax;
            const char *sp = r.spec >= 0 ? table_cell(t, row, (size_t)r.spec).s : NULL;
            size_t j = 0;
            while (sp && j < nspec && strcmp(specs[j], sp) != 0)
                j++;
            if (sp && j == nspec && nspec < MAX_SPECS)
                specs[nspec++] = sp;
        }
        in[nin++] = r;
    }
    if (!nin || xmax <= 0) {
        note(c, "%s", "No roofline chart: the workbook has no roofline rows with kernel time.");
        return;
    }
    lxw_chart *ch = workbook_add_chart(c->wb, LXW_CHART_SCATTER_STRAIGHT);
    lxw_chart_font small = {.size = 7};
    lxw_chart_line noline = {.none = LXW_TRUE};
    for (size_t i = 0; i < nin; i++) {
        const struct roof_input *r = &in[i];
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        lxw_row_t last = (lxw_row_t)r->k;
        chart_series_set_categories(se, r->sheet->name, 1, (lxw_col_t)r->x, last, (lxw_col_t)r->x);
        chart_series_set_values(se, r->sheet->name, 1, (lxw_col_t)r->y, last, (lxw_col_t)r->y);
        chart_series_set_name(se, r->sheet->name);
        chart_series_set_line(se, &noline);
        chart_series_set_marker_type(se, LXW_CHART_MARKER_CIRCLE);
        chart_series_set_marker_size(se, 6);
        /* Labels on the largest points only (the rows come by kernel time). */
        size_t nl = r->k < XLSX_CHART_LABELS ? r->k : XLSX_CHART_LABELS;
        lxw_chart_data_label *labels = xcalloc(r->k + 1, sizeof(*labels));
        lxw_chart_data_label **lp = xcalloc(r->k + 1, sizeof(*lp));
        char **texts = xcalloc(nl ? nl : 1, sizeof(*texts));
        for (size_t row = 0; row < r->k; row++) {
            if (row < nl) {
                struct strbuf l = STRBUF_INIT;
                point_label(&l, r, row);
                texts[row] = sb_steal(&l);
                labels[row].value = texts[row];
                labels[row].font = &small;
            } else {
                labels[row].hide = LXW_TRUE;
            }
            lp[row] = &labels[row];
        }
        chart_series_set_labels_custom(se, lp);
        chart_series_set_labels_position(se, LXW_CHART_LABEL_POSITION_RIGHT);
        for (size_t j = 0; j < nl; j++)
            free(texts[j]);
        free(texts);
        free(lp);
        free(labels);
    }
    /* Roofs: helper cells of (FLOP/byte, TFLOP/s) points, drawn as lines. */
    double lo = xmin / 2, hi = xmax * 2;
    if (peaks && peaks->mem_bw_gbps > 0) {
        double bw = peaks->mem_bw_gbps / 1000; /* TB/s: TFLOP/s per FLOP/byte */
        double top = 0;
        double peak[MAX_SPECS];
        for (size_t j = 0; j < nspec; j++) {
            peak[j] = devices_peak(peaks, specs[j]);
            top = peak[j] > top ? peak[j] : top;
            if (peak[j] > 0 && peak[j] / bw * 2 > hi)
                hi = peak[j] / bw * 2;
        }
        lxw_col_t hx = (lxw_col_t)c->help_col, hy = (lxw_col_t)(c->help_col + 1);
        c->help_col += 3;
        worksheet_write_string(c->ws, 0, hx, "roof FLOP/byte", c->bold);
        worksheet_write_string(c->ws, 0, hy, "roof TFLOP/s", c->bold);
        lxw_row_t row = 1;
        if (top > 0) {
            double ridge = top / bw;
            worksheet_write_number(c->ws, row, hx, lo, NULL);
            worksheet_write_number(c->ws, row, hy, lo * bw, NULL);
            worksheet_write_number(c->ws, row + 1, hx, ridge, NULL);
            worksheet_write_number(c->ws, row + 1, hy, top, NULL);
            lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(se, XLSX_CHARTS_SHEET, row, hx, row + 1, hx);
            chart_series_set_values(se, XLSX_CHARTS_SHEET, row, hy, row + 1, hy);
            sb_clear(&c->sb);
            sb_printf(&c->sb, "memory roof %.0f GB/s", peaks->mem_bw_gbps);
            chart_series_set_name(se, sb_str(&c->sb));
            lxw_chart_line ml = {
                .color = 0x404040, .width = 1.5, .dash_type = LXW_CHART_LINE_DASH_DASH};
            chart_series_set_line(se, &ml);
            chart_series_set_marker_type(se, LXW_CHART_MARKER_NONE);
            row += 2;
        }
        for (size_t j = 0; j < nspec; j++) {
            if (peak[j] <= 0)
                continue;
            worksheet_write_number(c->ws, row, hx, peak[j] / bw, NULL);
            worksheet_write_number(c->ws, row, hy, peak[j], NULL);
            worksheet_write_number(c->ws, row + 1, hx, hi, NULL);
            worksheet_write_number(c->ws, row + 1, hy, peak[j], NULL);
            lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(se, XLSX_CHARTS_SHEET, row, hx, row + 1, hx);
            chart_series_set_values(se, XLSX_CHARTS_SHEET, row, hy, row + 1, hy);
            sb_clear(&c->sb);
            sb_printf(&c->sb, "%s roof %.0f TFLOP/s", specs[j], peak[j]);
            chart_series_set_name(se, sb_str(&c->sb));
            lxw_chart_line cl = {.color = 0x202020, .width = 1.5};
            chart_series_set_line(se, &cl);
            chart_series_set_marker_type(se, LXW_CHART_MARKER_NONE);
            row += 2;
        }
    }
    sb_clear(&c->sb);
    sb_printf(&c->sb, "Roofline (%s)", peaks ? peaks->name : "no device peaks: pass --arch");
    if (cut)
        sb_printf(&c->sb, ", the top %d rows by kernel time of each op family",
                  XLSX_CHART_ROOF_POINTS);
    sb_printf(&c->sb, "; labels: the %d largest of each", XLSX_CHART_LABELS);
    chart_title_set_name(ch, sb_str(&c->sb));
    chart_axis_set_name(ch->x_axis, "arithmetic intensity (FLOP/byte, log)");
    chart_axis_set_name(ch->y_axis, "achieved TFLOP/s (log)");
    chart_axis_set_log_base(ch->x_axis, 10);
    chart_axis_set_log_base(ch->y_axis, 10);
    chart_axis_set_min(ch->x_axis, pow(10, floor(log10(lo))));
    chart_axis_set_max(ch->x_axis, pow(10, ceil(log10(hi))));
    chart_axis_set_crossing_min(ch->y_axis);
    chart_axis_set_crossing_min(ch->x_axis);
    chart_axis_major_gridlines_set_visible(ch->x_axis, LXW_TRUE);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_RIGHT);
    place(c, ch, 2.5);
}

/* One device's memory chart: allocated and reserved lines over rows
 * first..last of sheet s (x from column xc), and, when peak is a row, that
 * row's allocated value as a marked point labelled peak_label. The caller
 * titles the chart and names its x axis. */
static lxw_chart *memory_lines(struct charts *c, const struct xlsx_sheet_ref *s, size_t first,
                               size_t last, int xc, int ac, int rc, size_t peak,
                               const char *peak_label)
{
    lxw_chart *ch = workbook_add_chart(c->wb, LXW_CHART_SCATTER_STRAIGHT);
    static const struct {
        const char *name;
        uint32_t color;
    } lines[2] = {{"allocated", 0x4F81BD}, {"reserved", 0x9BBB59}};
    int cols[2] = {ac, rc};
    for (int k = 0; k < 2; k++) {
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s->name, (lxw_row_t)first + 1, (lxw_col_t)xc,
                                    (lxw_row_t)last + 1, (lxw_col_t)xc);
        chart_series_set_values(se, s->name, (lxw_row_t)first + 1, (lxw_col_t)cols[k],
                                (lxw_row_t)last + 1, (lxw_col_t)cols[k]);
        chart_series_set_name(se, lines[k].name);
        lxw_chart_line line = {.color = lines[k].color, .width = 1.5};
        chart_series_set_line(se, &line);
        chart_series_set_marker_type(se, LXW_CHART_MARKER_NONE);
    }
    if (peak != SIZE_MAX) {
        /* The peak: one marked point on the allocated line's cell. */
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s->name, (lxw_row_t)peak + 1, (lxw_col_t)xc,
                                    (lxw_row_t)peak + 1, (lxw_col_t)xc);
        chart_series_set_values(se, s->name, (lxw_row_t)peak + 1, (lxw_col_t)ac,
                                (lxw_row_t)peak + 1, (lxw_col_t)ac);
        chart_series_set_name(se, "peak allocated");
        chart_series_set_marker_type(se, LXW_CHART_MARKER_DIAMOND);
        chart_series_set_marker_size(se, 9);
        lxw_chart_fill red = {.color = 0xC0504D};
        chart_series_set_marker_fill(se, &red);
        lxw_chart_line none = {.none = LXW_TRUE};
        chart_series_set_line(se, &none);
        lxw_chart_data_label lab = {.value = (char *)peak_label};
        lxw_chart_data_label *lp[2] = {&lab, NULL};
        chart_series_set_labels_custom(se, lp);
        chart_series_set_labels_position(se, LXW_CHART_LABEL_POSITION_ABOVE);
    }
    chart_axis_set_name(ch->y_axis, "memory (GB, 10^9 bytes)");
    chart_axis_set_num_format(ch->y_axis, "0.00,,,");
    chart_axis_set_min(ch->x_axis, 0);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    return ch;
}

/* The last row of the run of rows from first with column dc's text. */
static size_t device_run_end(const struct table *t, size_t first, size_t dc)
{
    const char *dev = table_cell(t, first, dc).s;
    size_t last = first;
    while (last + 1 < t->nrows && strcmp(table_cell(t, last + 1, dc).s, dev) == 0)
        last++;
    return last;
}

/* A trace's memory_curve sheet (from its [memory] events): one chart per
 * device of the most allocated and the reserved bytes of each slice over
 * the trace's time, the largest marked. */
static void chart_memory_curve(struct charts *c, const struct xlsx_sheet_ref *s)
{
    const struct table *t = s->t;
    int dc = table_col_index(t, "device"), tc = table_col_index(t, "t_ms");
    int ac = table_col_index(t, "max_allocated"), rc = table_col_index(t, "reserved");
    if (dc < 0 || tc < 0 || ac < 0 || rc < 0)
        return;
    for (size_t first = 0; first < t->nrows;) {
        size_t last = device_run_end(t, first, (size_t)dc);
        size_t peak = first;
        for (size_t r = first; r <= last; r++)
            if (table_cell(t, r, (size_t)ac).i > table_cell(t, peak, (size_t)ac).i)
                peak = r;
        int64_t most = table_cell(t, peak, (size_t)ac).i;
        bool gb = most >= 1000000000;
        sb_clear(&c->sb);
        sb_printf(&c->sb, "peak %.3f %s at %.3f ms", (double)most / (gb ? 1e9 : 1e6),
                  gb ? "GB" : "MB", table_cell(t, peak, (size_t)tc).f);
        char label[96];
        snprintf(label, sizeof(label), "%s", sb_str(&c->sb));
        lxw_chart *ch = memory_lines(c, s, first, last, tc, ac, rc, peak, label);
        sb_clear(&c->sb);
        sb_printf(&c->sb,
                  "Memory of %s over the trace (the most allocated of each of %zu slices, "
                  "sheet %s)",
                  table_cell(t, first, (size_t)dc).s, last - first + 1, s->name);
        chart_title_set_name(ch, sb_str(&c->sb));
        chart_axis_set_name(ch->x_axis, "ms after the trace's first event");
        place(c, ch, 1.5);
        first = last + 1;
    }
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

void xlsx_charts_write(lxw_workbook *wb, lxw_worksheet *ws, const struct xlsx_sheet_ref *sheets,
                       size_t n, const struct xlsx_summary_ref *summary,
                       const struct device_peaks *peaks)
{
    struct charts c = {wb, ws, 1, HELP_COL, NULL, STRBUF_INIT};
    c.bold = workbook_add_format(wb);
    format_set_bold(c.bold);
    worksheet_write_string(ws, 0, 0,
                           "Charts of the sheets of this workbook: they read the sheets' cells "
                           "(and the helper cells from column S on).",
                           c.bold);
    chart_timeline(&c, sheets, n, summary);
    const struct xlsx_sheet_ref *ops = find_sheet(sheets, n, "ops_summary");
    if (ops)
        chart_ranking(&c, ops, "name", "total_direct_kernel_time_ms", "ops", "ms");
    const struct xlsx_sheet_ref *k = find_sheet(sheets, n, "kernel_summary");
    if (k)
        chart_ranking(&c, k, "Kernel name", "Kernel duration (µs)_sum", "kernels", "µs");
    chart_roofline(&c, sheets, n, peaks);
    const struct xlsx_sheet_ref *mem = find_sheet(sheets, n, "memory_curve");
    if (mem)
        chart_memory_curve(&c, mem);
    sb_free(&c.sb);
}

/* ------------------------------------------------------------------------ */
/* Multi-rank jobs                                                          */
/* ------------------------------------------------------------------------ */

static const char *const rank_cols[] = {"computation_ms", "exposed_comm_ms", "exposed_memcpy_ms",
                                        "idle_ms"};

/* The first k rows of s as categories (column cat) and each of cols as a
 * series of one bar chart; the title says which rows when not all. */
static void chart_per_rank(struct charts *c, const struct xlsx_sheet_ref *s, lxw_chart *ch,
                           const char *const *cols, const char *const *titles, size_t ncols,
                           const char *title, const char *axis)
{
    int cat = table_col_index(s->t, "rank");
    size_t k = s->t->nrows < XLSX_CHART_RANKS ? s->t->nrows : XLSX_CHART_RANKS;
    for (size_t i = 0; i < ncols; i++) {
        int vc = table_col_index(s->t, cols[i]);
        if (vc < 0)
            continue;
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s->name, 1, (lxw_col_t)cat, (lxw_row_t)k, (lxw_col_t)cat);
        chart_series_set_values(se, s->name, 1, (lxw_col_t)vc, (lxw_row_t)k, (lxw_col_t)vc);
        chart_series_set_name(se, titles[i]);
    }
    sb_clear(&c->sb);
    if (k == s->t->nrows)
        sb_printf(&c->sb, "%s (all %zu ranks, sheet %s)", title, k, s->name);
    else
        sb_printf(&c->sb, "%s (the first %zu rows of sheet %s as sorted, of %zu ranks)", title, k,
                  s->name, s->t->nrows);
    chart_title_set_name(ch, sb_str(&c->sb));
    chart_axis_set_name(ch->x_axis, axis); /* the value axis (see chart_timeline) */
    chart_axis_set_name(ch->y_axis, "rank");
    chart_axis_set_reverse(ch->y_axis);
    chart_legend_set_position(ch, ncols > 1 ? LXW_CHART_LEGEND_BOTTOM : LXW_CHART_LEGEND_NONE);
    place(c, ch, k > 16 ? 3.0 : k > 4 ? 1.5 : 1.0);
}

void xlsx_charts_job(lxw_workbook *wb, lxw_worksheet *ws, const struct xlsx_sheet_ref *sheets,
                     size_t n)
{
    struct charts c = {wb, ws, 1, HELP_COL, NULL, STRBUF_INIT};
    c.bold = workbook_add_format(wb);
    format_set_bold(c.bold);
    worksheet_write_string(ws, 0, 0, "Charts of the job's sheets: they read the sheets' cells.",
                           c.bold);
    const struct xlsx_sheet_ref *r = find_sheet(sheets, n, "ranks");
    if (r && r->t->nrows && table_col_index(r->t, "rank") >= 0)
        chart_per_rank(&c, r, workbook_add_chart(wb, LXW_CHART_BAR_STACKED), rank_cols,
                       breakdown_titles, ARRAY_SIZE(rank_cols),
                       "GPU timeline breakdown per rank, all GPU events", "time (ms)");
    else
        note(&c, "%s", "No GPU timeline chart: the workbook has no ranks sheet.");
    const struct xlsx_sheet_ref *st = find_sheet(sheets, n, "stragglers");
    static const char *const wait_col[] = {"total_wait_time_us"};
    static const char *const wait_title[] = {"total wait"};
    if (st && st->t->nrows && table_col_index(st->t, "rank") >= 0)
        chart_per_rank(&c, st, workbook_add_chart(wb, LXW_CHART_BAR), wait_col, wait_title, 1,
                       "Wait in collectives per rank, the straggler first", "wait (µs)");
    sb_free(&c.sb);
}

static double cell_number(const struct table *t, size_t row, size_t col)
{
    union cell v = table_cell(t, row, col);
    return t->cols[col].kind == COL_INT ? (double)v.i : t->cols[col].kind == COL_TEXT ? 0 : v.f;
}

/* Row order for the delta chart: largest |delta| first, then row order. */
struct delta_rank {
    double mag;
    size_t row;
};

static int delta_rank_cmp(const void *pa, const void *pb)
{
    const struct delta_rank *a = pa, *b = pb;
    if (a->mag != b->mag)
        return a->mag < b->mag ? 1 : -1;
    return a->row < b->row ? -1 : a->row > b->row;
}

uint32_t xlsx_charts_delta(lxw_workbook *wb, lxw_worksheet *ws, uint32_t row,
                           const struct xlsx_sheet_ref *s, size_t name_col, size_t delta_col,
                           size_t top, const char *title)
{
    const struct table *t = s->t;
    if (!t->nrows || !top || delta_col >= t->ncols || name_col >= t->ncols)
        return row;
    struct charts c = {wb, ws, row, HELP_COL, NULL, STRBUF_INIT};
    c.bold = workbook_add_format(wb);
    format_set_bold(c.bold);
    struct delta_rank *rank = xcalloc(t->nrows, sizeof(*rank));
    for (size_t r = 0; r < t->nrows; r++)
        rank[r] = (struct delta_rank){fabs(cell_number(t, r, delta_col)), r};
    sort_items(rank, t->nrows, sizeof(*rank), delta_rank_cmp);
    size_t k = t->nrows < top ? t->nrows : top;
    /* Helper cells: the chosen rows' names and deltas as formulas on the
     * table's cells, so the chart follows edits there. */
    lxw_col_t nc = (lxw_col_t)c.help_col++, vc = (lxw_col_t)c.help_col++;
    worksheet_write_string(ws, 0, nc, "delta names", c.bold);
    worksheet_write_string(ws, 0, vc, t->cols[delta_col].name, c.bold);
    struct strbuf f = STRBUF_INIT;
    for (size_t i = 0; i < k; i++) {
        uint32_t r = (uint32_t)rank[i].row + 1;
        const char *name = table_cell(t, rank[i].row, name_col).s;
        sb_clear(&f);
        sb_puts(&f, "=LEFT(");
        cell_ref(&f, s->name, r, (uint32_t)name_col);
        sb_printf(&f, ",%d)", NAME_CHARS);
        sb_clear(&c.sb);
        if (name)
            display_fit(&c.sb, name, strlen(name), NAME_CHARS, false, false);
        worksheet_write_formula_str(ws, (lxw_row_t)i + 1, nc, sb_str(&f), NULL, sb_str(&c.sb));
        sb_clear(&f);
        sb_putc(&f, '=');
        cell_ref(&f, s->name, r, (uint32_t)delta_col);
        worksheet_write_formula_num(ws, (lxw_row_t)i + 1, vc, sb_str(&f), NULL,
                                    cell_number(t, rank[i].row, delta_col));
    }
    sb_free(&f);
    free(rank);
    worksheet_set_column(ws, nc, nc, 30, NULL);
    lxw_chart *ch = workbook_add_chart(wb, LXW_CHART_BAR);
    lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
    chart_series_set_categories(se, XLSX_CHARTS_SHEET, 1, nc, (lxw_row_t)k, nc);
    chart_series_set_values(se, XLSX_CHARTS_SHEET, 1, vc, (lxw_row_t)k, vc);
    chart_series_set_name(se, t->cols[delta_col].name);
    /* Growth in red; Excel draws the negative bars inverted (white, outlined). */
    lxw_chart_fill pos = {.color = 0xC0504D};
    chart_series_set_fill(se, &pos);
    chart_series_set_invert_if_negative(se);
    sb_clear(&c.sb);
    sb_printf(&c.sb, "%s (largest %zu of %zu by |%s|, sheet %s)", title, k, t->nrows,
              t->cols[delta_col].name, s->name);
    chart_title_set_name(ch, sb_str(&c.sb));
    chart_axis_set_reverse(ch->y_axis); /* the category axis (see chart_timeline) */
    chart_axis_set_label_position(ch->y_axis, LXW_CHART_AXIS_LABEL_POSITION_LOW);
    chart_axis_set_name(ch->x_axis, "test - control (µs)");
    chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
    place(&c, ch, k > 10 ? 2.0 : 1.0);
    sb_free(&c.sb);
    return c.row;
}

/* ------------------------------------------------------------------------ */
/* Memory snapshot                                                          */
/* ------------------------------------------------------------------------ */

uint32_t xlsx_charts_memory(lxw_workbook *wb, lxw_worksheet *ws, uint32_t row,
                            const struct xlsx_sheet_ref *s)
{
    const struct table *t = s->t;
    int dc = table_col_index(t, "device"), ec = table_col_index(t, "entry");
    int ac = table_col_index(t, "allocated_bytes"), rc = table_col_index(t, "reserved_bytes");
    int mc = table_col_index(t, "mark"), uc = table_col_index(t, "entries");
    if (dc < 0 || ec < 0 || ac < 0 || rc < 0 || mc < 0)
        return row;
    struct charts c = {wb, ws, row, HELP_COL, NULL, STRBUF_INIT};
    if (!t->nrows) {
        note(&c, "No memory chart: the snapshot has no trace entries (%s).",
             "recorded without torch.cuda.memory._record_memory_history");
        sb_free(&c.sb);
        return c.row;
    }
    /* One chart per device: its rows are contiguous. */
    for (size_t first = 0; first < t->nrows;) {
        const char *dev = table_cell(t, first, (size_t)dc).s;
        size_t last = device_run_end(t, first, (size_t)dc);
        size_t peak = SIZE_MAX;
        for (size_t r = first; r <= last; r++)
            if (strcmp(table_cell(t, r, (size_t)mc).s, "peak") == 0)
                peak = r;
        char label[96] = "";
        if (peak != SIZE_MAX)
            snprintf(label, sizeof(label), "peak %.3f GB at entry %lld",
                     (double)table_cell(t, peak, (size_t)ac).i / 1e9,
                     (long long)table_cell(t, peak, (size_t)ec).i);
        lxw_chart *ch = memory_lines(&c, s, first, last, ec, ac, rc, peak, label);
        /* The title says when the points are a sample of the entries. */
        int64_t entries = 0, run = 1;
        for (size_t r = first; r <= last; r++) {
            int64_t k = uc >= 0 ? table_cell(t, r, (size_t)uc).i : 1;
            entries += k;
            run = k > run ? k : run;
        }
        size_t npts = last - first + 1;
        sb_clear(&c.sb);
        sb_printf(&c.sb, "Memory of %s over its trace entries", dev);
        if ((int64_t)npts < entries)
            sb_printf(&c.sb, " (%zu points for %lld entries: the most allocated of each %lld)",
                      npts, (long long)entries, (long long)run);
        chart_title_set_name(ch, sb_str(&c.sb));
        chart_axis_set_name(ch->x_axis, "trace entry");
        place(&c, ch, 1.5);
        first = last + 1;
    }
    sb_free(&c.sb);
    return c.row;
}

#endif
