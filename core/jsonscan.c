/* JSON structure scanning over byte windows. */
#include "config.h"

#include <string.h>

#include "core/jsonscan.h"

const char *json_skip_ws(const char *p, const char *end)
{
    while (p < end && json_is_ws((unsigned char)*p))
        p++;
    return p;
}

const char *json_scan_string(const char *p, const char *end)
{
    p++; /* opening quote */
    for (;;) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return NULL;
        /* The quote is escaped when an odd number of backslashes precede it. */
        const char *b = q;
        while (b > p && b[-1] == '\\')
            b--;
        if (((q - b) & 1) == 0)
            return q + 1;
        p = q + 1;
    }
}

/* Characters that matter when skipping through a container. */
static const unsigned char structural[256] = {
    ['"'] = 1, ['{'] = 2, ['['] = 2, ['}'] = 3, [']'] = 3,
};

const char *json_scan_value(const char *p, const char *end, bool at_eof)
{
    if (p >= end)
        return NULL;
    if (*p == '"')
        return json_scan_string(p, end);
    if (*p != '{' && *p != '[') {
        while (p < end && *p != ',' && *p != '}' && *p != ']' && !json_is_ws((unsigned char)*p))
            p++;
        return (p < end || at_eof) ? p : NULL;
    }
    size_t depth = 0;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        switch (structural[c]) {
        case 0:
            p++;
            break;
        case 1:
            p = json_scan_string(p, end);
            if (!p)
                return NULL;
            break;
        case 2:
            depth++;
            p++;
            break;
        case 3:
            p++;
            if (--depth == 0)
                return p;
            break;
        }
    }
    return NULL;
}
