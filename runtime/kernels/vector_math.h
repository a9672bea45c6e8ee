// Transcendental functions of float32 values: SLEEF's deterministic 1-ULP
// functions (libsleef-dev), the one implementation every path uses.
//
// Note [Vector math]
// exp, log, sin, cos and pow of float32 go through SLEEF's "deterministic"
// functions: Sleef_finz_* (FMA) on hosts with FMA, Sleef_cinz_* otherwise.
// Their scalar and vector variants (4, 8 or 16 lanes) return bit-identical
// results, so the eager kernels (vectorized arrays), the graph interpreter
// (the same kernels), the JIT's native scalars and its fused vector loops
// (codegen, which calls the symbols this header names) all compute the same
// float for the same input, whatever the vector width or the position of an
// element in its array: both backends print the same digits. (The variants
// disagree only on the sign of a NaN result; every NaN they return is
// replaced by the one quiet NaN 0x7fc00000.) Accuracy: SLEEF's u10 variants,
// at most 1.0 ULP from the correctly rounded result.
// tanh and sigmoid of float32 are TensorFlow's own (tf_float_math.h, Note
// [TF's float32 tanh and sigmoid]): the rational tanh and the exp-based
// sigmoid of the Eigen TF 2.15 runs, evaluated with the same roundings, so
// tfs prints TF's digits; here as arrays (tanhArray, sigmoidArray) and in
// the JIT as inline IR (codegen/lower_tf_math.cpp), bit for bit the same.
// The rational tanh is also cheaper than SLEEF's u35 tanh tfs used before:
// 16 lanes, data in L1, 0.37 ns an element against 0.49 (Intel Xeon,
// AVX-512; the elementwise benchmark chain, bench/README.md).
// float64 uses glibc's libm on every path.
// Measured (AMD EPYC Zen 5, AVX-512, one core): exp 0.15 ns/element vs libm
// expf 1.4 ns; glibc's libmvec is faster still, but its scalar and vector
// results differ and its variants per instruction set are not specified to
// agree, and Eigen's float exp misrounds near underflow.
#pragma once

#include <cstdint>

namespace tfs::runtime::vmath {

enum class Fn : uint8_t { Exp, Log, Sin, Cos, Pow, NumFns };

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

// TF's float32 tanh (tf_float_math.h), out[i] = tanh(x[i]); `out` may be `x`.
void tanhArray(const float *x, float *out, int64_t n);
// TF's float32 sigmoid of an n-element tensor: elements before the last
// n % 8 as Eigen's packets compute them, those as its scalar path does.
void sigmoidArray(const float *x, float *out, int64_t n);
// One value (NaN results: the one quiet NaN).
float tanhScalar(float x);
float sigmoidPacketScalar(float x);  // as in a packet
float sigmoidScalar(float x);        // as one of the last n % 8
// The name compiled code calls sigmoidScalar by (codegen/jit.cpp).
inline constexpr const char *kSigmoidScalarSymbol = "tfs_vm_sigmoid_scalar_f32";

}  // namespace tfs::runtime::vmath
