/* The roofline plot as SVG. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/base/svg.h"
#include "core/base/xalloc.h"
#include "core/report/svg_roofline.h"

#define W 1000
#define H 640
#define PL 80  /* plot area: left, */
#define PR 760 /* right (the legend is beyond), */
#define PT 60  /* top */
#define PB 580 /* and bottom */
#define MAX_SPECS 6

/* Colours of the op families, in table order (Tableau 10). */
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

struct rt {
    const struct table *t;
    int x, y, kt, spec, count, first_metric;
};

struct axis {
    double lo, hi; /* decades: powers of ten */
    double p0, p1; /* pixels of lo and hi */
};

static double ax(const struct axis *a, double v)
{
    return a->p0 + (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) * (a->p1 - a->p0);
}

static bool plottable(double x, double y)
{
    return x > 0 && y > 0 && isfinite(x) && isfinite(y);
}

/* "aten::mm M=4096 N=4096 K=4096 bf16": op name and parameters, raw;
 * brief leaves out the detail parameters (strides, layouts). */
static void row_label(struct strbuf *out, const struct rt *r, size_t row, bool brief)
{
    const struct table *t = r->t;
    const char *name = table_cell(t, row, 0).s;
    sb_puts(out, name ? name : "?");
    for (int c = 1; c < r->first_metric; c++) {
        if (brief && (t->cols[c].flags & COLF_DETAIL))
            continue;
        union cell v = table_cell(t, row, (size_t)c);
        const char *k = t->cols[c].title ? t->cols[c].title : t->cols[c].name;
        if (t->cols[c].kind == COL_TEXT && v.s)
            sb_printf(out, " %s=%s", k, v.s);
        else if (t->cols[c].kind == COL_INT && v.i != TABLE_NO_INT)
            sb_printf(out, " %s=%lld", k, (long long)v.i);
    }
}

static void fmt_tick(char *buf, size_t n, double v)
{
    if (v >= 1e-3 && v < 1e6)
        snprintf(buf, n, "%g", v);
    else
        snprintf(buf, n, "1e%d", (int)lround(log10(v)));
}

struct best {
    double kt;
    size_t ti, row;
};

static int best_cmp(const void *a, const void *b)
{
    const struct best *x = a, *y = b;
    return (x->kt < y->kt) - (x->kt > y->kt);
}

