/* UTF-8 decoding and validation, byte-exact and locale-free. */
#ifndef TORCHTOP_CORE_UTF8_H
#define TORCHTOP_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decode one code point from s[0..n). Returns its byte length (1-4), or 0
 * when the bytes are not well-formed UTF-8 (overlong forms, surrogates and
 * values above U+10FFFF are rejected). */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Whether all of s[0..n) is well-formed UTF-8. */
bool utf8_valid(const char *s, size_t n);
/* Whether cp is a bidirectional formatting control (embeddings, overrides,
 * isolates, the LRM/RLM/ALM marks): text that reorders what follows it on
 * a terminal. */
bool utf8_is_bidi_control(uint32_t cp);
/* Offset of the first byte of s[0..n) that does not start a well-formed
 * sequence, or n when there is none. Runs of ASCII cost about a load per
 * eight bytes, so whole inputs can be checked on the way through. */
size_t utf8_find_invalid(const char *s, size_t n);

#endif
