/* The op table pane: the report tables (core/report/report.h), one view each,
 * sortable by any column, narrowed by the filter; Enter asks for the row's
 * instances in the call tree. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/report/tabfmt.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "core/analysis/analysis.h"
#include "tui/frame/pane.h"
#include "tui/frame/view.h"
#include "tui/frame/detail.h"
#include "tui/frame/draw.h"
#include "tui/frame/shapefit.h"
#include "tui/frame/table_pane.h"
#include "tui/frame/text.h"

/* COLF_SHAPES columns of a table whose item masks are kept. */
#define SHAPE_COLS 4

struct tview {
    struct table *tab; /* borrowed from app.views */
    int sort_col;      /* -1: the builder's order */
    bool desc;
    bool user_sort;     /* sort_col was chosen, not detected */
    VEC(uint32_t) rows; /* table rows shown (filter), in table order */
    struct listview lv;
    int *natural;              /* natural width per column */
    int hscroll;               /* first scrolled column after the name */
    uint8_t *same[SHAPE_COLS]; /* shapefit_spread of the COLF_SHAPES columns, lazily */
    int same_col[SHAPE_COLS];  /* their columns; -1: slot unused */
};

struct table_pane {
    int view;                            /* index into names */
    int nviews;                          /* views in v */
    const char *const *names;            /* view names (app_view_names for a trace) */
    char *const *errs;                   /* why a view has no table (borrowed) */
    int keytab;                          /* key table (enum pane_id or enum keytab) */
    enum request_kind enter;             /* Enter on a row without instances, REQ_NONE: REQ_SHOW */
    const enum request_kind *view_enter; /* per view, before the instances (NULL: none) */
    int view_enter_keytab;               /* key table while such a view shows (0: keytab) */
    table_pick_fn pick;                  /* the pick op's answer, NULL: none */
    table_text_fn text;                  /* text cells as shown, NULL: as they are */
    bool text_widths; /* columns as wide as text shows them, not as the table has them */
    void (*describe_event)(struct detail_out *d, struct view *a, uint32_t ev); /* NULL: none */
    void (*describe_row)(struct detail_out *d, struct view *a, const struct table *tab,
                         size_t row); /* NULL: none */
    int cols_mode;                    /* COLS_*: which COLF_DETAIL columns are shown */
    struct tview v[TABLE_PANE_MAX_VIEWS];
    struct strbuf cell;
    struct strbuf fit; /* a shape cell fitted to its column */
    int shown[64];     /* columns drawn last time, for clicks and digits */
    int shown_x[64];
    int shown_w[64];
    int nshown;
    bool more_left, more_right; /* columns continue past the pane's edges */
    struct view *ctx;           /* the view the pane was made with (outlives it) */
};

static bool current_row(struct pane *p, const struct table **tab, size_t *row);

static struct table_pane *tp_of(struct pane *p)
{
    return pane_priv(p, &table_pane_ops);
}

static struct tview *cur_view(struct pane *p)
{
    return &tp_of(p)->v[tp_of(p)->view];
}

/* `w` cycles through these; COLS_SHAPES only where a table has detail
 * shape columns (strides, concrete inputs). */
enum { COLS_BRIEF, COLS_SHAPES, COLS_ALL };

static bool col_visible(const struct table_pane *tp, const struct table *tab, size_t c)
{
    unsigned f = tab->cols[c].flags;
    return tp->cols_mode == COLS_ALL || !(f & COLF_DETAIL) ||
           (tp->cols_mode == COLS_SHAPES && (f & COLF_SHAPES));
}

static bool has_detail_shapes(const struct table *tab)
{
    for (size_t c = 0; tab && c < tab->ncols; c++)
        if ((tab->cols[c].flags & (COLF_SHAPES | COLF_DETAIL)) == (COLF_SHAPES | COLF_DETAIL))
            return true;
    return false;
}

static void drop_same(struct tview *v)
{
    for (int i = 0; i < SHAPE_COLS; i++) {
        free(v->same[i]);
        v->same[i] = NULL;
    }
}

/* Item spreads of shape column c for row r (computed on first use). */
static const uint8_t *same_mask(struct tview *v, int c, size_t r)
{
    int slot = -1;
    for (int i = 0; i < SHAPE_COLS && slot < 0; i++)
        if (v->same[i] && v->same_col[i] == c)
            slot = i;
    for (int i = 0; i < SHAPE_COLS && slot < 0; i++)
        if (!v->same[i]) {
            slot = i;
            v->same[i] = shapefit_spread(v->tab, (size_t)c);
            v->same_col[i] = c;
        }
    return slot < 0 ? NULL : v->same[slot] + r * SHAPEFIT_RANKED;
}

static const char *col_title(const struct table_col *c)
{
    return c->title ? c->title : c->name;
}

/* ------------------------------------------------------------------------ */
/* Rows, widths, sorting                                                    */
/* ------------------------------------------------------------------------ */

static bool row_matches(struct view *a, const struct table *tab, size_t r)
{
    if (!pattern_active(&a->filter))
        return true;
    for (size_t c = 0; c < tab->ncols; c++) {
        if (tab->cols[c].kind != COL_TEXT)
            continue;
        union cell v = table_cell(tab, r, c);
        if (v.s && pattern_match(&a->filter, v.s))
            return true;
    }
    return false;
}

static void view_rows(struct view *a, struct tview *v)
{
    v->rows.n = 0;
    if (!v->tab)
        return;
    for (size_t r = 0; r < v->tab->nrows; r++)
        if (row_matches(a, v->tab, r))
            VEC_PUSH(&v->rows, (uint32_t)r);
    v->lv.n = v->rows.n;
    listview_clamp(&v->lv);
}

