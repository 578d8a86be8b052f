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
    bool mine;   /* the selected combination */
};
struct pt_vec {
    struct pt *v;
    size_t n, cap;
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

/* The plot being drawn: decades on both axes, a grid of glyphs. */
struct canvas {
    double x0, x1, y0, y1; /* axis ranges, whole decades of FLOP/B and TFLOP/s */
    int w, h;              /* grid columns and rows */
    const char **cell;     /* w * h glyphs, row-major */
    const struct glyphs *gl;
};

enum { LABEL_W = 8 }; /* y-axis labels, axis included */

static int canvas_row(const struct canvas *c, double y)
{
    return (int)lround((c->y1 - y) / (c->y1 - c->y0) * (c->h - 1));
}

static int canvas_col(const struct canvas *c, double x)
{
    return (int)lround((x - c->x0) / (c->x1 - c->x0) * (c->w - 1));
}

static void canvas_set(struct canvas *c, int row, int col, const char *glyph)
{
    if (row >= 0 && row < c->h && col >= 0 && col < c->w)
        c->cell[row * c->w + col] = glyph;
}

/* Mean achieved TFLOP/s of group g's instances with kernel time and FLOPs;
 * 0 when none has both. */
static double group_mean_tflops(const struct roofline *r, uint32_t g)
{
    double sum = 0;
    size_t n = 0;
    for (uint32_t m = r->mem_first[g]; m < r->mem_first[g + 1]; m++) {
        const struct rf_inst *in = &r->inst.v[r->mem[m]];
        if (in->kernel_us > 0 && in->flops > 0) {
            sum += in->flops / (in->kernel_us * 1e6);
            n++;
        }
    }
    return n ? sum / (double)n : 0;
}

/* One point per parameter combination of the op of group `self` in its
 * sheet (same name), appended to pts; `mine` marks self. */
static void collect_points(const struct roofline *r, uint32_t self, struct pt_vec *pts)
{
    const struct rf_group *sg = &r->groups.v[self];
    for (uint32_t g = 0; g < r->groups.n; g++) {
        const struct rf_group *gr = &r->groups.v[g];
        if (gr->sheet != sg->sheet || gr->name != sg->name || gr->pseudo != sg->pseudo)
            continue;
        const struct rf_inst *fi = &r->inst.v[gr->first];
        double tflops = group_mean_tflops(r, g);
        if (!(tflops > 0) || !(fi->bytes > 0) || !(fi->flops > 0))
            continue;
        struct pt p = {log10(fi->flops / fi->bytes), log10(tflops), g == self};
        VEC_PUSH(pts, p);
    }
}

/* Axis ranges in whole decades covering the points and, with a roof
 * (peak TFLOP/s and bw TB/s both > 0), the ridge and three decades below
 * the peak. */
static void canvas_ranges(struct canvas *c, const struct pt_vec *pts, double peak, double bw)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < pts->n; i++) {
        x0 = fmin(x0, pts->v[i].x);
        x1 = fmax(x1, pts->v[i].x);
        y0 = fmin(y0, pts->v[i].y);
        y1 = fmax(y1, pts->v[i].y);
    }
    if (peak > 0 && bw > 0) {
        double ridge = log10(peak / bw);
        x0 = fmin(x0, ridge - 1);
        x1 = fmax(x1, ridge + 1);
        y1 = fmax(y1, log10(peak));
        y0 = fmin(y0, log10(peak) - 3);
    }
    if (!isfinite(x0)) {
        x0 = -1, x1 = 3, y0 = -3, y1 = 3;
    }
    c->x0 = floor(x0), c->x1 = ceil(x1), c->y0 = floor(y0), c->y1 = ceil(y1);
    if (c->x1 <= c->x0)
        c->x1 = c->x0 + 1;
    if (c->y1 <= c->y0)
        c->y1 = c->y0 + 1;
}

/* The roof: min(peak, intensity * bw), a slope then a flat line. */
static void draw_roof(struct canvas *c, double peak, double bw)
{
    for (int col = 0; col < c->w; col++) {
        double x = c->x0 + (c->x1 - c->x0) * col / (c->w - 1);
        double y = fmin(log10(peak), x + log10(bw));
        canvas_set(c, canvas_row(c, y), col,
                   x + log10(bw) < log10(peak) ? c->gl->slope : c->gl->flat);
    }
}

/* The points, the selected one last so that it is never hidden. */
static void draw_points(struct canvas *c, const struct pt_vec *pts)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < pts->n; i++)
            if (pts->v[i].mine == (pass == 1))
                canvas_set(c, canvas_row(c, pts->v[i].y), canvas_col(c, pts->v[i].x),
                           pts->v[i].mine ? c->gl->mark : c->gl->point);
}

