/* The far-from-roofline rule's preparation: the GEMM, convolution and
 * attention instances below the reachable share of their roof, and what
 * is unusual in their shapes (find_roof.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/strbuf.h"
#include "core/findings/find_roof.h"
#include "core/roofline/roofline.h"

/* A GEMM's M, a convolution's N or an attention's B below this is a tiny
 * batch. */
#define FIND_TINY_GEMM_M 16
#define FIND_TINY_BATCH 4

static bool is_heavy_sheet(enum pm_sheet s)
{
    return s == PM_GEMM || s == PM_GEMM_BWD || s == PM_CONV_FWD || s == PM_CONV_BWD ||
           s == PM_SDPA_FWD || s == PM_SDPA_BWD || s == PM_INFER_ATTN;
}

/* The n-th integer in text ("(64, 3, 224, 224)", "4096"), -1 when none. */
static long long nth_int(const char *text, int n)
{
    if (!text)
        return -1;
    for (const char *p = text; *p;) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            long long v = strtoll(p, &end, 10);
            if (n-- == 0)
                return v;
            p = end;
        } else {
            p++;
        }
    }
    return -1;
}

/* Say that dimension `what` = d is not a multiple of 8, 16 or 64 (the
 * first it misses), for dimensions large enough to be tiled. */
static uint8_t check_align(struct strbuf *notes, const char *what, long long d)
{
    if (d < 8)
        return 0;
    int m = d % 8 ? 8 : d % 16 ? 16 : d % 64 && d > 64 ? 64 : 0;
    if (!m)
        return 0;
    sb_printf(notes, ", %s=%lld not a multiple of %d", what, d, m);
    return FRF_ALIGN;
}

/* What is unusual in res's shape, appended to notes as ", ..." clauses. */
static uint8_t shape_notes(const struct pm_result *res, struct strbuf *notes)
{
    uint8_t f = 0;
    switch (res->sheet) {
    case PM_GEMM:
    case PM_GEMM_BWD: {
        long long m = nth_int(pm_param(res, 0), 0);
        f |= check_align(notes, "M", m);
        f |= check_align(notes, "N", nth_int(pm_param(res, 1), 0));
        f |= check_align(notes, "K", nth_int(pm_param(res, 2), 0));
        if (m >= 0 && m < FIND_TINY_GEMM_M) {
            sb_printf(notes, ", M=%lld: a tiny batch", m);
            f |= FRF_TINY;
        }
        break;
    }
    case PM_CONV_FWD:
    case PM_CONV_BWD: {
        long long n = nth_int(pm_param(res, 1), 0);
        f |= check_align(notes, "C_in", nth_int(pm_param(res, 1), 1));
        f |= check_align(notes, "C_out", nth_int(pm_param(res, 2), 0));
        if (n >= 0 && n < FIND_TINY_BATCH) {
            sb_printf(notes, ", batch %lld", n);
            f |= FRF_TINY;
        }
        break;
    }
    case PM_SDPA_FWD:
    case PM_SDPA_BWD: {
        long long b = nth_int(pm_param(res, 0), 0);
        f |= check_align(notes, "head dim", nth_int(pm_param(res, 5), 0));
        if (b >= 0 && b < FIND_TINY_BATCH && nth_int(pm_param(res, 1), 0) < 64) {
            sb_printf(notes, ", batch %lld of %lld queries", b, nth_int(pm_param(res, 1), 0));
            f |= FRF_TINY;
        }
        break;
    }
    case PM_INFER_ATTN:
        f |= check_align(notes, "head dim", nth_int(pm_param(res, 7), 0));
        break;
    default:
        break;
    }
    return f;
}

static double reachable(enum pm_sheet s)
{
    return s == PM_SDPA_FWD || s == PM_SDPA_BWD || s == PM_INFER_ATTN ? FIND_ROOF_REACHABLE_ATTN
                                                                      : FIND_ROOF_REACHABLE_GEMM;
}

static bool is_fp32(const char *spec)
{
    const char *us = strchr(spec, '_');
    return us && strcmp(us + 1, "fp32") == 0;
}

static bool is_half(const char *spec)
{
    const char *us = strchr(spec, '_');
    return us && (strcmp(us + 1, "bf16") == 0 || strcmp(us + 1, "fp16") == 0);
}

/* A candidate instance while the keys are made. */
struct cand {
    uint32_t ev, op, base; /* base: the shape key in bases */
    double kernel_us, roof_us, reach;
    uint8_t flags;
};
struct base_sum {
    double kernel_us, roof_us;
};

static int cand_by_time(const void *pa, const void *pb)
{
    const struct cand *a = pa, *b = pb;
    if (a->kernel_us != b->kernel_us)
        return a->kernel_us > b->kernel_us ? -1 : 1;
    return (a->ev > b->ev) - (a->ev < b->ev);
}

/* Point every GPU event under ev (communication left out, as the roofline's
 * kernel time) at instance ix, unless a larger instance has it. */
static void claim_gpu_events(struct find_roof *r, struct analysis *a, uint32_t ev, uint32_t ix)
{
    const struct trace *t = a->t;
    const struct event *self = &t->ev.v[ev];
    if (evk_is_gpu(self->kind)) { /* a pseudo op's own kernel */
        if (r->inst_of[ev] == IDX_NONE)
            r->inst_of[ev] = ix;
        return;
    }
    uint32_t n;
    const uint32_t *evs = gputime_subtree_events(a->gt, ev, &n);
    for (uint32_t k = 0; k < n; k++)
        if (!(t->ev.v[evs[k]].flags & EVF_COMM) && r->inst_of[evs[k]] == IDX_NONE)
            r->inst_of[evs[k]] = ix;
}

