// TensorFlow 2.15's float32 tanh and sigmoid on the CPU, evaluated the way
// its kernels evaluate them, so that tfs prints TF's last digits.
//
// Note [TF's float32 tanh and sigmoid]
// TF's Tanh and Sigmoid CPU kernels (cwise_op_tanh.cc / cwise_op_sigmoid.cc)
// apply Eigen's scalar_tanh_op / scalar_logistic_op through Eigen's tensor
// executor. TF 2.15 pins an Eigen commit of 2023; its pip wheels for x86-64
// are built with -mavx and without -mfma, so Eigen works on 8-float AVX
// packets and every multiply-add is a multiply and an add, each rounded
// (Eigen's pmadd without EIGEN_VECTORIZE_FMA). What that computes:
//  * tanh (Eigen's fast float tanh, unchanged from Eigen 3.4 to 2024, so
//    Debian's libeigen3-dev 3.4 is an oracle for it: the unit test
//    tests/unit/exec/tf_float_math_test.cpp compares against it): for
//    |x| < 0.0004 the result is x itself; otherwise x is clamped to
//    [-c, c] (c = 7.90531110763549805, the smallest float where the
//    approximation rounds to exactly 1 without FMA) and the result is
//    p(x)/q(x), p odd of degree 13 and q even of degree 6, both in Horner
//    form in x*x. The scalar path (numext::tanh(float) under
//    EIGEN_FAST_MATH) is the same function, so every element of a tensor
//    gets the same value. Measured error against float64 tanh over every
//    finite float: at most 6.88 ULP (at x = 5.82787609; the unit test's
//    sweep of every 127th float finds 6.03; SLEEF's u35 tanh that tfs used
//    before: 2.76 over 82M floats).
//  * sigmoid: TF 2.15's Eigen uses the generic logistic for float on the
//    CPU (its fast float specialization was compiled only for GPUs until
//    April 2024): e = exp(x), then 1 if e is +inf, else e / (1 + e). The
//    exp differs by position: Eigen's executor evaluates whole packets of 8
//    with its own vectorized exp (pexp_float: Cephes-style reduction
//    x = m*ln2 + r with ln2 in two parts, a degree-6 polynomial in r,
//    2^m * p(r) exact up to the final rounding, 0 below -104), and the last
//    n % 8 elements of an n-element tensor one by one with std::exp (glibc's
//    expf). tfs does the same: kPacketFloats below; see sigmoidArray in
//    vector_math.h and the JIT's fused loops (codegen/lower_tf_math.cpp).
//    Debian's Eigen 3.4 computes sigmoid differently (a rational
//    approximation), so it is not an oracle for it; the unit test checks the
//    vector code against the scalar form here, results of the TF-era Eigen,
//    and the error against float64 away from underflow: over every finite
//    float at most 2.64 ULP in packets, 2.40 one at a time.
//  * float64 (not here): Eigen has no double packet tanh, so TF computes
//    std::tanh per element, as tfs does.
// The evaluation below is written for tfs from Eigen's algorithm
// description; the coefficients are Eigen's (facts about its approximation).
// Every function here must be compiled without floating-point contraction
// (-ffp-contract=off, CMakeLists.txt): an FMA would change the roundings.
// NaN inputs give NaN; callers canonicalize NaN results (vector_math.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace tfs::runtime::vmath::tfmath {

// Eigen's AVX packet of floats in TF's build: the unit of its executor.
inline constexpr int64_t kPacketFloats = 8;

// tanh: clamp, small-argument cut-off, numerator x*(a1 + a3 x^2 + ... +
// a13 x^12) and denominator b0 + b2 x^2 + b4 x^4 + b6 x^6.
inline constexpr float kTanhClamp = 7.90531110763549805f;
inline constexpr float kTanhTiny = 0.0004f;
inline constexpr float kTanhNum[7] = {4.89352455891786e-03f,  6.37261928875436e-04f, 1.48572235717979e-05f,
                                      5.12229709037114e-08f,  -8.60467152213735e-11f, 2.00018790482477e-13f,
                                      -2.76076847742355e-16f};
inline constexpr float kTanhDen[4] = {4.89352518554385e-03f, 2.26843463243900e-03f, 1.18534705686654e-04f,
                                      1.19825839466702e-06f};

// exp for sigmoid's packets: arguments above kExpHi are clamped to it,
// below kExpLo give 0; m = floor(x*log2(e) + 1/2), r = x + m*kLn2Neg +
// m*kLn2Small, p(r) = 1 + r + r^2*(c2 + c3 r + c4 r^2 + c5 r^3 + c6 r^4).
inline constexpr float kExpHi = 88.723f;
inline constexpr float kExpLo = -104.0f;
inline constexpr float kLog2e = 1.44269504088896341f;
inline constexpr float kLn2Neg = -0.693359375f;
inline constexpr float kLn2Small = 2.12194440e-4f;
inline constexpr float kExpPoly[5] = {0.49999988079071044921875f, 0.16666518151760101318359375f,
                                      4.166965186595916748046875e-2f, 8.36894474923610687255859375e-3f,
                                      1.37449637986719608306884765625e-3f};

