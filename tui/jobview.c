/* The job view: ranks and collectives of a multi-rank job, and the way
 * into one rank's explorer. */
#include "config.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/base/xalloc.h"
#include "core/report/report.h"
#include "core/report/tabfmt.h"
#include "tui/colors.h"
#include "tui/help.h"
#include "tui/joblanes.h"
#include "tui/jobview.h"
#include "tui/keymap.h"
#include "tui/listview.h"
#include "tui/term.h"
#include "tui/text.h"
#include "tui/tui.h"

/* Lines above a table's first row: the view's header and message line,
 * then the table's title, column header and rule. */
#define HEAD_LINES 2
#define TABLE_HEAD 3
#define COL_GAP 2
/* Widest cell measured: names (COLF_WIDE) and the others. */
#define WIDE_CAP 60
#define CELL_CAP 200
/* What a wide column keeps when the table is wider than the screen. */
#define WIDE_FLOOR 24

static const char *const table_names[JOBVIEW__COUNT] = {"ranks", "collectives"};

static const char *col_title(const struct table_col *c)
{
    return c->title ? c->title : c->name;
}

/* A text column of paths: shown by their base name. */
static bool path_col(const struct table *t, size_t c)
{
    return t->cols[c].kind == COL_TEXT && strcmp(t->cols[c].name, "trace") == 0;
}

static bool natural_desc(const struct table *t, size_t c)
{
    return !(t->cols[c].flags & COLF_ASC) && t->cols[c].kind != COL_TEXT;
}

struct jobview *jobview_new(struct job *j, bool ascii)
{
    struct jobview *jv = xcalloc(1, sizeof(*jv));
    jv->job = j;
    jv->ascii = ascii;
    job_view_init(&jv->v, j);
    jv->tabs[JOBVIEW_RANKS] = job_tables_ranks(&jv->v);
    jv->tabs[JOBVIEW_COLLECTIVES] = job_tables_collectives(&jv->v);
    for (int i = 0; i < JOBVIEW__COUNT; i++) {
        const struct table *t = jv->tabs[i];
        jv->width[i] = xcalloc(t->ncols ? t->ncols : 1, sizeof(size_t));
        jv->sort_col[i] = t->sorted_col;
        jv->sort_desc[i] = t->sorted_desc;
    }
    /* Collectives open sorted by the wait they cost, the largest first. */
    struct table *c = jv->tabs[JOBVIEW_COLLECTIVES];
    int wait = table_col_index(c, "avg_wait_time");
    if (wait >= 0) {
        table_sort(c, (size_t)wait, true);
        jv->sort_col[JOBVIEW_COLLECTIVES] = wait;
        jv->sort_desc[JOBVIEW_COLLECTIVES] = true;
    }
    snprintf(jv->msg, sizeof(jv->msg), "%zu ranks (numbered by %s), %zu collectives matched",
             j->ranks.n, job_rank_source_name(j->rank_source), jv->v.colls.insts.n);
    return jv;
}

void jobview_free(struct jobview *jv)
{
    if (!jv)
        return;
    for (int i = 0; i < JOBVIEW__COUNT; i++) {
        table_free(jv->tabs[i]);
        free(jv->width[i]);
    }
    textview_menu_close(&jv->menu);
    job_view_done(&jv->v);
    job_free(jv->job);
    free(jv);
}

/* ------------------------------------------------------------------------ */
/* Columns                                                                  */
/* ------------------------------------------------------------------------ */

static bool col_shown(const struct jobview *jv, const struct table *t, size_t c)
{
    return jv->all_columns || !(t->cols[c].flags & COLF_DETAIL);
}

/* The columns shown, in table order, into out (t->ncols entries). */
static size_t shown_cols(const struct jobview *jv, const struct table *t, size_t *out)
{
    size_t n = 0;
    for (size_t c = 0; c < t->ncols; c++)
        if (col_shown(jv, t, c))
            out[n++] = c;
    return n;
}

/* Cell (r, c) as the view shows it: paths by their base name. */
static void cell_text(struct strbuf *out, const struct table *t, size_t r, size_t c)
{
    if (path_col(t, c)) {
        const char *s = table_cell(t, r, c).s;
        if (s)
            sb_puts(out, textview_base_name(s));
        return;
    }
    tabfmt_cell_text(out, t, r, c);
}

