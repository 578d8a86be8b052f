/* Invariants of the report tables: the rules, by table name, and their
 * checks. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/report/invariants.h"

static const char *const inv_names[INV__COUNT] = {
    [INV_NONNEG] = "nonnegative",        [INV_WHOLE] = "whole counts",
    [INV_RATIO] = "ratio in [0, 1]",     [INV_PERCENT] = "percent in [0, 100]",
    [INV_ROWS_SUM] = "rows add up",      [INV_COLS_SUM] = "columns add up",
    [INV_SHARE_SUM] = "sums to whole",   [INV_CUMULATIVE] = "cumulative",
    [INV_ORDERED] = "ordered quantiles",
};

const char *invariants_name(enum invariant k)
{
    return k < INV__COUNT ? inv_names[k] : "?";
}

/* One rule. Column and row lists are comma-separated names; a column a
 * table lacks is left out (job tables add a rank column, older tables lack
 * newer ones); a rule whose columns are all missing checks nothing. */
struct rule {
    const char *table;
    uint8_t kind;      /* enum invariant */
    const char *cols;  /* the columns checked ("*": every number column); COLS_SUM,
                          SHARE_SUM, CUMULATIVE: the value column(s) */
    const char *parts; /* ROWS_SUM: the part rows; COLS_SUM: the part columns */
    const char *total; /* ROWS_SUM: the total row; COLS_SUM: the total column, or
                          "=N" for a constant; SHARE_SUM: "=N", the whole */
    const char *key;   /* ROWS_SUM: the column naming the rows; SHARE_SUM: the columns
                          grouping rows (none: all rows, one group) */
    double tol;        /* absolute slack per value added, for values stored rounded
                          (HTA rounds its percentages); plus 1e-6 relative */
};

