/* Compiler attributes and small macros shared by every layer. */
#ifndef TORCHTOP_CORE_COMMON_H
#define TORCHTOP_CORE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define ATTR_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#define ATTR_FORMAT(f, a) __attribute__((format(printf, f, a)))
#define ATTR_MALLOC __attribute__((malloc))
#define ATTR_NORETURN __attribute__((noreturn))
#define ATTR_UNUSED __attribute__((unused))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : (x) > (hi) ? (hi) : (x))
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* "No such index" for every uint32_t index into a trace's arrays. */
#define IDX_NONE UINT32_MAX

#endif
