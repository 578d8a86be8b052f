/* Flame graphs from folded stacks, as SVG with hover titles and
 * click-to-zoom. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/hmap.h"
#include "core/base/svg.h"
#include "core/base/vec.h"
#include "core/base/xalloc.h"
#include "core/report/svg_flame.h"

#define FRAME_H 16
#define TOP_H 56
/* Average advance of an 11px sans-serif character, for cutting labels. */
#define CHAR_PX 6.6

struct fnode {
    const char *name; /* into the folded text; not NUL-terminated */
    uint32_t len;
    uint32_t parent, first, next; /* IDX_NONE = none */
    uint32_t hash;
    uint32_t depth;
    uint64_t value;
};

struct ftree {
    VEC(struct fnode) n;
    struct hmap map; /* (parent, name) -> node */
};

struct fprobe {
    const struct ftree *t;
    uint32_t parent;
    const char *name;
    uint32_t len;
};

static bool fnode_eq(const void *probe, uint32_t v)
{
    const struct fprobe *p = probe;
    const struct fnode *f = &p->t->n.v[v];
    return f->parent == p->parent && f->len == p->len && memcmp(f->name, p->name, p->len) == 0;
}

static uint32_t fnode_hash(const void *ctx, uint32_t v)
{
    return ((const struct ftree *)ctx)->n.v[v].hash;
}

static uint32_t child(struct ftree *t, uint32_t parent, const char *name, uint32_t len)
{
    uint32_t h = (uint32_t)hash_mix64(hash_bytes(name, len) ^ ((uint64_t)parent * 0x9e37u));
    struct fprobe p = {t, parent, name, len};
    uint32_t v = hmap_find(&t->map, h, fnode_eq, &p);
    if (v != IDX_NONE)
        return v;
    struct fnode f = {name, len, parent, IDX_NONE, IDX_NONE, h, t->n.v[parent].depth + 1, 0};
    VEC_PUSH(&t->n, f);
    v = (uint32_t)(t->n.n - 1);
    hmap_add(&t->map, h, v, fnode_hash, t);
    return v;
}

/* Parse "a;b;c 123" lines into the tree under node 0. */
static void parse(struct ftree *t, const char *s, size_t n)
{
    const char *end = s + n;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        const char *sp = le;
        while (sp > s && sp[-1] != ' ')
            sp--;
        char *num_end;
        unsigned long long v = sp > s ? strtoull(sp, &num_end, 10) : 0;
        if (sp > s + 1 && sp < le && num_end == le && v > 0) {
            uint32_t node = 0;
            const char *f = s, *stack_end = sp - 1;
            while (f < stack_end) {
                const char *semi = memchr(f, ';', (size_t)(stack_end - f));
                const char *fe = semi ? semi : stack_end;
                node = child(t, node, f, (uint32_t)(fe - f));
                t->n.v[node].value += v;
                f = fe + 1;
            }
            t->n.v[0].value += v;
        }
        s = le + 1;
    }
}

static int cmp_name(const void *a, const void *b, void *ctx)
{
    const struct fnode *n = ctx;
    const struct fnode *x = &n[*(const uint32_t *)a], *y = &n[*(const uint32_t *)b];
    uint32_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, m);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Link each node's children, sorted by name. */
static void link_children(struct ftree *t)
{
    size_t n = t->n.n;
    uint32_t *order = xmalloc((n ? n : 1) * sizeof(*order));
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    if (n > 1)
        qsort_r(order + 1, n - 1, sizeof(*order), cmp_name, t->n.v);
    /* Walking names in descending order and pushing each at the front of
     * its parent's list leaves every list ascending. */
    for (size_t i = n; i-- > 1;) {
        struct fnode *f = &t->n.v[order[i]];
        f->next = t->n.v[f->parent].first;
        t->n.v[f->parent].first = order[i];
    }
    free(order);
}

static void color(const struct fnode *f, char out[8])
{
    uint64_t h = hash_bytes(f->name, f->len);
    double v1 = (double)(h & 0xff) / 255, v2 = (double)((h >> 8) & 0xff) / 255,
           v3 = (double)((h >> 16) & 0xff) / 255;
    int r, g, b;
    if (memmem(f->name, f->len, ".py(", 4)) { /* Python frames: greens */
        r = (int)(80 + 60 * v1), g = (int)(170 + 60 * v2), b = (int)(80 + 50 * v3);
    } else if (f->len >= 8 && memcmp(f->name, "[kernel]", 8) == 0) {
        r = (int)(70 + 50 * v1), g = (int)(130 + 60 * v2), b = (int)(200 + 55 * v3);
    } else { /* ops and the rest: flamegraph.pl's warm colours */
        r = (int)(205 + 50 * v3), g = (int)(230 * v1), b = (int)(55 * v2);
    }
    snprintf(out, 8, "#%02x%02x%02x", r & 0xff, g & 0xff, b & 0xff);
}