/* clang-format off */
static const struct rule rules[] = {
    /* GPU timeline (docs/metrics.md §2). */
    {"gpu_timeline", INV_NONNEG, "time ms,percent", NULL, NULL, NULL, 0},
    {"gpu_timeline", INV_PERCENT, "percent", NULL, NULL, NULL, 0},
    {"gpu_timeline", INV_ROWS_SUM, "time ms,percent",
     "computation_time,exposed_comm_time,exposed_memcpy_time", "busy_time", "type", 0},
    {"gpu_timeline", INV_ROWS_SUM, "time ms,percent", "busy_time,idle_time", "total_time", "type", 0},
    {"gpu_timeline_per_device", INV_NONNEG, "*", NULL, NULL, NULL, 0},
    {"gpu_timeline_per_device", INV_ROWS_SUM, "*",
     "computation_time,exposed_comm_time,exposed_memcpy_time", "busy_time", "type", 0},
    {"gpu_timeline_per_device", INV_ROWS_SUM, "*", "busy_time,idle_time", "total_time", "type", 0},
    /* HTA temporal breakdown: idle + compute + non-compute = the span. */
    {"hta_temporal_breakdown", INV_NONNEG, "*", NULL, NULL, NULL, 0},
    {"hta_temporal_breakdown", INV_PERCENT, "idle_time_pctg,compute_time_pctg,non_compute_time_pctg",
     NULL, NULL, NULL, 0},
    {"hta_temporal_breakdown", INV_COLS_SUM, NULL,
     "idle_time(us),compute_time(us),non_compute_time(us)", "kernel_time(us)", NULL, 0},
    {"hta_temporal_breakdown", INV_COLS_SUM, NULL,
     "idle_time_pctg,compute_time_pctg,non_compute_time_pctg", "=100", NULL, 0.005},
    /* HTA idle time per stream: host wait, kernel wait, other. */
    {"hta_idle_time_breakdown", INV_NONNEG, "idle_time,idle_time_ratio", NULL, NULL, NULL, 0},
    {"hta_idle_time_breakdown", INV_RATIO, "idle_time_ratio", NULL, NULL, NULL, 0},
    {"hta_idle_time_breakdown", INV_SHARE_SUM, "idle_time_ratio", NULL, "=1", "rank,stream", 0},
    {"hta_idle_interval_stats", INV_NONNEG, "*", NULL, NULL, NULL, 0},
    /* HTA kernel types (percentages rounded to 0.1). */
    {"hta_kernel_type_breakdown", INV_NONNEG, "sum,percentage", NULL, NULL, NULL, 0},
    {"hta_kernel_type_breakdown", INV_PERCENT, "percentage", NULL, NULL, NULL, 0},
    {"hta_kernel_type_breakdown", INV_SHARE_SUM, "percentage", NULL, "=100", "rank", 0.05},
    {"hta_kernel_breakdown_top", INV_NONNEG, "sum (us),max (us),min (us),mean (us)", NULL, NULL,
     NULL, 0},
    {"hta_comm_comp_overlap", INV_PERCENT, "comp_comm_overlap_pctg", NULL, NULL, NULL, 0},
    {"hta_comm_comp_overlap", INV_NONNEG, "comp_comm_overlap_pctg", NULL, NULL, NULL, 0},
    /* HTA queue length: outstanding operations. */
    {"hta_queue_length_summary", INV_NONNEG, "count,mean,std,min,25%,50%,75%,max", NULL, NULL,
     NULL, 0},
    {"hta_queue_length_summary", INV_ORDERED, "min,25%,50%,75%,max", NULL, NULL, NULL, 0},
    {"hta_memory_bw_summary", INV_NONNEG, "*", NULL, NULL, NULL, 0},
    /* Ops and categories: % of all GPU time (the op table's rows of GPU
     * work no op launched, graph replays and communication included). */
    {"ops_summary", INV_NONNEG,
     "total_direct_kernel_time_sum,total_subtree_kernel_time_sum,total_direct_kernel_time_ms,"
     "total_subtree_kernel_time_ms,Percentage (%)", NULL, NULL, NULL, 0},
    {"ops_summary", INV_PERCENT, "Percentage (%)", NULL, NULL, NULL, 0},
    {"ops_summary", INV_SHARE_SUM, "Percentage (%)", NULL, "=100", NULL, 0},
    {"ops_summary", INV_CUMULATIVE, "Cumulative Percentage (%)", NULL, NULL, NULL, 0},
    {"ops_summary_by_category", INV_NONNEG, "total_direct_kernel_time_ms,Percentage (%)", NULL,
     NULL, NULL, 0},
    {"ops_summary_by_category", INV_PERCENT, "Percentage (%)", NULL, NULL, NULL, 0},
    {"ops_summary_by_category", INV_SHARE_SUM, "Percentage (%)", NULL, "=100", NULL, 0},
    {"ops_summary_by_category", INV_CUMULATIVE, "Cumulative Percentage (%)", NULL, NULL, NULL, 0},
    {"ops_unique_args", INV_NONNEG, "total_direct_kernel_time_sum,Percentage (%)", NULL, NULL,
     NULL, 0},
    {"ops_unique_args", INV_PERCENT, "Percentage (%)", NULL, NULL, NULL, 0},
    {"kernel_summary", INV_NONNEG,
     "Kernel duration (\xc2\xb5s)_sum,Kernel duration (\xc2\xb5s)_mean,"
     "Kernel duration (\xc2\xb5s)_min,Kernel duration (\xc2\xb5s)_max,"
     "Percent of kernels time (%),Percent of total time (%)", NULL, NULL, NULL, 0},
    {"kernel_summary", INV_PERCENT, "Percent of kernels time (%),Percent of total time (%)", NULL,
     NULL, NULL, 0},
    {"kernel_summary", INV_SHARE_SUM, "Percent of kernels time (%)", NULL, "=100", NULL, 0},
    /* Graph replays. */
    {"graphs", INV_NONNEG, "*", NULL, NULL, NULL, 0},
    {"graphs", INV_PERCENT, "gpu_time_pct", NULL, NULL, NULL, 0},
    {"graph_nodes", INV_NONNEG, "*", NULL, NULL, NULL, 0},
    {"graph_nodes", INV_PERCENT, "graph_time_pct", NULL, NULL, NULL, 0},
    /* The per-rank job breakdown: each rank's timeline adds up. */
    {"ranks", INV_NONNEG,
     "computation_ms,exposed_comm_ms,exposed_memcpy_ms,idle_ms,total_ms,step_time_ms,"
     "collective_wait_ms,wait_pct", NULL, NULL, NULL, 0},
    {"ranks", INV_PERCENT, "wait_pct", NULL, NULL, NULL, 0},
    {"ranks", INV_COLS_SUM, NULL, "computation_ms,exposed_comm_ms,exposed_memcpy_ms,idle_ms",
     "total_ms", NULL, 0.0005},
    {"stragglers", INV_NONNEG, "*", NULL, NULL, NULL, 0},
    /* The critical path (docs/metrics.md §18): the shares of its bounds sum
     * to 100 per region (a negative span can take one below 0). */
    {"critical_path", INV_SHARE_SUM, "share", NULL, "=100", "rank,region", 0},
    {"critical_path_regions", INV_COLS_SUM, NULL,
     "cpu_bound,gpu_compute_bound,gpu_communication_bound,gpu_kernel_launch_overhead,"
     "gpu_kernel_kernel_overhead,zero_weight", "=100", NULL, 0},
    {"critical_path_what_if", INV_NONNEG, "before_us,after_us", NULL, NULL, NULL, 0},
};
/* clang-format on */

