/* Table printers: text, CSV, JSON, Markdown. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/display.h"
#include "core/report/tabfmt.h"

bool tabfmt_parse(const char *s, enum tab_format *out)
{
    static const struct {
        const char *name;
        enum tab_format f;
    } names[] = {{"text", FMT_TEXT},
                 {"csv", FMT_CSV},
                 {"json", FMT_JSON},
                 {"md", FMT_MD},
                 {"markdown", FMT_MD}};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].f;
            return true;
        }
    return false;
}

static bool empty_cell(const struct table *t, size_t row, size_t col)
{
    union cell v = table_cell(t, row, col);
    switch (t->cols[col].kind) {
    case COL_TEXT:
        return v.s == NULL;
    case COL_INT:
        return v.i == TABLE_NO_INT;
    default:
        return !isfinite(v.f);
    }
}

/* Shortest text that reads back as the same double. */
static void put_real(struct strbuf *out, double d)
{
    char buf[40];
    snprintf(buf, sizeof(buf), "%.10g", d);
    if (strtod(buf, NULL) != d)
        snprintf(buf, sizeof(buf), "%.17g", d);
    sb_puts(out, buf);
}

/* Cell value as text the way CSV writes it ("" when empty). */
static void tabfmt_cell_plain(struct strbuf *out, const struct table *t, size_t row, size_t col)
{
    if (empty_cell(t, row, col))
        return;
    union cell v = table_cell(t, row, col);
    switch (t->cols[col].kind) {
    case COL_TEXT:
        sb_puts(out, v.s);
        break;
    case COL_INT:
        sb_printf(out, "%lld", (long long)v.i);
        break;
    default:
        put_real(out, v.f);
        break;
    }
}

void tabfmt_cell_text(struct strbuf *out, const struct table *t, size_t row, size_t col)
{
    if (empty_cell(t, row, col))
        return;
    union cell v = table_cell(t, row, col);
    switch (t->cols[col].kind) {
    case COL_TEXT:
        sb_puts(out, v.s);
        break;
    case COL_INT:
        sb_printf(out, "%lld", (long long)v.i);
        break;
    default:
        sb_printf(out, "%.*f", t->cols[col].decimals, v.f);
        break;
    }
}

static const char *col_title(const struct table_col *c)
{
    return c->title ? c->title : c->name;
}

static bool shown(const struct table *t, size_t col, const struct tabfmt_opts *o)
{
    return o->all_columns || !(t->cols[col].flags & COLF_DETAIL);
}

static size_t row_limit(const struct table *t, const struct tabfmt_opts *o)
{
    size_t top = o->top ? o->top : t->top_default;
    return top && top < t->nrows && !t->whole ? top : t->nrows;
}

/* Output lines a row takes in text and Markdown: one, plus one for each
 * further line of its fullest COLF_LINES cell. */
static size_t row_lines(const struct table *t, size_t row, const struct tabfmt_opts *o)
{
    size_t n = 1;
    for (size_t c = 0; c < t->ncols; c++) {
        if (!(t->cols[c].flags & COLF_LINES) || !shown(t, c, o) || empty_cell(t, row, c))
            continue;
        size_t k = 1;
        for (const char *p = table_cell(t, row, c).s; (p = strchr(p, '\n')); p++)
            k++;
        if (k > n)
            n = k;
    }
    return n;
}

/* Output line `line` of a cell, as text and Markdown show it: a COLF_LINES
 * cell's lines one per output line, any other cell all on the first.
 * `scratch` is working space. */