/* Column c's width: its title's and its widest cell's (capped), measured
 * on first use over every row, so that it does not change while the rows
 * scroll or the sort changes. */
static size_t col_width(struct jobview *jv, int tab, size_t c)
{
    size_t *w = &jv->width[tab][c];
    if (*w)
        return *w;
    const struct table *t = jv->tabs[tab];
    const char *title = col_title(&t->cols[c]);
    size_t cap = (t->cols[c].flags & COLF_WIDE) ? WIDE_CAP : CELL_CAP;
    size_t m = display_width(title, strlen(title));
    struct strbuf sb = STRBUF_INIT;
    for (size_t r = 0; r < t->nrows && m < cap; r++) {
        sb_clear(&sb);
        cell_text(&sb, t, r, c);
        size_t cw = display_width(sb_str(&sb), sb.len);
        if (cw > m)
            m = cw;
    }
    sb_free(&sb);
    *w = MAX(MIN(m, cap), 1);
    return *w;
}

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */
/* ------------------------------------------------------------------------ */

static void clamp(struct jobview *jv, int rows)
{
    int tab = jv->which;
    struct listview lv = {jv->tabs[tab]->nrows, jv->cur[tab], jv->top[tab], rows};
    listview_clamp(&lv);
    jv->cur[tab] = lv.cur;
    jv->top[tab] = lv.top;
}

const char *jobview_open_path(const struct jobview *jv)
{
    const struct table *t = jv->tabs[JOBVIEW_RANKS];
    if (jv->which != JOBVIEW_RANKS || !t->nrows)
        return NULL;
    uint32_t ix = table_ref(t, jv->cur[JOBVIEW_RANKS]);
    return ix < jv->job->ranks.n ? jv->job->ranks.v[ix]->source : NULL;
}

/* Sort the shown table by column c, the answer's top row selected. */
static void sort_by(struct jobview *jv, size_t c, bool desc)
{
    int tab = jv->which;
    struct table *t = jv->tabs[tab];
    table_sort(t, c, desc);
    jv->sort_col[tab] = (int)c;
    jv->sort_desc[tab] = desc;
    jv->cur[tab] = jv->top[tab] = 0;
    const struct glyphs *g = jv->ascii ? &glyphs_ascii : &glyphs_utf8;
    struct strbuf lab = STRBUF_INIT;
    const char *title = col_title(&t->cols[c]);
    display_sanitize(&lab, title, strlen(title));
    snprintf(jv->msg, sizeof(jv->msg), "sorted by %s %s", sb_str(&lab),
             desc ? g->sort_desc : g->sort_asc);
    sb_free(&lab);
}

/* Sort by the k-th column shown (again: the other way round). */
static void sort_pick(struct jobview *jv, size_t k)
{
    const struct table *t = jv->tabs[jv->which];
    size_t *cols = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    size_t n = shown_cols(jv, t, cols);
    if (k < n) {
        size_t c = cols[k];
        bool desc =
            (int)c == jv->sort_col[jv->which] ? !jv->sort_desc[jv->which] : natural_desc(t, c);
        sort_by(jv, c, desc);
    } else {
        snprintf(jv->msg, sizeof(jv->msg), "no column %zu", k + 1);
    }
    free(cols);
}

/* The next (dir 1) or previous column shown after the sort column. */
static void sort_step(struct jobview *jv, int dir)
{
    const struct table *t = jv->tabs[jv->which];
    size_t *cols = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    size_t n = shown_cols(jv, t, cols), at = 0;
    for (size_t i = 0; i < n; i++)
        if ((int)cols[i] == jv->sort_col[jv->which])
            at = i;
    if (n) {
        at = (at + (dir > 0 ? 1 : n - 1)) % n;
        sort_by(jv, cols[at], natural_desc(t, cols[at]));
    }
    free(cols);
}

