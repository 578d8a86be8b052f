/* Source of the ELF/DWARF fuzz seeds (built by `make fuzz`, not part of
 * torchtop): a few functions, one inlined, one with a C++ linkage name,
 * one in its own section, so the seeds carry lines, inlined calls, ranges
 * and mangled names. Built without the C library to keep the files small. */
static int table[16];

static inline __attribute__((always_inline)) int scale(int x)
{
    return x * 3 + table[x & 15];
}

int native_run(int n) __asm__("_ZN2at6native6Runner3runEi");
int native_run(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += scale(i);
    return s;
}

__attribute__((noinline, section(".text.cold_path"))) int cold_path(int x)
{
    return x ? native_run(x - 1) : 0;
}

int seed_main(int argc)
{
    table[argc & 15] = argc;
    return cold_path(argc) + scale(argc);
}
