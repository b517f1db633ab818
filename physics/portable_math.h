/* portable_math.h: the maths functions Chipmunk calls, the same on every machine.

Why: Chipmunk (inside pymunk) calls sin, cos, pow... through the cpf* macros of
chipmunk_types.h, and every C library computes those with its own rounding (glibc even
picks other routines on CPUs without FMA). Then two honest peers simulate a different
drop from the same seed. These replacements use only + - * / and sqrt, in a fixed
order, with no table or constant that a compiler or library could read differently
(the constants are exact hexadecimal doubles from physics/derive_constants.py). Built
with floating-point contraction off and SSE2 arithmetic (tools/build_physics.py), they
give bit-identical results on every IEEE 754 machine, whatever the compiler or its
optimisation level. They are accurate to a few ulp (tests/physics/test_portable_math.py
measures it against the C library), so the tower behaves as calibrated.

The build patches chipmunk_types.h to map cpfsin -> pm_sin and so on (cpfsqrt stays
sqrt: IEEE 754 rounds it correctly everywhere).
*/
#ifndef SHOGUN_PORTABLE_MATH_H
#define SHOGUN_PORTABLE_MATH_H

/* Raised when the functions or their constants change: the build marker names it. */
#define SHOGUN_PORTABLE_MATH_VERSION 1

#ifndef PM_API
#if defined(__GNUC__) || defined(__clang__)
#define PM_API __attribute__((visibility("hidden")))
#else
#define PM_API
#endif
#endif

PM_API double pm_sin(double x);
PM_API double pm_cos(double x);
PM_API double pm_exp(double x);
PM_API double pm_pow(double x, double y);
PM_API double pm_atan2(double y, double x);
PM_API double pm_acos(double x);
PM_API double pm_floor(double x);
PM_API double pm_ceil(double x);
PM_API double pm_fmod(double x, double y);

#endif
