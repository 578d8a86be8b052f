/* Collective instances across ranks: matching by process group and order,
 * or by order alone, and TraceLens's implicit-sync measures. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/hmap.h"
#include "core/base/wide.h"
#include "core/base/sort.h"
#include "core/base/xalloc.h"
#include "core/job/job_colls.h"

enum coll_kind job_colls_kind(const char *name)
{
    static const struct {
        const char *name;
        enum coll_kind kind;
    } names[] = {
        {"allreduce", COLL_ALLREDUCE},
        {"allreduce_coalesced", COLL_ALLREDUCE},
        {"reducescatter", COLL_REDUCESCATTER},
        {"_reduce_scatter_base", COLL_REDUCESCATTER},
        {"reduce_scatter_tensor_coalesced", COLL_REDUCESCATTER},
        {"allgather", COLL_ALLGATHER},
        {"all_gather", COLL_ALLGATHER},
        {"_allgather_base", COLL_ALLGATHER},
        {"all_gather_into_tensor_coalesced", COLL_ALLGATHER},
        {"allgather_into_tensor_coalesced", COLL_ALLGATHER},
        {"all_to_all", COLL_ALLTOALL},
        {"all_to_allv", COLL_OTHER},
    };
    if (!name || !*name)
        return COLL_UNKNOWN;
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].kind;
    return COLL_UNKNOWN;
}

/* The token of the kernel name that starts at p: up to '_' or '('. */
static size_t token_len(const char *p)
{
    size_t n = 0;
    while (p[n] && p[n] != '_' && p[n] != '(')
        n++;
    return n;
}

bool job_colls_from_kernel(const char *kernel, const char **name, const char **dtype)
{
    static const struct {
        const char *op, *name;
        bool reduces; /* the name's type is the data's */
    } ops[] = {
        {"AllReduce", "allreduce", true},  {"ReduceScatter", "reducescatter", true},
        {"AllGather", "allgather", false}, {"Broadcast", "broadcast", false},
        {"Reduce", "reduce", true},        {"SendRecv", "sendrecv", false},
        {"Send", "sendrecv", false},       {"Recv", "sendrecv", false},
        {"AllToAll", "all_to_all", false},
    };
    /* NCCL's types as kernel names spell them, old and new (f32, bf16). */
    static const struct {
        const char *tok, *dtype;
    } types[] = {
        {"float", "Float"},   {"f32", "Float"},     {"half", "Half"},  {"f16", "Half"},
        {"bf16", "BFloat16"}, {"double", "Double"}, {"f64", "Double"}, {"int8", "Char"},
        {"i8", "Char"},       {"uint8", "Byte"},    {"u8", "Byte"},    {"int32", "Int"},
        {"i32", "Int"},       {"int64", "Long"},    {"i64", "Long"},
    };
    *name = *dtype = NULL;
    static const char *const prefixes[] = {"ncclKernel_", "ncclDevKernel_"};
    const char *p = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(prefixes) && !p; i++)
        if (kernel && strncmp(kernel, prefixes[i], strlen(prefixes[i])) == 0)
            p = kernel + strlen(prefixes[i]);
    if (!p)
        return false;
    size_t n = token_len(p);
    size_t k = 0;
    while (k < ARRAY_SIZE(ops) && (strlen(ops[k].op) != n || strncmp(p, ops[k].op, n) != 0))
        k++;
    if (k == ARRAY_SIZE(ops))
        return false;
    *name = ops[k].name;
    if (!ops[k].reduces)
        return true;
    /* The type is one of the tokens after the op ("_Sum_float",
     * "_Sum_f32_RING_LL"); "int8_t" reads as "int8". */
    for (p += n; *p == '_';) {
        p++;
        size_t m = token_len(p);
        for (size_t i = 0; i < ARRAY_SIZE(types); i++)
            if (strlen(types[i].tok) == m && strncmp(p, types[i].tok, m) == 0) {
                *dtype = types[i].dtype;
                return true;
            }
        p += m;
    }
    return true;
}

int job_colls_dtype_bytes(const char *dtype)
{
    static const struct {
        const char *name;
        int bytes;
    } types[] = {{"Float", 4}, {"Int", 4},  {"Long", 8},   {"BFloat16", 2}, {"Bool", 1},
                 {"Byte", 1},  {"Char", 1}, {"Double", 8}, {"Half", 2},     {"Short", 2}};
    for (size_t i = 0; dtype && i < ARRAY_SIZE(types); i++)
        if (strcmp(dtype, types[i].name) == 0)
            return types[i].bytes;
    return 0;
}