/* Count columns, in every table: whole numbers >= 0. */
static bool is_count_col(const char *name)
{
    static const char *const words[] = {"count",       "steps", "replays",
                                        "collectives", "calls", "allocations"};
    char low[96];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof(low); n++)
        low[n] = (char)tolower((unsigned char)name[n]);
    low[n] = '\0';
    /* A difference of counts may be negative; a share or a mean of counts is
     * not a count. */
    if (strstr(low, "diff") || strstr(low, "delta") || strstr(low, "mean") || strstr(low, "pct") ||
        strstr(low, "per_") || strstr(low, "%"))
        return false;
    for (size_t i = 0; i < ARRAY_SIZE(words); i++)
        if (strstr(low, words[i]))
            return true;
    return false;
}

/* A cell as a number; NaN when empty or text. */
static double num(const struct table *t, size_t row, size_t col)
{
    union cell c = table_cell(t, row, col);
    switch (t->cols[col].kind) {
    case COL_INT:
        return c.i == TABLE_NO_INT ? NAN : (double)c.i;
    case COL_FLOAT:
    case COL_PERCENT:
        return c.f;
    default:
        return NAN;
    }
}

static bool near(double a, double b, double slack)
{
    return fabs(a - b) <= slack + 1e-6 * fmax(fabs(a), fabs(b)) + 1e-9;
}

/* Column indices of a comma-separated list ("*": the number columns) into
 * idx (at most cap); returns how many the table has. */
static size_t cols_of(const struct table *t, const char *list, size_t *idx, size_t cap)
{
    size_t n = 0;
    if (!list)
        return 0;
    if (strcmp(list, "*") == 0) {
        for (size_t c = 0; c < t->ncols && n < cap; c++)
            if (t->cols[c].kind != COL_TEXT)
                idx[n++] = c;
        return n;
    }
    const char *p = list;
    while (*p && n < cap) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        for (size_t c = 0; c < t->ncols; c++)
            if (strlen(t->cols[c].name) == len && memcmp(t->cols[c].name, p, len) == 0) {
                idx[n++] = c;
                break;
            }
        p = e ? e + 1 : p + len;
    }
    return n;
}

/* The row whose text in column key is name (len bytes); SIZE_MAX if none. */
static size_t row_named(const struct table *t, size_t key, const char *name, size_t len)
{
    for (size_t r = 0; r < t->nrows; r++) {
        const char *s = table_cell(t, r, key).s;
        if (s && strlen(s) == len && memcmp(s, name, len) == 0)
            return r;
    }
    return SIZE_MAX;
}

/* "row 3 'aten::mm'", "row 2 (rank 0, stream 7)" for messages. */
static void put_row(struct strbuf *sb, const struct table *t, size_t r)
{
    size_t nc = table_name_col(t);
    const char *s = t->cols[nc].kind == COL_TEXT ? table_cell(t, r, nc).s : NULL;
    sb_printf(sb, "row %zu", r + 1);
    if (s)
        sb_printf(sb, " '%.60s'", s);
    static const char *const ids[] = {"rank", "stream"};
    bool open = false;
    for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
        int c = table_col_index(t, ids[i]);
        if (c < 0 || t->cols[c].kind != COL_INT || table_cell(t, r, (size_t)c).i == TABLE_NO_INT)
            continue;
        sb_printf(sb, "%s%s %lld", open ? ", " : " (", ids[i],
                  (long long)table_cell(t, r, (size_t)c).i);
        open = true;
    }
    if (open)
        sb_putc(sb, ')');
}

struct checker {
    const struct table *t;
    struct invariants_report *r;
    struct strbuf sb;
    unsigned nbad; /* rows named in sb */
};

/* A broken row (up to a few named per table and invariant). */
static void bad_row(struct checker *ck, size_t row, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void bad_row(struct checker *ck, size_t row, const char *fmt, ...)
{
    if (ck->nbad++ >= 4)
        return;
    if (ck->sb.len)
        sb_puts(&ck->sb, "; ");
    if (row != SIZE_MAX) {
        put_row(&ck->sb, ck->t, row);
        sb_puts(&ck->sb, ": ");
    }
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&ck->sb, fmt, ap);
    va_end(ap);
}

