/* Text rendering of a roofline plot: an op's parameter combinations
 * (FLOP/byte, achieved TFLOP/s) on log-log axes under the device's roof. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/display.h"
#include "core/roofline/roofline_internal.h"

struct glyphs {
    const char *flat, *slope, *point, *mark, *vaxis, *haxis, *corner, *tick;
};

static const struct glyphs g_ascii = {"-", "/", "o", "@", "|", "-", "+", "+"};
static const struct glyphs g_utf8 = {"\u2500", "\u2571", "\u25cb", "\u25cf",
                                     "\u2502", "\u2500", "\u2514", "\u253c"};

struct pt {
    double x, y; /* log10 FLOP/B, log10 TFLOP/s */
    bool mine;
};

/* Text columns a label takes (ASCII labels only). */
static void put_pad(struct strbuf *out, const char *s, int width)
{
    int n = (int)strlen(s);
    for (int i = n; i < width; i++)
        sb_putc(out, ' ');
    sb_puts(out, s);
}

/* One line cut to `width` columns; trace text sanitized. */
static void put_fit(struct strbuf *out, const struct strbuf *line, int width, bool ascii)
{
    display_fit(out, sb_str(line), line->len, (size_t)width, false, ascii);
    sb_putc(out, '\n');
}

static void fmt_val(char *buf, size_t n, double v)
{
    if (v >= 1)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%g", v);
}

bool roofline_plot(struct strbuf *out, const struct roofline *r, uint32_t ev, int width, int height,
                   bool ascii)
{
    if (width < 30 || height < 8)
        return false;
    uint32_t k = u64map_get(&r->by_time_ev, ev);
    if (k == IDX_NONE)
        return false;
    const struct glyphs *gl = ascii ? &g_ascii : &g_utf8;
    const struct rf_inst *self = &r->inst.v[k];
    const struct rf_group *sg = &r->groups.v[self->group];

    /* Points: one per combination of this op in this sheet. */
    VEC(struct pt) pts = {0};
    for (uint32_t g = 0; g < r->groups.n; g++) {
        const struct rf_group *gr = &r->groups.v[g];
        if (gr->sheet != sg->sheet || gr->name != sg->name)
            continue;
        const struct rf_inst *fi = &r->inst.v[gr->first];
        double sum = 0;
        size_t n = 0;
        for (uint32_t m = r->mem_first[g]; m < r->mem_first[g + 1]; m++) {
            const struct rf_inst *in = &r->inst.v[r->mem[m]];
            if (in->kernel_us > 0 && in->flops > 0) {
                sum += in->flops / (in->kernel_us * 1e6);
                n++;
            }
        }
        if (!n || !(fi->bytes > 0) || !(fi->flops > 0))
            continue;
        struct pt p = {log10(fi->flops / fi->bytes), log10(sum / (double)n), g == self->group};
        VEC_PUSH(&pts, p);
    }
    double peak = r->have_dev ? devices_peak(&r->dev, sg->spec) : 0;
    double bw = r->have_dev ? r->dev.mem_bw_gbps / 1e3 : 0; /* TB/s */
    bool roof = peak > 0 && bw > 0;

    /* Ranges in decades, covering the points and the ridge. */
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < pts.n; i++) {
        x0 = fmin(x0, pts.v[i].x);
        x1 = fmax(x1, pts.v[i].x);
        y0 = fmin(y0, pts.v[i].y);
        y1 = fmax(y1, pts.v[i].y);
    }
    if (roof) {
        double ridge = log10(peak / bw);
        x0 = fmin(x0, ridge - 1);
        x1 = fmax(x1, ridge + 1);
        y1 = fmax(y1, log10(peak));
        y0 = fmin(y0, log10(peak) - 3);
    }
    if (!isfinite(x0)) {
        x0 = -1, x1 = 3, y0 = -3, y1 = 3;
    }
    x0 = floor(x0), x1 = ceil(x1), y0 = floor(y0), y1 = ceil(y1);
    if (x1 <= x0)
        x1 = x0 + 1;
    if (y1 <= y0)
        y1 = y0 + 1;

    const int label_w = 8;
    int plot_w = width - label_w - 1, plot_h = height - 4;
    const char **cell = xmalloc((size_t)plot_w * (size_t)plot_h * sizeof(*cell));
    for (int i = 0; i < plot_w * plot_h; i++)
        cell[i] = " ";