namespace detail {

// V is float or a GCC vector of floats; I the matching int32 type.
template <class V> struct IntOf {
  typedef int32_t type __attribute__((vector_size(sizeof(V))));
};
template <> struct IntOf<float> {
  using type = int32_t;
};

template <class V> inline V splat(float c) {
  if constexpr (std::is_same_v<V, float>) return c;
  else return V{} + c;
}

template <class V> inline typename IntOf<V>::type toInt(V v) {
  if constexpr (std::is_same_v<V, float>) return int32_t(v);
  else return __builtin_convertvector(v, typename IntOf<V>::type);
}

template <class V> inline V toFloat(typename IntOf<V>::type v) {
  if constexpr (std::is_same_v<V, float>) return float(v);
  else return __builtin_convertvector(v, V);
}

template <class V> inline V fromBits(typename IntOf<V>::type v) {
  return __builtin_bit_cast(V, v);
}

template <class V> inline V absOf(V v) {
  if constexpr (std::is_same_v<V, float>) return std::fabs(v);
  else return __builtin_bit_cast(V, __builtin_bit_cast(typename IntOf<V>::type, v) & 0x7fffffff);
}

// 2^e for -126 <= e <= 127, built from its bits.
template <class V> inline V pow2(typename IntOf<V>::type e) { return fromBits<V>((e + 127) << 23); }

}  // namespace detail

// TF's float32 tanh of one value or of each lane.
template <class V> inline V tanhOf(V a) {
  using namespace detail;
  const V c = splat<V>(kTanhClamp);
  V x = c < a ? c : a;      // Eigen's pmin(a, c): NaN stays
  x = x < -c ? -c : x;      // pmax(x, -c)
  V x2 = x * x;
  V p = x2 * splat<V>(kTanhNum[6]) + splat<V>(kTanhNum[5]);
  p = x2 * p + splat<V>(kTanhNum[4]);
  p = x2 * p + splat<V>(kTanhNum[3]);
  p = x2 * p + splat<V>(kTanhNum[2]);
  p = x2 * p + splat<V>(kTanhNum[1]);
  p = x2 * p + splat<V>(kTanhNum[0]);
  p = x * p;
  V q = x2 * splat<V>(kTanhDen[3]) + splat<V>(kTanhDen[2]);
  q = x2 * q + splat<V>(kTanhDen[1]);
  q = x2 * q + splat<V>(kTanhDen[0]);
  return absOf(a) < splat<V>(kTanhTiny) ? x : p / q;
}

// The sigmoid of one value or of each lane as Eigen's packets compute it.
template <class V> inline V sigmoidPacketOf(V a) {
  using namespace detail;
  using I = typename IntOf<V>::type;
  const V hi = splat<V>(kExpHi), one = splat<V>(1.0f);
  V x = hi < a ? hi : a;  // pmin(a, hi)
  V t = x * splat<V>(kLog2e) + splat<V>(0.5f);
  // floor(t). Finite arguments >= kExpLo keep t within +-160; the clamp
  // only keeps the integer conversion defined for lanes whose result is
  // masked (below kExpLo) or NaN anyway.
  t = t > splat<V>(-250.0f) ? t : splat<V>(-250.0f);
  t = t < splat<V>(250.0f) ? t : splat<V>(250.0f);
  V m = toFloat<V>(toInt(t));
  m = m > t ? m - one : m;
  V r = m * splat<V>(kLn2Neg) + x;
  r = m * splat<V>(kLn2Small) + r;
  V r2 = r * r;
  V even = r2 * splat<V>(kExpPoly[4]) + splat<V>(kExpPoly[2]);
  V odd = r2 * splat<V>(kExpPoly[3]) + splat<V>(kExpPoly[1]);
  even = r2 * even + splat<V>(kExpPoly[0]);
  V low = r + one;
  V y = r * odd + even;
  y = r2 * y + low;
  // y * 2^m in two exact steps and one rounding (= ldexp; m <= 128).
  I mi = toInt(m);
  I m1 = mi >> 1;
  V e = y * pow2<V>(m1) * pow2<V>(mi - m1);
  e = a > e ? a : e;                          // pmax(e, a): +inf stays +inf
  e = a < splat<V>(kExpLo) ? splat<V>(0.0f) : e;
  return e == splat<V>(INFINITY) ? one : e / (one + e);
}

// The sigmoid of the elements Eigen's executor evaluates one at a time (the
// last n % kPacketFloats of a tensor): glibc's expf.
inline float sigmoidScalarOf(float a) {
  float e = std::exp(a);
  return e == INFINITY ? 1.0f : e / (1.0f + e);
}

// out[i] = f(x[i]) on vectors of `Lanes` floats (a last partial vector
// padded with zeros), every NaN result the one quiet NaN.
template <int Lanes, class F> inline void mapLanes(F f, const float *x, float *out, int64_t n) {
  typedef float V __attribute__((vector_size(Lanes * 4)));
  static_assert(sizeof(V) == Lanes * sizeof(float));
  // (V spelled out: GCC drops a vector type's attribute from a dependent
  // template argument such as detail::splat<V>.)
  const V nan = V{} + float(NAN);
  auto step = [&](const float *from, float *to) {
    V v;
    __builtin_memcpy(&v, from, sizeof v);
    V r = f(v);
    r = r != r ? nan : r;
    __builtin_memcpy(to, &r, sizeof r);
  };
  int64_t i = 0;
  for (; i + Lanes <= n; i += Lanes) step(x + i, out + i);
  if (i == n) return;
  float a[Lanes] = {}, r[Lanes];
  __builtin_memcpy(a, x + i, size_t(n - i) * sizeof(float));
  step(a, r);
  __builtin_memcpy(out + i, r, size_t(n - i) * sizeof(float));
}

}  // namespace tfs::runtime::vmath::tfmath
