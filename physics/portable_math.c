/* portable_math.c: sin, cos, exp, pow, atan2, acos, floor, ceil, fmod without a libm.

Why and how it stays deterministic: see portable_math.h. In short: only + - * / and
sqrt (all correctly rounded by IEEE 754), evaluated in the order written (the build
turns contraction into fused multiply-adds off and keeps x87 excess precision out),
integer conversions and bit access of doubles. Methods:

- sin, cos: Cody-Waite reduction by pi/2 split in 33-bit pieces (exact products for
  |x| < 2^20 pi/2 = 1.6e6; beyond that an exact fmod by the double nearest 2 pi first:
  still deterministic, but only accurate to about |x| 1e-16 absolute; a tower's angles
  stay far below), then Taylor polynomials to degree 17/18 on |r| <= pi/4, evaluated by
  Horner, with the reduction's low part as a correction.
- exp: k = nearest(x / ln2), r = x - k ln2 (ln2 in two parts), Taylor to degree 17,
  times 2^k built from its bits.
- pow: x^y = exp(y log x) with log x and the product y log x carried as double-double
  (Dekker's exact product by Veltkamp splitting: no fused multiply-add needed); log x
  from a table of ln(1 + j/64) (double-double) and 2 atanh f, |f| < 1/178.
- atan2, acos: atan from a table of atan(k/8) (double-double) and a Taylor polynomial
  on |t| <= 1/16; acos x = 2 atan sqrt((1-x)/(1+x)).
- floor, ceil, fmod: exact, from integer conversion and exact subtractions.

Tests: tests/physics/test_portable_math.py.
*/
#include <math.h>      /* sqrt only: correctly rounded on every IEEE 754 machine */
#include <stdint.h>
#include <string.h>

#include "portable_math.h"
#include "portable_math_constants.h"

/* ---- bits ---------------------------------------------------------------------- */

static uint64_t bits_of(double x) { uint64_t u; memcpy(&u, &x, sizeof u); return u; }
static double from_bits(uint64_t u) { double x; memcpy(&x, &u, sizeof x); return x; }

#define SIGN_BIT 0x8000000000000000ULL
static double abs_of(double x) { return from_bits(bits_of(x) & ~SIGN_BIT); }
static double with_sign_of(double x, double s)
{
    return from_bits((bits_of(x) & ~SIGN_BIT) | (bits_of(s) & SIGN_BIT));
}
static int is_nan(double x) { return x != x; }
static int is_inf(double x) { return abs_of(x) == from_bits(0x7ff0000000000000ULL); }
static int biased_exponent(double x) { return (int)((bits_of(x) >> 52) & 0x7ff); }
static double infinity(void) { return from_bits(0x7ff0000000000000ULL); }
static double not_a_number(void) { return from_bits(0x7ff8000000000000ULL); }

/* 2^k for -1022 <= k <= 1023 */
static double two_to(int k) { return from_bits((uint64_t)(k + 1023) << 52); }

/* x * 2^k for a normal x near 1 and any k a result may need (-1100..1100) */
static double scaled(double x, int k)
{
    if (k > 1000) { x *= two_to(1000); k -= 1000; }
    if (k < -1000) { x *= two_to(-1000); k += 1000; }   /* exact: still normal */
    if (k > 1023) return x * two_to(1023) * two_to(k - 1023);
    return x * two_to(k);                                /* the only rounding */
}

/* the integer nearest x (ties to even), for |x| < 2^51: adding 1.5 * 2^52 rounds */
static double nearest_integer(double x)
{
    const double shift = 0x1.8p52;
    return (x + shift) - shift;
}

/* ---- exact pieces -------------------------------------------------------------- */

/* s + e == a + b exactly (Knuth's two-sum) */
static void two_sum(double a, double b, double *s, double *e)
{
    double sum = a + b;
    double bb = sum - a;
    *e = (a - (sum - bb)) + (b - bb);
    *s = sum;
}

/* s + e == a + b exactly, when |a| >= |b| */
static void fast_two_sum(double a, double b, double *s, double *e)
{
    double sum = a + b;
    *e = b - (sum - a);
    *s = sum;
}

