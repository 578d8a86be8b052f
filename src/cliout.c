#include "src/cliout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base/display.h"
#include "core/base/errinfo.h"
#include "core/base/outfile.h"
#include "core/trace/capture.h"
#include "src/commands.h"

bool cliout_parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static void write_error(const char *cmd, const char *path, int e)
{
    struct strbuf sb = STRBUF_INIT;
    display_sanitize(&sb, path, strlen(path));
    fprintf(stderr, "torchtop %s: cannot write %s: %s\n", cmd, sb_str(&sb), strerror(e));
    sb_free(&sb);
}

void cliout_release_stdout(void)
{
    fflush(stdout);
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fd != STDOUT_FILENO) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
}

int cliout_write(const char *cmd, const char *path, const struct strbuf *sb)
{
    if (!path || strcmp(path, "-") == 0) {
        errno = 0;
        fwrite(sb_str(sb), 1, sb->len, stdout);
        if (ferror(stdout) | fflush(stdout)) {
            write_error(cmd, "standard output", errno ? errno : EIO);
            return EXIT_FAILURE_RUN;
        }
        return EXIT_OK;
    }
    struct outfile of;
    struct errinfo err = {0};
    bool ok = outfile_open(&of, path, &err) == ST_OK;
    if (ok) {
        /* Anything printed to stdout before goes first (-o /dev/stdout is
         * the same stream). */
        fflush(stdout);
        const char *p = sb_str(sb);
        size_t left = sb->len;
        while (left && ok) {
            ssize_t n = write(of.fd, p, left);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                outfile_discard(&of);
                ok = false;
            } else {
                p += n;
                left -= (size_t)n;
            }
        }
        ok = ok && outfile_commit(&of, &err) == ST_OK;
    }
    int e = errno ? errno : EIO; /* outfile leaves the reason there */
    if (!ok && e == EEXIST && err.status != ST_OK) {
        /* An output that is an input: outfile's message names both. */
        char *m = errinfo_format(&err);
        fprintf(stderr, "torchtop %s: %s\n", cmd, m);
        free(m);
    } else if (!ok) {
        write_error(cmd, path, e);
    }
    errinfo_clear(&err);
    return ok ? EXIT_OK : EXIT_FAILURE_RUN;
}

/* outs against one input: EXIT_OK, or the message and EXIT_FAILURE_RUN. */
static int check_against(const char *cmd, const char *const *outs, size_t nouts, const char *in)
{
    for (size_t i = 0; i < nouts; i++) {
        struct errinfo err = {0};
        if (outs[i] && outfile_check_distinct(outs[i], in, &err) != ST_OK) {
            char *m = errinfo_format(&err);
            fprintf(stderr, "torchtop%s%s: %s\n", cmd ? " " : "", cmd ? cmd : "", m);
            free(m);
            errinfo_clear(&err);
            return EXIT_FAILURE_RUN;
        }
    }
    return EXIT_OK;
}

int cliout_check_outputs(const char *cmd, const char *const *outs, size_t nouts, const char *in,
                         const char *const *captures, size_t ncaptures)
{
    int rc = in ? check_against(cmd, outs, nouts, in) : EXIT_OK;
    for (size_t k = 0; k < ncaptures && !rc; k++) {
        char **files;
        size_t n;
        struct errinfo err = {0};
        if (capture_list(captures[k], &files, &n, &err) != ST_OK) {
            errinfo_clear(&err);
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            if (!rc)
                rc = check_against(cmd, outs, nouts, files[i]);
            free(files[i]);
        }
        free(files);
    }
    return rc;
}