double job_colls_bus_factor(enum coll_kind k, int n)
{
    if (n <= 0)
        return NAN;
    switch (k) {
    case COLL_ALLREDUCE:
        return 2.0 * (n - 1) / n;
    case COLL_REDUCESCATTER:
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
        return (double)(n - 1) / n;
    default:
        return NAN;
    }
}

/* A rank's collective tagged with its group and position. */
struct tagged {
    uint32_t group; /* index into the group names */
    uint32_t index; /* K */
    uint32_t rank_ix, coll;
    int64_t ts;
};
#define TAG_LESS(a, b)                                                                             \
    ((a)->group != (b)->group   ? (a)->group < (b)->group                                          \
     : (a)->index != (b)->index ? (a)->index < (b)->index                                          \
                                : (a)->rank_ix < (b)->rank_ix)
SORT_DEFINE(tag_sort, struct tagged, TAG_LESS)
#define INST_LESS(a, b)                                                                            \
    ((a)->earliest_start != (b)->earliest_start ? (a)->earliest_start < (b)->earliest_start        \
                                                : strcmp((a)->id, (b)->id) < 0)
SORT_DEFINE(inst_sort, struct coll_inst, INST_LESS)

static bool detect_simplified(const struct job *j)
{
    for (size_t r = 0; r < j->ranks.n; r++) {
        const struct ranksum *s = j->ranks.v[r];
        for (size_t i = 0; i < s->colls.n; i++) {
            if (s->colls.v[i].pg_name &&
                strcmp(strtab_str(&s->strs, s->colls.v[i].pg_name), "Unknown_Group") != 0)
                return false;
            if (s->colls.v[i].stream != s->colls.v[0].stream)
                return false;
        }
    }
    return true;
}

/* The measures of one instance from its parts (TraceLens's definitions). */
static void measure(const struct job *j, struct job_colls *c, struct coll_inst *x)
{
    int64_t ls = INT64_MIN, es = INT64_MAX, le = INT64_MIN, ee = INT64_MAX, lat = INT64_MAX;
    for (uint32_t k = 0; k < x->count; k++) {
        const struct coll_part *p = &c->parts.v[x->first + k];
        const struct rank_coll *rc = &j->ranks.v[p->rank_ix]->colls.v[p->coll];
        ls = rc->ts > ls ? rc->ts : ls;
        es = rc->ts < es ? rc->ts : es;
        le = rc->ts + rc->dur > le ? rc->ts + rc->dur : le;
        ee = rc->ts + rc->dur < ee ? rc->ts + rc->dur : ee;
        lat = rc->dur < lat ? rc->dur : lat;
    }
    x->latest_start = ls;
    x->earliest_start = es;
    x->comm_latency = lat;
    x->skew_start = ls - es;
    x->skew_end = le - ee;
    double sum = 0;
    int64_t max_wait = -1, min_wait = INT64_MAX;
    for (uint32_t k = 0; k < x->count; k++) {
        const struct coll_part *p = &c->parts.v[x->first + k];
        const struct rank_coll *rc = &j->ranks.v[p->rank_ix]->colls.v[p->coll];
        int64_t w = ls - rc->ts;
        sum += (double)w;
        c->wait_total.v[p->rank_ix] = wide_add_sat(c->wait_total.v[p->rank_ix], w);
        /* TraceLens: max over (wait, rank) pairs, so the highest rank wins
         * a tie; the last arrival is the first rank with the least wait. */
        if (w >= max_wait) {
            max_wait = w;
            x->earliest_rank_ix = p->rank_ix;
        }
        if (w < min_wait) {
            min_wait = w;
            x->last_rank_ix = p->rank_ix;
        }
    }
    x->avg_wait = sum / x->count;
    c->n_first.v[x->earliest_rank_ix]++;
    c->n_last.v[x->last_rank_ix]++;
}

