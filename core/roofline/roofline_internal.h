/* Internals shared by roofline.c, roofline_table.c and roofline_plot.c;
 * not an API. */
#ifndef TORCHTOP_CORE_ROOFLINE_INTERNAL_H
#define TORCHTOP_CORE_ROOFLINE_INTERNAL_H

#include "core/base/arena.h"
#include "core/roofline/roofline.h"
#include "core/base/hmap.h"
#include "core/base/vec.h"

/* One modelled instance. */
struct rf_inst {
    uint32_t ev;         /* the op event (the forward op for a backward
                            modelled through the link) */
    uint32_t time_ev;    /* event whose subtree GPU time is counted: ev,
                            or the backward node; for a pseudo op
                            (rf_group.pseudo), the one GPU event it
                            stands for */
    uint32_t group;      /* index into roofline.groups */
    bool bwd;            /* modelled through the forward<->backward link */
    double flops, bytes; /* NaN when unknown */
    double kernel_us;    /* rf_kernel_us of time_ev */
};

/* One parameter combination: op name + parameter values in one sheet. */
struct rf_group {
    uint8_t sheet;      /* enum pm_sheet */
    uint32_t name;      /* strtab id of the op name */
    const char *pseudo; /* static: the pseudo op's name (pm_result.name),
                           shown instead of the op's; NULL for the op */
    bool recompute;     /* its instances are recomputed (analysis_is_recompute) */
    uint8_t nparams;
    const char **params; /* arena; NULL entries are empty */
    const char *key;     /* arena; the grouping key */
    uint64_t hash;       /* hash_bytes of key */
    uint32_t first;      /* first instance (index into roofline.inst) */
    uint32_t count;
    double kt_sum; /* µs */
    double tl_flops, tl_bytes;
    char spec[24];
    const char *model, *differs; /* static strings of the first instance */
};

/* An op and its Sequence number. */
struct seq_ev {
    int64_t seq;
    uint32_t ev;
};

/* An iteration annotation with its sums (iterann.h). */
struct rf_iter {
    int64_t ts, end;
    int64_t pid; /* of its row */
    struct iterann sums;
};

/* An op a model names but could not evaluate. */
struct rf_fail {
    uint32_t ev;
    const char *why; /* static */
};

struct roofline {
    struct analysis *a;
    const struct inductor_cache *ic; /* --inductor-cache, NULL without */
    const struct trace *t;
    bool has_shapes;
    bool have_dev;
    struct device_peaks dev;
    char note[600];
    VEC(struct rf_inst) inst;
    VEC(struct rf_group) groups;
    VEC(struct rf_fail) fails;
    uint32_t nested[PM__COUNT];      /* per sheet: instances left to an
                                        enclosing op of the same family */
    uint32_t nested_name[PM__COUNT]; /* strtab id of the first one's name */
    struct hmap by_time_ev;          /* time_ev -> instance */
    uint32_t *mem_first;             /* CSR: instances of each group, event order */
    uint32_t *mem;
    struct hmap group_of_key; /* grouping key -> group */
    struct arena arena;
    struct hmap model_of; /* name id -> index into models */
    VEC(const struct pm_model *) models;
    VEC(struct seq_ev) seqs; /* ops by Sequence number, built on first use */
    bool seqs_built;
    VEC(struct rf_iter)
    iters; /* iteration annotations by start, built on
              first use */
    bool iters_built;
};

/* Kernel time of ev's subtree in µs: the length of the union of the GPU
 * work (kernels, memcpys, memsets) launched under it, communication
 * kernels left out (docs/metrics.md §6.3). The linking mode decides which
 * memsets are the op's: MIOpen's flowless hipMemsetAsync is linked by
 * correlation id by default and left unlinked by --flow-links, as
 * TraceLens leaves it; the unique-args and ops tables count the same. */
double rf_kernel_us(const struct roofline *r, uint32_t ev);
/* The name a group's rows show: its pseudo op's, else its op's. */
const char *rf_group_name(const struct roofline *r, const struct rf_group *g);
/* Roofline time in µs of flops/bytes for a spec, NaN without peaks;
 * *compute_bound says which side is larger. */
double rf_roof_us(const struct roofline *r, const char *spec, double flops, double bytes,
                  bool *compute_bound);

#endif