void svg_roofline_render(struct strbuf *out, const struct table_list *tables,
                         const struct device_peaks *peaks, const char *title)
{
    struct rt *rs = xcalloc(tables->items.n + 1, sizeof(*rs));
    size_t nr = 0, npts = 0, skipped = 0;
    double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
    const char *specs[MAX_SPECS];
    size_t nspec = 0;
    for (size_t i = 0; i < tables->items.n; i++) {
        const struct table *t = tables->items.v[i];
        struct rt r = {t,
                       table_col_index(t, "FLOPS/Byte_first"),
                       table_col_index(t, "TFLOPS/s_mean"),
                       table_col_index(t, "Kernel Time (µs)_sum"),
                       table_col_index(t, "Compute Spec"),
                       table_col_index(t, "name_count"),
                       table_col_index(t, "GFLOPS_first")};
        if (r.x < 0 || r.y < 0 || r.first_metric < 1)
            continue;
        for (size_t row = 0; row < t->nrows; row++) {
            double x = table_cell(t, row, (size_t)r.x).f, y = table_cell(t, row, (size_t)r.y).f;
            if (!plottable(x, y)) {
                skipped++;
                continue;
            }
            npts++;
            xmin = fmin(xmin, x), xmax = fmax(xmax, x);
            ymin = fmin(ymin, y), ymax = fmax(ymax, y);
            const char *sp = r.spec >= 0 ? table_cell(t, row, (size_t)r.spec).s : NULL;
            size_t j = 0;
            while (sp && j < nspec && strcmp(specs[j], sp) != 0)
                j++;
            if (sp && j == nspec && nspec < MAX_SPECS)
                specs[nspec++] = sp;
        }
        rs[nr++] = r;
    }
    double bw = peaks && peaks->mem_bw_gbps > 0 ? peaks->mem_bw_gbps / 1000 : 0;
    double peak[MAX_SPECS] = {0}, top = 0;
    for (size_t j = 0; j < nspec && bw > 0; j++) {
        peak[j] = devices_peak(peaks, specs[j]);
        top = fmax(top, peak[j]);
    }
    if (!npts) {
        xmin = 1, xmax = 100, ymin = 0.1, ymax = 10;
    }
    if (top > 0) {
        ymax = fmax(ymax, top);
        xmax = fmax(xmax, top / bw);
    }
    struct axis xa = {pow(10, floor(log10(xmin))), pow(10, ceil(log10(xmax))), PL, PR};
    struct axis ya = {pow(10, floor(log10(ymin))), pow(10, ceil(log10(ymax * 1.05))), PB, PT};
    if (xa.hi <= xa.lo)
        xa.hi = xa.lo * 10;
    if (ya.hi <= ya.lo)
        ya.hi = ya.lo * 10;

    svg_begin(out, W, H, title);
    sb_puts(out, "<style>text { font-size: 12px; } .pt:hover { stroke: #000000; "
                 "stroke-width: 2; }</style>\n");
    sb_printf(out, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" style=\"font-size:16px\">",
              W / 2);
    svg_escape(out, title, strlen(title));
    sb_puts(out, "</text>\n");
    sb_printf(out, "<text x=\"%d\" y=\"44\" text-anchor=\"middle\" fill=\"#555555\">", W / 2);
    if (peaks) {
        sb_puts(out, "device: ");
        svg_escape(out, peaks->name, strlen(peaks->name));
        sb_printf(out, ", %.0f GB/s", peaks->mem_bw_gbps);
    } else {
        sb_puts(out, "no device peaks: no roofs drawn (pass --arch)");
    }
    sb_printf(out, "; %zu points", npts);
    if (skipped)
        sb_printf(out, ", %zu rows without kernel time or FLOPs left out", skipped);
    sb_puts(out, "</text>\n");

    /* Grid and ticks: one line per decade. */
    sb_puts(out, "<g stroke=\"#dddddd\" stroke-width=\"1\">\n");
    for (double v = xa.lo; v <= xa.hi * 1.0001; v *= 10)
        sb_printf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", ax(&xa, v), PT,
                  ax(&xa, v), PB);
    for (double v = ya.lo; v <= ya.hi * 1.0001; v *= 10)
        sb_printf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", PL, ax(&ya, v), PR,
                  ax(&ya, v));
    sb_puts(out, "</g>\n");
    sb_printf(out,
              "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
              "stroke=\"#333333\"/>\n",
              PL, PT, PR - PL, PB - PT);
    char tick[32];
    for (double v = xa.lo; v <= xa.hi * 1.0001; v *= 10) {
        fmt_tick(tick, sizeof(tick), v);
        sb_printf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", ax(&xa, v),
                  PB + 16, tick);
    }
    for (double v = ya.lo; v <= ya.hi * 1.0001; v *= 10) {
        fmt_tick(tick, sizeof(tick), v);
        sb_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", PL - 6,
                  ax(&ya, v) + 4, tick);
    }
    sb_printf(out,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">arithmetic intensity "
              "(FLOP/byte)</text>\n",
              (PL + PR) / 2, PB + 40);
    sb_printf(out,
              "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">"
              "achieved TFLOP/s</text>\n",
              (PT + PB) / 2, (PT + PB) / 2);

    /* Roofs, clipped to the plot. */
    sb_printf(out,
              "<clipPath id=\"plot\"><rect x=\"%d\" y=\"%d\" width=\"%d\" "
              "height=\"%d\"/></clipPath>\n",
              PL, PT, PR - PL, PB - PT);
    if (top > 0) {
        double x0 = fmax(xa.lo, ya.lo / bw);
        sb_printf(out,
                  "<g clip-path=\"url(#plot)\"><line class=\"roof\" x1=\"%.1f\" y1=\"%.1f\" "
                  "x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444444\" stroke-width=\"1.5\" "
                  "stroke-dasharray=\"6 4\"><title>memory roof %.0f GB/s</title></line></g>\n",
                  ax(&xa, x0), ax(&ya, x0 * bw), ax(&xa, top / bw), ax(&ya, top),
                  peaks->mem_bw_gbps);
        for (size_t j = 0; j < nspec; j++) {
            if (peak[j] <= 0)
                continue;
            double yy = ax(&ya, peak[j]);
            sb_printf(out,
                      "<line class=\"roof\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
                      "stroke=\"#222222\" stroke-width=\"1.5\"><title>",
                      ax(&xa, peak[j] / bw), yy, PR, yy);
            svg_escape(out, specs[j], strlen(specs[j]));
            sb_printf(out, " roof %.0f TFLOP/s</title></line>\n", peak[j]);
            sb_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#222222\">",
                      PR - 4, yy - 4);
            svg_escape(out, specs[j], strlen(specs[j]));
            sb_printf(out, " %.0f TFLOP/s</text>\n", peak[j]);
        }
    }

    /* Points, one circle per row, and the labels of the largest. */
    struct best *best = xcalloc(npts + 1, sizeof(*best));
    size_t nb = 0;
    struct strbuf lab = STRBUF_INIT;
    for (size_t i = 0; i < nr; i++) {
        const struct rt *r = &rs[i];
        const char *col = palette[i % ARRAY_SIZE(palette)];
        sb_puts(out, "<g class=\"family\" data-family=\"");
        svg_escape(out, r->t->name, strlen(r->t->name));
        sb_puts(out, "\">\n");
        for (size_t row = 0; row < r->t->nrows; row++) {
            double x = table_cell(r->t, row, (size_t)r->x).f;
            double y = table_cell(r->t, row, (size_t)r->y).f;
            if (!plottable(x, y))
                continue;
            double kt = r->kt >= 0 ? table_cell(r->t, row, (size_t)r->kt).f : 0;
            best[nb++] = (struct best){kt == kt ? kt : 0, i, row};
            sb_clear(&lab);
            row_label(&lab, r, row, false);
            sb_printf(out,
                      "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" "
                      "fill-opacity=\"0.75\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>",
                      ax(&xa, x), ax(&ya, y), col);
            svg_escape(out, sb_str(&lab), lab.len);
            sb_printf(out, "\n%.4g FLOP/byte, %.4g TFLOP/s, %.1f µs kernel time", x, y, kt);
            if (r->count >= 0 && table_cell(r->t, row, (size_t)r->count).i != TABLE_NO_INT)
                sb_printf(out, " in %lld calls",
                          (long long)table_cell(r->t, row, (size_t)r->count).i);
            sb_puts(out, "</title></circle>\n");
        }
        sb_puts(out, "</g>\n");
    }
    sort_items(best, nb, sizeof(*best), best_cmp);
    /* Labels placed so far, to move a label down past one it would cover. */
    double placed_x[SVG_ROOFLINE_LABELS], placed_y[SVG_ROOFLINE_LABELS];
    size_t nplaced = 0;
    for (size_t b = 0; b < nb && b < SVG_ROOFLINE_LABELS; b++) {
        const struct rt *r = &rs[best[b].ti];
        double x = table_cell(r->t, best[b].row, (size_t)r->x).f;
        double y = table_cell(r->t, best[b].row, (size_t)r->y).f;
        struct strbuf raw = STRBUF_INIT;
        row_label(&raw, r, best[b].row, true);
        if (raw.len > 48) { /* at a character boundary */
            size_t k = 45;
            while (k && ((unsigned char)raw.s[k] & 0xC0) == 0x80)
                k--;
            raw.len = k;
            raw.s[k] = '\0';
            sb_puts(&raw, "...");
        }
        double px = ax(&xa, x), py = ax(&ya, y) + 3;
        bool left = px > PR - 200;
        /* A label moves 11 px below one it is within 10 px of; each move
         * passes a placed label, so there are at most nplaced of them. */
        for (size_t k = 0, moves = 0; k < nplaced && moves <= nplaced; k++)
            if (fabs(placed_x[k] - px) < 250 && fabs(placed_y[k] - py) < 10) {
                py = placed_y[k] + 11;
                moves++;
                k = (size_t)-1; /* look again from the first */
            }
        placed_x[nplaced] = px;
        placed_y[nplaced++] = py;
        sb_printf(out,
                  "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
                  "style=\"font-size:10px\" fill=\"#333333\"%s>",
                  left ? px - 7 : px + 7, py, left ? " text-anchor=\"end\"" : "");
        svg_escape(out, sb_str(&raw), raw.len);
        sb_puts(out, "</text>\n");
        sb_free(&raw);
    }
    sb_free(&lab);
    free(best);

    /* Legend. */
    int ly = PT + 10;
    for (size_t i = 0; i < nr; i++, ly += 20) {
        size_t n = 0;
        for (size_t row = 0; row < rs[i].t->nrows; row++)
            n += plottable(table_cell(rs[i].t, row, (size_t)rs[i].x).f,
                           table_cell(rs[i].t, row, (size_t)rs[i].y).f);
        sb_printf(out, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
                  PR + 24, ly, palette[i % ARRAY_SIZE(palette)], PR + 36, ly + 4);
        svg_escape(out, rs[i].t->name, strlen(rs[i].t->name));
        sb_printf(out, " (%zu)</text>\n", n);
    }
    if (top > 0) {
        sb_printf(out,
                  "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444444\" "
                  "stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%d\">memory roof</text>\n",
                  PR + 16, ly, PR + 32, ly, PR + 36, ly + 4);
        ly += 20;
        sb_printf(out,
                  "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222222\"/>"
                  "<text x=\"%d\" y=\"%d\">compute roofs</text>\n",
                  PR + 16, ly, PR + 32, ly, PR + 36, ly + 4);
    }
    svg_end(out);
    free(rs);
}