/* h + l == a, each half with at most 26 significant bits (Veltkamp) */
static void split(double a, double *h, double *l)
{
    double c = 0x1.0000002p27 * a;      /* 2^27 + 1 */
    double big = c - a;
    *h = c - big;
    *l = a - *h;
}

/* p + e == a * b exactly (Dekker), for |a|, |b| well below 2^996 */
static void two_product(double a, double b, double *p, double *e)
{
    double ah, al, bh, bl;
    double product = a * b;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    *e = ((ah * bh - product) + ah * bl + al * bh) + al * bl;
    *p = product;
}

/* ---- floor, ceil, fmod (exact) ----------------------------------------------- */

double pm_floor(double x)
{
    double t;
    if (!(abs_of(x) < 0x1p52)) return x;      /* NaN, infinite or already an integer */
    t = (double)(int64_t)x;                    /* towards zero: exact */
    if (t > x) t -= 1.0;
    return t == 0.0 ? with_sign_of(t, x) : t;
}

double pm_ceil(double x)
{
    double t;
    if (!(abs_of(x) < 0x1p52)) return x;
    t = (double)(int64_t)x;
    if (t < x) t += 1.0;
    return t == 0.0 ? with_sign_of(t, x) : t;
}

double pm_fmod(double x, double y)
{
    double ax = abs_of(x), ay = abs_of(y), d;
    if (is_nan(x) || is_nan(y) || is_inf(x) || y == 0.0) return not_a_number();
    if (ax < ay) return x;
    d = ay;
    while (d + d <= ax) d += d;          /* d = ay 2^k <= ax < 2 d; d + d overflows to inf */
    for (;;) {
        if (ax >= d) ax -= d;            /* exact: d <= ax < 2d (Sterbenz) */
        if (d == ay) break;
        d *= 0.5;                        /* exact: a multiple of ay by a power of two */
    }
    return with_sign_of(ax, x);
}

/* ---- sin, cos ------------------------------------------------------------------- */

/* x = n pi/2 + (*hi + *lo) with |*hi| <= about pi/4; returns n mod 4 */
static int reduce_by_half_pi(double x, double *hi, double *lo)
{
    double n, r, w, y, t;
    int top;
    if (abs_of(x) <= PM_PIO4_HI) { *hi = x; *lo = 0.0; return 0; }
    if (!(abs_of(x) < 0x1p20 * PM_PIO2_1)) x = pm_fmod(x, PM_TWO_PI);
    n = nearest_integer(x * PM_INV_PIO2);
    r = x - n * PM_PIO2_1;               /* exact: n has < 21 bits, PM_PIO2_1 33 */
    w = n * PM_PIO2_1T;
    y = r - w;
    top = biased_exponent(x);
    if (top - biased_exponent(y) > 16) {     /* cancellation: use the next 33 bits */
        t = r;
        w = n * PM_PIO2_2;
        r = t - w;
        w = n * PM_PIO2_2T - ((t - r) - w);
        y = r - w;
        if (top - biased_exponent(y) > 49) {
            t = r;
            w = n * PM_PIO2_3;
            r = t - w;
            w = n * PM_PIO2_3T - ((t - r) - w);
            y = r - w;
        }
    }
    *hi = y;
    *lo = (r - y) - w;
    return (int)((int64_t)n & 3);
}

/* sin(x + y) for |x| <= about pi/4, |y| tiny against x */
static double sin_kernel(double x, double y)
{
    double z = x * x, p = PM_SIN_C[7];
    int i;
    for (i = 6; i >= 1; i--) p = PM_SIN_C[i] + z * p;
    return x + ((z * x) * (PM_SIN_C[0] + z * p) + y * (1.0 - 0.5 * z));
}

/* cos(x + y) for |x| <= about pi/4 */
static double cos_kernel(double x, double y)
{
    double z = x * x, q = PM_COS_C[7], half = 0.5 * z, w;
    int i;
    for (i = 6; i >= 0; i--) q = PM_COS_C[i] + z * q;
    w = 1.0 - half;                      /* 1 - w is exact: w is in [0.69, 1] */
    return w + (((1.0 - w) - half) + ((z * z) * q - x * y));
}

