/* Decimal text to the nearest double (numparse.h). The first of three
 * steps that can answer does:
 *   1. Clinger's fast path: the digits below 2^53 and the power of ten
 *      within 1e22 are both exact doubles, so one IEEE multiplication or
 *      division rounds once, correctly.
 *   2. Eisel-Lemire (Lemire, "Number Parsing at a Gigabyte per Second",
 *      2021; the form of fast_float): the first 19 significant digits times
 *      5^q from a 128-bit table; exact for up to 19 digits, and for more
 *      when the digits and the digits plus one round alike.
 *   3. Otherwise (rare: 20 or more digits next to a halfway point, or the
 *      128-bit product too close to call): the decimal is compared with the
 *      halfway points next to step 2's answer in big integers, exactly. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "core/base/numparse.h"

#define POW5_MIN (-342)
#define POW5_MAX 308
#define MANT_BITS 52
#define INF_EXP 2047
/* Digits kept for the exact step: a halfway point between two doubles has
 * at most 767 significant digits, so digits past 780 only matter as
 * "some nonzero digit follows", kept as one more digit 1. */
#define EXACT_DIGITS 780
/* Big integers of the exact step reach about 2,700 bits (5^1124, the
 * smallest subnormals' scale, times 2^54). */
#define BIG_LIMBS 160

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A number's text taken apart. value = w * 10^q when !truncated; with
 * truncated, w holds the first 19 significant digits and nonzero digits
 * follow. */
struct decimal {
    uint64_t w;
    int64_t q;
    int64_t exp; /* the written exponent, saturated at +-1e9 */
    bool neg, truncated;
    const char *int_digits, *int_end, *frac_digits, *frac_end;
};

static bool parse_decimal(const char *s, size_t n, struct decimal *d)
{
    const char *p = s, *end = s + n;
    d->neg = p < end && *p == '-';
    p += d->neg;
    if (p >= end || !is_digit(*p))
        return false;
    uint64_t w = 0;
    int taken = 0; /* significant digits in w */
    int64_t q = 0;
    bool truncated = false;
    d->int_digits = p;
    if (*p == '0') {
        p++;
    } else {
        for (; p < end && is_digit(*p); p++) {
            if (taken < 19) {
                w = w * 10 + (uint64_t)(*p - '0');
                taken++;
            } else {
                q++;
                truncated |= *p != '0';
            }
        }
    }
    d->int_end = p;
    d->frac_digits = d->frac_end = p;
    if (p < end && *p == '.') {
        d->frac_digits = ++p;
        for (; p < end && is_digit(*p); p++) {
            if (taken < 19) {
                /* Zeros before the first nonzero digit ("0.000123") scale
                 * but take no place in w. */
                w = w * 10 + (uint64_t)(*p - '0');
                q--;
                taken += w != 0;
            } else {
                truncated |= *p != '0';
            }
        }
        if (p == d->frac_digits)
            return false;
        d->frac_end = p;
    }
    int64_t x = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = p < end && *p == '-';
        if (p < end && (*p == '-' || *p == '+'))
            p++;
        const char *e = p;
        for (; p < end && is_digit(*p); p++)
            if (x < 1000000000)
                x = x * 10 + (*p - '0');
        if (p == e)
            return false;
        x = eneg ? -x : x;
    }
    if (p != end)
        return false;
    d->w = w;
    d->q = q + x;
    d->exp = x;
    d->truncated = truncated;
    return true;
}

/* Step 1 (numparse.h). */
bool numparse_clinger(uint64_t w, int64_t q, double *out)
{
#if FLT_EVAL_METHOD == 0
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (w > (UINT64_C(1) << 53) || q < -22 || q > 22)
        return false;
    double d = (double)w;
    *out = q < 0 ? d / pow10[-q] : d * pow10[q];
    return true;
#else
    /* Extended-precision arithmetic would round twice. */
    (void)w;
    (void)q;
    (void)out;
    return false;
#endif
}

/* A double as the IEEE fields: mant the 52 stored bits (bit 52 may be set
 * with exp 1, as a subnormal rounded up into the normals), exp biased, 0
 * for subnormals and zero, INF_EXP for infinity. */
struct binary {
    uint64_t mant;
    int32_t exp;
};

