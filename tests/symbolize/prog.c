/* Test program for tests/symbolize/compare.sh: inlining three deep, a
 * loop, recursion, a cold path gcc moves out of line, and a function
 * reached only through a pointer. Compiled during make check. */
#include <stdio.h>
#include <stdlib.h>

#include "prog.h"

static inline int sym_square(int x)
{
    return x * x;
}

static inline int sym_sum_squares(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += sym_square(i) ^ (s >> 3);
    return s;
}

static inline __attribute__((always_inline)) int sym_mix(int a, int b)
{
    int t = sym_sum_squares(a) + sym_square(b);
    return t ^ (t >> 7);
}

__attribute__((noinline)) int sym_recurse(int depth, int acc)
{
    if (depth <= 0)
        return acc;
    return sym_recurse(depth - 1, sym_mix(acc & 31, depth)) + 1;
}

__attribute__((noinline, cold)) void sym_fail(const char *what, int code)
{
    fprintf(stderr, "failed: %s (%d)\n", what, code);
    exit(code);
}

static int sym_checked(int v)
{
    if (__builtin_expect(v < 0, 0)) {
        sym_fail("negative", v);
        return 0;
    }
    return sym_mix(v, v + 1);
}

typedef int (*sym_fn)(int);

int main(int argc, char **argv)
{
    sym_fn f = argc > 5 ? abs : sym_checked;
    int r = 0;
    for (int i = 0; i < argc + 3; i++)
        r += f(i) + sym_recurse(argc + i, r) + sym_from_header(i);
    if (argc > 1 && argv[1][0] == '-')
        sym_fail(argv[1], 3);
    printf("%d\n", r);
    return 0;
}
