/* The diff view's screen as text: header, the shown table or merged tree,
 * the detail of the selection, the key list (tui/diff/diffview.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/xalloc.h"
#include "core/report/tabfmt.h"
#include "tui/diff/diffdetail.h"
#include "tui/diff/diffview.h"
#include "tui/frame/help.h"
#include "tui/frame/keymap.h"
#include "tui/frame/text.h"
#include "tui/frame/textview.h"

/* Lines above the table: title, the two sides, the change and message,
 * and the column header. */
#define HEAD_LINES 4
#define COL_GAP 2
/* Columns of the merged tree besides the name, and their width. */
#define TREE_COLS 8
#define TREE_W 12
/* Columns the merged tree's names keep before numbers: deep Python stacks
 * need them (with the indent past a quarter of them compressed). */
#define TREE_NAME_MIN 36

static const char *const tab_titles[DV__TABS] = {"ops", "tree", "lca", "unique-args", "roofline"};

/* Append line s[0..n) cut to cols columns, and a newline. */
static void put_line(struct strbuf *out, const char *s, size_t n, int cols, bool ascii)
{
    display_fit(out, s, n, (size_t)(cols > 0 ? cols : 1), false, ascii);
    sb_putc(out, '\n');
}

static void put_str(struct strbuf *out, const char *s, int cols, bool ascii)
{
    put_line(out, s, strlen(s), cols, ascii);
}

/* Lines the detail takes below the table: none when closed, else about
 * half the screen. */
static int detail_lines(const struct diffview *dv, int lines)
{
    if (!dv->detail || dv->help)
        return 0;
    int avail = lines - HEAD_LINES - 1;
    int n = avail / 2;
    return n >= 4 ? n : 0;
}

int diffview_table_rows(const struct diffview *dv, int lines)
{
    int rows = lines - HEAD_LINES - 1 - detail_lines(dv, lines);
    return rows > 1 ? rows : 1;
}

/* "+1.23 ms (+4.5 %)": a change with its sign and share of the control. */
static void put_change(struct strbuf *out, int64_t a, int64_t b, bool ascii)
{
    char buf[48];
    int64_t d = b - a;
    text_duration(buf, sizeof(buf), d < 0 ? -d : d, ascii);
    sb_printf(out, "%s%s", d < 0 ? "-" : d > 0 ? "+" : "", d == 0 ? "0" : buf);
    if (a > 0)
        sb_printf(out, " (%+.1f %%)", 100.0 * (double)d / (double)a);
}

/* "control: LABEL  GPU 1.23 ms  ProfilerStep#6  DEVICE  FILE": what is cut
 * on a narrow screen comes last. */
static void side_line(const struct diffview *dv, int k, struct strbuf *out)
{
    const struct trace *t = dv->td->t[k];
    sb_printf(out, "%-8s ", k ? "test:" : "control:");
    display_sanitize(out, dv->td->label[k], strlen(dv->td->label[k]));
    char buf[48];
    text_duration(buf, sizeof(buf), dv->gpu_total[k], dv->ascii);
    sb_printf(out, "  GPU %s  ", buf);
    tracediff_describe_side(dv->td, k, out);
    const char *dev = t->devices.n ? trace_str(t, t->devices.v[0].name) : "";
    sb_puts(out, "  ");
    if (*dev)
        display_sanitize(out, dev, strlen(dev));
    else
        sb_puts(out, "(no device properties)");
    sb_puts(out, "  ");
    display_sanitize(out, t->path ? t->path : "-", strlen(t->path ? t->path : "-"));
}

