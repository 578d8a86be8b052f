/* Iteration annotations of inference servers (docs/metrics.md §7.9): the
 * user_annotation a vLLM, SGLang or ATOM step is recorded under, with the
 * sums over its requests that an attention model needs (query and key
 * lengths of the context (prefill) and generation (decode) requests, and
 * the sums of their products), as TraceLens's IterationAnnotation reads
 * them. */
#ifndef TORCHTOP_CORE_ITERANN_H
#define TORCHTOP_CORE_ITERANN_H

#include <stdbool.h>
#include <stdint.h>

/* One step's sums; c_ for context requests, g_ for generation requests. */
struct iterann {
    int64_t c_sq, c_sk, c_sqsq, c_sqsk;
    int64_t g_sq, g_sk, g_sqsq, g_sqsk;
    int64_t c_n, g_n; /* requests: vLLM's context_R and generation_R, SGLang's
                         c= and g=, ATOM's bs= for its phase; 0 when absent */
};

/* Parse one annotation name. True for the three forms that carry the sums:
 *   execute_N_context_R(sqAskBsqsqCsqskD)_generation_R(sqAskBsqsqCsqskD)   (vLLM)
 *   step[EXTEND|DECODE|MIXED ... c_sq=A ... sqsq=... ]                    (SGLang)
 *   prefill[...] / decode[... sqsq=C sqsk=D sk=B]                         (ATOM)
 * and *out filled; false (out zeroed) for anything else, including the
 * native forms without the sums (execute_context_R(N)_generation_R(N)),
 * which give no attention FLOPs. Numbers past 2^62 are refused. */
bool iterann_parse(const char *name, struct iterann *out);

#endif
