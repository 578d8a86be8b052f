/* Script mode: steps from a file, screen dumps and step timing. */
#include "config.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "core/base/outfile.h"
#include "tui/frame/app.h"
#include "tui/frame/script.h"
#include "tui/frame/script_steps.h"
#include "tui/frame/term.h"

/* The screen as UTF-8 text, one line per row, trailing blanks trimmed. */
static void screen_text(struct strbuf *out)
{
    int lines, cols;
    getmaxyx(curscr, lines, cols);
    wchar_t *buf = xmalloc(((size_t)cols + 1) * sizeof(wchar_t));
    for (int y = 0; y < lines; y++) {
        int n = mvwinnwstr(curscr, y, 0, buf, cols);
        size_t start = out->len;
        for (int i = 0; i < n && buf[i]; i++) {
            char mb[MB_LEN_MAX];
            mbstate_t st;
            memset(&st, 0, sizeof(st));
            size_t k = wcrtomb(mb, buf[i], &st);
            if (k == (size_t)-1)
                sb_putc(out, '?');
            else
                sb_putn(out, mb, k);
        }
        while (out->len > start && out->s[out->len - 1] == ' ')
            out->len--;
        sb_putc(out, '\n');
    }
    free(buf);
}

int script_save_display(const char *path)
{
    struct strbuf sb = STRBUF_INIT;
    screen_text(&sb);
    bool ok = script_write_text(path, &sb);
    sb_free(&sb);
    return ok;
}

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
    return clock_ms(CLOCK_MONOTONIC);
}

/* CPU time of the process, every thread's (user + system): on a shared
 * machine the wall time counts other processes too. */
static double cpu_ms(void)
{
    return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static bool parse_xy(const char *s, int *x, int *y)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s)
        return false;
    long b = strtol(end, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (*end || a < 0 || b < 0 || a > 10000 || b > 10000)
        return false;
    *x = (int)a;
    *y = (int)b;
    return true;
}

static bool feed_app(void *ud, int key)
{
    struct app *a = ud;
    app_key(a, key);
    return !a->quit;
}

static bool feed_keys(struct app *a, const char *s, bool literal)
{
    return script_feed_keys(s, literal, feed_app, a);
}

/* One step. Returns 0, or 1 on an error (printed). */
static int step(struct app *a, const struct script_reader *r, char *line)
{
    char word[48];
    const char *arg = script_step_word(line, word, sizeof(word));

    /* Steps that name a view act on the one shown: the top of the stack. */
    struct app *v = app_top(a);
    if (strcmp(word, "save-display") == 0) {
        if (!*arg)
            return script_fail(r, line, "save-display needs a file name");
        if (!script_save_display(arg))
            return script_fail(r, line, "cannot write the screen");
        return 0;
    }
    if (strcmp(word, "expect") == 0) {
        struct strbuf sb = STRBUF_INIT;
        screen_text(&sb);
        bool ok = strstr(sb_str(&sb), arg) != NULL;
        if (!ok)
            fprintf(stderr, "%s", sb_str(&sb));
        sb_free(&sb);
        return ok ? 0 : script_fail(r, line, "the screen does not show it");
    }
    if (strcmp(word, "resize") == 0) {
        int w, h;
        if (!script_parse_size(arg, &w, &h))
            return script_fail(r, line, "resize needs WIDTHxHEIGHT");
        term_resize_headless(h, w);
        app_resize(a, h, w);
        return 0;
    }
    if (strcmp(word, "wait-analysis") == 0) {
        if (v->doc->settle && v->doc->settle(v))
            app_react(v, v->v.focus == PANE_TABLE ? R_SYNC | R_DIRTY : R_DIRTY);
        return 0;
    }
    if (strcmp(word, "type") == 0)
        return feed_keys(a, arg, true) ? 0 : script_fail(r, line, "bad text");
    if (strcmp(word, "keys") == 0)
        return feed_keys(a, arg, false) ? 0 : script_fail(r, line, "bad key");
    if (strcmp(word, "search") == 0) {
        app_search_set(v, arg);
        return 0;
    }
    if (strcmp(word, "filter") == 0) {
        app_filter_set(v, *arg ? arg : NULL);
        return 0;
    }
    if (strcmp(word, "view") == 0) {
        bool ok = app_table_set_view(v, arg) || (v->doc->show_view && v->doc->show_view(v, arg));
        if (!ok)
            return script_fail(r, line, "no such view");
        app_react(v, v->v.focus == PANE_TABLE ? R_SYNC | R_DIRTY : R_DIRTY);
        return 0;
    }
    if (strcmp(word, "sort-by") == 0) {
        if (!app_table_sort_by(v, arg))
            return script_fail(r, line, "no such column in this view");
        app_react(v, v->v.focus == PANE_TABLE ? R_SYNC | R_DIRTY : R_DIRTY);
        return 0;
    }
    if (strcmp(word, "drag") == 0) {
        int x0, y0, x1, y1;
        char rest[64];
        if (sscanf(arg, "%d %d %d %d %63s", &x0, &y0, &x1, &y1, rest) != 4 || x0 < 0 || y0 < 0 ||
            x1 < 0 || y1 < 0)
            return script_fail(r, line, "needs X0 Y0 X1 Y1");
        app_mouse(a, y0, x0, MOUSE_PRESS);
        app_mouse(a, y1, x1, MOUSE_RELEASE);
        return 0;
    }
    static const struct {
        const char *name;
        int kind;
    } mouse[] = {
        {"click", MOUSE_CLICK},
        {"double-click", MOUSE_DOUBLE},
        {"wheel-up", MOUSE_WHEEL_UP},
        {"wheel-down", MOUSE_WHEEL_DOWN},
    };
    for (size_t i = 0; i < sizeof(mouse) / sizeof(mouse[0]); i++)
        if (strcmp(word, mouse[i].name) == 0) {
            int x, y;
            if (!parse_xy(arg, &x, &y))
                return script_fail(r, line, "needs X Y");
            app_mouse(a, y, x, mouse[i].kind);
            return 0;
        }
    enum action act = action_find(word);
    if (act != A_NONE && !*arg) {
        app_action(a, act);
        return 0;
    }
    return feed_keys(a, line, false) ? 0 : script_fail(r, line, "unknown step");
}

