/* The byte-at-a-time container scan behind json_scan_value: the block
 * scanner falls back to it, and the tests check the block scanner against
 * it. Internal to core/trace/jsonscan.c and its tests. */
#ifndef TORCHTOP_CORE_JSONSCAN_BYTES_H
#define TORCHTOP_CORE_JSONSCAN_BYTES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/trace/jsonscan.h"

/* Characters that matter when skipping through a container. */
static const unsigned char jsonscan_structural[256] = {
    ['"'] = 1, ['{'] = 2, ['['] = 2, ['}'] = 3, [']'] = 3, ['\\'] = 4,
};

/* One byte at a time through [p, end). Returns the byte after the
 * container's closing bracket, or NULL with *st updated to resume. */
static inline const char *jsonscan_bytes(const char *p, const char *end, struct jsonscan_state *st)
{
    while (p < end) {
        unsigned char c = (unsigned char)*p++;
        if (st->in_string) {
            if (st->escaped)
                st->escaped = false;
            else if (c == '\\')
                st->escaped = true;
            else if (c == '"')
                st->in_string = false;
            continue;
        }
        switch (jsonscan_structural[c]) {
        case 1:
            st->in_string = true;
            break;
        case 2:
            st->depth++;
            break;
        case 3:
            if (--st->depth == 0)
                return p;
            break;
        default:
            break;
        }
    }
    return NULL;
}

#endif