static void header(struct diffview *dv, int cols, struct strbuf *out)
{
    struct strbuf sb = STRBUF_INIT;
    sb_puts(&sb, "torchtop diff ");
    for (int i = 0; i < DV__TABS; i++)
        sb_printf(&sb, i == dv->which ? " [%d %s]" : "  %d %s ", i + 1, tab_titles[i]);
    sb_puts(&sb, "   Tab/1-5: table  s: sort  /: filter  Enter: detail  ?: keys  q: quit");
    put_line(out, sb.s, sb.len, cols, dv->ascii);
    for (int k = 0; k < 2; k++) {
        sb_clear(&sb);
        side_line(dv, k, &sb);
        put_line(out, sb.s, sb.len, cols, dv->ascii);
    }
    sb_clear(&sb);
    sb_puts(&sb, "GPU change: ");
    put_change(&sb, dv->gpu_total[0], dv->gpu_total[1], dv->ascii);
    /* Different hardware on the two sides changes every time. */
    struct strbuf dn = STRBUF_INIT;
    if (tracediff_devices_note(dv->td, &dn))
        sb_printf(&sb, "  note: %s", sb_str(&dn));
    sb_free(&dn);
    if (pattern_active(&dv->filter)) {
        sb_puts(&sb, "  filter: ");
        display_sanitize(&sb, dv->filter.text, strlen(dv->filter.text));
    }
    sb_puts(&sb, "  | ");
    if (dv->prompt) {
        sb_puts(&sb, "filter (Enter applies, Esc leaves): ");
        display_sanitize(&sb, dv->input, strlen(dv->input));
        sb_putc(&sb, '_');
    } else {
        display_sanitize(&sb, dv->msg, strlen(dv->msg));
    }
    put_line(out, sb.s, sb.len, cols, dv->ascii);
    sb_free(&sb);
}

/* ------------------------------------------------------------------------ */
/* Flat tables                                                              */
/* ------------------------------------------------------------------------ */

static bool col_shown(const struct table *t, size_t c)
{
    return !(t->cols[c].flags & COLF_DETAIL);
}

static const char *col_title(const struct table *t, size_t c)
{
    return t->cols[c].title ? t->cols[c].title : t->cols[c].name;
}

/* Shrink the widest column of a kind (text or not) down to its floor,
 * until the line fits or none is above its floor; updates *total. */
static void shrink(const struct table *t, size_t *w, const size_t *floor, bool text, size_t *total,
                   size_t cols)
{
    while (*total > cols) {
        size_t widest = SIZE_MAX;
        for (size_t c = 0; c < t->ncols; c++)
            if (col_shown(t, c) && (t->cols[c].kind == COL_TEXT) == text && w[c] > floor[c] &&
                (widest == SIZE_MAX || w[c] > w[widest]))
                widest = c;
        if (widest == SIZE_MAX)
            return;
        size_t over = *total - cols;
        size_t keep = w[widest] > over + floor[widest] ? w[widest] - over : floor[widest];
        *total -= w[widest] - keep;
        w[widest] = keep;
    }
}

/* The width of each column shown: the widest of its title and its cells
 * among the rows shown. While the line is wider than the screen, titles
 * wider than their numbers give way (cut in the middle) down to 14
 * columns, then text columns down to 28, then down to 20. */
static void flat_widths(const struct diffview *dv, const struct table *t, int cols, size_t *w)
{
    int tab = dv->which;
    size_t total = 0;
    size_t *cells = xcalloc(t->ncols ? t->ncols : 1, sizeof(*cells));
    size_t *floor = xcalloc(t->ncols ? t->ncols : 1, sizeof(*floor));
    struct strbuf sb = STRBUF_INIT;
    for (size_t c = 0; c < t->ncols; c++) {
        w[c] = 0;
        if (!col_shown(t, c))
            continue;
        for (size_t i = 0; i < dv->nrows[tab]; i++) {
            sb_clear(&sb);
            tabfmt_cell_text(&sb, t, dv->rows[tab][i], c);
            size_t x = display_width(sb.s ? sb.s : "", sb.len);
            if (x > cells[c])
                cells[c] = x;
        }
        const char *ti = col_title(t, c);
        size_t tw = display_width(ti, strlen(ti));
        w[c] = cells[c] > tw ? cells[c] : tw;
        total += w[c] + (total ? COL_GAP : 0);
    }
    sb_free(&sb);
    for (size_t c = 0; c < t->ncols; c++)
        floor[c] = cells[c] > 14 ? cells[c] : w[c] < 14 ? w[c] : 14;
    shrink(t, w, floor, false, &total, (size_t)cols);
    for (size_t c = 0; c < t->ncols; c++)
        floor[c] = w[c] < 28 ? w[c] : 28;
    shrink(t, w, floor, true, &total, (size_t)cols);
    for (size_t c = 0; c < t->ncols; c++)
        floor[c] = w[c] < 20 ? w[c] : 20;
    shrink(t, w, floor, true, &total, (size_t)cols);
    free(cells);
    free(floor);
}

