/* Fuzz target: the trace loader through the gzip source. Input that is
 * already gzip is loaded as it is (corrupt streams, odd headers); any other
 * input is compressed here first, as one member or as two concatenated
 * members (bit 7 of the last byte), and cut short when the size is a
 * multiple of 5, so the fuzzer works on the JSON while the loader reads
 * real gzip. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/base/xalloc.h"
#include "tests/fuzz/fuzz.h"

/* Append one gzip member holding in[0..n) to out (which has room). */
static size_t gzip_member(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int level)
{
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        abort();
    zs.next_in = (Bytef *)in;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
        abort();
    size_t made = cap - zs.avail_out;
    deflateEnd(&zs);
    return made;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    uint8_t last = size ? data[size - 1] : 0;
    struct fuzz_trace_opts o;
    fuzz_trace_opts_from_byte(&o, last);
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        fuzz_trace_run(data, size, &o);
        return 0;
    }
    size_t cap = 2 * (compressBound((uLong)size) + 64);
    uint8_t *gz = xmalloc(cap);
    size_t n;
    if (last & 0x80) {
        size_t cut = size / 2;
        n = gzip_member(data, cut, gz, cap, 1);
        n += gzip_member(data + cut, size - cut, gz + n, cap - n, 9);
    } else {
        n = gzip_member(data, size, gz, cap, 6);
    }
    if (size % 5 == 0)
        n -= n / 3;
    fuzz_trace_run(gz, n, &o);
    free(gz);
    return 0;
}
