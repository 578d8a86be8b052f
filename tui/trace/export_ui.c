/* Export of a slice from the explorer: what to write, the file name
 * prompt, the overwrite question and the message of what was written. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/trace/export.h"
#include "tui/frame/app.h"
#include "tui/trace/explore.h"
#include "tui/trace/export_ui.h"
#include "tui/frame/overlay.h"

/* What the open prompt will write: one export at a time, as there is one
 * prompt. The prompts and the menu get it as their ctx. */
struct export_ui {
    struct export_sel sel; /* the subtree or the window */
    char what[160];        /* for the message: "subtree of aten::mm" */
    char *path;            /* waiting for the overwrite answer (owned) */
    bool gzip;             /* path ends in .gz */
};

/* ------------------------------------------------------------------------ */
/* Names                                                                    */
/* ------------------------------------------------------------------------ */

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

void export_ui_default_name(char *buf, size_t n, const char *trace_name, const char *what)
{
    if (!n)
        return;
    const char *base = trace_name ? trace_name : "";
    const char *slash = strrchr(base, '/');
    if (slash && slash[1])
        base = slash + 1;
    size_t len = strlen(base);
    static const char *const drop[] = {".gz", ".json", ".pt.trace"};
    for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
        if (ends_with(base, len, drop[i]))
            len -= strlen(drop[i]);
    if (!len) {
        base = "trace";
        len = 5;
    }
    char tail[64];
    snprintf(tail, sizeof(tail), "-%s.json.gz", what);
    size_t tl = strlen(tail);
    size_t room = n > tl + 1 ? n - tl - 1 : 0;
    if (len > room)
        len = room;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)base[i];
        buf[i] = (isalnum(c) || c == '.' || c == '_' || c == '-') && c < 0x80 ? (char)c : '_';
    }
    snprintf(buf + len, n - len, "%s", tail);
}

bool export_ui_path(const char *typed, const char *home, struct strbuf *out, bool *gzip, char *err,
                    size_t errn)
{
    const char *s = typed ? typed : "";
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n) {
        snprintf(err, errn, "no file name given");
        return false;
    }
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
            snprintf(err, errn, "the file name holds a control character");
            return false;
        }
    if (s[n - 1] == '/') {
        snprintf(err, errn, "the name is a directory: add a file name");
        return false;
    }
    sb_clear(out);
    if (n >= 2 && s[0] == '~' && s[1] == '/' && home && *home) {
        sb_puts(out, home);
        sb_putn(out, s + 1, n - 1);
    } else {
        sb_putn(out, s, n);
    }
    *gzip = ends_with(s, n, ".gz");
    return true;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                  */
/* ------------------------------------------------------------------------ */

static void write_now(struct app *a, struct export_ui *x, const char *path, bool gzip)
{
    const struct trace *t = a->v.t;
    uint8_t *keep = xcalloc(t->ev.n + 1, 1);
    char err[256];
    if (!export_select(t, &x->sel, keep, err)) {
        app_error(a, "export: %s", err);
        free(keep);
        return;
    }
    app_message(a, "writing %s ...", path);
    app_render(a);
    uint64_t nev = 0, nflows = 0;
    struct errinfo ei = {0};
    enum status st = export_chrome(t, keep, path, gzip, &nev, &nflows, &ei);
    free(keep);
    if (st != ST_OK) {
        char *m = errinfo_format(&ei);
        app_error(a, "export failed: %s", m);
        free(m);
        errinfo_clear(&ei);
        return;
    }
    errinfo_clear(&ei);
    char ne[32], nf[32];
    text_count(ne, sizeof(ne), nev);
    text_count(nf, sizeof(nf), nflows);
    app_message(a, "wrote %s events and %s flows (%s) to %s", ne, nf, x->what, path);
}

static void overwrite_done(struct app *a, void *ctx, const char *text)
{
    struct export_ui *x = ctx;
    char *path = x->path;
    x->path = NULL;
    if (!path)
        return;
    if (text && (strcmp(text, "y") == 0 || strcmp(text, "yes") == 0 || strcmp(text, "Y") == 0))
        write_now(a, x, path, x->gzip);
    else
        app_message(a, "not written: %s exists", path);
    free(path);
}

static void name_done(struct app *a, void *ctx, const char *text)
{
    struct export_ui *x = ctx;
    struct strbuf path = STRBUF_INIT;
    char err[160];
    bool gzip;
    if (!export_ui_path(text, getenv("HOME"), &path, &gzip, err, sizeof(err))) {
        app_error(a, "export: %s", err);
        sb_free(&path);
        return;
    }
    struct stat st;
    if (stat(sb_str(&path), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            app_error(a, "export: %s is a directory", sb_str(&path));
            sb_free(&path);
            return;
        }
        free(x->path);
        x->path = sb_steal(&path);
        x->gzip = gzip;
        overlay_prompt(a, "file exists; overwrite? (y/n) ", NULL, overwrite_done, x);
        return;
    }
    write_now(a, x, sb_str(&path), gzip);
    sb_free(&path);
}