/* A Python list of plain quoted words as TraceLens spells a category
 * ("['GEMM']", "['GEMM', 'other']") read as words ("GEMM", "GEMM, other");
 * false, writing nothing, when s is not such a list. */
static bool list_as_words(struct strbuf *out, const char *s)
{
    size_t n = strlen(s);
    if (n < 4 || s[0] != '[' || s[n - 1] != ']')
        return false;
    for (const char *p = s + 1; p < s + n - 1;) {
        if (*p != '\'')
            return false;
        const char *q = strchr(p + 1, '\'');
        if (!q || q >= s + n - 1 || memchr(p + 1, '\\', (size_t)(q - p - 1)))
            return false;
        p = q + 1;
        if (*p == ',' && p[1] == ' ')
            p += 2;
        else if (p != s + n - 1)
            return false;
    }
    for (const char *p = s + 1; p < s + n - 1;) {
        const char *q = strchr(p + 1, '\'');
        sb_putn(out, p + 1, (size_t)(q - p - 1));
        p = q + 1;
        if (*p == ',') {
            sb_puts(out, ", ");
            p += 2;
        }
    }
    return true;
}

/* A cell as the pane shows it: byte counts in kB/MB/GB (the detail pane
 * adds the exact number), categories as words (the CSV keeps TraceLens's
 * list spelling), everything else as text reports print it. */
static void pane_cell(struct strbuf *out, const struct table *tab, size_t r, size_t c)
{
    const struct table_col *col = &tab->cols[c];
    if (col->kind == COL_TEXT && strcasestr(col->name, "categor")) {
        const char *t = table_cell(tab, r, c).s;
        if (t && list_as_words(out, t))
            return;
    }
    if (col->kind == COL_INT && (col->flags & COLF_BYTES)) {
        int64_t v = table_cell(tab, r, c).i;
        if (v != TABLE_NO_INT && v >= 0) {
            char buf[32];
            text_bytes(buf, sizeof(buf), (uint64_t)v);
            sb_puts(out, buf);
            return;
        }
    }
    if (col->kind == COL_TEXT && (col->flags & COLF_KEY)) {
        /* The roofline's bound as a word (the reports keep TraceLens' values). */
        const char *t = table_cell(tab, r, c).s;
        if (t && strcmp(t, "COMPUTE_BOUND") == 0) {
            sb_puts(out, "compute");
            return;
        }
        if (t && strcmp(t, "MEMORY_BOUND") == 0) {
            sb_puts(out, "memory");
            return;
        }
    }
    const char *blank = col->kind == COL_TEXT ? table_cell(tab, r, c).s : "-";
    if ((!blank || !*blank) &&
        (strcmp(col->name, "Parent cpu_op") == 0 || strcmp(col->name, "Parent op category") == 0)) {
        /* A blank would read as "same as above". */
        sb_puts(out, "(unlinked)");
        return;
    }
    if (col->flags & COLF_SHAPES) {
        /* Dtype tuples read short ("bf16×bf16"); the detail pane has them whole. */
        struct strbuf raw = STRBUF_INIT;
        tabfmt_cell_text(&raw, tab, r, c);
        if (!shapefit_dtypes(out, sb_str(&raw), raw.len))
            sb_putn(out, sb_str(&raw), raw.len);
        sb_free(&raw);
        return;
    }
    tabfmt_cell_text(out, tab, r, c);
}

static void view_widths(struct view *a, struct table_pane *tp, struct tview *v)
{
    struct table *tab = v->tab;
    v->natural = xcalloc(tab->ncols, sizeof(int));
    for (size_t c = 0; c < tab->ncols; c++) {
        const char *title = col_title(&tab->cols[c]);
        /* Room for a one-column sort marker, in both glyph sets, so that
         * ASCII shows the same columns at the same widths as UTF-8 (the
         * sort column alone gets one more in ASCII: plan_columns). */
        int w = (int)text_width(title, strlen(title)) + 1;
        int cap = (tab->cols[c].flags & COLF_WIDE) ? 100 : 60;
        for (size_t r = 0; r < tab->nrows && w < cap; r++) {
            sb_clear(&tp->cell);
            pane_cell(&tp->cell, tab, r, c);
            const char *text = sb_str(&tp->cell);
            size_t n = tp->cell.len;
            /* As the rows show it: a job's paths are base names. */
            if (tab->cols[c].kind == COL_TEXT && tp->text && tp->text_widths)
                text = tp->text(a, tab, r, c, text, n, &n, false);
            int cw = (int)text_width(text, n);
            if (cw > w)
                w = cw;
        }
        v->natural[c] = w < cap ? w : cap;
    }
}

/* The builder's order is usually "by one numeric column, descending":
 * mark that column when the rows are in that order. */
static void detect_sort(struct tview *v)
{
    struct table *tab = v->tab;
    v->sort_col = -1;
    if (tab->sorted_col >= 0 && (size_t)tab->sorted_col < tab->ncols) {
        v->sort_col = tab->sorted_col;
        v->desc = tab->sorted_desc;
        return;
    }
    if (tab->nrows < 2)
        return;
    for (size_t c = 0; c < tab->ncols; c++) {
        if (tab->cols[c].kind == COL_TEXT || (tab->cols[c].flags & COLF_DETAIL))
            continue;
        bool sorted = true, any_diff = false;
        for (size_t r = 0; r + 1 < tab->nrows && sorted; r++) {
            int cmp = table_compare_rows(tab, c, r, r + 1);
            sorted = cmp >= 0;
            any_diff |= cmp != 0;
        }
        if (sorted && any_diff) {
            v->sort_col = (int)c;
            v->desc = true;
            return;
        }
    }
}

/* Sort by col and show the new top rows, cursor on the first (as htop
 * does: a cursor kept on its row would leave the answer off screen); `say`
 * puts it on the message line. */
