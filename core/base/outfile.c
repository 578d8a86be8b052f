/* Output files written whole or not at all: a temporary file beside the
 * target renamed onto it when complete; streams written in place; the
 * same-file check between an output and an input. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/input_registry.h"
#include "core/base/outfile.h"
#include "core/base/xalloc.h"

/* ------------------------------------------------------------------------ */
/* Temporary files to remove on a signal                                    */
/* ------------------------------------------------------------------------ */

/* Read by outfile_unlink_pending from a signal handler: each slot is a
 * whole pointer store, and a path is cleared from its slot before it is
 * freed. */
static char *volatile pending[16];

static void pending_add(char *path)
{
    for (size_t i = 0; i < ARRAY_SIZE(pending); i++)
        if (!pending[i]) {
            pending[i] = path;
            return;
        }
    /* More outputs open at once than slots: that one is not removed on a
     * signal, everything else about it still holds. */
}

static void pending_remove(const char *path)
{
    for (size_t i = 0; i < ARRAY_SIZE(pending); i++)
        if (pending[i] == path)
            pending[i] = NULL;
}

void outfile_unlink_pending(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(pending); i++) {
        char *p = pending[i];
        if (p)
            unlink(p);
    }
}

/* ------------------------------------------------------------------------ */
/* Same file                                                                */
/* ------------------------------------------------------------------------ */

static bool stat_of(const char *path, int std_fd, struct stat *st)
{
    if (strcmp(path, "-") == 0)
        return fstat(std_fd, st) == 0;
    return stat(path, st) == 0;
}

enum status outfile_check_distinct(const char *out, const char *in, struct errinfo *err)
{
    struct stat so, si;
    if (!stat_of(out, STDOUT_FILENO, &so) || !stat_of(in, STDIN_FILENO, &si))
        return ST_OK;
    /* Only regular files hold data to lose; a terminal is both stdin and
     * stdout of an interactive run. */
    if (!S_ISREG(so.st_mode) || !S_ISREG(si.st_mode))
        return ST_OK;
    if (so.st_dev != si.st_dev || so.st_ino != si.st_ino)
        return ST_OK;
    errinfo_set(err, ST_IO, strcmp(out, "-") == 0 ? "standard output" : out, -1,
                "the output is the same file as the input %s; refusing to overwrite it",
                strcmp(in, "-") == 0 ? "(standard input)" : in);
    return ST_IO;
}

/* ------------------------------------------------------------------------ */
/* Opening                                                                  */
/* ------------------------------------------------------------------------ */

static void outfile_reset(struct outfile *o)
{
    free(o->path);
    free(o->target);
    free(o->tmp);
    *o = (struct outfile){.fd = -1};
}

/* Names of standard output itself: written there, not reopened (a
 * reopened /dev/stdout of a redirected shell would start at offset 0). */
static bool is_stdout_name(const char *path)
{
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0 ||
           strcmp(path, "/dev/fd/1") == 0 || strcmp(path, "/proc/self/fd/1") == 0;
}

/* "DIR/.BASE.XXXXXX" beside target. */
static char *tmp_template(const char *target)
{
    const char *slash = strrchr(target, '/');
    if (!slash)
        return xasprintf(".%s.XXXXXX", target);
    return xasprintf("%.*s/.%s.XXXXXX", (int)(slash - target), target, slash + 1);
}

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Set up o for `path`; o->fd open on the target (streams) or on a new
 * temporary file (regular targets). */
