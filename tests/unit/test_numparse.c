/* Unit tests: numparse_json (core/base/numparse.h) reads every JSON number
 * as strtod does in the C locale, bit for bit, and refuses what JSON does
 * not allow. The shared traces' numbers and a Python-written corpus are
 * checked by tests/golden/numparse_corpus.sh. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/numparse.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* numparse_json(s) must accept s and equal strtod(s) bit for bit. */
static void check(const char *s)
{
    double fast = 12345, slow = strtod(s, NULL);
    if (!numparse_json(s, strlen(s), &fast))
        fail_msg("refused %s", s);
    if (memcmp(&fast, &slow, sizeof(fast)) != 0)
        fail_msg("%s: %a, strtod %a", s, fast, slow);
}

static void test_fixed(void **state)
{
    (void)state;
    static const char *const fixed[] = {
        "0",
        "-0",
        "0.0",
        "-0.0",
        "0e0",
        "0E+5",
        "-0e-400",
        "0.000000000000000000000000000",
        "1",
        "-1",
        "1234567.891",
        "1234567.8910000001",
        "1419116104994.671",
        "1419118589013.5278",
        "0.0035714285714285713",
        "0.30000000000000004",
        "1e-05",
        "1E5",
        "1e+05",
        "1e5",
        "-1E-5",
        "9007199254740991",
        "9007199254740992",
        "9007199254740993",
        "9007199254740994",
        "9007199254740995",
        "-9007199254740993",
        "18014398509481985",
        "18014398509481987",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890",
        "0.1",
        "0.2",
        "0.3",
        "1e22",
        "1e23",
        "1e-22",
        "1e-23",
        "8.98846567431158e307",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "-1.7976931348623159e308",
        "1e308",
        "1e309",
        "1e400",
        "-1e400",
        "1e999999999999",
        "2.2250738585072014e-308",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "2.2250738585072009e-308",
        "4.9406564584124654e-324",
        "5e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "3e-324",
        "7.4109846876186982e-324",
        "1e-400",
        "1e-999999999999",
        "0.0000000000000000001",
        "0.5e1",
        "100000000000000000000000",
        "1.00000000000000011102230246251565404",
        "1.00000000000000011102230246251565405",
        "1.00000000000000011102230246251565403",
        "0.500000000000000166533453693773481063544750213623046875",
        "0.500000000000000166533453693773481063544750213623046876",
        "0.500000000000000166533453693773481063544750213623046874",
        /* halfway between 1 and its successor, then a hair either side */
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.000000000000000111022302462515654042363166809082031250000000000000000001",
        /* halfway between 2^53 and 2^53 + 2, written long */
        "9007199254740993.000000000000000000000000000000000000000000000000000000000001",
        "9007199254740992.999999999999999999999999999999999999999999999999999999999999",
        "4.4501477170144022721148195934182639518696390927032912960468522194496444440421538"
        "910330590478162701758282983178260792422137401728773891892910553144148156412434867"
        "599762821265346585071045737627442980259622449029037796981144446145705102663115100"
        "318287949527959668236039986479250965780342141637013812613333119898765515451440315"
        "261253813266652951306000184917766328660755595837392240989947807556594098101021612"
        "198814605258742579179000071675999344145086087205681577915435923018910334964869420"
        "614052182892431445797605163650903606514140377217442262561590244668525767372446430"
        "075513332450079650686719491377688478005309963967709758965844137894433796621993967"
        "316936280457084866613206797017728916080020698679408551343728867675409720757232455"
        "434770912461317493580281734466552734375e-308",
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437"
        "593264991818081799618989828234772285886546332835517796989819938739800539093906315"
        "035659515570226392290858392449105184435931802849936536152500319370457678249219365"
        "623669863658480757001585769269903706311928279558551332927834338409351978015531246"
        "597263579574622766465272827220056374006485499977096599470454020828166226237857393"
        "450736339007967761930577506740176324673600968951340535537458516661134223766678604"
        "162159680461914467291840300530057530849048765391711386591646239524912623653881879"
        "636239373280423891018672348497668235089863388587925628302755995657524455507255189"
        "313690836254779186948667994968324049705821028513185451396213837722826145437693412"
        "532098591327667236328125e-324",
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437"
        "593264991818081799618989828234772285886546332835517796989819938739800539093906315"
        "035659515570226392290858392449105184435931802849936536152500319370457678249219365"
        "623669863658480757001585769269903706311928279558551332927834338409351978015531246"
        "597263579574622766465272827220056374006485499977096599470454020828166226237857393"
        "450736339007967761930577506740176324673600968951340535537458516661134223766678604"
        "162159680461914467291840300530057530849048765391711386591646239524912623653881879"
        "636239373280423891018672348497668235089863388587925628302755995657524455507255189"
        "313690836254779186948667994968324049705821028513185451396213837722826145437693412"
        "532098591327667236328125000000000000000000000000000000000000000000001e-324",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946"
        "649017977587207096330286416692887910946555547851940402630657488671505820681908902000"
        "708383676273854845817711531764475730270069855571366959622842914819860834936475292719"
        "074168444365510704342711559699508093042880177904174497791.9",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946"
        "649017977587207096330286416692887910946555547851940402630657488671505820681908902000"
        "708383676273854845817711531764475730270069855571366959622842914819860834936475292719"
        "074168444365510704342711559699508093042880177904174497792",
    };
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        check(fixed[i]);
}