/* Close one invariant's check of the table: count it, record a break. */
static void close_check(struct checker *ck, enum invariant k)
{
    ck->r->checked[k]++;
    if (ck->nbad) {
        if (ck->nbad > 4)
            sb_printf(&ck->sb, "; %u more", ck->nbad - 4);
        struct invariant_break b = {xstrdup(ck->t->name), (uint8_t)k, sb_steal(&ck->sb)};
        VEC_PUSH(&ck->r->broken, b);
    }
    sb_clear(&ck->sb);
    ck->nbad = 0;
}

static void check_range(struct checker *ck, const size_t *cols, size_t nc, double lo, double hi,
                        bool whole)
{
    const struct table *t = ck->t;
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t k = 0; k < nc; k++) {
            double v = num(t, r, cols[k]);
            if (isnan(v))
                continue;
            if (v < lo || v > hi || (whole && v != floor(v)) || isinf(v))
                bad_row(ck, r, "%s = %.9g", t->cols[cols[k]].name, v);
        }
}

static void check_rows_sum(struct checker *ck, const struct rule *ru, const size_t *cols, size_t nc)
{
    const struct table *t = ck->t;
    size_t key;
    if (cols_of(t, ru->key, &key, 1) != 1)
        return;
    size_t tot = row_named(t, key, ru->total, strlen(ru->total));
    if (tot == SIZE_MAX)
        return;
    size_t parts[16], np = 0;
    for (const char *p = ru->parts; *p && np < ARRAY_SIZE(parts);) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        size_t r = row_named(t, key, p, len);
        if (r == SIZE_MAX)
            return; /* not this breakdown */
        parts[np++] = r;
        p = e ? e + 1 : p + len;
    }
    for (size_t k = 0; k < nc; k++) {
        double sum = 0, want = num(t, tot, cols[k]);
        for (size_t i = 0; i < np; i++)
            sum += num(t, parts[i], cols[k]);
        if (!isnan(want) && !isnan(sum) && !near(sum, want, ru->tol * (double)np))
            bad_row(ck, tot, "%s = %.9g, its parts (%s) add up to %.9g", t->cols[cols[k]].name,
                    want, ru->parts, sum);
    }
}

static void check_cols_sum(struct checker *ck, const struct rule *ru)
{
    const struct table *t = ck->t;
    size_t parts[16], tot = 0;
    size_t np = cols_of(t, ru->parts, parts, ARRAY_SIZE(parts));
    bool constant = ru->total[0] == '=';
    if (!np || (!constant && cols_of(t, ru->total, &tot, 1) != 1))
        return;
    double k = constant ? strtod(ru->total + 1, NULL) : 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double sum = 0, want = constant ? k : num(t, r, tot);
        for (size_t i = 0; i < np; i++)
            sum += num(t, r, parts[i]);
        if (isnan(want) || isnan(sum))
            continue;
        /* An empty span has no shares. */
        if (constant && sum == 0)
            continue;
        if (!near(sum, want, ru->tol * (double)np))
            bad_row(ck, r, "%s = %.9g, the parts (%s) add up to %.9g",
                    constant ? "the whole" : t->cols[tot].name, want, ru->parts, sum);
    }
}

/* Whether rows a and b share their values in the group columns. */
static bool same_group(const struct table *t, size_t a, size_t b, const size_t *g, size_t ng)
{
    for (size_t i = 0; i < ng; i++) {
        union cell x = table_cell(t, a, g[i]), y = table_cell(t, b, g[i]);
        if (t->cols[g[i]].kind == COL_TEXT) {
            if ((x.s == NULL) != (y.s == NULL) || (x.s && strcmp(x.s, y.s) != 0))
                return false;
        } else if (memcmp(&x, &y, sizeof(x)) != 0) {
            return false;
        }
    }
    return true;
}

static void check_share_sum(struct checker *ck, const struct rule *ru, size_t col)
{
    const struct table *t = ck->t;
    if (t->rows_left_out || t->nrows == 0)
        return;
    size_t g[4];
    size_t ng = cols_of(t, ru->key, g, ARRAY_SIZE(g));
    double whole = strtod(ru->total + 1, NULL);
    bool *done = xcalloc(t->nrows, sizeof(*done));
    for (size_t r = 0; r < t->nrows; r++) {
        if (done[r])
            continue;
        double sum = 0;
        size_t n = 0;
        bool any = false;
        for (size_t q = r; q < t->nrows; q++) {
            if (done[q] || !same_group(t, r, q, g, ng))
                continue;
            done[q] = true;
            double v = num(t, q, col);
            if (isnan(v))
                continue;
            sum += v;
            n++;
            any = any || v != 0;
        }
        /* A group with nothing to share (no time at all) has no shares. */
        if (any && !near(sum, whole, ru->tol * (double)n))
            bad_row(ck, r, "%s adds up to %.9g over %zu row%s%s, not %g", t->cols[col].name, sum, n,
                    n == 1 ? "" : "s", ng ? " of its group" : "", whole);
    }
    free(done);
}