#define ROW_OF(y) ((int)lround((y1 - (y)) / (y1 - y0) * (plot_h - 1)))
#define COL_OF(x) ((int)lround(((x)-x0) / (x1 - x0) * (plot_w - 1)))
    if (roof) {
        for (int c = 0; c < plot_w; c++) {
            double x = x0 + (x1 - x0) * c / (plot_w - 1);
            double y = fmin(log10(peak), x + log10(bw));
            int row = ROW_OF(y);
            if (row >= 0 && row < plot_h)
                cell[row * plot_w + c] = x + log10(bw) < log10(peak) ? gl->slope : gl->flat;
        }
    }
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < pts.n; i++) {
            if (pts.v[i].mine != (pass == 1))
                continue;
            int row = ROW_OF(pts.v[i].y), col = COL_OF(pts.v[i].x);
            if (row >= 0 && row < plot_h && col >= 0 && col < plot_w)
                cell[row * plot_w + col] = pts.v[i].mine ? gl->mark : gl->point;
        }

    /* Title. */
    struct strbuf line = STRBUF_INIT;
    sb_printf(&line, "%s [%s] on %s", trace_str(r->t, sg->name), sg->spec[0] ? sg->spec : "?",
              r->have_dev ? r->dev.name : "unknown device");
    put_fit(out, &line, width, ascii);
    sb_free(&line);
    /* A label on the row of each decade (the first one wins a row). */
    char(*ylab)[16] = xcalloc((size_t)plot_h, sizeof(*ylab));
    for (double d = y1; d >= y0; d -= 1) {
        int row = ROW_OF(d);
        if (row >= 0 && row < plot_h && !ylab[row][0])
            fmt_val(ylab[row], sizeof(ylab[row]), pow(10, d));
    }
    for (int row = 0; row < plot_h; row++) {
        const char *lab = ylab[row];
        put_pad(out, lab, label_w - 1);
        sb_putc(out, ' ');
        sb_puts(out, gl->vaxis);
        for (int c = 0; c < plot_w; c++)
            sb_puts(out, cell[row * plot_w + c]);
        while (out->len && out->s[out->len - 1] == ' ')
            out->s[--out->len] = '\0';
        sb_putc(out, '\n');
    }
    free(ylab);
    /* X axis with a tick per decade, labels under it. */
    put_pad(out, "TFLOP/s", label_w - 1);
    sb_putc(out, ' ');
    sb_puts(out, gl->corner);
    char *labels = xmalloc((size_t)plot_w + 1);
    memset(labels, ' ', (size_t)plot_w);
    labels[plot_w] = '\0';
    int next_free = 0;
    for (int c = 0; c < plot_w; c++) {
        bool tick = false;
        for (double d = x0; d <= x1; d += 1)
            if (COL_OF(d) == c) {
                tick = true;
                char lab[32];
                fmt_val(lab, sizeof(lab), pow(10, d));
                int n = (int)strlen(lab);
                if (c >= next_free && c + n <= plot_w) {
                    memcpy(labels + c, lab, (size_t)n);
                    next_free = c + n + 1;
                }
            }
        sb_puts(out, tick ? gl->tick : gl->haxis);
    }
    sb_putc(out, '\n');
    size_t start = out->len;
    put_pad(out, "", label_w + 1);
    sb_puts(out, labels);
    while (out->len && out->s[out->len - 1] == ' ')
        out->s[--out->len] = '\0';
    if (out->len - start + 8 <= (size_t)width)
        sb_puts(out, "  FLOP/B");
    sb_putc(out, '\n');
    free(labels);
    /* Legend. */
    struct strbuf leg = STRBUF_INIT;
    sb_printf(&leg, "%s this combination  %s others (%zu)", gl->mark, gl->point,
              pts.n ? pts.n - 1 : 0);
    if (roof)
        sb_printf(&leg, "  roof: %g TFLOP/s, %g TB/s", peak, bw);
    else
        sb_puts(&leg, "  no roof (no device peaks)");
    put_fit(out, &leg, width, ascii);
    sb_free(&leg);
#undef ROW_OF
#undef COL_OF
    free(cell);
    VEC_FREE(&pts);
    return true;
}
