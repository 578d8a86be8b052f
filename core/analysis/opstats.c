/* Launcher-op GPU time tables: ops_summary, by category, unique args. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis/opstats.h"
#include "core/base/hmap.h"
#include "core/base/interval.h"
#include "core/base/wide.h"
#include "core/trace/argpack.h"
#include "core/base/sort.h"
#include "core/base/strbuf.h"
#include "core/trace/opname.h"

struct opstats *opstats_new(const struct trace *t, struct gputime *gt)
{
    struct opstats *s = xcalloc(1, sizeof(*s));
    s->t = t;
    s->gt = gt;
    VEC(struct launcher) v = {0};
    /* Only the events with GPU work can be rows: gputime's list of them
     * (event order) rather than every event. */
    uint32_t nl;
    const uint32_t *ls = gputime_launchers(gt, &nl);
    for (uint32_t li = 0; li < nl; li++) {
        uint32_t i = ls[li];
        if (!(t->ev.v[i].flags & EVF_LAUNCHER))
            continue;
        uint32_t n;
        const uint32_t *gpu = gputime_launched(gt, i, &n);
        uint32_t first = IDX_NONE;
        for (uint32_t k = 0; k < n && first == IDX_NONE; k++)
            if (!(t->ev.v[gpu[k]].flags & EVF_COMM))
                first = gpu[k];
        if (first == IDX_NONE)
            continue; /* communication only */
        struct launcher *l = VEC_ADD(&v);
        l->ev = i;
        l->direct = gputime_direct_once(gt, i, false);
        l->subtree = gputime_subtree_once(gt, i, false);
        l->first_kernel = first;
        l->cat = (uint8_t)opcat_classify(opname_str(t, i), ev_name(t, first));
    }
    s->l = v.v;
    s->n = v.n;
    return s;
}

void opstats_free(struct opstats *s)
{
    if (!s)
        return;
    free(s->l);
    free(s);
}

const struct launcher *opstats_find(const struct opstats *s, uint32_t ev)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->l[mid].ev < ev)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && s->l[lo].ev == ev ? &s->l[lo] : NULL;
}

enum opcat opstats_category(const struct opstats *s, uint32_t ev)
{
    const struct launcher *l = opstats_find(s, ev);
    return l ? (enum opcat)l->cat : opcat_of_name(opname_str(s->t, ev));
}

/* ------------------------------------------------------------------------ */
/* Grouping helpers                                                         */
/* ------------------------------------------------------------------------ */

/* A group key of up to 8 ids plus the launcher index; sorted to make the
 * members of each group adjacent. */
struct gkey {
    uint32_t k[8];
    uint32_t li;
};

static inline bool gkey_less(const struct gkey *a, const struct gkey *b)
{
    for (int i = 0; i < 8; i++)
        if (a->k[i] != b->k[i])
            return a->k[i] < b->k[i];
    return a->li < b->li;
}

static inline bool gkey_same(const struct gkey *a, const struct gkey *b)
{
    return memcmp(a->k, b->k, sizeof(a->k)) == 0;
}

SORT_DEFINE(gkey_sort, struct gkey, gkey_less)

/* The is_recompute column tables add when recompute marking is on
 * (analysis_mark_recompute), TraceLens's name for it. */
static const struct table_col recompute_col = {"is_recompute", "recompute", COL_TEXT, 0, COLF_ASC};

/* Launcher li's recompute mark as a key part: 1 recomputed, 0 not. */
static uint32_t recompute_key(const struct opstats *s, size_t li)
{
    return s->recompute && s->recompute[s->l[li].ev] ? 1 : 0;
}

/* The percent column of each row's share of `col`, and the cumulative
 * percent column, the running sum of pct, in the row order (and in any
 * order the rows are sorted into later). */
static void fill_percent(struct table *tab, size_t col, size_t pct, size_t cum)
{
    double total = 0;
    for (size_t r = 0; r < tab->nrows; r++)
        total += table_cell(tab, r, col).f;
    for (size_t r = 0; r < tab->nrows; r++)
        table_set_float(tab, r, pct, total > 0 ? 100.0 * table_cell(tab, r, col).f / total : 0);
    table_set_cumulative(tab, cum, pct);
}

/* Rows whose instances are given as event lists rather than launchers:
 * row, events. */
struct extra_inst {
    size_t row;
    const uint32_t *ev;
    size_t n;
};

