/* The inputs of one multi-rank job: what `report TRACE...`, `torchtop DIR`
 * and any command that reads several traces (or rank summaries) together
 * accept, resolved to a list of files with the rank their names give.
 *
 * An argument is a file, a directory (its *.json, *.json.gz and *.summary
 * files, sorted by name, not recursive) or a glob pattern (glob(3), sorted;
 * a pattern that matches nothing is an error). A path that exists is never
 * treated as a pattern. */
#ifndef TORCHTOP_CORE_JOB_INPUTS_H
#define TORCHTOP_CORE_JOB_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "core/base/errinfo.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"

struct job_input {
    char *path;        /* as found (argument, directory/name or glob match) */
    int name_rank;     /* rank the file name gives (job_inputs_name_rank), -1 = none */
    uint64_t dev, ino; /* the file's identity (stat), 0/0 when unknown */
    bool named;        /* an argument itself, not a directory's file or a glob's match:
                          then a FIFO or device is read (once); else only a regular file */
};

struct job_inputs {
    VEC(struct job_input) v; /* in argument order; a directory's or glob's in name order */
    bool any_dir;            /* an argument was a directory */
    struct hmap seen;        /* hash of (dev, ino) -> index into v */
};

/* Resolve args[0..n) into out (initialised here; free with
 * job_inputs_free, also after a failure). The same file reached twice
 * (a file and the directory holding it) is kept once. Errors (ST_IO, the
 * argument named in err): an argument that is neither a file, a directory
 * nor a pattern with matches; a directory without trace files. */
enum status job_inputs_resolve(const char *const *args, size_t n, struct job_inputs *out,
                               struct errinfo *err);

/* The rank a file name gives, from its last component: "rank-3",
 * "rank3", "rank_3", "_rank_3." (case-insensitive, the last such match);
 * -1 when there is none or the number does not fit in an int. */
int job_inputs_name_rank(const char *path);

/* Whether a path names a directory. */
bool job_inputs_is_dir(const char *path);

void job_inputs_free(struct job_inputs *in);

#endif
