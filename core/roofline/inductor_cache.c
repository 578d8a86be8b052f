/* Inductor cache wrappers (inductor_cache.h): the text scans transcribe
 * the regular expressions of TraceLens's _parse_wrapper, noted above each
 * one. */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/vec.h"
#include "core/base/xalloc.h"
#include "core/roofline/inductor_cache.h"

/* Largest wrapper read; larger files are left out. */
#define WRAPPER_MAX_BYTES (256u << 20)

struct inductor_cache {
    VEC(struct inductor_kernel) k;
    bool sorted; /* by name, first definition kept */
};

struct inductor_cache *inductor_cache_new(void)
{
    return xcalloc(1, sizeof(struct inductor_cache));
}

void inductor_cache_free(struct inductor_cache *ic)
{
    if (!ic)
        return;
    for (size_t i = 0; i < ic->k.n; i++) {
        free((char *)ic->k.v[i].name);
        free((char *)ic->k.v[i].aten_ops);
    }
    VEC_FREE(&ic->k);
    free(ic);
}

size_t inductor_cache_count(const struct inductor_cache *ic)
{
    return ic ? ic->k.n : 0;
}

static bool is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* First occurrence of needle in [s, s + n), or NULL. */
static const char *find(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; k <= n && i + k <= n; i++)
        if (s[i] == needle[0] && memcmp(s + i, needle, k) == 0)
            return s + i;
    return NULL;
}

/* ^(triton_\w+)\s*=\s*async_compile\.triton\(  at p (a line start):
 * the name's length, 0 when p does not start a kernel. */
static size_t kernel_at(const char *p, const char *end)
{
    static const char pre[] = "triton_", call[] = "async_compile.triton(";
    if ((size_t)(end - p) < sizeof(pre) - 1 || memcmp(p, pre, sizeof(pre) - 1) != 0)
        return 0;
    const char *q = p + sizeof(pre) - 1;
    if (q >= end || !is_word(*q))
        return 0;
    while (q < end && is_word(*q))
        q++;
    size_t name_len = (size_t)(q - p);
    while (q < end && is_space(*q))
        q++;
    if (q >= end || *q != '=')
        return 0;
    q++;
    while (q < end && is_space(*q))
        q++;
    if ((size_t)(end - q) < sizeof(call) - 1 || memcmp(q, call, sizeof(call) - 1) != 0)
        return 0;
    return name_len;
}

/* Original ATen:\s*\[([^\]]+)\]  searched in [s, s + n): the entries,
 * split at ',' and trimmed, joined by ", "; NULL when nothing matches. */
static char *aten_ops_in(const char *s, size_t n)
{
    static const char key[] = "Original ATen:";
    const char *end = s + n;
    for (const char *p = find(s, n, key); p; p = find(p + 1, (size_t)(end - p - 1), key)) {
        const char *q = p + sizeof(key) - 1;
        while (q < end && is_space(*q))
            q++;
        if (q >= end || *q != '[')
            continue;
        const char *a = ++q;
        while (q < end && *q != ']')
            q++;
        if (q >= end || q == a)
            continue;
        struct {
            char *v;
            size_t n, cap;
        } out = {0};
        for (const char *e = a; e <= q;) {
            const char *c = e;
            while (c < q && *c != ',')
                c++;
            const char *b = e, *t = c;
            while (b < t && is_space(*b))
                b++;
            while (t > b && is_space(t[-1]))
                t--;
            size_t need = out.n + (out.n || e > a ? 2 : 0) + (size_t)(t - b) + 1;
            if (need > out.cap) {
                out.cap = need * 2;
                out.v = xreallocarray(out.v, out.cap, 1);
            }
            if (e > a) {
                out.v[out.n++] = ',';
                out.v[out.n++] = ' ';
            }
            memcpy(out.v + out.n, b, (size_t)(t - b));
            out.n += (size_t)(t - b);
            out.v[out.n] = '\0';
            e = c + 1;
        }
        return out.v;
    }
    return NULL;
}

/* Python's int() of an entry: optional spaces and sign, digits; false on
 * anything else or past int64. */
static bool parse_int(const char *s, const char *e, int64_t *out)
{
    while (s < e && is_space(*s))
        s++;
    while (e > s && is_space(e[-1]))
        e--;
    bool neg = false;
    if (s < e && (*s == '+' || *s == '-'))
        neg = *s++ == '-';
    if (s == e)
        return false;
    int64_t v = 0;
    for (; s < e; s++) {
        if (*s < '0' || *s > '9' || v > (INT64_MAX - (*s - '0')) / 10)
            return false;
        v = v * 10 + (*s - '0');
    }
    *out = neg ? -v : v;
    return true;
}