/* Build instances CSR for groups [gstart[g], gstart[g+1]) of sorted keys,
 * and the nx rows of x. */
static void set_group_instances(struct table *tab, const struct opstats *s, const struct gkey *keys,
                                const size_t *gstart, const size_t *row_of_group, size_t ngroups,
                                const struct extra_inst *x, size_t nx)
{
    uint32_t *first = xcalloc(tab->nrows + 1, sizeof(uint32_t));
    for (size_t g = 0; g < ngroups; g++)
        first[row_of_group[g] + 1] = (uint32_t)(gstart[g + 1] - gstart[g]);
    for (size_t i = 0; i < nx; i++)
        first[x[i].row + 1] = (uint32_t)x[i].n;
    for (size_t r = 0; r < tab->nrows; r++)
        first[r + 1] += first[r];
    uint32_t *inst = xmalloc((first[tab->nrows] + 1) * sizeof(uint32_t));
    for (size_t g = 0; g < ngroups; g++) {
        uint32_t at = first[row_of_group[g]];
        for (size_t k = gstart[g]; k < gstart[g + 1]; k++)
            inst[at++] = s->l[keys[k].li].ev;
    }
    for (size_t i = 0; i < nx; i++)
        memcpy(inst + first[x[i].row], x[i].ev, x[i].n * sizeof(uint32_t));
    table_set_instances(tab, first, inst);
}

/* ------------------------------------------------------------------------ */
/* ops_summary                                                              */
/* ------------------------------------------------------------------------ */

enum {
    OPS_NAME,
    OPS_DIRECT_SUM,
    OPS_SUBTREE_SUM,
    OPS_DIRECT_MS,
    OPS_SUBTREE_MS,
    OPS_COUNT,
    OPS_CATEGORIES,
    OPS_PCT,
    OPS_CUM,
    OPS_PARENT, /* only in tables of traces merged with a capture */
    OPS__N
};

/* The kinds of ops_summary rows. TraceLens's rows are ops; the others
 * hold the GPU time no op row counts, so that the percentages are of all
 * GPU time (docs/metrics.md §3). */
enum op_row_kind { ORK_OP, ORK_UNLAUNCHED, ORK_GRAPH, ORK_COMM, ORK__COUNT };

static const struct {
    const char *kind, *name;
} op_row_kinds[ORK__COUNT] = {
    [ORK_OP] = {"op", NULL},
    [ORK_UNLAUNCHED] = {"no_launching_op", "(GPU work with no launching op)"},
    [ORK_GRAPH] = {"graph_replay", "(graph replays: attribute with --capture CAPTURE)"},
    [ORK_COMM] = {"communication", "(communication kernels)"},
};

/* Whether GPU event ev ran in a graph replay: linked to a graph launch,
 * or, when no launch claimed it, carrying a nonzero "graph id". */
static bool in_graph(const struct trace *t, uint32_t ev)
{
    if (t->ev.v[ev].flags & EVF_GRAPH)
        return true;
    struct argval a;
    int64_t id;
    return argpack_find(t, ev, "graph id", &a) && argpack_val_int(t, &a, &id) && id != 0;
}

/* The events of the rows add_other_rows made, their instances. */
struct other_rows {
    VEC(uint32_t) ev[ORK__COUNT];
    struct extra_inst x[ORK__COUNT];
};

/* The rows for the GPU work no op row counts: GPU events with no
 * launcher in s (unlinked ones, split into graph replays and the rest) and
 * communication kernels, which ops leave out. Each row's time is the
 * union of its events, as an op's direct time is; its instances are the
 * events (o->x, the count returned; o->ev for the caller to free). */