static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "var W = %d, M = %d, CW = %g;\n"
    "function fit(g, w) {\n"
    "  var t = g.getElementsByTagName('text')[0], n = g.getAttribute('data-n');\n"
    "  var k = Math.floor((w - 6) / CW);\n"
    "  t.textContent = k < 3 ? '' : n.length <= k ? n : n.substring(0, k - 2) + '..';\n"
    "}\n"
    "function zoom(e) {\n"
    "  var g = e.currentTarget, zx = +g.getAttribute('data-x'), zw = +g.getAttribute('data-w');\n"
    "  var zd = +g.getAttribute('data-d'), all = document.querySelectorAll('g.f');\n"
    "  for (var i = 0; i < all.length; i++) {\n"
    "    var f = all[i], x = +f.getAttribute('data-x'), w = +f.getAttribute('data-w');\n"
    "    var d = +f.getAttribute('data-d'), r = f.getElementsByTagName('rect')[0];\n"
    "    var t = f.getElementsByTagName('text')[0], nx, nw, eps = 1e-9;\n"
    "    if (d < zd && x <= zx + eps && x + w >= zx + zw - eps) { nx = 0; nw = 1; f.style.opacity "
    "= 0.6; }\n"
    "    else if (d >= zd && x >= zx - eps && x + w <= zx + zw + eps) { nx = (x - zx) / zw; nw = w "
    "/ zw; f.style.opacity = 1; }\n"
    "    else { f.style.display = 'none'; continue; }\n"
    "    f.style.display = '';\n"
    "    var px = M + nx * (W - 2 * M), pw = nw * (W - 2 * M);\n"
    "    r.setAttribute('x', px); r.setAttribute('width', pw); t.setAttribute('x', px + 3);\n"
    "    fit(f, pw);\n"
    "  }\n"
    "  document.getElementById('unzoom').style.opacity = 1;\n"
    "}\n"
    "function unzoom() {\n"
    "  var all = document.querySelectorAll('g.f');\n"
    "  for (var i = 0; i < all.length; i++) {\n"
    "    var f = all[i], x = +f.getAttribute('data-x'), w = +f.getAttribute('data-w');\n"
    "    var r = f.getElementsByTagName('rect')[0], t = f.getElementsByTagName('text')[0];\n"
    "    var px = M + x * (W - 2 * M), pw = w * (W - 2 * M);\n"
    "    f.style.display = ''; f.style.opacity = 1;\n"
    "    r.setAttribute('x', px); r.setAttribute('width', pw); t.setAttribute('x', px + 3);\n"
    "    fit(f, pw);\n"
    "  }\n"
    "  document.getElementById('unzoom').style.opacity = 0;\n"
    "}\n"
    "window.addEventListener('load', function () {\n"
    "  var all = document.querySelectorAll('g.f');\n"
    "  for (var i = 0; i < all.length; i++) all[i].addEventListener('click', zoom);\n"
    "  document.getElementById('unzoom').addEventListener('click', unzoom);\n"
    "});\n"
    "]]></script>\n";

