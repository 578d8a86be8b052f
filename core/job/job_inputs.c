/* Multi-input rules of a job: files, directories and globs to a file
 * list, and the rank a file name gives. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "core/job/job_inputs.h"

bool job_inputs_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The files a directory scan takes: traces and rank summaries. */
static bool is_job_file(const char *name)
{
    return name[0] != '.' &&
           (ends_with(name, ".json") || ends_with(name, ".json.gz") || ends_with(name, ".summary"));
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_path(struct job_inputs *in, const char *path, bool named)
{
    struct stat st;
    uint64_t dev = 0, ino = 0, key = 0;
    /* One file reached twice is kept once (same device and inode). */
    if (stat(path, &st) == 0) {
        dev = (uint64_t)st.st_dev;
        ino = (uint64_t)st.st_ino;
        key = ino * UINT64_C(0x9E3779B97F4A7C15) ^ dev;
        uint32_t at = hmap_get(&in->seen, key);
        if (at != IDX_NONE && in->v.v[at].dev == dev && in->v.v[at].ino == ino)
            return;
        if (at != IDX_NONE) /* another file with the same hash: compare them all */
            for (size_t i = 0; i < in->v.n; i++)
                if (in->v.v[i].dev == dev && in->v.v[i].ino == ino)
                    return;
    }
    struct job_input *x = VEC_ADD(&in->v);
    x->path = xstrdup(path);
    x->name_rank = job_inputs_name_rank(path);
    x->dev = dev;
    x->ino = ino;
    x->named = named;
    if (dev || ino)
        hmap_put(&in->seen, key, (uint32_t)(in->v.n - 1));
}

static enum status add_dir(struct job_inputs *in, const char *dir, struct errinfo *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        errinfo_set(err, ST_IO, dir, -1, "cannot read the directory: %s", strerror(errno));
        return ST_IO;
    }
    VEC(char *) names = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (is_job_file(de->d_name)) {
            size_t n = strlen(dir);
            bool slash = n && dir[n - 1] == '/';
            char *p = xasprintf("%s%s%s", dir, slash ? "" : "/", de->d_name);
            if (job_inputs_is_dir(p))
                free(p);
            else
                VEC_PUSH(&names, p);
        }
    closedir(d);
    enum status st = ST_OK;
    if (!names.n) {
        errinfo_set(err, ST_IO, dir, -1,
                    "the directory holds no trace (*.json, *.json.gz) or rank summary "
                    "(*.summary)");
        st = ST_IO;
    }
    if (names.n)
        sort_items(names.v, names.n, sizeof(char *), cmp_str);
    for (size_t i = 0; i < names.n; i++) {
        if (st == ST_OK)
            add_path(in, names.v[i], false);
        free(names.v[i]);
    }
    VEC_FREE(&names);
    return st;
}

enum status job_inputs_resolve(const char *const *args, size_t n, struct job_inputs *out,
                               struct errinfo *err)
{
    memset(out, 0, sizeof(*out));
    hmap_init(&out->seen, 64);
    for (size_t i = 0; i < n; i++) {
        const char *a = args[i];
        struct stat st;
        if (strcmp(a, "-") == 0) {
            VEC_PUSH(&out->v, ((struct job_input){xstrdup(a), -1, 0, 0, true}));
            continue;
        }
        if (stat(a, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                out->any_dir = true;
                if (add_dir(out, a, err) != ST_OK)
                    return err->status;
            } else {
                add_path(out, a, true);
            }
            continue;
        }
        if (strpbrk(a, "*?[")) {
            glob_t g;
            int rc = glob(a, 0, NULL, &g);
            if (rc == 0) {
                /* glob(3) sorts its matches. */
                for (size_t k = 0; k < g.gl_pathc; k++)
                    if (!job_inputs_is_dir(g.gl_pathv[k]))
                        add_path(out, g.gl_pathv[k], false);
                globfree(&g);
                continue;
            }
            if (rc != GLOB_NOMATCH)
                globfree(&g);
            errinfo_set(err, ST_IO, a, -1, "the pattern matches no file");
            return ST_IO;
        }
        errinfo_set(err, ST_IO, a, -1, "cannot open: %s", strerror(errno));
        return ST_IO;
    }
    return ST_OK;
}

int job_inputs_name_rank(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int rank = -1;
    for (const char *p = base; *p; p++) {
        if (strncasecmp(p, "rank", 4) != 0)
            continue;
        /* "rank" must start a word: the name's start or after a separator. */
        if (p > base && isalnum((unsigned char)p[-1]))
            continue;
        const char *q = p + 4;
        if (*q == '-' || *q == '_')
            q++;
        if (!isdigit((unsigned char)*q))
            continue;
        long v = 0;
        bool fits = true;
        while (isdigit((unsigned char)*q)) {
            /* Past INT_MAX the digits are only skipped, so v cannot wrap. */
            if (fits)
                v = v * 10 + (*q - '0');
            fits = fits && v <= INT_MAX;
            q++;
        }
        /* The number ends the word ("rank3.json", "rank_3_", not "rank3x"). */
        if (isalpha((unsigned char)*q))
            continue;
        rank = fits ? (int)v : -1;
    }
    return rank;
}

void job_inputs_free(struct job_inputs *in)
{
    for (size_t i = 0; i < in->v.n; i++)
        free(in->v.v[i].path);
    VEC_FREE(&in->v);
    hmap_free(&in->seen);
}