bool find_roof_init(struct find_roof *r, struct analysis *a, const char *arch, const char **why)
{
    memset(r, 0, sizeof(*r));
    strtab_init(&r->keys);
    const struct trace *t = a->t;
    char err[256];
    struct roofline *rl = roofline_new(a, arch, err);
    if (!rl) {
        *why = "the roofline cannot be built for the --arch given (see -t roofline)";
        return false;
    }
    if (!roofline_has_shapes(rl)) {
        *why = "no op has recorded shapes: record with record_shapes=True";
        roofline_free(rl);
        return false;
    }
    if (!roofline_device(rl)) {
        *why = "the device's peaks are not known, so there is no roof: pass --arch "
               "(see -t roofline)";
        roofline_free(rl);
        return false;
    }
    struct pm_result *res = xmalloc(sizeof(*res));
    VEC(struct cand) cands = {0};
    VEC(struct base_sum) bases = {0};
    struct strtab base_keys;
    strtab_init(&base_keys);
    struct strbuf sb = STRBUF_INIT, notes = STRBUF_INIT;
    double half_us = 0, fp32_us = 0;
    size_t nheavy = 0;
    for (size_t i = 0; i < roofline_ninstances(rl); i++) {
        uint32_t ev = roofline_instance_event(rl, i);
        struct roofline_point pt;
        if (!roofline_instance(rl, ev, res, &pt) || !is_heavy_sheet(res->sheet))
            continue;
        nheavy++;
        if (is_half(res->spec))
            half_us += pt.kernel_us;
        else if (is_fp32(res->spec))
            fp32_us += pt.kernel_us;
        if (!(pt.kernel_us > 0) || isnan(pt.roof_us) ||
            pt.roof_us >= reachable(res->sheet) * pt.kernel_us)
            continue;
        uint32_t op = roofline_instance_op(rl, ev);
        sb_clear(&sb);
        sb_puts(&sb, trace_str(t, t->ev.v[op].name));
        if (op != ev)
            sb_puts(&sb, " (backward)");
        sb_putc(&sb, ' ');
        roofline_shape_text(&sb, rl, ev, false);
        uint32_t base = strtab_intern_cstr(&base_keys, sb_str(&sb));
        while (bases.n <= base)
            VEC_PUSH(&bases, ((struct base_sum){0, 0}));
        bases.v[base].kernel_us += pt.kernel_us;
        bases.v[base].roof_us += pt.roof_us;
        sb_clear(&notes);
        uint8_t flags = shape_notes(res, &notes);
        if (is_fp32(res->spec))
            flags |= FRF_FP32;
        VEC_PUSH(&cands, ((struct cand){ev, op, base, pt.kernel_us, pt.roof_us,
                                        reachable(res->sheet), flags}));
    }
    bool fp32_odd = half_us > fp32_us;
    if (cands.n)
        qsort(cands.v, cands.n, sizeof(*cands.v), cand_by_time);
    r->inst_of = xmalloc((t->ev.n + 1) * sizeof(*r->inst_of));
    for (size_t i = 0; i <= t->ev.n; i++)
        r->inst_of[i] = IDX_NONE;
    for (size_t i = 0; i < cands.n; i++) {
        const struct cand *c = &cands.v[i];
        const struct base_sum *b = &bases.v[c->base];
        uint8_t flags = c->flags & (uint8_t)(fp32_odd ? 0xff : ~FRF_FP32);
        sb_clear(&sb);
        double pct = 100.0 * b->roof_us / b->kernel_us;
        sb_printf(&sb, pct < 10 ? "%s, %.2g %% of roof" : "%s, %.0f %% of roof",
                  strtab_str(&base_keys, c->base), pct);
        sb_clear(&notes);
        (void)roofline_instance(rl, c->ev, res, NULL);
        shape_notes(res, &notes);
        sb_puts(&sb, sb_str(&notes));
        if (flags & FRF_FP32)
            sb_puts(&sb, ", fp32 where most of the time is bf16/fp16");
        struct find_roof_inst in = {
            .op = c->op,
            .key = strtab_intern_cstr(&r->keys, sb_str(&sb)),
            .factor = (float)(c->roof_us / c->reach / c->kernel_us),
            .flags = flags,
        };
        VEC_PUSH(&r->inst, in);
        r->excess_us += c->kernel_us - c->roof_us / c->reach;
        claim_gpu_events(r, a, c->ev, (uint32_t)r->inst.n - 1);
    }
    sb_free(&sb);
    sb_free(&notes);
    strtab_free(&base_keys);
    VEC_FREE(&bases);
    VEC_FREE(&cands);
    free(res);
    roofline_free(rl);
    if (!nheavy) {
        *why = "no GEMM, convolution or attention op has a roofline model instance (see -t "
               "roofline)";
        return false;
    }
    return true;
}

void find_roof_free(struct find_roof *r)
{
    VEC_FREE(&r->inst);
    free(r->inst_of);
    strtab_free(&r->keys);
    memset(r, 0, sizeof(*r));
}