static void cell_line(struct strbuf *out, struct strbuf *scratch, const struct table *t, size_t row,
                      size_t col, size_t line)
{
    if (!(t->cols[col].flags & COLF_LINES)) {
        if (line == 0)
            tabfmt_cell_text(out, t, row, col);
        return;
    }
    sb_clear(scratch);
    tabfmt_cell_text(scratch, t, row, col);
    const char *p = sb_str(scratch), *end = p + scratch->len;
    for (size_t k = 0; k < line && p < end; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    sb_putn(out, p, nl ? (size_t)(nl - p) : (size_t)(end - p));
}

/* ------------------------------------------------------------------------ */

static void put_text(struct strbuf *out, const struct table *t, const struct tabfmt_opts *o)
{
    size_t nrows = row_limit(t, o);
    size_t namew = o->max_name_width ? o->max_name_width : 60;
    size_t *width = xcalloc(t->ncols, sizeof(*width));
    struct strbuf cell = STRBUF_INIT, fit = STRBUF_INIT, scratch = STRBUF_INIT;
    /* Cells are rendered twice (measure, then print) to avoid storing them. */
    for (size_t c = 0; c < t->ncols; c++) {
        if (!shown(t, c, o))
            continue;
        sb_clear(&fit);
        /* A title may carry what the user typed (diff --labels): sanitized. */
        display_sanitize(&fit, col_title(&t->cols[c]), strlen(col_title(&t->cols[c])));
        width[c] = display_width(sb_str(&fit), fit.len);
        for (size_t r = 0; r < nrows; r++) {
            size_t lines = t->cols[c].flags & COLF_LINES ? row_lines(t, r, o) : 1;
            for (size_t l = 0; l < lines; l++) {
                sb_clear(&cell);
                cell_line(&cell, &scratch, t, r, c, l);
                sb_clear(&fit);
                size_t cap = (t->cols[c].flags & COLF_WIDE) ? namew : 200;
                size_t w = display_fit(&fit, sb_str(&cell), cell.len, cap, true, o->ascii);
                if (w > width[c])
                    width[c] = w;
            }
        }
    }
    sb_clear(&fit);
    display_sanitize(&fit, t->title, strlen(t->title));
    sb_printf(out, "%s\n", sb_str(&fit));
    for (int pass = 0; pass < 2; pass++) {
        bool first = true;
        for (size_t c = 0; c < t->ncols; c++) {
            if (!shown(t, c, o))
                continue;
            sb_clear(&fit);
            display_sanitize(&fit, col_title(&t->cols[c]), strlen(col_title(&t->cols[c])));
            const char *title = sb_str(&fit);
            size_t w = display_width(title, fit.len);
            if (!first)
                sb_puts(out, "  ");
            first = false;
            bool left = t->cols[c].kind == COL_TEXT;
            if (pass == 0) {
                if (!left)
                    for (size_t k = w; k < width[c]; k++)
                        sb_putc(out, ' ');
                sb_puts(out, title);
                if (left && c + 1 < t->ncols)
                    for (size_t k = w; k < width[c]; k++)
                        sb_putc(out, ' ');
            } else {
                for (size_t k = 0; k < width[c]; k++)
                    sb_putc(out, '-');
            }
        }
        sb_putc(out, '\n');
    }
    for (size_t r = 0; r < nrows; r++) {
        size_t lines = row_lines(t, r, o);
        for (size_t l = 0; l < lines; l++) {
            bool first = true;
            for (size_t c = 0; c < t->ncols; c++) {
                if (!shown(t, c, o))
                    continue;
                sb_clear(&cell);
                cell_line(&cell, &scratch, t, r, c, l);
                sb_clear(&fit);
                size_t cap = (t->cols[c].flags & COLF_WIDE) ? namew : 200;
                size_t w = display_fit(&fit, sb_str(&cell), cell.len, cap, true, o->ascii);
                if (!first)
                    sb_puts(out, "  ");
                first = false;
                bool left = t->cols[c].kind == COL_TEXT;
                if (!left)
                    for (size_t k = w; k < width[c]; k++)
                        sb_putc(out, ' ');
                sb_putn(out, fit.s ? fit.s : "", fit.len);
                if (left && c + 1 < t->ncols)
                    for (size_t k = w; k < width[c]; k++)
                        sb_putc(out, ' ');
            }
            /* No trailing blanks. */
            while (out->len && out->s[out->len - 1] == ' ')
                out->s[--out->len] = '\0';
            sb_putc(out, '\n');
        }
    }
    size_t more = t->nrows - nrows + t->rows_left_out;
    if (more)
        sb_printf(out, "(%zu more %s)\n", more, more == 1 ? "row" : "rows");
    for (size_t i = 0; i < t->notes.n; i++) {
        sb_clear(&fit);
        display_sanitize(&fit, t->notes.v[i], strlen(t->notes.v[i]));
        sb_printf(out, "note: %s\n", sb_str(&fit));
    }
    sb_free(&cell);
    sb_free(&fit);
    sb_free(&scratch);
    free(width);
}

/* ------------------------------------------------------------------------ */

/* A decimal number as a spreadsheet reads one: [+-]digits[.digits][e[+-]digits]. */
static bool is_number_text(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        i++;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (!digits)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t exp = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == exp)
            return false;
    }
    return i == n;
}

