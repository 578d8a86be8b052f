/* The job view's timeline: per rank a compute lane and a collectives lane
 * around one matched collective, with each rank's wait shaded. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "tui/job/joblanes.h"
#include "tui/trace/lanes.h"
#include "tui/frame/text.h"

/* Columns of a lane's label ("r123 comp") and of the wait on its right. */
#define LABEL_W 10
#define WAIT_W 16

int joblanes_wanted(const struct job_view *v)
{
    return 2 + 2 * (int)v->job->ranks.n;
}

/* The window shown: from one span of the collective (earliest start to
 * latest end) before its earliest start, so that the compute leading to
 * each arrival shows, to a quarter span after its end. */
static void window_of(const struct job_view *v, const struct coll_inst *x, int64_t *t0, int64_t *t1,
                      int w)
{
    int64_t end = x->latest_start;
    for (uint32_t k = 0; k < x->count; k++) {
        const struct coll_part *p = &v->colls.parts.v[x->first + k];
        const struct rank_coll *c = &v->job->ranks.v[p->rank_ix]->colls.v[p->coll];
        if (c->ts + c->dur > end)
            end = c->ts + c->dur;
    }
    int64_t span = end - x->earliest_start;
    if (span < w)
        span = w;
    *t0 = x->earliest_start - span;
    *t1 = end + span / 4;
}

static int col_of(int64_t t, int64_t t0, int64_t t1, int w)
{
    double c = (double)(t - t0) / ((double)(t1 - t0) / w);
    return c < 0 ? -1 : c >= w ? w : (int)c;
}

/* This rank's part in x, or NULL. */
static const struct rank_coll *part_of(const struct job_view *v, const struct coll_inst *x,
                                       uint32_t rank_ix)
{
    for (uint32_t k = 0; k < x->count; k++) {
        const struct coll_part *p = &v->colls.parts.v[x->first + k];
        if (p->rank_ix == rank_ix)
            return &v->job->ranks.v[rank_ix]->colls.v[p->coll];
    }
    return NULL;
}

struct lanes_ctx {
    const struct glyphs *g;
    bool ascii;
    int w;
    int64_t t0, t1;
    int mark; /* column of the latest start */
    float *occ;
    ivals_t comm;
};

static void put_label(struct strbuf *out, const char *s, bool ascii)
{
    text_fit_pad(out, s, strlen(s), LABEL_W, false, false, ascii);
}

/* A lane's cells: the wait columns (wait_c0 .. wait_c1 - 1) shaded, then
 * collectives, then compute (when with_comp), the marker in empty cells. */
static void put_cells(struct strbuf *out, const struct lanes_ctx *c, const float *comp,
                      const float *coll, int wait_c0, int wait_c1)
{
    for (int col = 0; col < c->w; col++) {
        const char *gl = " ";
        if (col >= wait_c0 && col < wait_c1)
            gl = c->ascii ? "-" : c->g->shade_idle;
        else if (coll && coll[col] > 0)
            gl = c->g->shade_comm;
        else if (comp && comp[col] > 0)
            gl = c->g->levels[comp[col] >= 1 ? 8 : 1 + (int)(comp[col] * 7)];
        else if (col == c->mark)
            gl = c->g->vline;
        sb_puts(out, gl);
    }
}

/* The rank's collective kernels overlapping the window, as a set. */
static void comm_of(struct lanes_ctx *c, const struct ranksum *s)
{
    c->comm.n = 0;
    for (size_t i = 0; i < s->colls.n; i++) {
        const struct rank_coll *k = &s->colls.v[i];
        if (k->ts < c->t1 && k->ts + k->dur > c->t0)
            *VEC_ADD(&c->comm) = (struct ival){k->ts, k->ts + k->dur};
    }
    c->comm.n = ival_normalize(c->comm.v, c->comm.n);
}

static void put_wait(struct strbuf *out, const struct coll_inst *x, uint32_t ix,
                     const struct rank_coll *rc, bool ascii)
{
    char buf[48], d[24];
    if (!rc) {
        snprintf(buf, sizeof(buf), " absent");
    } else if (ix == x->last_rank_ix) {
        snprintf(buf, sizeof(buf), " arrived last");
    } else {
        text_duration(d, sizeof(d), x->latest_start - rc->ts, ascii);
        snprintf(buf, sizeof(buf), " wait %s", d);
    }
    text_fit_pad(out, buf, strlen(buf), WAIT_W, false, false, ascii);
}