double pm_sin(double x)
{
    double hi, lo;
    if (x == 0.0) return x;              /* keeps the sign of zero */
    if (is_nan(x) || is_inf(x)) return not_a_number();
    switch (reduce_by_half_pi(x, &hi, &lo)) {
    case 0: return sin_kernel(hi, lo);
    case 1: return cos_kernel(hi, lo);
    case 2: return -sin_kernel(hi, lo);
    default: return -cos_kernel(hi, lo);
    }
}

double pm_cos(double x)
{
    double hi, lo;
    if (is_nan(x) || is_inf(x)) return not_a_number();
    switch (reduce_by_half_pi(x, &hi, &lo)) {
    case 0: return cos_kernel(hi, lo);
    case 1: return -sin_kernel(hi, lo);
    case 2: return -cos_kernel(hi, lo);
    default: return sin_kernel(hi, lo);
    }
}

/* ---- exp, pow ------------------------------------------------------------------- */

#define EXP_OVERFLOW 0x1.62e42fefa39efp+9     /* ln(largest double) */
#define EXP_UNDERFLOW -0x1.74910d52d3052p+9   /* ln(half the smallest subnormal) */

/* e^(hi + lo), |lo| <= ulp(hi), hi within the two limits */
static double exp_of_sum(double hi, double lo)
{
    double k = nearest_integer(hi * PM_INV_LN2), r, p;
    int i;
    r = (hi - k * PM_LN2_HI) + (lo - k * PM_LN2_LO);   /* k PM_LN2_HI is exact */
    p = PM_EXP_C[15];
    for (i = 14; i >= 0; i--) p = PM_EXP_C[i] + r * p;
    return scaled(1.0 + (r + (r * r) * p), (int)k);
}

double pm_exp(double x)
{
    if (is_nan(x)) return x;
    if (x > EXP_OVERFLOW) return infinity();
    if (x < EXP_UNDERFLOW) return 0.0;
    return exp_of_sum(x, 0.0);
}