bool tabfmt_csv_formula_like(const char *s, size_t n)
{
    return n && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') && !is_number_text(s, n);
}

/* CSV cells are sanitized like text output (control bytes escaped), so a
 * report can be printed to a terminal safely; JSON keeps exact strings.
 * The lines of a COLF_LINES cell (`lines`) are sanitized one by one and
 * keep their newlines, inside the quoted field. A text cell that a
 * spreadsheet would run as a formula (`guard`, tabfmt_csv_formula_like)
 * gets a leading apostrophe, which spreadsheets read as "this is text". */
static void put_csv_field(struct strbuf *out, const char *raw, size_t rawn, bool lines, bool guard)
{
    struct strbuf clean = STRBUF_INIT;
    if (guard && tabfmt_csv_formula_like(raw, rawn))
        sb_putc(&clean, '\'');
    for (size_t i = 0; i < rawn;) {
        const char *nl = lines ? memchr(raw + i, '\n', rawn - i) : NULL;
        size_t n = nl ? (size_t)(nl - (raw + i)) : rawn - i;
        display_sanitize(&clean, raw + i, n);
        if (nl)
            sb_putc(&clean, '\n');
        i += n + (nl != NULL);
    }
    const char *s = sb_str(&clean);
    size_t n = clean.len;
    bool quote = n && (s[0] == ' ' || s[n - 1] == ' ');
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        sb_putn(out, s, n);
        sb_free(&clean);
        return;
    }
    sb_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            sb_putc(out, '"');
        sb_putc(out, s[i]);
    }
    sb_putc(out, '"');
    sb_free(&clean);
}

static void put_csv(struct strbuf *out, const struct table *t, const struct tabfmt_opts *o)
{
    struct strbuf cell = STRBUF_INIT;
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            sb_putc(out, ',');
        put_csv_field(out, t->cols[c].name, strlen(t->cols[c].name), false, false);
    }
    sb_puts(out, "\r\n");
    size_t nrows = row_limit(t, o);
    for (size_t r = 0; r < nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                sb_putc(out, ',');
            sb_clear(&cell);
            tabfmt_cell_plain(&cell, t, r, c);
            if (!cell.len && (t->cols[c].flags & COLF_CSV_NAN))
                sb_puts(&cell, "nan");
            put_csv_field(out, sb_str(&cell), cell.len, t->cols[c].flags & COLF_LINES,
                          t->cols[c].kind == COL_TEXT && !o->csv_raw);
        }
        sb_puts(out, "\r\n");
    }
    sb_free(&cell);
}

/* ------------------------------------------------------------------------ */

static const char *kind_name(uint8_t k)
{
    switch (k) {
    case COL_TEXT:
        return "text";
    case COL_INT:
        return "int";
    case COL_PERCENT:
        return "percent";
    default:
        return "float";
    }
}

static void put_json(struct strbuf *out, const struct table *t, const struct tabfmt_opts *o)
{
    sb_puts(out, "{\"name\": ");
    sb_put_json_string(out, t->name, strlen(t->name));
    sb_puts(out, ", \"title\": ");
    sb_put_json_string(out, t->title, strlen(t->title));
    sb_puts(out, ", \"columns\": [");
    for (size_t c = 0; c < t->ncols; c++) {
        sb_puts(out, c ? ", {\"name\": " : "{\"name\": ");
        sb_put_json_string(out, t->cols[c].name, strlen(t->cols[c].name));
        sb_printf(out, ", \"kind\": \"%s\"}", kind_name(t->cols[c].kind));
    }
    /* total_rows tells a reader of a --top cut how many rows were left out. */
    sb_printf(out, "], \"total_rows\": %zu, \"rows\": [", t->nrows + t->rows_left_out);
    size_t nrows = row_limit(t, o);
    for (size_t r = 0; r < nrows; r++) {
        sb_puts(out, r ? ",\n  {" : "\n  {");
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                sb_puts(out, ", ");
            sb_put_json_string(out, t->cols[c].name, strlen(t->cols[c].name));
            sb_puts(out, ": ");
            union cell v = table_cell(t, r, c);
            if (empty_cell(t, r, c))
                sb_puts(out, "null");
            else if (t->cols[c].kind == COL_TEXT)
                sb_put_json_string(out, v.s, strlen(v.s));
            else if (t->cols[c].kind == COL_INT)
                sb_printf(out, "%lld", (long long)v.i);
            else
                put_real(out, v.f);
        }
        sb_putc(out, '}');
    }
    sb_puts(out, nrows ? "\n], \"notes\": [" : "], \"notes\": [");
    for (size_t i = 0; i < t->notes.n; i++) {
        if (i)
            sb_puts(out, ", ");
        sb_put_json_string(out, t->notes.v[i], strlen(t->notes.v[i]));
    }
    sb_puts(out, "]}");
}

