/* Telling apart allocation sites that read the same: the first frame where
 * a site's frames leave those of its closest same-labelled site. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/base/vec.h"
#include "core/snapshot/snaplabel.h"
#include "core/symbols/kname.h"

/* Larger groups of one label are left as they are: comparing every pair
 * would cost their square. */
#define SNAPLABEL_MAX_GROUP 2048

/* A site's frames: buf.v[off .. off + n), innermost first. */
struct seq {
    size_t off;
    size_t n;
};

struct snaplabel_buf {
    uint32_t *v;
    size_t n, cap;
};

struct lab {
    const char *label;
    uint32_t site;
};

static inline bool lab_less(const struct lab *a, const struct lab *b)
{
    return strcmp(a->label, b->label) < 0;
}
SORT_DEFINE(lab_sort, struct lab, lab_less)

/* Index of the first frame where a and b differ; SIZE_MAX when they are
 * the same frames. */
/* A frame as the suffix shows it, made once per frame (shorts[id]). */
static const char *short_of(const struct snapshot *s, char **shorts, uint32_t id)
{
    if (!shorts[id]) {
        struct strbuf sb = STRBUF_INIT;
        snaplabel_short_frame(s, id, &sb);
        shorts[id] = sb_steal(&sb);
    }
    return shorts[id];
}

/* Index of the first frame where a and b read differently; SIZE_MAX when
 * they read the same. Frames that differ only in what is not shown (a
 * column, an address) do not tell sites apart for a reader. */
static size_t first_diff(const struct snapshot *s, char **shorts, const uint32_t *a, size_t na,
                         const uint32_t *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    for (size_t k = 0; k < n; k++)
        if (a[k] != b[k] && strcmp(short_of(s, shorts, a[k]), short_of(s, shorts, b[k])) != 0)
            return k;
    return na == nb ? SIZE_MAX : n;
}

