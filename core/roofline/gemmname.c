/* Transpose flags from GEMM kernel names, family by family, with the rules
 * of TraceLens's kernel_name_parser.py. */
#include "config.h"

#include "core/roofline/gemmname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_lower3(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (s[i] < 'a' || s[i] > 'z')
            return false;
    return true;
}

/* C[a-z]{3}_A[a-z]{3}_B[a-z]{3} anywhere in n. */
static bool is_tensile(const char *n)
{
    for (const char *p = strchr(n, 'C'); p; p = strchr(p + 1, 'C'))
        if (is_lower3(p + 1) && p[4] == '_' && p[5] == 'A' && is_lower3(p + 6) && p[9] == '_' &&
            p[10] == 'B' && is_lower3(p + 11))
            return true;
    return false;
}

static const char *flag(bool known, bool t)
{
    return !known ? "None" : t ? "True" : "False";
}

static void put(char out[16], const char *a, const char *b)
{
    snprintf(out, 16, "(%s, %s)", a, b);
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Number of "Li<digits>E" groups in a row at p (the mangled form of a
 * template's integer arguments). */
static int li_run(const char *p)
{
    int n = 0;
    while (p[0] == 'L' && p[1] == 'i' && is_digit(p[2])) {
        const char *q = p + 2;
        while (is_digit(*q))
            q++;
        if (*q != 'E')
            break;
        n++;
        p = q + 1;
    }
    return n;
}

/* The number of Li..E groups after the first occurrence of `anchor`
 * followed by <digits>E, or (pass_through) by <digits>_S<digits>_, that
 * has at least one group (two in the pass_through form): the first match
 * of TraceLens's CK patterns. */
static int li_after(const char *n, const char *anchor, bool pass_through)
{
    for (const char *p = strstr(n, anchor); p; p = strstr(p + 1, anchor)) {
        const char *q = p + strlen(anchor);
        if (pass_through) {
            if (!is_digit(*q))
                continue;
            while (is_digit(*q))
                q++;
            if (*q++ != '_' || *q++ != 'S' || !is_digit(*q))
                continue;
            while (is_digit(*q))
                q++;
            if (*q++ != '_')
                continue;
        } else {
            if (!is_digit(*q))
                continue;
            while (is_digit(*q))
                q++;
            if (*q++ != 'E')
                continue;
        }
        int k = li_run(q);
        if (k >= (pass_through ? 2 : 1))
            return k;
    }
    return 0;
}

/* Composable Kernel: the parser finds its tile parameters or gives up
 * (None, so the next kernel is tried); the flags are never in the name. */
static bool ck_parses(const char *n)
{
    const char *g = strstr(n, "GemmSpecialization)");
    if (g) {
        /* GemmSpecialization)<digits>, then integers, commas and spaces. */
        const char *p = g + strlen("GemmSpecialization)");
        if (!is_digit(*p))
            return false;
        while (is_digit(*p))
            p++;
        if (*p++ != ',')
            return false;
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        int ints = 0;
        bool in_num = false;
        for (; is_digit(*p) || *p == ',' || *p == ' ' || *p == '\t' || *p == '\n'; p++) {
            if (is_digit(*p) && !in_num)
                ints++;
            in_num = is_digit(*p);
        }
        if (ints == 0)
            return false;
        if (strstr(n, "MoeGemmMX"))
            return ints >= 5;
        if (strstr(n, "GridwiseGemmMultiD_ABScale") || strstr(n, "MoeGemmBlockScale"))
            return ints >= 7;
        return ints >= 4;
    }
    return li_after(n, "GemmSpecializationE", false) >= 4 ||
           li_after(n, "InMemoryDataOperationEnumE", false) >= 5 ||
           li_after(n, "11PassThroughES", true) >= 3;
}

/* The first "_xy_" with x, y in {t, n}: XMMA's and CUTLASS's layout. */
static bool tn_pair(const char *n, char out[16])
{
    for (const char *p = strchr(n, '_'); p; p = strchr(p + 1, '_'))
        if ((p[1] == 't' || p[1] == 'n') && (p[2] == 't' || p[2] == 'n') && p[3] == '_') {
            put(out, flag(true, p[1] == 't'), flag(true, p[2] == 't'));
            return true;
        }
    put(out, "None", "None");
    return true;
}

static bool is_cutlass(const char *n)
{
    return strstr(n, "cutlass") &&
           (strstr(n, "gemm") || strstr(n, "fprop") || strstr(n, "dgrad") || strstr(n, "wgrad"));
}

bool gemmname_transpose(const char *n, char out[16])
{
    if (is_tensile(n)) {
        bool ka = strstr(n, "_Ailk_") || strstr(n, "_Alik_");
        bool kb = strstr(n, "_Bljk_") || strstr(n, "_Bjlk_");
        put(out, flag(ka, !strstr(n, "_Ailk_")), flag(kb, !strstr(n, "_Bljk_")));
        return true;
    }
    if (strstr(n, "BLOCK_SIZE_M_") && strstr(n, "BLOCK_SIZE_N_")) {
        put(out, "None", "None");
        return true;
    }
    if (strstr(n, "void ck::kernel_") || (strstr(n, "_ZN2ck") && strstr(n, "kernel_"))) {
        if (!ck_parses(n))
            return false;
        put(out, "None", "None");
        return true;
    }
    if (strncmp(n, "igemm_", 6) == 0) {
        put(out, "None", "None");
        return true;
    }
    if (strstr(n, "xmma_gemm_") || strstr(n, "xmma_fprop_implicit_gemm_") || is_cutlass(n)) {
        return tn_pair(n, out);
    }
    if (strncmp(n, "nvjet", 5) == 0) {
        /* The last '_'-separated field, "TNT" in nvjet_..._TNT: its first
         * two letters are A's and B's layout. TraceLens fails on a field
         * shorter than two letters; such a name gives no flags here. */
        const char *last = strrchr(n, '_');
        last = last ? last + 1 : n;
        if (strlen(last) < 2)
            return false;
        put(out, flag(true, last[0] == 'T'), flag(true, last[1] == 'T'));
        return true;
    }
    return false;
}
