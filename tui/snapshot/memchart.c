/* Chart columns, bar heights and segment bars of the memory snapshot views. */
#include "config.h"

#include <string.h>

#include "core/base/common.h"
#include "tui/snapshot/memchart.h"

uint32_t memchart_first(uint32_t from, uint32_t to, int w, int col)
{
    uint64_t span = to > from ? to - from : 0;
    if (w < 1)
        w = 1;
    col = CLAMP(col, 0, w);
    return (uint32_t)(from + span * (uint64_t)col / (uint64_t)w);
}

int memchart_col(uint32_t from, uint32_t to, int w, uint32_t idx)
{
    if (w < 1)
        w = 1;
    if (idx < from)
        return -1;
    if (idx >= to)
        return w;
    /* The last c with first(c) <= idx: c < (idx - from + 1) * w / span. */
    uint64_t span = to - from, k = idx - from;
    uint64_t c = ((k + 1) * (uint64_t)w + span - 1) / span - 1;
    return (int)MIN(c, (uint64_t)w - 1);
}

int memchart_eighths(int64_t v, int64_t max, int rows)
{
    if (v <= 0 || rows <= 0)
        return 0;
    int64_t full = (int64_t)rows * 8;
    if (max <= 0 || v >= max)
        return (int)full;
    int64_t e = (int64_t)((double)v / (double)max * (double)full + 0.5);
    return (int)CLAMP(e, (int64_t)1, full);
}

int memchart_level(int eighths, int r)
{
    int e = eighths - r * 8;
    return CLAMP(e, 0, 8);
}

void memchart_segbar(const uint64_t *sizes, const uint8_t *states, size_t n, int w, uint8_t *cells)
{
    if (w <= 0)
        return;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += sizes[i];
    if (!total) {
        memset(cells, MEMCHART_EMPTY, (size_t)w);
        return;
    }
    size_t b = 0;
    uint64_t bstart = 0; /* first byte of block b */
    for (int c = 0; c < w; c++) {
        /* Cell c covers bytes [lo, hi); a cell narrower than a byte still
         * shows the block under its start. */
        uint64_t lo = (uint64_t)((double)total * c / w),
                 hi = (uint64_t)((double)total * (c + 1) / w);
        if (hi <= lo)
            hi = lo + 1;
        uint64_t bytes[8] = {0};
        while (b < n && bstart + sizes[b] <= lo) {
            bstart += sizes[b];
            b++;
        }
        uint64_t at = bstart;
        for (size_t k = b; k < n && at < hi; k++) {
            uint64_t s0 = MAX(at, lo), s1 = MIN(at + sizes[k], hi);
            if (s1 > s0)
                bytes[states[k] & 7] += s1 - s0;
            at += sizes[k];
        }
        int best = -1;
        for (int s = 0; s < 8; s++)
            if (bytes[s] && (best < 0 || bytes[s] > bytes[best]))
                best = s;
        cells[c] = best < 0 ? MEMCHART_EMPTY : (uint8_t)best;
    }
}