static void check_cumulative(struct checker *ck, size_t col)
{
    const struct table *t = ck->t;
    if (t->rows_left_out || t->nrows == 0)
        return;
    double prev = 0;
    bool any = false;
    for (size_t r = 0; r < t->nrows; r++) {
        double v = num(t, r, col);
        if (isnan(v))
            continue;
        if (v < prev - 1e-6)
            bad_row(ck, r, "%s falls from %.9g to %.9g", t->cols[col].name, prev, v);
        prev = v;
        any = any || v != 0;
    }
    if (any && !near(prev, 100, 0))
        bad_row(ck, SIZE_MAX, "%s ends at %.9g, not 100", t->cols[col].name, prev);
}

static void check_ordered(struct checker *ck, const size_t *cols, size_t nc)
{
    const struct table *t = ck->t;
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t k = 1; k < nc; k++) {
            double a = num(t, r, cols[k - 1]), b = num(t, r, cols[k]);
            if (!isnan(a) && !isnan(b) && a > b + 1e-9)
                bad_row(ck, r, "%s %.9g > %s %.9g", t->cols[cols[k - 1]].name, a,
                        t->cols[cols[k]].name, b);
        }
}

static void apply(struct checker *ck, const struct rule *ru)
{
    size_t cols[64];
    size_t nc = cols_of(ck->t, ru->cols, cols, ARRAY_SIZE(cols));
    enum invariant k = (enum invariant)ru->kind;
    if (k != INV_COLS_SUM && nc == 0)
        return;
    switch (k) {
    case INV_NONNEG:
        check_range(ck, cols, nc, 0, INFINITY, false);
        break;
    case INV_RATIO:
        check_range(ck, cols, nc, 0, 1 + 1e-9, false);
        break;
    case INV_PERCENT:
        check_range(ck, cols, nc, 0, 100 + 1e-6, false);
        break;
    case INV_ROWS_SUM:
        check_rows_sum(ck, ru, cols, nc);
        break;
    case INV_COLS_SUM:
        check_cols_sum(ck, ru);
        break;
    case INV_SHARE_SUM:
        check_share_sum(ck, ru, cols[0]);
        break;
    case INV_CUMULATIVE:
        check_cumulative(ck, cols[0]);
        break;
    case INV_ORDERED:
        check_ordered(ck, cols, nc);
        break;
    default:
        return;
    }
    close_check(ck, k);
}

void invariants_check_table(const struct table *t, struct invariants_report *r)
{
    struct checker ck = {.t = t, .r = r, .sb = STRBUF_INIT};
    for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
        if (strcmp(rules[i].table, t->name) == 0)
            apply(&ck, &rules[i]);
    size_t counts[64], nc = 0;
    for (size_t c = 0; c < t->ncols && nc < ARRAY_SIZE(counts); c++)
        if (t->cols[c].kind != COL_TEXT && is_count_col(t->cols[c].name))
            counts[nc++] = c;
    if (nc) {
        check_range(&ck, counts, nc, 0, INFINITY, true);
        close_check(&ck, INV_WHOLE);
    }
    sb_free(&ck.sb);
}

void invariants_check(const struct table_list *tl, struct invariants_report *r)
{
    for (size_t i = 0; i < tl->items.n; i++)
        invariants_check_table(tl->items.v[i], r);
}

size_t invariants_annotate(struct table_list *tl)
{
    size_t n = 0;
    for (size_t i = 0; i < tl->items.n; i++) {
        struct table *t = tl->items.v[i];
        struct invariants_report r = {0};
        invariants_check_table(t, &r);
        for (size_t k = 0; k < r.broken.n; k++)
            table_add_note(t, "invariant broken (%s): %s", invariants_name(r.broken.v[k].kind),
                           r.broken.v[k].what);
        n += r.broken.n;
        invariants_report_free(&r);
    }
    return n;
}

void invariants_report_free(struct invariants_report *r)
{
    for (size_t i = 0; i < r->broken.n; i++) {
        free(r->broken.v[i].table);
        free(r->broken.v[i].what);
    }
    VEC_FREE(&r->broken);
    memset(r, 0, sizeof(*r));
}