/* ln x = *hi + *lo (double-double), for finite x > 0 */
static void log_parts(double x, double *hi, double *lo)
{
    int e = 0, j, i;
    uint64_t u;
    double m, c, num, den, den_lo, f, f_lo, p, p_lo, z, s, tail, a_hi, a_lo, s1, t1, s2, t2;
    if (x < 0x1p-1022) { x *= 0x1p54; e = -54; }        /* subnormal: exact scaling */
    u = bits_of(x);
    e += biased_exponent(x) - 1023;
    m = from_bits((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);   /* [1, 2) */
    if (m > 2.0 * PM_SQRT_HALF) { m *= 0.5; e += 1; }   /* [sqrt 1/2, sqrt 2] */
    /* ln m = ln c + 2 atanh f, c = 1 + j/64 nearest m, f = (m - c) / (m + c), |f| < 1/178 */
    j = (int)nearest_integer((m - 1.0) * 64.0);
    c = 1.0 + (double)j * 0.015625;
    num = m - c;                                         /* exact (Sterbenz) */
    two_sum(m, c, &den, &den_lo);
    f = num / den;
    two_product(f, den, &p, &p_lo);
    f_lo = (((num - p) - p_lo) - f * den_lo) / den;      /* f + f_lo = num / (m + c) */
    z = f * f;
    s = PM_ATANH_C[4];
    for (i = 3; i >= 0; i--) s = PM_ATANH_C[i] + z * s;
    tail = 2.0 * f_lo + (f * z) * s;
    a_hi = (double)e * PM_LN2_HI;                        /* exact: |e| < 2^11 */
    a_lo = (double)e * PM_LN2_LO;
    two_sum(a_hi, PM_LOG_HI[j - PM_LOG_FIRST], &s1, &t1);
    two_sum(s1, 2.0 * f, &s2, &t2);
    fast_two_sum(s2, t1 + (t2 + (tail + (a_lo + PM_LOG_LO[j - PM_LOG_FIRST]))), hi, lo);
}

static int is_integer(double y) { return pm_floor(y) == y; }
static int is_odd_integer(double y)
{
    return is_integer(y) && abs_of(y) < 0x1p53 && pm_floor(0.5 * y) != 0.5 * y;
}

double pm_pow(double x, double y)
{
    double ax = abs_of(x), hi, lo, p, p_lo, h, l, result;
    int negative = 0;
    if (y == 0.0 || x == 1.0) return 1.0;
    if (is_nan(x) || is_nan(y)) return x + y;
    if (is_inf(y)) {
        if (ax == 1.0) return 1.0;
        return (ax < 1.0) == (y < 0.0) ? infinity() : 0.0;
    }
    if (x == 0.0 || is_inf(x)) {
        int big = (x != 0.0) == (y > 0.0);               /* 0^-y and inf^y are infinite */
        result = big ? infinity() : 0.0;
        return (x < 0.0 || (x == 0.0 && with_sign_of(1.0, x) < 0.0)) && is_odd_integer(y)
               ? -result : result;
    }
    if (x < 0.0) {
        if (!is_integer(y)) return not_a_number();
        negative = is_odd_integer(y);
    }
    if (ax == 1.0) return negative ? -1.0 : 1.0;
    log_parts(ax, &hi, &lo);
    h = y * hi;                          /* limits first: keeps the exact product in range */
    if (h > EXP_OVERFLOW + 1.0) result = infinity();
    else if (h < EXP_UNDERFLOW - 1.0) result = 0.0;
    else {
        two_product(y, hi, &p, &p_lo);
        fast_two_sum(p, p_lo + y * lo, &h, &l);
        if (h > EXP_OVERFLOW) result = infinity();
        else if (h < EXP_UNDERFLOW) result = 0.0;
        else result = exp_of_sum(h, l);
    }
    return negative ? -result : result;
}

/* ---- atan2, acos ---------------------------------------------------------------- */

/* atan x for 0 <= x <= 1 */
static double atan_to_one(double x)
{
    int k = (int)(x * 8.0 + 0.5), i;               /* the nearest table point k/8 */
    double c = (double)k * 0.125;
    double t = (x - c) / (1.0 + x * c);            /* atan x = atan c + atan t, |t| <= 1/16 */
    double z = t * t, p = PM_ATAN_C[7];
    for (i = 6; i >= 0; i--) p = PM_ATAN_C[i] + z * p;
    return PM_ATAN_HI[k] + (PM_ATAN_LO[k] + (t + (t * z) * p));
}

/* atan x for x >= 0 (infinite too) */
static double atan_positive(double x)
{
    if (x <= 1.0) return atan_to_one(x);
    if (x > 0x1p60) return PM_PIO2_HI;
    return PM_PIO2_HI - (atan_to_one(1.0 / x) - PM_PIO2_LO);
}

double pm_atan2(double y, double x)
{
    double ax = abs_of(x), ay = abs_of(y), a;
    if (is_nan(x) || is_nan(y)) return x + y;
    if (y == 0.0) {
        if (x > 0.0 || (x == 0.0 && with_sign_of(1.0, x) > 0.0)) return y;
        return with_sign_of(PM_PI_HI, y);
    }
    if (is_inf(x)) {
        if (is_inf(y)) return with_sign_of(x > 0.0 ? PM_PIO4_HI : PM_3PIO4, y);
        return with_sign_of(x > 0.0 ? 0.0 : PM_PI_HI, y);
    }
    if (x == 0.0 || is_inf(y)) return with_sign_of(PM_PIO2_HI, y);
    if (ay <= ax) a = atan_positive(ay / ax);
    else a = PM_PIO2_HI - (atan_positive(ax / ay) - PM_PIO2_LO);
    if (x < 0.0) a = PM_PI_HI - (a - PM_PI_LO);
    return with_sign_of(a, y);
}

double pm_acos(double x)
{
    if (is_nan(x)) return x;
    if (abs_of(x) > 1.0) return not_a_number();
    return 2.0 * atan_positive(sqrt((1.0 - x) / (1.0 + x)));
}