static size_t add_other_rows(struct table *tab, const struct opstats *s, size_t kcol,
                             struct other_rows *o)
{
    const struct trace *t = s->t;
    ivals_t iv[ORK__COUNT] = {{0}};
    int64_t count[ORK__COUNT] = {0};
    size_t nx = 0;
    memset(o, 0, sizeof(*o));
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_gpu(e->kind))
            continue;
        enum op_row_kind k;
        const struct gpu_info *g = ev_gpu(t, i);
        if (e->flags & EVF_COMM)
            k = ORK_COMM;
        else if (g && g->launcher != IDX_NONE && opstats_find(s, g->launcher))
            continue;
        else
            k = in_graph(t, i) ? ORK_GRAPH : ORK_UNLAUNCHED;
        count[k]++;
        *VEC_ADD(&iv[k]) = (struct ival){e->ts, wide_add_sat(e->ts, e->dur)};
        VEC_PUSH(&o->ev[k], i);
    }
    for (int k = ORK_UNLAUNCHED; k < ORK__COUNT; k++) {
        if (count[k]) {
            double ns = (double)ival_union_length(iv[k].v, iv[k].n);
            size_t r = table_add_row(tab);
            table_set_text(tab, r, OPS_NAME, op_row_kinds[k].name);
            table_set_float(tab, r, OPS_DIRECT_SUM, ns / 1e3);
            table_set_float(tab, r, OPS_SUBTREE_SUM, ns / 1e3);
            table_set_float(tab, r, OPS_DIRECT_MS, ns / 1e6);
            table_set_float(tab, r, OPS_SUBTREE_MS, ns / 1e6);
            table_set_int(tab, r, OPS_COUNT, count[k]);
            table_set_text(tab, r, OPS_CATEGORIES, "[]");
            table_set_text(tab, r, kcol, op_row_kinds[k].kind);
            table_set_ref(tab, r, 0);
            o->x[nx++] = (struct extra_inst){r, o->ev[k].v, o->ev[k].n};
        }
        VEC_FREE(&iv[k]);
    }
    return nx;
}

/* TraceLens's parent_module: the nearest "nn.Module: NAME_N" frame above
 * ev, without its "_N" instance suffix, interned in mods; 0 when none. */
static uint32_t parent_module(const struct trace *t, uint32_t ev, struct strtab *mods)
{
    for (uint32_t p = t->ev.v[ev].parent; p != IDX_NONE; p = t->ev.v[p].parent) {
        if (!(t->ev.v[p].flags & EVF_MODULE))
            continue;
        const char *nm = ev_name(t, p);
        size_t n = strlen(nm), k = n;
        while (k > 0 && nm[k - 1] >= '0' && nm[k - 1] <= '9')
            k--;
        if (k < n && k > 0 && nm[k - 1] == '_')
            n = k - 1;
        return strtab_intern(mods, nm, n);
    }
    return 0;
}

