/* The trace cache (tracecache.h): where a trace's cache lies, when it is
 * read and written, and the folder kept within its bound. The file's
 * format is tracecache_file.c's. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/base/xalloc.h"
#include "core/trace/tracecache.h"
#include "core/trace/tracecache_internal.h"

#define TC_EDGE_BYTES (1u << 20)
/* A temporary file older than this is a writer's that died: pruned. */
#define TC_STALE_TMP_S 3600

static void note(const struct tracecache *tc, const char *fmt, ...) ATTR_FORMAT(2, 3);
static void note(const struct tracecache *tc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (tc->notes) {
        sb_puts(tc->notes, "torchtop: ");
        sb_vprintf(tc->notes, fmt, ap);
        sb_putc(tc->notes, '\n');
    } else {
        fputs("torchtop: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    va_end(ap);
}

/* A size from the environment (digits only), else def. */
static uint64_t env_bytes(const char *name, uint64_t def)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    return errno || *end || *s == '-' ? def : (uint64_t)v;
}

/* $XDG_CACHE_HOME/torchtop, else ~/.cache/torchtop (XDG: a relative
 * XDG_CACHE_HOME is ignored); NULL without a home. */
static char *cache_dir(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && xdg[0] == '/')
        return xasprintf("%s/torchtop", xdg);
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return xasprintf("%s/.cache/torchtop", home);
    return NULL;
}