static void open_sort_menu(struct jobview *jv)
{
    const struct table *t = jv->tabs[jv->which];
    size_t *cols = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    int n = (int)shown_cols(jv, t, cols), cur = 0;
    char **items = xcalloc((size_t)(n ? n : 1), sizeof(char *));
    for (int i = 0; i < n; i++) {
        bool sorted = (int)cols[i] == jv->sort_col[jv->which];
        struct strbuf lab = STRBUF_INIT;
        const char *title = col_title(&t->cols[cols[i]]);
        display_sanitize(&lab, title, strlen(title));
        items[i] = xasprintf("%s%s", sb_str(&lab),
                             !sorted                    ? ""
                             : jv->sort_desc[jv->which] ? " (descending)"
                                                        : " (ascending)");
        sb_free(&lab);
        if (sorted)
            cur = i;
    }
    free(cols);
    textview_menu_open(&jv->menu, "Sort by", items, n, cur);
}

/* The help's lines: the view's key table (KEYS_JOB) and the global keys
 * the view acts on, in the explorer's words where they fit. */
static void help_lines(struct strbuf *out)
{
    static const struct help_item items[] = {
        {A_VIEW_NEXT, "Next table (ranks, collectives)"},
        {A_VIEW_PREV, "Previous table"},
        {A_ACTIVATE, "Open the selected rank's trace in the explorer (Backspace comes back)"},
        {A_SORT_MENU, NULL},
        {A_SORT_REVERSE, NULL},
        {A_SORT_NEXT, NULL},
        {A_SORT_PREV, NULL},
        {A_SORT_1, "Sort by column 1 (2-9: the others)"},
        {A_ALL_COLUMNS, "Show or hide the detail columns (per-rank times of the collectives)"},
        {A_SCROLL_LEFT, NULL},
        {A_SCROLL_RIGHT, NULL},
        {A_MOVE_DOWN, NULL},
        {A_MOVE_UP, NULL},
        {A_PAGE_DOWN, NULL},
        {A_PAGE_UP, NULL},
        {A_MOVE_FIRST, NULL},
        {A_MOVE_LAST, NULL},
        {A_HELP, NULL},
        {A_QUIT, NULL},
    };
    help_text_items(out, "Job view keys (q, Esc or ? closes; j/k scroll)", KEYS_JOB, items,
                    sizeof(items) / sizeof(items[0]));
}

static enum jobview_event help_action(struct jobview *jv, enum action a, int rows)
{
    size_t step = a == A_MOVE_DOWN || a == A_MOVE_UP ? 1 : (size_t)MAX(rows, 1);
    switch (a) {
    case A_QUIT:
    case A_CANCEL:
    case A_HELP:
    case A_BACK:
        jv->help = false;
        break;
    case A_MOVE_DOWN:
    case A_PAGE_DOWN:
        jv->help_top += step;
        break;
    case A_MOVE_UP:
    case A_PAGE_UP:
        jv->help_top -= MIN(step, jv->help_top);
        break;
    case A_MOVE_FIRST:
        jv->help_top = 0;
        break;
    default:
        break;
    }
    return JOBVIEW_NONE;
}

static enum jobview_event open_rank(struct jobview *jv, int rows)
{
    if (jv->which != JOBVIEW_RANKS) {
        snprintf(jv->msg, sizeof(jv->msg), "Enter opens a rank: Tab to the ranks table");
        return JOBVIEW_NONE;
    }
    const char *path = jobview_open_path(jv);
    if (!path)
        return JOBVIEW_NONE;
    if (ranksum_is_summary(path)) {
        snprintf(jv->msg, sizeof(jv->msg),
                 "this rank was read from a summary: open its trace itself");
        return JOBVIEW_NONE;
    }
    clamp(jv, rows);
    return JOBVIEW_OPEN;
}