struct table *opstats_ops_table(const struct opstats *s)
{
    static const struct table_col cols[OPS__N] = {
        [OPS_NAME] = {"name", "op", COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        [OPS_DIRECT_SUM] = {"total_direct_kernel_time_sum", "direct µs", COL_FLOAT, 3, COLF_DETAIL},
        [OPS_SUBTREE_SUM] = {"total_subtree_kernel_time_sum", "subtree µs", COL_FLOAT, 3,
                             COLF_DETAIL},
        [OPS_DIRECT_MS] = {"total_direct_kernel_time_ms", "direct ms", COL_FLOAT, 3, 0},
        [OPS_SUBTREE_MS] = {"total_subtree_kernel_time_ms", "subtree ms", COL_FLOAT, 3, 0},
        [OPS_COUNT] = {"Count", "count", COL_INT, 0, 0},
        [OPS_CATEGORIES] = {"Categories", "category", COL_TEXT, 0, COLF_ASC},
        [OPS_PCT] = {"Percentage (%)", "%", COL_PERCENT, 2, 0},
        [OPS_CUM] = {"Cumulative Percentage (%)", "cum %", COL_PERCENT, 2, 0},
        [OPS_PARENT] = {"parent_module", "parent module", COL_TEXT, 0, COLF_ASC},
    };
    /* The last column says each row's kind: "op" for TraceLens's rows. */
    static const struct table_col kind_col = {"row_kind", "row kind", COL_TEXT, 0,
                                              COLF_DETAIL | COLF_ASC};
    const struct trace *t = s->t;
    /* Rows per op name and parent module, as TraceLens's capture-merged
     * reports, when a capture brought nn.Module frames in. */
    bool by_module = t->n_captures > 0;
    size_t kcol = by_module ? OPS__N : OPS__N - 1;
    size_t rcol = kcol + 1; /* is_recompute, when on */
    struct table_col all[OPS__N + 2];
    memcpy(all, cols, sizeof(cols));
    all[kcol] = kind_col;
    all[rcol] = recompute_col;
    struct table *tab = table_new("ops_summary", "GPU time by launcher op", all,
                                  kcol + 1 + (s->recompute_on ? 1 : 0));
    struct strtab mods;
    strtab_init(&mods);
    struct gkey *keys = xmalloc((s->n + 1) * sizeof(*keys));
    for (size_t i = 0; i < s->n; i++)
        keys[i] = (struct gkey){{opname_of(t, s->l[i].ev),
                                 by_module ? parent_module(t, s->l[i].ev, &mods) : 0,
                                 recompute_key(s, i), 0, 0, 0, 0, 0},
                                (uint32_t)i};
    gkey_sort(keys, s->n);
    size_t *gstart = xmalloc((s->n + 2) * sizeof(size_t));
    size_t *row_of = xmalloc((s->n + 1) * sizeof(size_t));
    size_t ng = 0;
    struct strbuf cats = STRBUF_INIT;
    for (size_t a = 0; a < s->n;) {
        size_t b = a + 1;
        while (b < s->n && gkey_same(&keys[a], &keys[b]))
            b++;
        /* 128-bit: times near the loader's limit add up past int64. */
        __int128 direct = 0, subtree = 0;
        bool seen[OPCAT__COUNT] = {false};
        for (size_t k = a; k < b; k++) {
            direct += s->l[keys[k].li].direct;
            subtree += s->l[keys[k].li].subtree;
            seen[s->l[keys[k].li].cat] = true;
        }
        sb_clear(&cats);
        sb_putc(&cats, '[');
        for (int c = 0; c < OPCAT__COUNT; c++)
            if (seen[c])
                sb_printf(&cats, "%s'%s'", cats.len > 1 ? ", " : "", opcat_name(c));
        sb_putc(&cats, ']');
        size_t r = table_add_row(tab);
        table_set_text(tab, r, OPS_NAME, trace_str(t, keys[a].k[0]));
        table_set_float(tab, r, OPS_DIRECT_SUM, (double)direct / 1e3);
        table_set_float(tab, r, OPS_SUBTREE_SUM, (double)subtree / 1e3);
        table_set_float(tab, r, OPS_DIRECT_MS, (double)direct / 1e6);
        table_set_float(tab, r, OPS_SUBTREE_MS, (double)subtree / 1e6);
        table_set_int(tab, r, OPS_COUNT, (int64_t)(b - a));
        table_set_text(tab, r, OPS_CATEGORIES, sb_str(&cats));
        table_set_text(tab, r, kcol, op_row_kinds[ORK_OP].kind);
        if (s->recompute_on)
            table_set_text(tab, r, rcol, keys[a].k[2] ? "True" : "False");
        if (by_module)
            table_set_text(tab, r, OPS_PARENT,
                           keys[a].k[1] ? strtab_str(&mods, keys[a].k[1]) : "NA");
        table_set_ref(tab, r, keys[a].k[0]);
        gstart[ng] = a;
        row_of[ng++] = r;
        a = b;
    }
    gstart[ng] = s->n;
    struct other_rows other;
    size_t nx = add_other_rows(tab, s, kcol, &other);
    set_group_instances(tab, s, keys, gstart, row_of, ng, other.x, nx);
    for (int k = 0; k < ORK__COUNT; k++)
        VEC_FREE(&other.ev[k]);
    sb_free(&cats);
    strtab_free(&mods);
    free(keys);
    free(gstart);
    free(row_of);
    static const struct table_sort_key order[] = {{OPS_DIRECT_MS, true}, {OPS_NAME, false}};
    table_sort_keys(tab, order, ARRAY_SIZE(order));
    fill_percent(tab, OPS_DIRECT_MS, OPS_PCT, OPS_CUM);
    if (!s->n)
        table_add_note(tab, t->n_gpu ? "no op launched GPU work (no cpu_op above the launches)"
                                     : "the trace has no GPU work");
    return tab;
}

/* ------------------------------------------------------------------------ */
/* ops_summary_by_category                                                  */
/* ------------------------------------------------------------------------ */

enum { CAT_NAME, CAT_COUNT, CAT_DIRECT_MS, CAT_PCT, CAT_CUM, CAT__N };

struct table *opstats_category_table(const struct opstats *s)
{
    static const struct table_col cols[CAT__N] = {
        [CAT_NAME] = {"op category", "category", COL_TEXT, 0, COLF_ASC},
        [CAT_COUNT] = {"Count", "count", COL_INT, 0, 0},
        [CAT_DIRECT_MS] = {"total_direct_kernel_time_ms", "direct ms", COL_FLOAT, 3, 0},
        [CAT_PCT] = {"Percentage (%)", "%", COL_PERCENT, 2, 0},
        [CAT_CUM] = {"Cumulative Percentage (%)", "cum %", COL_PERCENT, 2, 0},
    };
    struct table *tab =
        table_new("ops_summary_by_category", "GPU time by op category", cols, CAT__N);
    __int128 direct[OPCAT__COUNT] = {0};
    uint32_t count[OPCAT__COUNT] = {0};
    for (size_t i = 0; i < s->n; i++) {
        direct[s->l[i].cat] += s->l[i].direct;
        count[s->l[i].cat]++;
    }
    uint32_t *first = xcalloc(OPCAT__COUNT + 1, sizeof(uint32_t));
    size_t rows = 0;
    for (int c = 0; c < OPCAT__COUNT; c++) {
        if (!count[c])
            continue;
        size_t r = table_add_row(tab);
        table_set_text(tab, r, CAT_NAME, opcat_name(c));
        table_set_int(tab, r, CAT_COUNT, count[c]);
        table_set_float(tab, r, CAT_DIRECT_MS, (double)direct[c] / 1e6);
        table_set_ref(tab, r, (uint32_t)c);
        first[r + 1] = count[c];
        rows++;
    }
    for (size_t r = 0; r < rows; r++)
        first[r + 1] += first[r];
    uint32_t *inst = xmalloc((s->n + 1) * sizeof(uint32_t));
    uint32_t *at = xcalloc(OPCAT__COUNT, sizeof(uint32_t));
    for (size_t r = 0; r < rows; r++)
        at[tab->refs[r]] = first[r];
    for (size_t i = 0; i < s->n; i++)
        inst[at[s->l[i].cat]++] = s->l[i].ev;
    free(at);
    table_set_instances(tab, first, inst);
    table_sort(tab, CAT_DIRECT_MS, true);
    fill_percent(tab, CAT_DIRECT_MS, CAT_PCT, CAT_CUM);
    return tab;
}

/* ------------------------------------------------------------------------ */
/* ops_unique_args                                                          */
/* ------------------------------------------------------------------------ */

enum {
    UA_NAME,
    UA_CAT,
    UA_PROCESS,
    UA_PLABEL,
    UA_THREAD,
    UA_DIMS,
    UA_TYPES,
    UA_STRIDES,
    UA_CONCRETE,
    UA_COUNT,
    UA_D_MEAN,
    UA_S_MEAN,
    UA_D_MEDIAN,
    UA_S_MEDIAN,
    UA_D_STD,
    UA_S_STD,
    UA_D_MIN,
    UA_S_MIN,
    UA_D_MAX,
    UA_S_MAX,
    UA_D_SUM,
    UA_S_SUM,
    UA_EX_UID,
    UA_PCT,
    UA_CUM,
    UA_PARENT, /* only in tables of traces merged with a capture */
    UA__N
};

static inline bool double_less(const double *a, const double *b)
{
    return *a < *b;
}

SORT_DEFINE(double_sort, double, double_less)

/* Median of v (reordered). */
static double median_of(double *v, size_t n)
{
    double_sort(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* mean, median, sample std (n-1, as pandas), min, max, sum; times in µs. */
static void stats(double *v, size_t n, double out[6])
{
    double sum = 0, mn = INFINITY, mx = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        sum += v[i];
        mn = fmin(mn, v[i]);
        mx = fmax(mx, v[i]);
    }
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    out[0] = mean;
    out[1] = median_of(v, n);
    out[2] = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
    out[3] = mn;
    out[4] = mx;
    out[5] = sum;
}

/* Per row, the first row with the same pid, thread id text and side: the
 * rows capture.c makes, one per graph launch, for one capture thread
 * group as one thread. Other rows are their own. Caller frees. */
static uint32_t *canonical_rows(const struct trace *t)
{
    uint32_t *c = xmalloc((t->rows.n + 1) * sizeof(uint32_t));
    struct hmap m;
    hmap_init(&m, t->rows.n);
    for (uint32_t r = 0; r < t->rows.n; r++) {
        const struct row *w = &t->rows.v[r];
        uint64_t key = ((uint64_t)w->tid_str << 32) ^ (uint64_t)w->pid ^ ((uint64_t)w->cls << 63);
        uint32_t f = hmap_get(&m, key);
        if (f != IDX_NONE && t->rows.v[f].pid == w->pid && t->rows.v[f].tid_str == w->tid_str &&
            t->rows.v[f].cls == w->cls) {
            c[r] = f;
        } else {
            c[r] = r;
            if (f == IDX_NONE)
                hmap_put(&m, key, r);
        }
    }
    hmap_free(&m);
    return c;
}

struct table *opstats_unique_args_table(const struct opstats *s)
{
    static const struct table_col cols[UA__N] = {
        [UA_NAME] = {"name", "op", COL_TEXT, 0, COLF_WIDE | COLF_ASC},
        [UA_CAT] = {"op category", "category", COL_TEXT, 0, COLF_ASC | COLF_DETAIL},
        [UA_PROCESS] = {"process_name", "process", COL_TEXT, 0, COLF_ASC | COLF_DETAIL},
        [UA_PLABEL] = {"process_label", "label", COL_TEXT, 0, COLF_ASC | COLF_DETAIL},
        [UA_THREAD] = {"thread_name", "thread", COL_TEXT, 0, COLF_ASC | COLF_DETAIL},
        [UA_DIMS] = {"Input Dims", "input dims", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_SHAPES},
        [UA_TYPES] = {"Input type", "input type", COL_TEXT, 0, COLF_WIDE | COLF_ASC | COLF_SHAPES},
        [UA_STRIDES] = {"Input Strides", "strides", COL_TEXT, 0,
                        COLF_ASC | COLF_DETAIL | COLF_SHAPES},
        [UA_CONCRETE] = {"Concrete Inputs", "concrete", COL_TEXT, 0,
                         COLF_ASC | COLF_DETAIL | COLF_SHAPES},
        [UA_COUNT] = {"operation_count", "count", COL_INT, 0, 0},
        [UA_D_MEAN] = {"total_direct_kernel_time_mean", "mean µs", COL_FLOAT, 3, 0},
        [UA_S_MEAN] = {"total_subtree_kernel_time_mean", "subtree mean µs", COL_FLOAT, 3,
                       COLF_DETAIL},
        [UA_D_MEDIAN] = {"total_direct_kernel_time_median", "median µs", COL_FLOAT, 3, COLF_DETAIL},
        [UA_S_MEDIAN] = {"total_subtree_kernel_time_median", "subtree median µs", COL_FLOAT, 3,
                         COLF_DETAIL},
        [UA_D_STD] = {"total_direct_kernel_time_std", "std µs", COL_FLOAT, 3, COLF_DETAIL},
        [UA_S_STD] = {"total_subtree_kernel_time_std", "subtree std µs", COL_FLOAT, 3, COLF_DETAIL},
        [UA_D_MIN] = {"total_direct_kernel_time_min", "min µs", COL_FLOAT, 3, 0},
        [UA_S_MIN] = {"total_subtree_kernel_time_min", "subtree min µs", COL_FLOAT, 3, COLF_DETAIL},
        [UA_D_MAX] = {"total_direct_kernel_time_max", "max µs", COL_FLOAT, 3, 0},
        [UA_S_MAX] = {"total_subtree_kernel_time_max", "subtree max µs", COL_FLOAT, 3, COLF_DETAIL},
        [UA_D_SUM] = {"total_direct_kernel_time_sum", "total µs", COL_FLOAT, 3, 0},
        [UA_S_SUM] = {"total_subtree_kernel_time_sum", "subtree total µs", COL_FLOAT, 3,
                      COLF_DETAIL},
        [UA_EX_UID] = {"ex_UID", "example", COL_INT, 0, COLF_DETAIL},
        [UA_PCT] = {"Percentage (%)", "%", COL_PERCENT, 2, 0},
        [UA_CUM] = {"Cumulative Percentage (%)", "cum %", COL_PERCENT, 2, 0},
        [UA_PARENT] = {"parent_module", "parent module", COL_TEXT, 0, COLF_ASC},
    };
    const struct trace *t = s->t;
    size_t ncols = t->n_captures ? UA__N : UA__N - 1;
    size_t rcol = ncols; /* is_recompute, when on */
    struct table_col all[UA__N + 1];
    memcpy(all, cols, sizeof(cols));
    all[rcol] = recompute_col;
    struct table *tab = table_new("ops_unique_args", "GPU time by op and input shapes", all,
                                  ncols + (s->recompute_on ? 1 : 0));
    bool by_module = t->n_captures > 0;
    struct strtab mods;
    strtab_init(&mods);
    uint32_t *canon = canonical_rows(t);
    struct gkey *keys = xmalloc((s->n + 1) * sizeof(*keys));
    bool any_shapes = false;
    for (size_t i = 0; i < s->n; i++) {
        uint32_t ev = s->l[i].ev;
        const struct op_info *o = ev_op(t, ev);
        keys[i] = (struct gkey){{opname_of(t, ev), canon[t->ev.v[ev].row], o ? o->input_dims : 0,
                                 o ? o->input_type : 0, o ? o->input_strides : 0,
                                 o ? o->concrete_inputs : 0,
                                 by_module ? parent_module(t, ev, &mods) : 0, recompute_key(s, i)},
                                (uint32_t)i};
        any_shapes |= o && o->input_dims;
    }
    gkey_sort(keys, s->n);
    size_t *gstart = xmalloc((s->n + 2) * sizeof(size_t));
    size_t *row_of = xmalloc((s->n + 1) * sizeof(size_t));
    double *dv = xmalloc((s->n + 1) * sizeof(double)), *sv = xmalloc((s->n + 1) * sizeof(double));
    struct strbuf sb = STRBUF_INIT;
    size_t ng = 0;
    for (size_t a = 0; a < s->n;) {
        size_t b = a + 1;
        while (b < s->n && gkey_same(&keys[a], &keys[b]))
            b++;
        const struct launcher *l0 = &s->l[keys[a].li];
        const struct row *row = &t->rows.v[t->ev.v[l0->ev].row];
        size_t r = table_add_row(tab);
        table_set_text(tab, r, UA_NAME, opname_str(t, l0->ev));
        table_set_text(tab, r, UA_CAT, opcat_name(l0->cat));
        table_set_text(tab, r, UA_PROCESS, trace_str(t, row->process_name));
        table_set_text(tab, r, UA_PLABEL,
                       row->process_label ? trace_str(t, row->process_label) : "CPU");
        table_set_text(tab, r, UA_THREAD, trace_str(t, row->thread_name));
        static const int shape_cols[4] = {UA_DIMS, UA_TYPES, UA_STRIDES, UA_CONCRETE};
        for (int k = 0; k < 4; k++) {
            sb_clear(&sb);
            pyval_repr(&sb, trace_val(t, keys[a].k[2 + k]), PYVAL_TUPLES);
            table_set_text(tab, r, shape_cols[k], sb_str(&sb));
        }
        for (size_t k = a; k < b; k++) {
            dv[k - a] = s->l[keys[k].li].direct / 1e3;
            sv[k - a] = s->l[keys[k].li].subtree / 1e3;
        }
        double ds[6], ss[6];
        stats(dv, b - a, ds);
        stats(sv, b - a, ss);
        table_set_int(tab, r, UA_COUNT, (int64_t)(b - a));
        for (int k = 0; k < 6; k++) {
            table_set_float(tab, r, UA_D_MEAN + 2 * k, ds[k]);
            table_set_float(tab, r, UA_S_MEAN + 2 * k, ss[k]);
        }
        if (by_module)
            table_set_text(tab, r, UA_PARENT,
                           keys[a].k[6] ? strtab_str(&mods, keys[a].k[6]) : "NA");
        if (s->recompute_on)
            table_set_text(tab, r, rcol, keys[a].k[7] ? "True" : "False");
        table_set_int(tab, r, UA_EX_UID, (int64_t)trace_file_index(t, l0->ev));
        table_set_ref(tab, r, l0->ev);
        gstart[ng] = a;
        row_of[ng++] = r;
        a = b;
    }
    gstart[ng] = s->n;
    set_group_instances(tab, s, keys, gstart, row_of, ng, NULL, 0);
    sb_free(&sb);
    strtab_free(&mods);
    free(canon);
    free(dv);
    free(sv);
    free(keys);
    free(gstart);
    free(row_of);
    /* Ties keep the order of their first instances: string ids are not
     * stable between runs (parsing threads intern in any order). */
    static const struct table_sort_key order[] = {{UA_D_SUM, true}, {UA_EX_UID, false}};
    table_sort_keys(tab, order, ARRAY_SIZE(order));
    fill_percent(tab, UA_D_SUM, UA_PCT, UA_CUM);
    if (s->n && !any_shapes)
        table_add_note(tab, "the trace was recorded without record_shapes=True: no input shapes");
    return tab;
}
