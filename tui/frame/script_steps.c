/* Reading script steps (tui/frame/script_steps.h). */
#include "config.h"

#include "tui/frame/script_steps.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/base/display.h"
#include "core/base/outfile.h"
#include "tui/frame/keymap.h"

bool script_reader_open(struct script_reader *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) {
        struct strbuf sb = STRBUF_INIT;
        display_sanitize(&sb, path, strlen(path));
        fprintf(stderr, "torchtop: cannot read the script %s\n", sb_str(&sb));
        sb_free(&sb);
        return false;
    }
    return true;
}

char *script_reader_next(struct script_reader *r)
{
    ssize_t len;
    while ((len = getline(&r->line, &r->cap, r->f)) >= 0) {
        r->lineno++;
        while (len > 0 && isspace((unsigned char)r->line[len - 1]))
            r->line[--len] = '\0';
        char *s = r->line;
        while (isspace((unsigned char)*s))
            s++;
        if (*s && *s != '#')
            return s;
    }
    return NULL;
}

void script_reader_close(struct script_reader *r)
{
    if (r->f)
        fclose(r->f);
    free(r->line);
    memset(r, 0, sizeof(*r));
}

int script_fail(const struct script_reader *r, const char *step, const char *why)
{
    struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
    sb_printf(&sb, "%s:%d: %s: %s", r->path, r->lineno, why, step);
    display_sanitize(&out, sb_str(&sb), sb.len);
    fprintf(stderr, "torchtop: %s\n", sb_str(&out));
    sb_free(&sb);
    sb_free(&out);
    return 1;
}

const char *script_step_word(const char *step, char *word, size_t n)
{
    const char *arg = step;
    while (*arg && !isspace((unsigned char)*arg))
        arg++;
    size_t wlen = (size_t)(arg - step);
    if (wlen >= n)
        wlen = n - 1;
    memcpy(word, step, wlen);
    word[wlen] = '\0';
    while (isspace((unsigned char)*arg))
        arg++;
    return arg;
}

bool script_feed_keys(const char *s, bool literal, bool (*feed)(void *ud, int key), void *ud)
{
    while (*s) {
        int key;
        size_t used;
        if (!literal && *s == ' ') {
            s++;
            continue;
        }
        if (literal && *s == '<') {
            key = '<';
            used = 1;
        } else {
            used = keymap_key_parse(s, &key);
        }
        if (!used)
            return false;
        if (!feed(ud, key))
            return true;
        s += used;
    }
    return true;
}

bool script_parse_size(const char *s, int *cols, int *lines)
{
    int w, h;
    if (sscanf(s, "%dx%d", &w, &h) != 2 || w < 1 || h < 1 || w > 1000 || h > 1000)
        return false;
    *cols = w;
    *lines = h;
    return true;
}

bool script_write_text(const char *path, const struct strbuf *text)
{
    struct outfile of;
    struct errinfo err = {0};
    bool ok = false;
    if (outfile_open(&of, path, &err) == ST_OK) {
        if (write(of.fd, text->s ? text->s : "", text->len) == (ssize_t)text->len)
            ok = outfile_commit(&of, &err) == ST_OK;
        else
            outfile_discard(&of);
    }
    errinfo_clear(&err);
    return ok;
}
