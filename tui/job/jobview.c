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
#include "tui/frame/colors.h"
#include "tui/job/joblanes.h"
#include "tui/job/jobview.h"
#include "tui/frame/keymap.h"
#include "tui/frame/listview.h"
#include "tui/frame/term.h"
#include "tui/trace/tui.h"

/* Lines above a table's first row: the view's header and message line,
 * then the table's title, column header and rule (tabfmt text). */
#define HEAD_LINES 2
#define TABLE_HEAD 3

/* The sort cycle of each table: column names, descending. */
static const char *const sorts_ranks[] = {"rank", "total_ms", "collective_wait_ms", "step_time_ms"};
static const char *const sorts_colls[] = {"avg_wait_time", "skew in start time", "comm_latency",
                                          "bus bw (GB/s)"};

struct jobview *jobview_new(struct job *j, bool ascii)
{
    struct jobview *jv = xcalloc(1, sizeof(*jv));
    jv->job = j;
    jv->ascii = ascii;
    job_view_init(&jv->v, j);
    jv->tabs[JOBVIEW_RANKS] = job_tables_ranks(&jv->v);
    jv->tabs[JOBVIEW_COLLECTIVES] = job_tables_collectives(&jv->v);
    /* Collectives open sorted by the wait they cost, the largest first. */
    report_sort_table(jv->tabs[JOBVIEW_COLLECTIVES], sorts_colls[0]);
    snprintf(jv->msg, sizeof(jv->msg), "%zu ranks (numbered by %s), %zu collectives matched",
             j->ranks.n, job_rank_source_name(j->rank_source), jv->v.colls.insts.n);
    return jv;
}

void jobview_free(struct jobview *jv)
{
    if (!jv)
        return;
    for (int i = 0; i < JOBVIEW__COUNT; i++)
        table_free(jv->tabs[i]);
    job_view_done(&jv->v);
    job_free(jv->job);
    free(jv);
}

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

static void cycle_sort(struct jobview *jv)
{
    const char *const *cyc = jv->which == JOBVIEW_RANKS ? sorts_ranks : sorts_colls;
    size_t n = jv->which == JOBVIEW_RANKS ? ARRAY_SIZE(sorts_ranks) : ARRAY_SIZE(sorts_colls);
    int *k = &jv->sort[jv->which];
    *k = (int)((size_t)(*k + 1) % n);
    struct table *t = jv->tabs[jv->which];
    int col = table_col_index(t, cyc[*k]);
    if (col >= 0)
        /* Rank order ascending, every measure descending. */
        table_sort(t, (size_t)col, strcmp(cyc[*k], "rank") != 0);
    snprintf(jv->msg, sizeof(jv->msg), "sorted by %s", cyc[*k]);
    jv->cur[jv->which] = jv->top[jv->which] = 0;
}

enum jobview_event jobview_key(struct jobview *jv, int key, int rows)
{
    size_t *cur = &jv->cur[jv->which];
    size_t n = jv->tabs[jv->which]->nrows;
    switch (key) {
    case 'q':
        return JOBVIEW_QUIT;
    case '\t':
        jv->which = (jv->which + 1) % JOBVIEW__COUNT;
        snprintf(jv->msg, sizeof(jv->msg), "%s", jv->tabs[jv->which]->title);
        break;
    case 's':
        cycle_sort(jv);
        break;
    case 'j':
    case KEYF(KEY_DOWN):
        if (*cur + 1 < n)
            (*cur)++;
        break;
    case 'k':
    case KEYF(KEY_UP):
        if (*cur > 0)
            (*cur)--;
        break;
    case KEYF(KEY_NPAGE):
        *cur += (size_t)(rows > 1 ? rows - 1 : 1);
        break;
    case KEYF(KEY_PPAGE):
        *cur = *cur > (size_t)rows ? *cur - (size_t)rows + 1 : 0;
        break;
    case 'g':
    case KEYF(KEY_HOME):
        *cur = 0;
        break;
    case 'G':
    case KEYF(KEY_END):
        *cur = n ? n - 1 : 0;
        break;
    case '\n':
        if (jv->which != JOBVIEW_RANKS) {
            snprintf(jv->msg, sizeof(jv->msg), "Enter opens a rank: Tab to the ranks table");
            break;
        }
        if (!jobview_open_path(jv))
            break;
        if (ranksum_is_summary(jobview_open_path(jv))) {
            snprintf(jv->msg, sizeof(jv->msg),
                     "this rank was read from a summary: open its trace itself");
            break;
        }
        clamp(jv, rows);
        return JOBVIEW_OPEN;
    default:
        break;
    }
    clamp(jv, rows);
    return JOBVIEW_NONE;
}