/* Append cell text s[0..n) fitted into width w: numbers to the right. */
static void put_cell(struct strbuf *line, const char *s, size_t n, size_t w, bool right,
                     bool middle, bool ascii)
{
    struct strbuf cell = STRBUF_INIT;
    size_t got = display_fit(&cell, s, n, w, middle, ascii);
    if (right)
        for (size_t i = got; i < w; i++)
            sb_putc(line, ' ');
    sb_putn(line, cell.s ? cell.s : "", cell.len);
    if (!right)
        for (size_t i = got; i < w; i++)
            sb_putc(line, ' ');
    sb_free(&cell);
}

size_t diffview_col_at(const struct table *t, size_t k)
{
    size_t namecol = table_name_col(t), seen = 0;
    if (k == 0)
        return namecol;
    for (int pass = 0; pass < 2; pass++)
        for (size_t c = 0; c < t->ncols; c++) {
            if (c == namecol || diffview_change_col(&t->cols[c]) != (pass == 0))
                continue;
            if (++seen == k)
                return c;
        }
    return t->ncols;
}

/* The columns of a flat table on screen at its horizontal scroll, in
 * display order (diffview_col_at, detail columns left out). */
struct flat_plan {
    size_t n;
    size_t *col;
    bool more;
};

static void flat_plan(const struct diffview *dv, const struct table *t, const size_t *w, int cols,
                      struct flat_plan *p)
{
    size_t *order = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    size_t *ow = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    size_t *idx = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    size_t n = 0;
    for (size_t k = 0; k < t->ncols; k++) {
        size_t c = diffview_col_at(t, k);
        if (c < t->ncols && col_shown(t, c)) {
            order[n] = c;
            ow[n++] = w[c];
        }
    }
    size_t scroll = dv->hscroll[dv->which];
    p->col = xmalloc((n ? n : 1) * sizeof(size_t));
    p->n = textview_plan_cols(ow, n, 1, &scroll, (size_t)MAX(cols, 1), COL_GAP, idx, &p->more);
    for (size_t i = 0; i < p->n; i++)
        p->col[i] = order[idx[i]];
    free(order);
    free(ow);
    free(idx);
}

static void flat_row(const struct diffview *dv, const struct table *t, const size_t *w,
                     const struct flat_plan *p, size_t row, struct strbuf *line)
{
    struct strbuf sb = STRBUF_INIT;
    size_t namecol = table_name_col(t);
    for (size_t k = 0; k < p->n; k++) {
        size_t c = p->col[k];
        if (k)
            sb_puts(line, "  ");
        sb_clear(&sb);
        if (row == SIZE_MAX)
            sb_puts(&sb, col_title(t, c));
        else
            tabfmt_cell_text(&sb, t, row, c);
        bool text = t->cols[c].kind == COL_TEXT;
        put_cell(line, sb.s ? sb.s : "", sb.len, w[c], !text, c == namecol || row == SIZE_MAX,
                 dv->ascii);
    }
    sb_free(&sb);
}

/* The column header of a flat table, "›" at the right edge while columns
 * follow those shown. */