/* ------------------------------------------------------------------------ */
/* What to write                                                            */
/* ------------------------------------------------------------------------ */

/* The span whose subtree the selection stands for: the selection itself
 * when it is a host span, the op that launched it when it is GPU work. */
static uint32_t subtree_root(const struct trace *t, uint32_t ev)
{
    if (ev >= t->ev.n)
        return IDX_NONE;
    const struct event *e = trace_ev(t, ev);
    if (evk_is_host_span(e->kind))
        return ev;
    const struct gpu_info *g = evk_is_gpu(e->kind) ? ev_gpu(t, ev) : NULL;
    if (g && g->launcher != IDX_NONE)
        return g->launcher;
    if (g && g->launch != IDX_NONE)
        return g->launch;
    return IDX_NONE;
}

static unsigned ask_name(struct app *a, struct export_ui *x, const char *what)
{
    char name[256];
    export_ui_default_name(name, sizeof(name), a->name, what);
    overlay_prompt(a, "export to: ", name, name_done, x);
    return R_HANDLED;
}

static unsigned start_subtree(struct app *a, struct export_ui *x)
{
    uint32_t root = subtree_root(a->v.t, a->v.sel);
    if (root == IDX_NONE) {
        app_error(a, "export: select an op, a Python frame or a kernel first");
        return R_HANDLED;
    }
    memset(&x->sel, 0, sizeof(x->sel));
    x->sel.kind = EXPORT_SUBTREE;
    x->sel.root = root;
    struct strbuf sb = STRBUF_INIT;
    text_clean(&sb, ev_name(a->v.t, root), strtab_len(&a->v.t->strs, trace_ev(a->v.t, root)->name),
               a->v.ascii);
    snprintf(x->what, sizeof(x->what), "subtree of %.120s%s", sb_str(&sb),
             root != a->v.sel ? ", the launcher" : "");
    sb_free(&sb);
    char what[32];
    snprintf(what, sizeof(what), "subtree-%u", root);
    return ask_name(a, x, what);
}

static unsigned start_window(struct app *a, struct export_ui *x)
{
    int64_t from, to;
    if (!explore_timeline_window(a, &from, &to)) {
        app_error(a, "export: there is no timeline to take the window of");
        return R_HANDLED;
    }
    memset(&x->sel, 0, sizeof(x->sel));
    x->sel.kind = EXPORT_WINDOW;
    x->sel.from = from;
    x->sel.to = to;
    snprintf(x->what, sizeof(x->what), "window %.6f-%.6f ms",
             (double)(from - a->v.t->t_start) / 1e6, (double)(to - a->v.t->t_start) / 1e6);
    return ask_name(a, x, "window");
}

static unsigned menu_picked(struct app *a, void *ctx, int item)
{
    return item == 0 ? start_subtree(a, ctx) : start_window(a, ctx);
}

void export_ui_free(struct export_ui *x)
{
    if (!x)
        return;
    free(x->path);
    free(x);
}

unsigned export_ui_action(struct app *a, enum action act)
{
    if (!a->v.t) {
        app_error(a, "export: there is no trace to export from");
        return R_HANDLED;
    }
    if (!a->exp)
        a->exp = xcalloc(1, sizeof(*a->exp));
    struct export_ui *x = a->exp;
    switch (act) {
    case A_EXPORT_SUBTREE:
        return start_subtree(a, x);
    case A_EXPORT_WINDOW:
        return start_window(a, x);
    default: {
        char **items = xcalloc(2, sizeof(char *));
        uint32_t root = subtree_root(a->v.t, a->v.sel);
        struct strbuf sb = STRBUF_INIT;
        if (root != IDX_NONE)
            text_clean(&sb, ev_name(a->v.t, root),
                       strtab_len(&a->v.t->strs, trace_ev(a->v.t, root)->name), a->v.ascii);
        items[0] = xasprintf("the selected subtree: %.80s",
                             root != IDX_NONE ? sb_str(&sb) : "(nothing selected)");
        sb_free(&sb);
        int64_t from = 0, to = 0;
        explore_timeline_window(a, &from, &to);
        items[1] =
            xasprintf("the timeline window: %.3f - %.3f ms", (double)(from - a->v.t->t_start) / 1e6,
                      (double)(to - a->v.t->t_start) / 1e6);
        app_open_menu(a, "Export as a Kineto JSON trace", items, 2, 0, menu_picked, x);
        return R_HANDLED;
    }
    }
}
