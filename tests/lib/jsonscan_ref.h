/* The reference the block JSON scanner is tested against: json_scan_value
 * one byte at a time. Test-only: not part of the program. */
#ifndef TORCHTOP_TESTS_JSONSCAN_REF_H
#define TORCHTOP_TESTS_JSONSCAN_REF_H

#include <stdbool.h>

const char *json_scan_value_bytewise(const char *p, const char *end, bool at_eof);

#endif
