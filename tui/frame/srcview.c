/* Source preview: reading a file safely, its lines cleaned, and drawing a
 * window of it with the line of a frame marked. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/analysis/analysis.h"
#include "core/trace/trace.h"
#include "tui/frame/keymap.h"
#include "tui/frame/pane.h"
#include "tui/frame/text.h"
#include "tui/frame/view.h"
#include "tui/frame/draw.h"
#include "tui/frame/srcview.h"

void srcview_init(struct srcview *sv)
{
    memset(sv, 0, sizeof(*sv));
}

void srcview_done(struct srcview *sv)
{
    free(sv->path);
    free(sv->note);
    sb_free(&sv->text);
    VEC_FREE(&sv->off);
    memset(sv, 0, sizeof(*sv));
}

/* Append line s[0..n) with tabs expanded, then cleaned. */
static void put_line(struct srcview *sv, struct strbuf *tmp, const char *s, size_t n, bool ascii)
{
    sb_clear(tmp);
    size_t col = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\t') {
            size_t to = (col / SRCVIEW_TAB + 1) * SRCVIEW_TAB;
            for (; col < to; col++)
                sb_putc(tmp, ' ');
            continue;
        }
        sb_putc(tmp, s[i]);
        /* Columns by characters: continuation bytes take none. */
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            col++;
    }
    text_clean(&sv->text, sb_str(tmp), tmp->len, ascii);
    VEC_PUSH(&sv->off, (uint32_t)sv->text.len);
}

void srcview_set_text(struct srcview *sv, const char *buf, size_t n, bool ascii)
{
    sb_clear(&sv->text);
    sv->off.n = 0;
    VEC_PUSH(&sv->off, 0);
    struct strbuf tmp = STRBUF_INIT;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && buf[i] != '\n')
            continue;
        if (i == n && start == n)
            break; /* no empty line after a final newline */
        size_t end = i;
        if (end > start && buf[end - 1] == '\r')
            end--;
        put_line(sv, &tmp, buf + start, end - start, ascii);
        start = i + 1;
    }
    sb_free(&tmp);
    sv->top = 0;
}

bool srcview_open(struct srcview *sv, const char *path, int64_t line, bool ascii, char *why,
                  size_t whyn)
{
    srcview_done(sv);
    /* Non-blocking so that a FIFO never hangs the explorer; only regular
     * files are read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(why, whyn, "%s", strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, whyn, "not a regular file");
        close(fd);
        return false;
    }
    size_t cap = st.st_size > 0 && (uint64_t)st.st_size < SRCVIEW_MAX_BYTES ? (size_t)st.st_size
                                                                            : SRCVIEW_MAX_BYTES;
    char *buf = xmalloc(cap + 1);
    size_t n = 0;
    while (n < cap) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            snprintf(why, whyn, "%s", strerror(errno));
            free(buf);
            close(fd);
            return false;
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    char extra;
    bool cut = n == cap && read(fd, &extra, 1) == 1;
    close(fd);
    if (memchr(buf, '\0', MIN(n, (size_t)8192))) {
        snprintf(why, whyn, "a binary file");
        free(buf);
        return false;
    }
    srcview_set_text(sv, buf, n, ascii);
    free(buf);
    sv->path = xstrdup(path);
    sv->line = line > 0 ? line : 0;
    sv->cut = cut;
    return true;
}

int64_t srcview_find(const struct srcview *sv, const char *text)
{
    size_t tl = strlen(text);
    for (size_t i = 0; i < srcview_lines(sv); i++) {
        const char *s = sv->text.s + sv->off.v[i];
        size_t n = sv->off.v[i + 1] - sv->off.v[i];
        for (size_t k = 0; tl && k + tl <= n; k++)
            if (memcmp(s + k, text, tl) == 0)
                return (int64_t)i + 1;
    }
    return 0;
}

size_t srcview_top_for(size_t nlines, int64_t line, int height)
{
    if (line <= 0 || nlines == 0)
        return 0;
    size_t h = height > 0 ? (size_t)height : 1;
    size_t at = (size_t)line - 1, top = at > h / 3 ? at - h / 3 : 0;
    size_t max_top = nlines > h ? nlines - h : 0;
    return MIN(top, max_top);
}

void srcview_draw(struct srcview *sv, struct view *a, WINDOW *w, int y, int x, int h, int width,
                  bool focused)
{
    size_t n = srcview_lines(sv);
    size_t max_top = n > (size_t)MAX(h, 1) ? n - (size_t)MAX(h, 1) : 0;
    sv->top = MIN(sv->top, max_top);
    char num[32];
    int digits = snprintf(num, sizeof(num), "%zu", MAX(n, (size_t)1));
    int gutter = sv->listing ? 1 : digits + 2;
    const char *mark = a->ascii ? ">" : "\xe2\x96\xb6";
    for (int r = 0; r < h; r++) {
        size_t i = sv->top + (size_t)r;
        if (i >= n)
            break;
        bool marked = sv->line > 0 && (size_t)sv->line == i + 1;
        attr_t at =
            marked ? color_attr(focused ? C_SELECT_FOCUS : C_SELECT) : color_attr(C_DEFAULT);
        if (marked)
            draw_blank(w, y + r, x, width, at);
        snprintf(num, sizeof(num), "%*zu ", sv->listing ? 0 : digits, i + 1);
        if (marked)
            draw_raw(w, y + r, x, mark, at);
        if (!sv->listing)
            draw_fit(w, y + r, x + 1, MIN(gutter - 1, width - 1), num, strlen(num), false, false,
                     marked ? at : color_attr(C_DIM), a->ascii);
        const char *s = sv->text.s + sv->off.v[i];
        size_t len = sv->off.v[i + 1] - sv->off.v[i];
        /* Already clean: drawn as is, cut to the width. */
        draw_fit(w, y + r, x + gutter, width - gutter, s, len, false, false, at, a->ascii);
    }
}

bool srcview_action(struct srcview *sv, enum action act, int height)
{
    size_t n = srcview_lines(sv), h = height > 0 ? (size_t)height : 1;
    size_t max_top = n > h ? n - h : 0, page = h > 1 ? h - 1 : 1;
    switch (act) {
    case A_MOVE_UP:
        sv->top = sv->top ? sv->top - 1 : 0;
        return true;
    case A_MOVE_DOWN:
        sv->top = MIN(sv->top + 1, max_top);
        return true;
    case A_PAGE_UP:
        sv->top = sv->top > page ? sv->top - page : 0;
        return true;
    case A_PAGE_DOWN:
        sv->top = MIN(sv->top + page, max_top);
        return true;
    case A_MOVE_FIRST:
        sv->top = 0;
        return true;
    case A_MOVE_LAST:
        sv->top = max_top;
        return true;
    default:
        return false;
    }
}