static void trim_trailing_spaces(struct strbuf *out)
{
    while (out->len && out->s[out->len - 1] == ' ')
        out->s[--out->len] = '\0';
}

/* The grid, a decade label on the first row of each decade. */
static void put_grid(struct strbuf *out, const struct canvas *c)
{
    char(*ylab)[16] = xcalloc((size_t)c->h, sizeof(*ylab));
    for (double d = c->y1; d >= c->y0; d -= 1) {
        int row = canvas_row(c, d);
        if (row >= 0 && row < c->h && !ylab[row][0])
            fmt_val(ylab[row], sizeof(ylab[row]), pow(10, d));
    }
    for (int row = 0; row < c->h; row++) {
        put_pad(out, ylab[row], LABEL_W - 1);
        sb_putc(out, ' ');
        sb_puts(out, c->gl->vaxis);
        for (int col = 0; col < c->w; col++)
            sb_puts(out, c->cell[row * c->w + col]);
        trim_trailing_spaces(out);
        sb_putc(out, '\n');
    }
    free(ylab);
}

/* The x axis with a tick per decade, and a line of labels under it (a label
 * that would touch the previous one is left out). */
static void put_x_axis(struct strbuf *out, const struct canvas *c, int width)
{
    put_pad(out, "TFLOP/s", LABEL_W - 1);
    sb_putc(out, ' ');
    sb_puts(out, c->gl->corner);
    char *labels = xmalloc((size_t)c->w + 1);
    memset(labels, ' ', (size_t)c->w);
    labels[c->w] = '\0';
    int next_free = 0;
    for (int col = 0; col < c->w; col++) {
        bool tick = false;
        for (double d = c->x0; d <= c->x1; d += 1) {
            if (canvas_col(c, d) != col)
                continue;
            tick = true;
            char lab[32];
            fmt_val(lab, sizeof(lab), pow(10, d));
            int n = (int)strlen(lab);
            if (col >= next_free && col + n <= c->w) {
                memcpy(labels + col, lab, (size_t)n);
                next_free = col + n + 1;
            }
        }
        sb_puts(out, tick ? c->gl->tick : c->gl->haxis);
    }
    sb_putc(out, '\n');
    size_t start = out->len;
    put_pad(out, "", LABEL_W + 1);
    sb_puts(out, labels);
    trim_trailing_spaces(out);
    if (out->len - start + 8 <= (size_t)width)
        sb_puts(out, "  FLOP/B");
    sb_putc(out, '\n');
    free(labels);
}

bool roofline_plot(struct strbuf *out, const struct roofline *r, uint32_t ev, int width, int height,
                   bool ascii)
{
    if (width < 30 || height < 8)
        return false;
    uint32_t k = hmap_get(&r->by_time_ev, ev);
    if (k == IDX_NONE)
        return false;
    const struct rf_inst *self = &r->inst.v[k];
    const struct rf_group *sg = &r->groups.v[self->group];
    struct pt_vec pts = {0};
    collect_points(r, self->group, &pts);
    double peak = r->have_dev ? devices_peak(&r->dev, sg->spec) : 0;
    double bw = r->have_dev ? r->dev.mem_bw_gbps / 1e3 : 0; /* TB/s */
    bool roof = peak > 0 && bw > 0;

    struct canvas c = {.w = width - LABEL_W - 1, .h = height - 5};
    c.gl = ascii ? &g_ascii : &g_utf8;
    canvas_ranges(&c, &pts, roof ? peak : 0, roof ? bw : 0);
    c.cell = xmalloc((size_t)c.w * (size_t)c.h * sizeof(*c.cell));
    for (int i = 0; i < c.w * c.h; i++)
        c.cell[i] = " ";
    if (roof)
        draw_roof(&c, peak, bw);
    draw_points(&c, &pts);

    struct strbuf line = STRBUF_INIT;
    sb_printf(&line, "%s [%s] on %s", rf_group_name(r, sg), sg->spec[0] ? sg->spec : "?",
              r->have_dev ? r->dev.name : "unknown device");
    put_fit(out, &line, width, ascii);
    put_grid(out, &c);
    put_x_axis(out, &c, width);
    sb_clear(&line);
    sb_printf(&line, "%s this combination  %s others (%zu)", c.gl->mark, c.gl->point,
              pts.n ? pts.n - 1 : 0);
    put_fit(out, &line, width, ascii);
    /* The roof on a line of its own: a legend line would cut it. */
    sb_clear(&line);
    if (roof)
        sb_printf(&line, "roof: %g TFLOP/s, %g TB/s", peak, bw);
    else
        sb_puts(&line, "no roof (no device peaks)");
    put_fit(out, &line, width, ascii);
    sb_free(&line);
    free(c.cell);
    VEC_FREE(&pts);
    return true;
}