static void test_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",   "-",   "+1",  "01",   "-01",   "00",       "1.",        ".5",   "-.5",
        "1e", "1e+", "1E-", "1.e5", "1.5e",  "inf",      "nan",       "0x10", " 1",
        "1 ", "1,",  "--1", "1e5.", "1.2.3", "Infinity", "-Infinity", "1e1e1"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        double d = 7;
        if (numparse_json(bad[i], strlen(bad[i]), &d))
            fail_msg("accepted \"%s\" as %g", bad[i], d);
        assert_true(d == 7);
    }
    /* The length bounds the text: "12" of "123". */
    double d;
    assert_true(numparse_json("123", 2, &d));
    assert_true(d == 12);
}

/* Random bit patterns (every finite double, subnormals too) in the forms
 * C and Python print them. */
static void test_random_bits(void **state)
{
    (void)state;
    static const char *const forms[] = {"%.17g", "%.15g", "%g", "%.16e", "%.20e", "%.0f"};
    char buf[400];
    for (int i = 0; i < 200000; i++) {
        uint64_t bits = next_rand();
        double d;
        memcpy(&d, &bits, sizeof(d));
        if (!isfinite(d))
            continue;
        for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
            if (f == 5 && fabs(d) > 1e30)
                continue;
            snprintf(buf, sizeof(buf), forms[f], d);
            /* %g can write "1e+100": JSON, but "inf" and "1." never. */
            check(buf);
        }
    }
}

/* Random decimal text: 1 to 40 digits, a dot anywhere, leading zeros,
 * exponents from -400 to 400. */
static void test_random_text(void **state)
{
    (void)state;
    char buf[128];
    for (int i = 0; i < 300000; i++) {
        uint64_t r = next_rand();
        int len = 0;
        if (r & 1)
            buf[len++] = '-';
        int ndig = 1 + (int)((r >> 1) % 40);
        int zeros = (r >> 8) % 4 == 0 ? (int)((r >> 10) % 5) : 0;
        int dot = (r >> 13) % 3 == 0 ? -1 : (int)((r >> 15) % (unsigned)ndig);
        uint64_t digits = next_rand();
        if (zeros) {
            buf[len++] = '0';
            buf[len++] = '.';
            for (int z = 1; z < zeros; z++)
                buf[len++] = '0';
            dot = -1;
        }
        for (int k = 0; k < ndig; k++) {
            if (k == 0 && !zeros)
                buf[len++] = (char)('1' + digits % 9);
            else
                buf[len++] = (char)('0' + digits % 10);
            digits /= 10;
            if (!digits)
                digits = next_rand();
            if (k == dot && k < ndig - 1)
                buf[len++] = '.';
        }
        if ((r >> 20) % 2) {
            int e = (int)((r >> 21) % 801) - 400;
            len +=
                snprintf(buf + len, sizeof(buf) - (size_t)len, (r >> 31) & 1 ? "e%d" : "E%+d", e);
        }
        buf[len] = '\0';
        check(buf);
    }
}

/* Digits read eight at a time: every length from 1 to 40, a dot at each
 * place, leading zeros after it; and a byte that is not a digit at each
 * place refuses the text. */
