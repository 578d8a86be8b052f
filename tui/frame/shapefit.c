/* Shape tuples fitted to a column: blanks dropped first, then the items the
 * neighbouring rows share, then trailing items, the first item kept whole. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "tui/frame/shapefit.h"
#include "tui/frame/text.h"

#define ELLIPSIS "\xe2\x80\xa6"

size_t shapefit_items(const char *s, size_t n, size_t *off, size_t *len, size_t max)
{
    if (n < 2 || !((s[0] == '(' && s[n - 1] == ')') || (s[0] == '[' && s[n - 1] == ']')))
        return 0;
    size_t k = 0, start = 1;
    int depth = 0;
    char quote = 0;
    for (size_t i = 1; i < n - 1; i++) {
        char c = s[i];
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '\'' || c == '"')
            quote = c;
        else if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == ',' && depth == 0) {
            if (k == max)
                return 0;
            off[k] = start;
            len[k++] = i - start;
            start = i + 1;
            if (start < n - 1 && s[start] == ' ')
                start++;
        }
        if (depth < 0)
            return 0;
    }
    if (depth != 0 || quote)
        return 0;
    /* "(x,)": the trailing comma leaves no item after it. */
    if (start < n - 1) {
        if (k == max)
            return 0;
        off[k] = start;
        len[k++] = n - 1 - start;
    }
    return k;
}

/* Append s[0..n) with the blank after each comma outside quotes dropped. */
static void put_compact(struct strbuf *out, const char *s, size_t n)
{
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        sb_putc(out, c);
        if (quote) {
            if (c == '\\' && i + 1 < n)
                sb_putc(out, s[++i]);
            else if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == ',' && i + 1 < n && s[i + 1] == ' ') {
            i++;
        }
    }
}

/* Short names of recorded dtypes, as the compact form prints them. */
static const struct {
    const char *name, *brief;
} dtype_briefs[] = {
    {"c10::BFloat16", "bf16"},
    {"c10::Half", "f16"},
    {"float", "f32"},
    {"double", "f64"},
    {"long int", "i64"},
    {"int", "i32"},
    {"short int", "i16"},
    {"signed char", "i8"},
    {"unsigned char", "u8"},
    {"c10::Float8_e4m3fn", "f8e4m3"},
    {"c10::Float8_e4m3fnuz", "f8e4m3fnuz"},
    {"c10::Float8_e5m2", "f8e5m2"},
    {"c10::Float8_e5m2fnuz", "f8e5m2fnuz"},
    {"c10::complex<float>", "c64"},
    {"c10::complex<double>", "c128"},
    {"Scalar", "Scalar"},
    {"bool", "bool"},
};

const char *shapefit_dtype_brief(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof(dtype_briefs) / sizeof(dtype_briefs[0]); i++)
        if (strlen(dtype_briefs[i].name) == n && memcmp(dtype_briefs[i].name, s, n) == 0)
            return dtype_briefs[i].brief;
    return NULL;
}

/* One item in the compact form: a quoted dtype name as its short name. */
static void put_item(struct strbuf *out, const char *s, size_t n)
{
    const char *brief = NULL;
    if (n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n - 1] == s[0])
        brief = shapefit_dtype_brief(s + 1, n - 2);
    if (brief)
        sb_puts(out, brief);
    else
        put_compact(out, s, n);
}

/* The tuple with the items in `cut` shown as one ellipsis per run, and
 * every item from `tail` on as one ellipsis. */
static void render(struct strbuf *raw, const char *s, const size_t *off, const size_t *len,
                   size_t k, uint64_t cut, size_t tail)
{
    sb_clear(raw);
    sb_putc(raw, s[0]);
    bool prev_cut = false;
    for (size_t i = 0; i < k; i++) {
        bool c = i >= tail || (i < 64 && (cut >> i & 1));
        if (c && prev_cut)
            continue;
        if (i)
            sb_putc(raw, ',');
        if (c)
            sb_puts(raw, ELLIPSIS);
        else
            put_item(raw, s + off[i], len[i]);
        prev_cut = c;
    }
    if (k == 1 && tail > 0 && !(cut & 1))
        sb_putc(raw, ',');
    sb_putc(raw, s[0] == '[' ? ']' : ')');
}

/* Append raw cleaned when it fits in width; true when it did. */
static bool try_put(struct strbuf *out, struct strbuf *clean, const struct strbuf *raw,
                    size_t width, bool ascii, size_t *cols)
{
    sb_clear(clean);
    text_clean(clean, raw->s ? raw->s : "", raw->len, ascii);
    size_t w = text_width(sb_str(clean), clean->len);
    if (w > width)
        return false;
    sb_putn(out, sb_str(clean), clean->len);
    *cols = w;
    return true;
}

/* Whether item i goes before item j when items are cut: fewer distinct
 * values among the row's neighbours first, then the later item. */
static bool cut_before(const uint8_t *spread, size_t i, size_t j)
{
    unsigned si = spread && i < SHAPEFIT_RANKED ? spread[i] : 0;
    unsigned sj = spread && j < SHAPEFIT_RANKED ? spread[j] : 0;
    return si != sj ? si < sj : i > j;
}

