/* Op argument values from JSON text, for the unit tests: the text goes
 * through cJSON and pyval_encode, as the loader's does. Include after
 * cmocka.h. */
#ifndef TORCHTOP_TESTS_PYVALUTIL_H
#define TORCHTOP_TESTS_PYVALUTIL_H

#include <cjson/cJSON.h>

#include "core/analysis/shapes.h"
#include "core/base/strbuf.h"
#include "core/trace/pyval.h"

/* The value of JSON text json (absent for NULL), encoded into buf, which
 * must outlive it. Asserts that the text parses. */
static inline struct pyval pyval_json(struct strbuf *buf, const char *json)
{
    sb_clear(buf);
    if (!json)
        return pyval_of(NULL, 0);
    cJSON *j = cJSON_Parse(json);
    assert_non_null(j);
    pyval_encode(buf, j);
    cJSON_Delete(j);
    return pyval_of(buf->s, buf->len);
}

/* shapes_args_parse on the values of four JSON texts (NULL = absent). */
static inline bool shapes_args_parse_json(struct op_args *a, const char *dims, const char *types,
                                          const char *strides, const char *concrete)
{
    struct strbuf b[4] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
    bool ok = shapes_args_parse(a, pyval_json(&b[0], dims), pyval_json(&b[1], types),
                                pyval_json(&b[2], strides), pyval_json(&b[3], concrete));
    for (int i = 0; i < 4; i++)
        sb_free(&b[i]);
    return ok;
}

#endif