int script_run(struct app *a, const char *path, const char *timing_path)
{
    struct script_reader r;
    if (!script_reader_open(&r, path))
        return 1;
    /* The timing file appears whole when the script ends. */
    FILE *timing = NULL;
    struct outfile tof = {.fd = -1};
    struct errinfo terr = {0};
    if (timing_path) {
        int fd = outfile_open(&tof, timing_path, &terr) == ST_OK ? dup(tof.fd) : -1;
        timing = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!timing) {
            if (fd >= 0)
                close(fd);
            outfile_discard(&tof);
            errinfo_clear(&terr);
            script_reader_close(&r);
            fprintf(stderr, "torchtop: cannot write %s\n", timing_path);
            return 1;
        }
    }
    app_render(a);
    int rc = 0;
    char *s;
    while (!a->quit && (s = script_reader_next(&r))) {
        double t0 = now_ms(), c0 = cpu_ms();
        rc = step(a, &r, s);
        if (rc)
            break;
        app_render(a);
        if (timing) {
            char *sp = strpbrk(s, " \t");
            int wl = sp ? (int)(sp - s) : (int)strlen(s);
            fprintf(timing, "%.*s\t%.3f\t%.3f\n", wl, s, now_ms() - t0, cpu_ms() - c0);
        }
        /* Work left in the background (rows still to be made, symbolizer
         * answers) is done before the next step, so that screens never
         * depend on timing. It goes in the bounded steps the key loop
         * takes between keys, each timed as "(idle)": the longest a key
         * can wait behind one. */
        while (app_busy(a)) {
            double t1 = now_ms(), c1 = cpu_ms();
            if (!app_tick(a, false))
                app_tick(a, true);
            app_render(a);
            if (timing)
                fprintf(timing, "(idle)\t%.3f\t%.3f\n", now_ms() - t1, cpu_ms() - c1);
        }
    }
    script_reader_close(&r);
    if (timing) {
        if (fclose(timing) == 0 && outfile_commit(&tof, &terr) == ST_OK) {
            errinfo_clear(&terr);
        } else {
            outfile_discard(&tof);
            errinfo_clear(&terr);
            fprintf(stderr, "torchtop: cannot write %s\n", timing_path);
            rc = rc ? rc : 1;
        }
    }
    return rc;
}
