/* The trace path a summary names, resolved beside the summary and opened
 * only if it is a regular file. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/xalloc.h"
#include "core/job/ranksum_trace.h"

/* source resolved against the directory of the file `beside`. */
static char *resolve_beside(const char *beside, const char *source)
{
    const char *slash = strrchr(beside, '/');
    if (source[0] == '/' || !slash)
        return xstrdup(source);
    return xasprintf("%.*s/%s", (int)(slash - beside), beside, source);
}

static const char *type_name(mode_t m)
{
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISCHR(m) || S_ISBLK(m))
        return "a device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

char *ranksum_trace_path(const struct ranksum *s, struct errinfo *err)
{
    if (!s->source || !*s->source) {
        errinfo_set(err, ST_IO, ranksum_file(s), -1, "names no trace (its \"source\" is empty)");
        return NULL;
    }
    char *path = s->file ? resolve_beside(s->file, s->source) : xstrdup(s->source);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat st;
    bool ok = false;
    if (fd < 0 || fstat(fd, &st) != 0) {
        errinfo_set(err, ST_IO, path, -1, "the trace of %s: cannot open: %s", ranksum_file(s),
                    strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        errinfo_set(err, ST_IO, path, -1,
                    "the trace of %s is %s: only a regular file is opened for a summary",
                    ranksum_file(s), type_name(st.st_mode));
    } else {
        ok = true;
    }
    if (fd >= 0)
        close(fd);
    if (!ok) {
        free(path);
        return NULL;
    }
    return path;
}
