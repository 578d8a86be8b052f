/* Where the source files that trace frames name are looked for: a search
 * path of directories for relative paths and prefix substitutions (as gdb's
 * `set substitute-path`) for traces recorded on another machine. Paths
 * from traces are untrusted: they are only joined, stat(2)ed and returned,
 * never handed to a shell or a program. */
#ifndef TORCHTOP_CORE_BASE_SRCPATH_H
#define TORCHTOP_CORE_BASE_SRCPATH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/base/strbuf.h"
#include "core/base/vec.h"

/* One substitution: a path starting with from (at a '/' boundary) starts
 * with to instead. */
struct srcpath_map {
    char *from; /* owned, without a trailing '/' (except the root) */
    char *to;   /* owned */
};

/* A list of owned paths (VEC-compatible). */
struct srcpath_list {
    char **v;
    size_t n, cap;
};
void srcpath_list_free(struct srcpath_list *l);

struct srcpath {
    struct srcpath_list dirs;     /* searched for relative paths, in order (owned) */
    VEC(struct srcpath_map) maps; /* tried in the order given; the first that applies wins */
    bool want_python;             /* python3's site-packages follow dirs, found on first use */
    bool python_done;             /* they were looked for (and appended to dirs if found) */
};

/* The separator of --source-path and TORCHTOP_SOURCE_PATH lists. */
#define SRCPATH_SEP ':'

/* The default search path: the current directory, then the site-packages
 * of the python3 on PATH (if any; asked once, when first needed). */
void srcpath_init(struct srcpath *sp);
void srcpath_done(struct srcpath *sp);

/* Replace the search path with the directories of a ':'-separated list
 * (an empty entry is the current directory); no python3 lookup then. */
void srcpath_set_dirs(struct srcpath *sp, const char *list);

/* Add a substitution from "OLD=NEW". False with why filled when spec has
 * no '=' or an empty OLD. */
bool srcpath_add_map(struct srcpath *sp, const char *spec, char *why, size_t whyn);

/* The path with the first substitution that applies (owned), or NULL when
 * none does. */
char *srcpath_apply_map(const struct srcpath *sp, const char *path);

/* The paths tried for file, in order, without repeats (each owned, pushed
 * onto out): the substituted path (joined to each search directory when
 * relative), then the path as given; an absolute path with a
 * site-packages or dist-packages component also tries what follows it
 * along the search directories. */
void srcpath_candidates(struct srcpath *sp, const char *file, struct srcpath_list *out);

/* Whether a file may be shown: a trace is untrusted, so only a file that,
 * after resolving "..", "." and symlinks (realpath), lies under one of
 * the search directories (resolved too) or under the target of a
 * --source-map rule. False with why filled otherwise (the resolved path
 * and what to do), or when path cannot be resolved (strerror). */
bool srcpath_allowed(const struct srcpath *sp, const char *path, char *why, size_t whyn);

/* The first candidate that is a regular file, readable and allowed
 * (srcpath_allowed) (owned), or NULL. When looked is not NULL it gets one
 * line per candidate tried: the path and why it was not taken ("PATH: No
 * such file or directory", "PATH: outside every source directory ..."). */
char *srcpath_find(struct srcpath *sp, const char *file, struct strbuf *looked);

/* The site-packages directories of the python3 on PATH, one per line, in
 * sb (existing directories only). Runs python3 once per process with fixed
 * arguments (fork/execvp, no shell, a 5 s limit) and caches the answer;
 * false (sb untouched) when there is no python3 or it gives nothing. */
bool srcpath_python_site(struct strbuf *sb);

#endif
