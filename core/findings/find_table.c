/* The findings as tables: one row per finding in the stable schema
 * (kind, rank, region, saving_us, saving_pct, statement, evidence) and
 * one row per rule saying what it did (findings.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "core/findings/findings.h"

static const struct table_col find_cols[] = {
    {"kind", "kind", COL_TEXT, 0, COLF_KEY},
    {"rank", "rank", COL_INT, 0, COLF_DETAIL},
    {"region", "region", COL_TEXT, 0, COLF_DETAIL},
    {"saving_us", "saving ≤ µs/step", COL_INT, 0, COLF_KEY},
    {"saving_pct", "saving ≤ %", COL_PERCENT, 1, COLF_KEY},
    {"statement", "finding", COL_TEXT, 0, COLF_WIDE | COLF_NAME | COLF_KEY},
    {"evidence", "evidence", COL_TEXT, 0, COLF_LINES},
};
static const struct table_col rule_cols[] = {
    {"kind", "rule", COL_TEXT, 0, COLF_NAME},
    {"status", "status", COL_TEXT, 0, 0},
    {"saving_us", "saving ≤ µs/step", COL_INT, 0, 0},
    {"saving_pct", "saving ≤ %", COL_PERCENT, 1, 0},
    {"note", "note", COL_TEXT, 0, COLF_WIDE},
};

static struct table *findings_table(const struct findings *fs)
{
    struct table *tab = table_new(
        "findings", "Findings: what to fix first, by what it would save on the critical path",
        find_cols, ARRAY_SIZE(find_cols));
    tab->whole = true;
    uint32_t *first = xmalloc((fs->v.n + 1) * sizeof(*first)), ninst = 0;
    for (size_t i = 0; i < fs->v.n; i++)
        ninst += (uint32_t)fs->v.v[i].evidence.n;
    uint32_t *inst = xmalloc((ninst + 1) * sizeof(*inst));
    struct strbuf sb = STRBUF_INIT;
    int64_t sum = 0;
    ninst = 0;
    for (size_t i = 0; i < fs->v.n; i++) {
        const struct finding *f = &fs->v.v[i];
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, findings_kind_name((enum finding_kind)f->kind));
        table_set_int(tab, r, 1, fs->rank >= 0 ? fs->rank : TABLE_NO_INT);
        table_set_text(tab, r, 2, fs->region);
        table_set_int(tab, r, 3, f->saving_us);
        table_set_float(tab, r, 4, f->saving_pct);
        table_set_text(tab, r, 5, f->statement);
        sb_clear(&sb);
        first[r] = ninst;
        for (size_t j = 0; j < f->evidence.n; j++) {
            sb_printf(&sb, "%s%s", j ? "\n" : "", f->evidence.v[j].text);
            inst[ninst++] = f->evidence.v[j].ev;
        }
        table_set_text(tab, r, 6, sb_str(&sb));
        if (f->evidence.n)
            table_set_ref(tab, r, f->evidence.v[0].ev);
        sum += f->saving_us;
    }
    first[fs->v.n] = ninst;
    table_set_instances(tab, first, inst);
    sb_free(&sb);
    tab->sorted_col = 3;
    tab->sorted_desc = true;
    if (fs->nsteps)
        table_add_note(tab,
                       "%s: %u step%s, critical path %lld µs per step; each saving is an upper "
                       "bound: the critical path's what-if with the finding's edges at 0",
                       fs->region, fs->nsteps, fs->nsteps == 1 ? "" : "s", (long long)fs->step_us);
    else
        table_add_note(tab, "no step of the trace has a critical path: no finding can be made");
    if (fs->v.n > 1 && sum > fs->together_us)
        table_add_note(tab,
                       "the findings overlap: their savings add up to %lld µs per step, every "
                       "rule's edges at 0 together save %lld µs (%.1f %% of the step)",
                       (long long)sum, (long long)fs->together_us,
                       fs->step_us ? 100.0 * (double)fs->together_us / (double)fs->step_us : 0);
    if (fs->short_steps)
        table_add_note(tab,
                       "%u step%s left out: the last one, whose events HTA's filter leaves "
                       "out, or a critical path under a tenth of the longest (a step the "
                       "profiler cut short)",
                       fs->short_steps, fs->short_steps == 1 ? "" : "s");
    if (!fs->v.n && fs->nsteps)
        table_add_note(tab, "no finding saves %.0f %% of the step or more", FINDINGS_MIN_PCT);
    return tab;
}

static struct table *rules_table(const struct findings *fs)
{
    struct table *tab = table_new("findings_rules", "Findings: what each rule found, or why not",
                                  rule_cols, ARRAY_SIZE(rule_cols));
    tab->whole = true;
    for (int k = 0; k < FK__COUNT; k++) {
        const struct finding_status *st = &fs->status[k];
        bool found = false;
        for (size_t i = 0; i < fs->v.n; i++)
            found |= fs->v.v[i].kind == k;
        size_t r = table_add_row(tab);
        table_set_text(tab, r, 0, findings_kind_name((enum finding_kind)k));
        table_set_text(tab, r, 1, !st->ran ? "not run" : found ? "found" : "ran");
        table_set_int(tab, r, 2, st->ran ? st->saving_us : TABLE_NO_INT);
        table_set_float(tab, r, 3, st->ran ? st->saving_pct : (double)NAN);
        table_set_text(tab, r, 4, st->note);
    }
    return tab;
}

void findings_tables(const struct trace *t, const struct findings *fs, struct table_list *out)
{
    (void)t;
    table_list_add(out, findings_table(fs));
    table_list_add(out, rules_table(fs));
}
