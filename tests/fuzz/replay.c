/* Replays fuzz inputs without libFuzzer: runs a target's
 * LLVMFuzzerTestOneInput over every file named on the command line, or
 * every file in the folders named (a missing folder holds nothing). Lets
 * `make check` run the crash regressions and the seed corpora in any build,
 * gcc included; under ASan it also checks for leaks. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/base/xalloc.h"
#include "tests/fuzz/fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = xmalloc(cap);
    for (;;) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (len < cap)
            break;
        cap *= 2;
        buf = xreallocarray(buf, cap, 1);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return -1;
    }
    /* An exact-size copy, as libFuzzer passes, so ASan sees over-reads. */
    uint8_t *data = xmalloc(len ? len : 1);
    memcpy(data, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir, in name order; returns how many, or -1. */
static long run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = xreallocarray(names, cap, sizeof(*names));
        }
        names[n++] = xasprintf("%s/%s", dir, de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), cmp_names);
    long count = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) < 0)
                count = -1;
            else if (count >= 0)
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    long total = 0;
    int status = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        long n;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            n = run_dir(argv[i]);
        else if (stat(argv[i], &st) == 0)
            n = run_file(argv[i]) < 0 ? -1 : 1;
        else
            n = errno == ENOENT ? 0 : -1;
        if (n < 0) {
            fprintf(stderr, "%s: cannot replay\n", argv[i]);
            status = 1;
        } else {
            total += n;
        }
    }
    printf("%s: %ld inputs replayed\n", argc ? argv[0] : "replay", total);
    return status;
}