static void sort_view(struct view *a, struct tview *v, int col, bool desc, bool say)
{
    struct table *tab = v->tab;
    if (!tab || col < 0 || (size_t)col >= tab->ncols)
        return;
    table_sort(tab, (size_t)col, desc);
    drop_same(v);
    v->sort_col = col;
    v->desc = desc;
    v->user_sort = true;
    if (say)
        view_message(a, "sorted by %s %s", col_title(&tab->cols[col]),
                     desc ? a->g->sort_desc : a->g->sort_asc);
    view_rows(a, v);
    v->lv.cur = 0;
    v->lv.top = 0;
    listview_clamp(&v->lv);
}

static bool natural_desc(const struct table *tab, int col)
{
    return !(tab->cols[col].flags & COLF_ASC) && tab->cols[col].kind != COL_TEXT;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */
/* ------------------------------------------------------------------------ */

/* Wide text columns (names, shapes) are narrowed to make room for the
 * other columns: to WIDE_GOOD for any of them (the column naming the row
 * keeps 40), to WIDE_MIN for the sort column and the
 * first other column (the count, in most views). */
#define WIDE_GOOD 16
#define WIDE_MIN 8
/* Shape columns (COLF_SHAPES) are what the unique-args view is for: they
 * aim higher, and the op name gives way first. */
#define SHAPE_GOOD 28

/* Choose the columns that fit in width w and their widths: the first
 * shown column, the wide text columns and the sort column always, and the
 * others from hscroll on, in order, as long as there is room. What is
 * left widens the first column, then the row's name, then the wide ones. */
static void plan_columns(struct table_pane *tp, struct tview *v, int w, bool ascii)
{
    struct table *tab = v->tab;
    tp->nshown = 0;
    int name = -1;
    for (size_t c = 0; c < tab->ncols; c++)
        if (col_visible(tp, tab, c)) {
            name = (int)c;
            break;
        }
    if (name < 0)
        return;
    int row_name = (int)table_name_col(tab);
    int cand[63], cw[63], nc = 0, skip = v->hscroll, nwide = 0, wide_goal = 0, nvis = 0;
    bool wide[63], keep[63], shapes = false;
    for (size_t c = (size_t)name + 1; c < tab->ncols && nc < 63; c++) {
        if (!col_visible(tp, tab, c))
            continue;
        nvis++;
        if (skip > 0 && (int)c != v->sort_col) {
            skip--;
            continue;
        }
        cand[nc] = (int)c;
        bool shape = tab->cols[c].flags & COLF_SHAPES;
        wide[nc] = (tab->cols[c].flags & COLF_WIDE) || shape;
        shapes |= shape;
        cw[nc] = v->natural[c];
        keep[nc] = wide[nc] || (int)c == v->sort_col || (tab->cols[c].flags & COLF_KEY);
        if (wide[nc]) {
            cw[nc] = MIN(cw[nc], (int)c == row_name ? 40 : shape ? SHAPE_GOOD : WIDE_GOOD);
            nwide++;
            wide_goal += cw[nc];
        }
        nc++;
    }
    /* The first other column is kept too; then the others in order while
     * the wide columns keep their goal. */
    int name_w = MIN(v->natural[name], MAX(16, shapes ? w / 6 : w * 2 / 5));
    int fixed = 0;
    bool first = true;
    for (int i = 0; i < nc; i++)
        if (!wide[i] && (keep[i] || first)) {
            keep[i] = true;
            fixed += 1 + cw[i];
            first = false;
        }
    for (int i = 0; i < nc; i++) {
        if (keep[i])
            continue;
        if (w - name_w - fixed - nwide - (1 + cw[i]) < wide_goal)
            break;
        keep[i] = true;
        fixed += 1 + cw[i];
    }
    if (nwide && w - name_w - fixed - nwide < wide_goal) {
        int each = MAX(WIDE_MIN, (w - name_w - fixed - nwide) / nwide);
        for (int i = 0; i < nc; i++)
            if (wide[i])
                cw[i] = MIN(cw[i], each);
    }
    /* Too narrow even so: columns go from the right, the sort column last;
     * then the first column gives way to it. */
    int used = name_w;
    for (int i = 0; i < nc; i++)
        used += keep[i] ? 1 + cw[i] : 0;
    for (int key = 0; key < 2; key++)
        for (int i = nc - 1; i >= 0 && used > w; i--)
            if (keep[i] && cand[i] != v->sort_col &&
                !(tab->cols[cand[i]].flags & COLF_KEY) == !key) {
                keep[i] = false;
                used -= 1 + cw[i];
            }
    if (used > w) {
        int less = MIN(used - w, name_w - 4);
        name_w -= less;
        used -= less;
    }
    tp->shown[0] = name;
    tp->shown_w[0] = name_w;
    tp->nshown = 1;
    for (int i = 0; i < nc; i++)
        if (keep[i]) {
            tp->shown[tp->nshown] = cand[i];
            tp->shown_w[tp->nshown] = cw[i];
            tp->nshown++;
        }
    int left = w - used;
    /* Columns scrolled off to the left, or not shown to the right; the
     * last screen column is left for the mark that says so. */
    tp->more_left = v->hscroll > 0;
    tp->more_right = 1 + nvis - v->hscroll > tp->nshown;
    /* ASCII's marker is a letter, set apart (" v") where a column is left
     * for the space. */
    for (int i = 1; ascii && left > 0 && i < tp->nshown; i++)
        if (tp->shown[i] == v->sort_col) {
            tp->shown_w[i]++;
            left--;
        }
    /* Shapes first, in turns, so that dims and dtypes widen together. */
    for (bool more = shapes; more && left > 0;) {
        more = false;
        for (int i = 1; i < tp->nshown && left > 0; i++)
            if ((tab->cols[tp->shown[i]].flags & COLF_SHAPES) &&
                tp->shown_w[i] < v->natural[tp->shown[i]]) {
                tp->shown_w[i]++;
                left--;
                more = true;
            }
    }
    for (int pass = 0; pass < 3 && left > 0; pass++)
        for (int i = 0; i < tp->nshown && left > 0; i++) {
            int c = tp->shown[i];
            bool take = pass == 0   ? i == 0
                        : pass == 1 ? i > 0 && c == row_name
                                    : i > 0 && c != row_name && (tab->cols[c].flags & COLF_WIDE);
            int g = take ? MIN(left, v->natural[c] - tp->shown_w[i]) : 0;
            if (g > 0) {
                tp->shown_w[i] += g;
                left -= g;
            }
        }
    if (tp->more_right && left <= 0) {
        /* An exact fit: a column wider than its title and cells need
         * gives the mark its room, else the widest (already cut) one; the
         * name, which the row is read by, only when alone. */
        int give = 0, most = 0;
        for (int i = 1; i < tp->nshown; i++) {
            int c = tp->shown[i];
            const char *title = col_title(&tab->cols[c]);
            int tw = (int)text_width(title, strlen(title)) + (c == v->sort_col);
            int need = v->natural[c] > tw + 1 ? v->natural[c] : tw;
            int spare = tp->shown_w[i] - need;
            if (spare > most || (most <= 0 && (give == 0 || tp->shown_w[i] > tp->shown_w[give]))) {
                give = i;
                most = MAX(most, spare);
            }
        }
        if (tp->shown_w[give] > 4)
            tp->shown_w[give]--;
    }
    int x = 0;
    for (int i = 0; i < tp->nshown; i++) {
        tp->shown_x[i] = x;
        x += tp->shown_w[i] + 1;
    }
}

static void draw_title(struct pane *p, struct view *a, struct tview *v)
{
    struct table_pane *tp = tp_of(p);
    attr_t attr = color_attr(a->focus == p->id ? C_TITLE_FOCUS : C_TITLE);
    struct strbuf sb = STRBUF_INIT;
    sb_printf(&sb, " %s", tp->names[tp->view]);
    if (v->tab) {
        sb_printf(&sb, ": %s  %zu", v->tab->title, v->rows.n);
        if (v->rows.n != v->tab->nrows)
            sb_printf(&sb, " of %zu", v->tab->nrows);
        sb_puts(&sb, v->tab->nrows == 1 ? " row" : " rows");
        if (v->sort_col >= 0)
            sb_printf(&sb, "  sort %s %s", col_title(&v->tab->cols[v->sort_col]),
                      v->desc ? a->g->sort_desc : a->g->sort_asc);
        if (pattern_active(&a->filter))
            sb_printf(&sb, "  filter \"%s\"", a->filter.text);
    }
    draw_fit(p->win, 0, 0, p->r.w, sb_str(&sb), sb.len, false, false, attr, a->ascii);
    sb_free(&sb);
}

static void draw_header(struct pane *p, struct view *a, struct tview *v)
{
    struct table_pane *tp = tp_of(p);
    draw_blank(p->win, 1, 0, p->r.w, color_attr(C_COLHEAD));
    for (int i = 0; i < tp->nshown; i++) {
        int c = tp->shown[i];
        const struct table_col *col = &v->tab->cols[c];
        bool sorted = c == v->sort_col;
        struct strbuf sb = STRBUF_INIT;
        sb_puts(&sb, col_title(col));
        /* An ASCII marker is a letter: apart, so that it is not read as
         * part of the title ("direct msv"). */
        if (sorted) {
            int tw = (int)text_width(sb_str(&sb), sb.len);
            bool apart = a->ascii && tw + 2 <= tp->shown_w[i];
            sb_printf(&sb, "%s%s", apart ? " " : "", v->desc ? a->g->sort_desc : a->g->sort_asc);
        }
        bool right = col->kind != COL_TEXT;
        draw_fit(p->win, 1, tp->shown_x[i], tp->shown_w[i], sb_str(&sb), sb.len, false, right,
                 color_attr(sorted ? C_COLHEAD_SORT : C_COLHEAD), a->ascii);
        sb_free(&sb);
    }
    /* More columns than fit: a mark at each edge they continue past
     * (] and [ scroll, w shows the detail columns). */
    attr_t mark = color_attr(C_COLHEAD_SORT) | A_BOLD;
    if (tp->more_right && p->r.w > 1)
        draw_str(p->win, 1, p->r.w - 1, 1, a->g->more_right, mark, a->ascii);
    if (tp->more_left && p->r.w > 1)
        draw_str(p->win, 1, tp->shown_w[0], 1, a->g->more_left, mark, a->ascii);
}

static void table_draw(struct pane *p, struct view *a)
{
    struct table_pane *tp = tp_of(p);
    struct tview *v = cur_view(p);
    werase(p->win);
    draw_title(p, a, v);
    if (!v->tab) {
        const char *why = tp->errs[tp->view] ? tp->errs[tp->view] : "not available";
        draw_str(p->win, 2, 1, p->r.w - 2, why, color_attr(C_DIM), a->ascii);
        return;
    }
    plan_columns(tp, v, p->r.w, a->ascii);
    draw_header(p, a, v);
    v->lv.height = p->r.h - 2;
    listview_clamp(&v->lv);
    if (!v->rows.n) {
        draw_str(p->win, 2, 1, p->r.w - 2,
                 pattern_active(&a->filter) ? "(no rows match)" : "(no rows)", color_attr(C_DIM),
                 a->ascii);
        return;
    }
    for (int y = 0; y < v->lv.height; y++) {
        size_t i = v->lv.top + (size_t)y;
        if (i >= v->rows.n)
            break;
        uint32_t r = v->rows.v[i];
        bool cur = i == v->lv.cur;
        attr_t base = cur ? color_attr(a->focus == p->id ? C_SELECT_FOCUS : C_SELECT) : 0;
        if (cur)
            draw_blank(p->win, 2 + y, 0, p->r.w, base);
        for (int k = 0; k < tp->nshown; k++) {
            int c = tp->shown[k];
            const struct table_col *col = &v->tab->cols[c];
            sb_clear(&tp->cell);
            pane_cell(&tp->cell, v->tab, r, (size_t)c);
            const char *text = sb_str(&tp->cell);
            size_t tlen = tp->cell.len;
            if (col->kind == COL_TEXT && tp->text)
                text = tp->text(a, v->tab, r, (size_t)c, text, tlen, &tlen, false);
            if ((col->flags & COLF_SHAPES) &&
                text_width(text, tlen) > (size_t)MAX(tp->shown_w[k], 0)) {
                /* Too wide even short: the tuple cut between its items. */
                sb_clear(&tp->cell);
                tabfmt_cell_text(&tp->cell, v->tab, r, (size_t)c);
                sb_clear(&tp->fit);
                shapefit_fit(&tp->fit, sb_str(&tp->cell), tp->cell.len,
                             (size_t)MAX(tp->shown_w[k], 0), same_mask(v, c, r), a->ascii);
                text = sb_str(&tp->fit);
                tlen = tp->fit.len;
            }
            attr_t at = base ? base : color_attr(col->kind == COL_TEXT ? C_DEFAULT : C_NUMBER);
            if (!base && k == 0 && pattern_active(&a->search) && pattern_match(&a->search, text))
                at = color_attr(C_MATCH);
            draw_fit(p->win, 2 + y, tp->shown_x[k], tp->shown_w[k], text, tlen, true,
                     col->kind != COL_TEXT, at, a->ascii);
        }
    }
    /* The table's notes (what the report prints below it) where the rows
     * leave room, after a blank line. */
    int y = 2 + (int)MIN(v->rows.n - v->lv.top, (size_t)v->lv.height) + 1;
    for (size_t i = 0; i < v->tab->notes.n && y < p->r.h; i++, y++) {
        const char *note = v->tab->notes.v[i];
        draw_fit(p->win, y, 1, p->r.w - 1, note, strlen(note), false, false, color_attr(C_DIM),
                 a->ascii);
    }
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */
/* ------------------------------------------------------------------------ */

/* Visible columns in display order (name first, then all others, not just
 * those that fit), for sort-next/prev, the digit keys
 * and the sort menu, which number them alike. */
static int visible_cols(struct table_pane *tp, const struct table *tab, int *out)
{
    int n = 0;
    for (size_t c = 0; c < tab->ncols && n < 64; c++)
        if (col_visible(tp, tab, c))
            out[n++] = (int)c;
    return n;
}

/* Sort by column `item` (again: the other way round). Reactions. */
static unsigned sort_pick(struct pane *p, struct view *a, int item)
{
    struct tview *v = cur_view(p);
    if (!v->tab || item < 0 || (size_t)item >= v->tab->ncols)
        return R_NONE;
    bool desc = natural_desc(v->tab, item);
    if (item == v->sort_col)
        desc = !v->desc;
    sort_view(a, v, item, desc, true);
    p->dirty = true;
    return R_SYNC;
}

/* Item k of the sort menu (opened with the pane as ctx): the k-th visible
 * column. The app that calls it is opaque here: the pane acts on the view
 * it was made with. */
static unsigned sort_menu_item(struct app *app, void *ctx, int item)
{
    struct pane *p = ctx;
    struct view *a = tp_of(p)->ctx;
    struct tview *v = cur_view(p);
    int cols[64];
    if (v->tab && item >= 0 && item < visible_cols(tp_of(p), v->tab, cols))
        return sort_pick(p, a, cols[item]);
    return R_NONE;
}

static void open_sort_menu(struct pane *p, struct view *a, struct pane_request *req)
{
    struct tview *v = cur_view(p);
    if (!v->tab)
        return;
    int cols[64], n = visible_cols(tp_of(p), v->tab, cols), cur = 0;
    char **items = xcalloc((size_t)n, sizeof(char *));
    for (int i = 0; i < n; i++) {
        const struct table_col *col = &v->tab->cols[cols[i]];
        bool sorted = cols[i] == v->sort_col;
        items[i] = xasprintf("%s%s", col_title(col),
                             sorted ? (v->desc ? " (descending)" : " (ascending)") : "");
        if (sorted)
            cur = i;
    }
    req->kind = REQ_MENU;
    req->menu.title = "Sort by";
    req->menu.items = items;
    req->menu.n = n;
    req->menu.cur = cur;
    req->menu.pick = sort_menu_item;
    req->menu.ctx = p;
}

/* Enter on a row: its instances in the call tree, else what the pane was
 * made to ask for. */
static unsigned drill(struct pane *p, struct view *a, struct pane_request *req)
{
    struct tview *v = cur_view(p);
    if (!v->tab || v->lv.cur >= v->rows.n)
        return R_HANDLED;
    uint32_t r = v->rows.v[v->lv.cur];
    if (tp_of(p)->view_enter && tp_of(p)->view_enter[tp_of(p)->view] != REQ_NONE) {
        req->kind = tp_of(p)->view_enter[tp_of(p)->view];
        req->ev = r;
        return R_HANDLED;
    }
    if (v->tab->inst_first) {
        uint32_t lo = v->tab->inst_first[r], hi = v->tab->inst_first[r + 1];
        if (hi > lo) {
            /* The tree is labelled with the row's name as the row shows it. */
            struct strbuf cell = STRBUF_INIT;
            tabfmt_cell_text(&cell, v->tab, r, table_name_col(v->tab));
            size_t n = cell.len;
            const char *text = sb_str(&cell);
            if (tp_of(p)->text)
                text = tp_of(p)->text(a, v->tab, r, table_name_col(v->tab), text, n, &n, false);
            req->kind = REQ_INSTANCES;
            req->evs = v->tab->inst + lo;
            req->n = hi - lo;
            req->label = xstrndup(text, n);
            sb_free(&cell);
            return R_HANDLED | R_DIRTY_ALL;
        }
    }
    if (tp_of(p)->enter != REQ_NONE) {
        req->kind = tp_of(p)->enter;
        req->ev = r;
        return R_HANDLED;
    }
    uint32_t ev = pane_current_event(p, a);
    if (ev == IDX_NONE) {
        view_error(a, "this row has no events to show");
        return R_HANDLED;
    }
    /* No instance list: the first one. */
    req->kind = REQ_SHOW;
    req->ev = ev;
    return R_HANDLED | R_DIRTY_ALL | R_SYNC;
}

static unsigned table_action(struct pane *p, struct view *a, enum action act,
                             struct pane_request *req)
{
    struct table_pane *tp = tp_of(p);
    struct tview *v = cur_view(p);
    if (listview_action(&v->lv, act))
        return R_HANDLED | R_DIRTY | R_SYNC;
    int cols[64];
    switch (act) {
    case A_VIEW_NEXT:
    case A_VIEW_PREV:
        tp->view = (tp->view + (act == A_VIEW_NEXT ? 1 : tp->nviews - 1)) % tp->nviews;
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_SORT_MENU:
        open_sort_menu(p, a, req);
        return R_HANDLED;
    case A_SORT_REVERSE:
        if (v->tab && v->sort_col >= 0)
            sort_view(a, v, v->sort_col, !v->desc, true);
        else if (v->tab)
            view_message(a, "pick a sort column first (s)");
        return R_HANDLED | R_DIRTY | R_SYNC;
    case A_SORT_NEXT:
    case A_SORT_PREV: {
        if (!v->tab)
            return R_HANDLED;
        int n = visible_cols(tp, v->tab, cols), at = 0;
        for (int i = 0; i < n; i++)
            if (cols[i] == v->sort_col)
                at = i;
        at = (at + (act == A_SORT_NEXT ? 1 : n - 1)) % n;
        sort_view(a, v, cols[at], natural_desc(v->tab, cols[at]), true);
        return R_HANDLED | R_DIRTY | R_SYNC;
    }
    case A_SORT_1:
    case A_SORT_2:
    case A_SORT_3:
    case A_SORT_4:
    case A_SORT_5:
    case A_SORT_6:
    case A_SORT_7:
    case A_SORT_8:
    case A_SORT_9: {
        if (!v->tab)
            return R_HANDLED;
        int n = visible_cols(tp, v->tab, cols), k = (int)(act - A_SORT_1);
        if (k >= n) {
            view_error(a, "no column %d", k + 1);
            return R_HANDLED;
        }
        return sort_pick(p, a, cols[k]) | R_HANDLED | R_DIRTY;
    }
    case A_ALL_COLUMNS:
        tp->cols_mode = tp->cols_mode == COLS_ALL                                  ? COLS_BRIEF
                        : tp->cols_mode == COLS_BRIEF && has_detail_shapes(v->tab) ? COLS_SHAPES
                                                                                   : COLS_ALL;
        v->hscroll = 0;
        view_message(a, tp->cols_mode == COLS_ALL      ? "showing all columns"
                        : tp->cols_mode == COLS_SHAPES ? "showing strides and concrete inputs"
                                                       : "hiding detail columns");
        return R_HANDLED | R_DIRTY;
    case A_SCROLL_LEFT:
        if (v->hscroll > 0)
            v->hscroll--;
        return R_HANDLED | R_DIRTY;
    case A_SCROLL_RIGHT:
        /* Until the last column shows at this width. */
        if (v->tab)
            plan_columns(tp, v, p->r.w, a->ascii);
        if (v->tab && tp->more_right && v->hscroll + 2 < visible_cols(tp, v->tab, cols))
            v->hscroll++;
        return R_HANDLED | R_DIRTY;
    case A_ACTIVATE:
        return drill(p, a, req);
    case A_MOVE_LEFT:
        req->kind = REQ_BACK;
        return R_HANDLED;
    default:
        return R_NONE;
    }
}

static unsigned table_click(struct pane *p, struct view *a, int y, int x, bool dbl,
                            struct pane_request *req)
{
    struct table_pane *tp = tp_of(p);
    struct tview *v = cur_view(p);
    if (y == 1 && v->tab) {
        for (int i = 0; i < tp->nshown; i++)
            if (x >= tp->shown_x[i] && x < tp->shown_x[i] + tp->shown_w[i])
                return sort_pick(p, a, tp->shown[i]) | R_HANDLED | R_DIRTY;
        return R_HANDLED;
    }
    if (y < 2)
        return R_HANDLED;
    size_t row = v->lv.top + (size_t)(y - 2);
    if (row >= v->rows.n)
        return R_HANDLED;
    listview_set(&v->lv, row);
    if (dbl)
        return drill(p, a, req) | R_DIRTY | R_SYNC;
    return R_HANDLED | R_DIRTY | R_SYNC;
}

static uint32_t table_current(struct pane *p, struct view *a)
{
    struct tview *v = cur_view(p);
    if (!v->tab || v->lv.cur >= v->rows.n)
        return IDX_NONE;
    uint32_t r = v->rows.v[v->lv.cur];
    if (v->tab->inst_first && v->tab->inst_first[r + 1] > v->tab->inst_first[r])
        return v->tab->inst[v->tab->inst_first[r]];
    /* Tables without instances reference an example event. */
    if (strcmp(v->tab->name, "ops_unique_args") == 0 && a->t && v->tab->refs[r] < a->t->ev.n)
        return v->tab->refs[r];
    return IDX_NONE;
}

static void table_describe(struct pane *p, struct view *a, struct detail_out *d)
{
    struct tview *v = cur_view(p);
    if (!v->tab || v->lv.cur >= v->rows.n)
        return;
    uint32_t r = v->rows.v[v->lv.cur];
    detail_heading(d, v->tab->title);
    struct strbuf sb = STRBUF_INIT;
    for (size_t c = 0; c < v->tab->ncols; c++) {
        sb_clear(&sb);
        tabfmt_cell_text(&sb, v->tab, r, c);
        if (!sb.len)
            continue;
        if (v->tab->cols[c].kind == COL_TEXT) {
            size_t n = sb.len;
            const char *text = sb_str(&sb);
            if (tp_of(p)->text)
                text = tp_of(p)->text(a, v->tab, r, c, text, n, &n, true);
            detail_wrap(d, col_title(&v->tab->cols[c]), text, n, C_DEFAULT);
        } else if (v->tab->cols[c].flags & COLF_BYTES) {
            struct strbuf both = STRBUF_INIT;
            pane_cell(&both, v->tab, r, c);
            sb_printf(&both, " (%s bytes)", sb_str(&sb));
            detail_kv(d, col_title(&v->tab->cols[c]), sb_str(&both), both.len);
            sb_free(&both);
        } else
            detail_kv(d, col_title(&v->tab->cols[c]), sb_str(&sb), sb.len);
    }
    sb_free(&sb);
    if (v->tab->inst_first) {
        uint32_t n = v->tab->inst_first[r + 1] - v->tab->inst_first[r];
        detail_textf(d, C_DIM, "%u instance%s; Enter shows %s in the call tree", n,
                     n == 1 ? "" : "s", n == 1 ? "it" : "them");
    }
    uint32_t ev = table_current(p, a);
    if (ev != IDX_NONE && tp_of(p)->describe_event) {
        detail_heading(d, "First instance");
        tp_of(p)->describe_event(d, a, ev);
    }
    if (tp_of(p)->describe_row)
        tp_of(p)->describe_row(d, a, v->tab, r);
}

static bool row_has_match(struct view *a, const struct table *tab, uint32_t r)
{
    for (size_t c = 0; c < tab->ncols; c++) {
        if (tab->cols[c].kind != COL_TEXT)
            continue;
        union cell cv = table_cell(tab, r, c);
        if (cv.s && pattern_match(&a->search, cv.s))
            return true;
    }
    return false;
}

/* The rank of shown row i among the rows the search matches (from 1), and
 * their number. */
static void count_matches(struct view *a, struct tview *v, size_t i, size_t *k, size_t *total)
{
    *k = *total = 0;
    for (size_t j = 0; j < v->rows.n; j++)
        if (row_has_match(a, v->tab, v->rows.v[j])) {
            ++*total;
            if (j <= i)
                ++*k;
        }
}

static unsigned table_search(struct pane *p, struct view *a, int dir, struct pane_request *req)
{
    struct tview *v = cur_view(p);
    if (!v->tab || !v->rows.n)
        return R_HANDLED;
    size_t n = v->rows.n;
    for (size_t k = 1; k <= n; k++) {
        size_t i = dir >= 0 ? (v->lv.cur + k) % n : (v->lv.cur + n - k % n) % n;
        uint32_t r = v->rows.v[i];
        for (size_t c = 0; c < v->tab->ncols; c++) {
            if (v->tab->cols[c].kind != COL_TEXT)
                continue;
            union cell cv = table_cell(v->tab, r, c);
            if (cv.s && pattern_match(&a->search, cv.s)) {
                bool wrapped = dir >= 0 ? i <= v->lv.cur : i >= v->lv.cur;
                listview_jump(&v->lv, i);
                size_t rank, total;
                count_matches(a, v, i, &rank, &total);
                view_message(a, "/%s: match %zu of %zu (row %zu of %zu)%s", a->search.text, rank,
                             total, i + 1, n, wrapped ? " (wrapped)" : "");
                return R_HANDLED | R_DIRTY | R_SYNC;
            }
        }
    }
    view_error(a, "/%s: no match in this table", a->search.text);
    return R_HANDLED;
}

static void table_rebuild(struct pane *p, struct view *a)
{
    struct table_pane *tp = tp_of(p);
    for (int i = 0; i < tp->nviews; i++)
        view_rows(a, &tp->v[i]);
}

static void table_position(struct pane *p, struct view *a, char *buf, size_t n)
{
    struct tview *v = cur_view(p);
    snprintf(buf, n, "%zu/%zu", v->rows.n ? v->lv.cur + 1 : 0, v->rows.n);
}

static int table_keytab(struct pane *p, struct view *a)
{
    struct table_pane *tp = tp_of(p);
    if (tp->view_enter_keytab && tp->view_enter && tp->view_enter[tp->view] != REQ_NONE)
        return tp->view_enter_keytab;
    return tp->keytab;
}

bool table_pane_current_row(struct pane *p, const struct table **tab, size_t *row)
{
    return pane_is(p, &table_pane_ops) && current_row(p, tab, row);
}

/* The table and row under the cursor; false when none. */
static bool current_row(struct pane *p, const struct table **tab, size_t *row)
{
    struct tview *v = cur_view(p);
    if (!v->tab || v->lv.cur >= v->rows.n)
        return false;
    *tab = v->tab;
    *row = v->rows.v[v->lv.cur];
    return true;
}

static bool table_pick(struct pane *p, struct view *a, struct snap_pick *out)
{
    const struct table *tab;
    size_t row;
    return tp_of(p)->pick && current_row(p, &tab, &row) && tp_of(p)->pick(a, tab, row, out);
}

static void table_free_priv(struct pane *p)
{
    struct table_pane *tp = tp_of(p);
    for (int i = 0; i < TABLE_PANE_MAX_VIEWS; i++) {
        VEC_FREE(&tp->v[i].rows);
        free(tp->v[i].natural);
        drop_same(&tp->v[i]);
    }
    sb_free(&tp->cell);
    sb_free(&tp->fit);
    free(tp);
}

const struct pane_ops table_pane_ops = {
    .name = "table",
    .draw = table_draw,
    .on_action = table_action,
    .on_click = table_click,
    .current_event = table_current,
    .describe = table_describe,
    .search = table_search,
    .rebuild = table_rebuild,
    .position = table_position,
    .free = table_free_priv,
    .keytab = table_keytab,
    .pick = table_pick,
};

static void view_set(struct view *a, struct table_pane *tp, struct tview *v, struct table *tab)
{
    free(v->natural);
    v->natural = NULL;
    drop_same(v);
    v->tab = tab;
    v->sort_col = -1;
    v->user_sort = false;
    v->hscroll = 0;
    v->lv.cur = v->lv.top = 0;
    v->rows.n = 0;
    if (!v->tab)
        return;
    view_widths(a, tp, v);
    detect_sort(v);
    view_rows(a, v);
}

struct pane *table_pane_new(struct view *a, const struct table_pane_views *v)
{
    struct table_pane *tp = xcalloc(1, sizeof(*tp));
    tp->nviews = CLAMP(v->n, 1, TABLE_PANE_MAX_VIEWS);
    tp->names = v->names;
    tp->errs = v->errs;
    tp->keytab = v->keytab;
    tp->enter = v->enter;
    tp->view_enter = v->view_enter;
    tp->view_enter_keytab = v->view_enter_keytab;
    tp->pick = v->pick;
    tp->text = v->text;
    tp->ctx = a;
    tp->text_widths = v->text_widths;
    tp->describe_event = v->describe_event;
    tp->describe_row = v->describe_row;
    for (int i = 0; i < tp->nviews; i++)
        view_set(a, tp, &tp->v[i], v->tabs[i]);
    return pane_new(&table_pane_ops, PANE_TABLE, tp);
}

void table_pane_set_table(struct pane *p, struct view *a, int view, struct table *tab)
{
    if (!pane_is(p, &table_pane_ops))
        return;
    struct table_pane *tp = tp_of(p);
    if (view < 0 || view >= tp->nviews)
        return;
    struct tview *v = &tp->v[view];
    /* The same table rebuilt (grouped otherwise, another device) keeps the
     * order the user chose; the caller's message stays. */
    int col = v->user_sort ? v->sort_col : -1;
    bool desc = v->desc;
    if (col >= 0 && !(tab && strcmp(v->tab->name, tab->name) == 0 && (size_t)col < tab->ncols &&
                      strcmp(v->tab->cols[col].name, tab->cols[col].name) == 0))
        col = -1;
    view_set(a, tp, v, tab);
    if (col >= 0) {
        sort_view(a, v, col, desc, false);
        v->lv.cur = v->lv.top = 0;
    }
    p->dirty = true;
}

void table_pane_swap_table(struct pane *p, struct view *a, int view, struct table *tab)
{
    if (!pane_is(p, &table_pane_ops))
        return;
    struct table_pane *tp = tp_of(p);
    if (view < 0 || view >= tp->nviews)
        return;
    struct tview *v = &tp->v[view];
    const struct table *old = v->tab;
    if (!old || !tab || old->nrows != tab->nrows) {
        table_pane_set_table(p, a, view, tab);
        return;
    }
    int col = v->sort_col >= 0 ? table_col_index(tab, old->cols[v->sort_col].name) : -1;
    bool desc = v->desc, user = v->user_sort;
    size_t cur = v->lv.cur, top = v->lv.top;
    int hscroll = v->hscroll;
    view_set(a, tp, v, tab);
    if (col >= 0) {
        v->sort_col = col;
        v->desc = desc;
        v->user_sort = user;
    }
    v->lv.cur = cur;
    v->lv.top = top;
    v->hscroll = hscroll;
    listview_clamp(&v->lv);
    p->dirty = true;
}

const char *table_pane_view(struct pane *p)
{
    if (!pane_is(p, &table_pane_ops))
        return NULL;
    struct table_pane *tp = tp_of(p);
    return tp->names[tp->view];
}

bool table_pane_set_view(struct pane *p, struct view *a, const char *name)
{
    if (!pane_is(p, &table_pane_ops))
        return false;
    struct table_pane *tp = tp_of(p);
    for (int i = 0; i < tp->nviews; i++)
        if (strcmp(tp->names[i], name) == 0) {
            tp_of(p)->view = i;
            p->dirty = true;
            return true;
        }
    return false;
}

bool table_pane_select_row(struct pane *p, size_t row)
{
    if (!pane_is(p, &table_pane_ops))
        return false;
    struct tview *v = cur_view(p);
    for (size_t i = 0; i < v->rows.n; i++)
        if (v->rows.v[i] == row) {
            listview_jump(&v->lv, i);
            p->dirty = true;
            return true;
        }
    return false;
}

bool table_pane_sort_by(struct pane *p, struct view *a, const char *col)
{
    if (!pane_is(p, &table_pane_ops))
        return false;
    struct tview *v = cur_view(p);
    if (!v->tab)
        return false;
    for (size_t c = 0; c < v->tab->ncols; c++) {
        const struct table_col *tc = &v->tab->cols[c];
        if (strcasecmp(tc->name, col) == 0 || (tc->title && strcasecmp(tc->title, col) == 0)) {
            sort_view(a, v, (int)c, natural_desc(v->tab, (int)c), true);
            p->dirty = true;
            return true;
        }
    }
    return false;
}
