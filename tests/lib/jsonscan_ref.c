/* json_scan_value one byte at a time (tests/lib/jsonscan_ref.h). */
#include "config.h"

#include "core/trace/jsonscan.h"
#include "core/trace/jsonscan_bytes.h"
#include "tests/lib/jsonscan_ref.h"

const char *json_scan_value_bytewise(const char *p, const char *end, bool at_eof)
{
    if (p >= end || (*p != '{' && *p != '['))
        return json_scan_value(p, end, at_eof);
    struct jsonscan_state st = {0};
    return jsonscan_bytes(p, end, &st);
}
