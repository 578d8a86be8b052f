/* Decimal numbers to doubles, exactly and without the locale: the value
 * is the double nearest the number the text writes, ties to even, which
 * is what strtod gives in the C locale, bit for bit (±inf past the
 * largest double, ±0 below half the smallest). No call reads the locale
 * or allocates. */
#ifndef TORCHTOP_CORE_NUMPARSE_H
#define TORCHTOP_CORE_NUMPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The JSON number (RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?)
 * that is the whole of s[0..n): true and its value in *out. False, *out
 * untouched, for any other text ("01", "1.", ".5", "+1", "1e", "inf",
 * spaces). */
bool numparse_json(const char *s, size_t n, double *out);

/* w * 10^q when Clinger's fast path gives it exactly: w at most 2^53 and
 * |q| at most 22 (both exact doubles, one rounding), on a machine that
 * rounds doubles once (FLT_EVAL_METHOD 0). False, *out untouched, else. */
bool numparse_clinger(uint64_t w, int64_t q, double *out);

/* 5^q for q in [-342, 308] as 128-bit {high, low} halves with the top bit
 * set (core/base/numparse_pow5.c, written by tools/gen-numparse-pow5.py). */
extern const uint64_t numparse_pow5[651][2];

#endif
