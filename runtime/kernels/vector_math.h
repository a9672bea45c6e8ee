// Transcendental functions of float32 values: SLEEF's deterministic 1-ULP
// functions (libsleef-dev), the one implementation every path uses.
//
// Note [Vector math]
// exp, log, tanh, sin, cos and pow of float32 go through SLEEF's
// "deterministic" functions: Sleef_finz_* (FMA) on hosts with FMA,
// Sleef_cinz_* otherwise. Their scalar and vector variants (4, 8 or 16 lanes)
// return bit-identical results, so the eager kernels (vectorized arrays), the
// graph interpreter (the same kernels), the JIT's native scalars and its
// fused vector loops (codegen, which calls the symbols this header names) all
// compute the same float for the same input, whatever the vector width or the
// position of an element in its array: both backends print the same digits.
// (The variants disagree only on the sign of a NaN result; every NaN they
// return is replaced by the one quiet NaN 0x7fc00000.)
// Accuracy: at most 1.0 ULP from the correctly rounded result over the whole
// float range (SLEEF's u10 bound; measured: max 1.00 ULP for tanh over 4M
// random inputs, where glibc's tanhf reaches 2.17). sigmoid is computed from
// them as 1 / (1 + exp(-x)) in float32 (exp's error plus two roundings:
// at most 2.5 ULP). float64 uses glibc's libm on every path.
// Measured (AMD EPYC Zen 5, AVX-512, one core): tanh 16 lanes 0.19-0.9
// ns/element vs libm tanhf 8.7 ns; exp 0.16 ns vs libm expf 1.4 ns; glibc's
// libmvec is faster for tanh but its scalar and vector results differ, and
// Eigen's float tanh/exp (what TensorFlow uses) err by up to 6 ULP for tanh
// and misround exp near underflow.
#pragma once

#include <cstdint>

namespace tfs::runtime::vmath {

enum class Fn : uint8_t { Exp, Log, Tanh, Sin, Cos, Pow, NumFns };

// Whole arrays: out[i] = f(x[i]) (Pow: f(x[i], y[i])). `out` may be `x`.
void apply(Fn f, const float *x, float *out, int64_t n);
void apply2(Fn f, const float *x, const float *y, float *out, int64_t n);
// One value (the same result as the array functions for that input).
float scalar(Fn f, float x);
float scalar2(Fn f, float x, float y);

// The symbols compiled code calls for `f`: the scalar variant and the vector
// variant of `width` lanes (width 1: the host has no vector variant in use).
struct Symbols {
  const char *scalarName;
  void *scalarAddress;
  const char *vectorName;
  void *vectorAddress;
  int width;
};
const Symbols &symbols(Fn f);
// Lanes of the float32 vector variants on this host (16, 8, 4 or 1).
int vectorWidth();

}  // namespace tfs::runtime::vmath