static inline uint64_t mul_hi(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 r = (unsigned __int128)a * b;
    *lo = (uint64_t)r;
    return (uint64_t)(r >> 64);
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* floor(q * log2(10)) + 63, for |q| <= 350. */
static inline int32_t power2_of(int64_t q)
{
    return (int32_t)((((int64_t)152170 + 65536) * q) >> 16) + 63;
}

/* Step 2: w * 10^q rounded (w > 0, q within the table). *sure is false
 * when the 128-bit product cannot tell; the answer is then still within
 * an ulp, a start for step 3. */
static struct binary eisel_lemire(uint64_t w, int64_t q, bool *sure)
{
    struct binary b;
    *sure = true;
    int lz = __builtin_clzll(w);
    w <<= lz;
    const uint64_t *t = numparse_pow5[q - POW5_MIN];
    uint64_t lo, hi = mul_hi(w, t[0], &lo);
    /* Only when the bits below the 55 that decide the rounding are all
     * ones can the table's next 64 bits change them. */
    const uint64_t mask = UINT64_MAX >> (MANT_BITS + 3);
    if ((hi & mask) == mask) {
        uint64_t lo2, hi2 = mul_hi(w, t[1], &lo2);
        (void)lo2;
        lo += hi2;
        if (hi2 > lo)
            hi++;
        /* Still all ones: the truncated table may be short of the carry,
         * except where 5^q itself is exact in 128 bits. */
        if (lo == UINT64_MAX && !(q >= -27 && q <= 55))
            *sure = false;
    }
    int upper = (int)(hi >> 63);
    int shift = upper + 64 - MANT_BITS - 3;
    uint64_t m = hi >> shift;
    int32_t e = power2_of(q) + upper - lz + 1023;
    if (e <= 0) {
        /* Subnormal: no exact halfway case is possible this far from 1
         * with 19 digits, so rounding up on the last bit is right. */
        if (-e + 1 >= 64) {
            b.mant = 0;
            b.exp = 0;
            return b;
        }
        m >>= -e + 1;
        m += m & 1;
        m >>= 1;
        b.mant = m;
        b.exp = m < (UINT64_C(1) << MANT_BITS) ? 0 : 1;
        return b;
    }
    /* A tie between two doubles (only for q in [-4, 23]: the value needs
     * few enough digits) when nothing but zeros was shifted out: round to
     * even by not rounding up an odd-looking half. */
    if (lo <= 1 && q >= -4 && q <= 23 && (m & 3) == 1 && (m << shift) == hi)
        m &= ~UINT64_C(1);
    m += m & 1;
    m >>= 1;
    if (m >= (UINT64_C(2) << MANT_BITS)) {
        m = UINT64_C(1) << MANT_BITS;
        e++;
    }
    m &= ~(UINT64_C(1) << MANT_BITS);
    if (e >= INF_EXP) {
        e = INF_EXP;
        m = 0;
    }
    b.mant = m;
    b.exp = e;
    return b;
}

/* ------------------------------------------------------------------------ */
/* Step 3: exact comparison in big integers                                 */
/* ------------------------------------------------------------------------ */

struct big {
    uint32_t v[BIG_LIMBS]; /* little-endian limbs */
    int n;                 /* limbs in use, no leading zero limb */
};

static void big_set(struct big *b, uint64_t x)
{
    b->n = 0;
    while (x) {
        b->v[b->n++] = (uint32_t)x;
        x >>= 32;
    }
}

/* b = b * m + a. The sizes are bounded (BIG_LIMBS); past them the top is
 * dropped rather than written out of bounds. */
static void big_mul_add(struct big *b, uint32_t m, uint32_t a)
{
    uint64_t carry = a;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->v[i] * m + carry;
        b->v[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < BIG_LIMBS)
        b->v[b->n++] = (uint32_t)carry;
}

static void big_mul_pow5(struct big *b, int64_t k)
{
    for (; k >= 13; k -= 13)
        big_mul_add(b, 1220703125u, 0); /* 5^13 */
    uint32_t r = 1;
    for (; k > 0; k--)
        r *= 5;
    big_mul_add(b, r, 0);
}

static void big_shl(struct big *b, int64_t s)
{
    if (b->n == 0 || s == 0)
        return;
    int limbs = (int)(s / 32), bits = (int)(s % 32);
    int n = b->n + limbs + 1;
    if (n > BIG_LIMBS)
        n = BIG_LIMBS;
    for (int i = n - 1; i >= 0; i--) {
        int src = i - limbs;
        uint64_t hi = src >= 0 && src < b->n ? b->v[src] : 0;
        uint64_t lo = src - 1 >= 0 && src - 1 < b->n ? b->v[src - 1] : 0;
        b->v[i] = (uint32_t)(((hi << 32 | lo) << bits) >> 32);
    }
    b->n = n;
    while (b->n > 0 && b->v[b->n - 1] == 0)
        b->n--;
}

static int big_cmp(const struct big *a, const struct big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->v[i] != b->v[i])
            return a->v[i] < b->v[i] ? -1 : 1;
    return 0;
}

/* The significant digits of d as an integer D with value = D * 10^*e10:
 * at most EXACT_DIGITS of them, then a 1 when a nonzero digit was left. */