/* Append line s[0..n) cut to cols columns, and a newline. */
static void put_line(struct strbuf *out, const char *s, size_t n, int cols, bool ascii)
{
    display_fit(out, s, n, (size_t)(cols > 0 ? cols : 1), false, ascii);
    sb_putc(out, '\n');
}

/* Lines the timeline takes below the collectives table: what it wants,
 * leaving the table at least 5 rows; 0 on the ranks table. */
static int timeline_lines(const struct jobview *jv, int lines)
{
    if (jv->which != JOBVIEW_COLLECTIVES || !jv->tabs[JOBVIEW_COLLECTIVES]->nrows)
        return 0;
    int room = lines - HEAD_LINES - TABLE_HEAD - 5;
    int want = joblanes_wanted(&jv->v);
    int n = want < room ? want : room;
    return n >= 4 ? n : 0;
}

int jobview_table_rows(const struct jobview *jv, int lines)
{
    int rows = lines - HEAD_LINES - TABLE_HEAD - timeline_lines(jv, lines);
    return rows > 1 ? rows : 1;
}

/* jobview_screen, and the kind of each line (lines entries, may be NULL)
 * for the terminal's colours. */
static void screen(const struct jobview *jv, int lines, int cols, struct strbuf *out,
                   int *cursor_line, enum joblane_kind *kinds)
{
    *cursor_line = -1;
    if (kinds)
        for (int y = 0; y < lines; y++)
            kinds[y] = JL_TEXT;
    int tl_lines = timeline_lines(jv, lines);
    lines -= tl_lines;
    char head[256];
    snprintf(head, sizeof(head),
             "torchtop job [%s]  Tab: ranks/collectives  s: sort  Enter: open rank  q: quit",
             jv->which == JOBVIEW_RANKS ? "ranks" : "collectives");
    put_line(out, head, strlen(head), cols, jv->ascii);
    put_line(out, jv->msg, strlen(jv->msg), cols, jv->ascii);
    const struct table *t = jv->tabs[jv->which];
    struct tabfmt_opts fo = {.format = FMT_TEXT, .top = t->nrows ? t->nrows : 1};
    struct strbuf text = STRBUF_INIT;
    tabfmt_table(&text, t, &fo);
    /* The table's lines: its head, then rows from top, then notes. */
    size_t rows = lines > HEAD_LINES + TABLE_HEAD ? (size_t)(lines - HEAD_LINES - TABLE_HEAD) : 1;
    size_t top = jv->top[jv->which], cur = jv->cur[jv->which];
    /* The caller's row count may have counted without the timeline. */
    if (cur >= top + rows)
        top = cur - rows + 1;
    const char *p = sb_str(&text), *end = p + text.len;
    int line = HEAD_LINES;
    for (size_t k = 0; p < end && line < lines; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        bool is_row = k >= TABLE_HEAD && k < TABLE_HEAD + t->nrows;
        size_t row = k - TABLE_HEAD;
        if (!is_row || (row >= top && row < top + rows)) {
            if (is_row && row == cur)
                *cursor_line = line;
            put_line(out, p, len, cols, jv->ascii);
            line++;
        }
        p = nl ? nl + 1 : end;
    }
    sb_free(&text);
    if (!tl_lines)
        return;
    uint32_t inst = table_ref(t, cur);
    joblanes_render(&jv->v, inst, cols, tl_lines, jv->ascii, out, kinds ? kinds + line : NULL);
}

void jobview_screen(const struct jobview *jv, int lines, int cols, struct strbuf *out,
                    int *cursor_line)
{
    screen(jv, lines, cols, out, cursor_line, NULL);
}

static void draw(const struct jobview *jv)
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