static void flat_head(const struct diffview *dv, const struct table *t, const size_t *w,
                      const struct flat_plan *p, int cols, struct strbuf *line)
{
    flat_row(dv, t, w, p, SIZE_MAX, line);
    if (!p->more || cols < 2)
        return;
    size_t at = (size_t)cols - 1, used = display_width(line->s ? line->s : "", line->len);
    if (used > at) {
        struct strbuf cut = STRBUF_INIT;
        display_fit(&cut, line->s, line->len, at, false, dv->ascii);
        sb_clear(line);
        sb_putn(line, cut.s ? cut.s : "", cut.len);
        sb_free(&cut);
        used = display_width(line->s ? line->s : "", line->len);
    }
    for (; used < at; used++)
        sb_putc(line, ' ');
    sb_puts(line, dv->ascii ? ">" : TEXTVIEW_MORE_UTF8);
}

/* ------------------------------------------------------------------------ */
/* The merged tree                                                          */
/* ------------------------------------------------------------------------ */

/* Microseconds with one decimal (as -t tree's CSV, rounded); "" when the
 * side lacks the node. */
static void put_us(struct strbuf *line, int64_t ns, bool present)
{
    char buf[40];
    if (present)
        snprintf(buf, sizeof(buf), "%.1f", (double)ns / 1e3);
    else
        buf[0] = '\0';
    sb_printf(line, "  %*s", TREE_W, buf);
}

static void tree_head(const struct diffview *dv, size_t namew, int shown, struct strbuf *line)
{
    char t[TREE_COLS][TREE_W + 8];
    const char *lab[2] = {dv->td->label[0], dv->td->label[1]};
    snprintf(t[0], sizeof(t[0]), "%.*s GPU", 7, lab[0]);
    snprintf(t[1], sizeof(t[1]), "%.*s GPU", 7, lab[1]);
    snprintf(t[2], sizeof(t[2]), "diff GPU");
    snprintf(t[3], sizeof(t[3]), "%.*s CPU", 7, lab[0]);
    snprintf(t[4], sizeof(t[4]), "%.*s CPU", 7, lab[1]);
    snprintf(t[5], sizeof(t[5]), "diff CPU");
    snprintf(t[6], sizeof(t[6]), "%.*s kern", 7, lab[0]);
    snprintf(t[7], sizeof(t[7]), "%.*s kern", 7, lab[1]);
    const char *name = "name (us; +: test only, -: control only)";
    put_cell(line, name, strlen(name), namew, false, false, dv->ascii);
    for (int i = 0; i < shown; i++) {
        sb_puts(line, "  ");
        put_cell(line, t[i], strlen(t[i]), TREE_W, true, false, dv->ascii);
    }
}

static uint32_t kernels(const struct difftree *dt, uint32_t node, int side)
{
    uint32_t e = dt->nodes.v[node].ev[side], n = 0;
    if (e != IDX_NONE)
        gputime_subtree_events(dt->g[side], e, &n);
    return n;
}

