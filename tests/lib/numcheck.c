/* numcheck FILE...: every JSON number in the files (plain or gzip; "-"
 * for stdin), outside strings, read by numparse_json and by strtod in the
 * C locale; any difference in the bits, or a number numparse_json
 * refuses, is printed with its byte offset and makes the exit status 1.
 * Prints the numbers checked per file. Used by
 * tests/golden/numparse_corpus.sh on the shared traces and on a corpus
 * Python writes. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/errinfo.h"
#include "core/base/numparse.h"
#include "core/base/source.h"
#include "core/base/xalloc.h"

static char *read_all(const char *path, size_t *len)
{
    struct source src;
    struct errinfo err = {0};
    if (source_open(&src, path, &err) != ST_OK) {
        fprintf(stderr, "numcheck: %s: cannot open\n", path);
        exit(2);
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (cap - n < (1 << 16)) {
            cap *= 2;
            buf = xreallocarray(buf, cap, 1);
        }
        ssize_t r = source_read(&src, buf + n, cap - n - 1, &err);
        if (r < 0) {
            fprintf(stderr, "numcheck: %s: read error\n", path);
            exit(2);
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    source_close(&src);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static inline bool number_byte(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Checks the numbers of text[0..len); returns the count, *bad the faults. */
static size_t check_text(const char *name, const char *text, size_t len, size_t *bad)
{
    size_t count = 0;
    char tmp[1024];
    for (size_t i = 0; i < len;) {
        char c = text[i];
        if (c == '"') {
            for (i++; i < len && text[i] != '"'; i++)
                if (text[i] == '\\')
                    i++;
            i++;
            continue;
        }
        bool starts = (c >= '0' && c <= '9') ||
                      (c == '-' && i + 1 < len && text[i + 1] >= '0' && text[i + 1] <= '9');
        /* Inside a bare word (NaN, Infinity, true) nothing starts. */
        bool in_word = i > 0 && ((text[i - 1] >= 'a' && text[i - 1] <= 'z') ||
                                 (text[i - 1] >= 'A' && text[i - 1] <= 'Z'));
        if (!starts || in_word) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && number_byte(text[j]))
            j++;
        size_t n = j - i;
        count++;
        double fast, slow;
        if (n >= sizeof(tmp)) {
            fprintf(stderr, "%s:%zu: a number of %zu bytes, too long to check\n", name, i, n);
            (*bad)++;
        } else {
            memcpy(tmp, text + i, n);
            tmp[n] = '\0';
            char *end;
            slow = strtod(tmp, &end);
            if (!numparse_json(text + i, n, &fast)) {
                fprintf(stderr, "%s:%zu: numparse_json refuses %s\n", name, i, tmp);
                (*bad)++;
            } else if (*end || memcmp(&fast, &slow, sizeof(fast)) != 0) {
                fprintf(stderr, "%s:%zu: %s: numparse_json %a, strtod %a\n", name, i, tmp, fast,
                        slow);
                (*bad)++;
            }
        }
        i = j;
    }
    return count;
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "C");
    if (argc < 2) {
        fprintf(stderr, "usage: numcheck FILE...\n");
        return 2;
    }
    size_t bad = 0;
    for (int a = 1; a < argc; a++) {
        size_t len;
        char *text = read_all(argv[a], &len);
        size_t n = check_text(argv[a], text, len, &bad);
        printf("%s: %zu numbers\n", argv[a], n);
        free(text);
    }
    if (bad)
        printf("numcheck: %zu numbers differ from strtod or are refused\n", bad);
    return bad ? 1 : 0;
}
