/* Kernel categories by kernel name (docs/metrics.md §16): what a graph
 * replay's kernels are when no op launched them. */
#ifndef TORCHTOP_CORE_KERNCAT_H
#define TORCHTOP_CORE_KERNCAT_H

/* clang-format off */
#define KERNCAT_INFO(_)                                                        \
    _(KERNCAT_GEMM,          "GEMM")                                           \
    _(KERNCAT_ATTENTION,     "attention")                                      \
    _(KERNCAT_MOE,           "MoE")                                            \
    _(KERNCAT_NORM,          "norm")                                           \
    _(KERNCAT_ELEMENTWISE,   "elementwise")                                    \
    _(KERNCAT_COMMUNICATION, "communication")                                  \
    _(KERNCAT_MEMCPY,        "memcpy")                                         \
    _(KERNCAT_MEMSET,        "memset")                                         \
    _(KERNCAT_OTHER,         "other")

enum kerncat {
#define KERNCAT_ENUM(id, name) id,
    KERNCAT_INFO(KERNCAT_ENUM)
#undef KERNCAT_ENUM
    KERNCAT__COUNT
};
/* clang-format on */

const char *kerncat_name(enum kerncat c);
/* Category of a GPU event from its kind (enum ev_kind: memcpy, memset) and
 * its name, matched case-insensitively against the patterns of
 * docs/metrics.md §16, first match wins. */
enum kerncat kerncat_classify(unsigned ev_kind, const char *name);

#endif
