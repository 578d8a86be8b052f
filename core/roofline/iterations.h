/* Serving iterations: the steps of an inference server, each recorded
 * under an iteration annotation (iterann.h), with the kind TraceLens's
 * inference split gives them: prefill (context requests only), decode
 * (generation requests only) or mixed (both). */
#ifndef TORCHTOP_CORE_ITERATIONS_H
#define TORCHTOP_CORE_ITERATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/roofline/iterann.h"
#include "core/trace/scope.h"
#include "core/trace/trace.h"

enum iter_kind { ITER_PREFILL, ITER_DECODE, ITER_MIXED, ITER_EMPTY, ITER__COUNT };

struct iteration {
    uint32_t ev;      /* the annotation (a user_annotation span) */
    int64_t from, to; /* its span, ns, event clock */
    uint8_t kind;     /* enum iter_kind */
    struct iterann sums;
};

/* The iterations of t: every host span of phase X whose name iterann_parse
 * reads, by start (ties: file order); *out (caller frees). A span inside
 * another one is left out: the outer one is the iteration. */
size_t iterations_list(const struct trace *t, struct iteration **out);

/* "prefill", "decode", "mixed", "empty". */
const char *iterations_kind_name(unsigned kind);
/* The kind a name says; false for another word. */
bool iterations_kind_parse(const char *name, unsigned *kind);

/* The --iteration name of the steady-state window (core/roofline/steady.h). */
#define ITERATIONS_STEADY "steady"

/* s with the windows of its iterations (s->iteration's kind, or the
 * steady-state window's, which iter_text then names) in t, for
 * scope_select and scope_load (core/trace/scope.h sees no iterations);
 * *w (the caller frees it after the scope's use) holds them. s itself when
 * it names no iteration kind. */
struct scope iterations_scope(const struct trace *t, const struct scope *s,
                              struct export_window **w);

#endif