int joblanes_render(const struct job_view *v, uint32_t inst, int cols, int max_lines, bool ascii,
                    struct strbuf *out, enum joblane_kind *kinds)
{
    if (max_lines < 3 || inst >= v->colls.insts.n)
        return 0;
    const struct coll_inst *x = &v->colls.insts.v[inst];
    struct lanes_ctx c = {.g = ascii ? &glyphs_ascii : &glyphs_utf8, .ascii = ascii};
    c.w = cols - LABEL_W - WAIT_W;
    if (c.w < 8)
        c.w = 8;
    window_of(v, x, &c.t0, &c.t1, c.w);
    c.mark = col_of(x->latest_start, c.t0, c.t1, c.w);
    c.occ = xmalloc(sizeof(float) * (size_t)LC__COUNT * (size_t)c.w);
    float *comp = xmalloc(sizeof(float) * (size_t)c.w);
    const struct job *j = v->job;
    size_t n = j->ranks.n;
    int per = 2 + 2 * (int)n <= max_lines ? 2 : 1;
    size_t shown = (size_t)(max_lines - 2) / (size_t)per;
    if (shown < n && shown > 0 && per == 1)
        shown--; /* room for the line counting the others */
    if (shown > n)
        shown = n;
    int lines = 0;

    /* Title and axis. */
    char title[512], a[24], b[24], ww[24];
    text_duration(a, sizeof(a), x->latest_start - c.t0, ascii);
    text_duration(b, sizeof(b), c.t1 - x->latest_start, ascii);
    text_duration(ww, sizeof(ww), (int64_t)(x->avg_wait + 0.5), ascii);
    struct strbuf tb = STRBUF_INIT;
    text_fit(&tb, x->id, strlen(x->id), 40, true, ascii);
    snprintf(title, sizeof(title),
             "Collective %s, absolute time: %s latest start, -%s .. +%s; %s wait (mean %s), %s "
             "collectives, %s",
             sb_str(&tb), ascii ? "|" : c.g->vline, a, b, ascii ? "-" : c.g->shade_idle, ww,
             c.g->shade_comm, per == 2 ? "levels: compute" : "compute in the gaps");
    sb_free(&tb);
    text_fit(out, title, strlen(title), (size_t)cols, false, ascii);
    sb_putc(out, '\n');
    if (kinds)
        kinds[lines] = JL_TEXT;
    lines++;
    text_pad(out, LABEL_W);
    for (int col = 0; col < c.w; col++)
        sb_puts(out, col == c.mark ? c.g->tick : c.g->axis);
    sb_putc(out, '\n');
    if (kinds)
        kinds[lines] = JL_TEXT;
    lines++;

    for (size_t i = 0; i < shown; i++) {
        const struct ranksum *s = j->ranks.v[i];
        const struct rank_coll *rc = part_of(v, x, (uint32_t)i);
        int wc0 = -1, wc1 = -1;
        if (rc && rc->ts < x->latest_start) {
            wc0 = col_of(rc->ts, c.t0, c.t1, c.w);
            wc1 = col_of(x->latest_start, c.t0, c.t1, c.w);
            if (wc1 <= wc0)
                wc1 = wc0 + 1;
        }
        /* The busy set is borrowed into a lane of its own: lane_bins reads it only. */
        struct lane l = {0};
        l.iv[LC_COMP] = s->busy;
        lane_bins(&l, c.t0, c.t1, c.w, c.occ);
        memcpy(comp, c.occ, sizeof(float) * (size_t)c.w);
        comm_of(&c, s);
        memset(&l, 0, sizeof(l));
        l.iv[LC_COMM] = c.comm;
        lane_bins(&l, c.t0, c.t1, c.w, c.occ);
        const float *coll = c.occ + (size_t)LC_COMM * (size_t)c.w;
        char label[32];
        if (per == 2) {
            snprintf(label, sizeof(label), "r%d comp", j->rank_of.v[i]);
            put_label(out, label, ascii);
            if (s->busy_gap_ns < 0) {
                const char *m = "(a version 1 summary: no compute intervals)";
                text_fit_pad(out, m, strlen(m), (size_t)c.w, false, false, ascii);
            } else {
                put_cells(out, &c, comp, NULL, -1, -1);
            }
            sb_putc(out, '\n');
            if (kinds)
                kinds[lines] = JL_COMPUTE;
            lines++;
        }
        snprintf(label, sizeof(label), per == 2 ? "r%d coll" : "r%d", j->rank_of.v[i]);
        put_label(out, label, ascii);
        put_cells(out, &c, per == 2 ? NULL : comp, coll, wc0, wc1);
        put_wait(out, x, (uint32_t)i, rc, ascii);
        sb_putc(out, '\n');
        if (kinds)
            kinds[lines] = JL_COLL;
        lines++;
    }
    if (shown < n && lines < max_lines) {
        char more[96];
        snprintf(more, sizeof(more), "... %zu more ranks (the screen holds %zu)", n - shown, shown);
        text_fit(out, more, strlen(more), (size_t)cols, false, ascii);
        sb_putc(out, '\n');
        if (kinds)
            kinds[lines] = JL_TEXT;
        lines++;
    }
    VEC_FREE(&c.comm);
    free(comp);
    free(c.occ);
    return lines;
}
