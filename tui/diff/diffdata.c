/* A trace diff's data (tui/diff/diffdata.h). */
#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/analysis.h"
#include "core/base/display.h"
#include "core/base/wide.h"
#include "core/base/xalloc.h"
#include "core/roofline/roofline.h"
#include "tui/diff/diffdata.h"
#include "tui/frame/text.h"

bool diffdata_change_col(const struct table_col *c)
{
    return strncmp(c->name, "diff", 4) == 0 || strstr(c->name, "delta") != NULL;
}

/* Nanoseconds of GPU events in the steps compared, per side (§12.3). */
static void gpu_totals(struct diffdata *dd)
{
    for (int k = 0; k < 2; k++) {
        const struct trace *t = dd->td->t[k];
        int64_t sum = 0;
        for (uint32_t i = 0; i < t->ev.n; i++)
            if (dd->td->it[k].side[i] == ITERS_GPU && tracediff_in_step(dd->td, k, i))
                sum = wide_add_sat(sum, trace_ev(t, i)->dur);
        dd->gpu_total[k] = sum;
    }
}

struct diffdata *diffdata_new(struct tracediff *td)
{
    assert(td->it[0].side && td->it[1].side); /* opts.keep_events */
    struct diffdata *dd = xcalloc(1, sizeof(*dd));
    dd->td = td;
    dd->t[0] = (struct trace *)td->t[0];
    dd->t[1] = (struct trace *)td->t[1];
    dd->ctx.td = td;
    const char *labels[2] = {td->label[0], td->label[1]};
    dd->ctx.dt = difftree_new(td->t[0], td->t[1], labels);
    for (int s = 0; s < 2; s++)
        gputime_dense(dd->ctx.dt->g[s]);
    gpu_totals(dd);
    return dd;
}

void diffdata_free(struct diffdata *dd)
{
    if (!dd)
        return;
    for (int s = 0; s < 2; s++)
        roofline_free(dd->rl[s]);
    difftree_free(dd->ctx.dt);
    for (int s = 0; s < 2; s++)
        analysis_free(dd->ctx.an[s]);
    tracediff_free(dd->td);
    trace_free(dd->t[0]);
    trace_free(dd->t[1]);
    free(dd);
}

struct roofline *diffdata_roofline(struct diffdata *dd, int k)
{
    if (!dd->rl[k]) {
        if (!dd->ctx.an[k])
            dd->ctx.an[k] = analysis_new(dd->td->t[k]);
        char err[256];
        dd->rl[k] = roofline_new(dd->ctx.an[k], NULL, err);
    }
    return dd->rl[k];
}

void diffdata_change_text(struct strbuf *out, int64_t a, int64_t b, bool ascii)
{
    char buf[48];
    int64_t d = b - a;
    text_duration(buf, sizeof(buf), d < 0 ? -d : d, ascii);
    sb_printf(out, "%s%s", d < 0 ? "-" : d > 0 ? "+" : "", d == 0 ? "0" : buf);
    if (a > 0)
        sb_printf(out, " (%+.1f %%)", 100.0 * (double)d / (double)a);
}

void diffdata_side_text(const struct diffdata *dd, int k, struct strbuf *out, bool ascii)
{
    const struct trace *t = dd->td->t[k];
    sb_printf(out, "%-8s ", k ? "test:" : "control:");
    display_sanitize(out, dd->td->label[k], strlen(dd->td->label[k]));
    char buf[48];
    text_duration(buf, sizeof(buf), dd->gpu_total[k], ascii);
    sb_printf(out, "  GPU %s  ", buf);
    tracediff_describe_side(dd->td, k, out);
    const char *dev = t->devices.n ? trace_str(t, t->devices.v[0].name) : "";
    sb_puts(out, "  ");
    if (*dev)
        display_sanitize(out, dev, strlen(dev));
    else
        sb_puts(out, "(no device properties)");
    sb_puts(out, "  ");
    display_sanitize(out, t->path ? t->path : "-", strlen(t->path ? t->path : "-"));
}