enum jobview_event jobview_key(struct jobview *jv, int key, int rows)
{
    if (jv->menu.open) {
        int item = textview_menu_key(&jv->menu, key);
        if (item >= 0)
            sort_pick(jv, (size_t)item);
        return JOBVIEW_NONE;
    }
    enum action a = keymap_lookup(KEYS_JOB, key);
    if (jv->help)
        return help_action(jv, a, rows);
    int tab = jv->which;
    const struct table *t = jv->tabs[tab];
    struct listview lv = {t->nrows, jv->cur[tab], jv->top[tab], rows};
    if (listview_action(&lv, a)) {
        jv->cur[tab] = lv.cur;
        jv->top[tab] = lv.top;
        return JOBVIEW_NONE;
    }
    switch (a) {
    case A_QUIT:
        return JOBVIEW_QUIT;
    case A_HELP:
        jv->help = true;
        jv->help_top = 0;
        return JOBVIEW_NONE;
    case A_VIEW_NEXT:
    case A_VIEW_PREV:
        jv->which = (jv->which + 1) % JOBVIEW__COUNT;
        snprintf(jv->msg, sizeof(jv->msg), "%s table: %zu rows", table_names[jv->which],
                 jv->tabs[jv->which]->nrows);
        break;
    case A_SORT_MENU:
        open_sort_menu(jv);
        break;
    case A_SORT_REVERSE:
        if (jv->sort_col[tab] >= 0)
            sort_by(jv, (size_t)jv->sort_col[tab], !jv->sort_desc[tab]);
        else
            snprintf(jv->msg, sizeof(jv->msg), "pick a sort column first (s)");
        break;
    case A_SORT_NEXT:
    case A_SORT_PREV:
        sort_step(jv, a == A_SORT_NEXT ? 1 : -1);
        break;
    case A_SORT_1:
    case A_SORT_2:
    case A_SORT_3:
    case A_SORT_4:
    case A_SORT_5:
    case A_SORT_6:
    case A_SORT_7:
    case A_SORT_8:
    case A_SORT_9:
        sort_pick(jv, (size_t)(a - A_SORT_1));
        break;
    case A_ALL_COLUMNS:
        jv->all_columns = !jv->all_columns;
        jv->hscroll[0] = jv->hscroll[1] = 0;
        snprintf(jv->msg, sizeof(jv->msg),
                 jv->all_columns ? "showing all columns" : "hiding detail columns");
        break;
    case A_SCROLL_LEFT:
        if (jv->hscroll[tab] > 0)
            jv->hscroll[tab]--;
        break;
    case A_SCROLL_RIGHT: {
        /* As far as the last column alone after the first. */
        size_t *cols = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
        size_t n = shown_cols(jv, t, cols);
        free(cols);
        if (jv->hscroll[tab] + 2 < n)
            jv->hscroll[tab]++;
        break;
    }
    case A_ACTIVATE:
        return open_rank(jv, rows);
    default:
        break;
    }
    clamp(jv, rows);
    return JOBVIEW_NONE;
}

/* ------------------------------------------------------------------------ */
/* The screen                                                               */
/* ------------------------------------------------------------------------ */

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

/* Lines the timeline takes below the collectives table: what it wants,
 * leaving the table at least 5 rows; 0 on the ranks table. */
static int timeline_lines(const struct jobview *jv, int lines)
{
    if (jv->which != JOBVIEW_COLLECTIVES || !jv->tabs[JOBVIEW_COLLECTIVES]->nrows || jv->help ||
        jv->menu.open)
        return 0;
    int room = lines - HEAD_LINES - TABLE_HEAD - 5;
    int want = joblanes_wanted(&jv->v);
    int n = want < room ? want : room;
    return n >= 4 ? n : 0;
}

/* The line of the selected rank's full path under the ranks table. */
static int path_lines(const struct jobview *jv)
{
    return jv->which == JOBVIEW_RANKS && jv->tabs[JOBVIEW_RANKS]->nrows ? 1 : 0;
}

int jobview_table_rows(const struct jobview *jv, int lines)
{
    int rows = lines - HEAD_LINES - TABLE_HEAD - timeline_lines(jv, lines) - path_lines(jv);
    return rows > 1 ? rows : 1;
}

/* Append cell text s[0..n) fitted into w columns, numbers to the right. */
static void put_cell(struct strbuf *line, const char *s, size_t n, size_t w, bool right,
                     bool middle, bool ascii)
{
    struct strbuf cell = STRBUF_INIT;
    size_t got = display_fit(&cell, s, n, w, middle, ascii);
    if (right)
        text_pad(line, w - got);
    sb_putn(line, sb_str(&cell), cell.len);
    if (!right)
        text_pad(line, w - got);
    sb_free(&cell);
}

/* The plan of the columns on screen: their indices into the table. */
struct plan {
    size_t n;
    size_t *col;
    size_t *w;
    bool more, less;
};