size_t shapefit_fit(struct strbuf *out, const char *s, size_t n, size_t width,
                    const uint8_t *spread, bool ascii)
{
    struct strbuf clean = STRBUF_INIT, raw = STRBUF_INIT;
    size_t cols = 0;
    text_clean(&clean, s, n, ascii);
    size_t whole = text_width(sb_str(&clean), clean.len);
    if (whole <= width) {
        sb_putn(out, sb_str(&clean), clean.len);
        sb_free(&clean);
        return whole;
    }
    size_t off[SHAPEFIT_MAX_ITEMS], len[SHAPEFIT_MAX_ITEMS];
    size_t k = shapefit_items(s, n, off, len, SHAPEFIT_MAX_ITEMS);
    if (k == 0) {
        sb_free(&clean);
        return text_fit(out, s, n, width, true, ascii);
    }
    uint64_t cut = 0;
    render(&raw, s, off, len, k, cut, k);
    if (try_put(out, &clean, &raw, width, ascii, &cols))
        goto done;
    /* Items go one at a time, least telling first; the most telling stays. */
    size_t order[SHAPEFIT_MAX_ITEMS];
    for (size_t i = 0; i < k; i++) {
        size_t j = i;
        while (j > 0 && cut_before(spread, i, order[j - 1])) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    for (size_t c = 0; c + 1 < k; c++) {
        cut |= (uint64_t)1 << order[c];
        render(&raw, s, off, len, k, cut, k);
        if (try_put(out, &clean, &raw, width, ascii, &cols))
            goto done;
    }
    cols = text_fit(out, sb_str(&raw), raw.len, width, false, ascii);
done:
    sb_free(&clean);
    sb_free(&raw);
    return cols;
}

struct named_row {
    const char *name;
    uint32_t row;
};

static int named_row_cmp(const void *pa, const void *pb)
{
    const struct named_row *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->row > b->row) - (a->row < b->row);
}

static const char *cell_text(const struct table *tab, size_t r, size_t c)
{
    const char *s = table_cell(tab, r, c).s;
    return s ? s : "";
}

static int u64_cmp(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

uint8_t *shapefit_spread(const struct table *tab, size_t col)
{
    size_t n = tab->nrows, name = table_name_col(tab);
    uint8_t *spread = xcalloc((n + 1) * SHAPEFIT_RANKED, 1);
    struct named_row *byname = xmalloc((n + 1) * sizeof(*byname));
    for (size_t r = 0; r < n; r++)
        byname[r] = (struct named_row){cell_text(tab, r, name), (uint32_t)r};
    sort_items(byname, n, sizeof(*byname), named_row_cmp);
    size_t off[SHAPEFIT_MAX_ITEMS], len[SHAPEFIT_MAX_ITEMS];
    uint64_t *h = xmalloc((n + 1) * SHAPEFIT_RANKED * sizeof(uint64_t));
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && strcmp(byname[a].name, byname[b].name) == 0)
            b++;
        size_t g = b - a;
        if (g > 1) {
            /* Item i of each row of the group, hashed (0: the row has none),
             * laid out item-major so that each item's hashes sort alone. */
            for (size_t m = 0; m < g; m++) {
                const char *t = cell_text(tab, byname[a + m].row, col);
                size_t k = shapefit_items(t, strlen(t), off, len, SHAPEFIT_MAX_ITEMS);
                for (size_t i = 0; i < SHAPEFIT_RANKED; i++)
                    h[i * g + m] = i < k ? hash_bytes(t + off[i], len[i]) | 1 : 0;
            }
            for (size_t i = 0; i < SHAPEFIT_RANKED; i++) {
                uint64_t *v = h + i * g;
                sort_items(v, g, sizeof(*v), u64_cmp);
                size_t d = 1;
                for (size_t m = 1; m < g; m++)
                    d += v[m] != v[m - 1];
                for (size_t m = 0; m < g; m++)
                    spread[(size_t)byname[a + m].row * SHAPEFIT_RANKED + i] =
                        (uint8_t)(d < 255 ? d : 255);
            }
        }
        a = b;
    }
    free(h);
    free(byname);
    return spread;
}

bool shapefit_dtypes(struct strbuf *out, const char *s, size_t n)
{
    size_t off[SHAPEFIT_MAX_ITEMS], len[SHAPEFIT_MAX_ITEMS];
    size_t k = shapefit_items(s, n, off, len, SHAPEFIT_MAX_ITEMS);
    const char *brief[SHAPEFIT_MAX_ITEMS];
    for (size_t i = 0; i < k; i++) {
        const char *it = s + off[i];
        size_t m = len[i];
        brief[i] = m >= 2 && (it[0] == '\'' || it[0] == '"') && it[m - 1] == it[0]
                       ? shapefit_dtype_brief(it + 1, m - 2)
                       : NULL;
        if (!brief[i])
            return false;
    }
    for (size_t i = 0; i < k; i++) {
        if (i)
            sb_puts(out, "\xc3\x97");
        sb_puts(out, brief[i]);
    }
    return k > 0;
}
