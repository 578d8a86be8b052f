/* Detail text of the selection: its lines, built by the panes and the
 * documents' sections. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/frame/app.h"
#include "tui/frame/detail.h"

void detail_clear(struct detail_out *d)
{
    for (size_t i = 0; i < d->lines.n; i++) {
        free(d->lines.v[i].key);
        free(d->lines.v[i].val);
    }
    d->lines.n = 0;
}

static struct dline *add(struct detail_out *d, const char *key, const char *val, size_t n)
{
    struct dline *l = VEC_ADD(&d->lines);
    l->elem = C_DEFAULT;
    l->key = key ? xstrdup(key) : NULL;
    l->val = xstrndup(val ? val : "", val ? n : 0);
    l->vlen = val ? n : 0;
    l->ev = IDX_NONE;
    return l;
}

void detail_link(struct detail_out *d, uint32_t ev)
{
    if (d->lines.n)
        d->lines.v[d->lines.n - 1].ev = ev;
}

void detail_heading(struct detail_out *d, const char *title)
{
    struct dline *l = add(d, NULL, title, strlen(title));
    l->heading = true;
}

void detail_kv(struct detail_out *d, const char *key, const char *val, size_t n)
{
    add(d, key, val, n);
}

void detail_kvf(struct detail_out *d, const char *key, const char *fmt, ...)
{
    struct strbuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    add(d, key, sb_str(&sb), sb.len);
    sb_free(&sb);
}

void detail_wrap(struct detail_out *d, const char *key, const char *val, size_t n,
                 enum color_elem e)
{
    struct dline *l = add(d, key, val, n);
    l->wrap = true;
    l->elem = (uint8_t)e;
}

void detail_textf(struct detail_out *d, enum color_elem e, const char *fmt, ...)
{
    struct strbuf sb = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    struct dline *l = add(d, NULL, sb_str(&sb), sb.len);
    l->elem = (uint8_t)e;
    /* Sentences wrap: a cut one reads as nonsense ("Enter sh…s them"). */
    l->wrap = true;
    sb_free(&sb);
}