/* The numels of a kernel block: size_hints=\[([^\]]+)\] first, else
 * size_hints=\{([^}]+)\} with its '(\w+)':\s*(\d+) pairs; false when a
 * list entry is not an integer. */
static bool size_hints_in(const char *s, size_t n, int64_t *x, int64_t *r)
{
    static const char lkey[] = "size_hints=[", dkey[] = "size_hints={";
    const char *end = s + n;
    *x = 0;
    *r = 1;
    for (const char *p = find(s, n, lkey); p; p = find(p + 1, (size_t)(end - p - 1), lkey)) {
        const char *a = p + sizeof(lkey) - 1, *q = a;
        while (q < end && *q != ']')
            q++;
        if (q >= end || q == a)
            continue;
        int i = 0;
        for (const char *e = a; e <= q; i++) {
            const char *c = e;
            while (c < q && *c != ',')
                c++;
            int64_t v;
            if (!parse_int(e, c, &v))
                return false;
            if (i == 0)
                *x = v;
            else if (i == 1)
                *r = v;
            e = c + 1;
        }
        return true;
    }
    for (const char *p = find(s, n, dkey); p; p = find(p + 1, (size_t)(end - p - 1), dkey)) {
        const char *a = p + sizeof(dkey) - 1, *q = a;
        while (q < end && *q != '}')
            q++;
        if (q >= end || q == a)
            continue;
        for (const char *c = a; c < q; c++) {
            if (*c != '\'')
                continue;
            const char *k = c + 1, *ke = k;
            while (ke < q && is_word(*ke))
                ke++;
            if (ke == k || ke >= q || *ke != '\'' || ke + 1 >= q || ke[1] != ':')
                continue;
            const char *d = ke + 2;
            while (d < q && is_space(*d))
                d++;
            const char *de = d;
            while (de < q && *de >= '0' && *de <= '9')
                de++;
            int64_t v;
            if (de == d || !parse_int(d, de, &v))
                continue;
            if (ke - k == 1 && *k == 'x')
                *x = v;
            else if (*k == 'r')
                *r = v;
            c = de - 1;
        }
        return true;
    }
    return true;
}

/* '(\*\w+)' inside 'signature':\s*\{([^}]+)\}: the known pointer types. */
static void signature_in(const char *s, size_t n, struct inductor_kernel *k)
{
    static const struct {
        const char *t;
        uint8_t bytes;
    } ptr[] = {{"*bf16", 2}, {"*fp16", 2}, {"*f16", 2}, {"*fp32", 4}, {"*f32", 4},
               {"*i8", 1},   {"*u8", 1},   {"*i32", 4}, {"*i64", 8}};
    static const char key[] = "'signature':";
    const char *end = s + n;
    for (const char *p = find(s, n, key); p; p = find(p + 1, (size_t)(end - p - 1), key)) {
        const char *q = p + sizeof(key) - 1;
        while (q < end && is_space(*q))
            q++;
        if (q >= end || *q != '{')
            continue;
        const char *a = ++q;
        while (q < end && *q != '}')
            q++;
        if (q >= end || q == a)
            continue;
        for (const char *c = a; c + 2 < q; c++) {
            if (c[0] != '\'' || c[1] != '*')
                continue;
            const char *e = c + 2;
            while (e < q && is_word(*e))
                e++;
            if (e == c + 2 || e >= q || *e != '\'')
                continue;
            size_t len = (size_t)(e - c - 1);
            for (size_t i = 0; i < sizeof(ptr) / sizeof(ptr[0]); i++)
                if (strlen(ptr[i].t) == len && memcmp(ptr[i].t, c + 1, len) == 0) {
                    if (k->nptr < INDUCTOR_MAX_PTRS)
                        k->ptr_bytes[k->nptr++] = ptr[i].bytes;
                    if (!k->dtype[0])
                        snprintf(k->dtype, sizeof(k->dtype), "%s", ptr[i].t + 1);
                }
            c = e;
        }
        return;
    }
}

