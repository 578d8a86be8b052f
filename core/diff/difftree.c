/* The merged call tree of two traces and its tables (difftree.h). */
#include "config.h"

#include "core/base/sort.h"
#include "core/diff/difftree.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/hash.h"
#include "core/base/hmap.h"
#include "core/base/strbuf.h"
#include "core/base/xalloc.h"
#include "core/job/jobpar.h"

/* Above this many cells (children of one pair, after the common prefix and
 * suffix) the alignment is greedy instead of Wagner-Fischer, so that a
 * node with tens of thousands of children on each side costs linear time
 * and memory. */
#define ALIGN_DP_MAX_CELLS (4u << 20)
/* How far the greedy alignment looks ahead for a name. */
#define ALIGN_LOOKAHEAD 64

/* Names of both sides as ids of one table, so that aligning compares ids:
 * per side, trace string id -> key id, filled on first use. */
struct keys {
    struct strtab st;
    uint32_t *of[2];
    const struct trace *t[2];
    struct gputime *g[2];
    uint64_t *name_hash[2]; /* per trace string id: hash_bytes of the string */
    /* Per side, over gputime_tree_events (n of them): prefix[i] is the
     * polynomial hash (modulo SIG_MOD) of the names of the first i,
     * power[i] = SIG_BASE^i,
     * so that any subtree's slice hashes in O(1). */
    uint64_t *prefix[2], *power[2];
    VEC(uint64_t) sig; /* align's GPU signatures, reused from node to node */
    struct strbuf tmp;
};

/* The name a node is matched by: Python frames without their line
 * number ("torch/nn/modules/module.py(1750): _call_impl" matches the same
 * function at another line, as in another torch version), and every
 * ProfilerStep#N as one (step numbers differ between runs). */
static void match_name(const struct trace *t, uint32_t ev, struct strbuf *out)
{
    uint32_t name = t->ev.v[ev].name;
    const char *s = trace_str(t, name);
    size_t n = strtab_len(&t->strs, name);
    sb_clear(out);
    if (strncmp(s, "ProfilerStep#", 13) == 0) {
        sb_puts(out, "ProfilerStep#");
        return;
    }
    const char *open = t->ev.v[ev].kind == EVK_PYTHON ? memchr(s, '(', n) : NULL;
    if (open) {
        const char *p = open + 1;
        while (p < s + n && *p >= '0' && *p <= '9')
            p++;
        if (p > open + 1 && p < s + n && *p == ')') {
            sb_putn(out, s, (size_t)(open - s));
            sb_putn(out, p + 1, (size_t)(s + n - p - 1));
            return;
        }
    }
    sb_putn(out, s, n);
}

static uint32_t key_of(struct keys *k, int side, uint32_t ev)
{
    const struct trace *t = k->t[side];
    uint32_t name = t->ev.v[ev].name;
    /* Cached per name: a name is a Python frame's on every event or none. */
    if (k->of[side][name] == IDX_NONE) {
        match_name(t, ev, &k->tmp);
        k->of[side][name] = strtab_intern(&k->st, sb_str(&k->tmp), k->tmp.len);
    }
    return k->of[side][name];
}

/* An order of keys that does not depend on which side interned them
 * first (byte order of the names), so that swapping the traces mirrors
 * every alignment. */