/* Make dir and its parents (private to the user); false with errno. */
static bool make_dirs(const char *dir)
{
    char *p = xstrdup(dir);
    bool ok = true;
    for (char *s = p + 1; ok; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            ok = false;
        *s = c;
        if (!c)
            break;
    }
    free(p);
    struct stat st;
    return ok && stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether dir is the folder the trace at path lies in. */
static bool same_dir(const char *dir, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *tdir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
    struct stat a, b;
    bool same =
        stat(dir, &a) == 0 && stat(tdir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    free(tdir);
    return same;
}

/* Whether s starts with 16 lowercase hex digits and ".ttc" (a cache's name). */
static bool cache_name_prefix(const char *s)
{
    for (int i = 0; i < 16; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return strncmp(s + 16, ".ttc", 4) == 0;
}

/* A cache file's name: "0123456789abcdef.ttc". */
static bool is_cache_name(const char *s)
{
    return cache_name_prefix(s) && s[20] == '\0';
}

/* A temporary file of tracecache_write_file: ".NAME.ttc.tmp-XXXXXX". */
static bool is_tmp_name(const char *s)
{
    return s[0] == '.' && cache_name_prefix(s + 1) && strncmp(s + 21, ".tmp-", 5) == 0 &&
           strlen(s + 26) == 6;
}

struct tc_entry {
    char *path;
    uint64_t bytes;
    int64_t mtime_ns;
};

static int entry_older(const void *a, const void *b)
{
    const struct tc_entry *x = a, *y = b;
    return x->mtime_ns < y->mtime_ns ? -1 : x->mtime_ns > y->mtime_ns;
}

/* Keep the folder's caches within max_bytes, the ones used longest ago
 * deleted first; temporary files of writers that died go too. */
static void prune(const char *dir, uint64_t max_bytes)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    VEC(struct tc_entry) ents = {0};
    uint64_t total = 0;
    time_t now = time(NULL);
    struct dirent *de;
    while ((de = readdir(d))) {
        bool cache = is_cache_name(de->d_name), tmp = is_tmp_name(de->d_name);
        if (!cache && !tmp)
            continue;
        char *p = xasprintf("%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(p);
            continue;
        }
        if (tmp) {
            if (now - st.st_mtime > TC_STALE_TMP_S)
                unlink(p);
            free(p);
            continue;
        }
        *VEC_ADD(&ents) = (struct tc_entry){
            p, (uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec};
        total += (uint64_t)st.st_size;
    }
    closedir(d);
    if (ents.n)
        qsort(ents.v, ents.n, sizeof(*ents.v), entry_older);
    for (size_t i = 0; i < ents.n; i++) {
        if (total > max_bytes && unlink(ents.v[i].path) == 0)
            total -= ents.v[i].bytes;
        free(ents.v[i].path);
    }
    VEC_FREE(&ents);
}

/* Hash of the first and last TC_EDGE_BYTES of the file open at fd. */
static bool edges_hash(int fd, uint64_t size, uint64_t *out)
{
    size_t n = size < TC_EDGE_BYTES ? (size_t)size : TC_EDGE_BYTES;
    unsigned char *buf = xmalloc(n ? n : 1);
    bool ok = tracecache_read_at(fd, buf, n, 0);
    uint64_t h = ok ? tracecache_sum(buf, n) : 0;
    ok = ok && tracecache_read_at(fd, buf, n, size - n);
    if (ok)
        *out = h * UINT64_C(0x9E3779B97F4A7C15) + tracecache_sum(buf, n);
    free(buf);
    return ok;
}

bool tracecache_begin(struct tracecache *tc, struct source *src, const struct load_opts *opts,
                      struct strbuf *notes)
{
    memset(tc, 0, sizeof(*tc));
    tc->notes = notes;
    const char *onoff = getenv("TORCHTOP_CACHE");
    if (!opts->use_cache || opts->no_index || (onoff && strcmp(onoff, "0") == 0))
        return false;
    struct stat st;
    /* A regular file named by its path, nothing read from it yet. */
    uint64_t next = src->out_done - (src->peek_len - src->peek_pos); /* peeked bytes come again */
    if (src->mem || src->fd < 0 || strcmp(src->name, "-") == 0 || next != 0 ||
        fstat(src->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if ((uint64_t)st.st_size < env_bytes("TORCHTOP_CACHE_MIN_BYTES", TRACECACHE_MIN_BYTES))
        return false;
    tc->key.size = (uint64_t)st.st_size;
    tc->key.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    tc->key.options = opts->link_require_flow ? TRACECACHE_LINK_REQUIRE_FLOW : 0;
    if (!edges_hash(src->fd, tc->key.size, &tc->key.edges))
        return false;
    tc->dir = cache_dir();
    if (!tc->dir)
        return false;
    if (same_dir(tc->dir, src->name)) {
        free(tc->dir);
        tc->dir = NULL;
        return false;
    }
    tc->max_bytes = env_bytes("TORCHTOP_CACHE_MAX_BYTES", TRACECACHE_MAX_BYTES);
    tc->path =
        xasprintf("%s/%016" PRIx64 ".ttc", tc->dir, tracecache_sum(&tc->key, sizeof(tc->key)));
    tc->active = true;
    return true;
}

struct trace *tracecache_open(struct tracecache *tc, const char *name)
{
    if (!tc->active)
        return NULL;
    char why[256];
    struct trace *t = NULL;
    switch (tracecache_read_file(tc->path, &tc->key, name, &t, why, sizeof(why))) {
    case TRACECACHE_OK:
        return t;
    case TRACECACHE_MISSING:
        return NULL;
    case TRACECACHE_BAD:
        note(tc, "cache %s ignored (%s); reading the trace", tc->path, why);
        return NULL;
    }
    return NULL;
}

/* tracecache_store, stopped (silently) once *stop != 0 (stop optional). */
static void store(struct tracecache *tc, const struct trace *t, const volatile int *stop)
{
    if (!tc->active || !t->indexed || t->n_captures || t->grafts.n)
        return;
    char why[512];
    if (!make_dirs(tc->dir)) {
        note(tc, "cannot make the cache folder %s: %s", tc->dir, strerror(errno));
        return;
    }
    if (!tracecache_write_file(tc->path, &tc->key, t, stop, why, sizeof(why))) {
        if (!(stop && *stop))
            note(tc, "%s", why);
        return;
    }
    prune(tc->dir, tc->max_bytes);
}

void tracecache_store(struct tracecache *tc, const struct trace *t)
{
    store(tc, t, NULL);
}

void tracecache_end(struct tracecache *tc)
{
    free(tc->path);
    free(tc->dir);
    memset(tc, 0, sizeof(*tc));
}

/* ------------------------------------------------------------------------ */
/* A write put off                                                          */
/* ------------------------------------------------------------------------ */

struct tracecache_later {
    struct tracecache tc;
    const struct trace *t;
    pthread_t thread;
    bool started;
    volatile int stop;
    struct strbuf notes; /* a started write's: tc.notes points here */
};

struct tracecache_later *tracecache_later_new(struct tracecache *tc)
{
    struct tracecache_later *l = xcalloc(1, sizeof(*l));
    l->tc = *tc;
    memset(tc, 0, sizeof(*tc));
    return l;
}

static void later_free(struct tracecache_later *l)
{
    tracecache_end(&l->tc);
    sb_free(&l->notes);
    free(l);
}

void tracecache_later_write(struct tracecache_later *l, const struct trace *t)
{
    if (!l)
        return;
    store(&l->tc, t, NULL);
    later_free(l);
}

static void *later_thread(void *arg)
{
    struct tracecache_later *l = arg;
    store(&l->tc, l->t, &l->stop);
    return NULL;
}

void tracecache_later_start(struct tracecache_later *l, const struct trace *t)
{
    if (!l || l->started)
        return;
    l->t = t;
    struct strbuf *to = l->tc.notes;
    l->tc.notes = &l->notes;
    l->started = pthread_create(&l->thread, NULL, later_thread, l) == 0;
    if (!l->started) {
        l->tc.notes = to;
        store(&l->tc, t, NULL);
        l->tc.active = false; /* written: nothing left to do */
    }
}

char *tracecache_later_finish(struct tracecache_later *l, bool abandon)
{
    if (!l)
        return NULL;
    char *notes = NULL;
    if (l->started) {
        if (abandon)
            l->stop = 1;
        pthread_join(l->thread, NULL);
        if (l->notes.len)
            notes = sb_steal(&l->notes);
    }
    later_free(l);
    return notes;
}