bool inductor_cache_parse(struct inductor_cache *ic, const char *text, size_t len)
{
    static const char block_end[] = "''', device_str=";
    const char *end = text + len;
    VEC(struct inductor_kernel) found = {0};
    const char *prev = text;
    bool ok = true;
    for (const char *p = text; p < end && ok;) {
        size_t nl = kernel_at(p, end);
        if (nl) {
            const char *be = find(p, (size_t)(end - p), block_end);
            if (be) {
                struct inductor_kernel k = {0};
                k.name = xstrndup(p, nl);
                char *ops = aten_ops_in(prev, (size_t)(p - prev));
                k.aten_ops = ops ? ops : xstrdup("");
                size_t bn = (size_t)(be - p);
                ok = size_hints_in(p, bn, &k.xnumel, &k.rnumel);
                signature_in(p, bn, &k);
                VEC_PUSH(&found, k);
            }
            prev = p;
        }
        const char *q = memchr(p, '\n', (size_t)(end - p));
        p = q ? q + 1 : end;
    }
    for (size_t i = 0; i < found.n; i++) {
        if (ok) {
            VEC_PUSH(&ic->k, found.v[i]);
        } else {
            free((char *)found.v[i].name);
            free((char *)found.v[i].aten_ops);
        }
    }
    if (ok && found.n)
        ic->sorted = false;
    VEC_FREE(&found);
    return ok;
}

/* By name, then by position read: a stable order that keeps the first
 * definition first. */
struct keyed {
    struct inductor_kernel k;
    size_t pos;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(x->k.name, y->k.name);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static void finish(struct inductor_cache *ic)
{
    if (ic->sorted || !ic->k.n) {
        ic->sorted = true;
        return;
    }
    struct keyed *t = xmalloc(ic->k.n * sizeof(*t));
    for (size_t i = 0; i < ic->k.n; i++)
        t[i] = (struct keyed){ic->k.v[i], i};
    qsort(t, ic->k.n, sizeof(*t), cmp_keyed);
    size_t n = 0;
    for (size_t i = 0; i < ic->k.n; i++) {
        if (n && strcmp(ic->k.v[n - 1].name, t[i].k.name) == 0) {
            free((char *)t[i].k.name);
            free((char *)t[i].k.aten_ops);
            continue;
        }
        ic->k.v[n++] = t[i].k;
    }
    ic->k.n = n;
    free(t);
    ic->sorted = true;
}

static int cmp_name(const void *key, const void *elem)
{
    return strcmp(key, ((const struct inductor_kernel *)elem)->name);
}

const struct inductor_kernel *inductor_cache_find(const struct inductor_cache *ic, const char *name)
{
    if (!ic || !name)
        return NULL;
    if (!ic->sorted) {
        for (size_t i = 0; i < ic->k.n; i++)
            if (strcmp(ic->k.v[i].name, name) == 0)
                return &ic->k.v[i];
        return NULL;
    }
    if (!ic->k.n)
        return NULL;
    return bsearch(name, ic->k.v, ic->k.n, sizeof(ic->k.v[0]), cmp_name);
}

/* The *.py files under the directory nftw walks (not following links). */
static VEC(char *) walk_paths;

static int collect(const char *path, const struct stat *st, int type, struct FTW *f)
{
    (void)f;
    size_t n = strlen(path);
    if (type == FTW_F && S_ISREG(st->st_mode) && n > 3 && strcmp(path + n - 3, ".py") == 0 &&
        (uint64_t)st->st_size <= WRAPPER_MAX_BYTES)
        VEC_PUSH(&walk_paths, xstrdup(path));
    return 0;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct inductor_cache *inductor_cache_load(const char *dir, char *err)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, 256, "--inductor-cache: %.200s: %s", dir, strerror(errno));
        return NULL;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, 256, "--inductor-cache: %.200s: not a directory", dir);
        return NULL;
    }
    walk_paths.n = 0;
    if (nftw(dir, collect, 32, FTW_PHYS) != 0) {
        snprintf(err, 256, "--inductor-cache: %.200s: cannot be read", dir);
        for (size_t i = 0; i < walk_paths.n; i++)
            free(walk_paths.v[i]);
        VEC_FREE(&walk_paths);
        return NULL;
    }
    if (walk_paths.n)
        qsort(walk_paths.v, walk_paths.n, sizeof(char *), cmp_path);
    struct inductor_cache *ic = inductor_cache_new();
    for (size_t i = 0; i < walk_paths.n; i++) {
        FILE *f = fopen(walk_paths.v[i], "rb");
        if (f) {
            char *buf = xmalloc(WRAPPER_MAX_BYTES / 64);
            size_t cap = WRAPPER_MAX_BYTES / 64, n = 0, got;
            while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
                n += got;
                if (n == cap && cap < WRAPPER_MAX_BYTES) {
                    cap *= 2;
                    buf = xreallocarray(buf, cap, 1);
                } else if (n == cap) {
                    break;
                }
            }
            fclose(f);
            if (find(buf, n, "async_compile.triton"))
                (void)inductor_cache_parse(ic, buf, n);
            free(buf);
        }
        free(walk_paths.v[i]);
    }
    VEC_FREE(&walk_paths);
    finish(ic);
    return ic;
}