static void plan_columns(struct jobview *jv, int cols, struct plan *p)
{
    int tab = jv->which;
    const struct table *t = jv->tabs[tab];
    size_t *all = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    size_t *w = xmalloc((t->ncols ? t->ncols : 1) * sizeof(size_t));
    size_t n = shown_cols(jv, t, all);
    /* Widths are measured only as far as the screen reaches, counting
     * what the wide columns (trace names) can give up. */
    size_t scroll = jv->hscroll[tab], x = 0, slack = 0;
    for (size_t k = 0; k < n; k++) {
        bool reached = k == 0 || (k >= 1 + scroll && x <= (size_t)cols + slack);
        w[k] = reached ? col_width(jv, tab, all[k]) : 0;
        if (!reached)
            continue;
        x += w[k] + (k ? COL_GAP : 0);
        if ((t->cols[all[k]].flags & COLF_WIDE) && w[k] > WIDE_FLOOR)
            slack += w[k] - WIDE_FLOOR;
    }
    /* Too wide: the wide columns are cut in the middle, down to
     * WIDE_FLOOR, before columns leave the screen. */
    for (size_t k = 0; k < n && x > (size_t)cols; k++)
        if (w[k] > WIDE_FLOOR && (t->cols[all[k]].flags & COLF_WIDE)) {
            size_t give = MIN(x - (size_t)cols, w[k] - WIDE_FLOOR);
            w[k] -= give;
            x -= give;
        }
    for (size_t k = 0; k < n; k++)
        w[k] = MAX(w[k], 1);
    p->col = xmalloc((n ? n : 1) * sizeof(size_t));
    p->w = xmalloc((n ? n : 1) * sizeof(size_t));
    size_t *idx = xmalloc((n ? n : 1) * sizeof(size_t));
    p->n = textview_plan_cols(w, n, 1, &scroll, (size_t)MAX(cols, 1), COL_GAP, idx, &p->more);
    p->less = scroll > 0;
    for (size_t i = 0; i < p->n; i++) {
        p->col[i] = all[idx[i]];
        p->w[i] = w[idx[i]];
    }
    free(idx);
    free(all);
    free(w);
}

static void plan_free(struct plan *p)
{
    free(p->col);
    free(p->w);
}

/* The column header (pass 0) or its rule (pass 1), with the marks of
 * columns further right and scrolled off. */
static void head_line(const struct jobview *jv, const struct table *t, const struct plan *p,
                      int pass, int cols, struct strbuf *out)
{
    const struct glyphs *g = jv->ascii ? &glyphs_ascii : &glyphs_utf8;
    struct strbuf ln = STRBUF_INIT;
    for (size_t i = 0; i < p->n; i++) {
        const struct table_col *c = &t->cols[p->col[i]];
        if (i)
            sb_puts(&ln, i == 1 && p->less && pass == 0
                             ? (jv->ascii ? " <" : " " TEXTVIEW_LESS_UTF8)
                             : "  ");
        struct strbuf title = STRBUF_INIT;
        if (pass == 0) {
            sb_puts(&title, col_title(c));
            if ((int)p->col[i] == jv->sort_col[jv->which])
                sb_printf(&title, "%s%s", jv->ascii ? " " : "",
                          jv->sort_desc[jv->which] ? g->sort_desc : g->sort_asc);
        } else {
            for (size_t k = 0; k < p->w[i]; k++)
                sb_putc(&title, '-');
        }
        put_cell(&ln, sb_str(&title), title.len, p->w[i], c->kind != COL_TEXT, false, jv->ascii);
        sb_free(&title);
    }
    size_t used = display_width(sb_str(&ln), ln.len);
    if (p->more && pass == 0) {
        /* The mark sits at the right edge, past the last column. */
        size_t at = (size_t)MAX(cols - 1, 0);
        if (used > at) {
            struct strbuf cut = STRBUF_INIT;
            display_fit(&cut, sb_str(&ln), ln.len, at, false, jv->ascii);
            sb_free(&ln);
            ln = cut;
            used = display_width(sb_str(&ln), ln.len);
        }
        text_pad(&ln, at - used);
        sb_puts(&ln, jv->ascii ? ">" : TEXTVIEW_MORE_UTF8);
    }
    put_line(out, sb_str(&ln), ln.len, cols, jv->ascii);
    sb_free(&ln);
}