static void tree_row(const struct diffview *dv, uint32_t node, size_t namew, int shown,
                     struct strbuf *line)
{
    const struct difftree *dt = dv->ctx.dt;
    const struct difftree_node *nd = &dt->nodes.v[node];
    bool in[2] = {nd->ev[0] != IDX_NONE, nd->ev[1] != IDX_NONE};
    struct strbuf nm = STRBUF_INIT;
    sb_putc(&nm, in[0] && in[1] ? ' ' : in[1] ? '+' : '-');
    /* A quarter of the name column indents; deeper rows say their depth
     * ("·23·") and keep the rest for the name. */
    char deep[32];
    size_t indent =
        textview_deep_indent(nd->depth, nd->depth, namew / 4, 1, dv->ascii, deep, sizeof(deep));
    sb_puts(&nm, deep);
    for (size_t i = 0; i < indent; i++)
        sb_putc(&nm, ' ');
    bool kids = nd->first_child != IDX_NONE;
    bool open = kids && (dv->open[node] || pattern_active(&dv->filter));
    if (dv->ascii)
        sb_puts(&nm, !kids ? "  " : open ? "v " : "> ");
    else
        sb_puts(&nm, !kids ? "  " : open ? "\xe2\x96\xbe " : "\xe2\x96\xb8 ");
    const char *name = difftree_name(dt, node);
    display_sanitize(&nm, name, strlen(name));
    put_cell(line, nm.s, nm.len, namew, false, false, dv->ascii);
    sb_free(&nm);
    size_t numbers = line->len;
    int64_t g[2], c[2];
    for (int s = 0; s < 2; s++) {
        g[s] = difftree_gpu_subtree(dt, node, s);
        c[s] = difftree_cpu(dt, node, s);
    }
    put_us(line, g[0], in[0]);
    put_us(line, g[1], in[1]);
    put_us(line, g[1] - g[0], true);
    put_us(line, c[0], in[0]);
    put_us(line, c[1], in[1]);
    put_us(line, c[1] - c[0], true);
    for (int s = 0; s < 2; s++) {
        char buf[24];
        if (in[s])
            snprintf(buf, sizeof(buf), "%u", kernels(dt, node, s));
        else
            buf[0] = '\0';
        sb_printf(line, "  %*s", TREE_W, buf);
    }
    /* The columns that fit (ASCII digits after the name). */
    if (line->len > numbers + (size_t)shown * (TREE_W + 2))
        line->len = numbers + (size_t)shown * (TREE_W + 2);
}

/* ------------------------------------------------------------------------ */
/* Help                                                                     */
/* ------------------------------------------------------------------------ */

static void help_lines(struct strbuf *out)
{
    /* The explorer's words where they fit; the tree's and the tables'
     * where the keys act on one of the diff's. */
    static const struct help_item items[] = {
        {A_DIFF_OPS, NULL},
        {A_DIFF_TREE, NULL},
        {A_DIFF_LCA, NULL},
        {A_DIFF_ARGS, NULL},
        {A_DIFF_ROOFLINE, NULL},
        {A_VIEW_NEXT, "Next diff table (ops, tree, lca, unique-args, roofline)"},
        {A_VIEW_PREV, "Previous diff table"},
        {A_DIFF_DETAIL, NULL},
        {A_SORT_MENU, "Choose the sort column (the tree: its order) from a menu"},
        {A_SORT_NEXT, NULL},
        {A_SORT_PREV, NULL},
        {A_SORT_REVERSE, NULL},
        {A_SCROLL_LEFT, "Scroll the columns of a table left (Left too)"},
        {A_SCROLL_RIGHT, "Scroll the columns of a table right (Right too)"},
        {A_FILTER,
         "Filter the tables and the tree by name (substring; regex with regex characters)"},
        {A_FILTER_CLEAR, NULL},
        {A_TOGGLE, "Tree: open or close the node"},
        {A_MOVE_RIGHT, "Tree: open the node or go to its first child"},
        {A_MOVE_LEFT, "Tree: close the node or go to its parent"},
        {A_EXPAND_ALL, "Tree: open everything below the node"},
        {A_COLLAPSE_ALL, "Tree: close every node"},
        {A_MOVE_DOWN, NULL},
        {A_MOVE_UP, NULL},
        {A_PAGE_DOWN, NULL},
        {A_PAGE_UP, NULL},
        {A_MOVE_FIRST, NULL},
        {A_MOVE_LAST, NULL},
        {A_CANCEL, "Close the detail, else clear the filter"},
        {A_HELP, NULL},
        {A_QUIT, NULL},
    };
    help_text_items(out, "Trace diff keys (q, Esc or ? closes; j/k scroll)", KEYS_DIFF, items,
                    sizeof(items) / sizeof(items[0]));
}

/* ------------------------------------------------------------------------ */
/* The screen                                                               */
/* ------------------------------------------------------------------------ */