void snaplabel_short_frame(const struct snapshot *s, uint32_t id, struct strbuf *sb)
{
    const struct snap_frame *fr = snapshot_frame(s, id);
    const char *fn = snapshot_str(s, fr->filename);
    const char *base = fn;
    for (const char *p = fn; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    if (fr->flags & SFF_PYTHON) {
        sb_printf(sb, "%s:%lld", *base ? base : snapshot_str(s, fr->name), (long long)fr->line);
    } else if (fr->flags & SFF_RAW) {
        sb_printf(sb, "%s+0x%llx", base, (unsigned long long)fr->line);
    } else {
        /* The last two components of the simplified name: what differs
         * between sites is the function, not its namespaces. */
        struct strbuf full = STRBUF_INIT;
        const char *name = snapshot_str(s, fr->name);
        kname_simplify_put(&full, name, strlen(name));
        const char *t = sb_str(&full), *cut = t;
        int seps = 0;
        for (const char *p = t + full.len; p > t + 1; p--) {
            if (p[-1] == ':' && p[-2] == ':' && ++seps == 2) {
                cut = p;
                break;
            }
            if (p[-1] == ':' && p[-2] == ':')
                p--;
        }
        sb_puts(sb, cut);
        sb_free(&full);
    }
}

void snaplabel_short_site(const struct snapshot *s, uint32_t id, struct strbuf *sb)
{
    const struct snap_frame *fr = snapshot_frame(s, id);
    if (!(fr->flags & SFF_PYTHON)) {
        snapshot_frame_format(s, id, sb);
        return;
    }
    sb_printf(sb, "%s (", snapshot_str(s, fr->name));
    snaplabel_short_frame(s, id, sb);
    sb_putc(sb, ')');
}

/* Where each site's frames start in buf (depth 0: its visible frames from
 * snapshot_site_start), and how many. */
static void site_frames(const struct snapshot *s, const struct snap_sites *ss, unsigned depth,
                        size_t i, struct seq *q, struct snaplabel_buf *buf)
{
    const struct snap_site *st = &ss->v[i];
    size_t start = buf->n;
    if (depth) {
        VEC_APPEND(buf, ss->frames + st->first_frame, st->nframes);
    } else if (st->stack != 0 || st->free_stack != 0) {
        uint32_t stack = st->free_stack ? st->free_stack : st->stack;
        const uint32_t *f;
        size_t nf = snapshot_stack(s, stack, &f);
        for (size_t k = snapshot_site_start(s, stack); k < nf; k++)
            if (!(s->frames.v[f[k]].flags & SFF_HIDDEN))
                VEC_PUSH(buf, f[k]);
    }
    q->off = start;
    q->n = buf->n - start;
}

char **snaplabel_via(const struct snapshot *s, const struct snap_sites *ss, unsigned depth,
                     const char *const *labels)
{
    char **via = xcalloc(ss->n ? ss->n : 1, sizeof(*via));
    struct lab *lab = xmalloc((ss->n ? ss->n : 1) * sizeof(*lab));
    size_t nl = 0;
    for (size_t i = 0; i < ss->n; i++)
        if (labels[i])
            lab[nl++] = (struct lab){labels[i], (uint32_t)i};
    lab_sort(lab, nl);
    struct snaplabel_buf buf = {0};
    struct seq *q = xcalloc(ss->n ? ss->n : 1, sizeof(*q));
    struct strbuf sb = STRBUF_INIT;
    char **shorts = NULL; /* by frame id, made when a label is shared */
    for (size_t a = 0; a < nl;) {
        size_t b = a + 1;
        while (b < nl && strcmp(lab[b].label, lab[a].label) == 0)
            b++;
        if (b - a < 2 || b - a > SNAPLABEL_MAX_GROUP) {
            a = b;
            continue;
        }
        if (!shorts)
            shorts = xcalloc(s->frames.n ? s->frames.n : 1, sizeof(*shorts));
        buf.n = 0;
        for (size_t k = a; k < b; k++)
            site_frames(s, ss, depth, lab[k].site, &q[lab[k].site], &buf);
        for (size_t k = a; k < b; k++) {
            const struct seq *qi = &q[lab[k].site];
            /* buf.v is null while no site of the group has frames */
            const uint32_t *fi = qi->n ? buf.v + qi->off : NULL;
            /* The closest same-labelled site leaves this one's frames last. */
            size_t at = SIZE_MAX;
            bool any = false;
            for (size_t m = a; m < b; m++) {
                if (m == k)
                    continue;
                const struct seq *qj = &q[lab[m].site];
                const uint32_t *fj = qj->n ? buf.v + qj->off : NULL;
                size_t d = first_diff(s, shorts, fi, qi->n, fj, qj->n);
                if (d != SIZE_MAX && (!any || d > at))
                    at = d;
                any = any || d != SIZE_MAX;
            }
            if (!any)
                continue; /* the same frames as every other: nothing to show */
            /* The labelling frame: the innermost Python one, else the first. */
            size_t label_at = 0;
            for (size_t m = 0; m < qi->n; m++) {
                if (s->frames.v[fi[m]].flags & SFF_PYTHON) {
                    label_at = m;
                    break;
                }
            }
            sb_clear(&sb);
            if (at >= qi->n) {
                sb_puts(&sb, " (no deeper frame)");
            } else if (at == label_at) {
                /* The other has frames inside the labelling one; this none. */
                sb_puts(&sb, " (no frames inside it)");
            } else {
                sb_puts(&sb, at < label_at ? " calling " : " via ");
                sb_puts(&sb, short_of(s, shorts, fi[at]));
            }
            via[lab[k].site] = xstrdup(sb_str(&sb));
        }
        a = b;
    }
    sb_free(&sb);
    for (size_t i = 0; shorts && i < s->frames.n; i++)
        free(shorts[i]);
    free(shorts);
    free(q);
    VEC_FREE(&buf);
    free(lab);
    return via;
}

void snaplabel_free(char **via, size_t n)
{
    if (!via)
        return;
    for (size_t i = 0; i < n; i++)
        free(via[i]);
    free(via);
}