static void big_digits(const struct decimal *d, struct big *D, int64_t *e10)
{
    big_set(D, 0);
    int taken = 0;
    int64_t scale = d->exp - (d->frac_end - d->frac_digits);
    bool sticky = false;
    uint32_t chunk = 0, chunk_mul = 1;
    const char *runs[2][2] = {{d->int_digits, d->int_end}, {d->frac_digits, d->frac_end}};
    for (int r = 0; r < 2; r++) {
        for (const char *p = runs[r][0]; p < runs[r][1]; p++) {
            if (taken == 0 && *p == '0')
                continue;
            if (taken == EXACT_DIGITS) {
                sticky |= *p != '0';
                scale++;
                continue;
            }
            chunk = chunk * 10 + (uint32_t)(*p - '0');
            chunk_mul *= 10;
            taken++;
            if (chunk_mul == 1000000000u) {
                big_mul_add(D, chunk_mul, chunk);
                chunk = 0;
                chunk_mul = 1;
            }
        }
    }
    if (sticky) {
        chunk = chunk * 10 + 1;
        chunk_mul *= 10;
        scale--;
    }
    if (chunk_mul > 1)
        big_mul_add(D, chunk_mul, chunk);
    *e10 = scale;
}

/* Sign of D * 10^e10 - (2m + 1) * 2^(e - 1): the decimal against the point
 * halfway between m * 2^e and (m + 1) * 2^e. */
static int cmp_halfway(const struct big *D, int64_t e10, uint64_t m, int32_t e)
{
    struct big l = *D, r;
    big_set(&r, 2 * m + 1);
    int64_t sl = 0, sr = (int64_t)e - 1;
    if (e10 >= 0) {
        big_mul_pow5(&l, e10);
        sl += e10;
    } else {
        big_mul_pow5(&r, -e10);
        sr -= e10;
    }
    int64_t low = sl < sr ? sl : sr;
    big_shl(&l, sl - low);
    big_shl(&r, sr - low);
    return big_cmp(&l, &r);
}

#define HIDDEN (UINT64_C(1) << MANT_BITS)
#define MIN_E (-1074)
#define INF_E 972 /* 2^52 * 2^972 = 2^1024 */

/* The double nearest d (positive), starting from a guess within a few
 * ulps. Doubles are m * 2^e here, m below 2^53 with the hidden bit. */
static struct binary exact(const struct decimal *d, struct binary guess)
{
    struct big D;
    int64_t e10;
    big_digits(d, &D, &e10);
    uint64_t m;
    int32_t e;
    if (guess.exp >= INF_EXP) {
        m = HIDDEN;
        e = INF_E;
    } else if (guess.exp == 0) {
        m = guess.mant;
        e = MIN_E;
    } else {
        m = guess.mant | HIDDEN;
        e = guess.exp - 1075;
    }
    for (int step = 0; step < 64; step++) {
        /* Above the halfway point to the next double (or on it, with m
         * odd): up. */
        if (e < INF_E) {
            int c = cmp_halfway(&D, e10, m, e);
            if (c > 0 || (c == 0 && (m & 1))) {
                if (++m == HIDDEN << 1) {
                    m = HIDDEN;
                    e++;
                }
                continue;
            }
        }
        if (m == 0)
            break;
        /* Below the halfway point to the previous double (or on it, with
         * m odd): down. */
        uint64_t pm = m - 1;
        int32_t pe = e;
        if (m == HIDDEN && e > MIN_E) {
            pm = (HIDDEN << 1) - 1;
            pe = e - 1;
        }
        int c = cmp_halfway(&D, e10, pm, pe);
        if (c < 0 || (c == 0 && (m & 1))) {
            m = pm;
            e = pe;
            continue;
        }
        break;
    }
    struct binary b;
    if (e >= INF_E) {
        b.mant = 0;
        b.exp = INF_EXP;
    } else if (m < HIDDEN) {
        b.mant = m;
        b.exp = 0;
    } else {
        b.mant = m & ~HIDDEN;
        b.exp = e + 1075;
    }
    return b;
}

static double to_double(struct binary b)
{
    uint64_t bits = b.mant | (uint64_t)b.exp << MANT_BITS;
    double d;
    memcpy(&d, &bits, sizeof(d));
    return d;
}

bool numparse_json(const char *s, size_t n, double *out)
{
    struct decimal d;
    if (!parse_decimal(s, n, &d))
        return false;
    double v;
    if (d.w == 0) {
        v = 0; /* only zeros written: no digit was cut either */
    } else if (!d.truncated && numparse_clinger(d.w, d.q, &v)) {
        /* v set */
    } else if (d.q < POW5_MIN) {
        v = 0; /* below 1e19 * 1e-343, under half the smallest subnormal */
    } else if (d.q > POW5_MAX) {
        v = HUGE_VAL;
    } else {
        bool sure;
        struct binary b = eisel_lemire(d.w, d.q, &sure);
        if (sure && d.truncated) {
            /* The value lies in [w, w + 1) * 10^q: both ends must agree. */
            bool sure_up;
            struct binary up = eisel_lemire(d.w + 1, d.q, &sure_up);
            sure = sure_up && up.mant == b.mant && up.exp == b.exp;
        }
        if (!sure)
            b = exact(&d, b);
        v = to_double(b);
    }
    *out = d.neg ? -v : v;
    return true;
}
