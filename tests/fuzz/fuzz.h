/* Shared by the libFuzzer targets and the replay driver: the entry point
 * every target defines, and helpers that run the analyses on a trace. */
#ifndef TORCHTOP_TESTS_FUZZ_FUZZ_H
#define TORCHTOP_TESTS_FUZZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/trace/trace.h"

/* Run one input; always returns 0. Defined once per target. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Once per process: a UTF-8 LC_CTYPE, as the program runs in, so that
 * display widths are those of a terminal. Every target calls it first. */
void fuzz_init(void);

/* Options picked from one byte of the input, so that the fuzzer explores
 * them without a separate target each. */
struct fuzz_trace_opts {
    unsigned threads;       /* loader threads: 1 or 2 */
    bool linked_only;       /* report option */
    bool link_require_flow; /* load option */
    bool keyavg_shape;      /* key-averages grouped by shape */
    bool keyavg_top;        /* key-averages of top-level events only */
    int keyavg_stack;       /* key-averages grouped by stack frames */
};
void fuzz_trace_opts_from_byte(struct fuzz_trace_opts *o, uint8_t b);

/* Load buf[0..len) (plain or gzip), index it, compute every report table
 * and print them in every format, then free everything. With two threads
 * it also loads with one and aborts when the results differ. */
void fuzz_trace_run(const void *buf, size_t len, const struct fuzz_trace_opts *o);

/* Index t and run the analyses, reports, tracebacks and folded stacks on
 * it; aborts when a JSON output does not parse. t stays owned by the caller. */
void fuzz_trace_exercise(struct trace *t, const struct fuzz_trace_opts *o);

/* The job targets (fuzzjob.c): the job readers take paths, so inputs are
 * written as files into a scratch directory made once per process
 * (removed at exit). fuzz_job_write returns the file's path (caller
 * frees); fuzz_job_clear removes every file in it. */
struct job;
const char *fuzz_job_dir(void);
char *fuzz_job_write(const char *name, const void *buf, size_t len);
void fuzz_job_clear(void);
/* Build every cross-rank table of j and print them in every format;
 * aborts when a JSON output does not parse. */
void fuzz_job_exercise(const struct job *j);

/* Abort with a message (an oracle failed). */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