/* A file name cut to w columns keeps its end: the ranks of a job differ
 * there ("…rank3.pt.trace.json"), not in the prefix they share. */
static void keep_tail(struct strbuf *cell, size_t w, bool ascii)
{
    const char *s = sb_str(cell);
    size_t n = cell->len;
    if (w < 2 || display_width(s, n) <= w)
        return;
    const char *mark = ascii ? "~" : "\xe2\x80\xa6";
    size_t off = 0;
    while (off < n && display_width(s + off, n - off) > w - 1) {
        off++;
        while (off < n && ((unsigned char)s[off] & 0xc0) == 0x80)
            off++;
    }
    struct strbuf cut = STRBUF_INIT;
    sb_puts(&cut, mark);
    sb_putn(&cut, s + off, n - off);
    sb_clear(cell);
    sb_putn(cell, sb_str(&cut), cut.len);
    sb_free(&cut);
}

static void row_line(const struct jobview *jv, const struct table *t, const struct plan *p,
                     size_t r, struct strbuf *cell, struct strbuf *out)
{
    for (size_t i = 0; i < p->n; i++) {
        size_t c = p->col[i];
        if (i)
            sb_puts(out, "  ");
        sb_clear(cell);
        cell_text(cell, t, r, c);
        if (path_col(t, c))
            keep_tail(cell, p->w[i], jv->ascii);
        bool text = t->cols[c].kind == COL_TEXT;
        put_cell(out, sb_str(cell), cell->len, p->w[i], !text, (t->cols[c].flags & COLF_WIDE) != 0,
                 jv->ascii);
    }
    while (out->len && out->s[out->len - 1] == ' ')
        out->s[--out->len] = '\0';
}

/* The help in place of the table. */
static void help_screen(const struct jobview *jv, int lines, int cols, struct strbuf *out)
{
    struct strbuf h = STRBUF_INIT;
    help_lines(&h);
    const char *p = sb_str(&h), *end = p + h.len;
    int line = HEAD_LINES;
    for (size_t k = 0; p < end && line < lines; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (k >= jv->help_top) {
            put_line(out, p, len, cols, jv->ascii);
            line++;
        }
        p = nl ? nl + 1 : end;
    }
    sb_free(&h);
}

/* jobview_screen, and the kind of each line (lines entries, may be NULL)
 * for the terminal's colours. */