void svg_flame_render(struct strbuf *out, const char *folded, size_t n, const char *title,
                      const char *unit)
{
    struct ftree t = {0};
    struct fnode root = {"all", 3, IDX_NONE, IDX_NONE, IDX_NONE, 0, 0, 0};
    VEC_PUSH(&t.n, root);
    parse(&t, folded, n);
    link_children(&t);
    const double span = SVG_FLAME_WIDTH - 2 * SVG_FLAME_MARGIN;
    const double total = (double)t.n.v[0].value;
    /* Left edges (as fractions) in a pre-order walk; depth of the drawing. */
    double *x = xcalloc(t.n.n, sizeof(*x));
    uint32_t *stack = xmalloc(t.n.n * sizeof(*stack));
    size_t sp = 0, drawn = 0, omitted = 0;
    uint32_t maxd = 0;
    bool *show = xcalloc(t.n.n, sizeof(*show));
    stack[sp++] = 0;
    while (sp) {
        uint32_t v = stack[--sp];
        struct fnode *f = &t.n.v[v];
        double w = total > 0 ? (double)f->value / total : 0;
        if (v != 0 && (w * span < SVG_FLAME_MIN_PX || !show[f->parent])) {
            omitted++;
        } else {
            show[v] = true;
            drawn++;
            maxd = f->depth > maxd ? f->depth : maxd;
        }
        /* Children left to right: pushed in reverse so the first pops first. */
        double cx = x[v];
        size_t mark = sp;
        for (uint32_t c = f->first; c != IDX_NONE; c = t.n.v[c].next) {
            x[c] = cx;
            cx += total > 0 ? (double)t.n.v[c].value / total : 0;
            stack[sp++] = c;
        }
        for (size_t i = mark, j = sp; i + 1 < j; i++, j--) {
            uint32_t s = stack[i];
            stack[i] = stack[j - 1];
            stack[j - 1] = s;
        }
    }
    int height = TOP_H + (int)(maxd + 1) * FRAME_H + 2 * SVG_FLAME_MARGIN;
    svg_begin(out, SVG_FLAME_WIDTH, height, title);
    sb_puts(out, "<style>g.f:hover rect { stroke: #000000; stroke-width: 0.5; } "
                 "g.f { cursor: pointer; } text { font-size: 11px; }</style>\n");
    sb_printf(out, script, SVG_FLAME_WIDTH, SVG_FLAME_MARGIN, CHAR_PX);
    sb_printf(out, "<text x=\"%g\" y=\"22\" text-anchor=\"middle\" style=\"font-size:15px\">",
              SVG_FLAME_WIDTH / 2.0);
    svg_escape(out, title, strlen(title));
    sb_puts(out, "</text>\n");
    sb_printf(out,
              "<text x=\"%d\" y=\"42\" fill=\"#555555\">%zu frames, %.0f %s in all; "
              "click a frame to zoom, hover for its value",
              SVG_FLAME_MARGIN, drawn, total, unit);
    if (omitted)
        sb_printf(out, "; %zu frames under %g px left out", omitted, SVG_FLAME_MIN_PX);
    sb_puts(out, "</text>\n");
    sb_printf(out,
              "<text id=\"unzoom\" x=\"%d\" y=\"42\" text-anchor=\"end\" fill=\"#0000cc\" "
              "style=\"opacity:0;cursor:pointer\">Reset zoom</text>\n",
              SVG_FLAME_WIDTH - SVG_FLAME_MARGIN);
    int base = height - SVG_FLAME_MARGIN - FRAME_H;
    struct strbuf name = STRBUF_INIT;
    for (size_t v = 0; v < t.n.n; v++) {
        if (!show[v])
            continue;
        const struct fnode *f = &t.n.v[v];
        double w = total > 0 ? (double)f->value / total : 1;
        double px = SVG_FLAME_MARGIN + x[v] * span, pw = w * span;
        int y = base - (int)f->depth * FRAME_H;
        char fill[8];
        color(f, fill);
        sb_clear(&name);
        svg_escape(&name, f->name, f->len);
        sb_printf(out, "<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%u\" data-n=\"",
                  x[v], w, f->depth);
        sb_putn(out, sb_str(&name), name.len);
        sb_puts(out, "\"><title>");
        sb_putn(out, sb_str(&name), name.len);
        sb_printf(out, " (%llu %s, %.2f%%)</title>", (unsigned long long)f->value, unit,
                  total > 0 ? 100.0 * (double)f->value / total : 0);
        sb_printf(out,
                  "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\" "
                  "ry=\"2\"/><text x=\"%.2f\" y=\"%d\">",
                  px, y, pw, FRAME_H - 1, fill, px + 3, y + 11);
        /* The label: as many whole characters as fit, cut with "..". */
        size_t fit = pw > 6 ? (size_t)((pw - 6) / CHAR_PX) : 0;
        if (fit >= 3) {
            struct strbuf raw = STRBUF_INIT;
            size_t chars = 0, i = 0;
            for (; i < f->len; i++)
                if (((unsigned char)f->name[i] & 0xC0) != 0x80)
                    chars++;
            if (chars <= fit) {
                sb_putn(out, sb_str(&name), name.len);
            } else {
                size_t keep = 0, c = 0;
                for (i = 0; i < f->len; i++) {
                    if (((unsigned char)f->name[i] & 0xC0) != 0x80 && c++ == fit - 2)
                        break;
                    keep = i + 1;
                }
                svg_escape(&raw, f->name, keep);
                sb_putn(out, sb_str(&raw), raw.len);
                sb_puts(out, "..");
            }
            sb_free(&raw);
        }
        sb_puts(out, "</text></g>\n");
    }
    sb_free(&name);
    svg_end(out);
    free(show);
    free(stack);
    free(x);
    hmap_free(&t.map);
    VEC_FREE(&t.n);
}