void job_colls_build(const struct job *j, struct job_colls *c)
{
    memset(c, 0, sizeof(*c));
    size_t nr = j->ranks.n;
    VEC_RESERVE(&c->wait_total, nr);
    VEC_RESERVE(&c->n_last, nr);
    VEC_RESERVE(&c->n_first, nr);
    VEC_RESERVE(&c->coll_dur, nr);
    for (size_t r = 0; r < nr; r++) {
        VEC_PUSH(&c->wait_total, 0);
        VEC_PUSH(&c->n_last, 0);
        VEC_PUSH(&c->n_first, 0);
        int64_t d = 0;
        for (size_t i = 0; i < j->ranks.v[r]->colls.n; i++)
            d = wide_add_sat(d, j->ranks.v[r]->colls.v[i].dur);
        VEC_PUSH(&c->coll_dur, d);
    }
    c->simplified = detect_simplified(j);
    c->by_seq = true;
    for (size_t r = 0; r < nr; r++)
        for (size_t i = 0; i < j->ranks.v[r]->colls.n; i++)
            c->by_seq &= j->ranks.v[r]->colls.v[i].has_seq;
    for (size_t r = 0; r < nr && c->by_seq; r++)
        c->by_seq = j->ranks.v[r]->colls.n > 0;

    /* Group names: interned across ranks by text. */
    struct strtab groups;
    strtab_init(&groups);
    VEC(struct tagged) tags = {0};
    struct hmap pos; /* (group << 32 | rank_ix) -> next K */
    hmap_init(&pos, 64);
    for (size_t r = 0; r < nr; r++) {
        const struct ranksum *s = j->ranks.v[r];
        for (size_t i = 0; i < s->colls.n; i++) {
            const struct rank_coll *rc = &s->colls.v[i];
            const char *g = c->by_seq ? (rc->comms_id ? strtab_str(&s->strs, rc->comms_id) : "")
                            : c->simplified ? "all"
                            : rc->pg_name   ? strtab_str(&s->strs, rc->pg_name)
                                            : "Unknown_Group";
            uint32_t gid = strtab_intern_cstr(&groups, g);
            uint64_t key = (uint64_t)gid << 32 | r;
            uint32_t k = hmap_get(&pos, key);
            k = k == IDX_NONE ? 0 : k;
            hmap_put(&pos, key, k + 1);
            if (c->by_seq)
                k = (uint32_t)rc->seq;
            /* Collectives are in start order in a summary; ties keep file order. */
            *VEC_ADD(&tags) = (struct tagged){gid, k, (uint32_t)r, (uint32_t)i, rc->ts};
        }
    }
    hmap_free(&pos);
    tag_sort(tags.v, tags.n);
    for (size_t a = 0; a < tags.n;) {
        size_t b = a;
        while (b < tags.n && tags.v[b].group == tags.v[a].group &&
               tags.v[b].index == tags.v[a].index)
            b++;
        /* The kind comes from the first rank's collective name. */
        const struct ranksum *s0 = j->ranks.v[tags.v[a].rank_ix];
        const struct rank_coll *c0 = &s0->colls.v[tags.v[a].coll];
        const char *nm = c0->name ? strtab_str(&s0->strs, c0->name) : NULL;
        enum coll_kind kind = job_colls_kind(nm);
        /* Simplified mode keeps unnamed and unknown names (TraceLens). */
        bool keep = c->simplified ? kind != COLL_OTHER : kind != COLL_UNKNOWN && kind != COLL_OTHER;
        if (keep) {
            struct coll_inst *x = VEC_ADD(&c->insts);
            x->pg_name = strtab_str(&groups, tags.v[a].group);
            x->index = tags.v[a].index;
            x->id = c->simplified && !c->by_seq ? xasprintf("%u", x->index)
                                                : xasprintf("%s_%u", x->pg_name, x->index);
            /* Matched by communicator, the group shown is still the
             * process group's name. */
            if (c->by_seq)
                x->pg_name = c->simplified ? "all"
                             : c0->pg_name ? strtab_str(&s0->strs, c0->pg_name)
                                           : "Unknown_Group";
            x->kind = kind;
            x->first = (uint32_t)c->parts.n;
            x->count = (uint32_t)(b - a);
            for (size_t k = a; k < b; k++)
                *VEC_ADD(&c->parts) = (struct coll_part){tags.v[k].rank_ix, tags.v[k].coll};
        }
        a = b;
    }
    VEC_FREE(&tags);
    for (size_t i = 0; i < c->insts.n; i++)
        measure(j, c, &c->insts.v[i]);
    /* The group names outlive the table that interned them. */
    for (size_t i = 0; i < c->insts.n; i++)
        c->insts.v[i].pg_name = xstrdup(c->insts.v[i].pg_name);
    strtab_free(&groups);
    inst_sort(c->insts.v, c->insts.n);
}

void job_colls_free(struct job_colls *c)
{
    for (size_t i = 0; i < c->insts.n; i++) {
        free(c->insts.v[i].id);
        free((char *)c->insts.v[i].pg_name);
    }
    VEC_FREE(&c->insts);
    VEC_FREE(&c->parts);
    VEC_FREE(&c->wait_total);
    VEC_FREE(&c->n_last);
    VEC_FREE(&c->n_first);
    VEC_FREE(&c->coll_dur);
}