static enum status open_common(struct outfile *o, const char *path, struct errinfo *err)
{
    *o = (struct outfile){.fd = -1};
    o->path = xstrdup(path);
    if (is_stdout_name(path)) {
        o->stream = true;
        o->fd = STDOUT_FILENO;
        return ST_OK;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        errinfo_set(err, ST_IO, path, -1, "cannot create: it is a directory");
        outfile_reset(o);
        errno = EISDIR;
        return ST_IO;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* A FIFO, a terminal, a device: no file to replace. */
        o->stream = true;
        o->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (o->fd < 0) {
            int e = errno;
            errinfo_set(err, ST_IO, path, -1, "cannot open: %s", strerror(e));
            outfile_reset(o);
            errno = e;
            return ST_IO;
        }
        return ST_OK;
    }
    /* The backstop behind outfile_check_distinct: an input this process
     * has read, however it was reached. */
    char *input = exists && S_ISREG(st.st_mode) ? input_registry_find(&st) : NULL;
    if (input) {
        errinfo_set(err, ST_IO, path, -1,
                    "the output is the same file as the input %s; refusing to overwrite it", input);
        free(input);
        outfile_reset(o);
        errno = EEXIST;
        return ST_IO;
    }
    /* A file its owner made read-only stays as it is, as it would for an
     * open in place (the rename needs only the directory's permission). */
    if (exists && access(path, W_OK) != 0) {
        int e = errno;
        errinfo_set(err, ST_IO, path, -1, "cannot create: %s", strerror(e));
        outfile_reset(o);
        errno = e;
        return ST_IO;
    }
    /* A symlink keeps pointing where it did: the file it names is the one
     * replaced. */
    struct stat lst;
    char *real = NULL;
    if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        real = realpath(path, NULL);
    o->target = real ? xstrdup(real) : xstrdup(path);
    free(real);
    o->tmp = tmp_template(o->target);
    o->fd = mkostemp(o->tmp, O_CLOEXEC);
    if (o->fd < 0) {
        int e = errno;
        errinfo_set(err, ST_IO, path, -1, "cannot create: %s", strerror(e));
        outfile_reset(o);
        errno = e;
        return ST_IO;
    }
    pending_add(o->tmp);
    /* mkstemp makes it 0600; the output gets the mode a plain create (or
     * the file it replaces) would have. */
    if (fchmod(o->fd, exists ? st.st_mode & 0777 : new_file_mode()) != 0) {
        errinfo_set(err, ST_IO, path, -1, "cannot create: %s", strerror(errno));
        outfile_discard(o);
        return ST_IO;
    }
    return ST_OK;
}

enum status outfile_open(struct outfile *o, const char *path, struct errinfo *err)
{
    return open_common(o, path, err);
}

enum status outfile_open_path(struct outfile *o, const char *path, struct errinfo *err)
{
    enum status st = open_common(o, path, err);
    if (st != ST_OK)
        return st;
    o->by_path = true;
    if (!o->stream) {
        close(o->fd);
        o->fd = -1;
        return ST_OK;
    }
    /* The library writes a file; commit copies it into the stream. */
    const char *dir = getenv("TMPDIR");
    o->tmp = xasprintf("%s/torchtop.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0) {
        errinfo_set(err, ST_IO, path, -1, "cannot create a temporary file in %s: %s",
                    dir && *dir ? dir : "/tmp", strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        outfile_discard(o);
        return ST_IO;
    }
    close(fd);
    pending_add(o->tmp);
    return ST_OK;
}

/* ------------------------------------------------------------------------ */
/* Finishing                                                                */
/* ------------------------------------------------------------------------ */

static void close_fd(struct outfile *o)
{
    if (o->fd >= 0 && o->fd != STDOUT_FILENO)
        close(o->fd);
    o->fd = -1;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        p += k;
        n -= (size_t)k;
    }
    return true;
}

/* By-path mode on a stream: the library's file, copied into it. */
static bool copy_into_stream(struct outfile *o)
{
    int in = open(o->tmp, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return false;
    char buf[1 << 16];
    bool ok = true;
    for (;;) {
        ssize_t n = read(in, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        if (!write_all(o->fd, buf, (size_t)n)) {
            ok = false;
            break;
        }
    }
    int e = errno;
    close(in);
    errno = e;
    return ok;
}

enum status outfile_commit(struct outfile *o, struct errinfo *err)
{
    bool ok = true;
    const char *what = "cannot write";
    errno = 0;
    if (o->stream && o->by_path && o->tmp)
        ok = copy_into_stream(o);
    if (o->fd >= 0 && o->fd != STDOUT_FILENO && close(o->fd) != 0)
        ok = false;
    o->fd = -1;
    if (ok && !o->stream && o->tmp) {
        ok = rename(o->tmp, o->target) == 0;
        if (ok) {
            pending_remove(o->tmp);
            free(o->tmp);
            o->tmp = NULL;
        } else {
            what = "cannot replace";
        }
    }
    if (!ok) {
        int e = errno ? errno : EIO;
        errinfo_set(err, ST_IO, o->path, -1, "%s: %s", what, strerror(e));
        outfile_discard(o);
        errno = e;
        return ST_IO;
    }
    outfile_discard(o); /* the stream's copy, if any; and the names */
    return ST_OK;
}

void outfile_discard(struct outfile *o)
{
    int e = errno; /* callers report the failure that led here */
    close_fd(o);
    if (o->tmp) {
        unlink(o->tmp);
        pending_remove(o->tmp);
    }
    outfile_reset(o);
    errno = e;
}