void diffview_screen(struct diffview *dv, int lines, int cols, struct strbuf *out, int *cursor_line)
{
    *cursor_line = -1;
    header(dv, cols, out);
    int line = HEAD_LINES;
    if (dv->help) {
        struct strbuf h = STRBUF_INIT;
        help_lines(&h);
        const char *p = h.s, *end = h.s + h.len;
        for (size_t k = 0; p < end && line < lines; k++) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
            if (k >= dv->help_top) {
                put_line(out, p, len, cols, dv->ascii);
                line++;
            }
            p = nl ? nl + 1 : end;
        }
        sb_free(&h);
        for (; line < lines; line++)
            sb_putc(out, '\n');
        return;
    }
    if (dv->menu.open) {
        int at;
        line += textview_menu_lines(&dv->menu, out, lines - line, cols, dv->ascii, &at);
        *cursor_line = at >= 0 ? HEAD_LINES + at : -1;
        for (; line < lines; line++)
            sb_putc(out, '\n');
        return;
    }
    int tab = dv->which;
    int rows = diffview_table_rows(dv, lines);
    size_t top = dv->top[tab], cur = dv->cur[tab];
    if (cur >= top + (size_t)rows)
        top = cur - (size_t)rows + 1;
    struct strbuf ln = STRBUF_INIT;
    const struct table *t = dv->tab[tab];
    size_t *w = NULL, namew = 0;
    struct flat_plan fp = {0};
    int shown = TREE_COLS;
    if (tab == DV_TREE) {
        /* The name keeps TREE_NAME_MIN columns; the numbers that do not
         * fit go, the kernel counts first, then CPU time (GPU time always
         * shows). */
        shown = (cols - TREE_NAME_MIN) / (TREE_W + 2);
        shown = shown > TREE_COLS ? TREE_COLS : shown < 3 ? 3 : shown;
        size_t rest = (size_t)shown * (TREE_W + 2);
        namew = (size_t)cols > rest + 20 ? (size_t)cols - rest : 20;
        tree_head(dv, namew, shown, &ln);
    } else {
        w = xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));
        flat_widths(dv, t, cols, w);
        flat_plan(dv, t, w, cols, &fp);
        flat_head(dv, t, w, &fp, cols, &ln);
    }
    put_line(out, ln.s ? ln.s : "", ln.len, cols, dv->ascii);
    line++;
    for (size_t i = top; i < dv->nrows[tab] && i < top + (size_t)rows; i++) {
        sb_clear(&ln);
        if (tab == DV_TREE)
            tree_row(dv, dv->rows[tab][i], namew, shown, &ln);
        else
            flat_row(dv, t, w, &fp, dv->rows[tab][i], &ln);
        if (i == cur)
            *cursor_line = line;
        put_line(out, ln.s, ln.len, cols, dv->ascii);
        line++;
    }
    if (!dv->nrows[tab] && line < lines) {
        put_str(out, pattern_active(&dv->filter) ? "(no row matches the filter)" : "(no rows)",
                cols, dv->ascii);
        line++;
    }
    /* Notes of a flat table (a side without shapes says so) on the
     * lines left above the detail. */
    int dl = detail_lines(dv, lines);
    for (size_t k = 0; t && k < t->notes.n && line < lines - dl; k++) {
        put_str(out, t->notes.v[k], cols, dv->ascii);
        line++;
    }
    for (; line < lines - dl; line++)
        sb_putc(out, '\n');
    sb_free(&ln);
    free(w);
    free(fp.col);
    if (!dl)
        return;
    struct strbuf d = STRBUF_INIT;
    diffdetail_text(dv, &d, cols);
    const char *rule = dv->ascii ? "-- detail (Enter or Esc closes) --"
                                 : "\xe2\x94\x80\xe2\x94\x80 detail (Enter or Esc closes) "
                                   "\xe2\x94\x80\xe2\x94\x80";
    put_str(out, rule, cols, dv->ascii);
    line++;
    const char *p = d.s ? d.s : "", *end = p + d.len;
    while (p < end && line < lines) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        put_line(out, p, len, cols, dv->ascii);
        line++;
        p = nl ? nl + 1 : end;
    }
    for (; line < lines; line++)
        sb_putc(out, '\n');
    sb_free(&d);
}
