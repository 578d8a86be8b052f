/* The source search path: prefix substitutions, candidates along the
 * search directories, and python3's site-packages asked once. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/base/srcpath.h"
#include "core/base/xalloc.h"

void srcpath_list_free(struct srcpath_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    VEC_FREE(l);
}

void srcpath_init(struct srcpath *sp)
{
    memset(sp, 0, sizeof(*sp));
    VEC_PUSH(&sp->dirs, xstrdup("."));
    sp->want_python = true;
}

void srcpath_done(struct srcpath *sp)
{
    srcpath_list_free(&sp->dirs);
    for (size_t i = 0; i < sp->maps.n; i++) {
        free(sp->maps.v[i].from);
        free(sp->maps.v[i].to);
    }
    VEC_FREE(&sp->maps);
    memset(sp, 0, sizeof(*sp));
}

void srcpath_set_dirs(struct srcpath *sp, const char *list)
{
    srcpath_list_free(&sp->dirs);
    sp->want_python = false;
    const char *s = list;
    for (;;) {
        const char *e = strchr(s, SRCPATH_SEP);
        size_t n = e ? (size_t)(e - s) : strlen(s);
        /* A trailing '/' would double when joined. */
        while (n > 1 && s[n - 1] == '/')
            n--;
        VEC_PUSH(&sp->dirs, n ? xstrndup(s, n) : xstrdup("."));
        if (!e)
            break;
        s = e + 1;
    }
}

bool srcpath_add_map(struct srcpath *sp, const char *spec, char *why, size_t whyn)
{
    const char *eq = strchr(spec, '=');
    if (!eq) {
        snprintf(why, whyn, "expected OLD=NEW, found no '='");
        return false;
    }
    size_t n = (size_t)(eq - spec);
    while (n > 1 && spec[n - 1] == '/')
        n--;
    if (n == 0) {
        snprintf(why, whyn, "expected OLD=NEW, OLD is empty");
        return false;
    }
    struct srcpath_map *m = VEC_ADD(&sp->maps);
    m->from = xstrndup(spec, n);
    m->to = xstrdup(eq + 1);
    return true;
}

/* Whether path starts with prefix at a component boundary; *rest gets what
 * follows (after the '/', or "" for the whole path). */
static bool has_prefix(const char *path, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n) != 0)
        return false;
    if (path[n] == '\0') {
        *rest = path + n;
        return true;
    }
    if (path[n] == '/' || (n && prefix[n - 1] == '/')) {
        *rest = path + n + (path[n] == '/');
        return true;
    }
    return false;
}

/* a joined to b with one '/' between (a "" or "." or b "" leaves the other:
 * a file from the current directory reads as the trace names it). */
static char *join(const char *a, const char *b)
{
    size_t na = strlen(a);
    if (!na || strcmp(a, ".") == 0)
        return xstrdup(b);
    if (!*b)
        return xstrdup(a);
    return xasprintf("%s%s%s", a, a[na - 1] == '/' ? "" : "/", b);
}

char *srcpath_apply_map(const struct srcpath *sp, const char *path)
{
    for (size_t i = 0; i < sp->maps.n; i++) {
        const char *rest;
        if (has_prefix(path, sp->maps.v[i].from, &rest))
            return join(sp->maps.v[i].to, rest);
    }
    return NULL;
}

static void add_unique(struct srcpath_list *out, char *p)
{
    for (size_t i = 0; i < out->n; i++) {
        if (strcmp(out->v[i], p) == 0) {
            free(p);
            return;
        }
    }
    VEC_PUSH(out, p);
}

/* The site-packages of python3, appended to the search path once. */
static void add_python(struct srcpath *sp)
{
    if (!sp->want_python || sp->python_done)
        return;
    sp->python_done = true;
    struct strbuf sb = STRBUF_INIT;
    if (srcpath_python_site(&sb)) {
        const char *s = sb_str(&sb);
        while (*s) {
            const char *e = strchr(s, '\n');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            if (n)
                add_unique(&sp->dirs, xstrndup(s, n));
            s += n + (e != NULL);
        }
    }
    sb_free(&sb);
}

/* Relative path p along the search directories. */
static void along_dirs(const struct srcpath *sp, const char *p, struct srcpath_list *out)
{
    for (size_t i = 0; i < sp->dirs.n; i++)
        add_unique(out, join(sp->dirs.v[i], p));
}

/* What follows the last site-packages or dist-packages component of p. */
static const char *packages_tail(const char *p)
{
    const char *tail = NULL;
    static const char *const names[] = {"/site-packages/", "/dist-packages/"};
    for (size_t k = 0; k < 2; k++) {
        for (const char *s = strstr(p, names[k]); s; s = strstr(s + 1, names[k])) {
            const char *t = s + strlen(names[k]);
            if (*t && (!tail || t > tail))
                tail = t;
        }
    }
    return tail;
}

