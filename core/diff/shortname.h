/* HTA's short names (hta/utils/utils.py shorten_name): an op or kernel name
 * without its argument lists, template arguments and return type, as
 * `torchtop diff --short-names` groups by. */
#ifndef TORCHTOP_CORE_SHORTNAME_H
#define TORCHTOP_CORE_SHORTNAME_H

#include <stddef.h>

#include "core/base/strbuf.h"

/* Append the short name of s[0..n) to out: a name with neither '<' nor '('
 * as it is; else every "->" removed, then each
 * ')' drops the text back to its matching '(' (and each '>' back to its
 * '<') inclusive, unmatched closers dropping everything before them; of
 * what is left, the part after the last space; when that is empty, the
 * name unchanged (as HTA's tests expect of "Memcpy DtoD (Device ->
 * Device)"). Bytes other than the
 * brackets and the space are copied as they are, so UTF-8 stays whole.
 * docs/metrics.md §12. */
void shortname_hta(struct strbuf *out, const char *s, size_t n);

#endif