static void screen(struct jobview *jv, int lines, int cols, struct strbuf *out, int *cursor_line,
                   enum joblane_kind *kinds)
{
    *cursor_line = -1;
    if (kinds)
        for (int y = 0; y < lines; y++)
            kinds[y] = JL_TEXT;
    char head[256];
    snprintf(head, sizeof(head),
             "torchtop job [%s]  ?: keys  Tab: table  s: sort  [ ]: columns  Enter: open rank  "
             "q: quit",
             table_names[jv->which]);
    put_str(out, head, cols, jv->ascii);
    put_str(out, jv->msg, cols, jv->ascii);
    if (jv->help) {
        help_screen(jv, lines, cols, out);
        return;
    }
    int tab = jv->which;
    const struct table *t = jv->tabs[tab];
    if (jv->menu.open) {
        int at;
        textview_menu_lines(&jv->menu, out, lines - HEAD_LINES, cols, jv->ascii, &at);
        *cursor_line = at >= 0 ? HEAD_LINES + at : -1;
        return;
    }
    int tl_lines = timeline_lines(jv, lines);
    int body = lines - tl_lines - path_lines(jv);
    struct strbuf ln = STRBUF_INIT;
    display_sanitize(&ln, t->title, strlen(t->title));
    put_line(out, sb_str(&ln), ln.len, cols, jv->ascii);
    struct plan p;
    plan_columns(jv, cols, &p);
    head_line(jv, t, &p, 0, cols, out);
    head_line(jv, t, &p, 1, cols, out);
    int line = HEAD_LINES + TABLE_HEAD;
    size_t rows = body > line ? (size_t)(body - line) : 1;
    size_t top = jv->top[tab], cur = jv->cur[tab];
    /* The caller's row count may have counted without the timeline. */
    if (cur >= top + rows)
        top = cur - rows + 1;
    struct strbuf cell = STRBUF_INIT;
    for (size_t r = top; r < t->nrows && line < body; r++, line++) {
        sb_clear(&ln);
        row_line(jv, t, &p, r, &cell, &ln);
        if (r == cur)
            *cursor_line = line;
        put_line(out, sb_str(&ln), ln.len, cols, jv->ascii);
    }
    sb_free(&cell);
    plan_free(&p);
    if (t->rows_left_out && line < body) {
        sb_clear(&ln);
        sb_printf(&ln, "(%zu more rows)", t->rows_left_out);
        put_line(out, sb_str(&ln), ln.len, cols, jv->ascii);
        line++;
    }
    for (size_t i = 0; i < t->notes.n && line < body; i++, line++) {
        sb_clear(&ln);
        sb_puts(&ln, "note: ");
        display_sanitize(&ln, t->notes.v[i], strlen(t->notes.v[i]));
        put_line(out, sb_str(&ln), ln.len, cols, jv->ascii);
    }
    if (path_lines(jv)) {
        for (; line < body; line++)
            sb_putc(out, '\n');
        uint32_t ix = table_ref(t, cur);
        sb_clear(&ln);
        if (ix < jv->job->ranks.n) {
            sb_printf(&ln, "rank %d: ", jv->job->rank_of.v[ix]);
            const char *src = jv->job->ranks.v[ix]->source;
            display_sanitize(&ln, src ? src : "-", strlen(src ? src : "-"));
        }
        put_line(out, sb_str(&ln), ln.len, cols, jv->ascii);
        line++;
    }
    sb_free(&ln);
    if (!tl_lines)
        return;
    for (; line < lines - tl_lines; line++)
        sb_putc(out, '\n');
    uint32_t inst = table_ref(t, cur);
    joblanes_render(&jv->v, inst, cols, tl_lines, jv->ascii, out, kinds ? kinds + line : NULL);
}

void jobview_screen(struct jobview *jv, int lines, int cols, struct strbuf *out, int *cursor_line)
{
    screen(jv, lines, cols, out, cursor_line, NULL);
}

static void draw(struct jobview *jv)
{
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    struct strbuf sb = STRBUF_INIT;
    int cursor;
    enum joblane_kind *kinds = xcalloc((size_t)(lines > 0 ? lines : 1), sizeof(*kinds));
    screen(jv, lines, cols, &sb, &cursor, kinds);
    erase();
    const char *p = sb_str(&sb);
    for (int y = 0; y < lines && *p; y++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        attr_t at = y == 0                   ? color_attr(C_TITLE_FOCUS)
                    : y == cursor            ? A_REVERSE
                    : kinds[y] == JL_COMPUTE ? color_attr(C_COMP)
                    : kinds[y] == JL_COLL    ? color_attr(C_COMM)
                                             : A_NORMAL;
        attrset(at);
        mvaddnstr(y, 0, p, (int)n);
        if (y == 0 || y == cursor)
            for (int x = (int)display_width(p, n); x < cols; x++)
                addch(' ');
        attrset(A_NORMAL);
        p = nl ? nl + 1 : p + n;
    }
    refresh();
    sb_free(&sb);
    free(kinds);
}

int jobview_run(struct jobview *jv, const struct tui_opts *opts)
{
    bool mono = opts->no_color || (getenv("NO_COLOR") && *getenv("NO_COLOR"));
    if (!term_open(mono))
        return 1;
    int status = 0;
    for (;;) {
        draw(jv);
        int key;
        if (!term_read_key(&key))
            break;
        int lines = LINES;
        enum jobview_event ev = jobview_key(jv, key, jobview_table_rows(jv, lines));
        if (ev == JOBVIEW_QUIT)
            break;
        if (ev == JOBVIEW_OPEN) {
            term_close();
            struct tui_opts o = *opts;
            o.path = jobview_open_path(jv);
            o.src = NULL;
            o.snapshot = false;
            o.name = NULL;
            o.back_quits = true;
            int r = tui_main(&o);
            if (!term_open(mono))
                return r ? r : 1;
            snprintf(jv->msg, sizeof(jv->msg), "back from %s", o.path);
            if (r)
                status = r;
        }
    }
    term_close();
    return status;
}