void srcpath_candidates(struct srcpath *sp, const char *file, struct srcpath_list *out)
{
    if (!file || !*file)
        return;
    add_python(sp);
    char *mapped = srcpath_apply_map(sp, file);
    const char *paths[2] = {mapped, file};
    for (size_t k = 0; k < 2; k++) {
        const char *p = paths[k];
        if (!p || !*p)
            continue;
        if (p[0] == '/')
            add_unique(out, xstrdup(p));
        else
            along_dirs(sp, p, out);
    }
    for (size_t k = 0; k < 2; k++) {
        const char *tail = paths[k] && paths[k][0] == '/' ? packages_tail(paths[k]) : NULL;
        if (tail)
            along_dirs(sp, tail, out);
    }
    free(mapped);
}

/* Whether real (a resolved path) is root or under it (root resolved too,
 * NULL when it does not exist). */
static bool under(const char *real, const char *root)
{
    char *r = root ? realpath(root, NULL) : NULL;
    if (!r)
        return false;
    size_t n = strlen(r);
    bool yes =
        strncmp(real, r, n) == 0 && (real[n] == '/' || real[n] == '\0' || (n == 1 && r[0] == '/'));
    free(r);
    return yes;
}

bool srcpath_allowed(const struct srcpath *sp, const char *path, char *why, size_t whyn)
{
    char *real = realpath(path, NULL);
    if (!real) {
        snprintf(why, whyn, "%s", strerror(errno));
        return false;
    }
    bool ok = false;
    for (size_t i = 0; i < sp->dirs.n && !ok; i++)
        ok = under(real, sp->dirs.v[i]);
    for (size_t i = 0; i < sp->maps.n && !ok; i++)
        ok = under(real, sp->maps.v[i].to);
    if (!ok)
        snprintf(why, whyn,
                 "outside every source directory and --source-map target (it resolves to "
                 "%s); add its directory with --source-path to preview it",
                 real);
    free(real);
    return ok;
}

char *srcpath_find(struct srcpath *sp, const char *file, struct strbuf *looked)
{
    struct srcpath_list c = {0};
    srcpath_candidates(sp, file, &c);
    char *found = NULL;
    char confined[PATH_MAX + 160];
    for (size_t i = 0; i < c.n && !found; i++) {
        struct stat st;
        const char *why = NULL;
        if (stat(c.v[i], &st) != 0)
            why = strerror(errno);
        else if (!S_ISREG(st.st_mode))
            why = "not a regular file";
        else if (access(c.v[i], R_OK) != 0)
            why = strerror(errno);
        else if (!srcpath_allowed(sp, c.v[i], confined, sizeof(confined)))
            why = confined;
        if (!why) {
            found = c.v[i];
            c.v[i] = NULL;
        } else if (looked) {
            sb_printf(looked, "%s: %s\n", c.v[i], why);
        }
    }
    srcpath_list_free(&c);
    return found;
}

/* ------------------------------------------------------------------------ */
/* python3's site-packages                                                  */
/* ------------------------------------------------------------------------ */

/* Prints site.getsitepackages() and the user site, one per line. -I keeps
 * the caller's PYTHON* variables and the current directory out of it. */
static const char python_code[] =
    "import site\n"
    "for d in site.getsitepackages() + [site.getusersitepackages()]: print(d)\n";

#define PYTHON_LIMIT_MS 5000
#define PYTHON_MAX_OUT 65536

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Run python3 and collect its standard output (at most PYTHON_MAX_OUT
 * bytes, within PYTHON_LIMIT_MS); false when it cannot run or fails. */
static bool run_python(struct strbuf *out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 2);
        }
        dup2(fds[1], 1);
        close(fds[0]);
        char *const argv[] = {"python3", "-I", "-c", (char *)python_code, NULL};
        execvp("python3", argv);
        _exit(127);
    }
    close(fds[1]);
    double until = now_ms() + PYTHON_LIMIT_MS;
    bool ok = true;
    char buf[4096];
    for (;;) {
        double left = until - now_ms();
        struct pollfd pf = {.fd = fds[0], .events = POLLIN};
        int r = left > 0 ? poll(&pf, 1, (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            ok = false; /* too slow: not worth waiting for */
            kill(pid, SIGKILL);
            break;
        }
        ssize_t k = read(fds[0], buf, sizeof(buf));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        if (out->len + (size_t)k > PYTHON_MAX_OUT) {
            ok = false;
            kill(pid, SIGKILL);
            break;
        }
        sb_putn(out, buf, (size_t)k);
    }
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool srcpath_python_site(struct strbuf *sb)
{
    static bool asked;
    static char *cached; /* existing directories, one per line; NULL: none */
    if (!asked) {
        asked = true;
        struct strbuf out = STRBUF_INIT, dirs = STRBUF_INIT;
        if (run_python(&out)) {
            const char *s = sb_str(&out);
            while (*s) {
                const char *e = strchr(s, '\n');
                size_t n = e ? (size_t)(e - s) : strlen(s);
                char *d = xstrndup(s, n);
                struct stat st;
                if (d[0] == '/' && stat(d, &st) == 0 && S_ISDIR(st.st_mode))
                    sb_printf(&dirs, "%s\n", d);
                free(d);
                s += n + (e != NULL);
            }
        }
        sb_free(&out);
        cached = dirs.len ? sb_steal(&dirs) : NULL;
        sb_free(&dirs);
    }
    if (!cached)
        return false;
    sb_puts(sb, cached);
    return true;
}
