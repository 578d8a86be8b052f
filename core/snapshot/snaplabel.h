/* Allocation sites whose labels read the same: the first frame that tells
 * each apart from the others (issue 14, point 10), so that three rows
 * reading "step (optimizer.py:78)" become "... calling aten::mul",
 * "... calling aten::sqrt", "... via adam.py:123". */
#ifndef TORCHTOP_CORE_SNAPSHOT_SNAPLABEL_H
#define TORCHTOP_CORE_SNAPSHOT_SNAPLABEL_H

#include <stddef.h>

#include "core/snapshot/snapshot.h"

/* labels[i] is the label of site ss->v[i] (NULL: a site with no frames).
 * Returns an array of ss->n strings (owned, free each and the array with
 * snaplabel_free): NULL where the label is unique or nothing tells the site
 * apart, else what to append to it (docs/metrics.md §10.3): " calling F"
 * when the frame is inside the labelled one (nearer the allocation),
 * " via F" when it calls it, " (no frames inside it)" when it is the
 * labelled one itself (another site has frames inside it), F
 * short (a Python frame as file:line of its base name, a C++ one by the last
 * two components of its simplified name), or " (no deeper frame)" when the site's frames are a
 * prefix of another's. A site's frames are its key frames when grouped by
 * depth, else its visible frames from snapshot_site_start; it is told
 * apart from the same-labelled site whose frames read as its own the
 * longest (frames compared as snaplabel_short_frame writes them). */
char **snaplabel_via(const struct snapshot *s, const struct snap_sites *ss, unsigned depth,
                     const char *const *labels);
void snaplabel_free(char **via, size_t n);

/* Append frame id short: a Python frame as "file:line" of the file's base
 * name, a raw one as "lib.so+0x1a2b", a C++ one as the last two components
 * of its simplified name. */
void snaplabel_short_frame(const struct snapshot *s, uint32_t id, struct strbuf *sb);

/* Append frame id as a site's short name: a Python frame as "name
 * (file:line)" of the file's base name, others as snapshot_frame_format. */
void snaplabel_short_site(const struct snapshot *s, uint32_t id, struct strbuf *sb);

#endif