/* ------------------------------------------------------------------------ */

void tabfmt_md_text(struct strbuf *out, const char *s, size_t n)
{
    struct strbuf clean = STRBUF_INIT;
    display_sanitize(&clean, s, n);
    for (size_t i = 0; i < clean.len; i++) {
        char ch = clean.s[i];
        if (ch == '|')
            sb_puts(out, "\\|");
        else if (ch == '\\' || ch == '`' || ch == '*' || ch == '_' || ch == '<' || ch == '[')
            sb_putc(out, '\\'), sb_putc(out, ch);
        else
            sb_putc(out, ch);
    }
    sb_free(&clean);
}

static void put_md(struct strbuf *out, const struct table *t, const struct tabfmt_opts *o)
{
    struct strbuf cell = STRBUF_INIT, scratch = STRBUF_INIT;
    sb_puts(out, "### ");
    tabfmt_md_text(out, t->title, strlen(t->title));
    sb_puts(out, "\n\n|");
    for (size_t c = 0; c < t->ncols; c++) {
        if (!shown(t, c, o))
            continue;
        sb_putc(out, ' ');
        tabfmt_md_text(out, col_title(&t->cols[c]), strlen(col_title(&t->cols[c])));
        sb_puts(out, " |");
    }
    sb_puts(out, "\n|");
    for (size_t c = 0; c < t->ncols; c++)
        if (shown(t, c, o))
            sb_puts(out, t->cols[c].kind == COL_TEXT ? "---|" : "---:|");
    sb_putc(out, '\n');
    size_t nrows = row_limit(t, o);
    for (size_t r = 0; r < nrows; r++) {
        size_t lines = row_lines(t, r, o);
        for (size_t l = 0; l < lines; l++) {
            sb_putc(out, '|');
            for (size_t c = 0; c < t->ncols; c++) {
                if (!shown(t, c, o))
                    continue;
                sb_clear(&cell);
                cell_line(&cell, &scratch, t, r, c, l);
                sb_putc(out, ' ');
                tabfmt_md_text(out, sb_str(&cell), cell.len);
                sb_puts(out, " |");
            }
            sb_putc(out, '\n');
        }
    }
    size_t more = t->nrows - nrows + t->rows_left_out;
    if (more)
        sb_printf(out, "\n(%zu more %s)\n", more, more == 1 ? "row" : "rows");
    for (size_t i = 0; i < t->notes.n; i++) {
        sb_puts(out, "\n> ");
        tabfmt_md_text(out, t->notes.v[i], strlen(t->notes.v[i]));
        sb_putc(out, '\n');
    }
    sb_free(&cell);
    sb_free(&scratch);
}

void tabfmt_table(struct strbuf *out, const struct table *t, const struct tabfmt_opts *o)
{
    switch (o->format) {
    case FMT_TEXT:
        put_text(out, t, o);
        break;
    case FMT_CSV:
        put_csv(out, t, o);
        break;
    case FMT_JSON:
        put_json(out, t, o);
        break;
    case FMT_MD:
        put_md(out, t, o);
        break;
    }
}

void tabfmt_list(struct strbuf *out, const struct table_list *l, const struct tabfmt_opts *o,
                 const char *header_json)
{
    if (o->format == FMT_JSON) {
        sb_putc(out, '{');
        if (header_json)
            sb_printf(out, "\"trace\": %s,\n", header_json);
        sb_puts(out, "\"tables\": [\n");
        for (size_t i = 0; i < l->items.n; i++) {
            if (i)
                sb_puts(out, ",\n");
            put_json(out, l->items.v[i], o);
        }
        sb_puts(out, "\n]}\n");
        return;
    }
    for (size_t i = 0; i < l->items.n; i++) {
        const struct table *t = l->items.v[i];
        if (i)
            sb_puts(out, o->format == FMT_CSV ? "\r\n" : "\n");
        if (o->format == FMT_CSV && l->items.n > 1)
            sb_printf(out, "# %s\r\n", t->name);
        tabfmt_table(out, t, o);
    }
}
