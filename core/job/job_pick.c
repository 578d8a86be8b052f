/* One rank out of a job's inputs (job_pick.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/job/job_pick.h"

static int int_cmp(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Whether every input's name gives a rank and no two give the same. */
static bool by_name(const struct job_inputs *in)
{
    size_t n = in->v.n;
    if (!n)
        return false;
    int *r = xmalloc(n * sizeof(*r));
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        r[i] = in->v.v[i].name_rank;
        ok = r[i] >= 0;
    }
    if (ok) {
        sort_items(r, n, sizeof(*r), int_cmp);
        for (size_t i = 1; i < n && ok; i++)
            ok = r[i] != r[i - 1];
    }
    free(r);
    return ok;
}

int job_pick_rank_of(const struct job_inputs *in, size_t i)
{
    return by_name(in) ? in->v.v[i].name_rank : (int)i;
}

/* "8 traces, ranks 0-7 by file name", runs of consecutive ranks joined. */
static void describe(const struct job_inputs *in, struct strbuf *out)
{
    size_t n = in->v.n;
    bool names = by_name(in);
    int *r = xmalloc((n ? n : 1) * sizeof(*r));
    for (size_t i = 0; i < n; i++)
        r[i] = names ? in->v.v[i].name_rank : (int)i;
    sort_items(r, n, sizeof(*r), int_cmp);
    sb_printf(out, "%zu trace%s, rank%s ", n, n == 1 ? "" : "s", n == 1 ? "" : "s");
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && r[j + 1] == r[j] + 1)
            j++;
        sb_printf(out, "%s%d", i ? ", " : "", r[i]);
        if (j > i)
            sb_printf(out, "%s%d", j > i + 1 ? "-" : ", ", r[j]);
        i = j + 1;
    }
    sb_puts(out, names ? " by file name" : " by the order of the files");
    free(r);
}

bool job_pick_rank(const struct job_inputs *in, int rank, size_t *out, char *msg, size_t msgn)
{
    struct strbuf sb = STRBUF_INIT;
    bool ok = false;
    if (rank < 0 && in->v.n == 1) {
        *out = 0;
        ok = true;
    } else if (rank >= 0) {
        for (size_t i = 0; i < in->v.n && !ok; i++)
            if (job_pick_rank_of(in, i) == rank) {
                *out = i;
                ok = true;
            }
        if (!ok)
            sb_printf(&sb, "no rank %d among ", rank);
    }
    if (!ok) {
        describe(in, &sb);
        snprintf(msg, msgn, "%s", sb_str(&sb));
    }
    sb_free(&sb);
    return ok;
}