static void test_digit_blocks(void **state)
{
    (void)state;
    static const char digits[] = "9876543210123456789098765432101234567890";
    char buf[96];
    for (int n = 1; n <= 40; n++) {
        for (int dot = 0; dot <= n; dot++) {
            for (int zeros = 0; zeros <= 9; zeros += 9) {
                int len = 0;
                for (int k = 0; k < n; k++) {
                    if (k == dot) {
                        buf[len++] = '.';
                        for (int z = 0; z < zeros; z++)
                            buf[len++] = '0';
                    }
                    buf[len++] = digits[k];
                }
                buf[len] = '\0';
                if (buf[0] == '.' || (buf[0] == '0' && len > 1 && buf[1] != '.'))
                    continue;
                check(buf);
                for (int bad = 0; bad < len; bad++) {
                    char c = buf[bad];
                    if (c == '.')
                        continue;
                    static const char others[] = {'/', ':', 'a', '\x80', '\xb9', ' '};
                    for (size_t o = 0; o < sizeof(others); o++) {
                        buf[bad] = others[o];
                        double v;
                        if (numparse_json(buf, (size_t)len, &v))
                            fail_msg("accepted %.*s", len, buf);
                    }
                    buf[bad] = c;
                }
            }
        }
    }
}

/* Halfway points between neighbouring doubles and the numbers next to them,
 * written with the exact decimal expansion glibc prints ("%.*e"). */
static void test_halfway(void **state)
{
    (void)state;
    char buf[1200];
    for (int i = 0; i < 3000; i++) {
        uint64_t bits = next_rand() & ~(UINT64_C(1) << 63);
        /* mostly normal numbers near 1, some anywhere, some subnormal */
        if (i % 3 == 0)
            bits =
                (bits & ((UINT64_C(1) << 52) - 1)) | ((uint64_t)(1023 + (int)(i % 120) - 60) << 52);
        else if (i % 3 == 1)
            bits &= (UINT64_C(1) << 52) - 1;
        double lo, hi;
        memcpy(&lo, &bits, sizeof(lo));
        if (!isfinite(lo) || lo == 0)
            continue;
        hi = nextafter(lo, INFINITY);
        if (!isfinite(hi))
            continue;
        /* lo/2 + hi/2 is exact when the halves are (not for the smallest
         * subnormals): long double holds the midpoint exactly on x86. */
        long double mid = ((long double)lo + (long double)hi) / 2;
        if (sizeof(long double) <= sizeof(double))
            skip();
        int n = snprintf(buf, sizeof(buf), "%.800Le", mid);
        /* strip trailing zeros of the mantissa to keep the text exact and
         * short, then the variants one unit in the last place away */
        char *e = strchr(buf, 'e');
        char *z = e;
        while (z[-1] == '0' && z[-2] != '.')
            z--;
        memmove(z, e, strlen(e) + 1);
        (void)n;
        check(buf);
        e = strchr(buf, 'e');
        char tail[16];
        snprintf(tail, sizeof(tail), "%s", e);
        /* + a hair: append digits 0001 before the exponent */
        char more[1200];
        snprintf(more, sizeof(more), "%.*s0000001%s", (int)(e - buf), buf, tail);
        check(more);
        /* - a hair: the last digit one less, then 9s */
        char less[1200];
        snprintf(less, sizeof(less), "%.*s", (int)(e - buf), buf);
        size_t l = strlen(less);
        if (less[l - 1] > '0' && less[l - 1] <= '9' && l > 2) {
            less[l - 1]--;
            snprintf(less + l, sizeof(less) - l, "99999999%s", tail);
            check(less);
        }
    }
}

/* A locale with another decimal point changes nothing. */
static void test_locale(void **state)
{
    (void)state;
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
        skip();
    double d;
    assert_true(numparse_json("1234567.8910000001", 18, &d));
    setlocale(LC_NUMERIC, "C");
    assert_true(d == strtod("1234567.8910000001", NULL));
}

int main(void)
{
    setlocale(LC_NUMERIC, "C");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed),        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_random_bits),  cmocka_unit_test(test_random_text),
        cmocka_unit_test(test_halfway),      cmocka_unit_test(test_locale),
        cmocka_unit_test(test_digit_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
