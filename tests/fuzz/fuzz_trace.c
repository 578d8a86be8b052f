/* Fuzz target: the trace loader on a whole document (plain JSON, or gzip
 * detected by content), then indexing, analyses and every report table.
 * The last byte picks the thread count and report options; with two
 * threads the result is compared against a one-thread load. */
#include "config.h"

#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    struct fuzz_trace_opts o;
    fuzz_trace_opts_from_byte(&o, size ? data[size - 1] : 0);
    fuzz_trace_run(data, size, &o);
    return 0;
}