static int key_cmp(const struct keys *k, uint32_t x, uint32_t y)
{
    if (x == y)
        return 0;
    uint32_t lx = strtab_len(&k->st, x), ly = strtab_len(&k->st, y);
    int c = memcmp(strtab_str(&k->st, x), strtab_str(&k->st, y), lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

/* One step of an alignment: a pair, or one side only (IDX_NONE). */
struct align_op {
    uint32_t a, b;
};
typedef VEC(struct align_op) align_ops_t;
typedef VEC(uint32_t) idx_vec_t;

/* Costs of the alignment: a node on one side only, the same name with the
 * same GPU work below (kernel names in launch order), the same name with
 * other GPU work. Different names never pair (their cost exceeds two
 * one-side nodes'). */
#define COST_ONE_SIDE 2u
#define COST_SAME 0u
#define COST_OTHER_GPU 1u
#define COST_OTHER_NAME 5u

/* Wagner-Fischer over key sequences ka[0..m), kb[0..n) with GPU
 * signatures sa, sb, backtracked along an optimal path: a pair when the
 * names are equal and pairing is optimal, else a one-side node. Between
 * two optimal one-side choices, the side whose name (then signature) sorts
 * last goes first, so that swapping the traces mirrors the alignment.
 * Repeated names thus pair with the instance whose GPU work is the same.
 * Ops appended in order, as offsets. */
static void align_dp(const struct keys *k, const uint32_t *ka, const uint64_t *sa, size_t m,
                     const uint32_t *kb, const uint64_t *sb, size_t n, align_ops_t *ops)
{
    size_t w = n + 1;
    uint32_t *dp = xmalloc((m + 1) * w * sizeof(*dp));
#define PAIR_COST(i, j)                                                                            \
    (ka[i] != kb[j] ? COST_OTHER_NAME : sa[i] == sb[j] ? COST_SAME : COST_OTHER_GPU)
    for (size_t i = 0; i <= m; i++)
        dp[i * w] = (uint32_t)i * COST_ONE_SIDE;
    for (size_t j = 0; j <= n; j++)
        dp[j] = (uint32_t)j * COST_ONE_SIDE;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            uint32_t best = dp[(i - 1) * w + j - 1] + PAIR_COST(i - 1, j - 1);
            uint32_t del = dp[(i - 1) * w + j] + COST_ONE_SIDE;
            uint32_t ins = dp[i * w + j - 1] + COST_ONE_SIDE;
            best = del < best ? del : best;
            dp[i * w + j] = ins < best ? ins : best;
        }
    size_t start = ops->n, i = m, j = n;
    while (i > 0 || j > 0) {
        struct align_op op;
        uint32_t here = dp[i * w + j];
        bool pair_ok = i > 0 && j > 0 && ka[i - 1] == kb[j - 1] &&
                       here == dp[(i - 1) * w + j - 1] + PAIR_COST(i - 1, j - 1);
        bool del_ok = i > 0 && here == dp[(i - 1) * w + j] + COST_ONE_SIDE;
        bool ins_ok = j > 0 && here == dp[i * w + j - 1] + COST_ONE_SIDE;
        int c = i > 0 && j > 0 ? key_cmp(k, ka[i - 1], kb[j - 1]) : 0;
        if (c == 0 && i > 0 && j > 0)
            c = sa[i - 1] > sb[j - 1] ? 1 : sa[i - 1] < sb[j - 1] ? -1 : 0;
        if (pair_ok) {
            op = (struct align_op){(uint32_t)--i, (uint32_t)--j};
        } else if (del_ok && (!ins_ok || c >= 0)) {
            op = (struct align_op){(uint32_t)--i, IDX_NONE};
        } else {
            op = (struct align_op){IDX_NONE, (uint32_t)--j};
        }
        VEC_PUSH(ops, op);
    }
#undef PAIR_COST
    for (size_t x = start, y = ops->n; x + 1 < y; x++, y--) {
        struct align_op tmp = ops->v[x];
        ops->v[x] = ops->v[y - 1];
        ops->v[y - 1] = tmp;
    }
    free(dp);
}

/* In order: equal names pair up; otherwise the nearer of the two names'
 * next occurrence on the other side (within the look-ahead) decides which
 * side skips; neither found: both are one-side. */
static void align_greedy(const struct keys *k, const uint32_t *ka, size_t m, const uint32_t *kb,
                         size_t n, align_ops_t *ops)
{
    size_t i = 0, j = 0;
    while (i < m || j < n) {
        if (i < m && j < n && ka[i] == kb[j]) {
            VEC_PUSH(ops, ((struct align_op){(uint32_t)i++, (uint32_t)j++}));
            continue;
        }
        size_t da = SIZE_MAX, db = SIZE_MAX;
        for (size_t d = 1; d <= ALIGN_LOOKAHEAD && i < m && j + d < n && db == SIZE_MAX; d++)
            if (kb[j + d] == ka[i])
                db = d; /* b has d extra before a[i] */
        for (size_t d = 1; d <= ALIGN_LOOKAHEAD && j < n && i + d < m && da == SIZE_MAX; d++)
            if (ka[i + d] == kb[j])
                da = d;
        /* Equal distances: the name that sorts first waits (symmetric). */
        bool b_skips = db != SIZE_MAX && (db < da || (db == da && key_cmp(k, ka[i], kb[j]) < 0));
        if (j < n && (i == m || b_skips)) {
            VEC_PUSH(ops, ((struct align_op){IDX_NONE, (uint32_t)j++}));
        } else if (i < m && (j == n || da != SIZE_MAX)) {
            VEC_PUSH(ops, ((struct align_op){(uint32_t)i++, IDX_NONE}));
        } else {
            VEC_PUSH(ops, ((struct align_op){(uint32_t)i++, IDX_NONE}));
            VEC_PUSH(ops, ((struct align_op){IDX_NONE, (uint32_t)j++}));
        }
    }
}

/* The polynomial hash is taken modulo the prime 2^61 - 1, not 2^64:
 * modulo a power of two, long sequences of two names (Thue-Morse) collide
 * for any base. */
#define SIG_MOD ((UINT64_C(1) << 61) - 1)
#define SIG_BASE UINT64_C(0x1e3779b97f4a7c15) /* below SIG_MOD */

static uint64_t sig_mulmod(uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    uint64_t r = (uint64_t)(p & SIG_MOD) + (uint64_t)(p >> 61);
    return r >= SIG_MOD ? r - SIG_MOD : r;
}

static uint64_t sig_addmod(uint64_t a, uint64_t b)
{
    uint64_t r = a + b; /* both below 2^61: no wrap */
    return r >= SIG_MOD ? r - SIG_MOD : r;
}

/* The prefix hashes of one side's GPU events in tree order. */
static void sig_prefixes(struct keys *k, int side)
{
    uint32_t n;
    const uint32_t *evs = gputime_tree_events(k->g[side], &n);
    const struct trace *t = k->t[side];
    k->prefix[side] = xmalloc(((size_t)n + 1) * sizeof(uint64_t));
    k->power[side] = xmalloc(((size_t)n + 1) * sizeof(uint64_t));
    k->prefix[side][0] = 0;
    k->power[side][0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t h = k->name_hash[side][t->ev.v[evs[i]].name] % SIG_MOD;
        k->prefix[side][i + 1] = sig_addmod(sig_mulmod(k->prefix[side][i], SIG_BASE), h);
        k->power[side][i + 1] = sig_mulmod(k->power[side][i], SIG_BASE);
    }
}

/* The GPU work under ev: a hash of the names of the GPU events launched in
 * its subtree, in launch order (the same on either side for the same
 * kernels), and of their count. O(1): the subtree's events are a slice of
 * the side's tree order, hashed from its prefixes (hashing each subtree's
 * events anew would cost the sum of the subtrees, quadratic in depth). */
static uint64_t gpu_signature(const struct keys *k, int side, uint32_t ev)
{
    uint32_t n = 0, all;
    const uint32_t *g = gputime_subtree_events(k->g[side], ev, &n);
    size_t at = (size_t)(g - gputime_tree_events(k->g[side], &all));
    uint64_t h = sig_addmod(k->prefix[side][at + n],
                            SIG_MOD - sig_mulmod(k->prefix[side][at], k->power[side][n]));
    return hash_mix64(h ^ (0x51ed270b27f3a1c5ULL + n));
}

/* Align events a[] (side 0) with b[] (side 1) by name and GPU work; ops
 * name events. A common prefix and suffix (same names, same GPU work) pair
 * up before the alignment proper. */
static void align(struct keys *k, const idx_vec_t *a, const idx_vec_t *b, align_ops_t *ops,
                  idx_vec_t *ka, idx_vec_t *kb)
{
    ops->n = ka->n = kb->n = 0;
    for (size_t i = 0; i < a->n; i++)
        VEC_PUSH(ka, key_of(k, 0, a->v[i]));
    for (size_t j = 0; j < b->n; j++)
        VEC_PUSH(kb, key_of(k, 1, b->v[j]));
    size_t m = a->n, n = b->n, pre = 0, suf = 0;
    k->sig.n = 0;
    VEC_RESERVE(&k->sig, m + n + 1);
    uint64_t *sa = k->sig.v, *sb = sa + m;
    for (size_t x = 0; x < m; x++)
        sa[x] = gpu_signature(k, 0, a->v[x]);
    for (size_t x = 0; x < n; x++)
        sb[x] = gpu_signature(k, 1, b->v[x]);
    while (pre < m && pre < n && ka->v[pre] == kb->v[pre] && sa[pre] == sb[pre])
        pre++;
    while (suf < m - pre && suf < n - pre && ka->v[m - 1 - suf] == kb->v[n - 1 - suf] &&
           sa[m - 1 - suf] == sb[n - 1 - suf])
        suf++;
    for (size_t x = 0; x < pre; x++)
        VEC_PUSH(ops, ((struct align_op){(uint32_t)x, (uint32_t)x}));
    size_t mm = m - pre - suf, nn = n - pre - suf, mid = ops->n;
    /* An empty side's vector has no storage: offset only real arrays. */
    const uint32_t *xa = m ? ka->v + pre : NULL, *xb = n ? kb->v + pre : NULL;
    if ((uint64_t)(mm + 1) * (nn + 1) <= ALIGN_DP_MAX_CELLS)
        align_dp(k, xa, sa + pre, mm, xb, sb + pre, nn, ops);
    else
        align_greedy(k, xa, mm, xb, nn, ops);
    for (size_t x = mid; x < ops->n; x++) {
        if (ops->v[x].a != IDX_NONE)
            ops->v[x].a += (uint32_t)pre;
        if (ops->v[x].b != IDX_NONE)
            ops->v[x].b += (uint32_t)pre;
    }
    for (size_t x = 0; x < suf; x++)
        VEC_PUSH(ops, ((struct align_op){(uint32_t)(m - suf + x), (uint32_t)(n - suf + x)}));
    /* Offsets to events. */
    for (size_t x = 0; x < ops->n; x++) {
        if (ops->v[x].a != IDX_NONE)
            ops->v[x].a = a->v[ops->v[x].a];
        if (ops->v[x].b != IDX_NONE)
            ops->v[x].b = b->v[ops->v[x].b];
    }
}

static const struct trace *roots_t; /* qsort has no context argument */

static int cmp_by_ts(const void *x, const void *y)
{
    const struct event *a = trace_ev(roots_t, *(const uint32_t *)x);
    const struct event *b = trace_ev(roots_t, *(const uint32_t *)y);
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

/* The host spans at the top of every thread, by start. */
static void collect_roots(const struct trace *t, idx_vec_t *out)
{
    out->n = 0;
    for (size_t r = 0; r < t->rows.n; r++) {
        if (t->rows.v[r].cls != ROW_HOST)
            continue;
        for (uint32_t e = t->rows.v[r].first_root; e != IDX_NONE; e = t->ev.v[e].next_sibling)
            if (evk_is_host_span(t->ev.v[e].kind))
                VEC_PUSH(out, e);
    }
    roots_t = t;
    sort_items(out->v, out->n, sizeof(*out->v), cmp_by_ts);
    roots_t = NULL;
}

static void collect_children(const struct trace *t, uint32_t ev, idx_vec_t *out)
{
    out->n = 0;
    if (ev == IDX_NONE)
        return;
    for (uint32_t c = t->ev.v[ev].first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
        if (evk_is_host_span(t->ev.v[c].kind))
            VEC_PUSH(out, c);
}

/* Append merged nodes for ops under parent (IDX_NONE: roots); returns the
 * first new node. */
static void add_nodes(struct difftree *dt, const align_ops_t *ops, uint32_t parent, idx_vec_t *work)
{
    uint32_t prev = IDX_NONE;
    uint32_t depth = parent == IDX_NONE ? 0 : dt->nodes.v[parent].depth + 1;
    size_t first_work = work->n;
    for (size_t x = 0; x < ops->n; x++) {
        uint32_t id = (uint32_t)dt->nodes.n;
        struct difftree_node nd = {{ops->v[x].a, ops->v[x].b}, parent, IDX_NONE, IDX_NONE, depth};
        VEC_PUSH(&dt->nodes, nd);
        for (int s = 0; s < 2; s++)
            if (nd.ev[s] != IDX_NONE)
                dt->node_of[s][nd.ev[s]] = id;
        if (prev != IDX_NONE)
            dt->nodes.v[prev].next_sibling = id;
        else if (parent != IDX_NONE)
            dt->nodes.v[parent].first_child = id;
        else
            dt->first_root = id;
        prev = id;
        VEC_PUSH(work, id);
    }
    /* Reversed, so that the stack takes them in order. */
    for (size_t x = first_work, y = work->n ? work->n - 1 : 0; x < y; x++, y--) {
        uint32_t tmp = work->v[x];
        work->v[x] = work->v[y];
        work->v[y] = tmp;
    }
}

/* What the merge needs of one side alone (its GPU times, the event ->
 * node map, its names' hashes), built for both sides at once. */
struct side_setup {
    struct difftree *dt;
    struct keys *k;
};

static bool setup_side(void *ud, size_t s)
{
    struct side_setup *S = ud;
    struct difftree *dt = S->dt;
    struct keys *k = S->k;
    const struct trace *t = dt->t[s];
    dt->g[s] = gputime_new(t);
    size_t nev = t->ev.n ? t->ev.n : 1;
    dt->node_of[s] = xmalloc(nev * sizeof(uint32_t));
    memset(dt->node_of[s], 0xff, nev * sizeof(uint32_t));
    size_t ns = strtab_count(&t->strs);
    k->of[s] = xmalloc((ns ? ns : 1) * sizeof(uint32_t));
    memset(k->of[s], 0xff, (ns ? ns : 1) * sizeof(uint32_t));
    k->name_hash[s] = xmalloc((ns ? ns : 1) * sizeof(uint64_t));
    for (uint32_t i = 0; i < ns; i++)
        k->name_hash[s][i] = hash_bytes(trace_str(t, i), strtab_len(&t->strs, i));
    k->t[s] = t;
    k->g[s] = dt->g[s];
    sig_prefixes(k, (int)s);
    return true;
}

struct difftree *difftree_new(const struct trace *control, const struct trace *test,
                              const char *const label[2])
{
    struct difftree *dt = xcalloc(1, sizeof(*dt));
    dt->t[0] = control;
    dt->t[1] = test;
    dt->first_root = IDX_NONE;
    struct keys k = {0};
    strtab_init(&k.st);
    for (int s = 0; s < 2; s++)
        dt->label[s] = xstrdup(label && label[s] ? label[s] : s ? "test" : "control");
    struct side_setup S = {dt, &k};
    jobpar_run(2, jobpar_workers(2, 2), setup_side, NULL, &S);
    idx_vec_t a = {0}, b = {0}, ka = {0}, kb = {0}, work = {0};
    align_ops_t ops = {0};
    collect_roots(control, &a);
    collect_roots(test, &b);
    align(&k, &a, &b, &ops, &ka, &kb);
    add_nodes(dt, &ops, IDX_NONE, &work);
    while (work.n) {
        uint32_t id = work.v[--work.n];
        uint32_t e0 = dt->nodes.v[id].ev[0], e1 = dt->nodes.v[id].ev[1];
        collect_children(control, e0, &a);
        collect_children(test, e1, &b);
        if (!a.n && !b.n)
            continue;
        align(&k, &a, &b, &ops, &ka, &kb);
        add_nodes(dt, &ops, id, &work);
    }
    VEC_FREE(&a);
    VEC_FREE(&b);
    VEC_FREE(&ka);
    VEC_FREE(&kb);
    VEC_FREE(&work);
    VEC_FREE(&ops);
    strtab_free(&k.st);
    sb_free(&k.tmp);
    for (int s = 0; s < 2; s++) {
        free(k.of[s]);
        free(k.name_hash[s]);
        free(k.prefix[s]);
        free(k.power[s]);
    }
    VEC_FREE(&k.sig);
    return dt;
}

void difftree_free(struct difftree *dt)
{
    if (!dt)
        return;
    for (int s = 0; s < 2; s++) {
        gputime_free(dt->g[s]);
        free(dt->node_of[s]);
        free(dt->label[s]);
    }
    VEC_FREE(&dt->nodes);
    free(dt);
}

int64_t difftree_cpu(const struct difftree *dt, uint32_t node, int side)
{
    uint32_t e = dt->nodes.v[node].ev[side];
    return e == IDX_NONE ? 0 : trace_ev(dt->t[side], e)->dur;
}

int64_t difftree_gpu_direct(const struct difftree *dt, uint32_t node, int side)
{
    uint32_t e = dt->nodes.v[node].ev[side];
    return e == IDX_NONE ? 0 : gputime_direct(dt->g[side], e, true);
}

int64_t difftree_gpu_subtree(const struct difftree *dt, uint32_t node, int side)
{
    uint32_t e = dt->nodes.v[node].ev[side];
    return e == IDX_NONE ? 0 : gputime_subtree(dt->g[side], e, true);
}

const char *difftree_name(const struct difftree *dt, uint32_t node)
{
    const struct difftree_node *n = &dt->nodes.v[node];
    int s = n->ev[0] != IDX_NONE ? 0 : 1;
    return ev_name(dt->t[s], n->ev[s]);
}
