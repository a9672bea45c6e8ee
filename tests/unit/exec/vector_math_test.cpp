// Vector math (runtime/kernels/vector_math.h): the array functions, whatever
// the length and position of an element, return exactly what the scalar
// function returns (so eager kernels, the graph interpreter and compiled
// code agree bit for bit), every NaN is the canonical quiet NaN, and results
// are within the documented bound of the correctly rounded value (1 ULP).
// TF's tanh and sigmoid: tf_float_math_test.cpp.
#include <doctest/doctest.h>

#include "runtime/kernels/vector_math.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace tfs::runtime;

namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// |got - ref| in units of the last place of the float nearest ref.
double ulpError(float got, double ref) {
  float r = float(ref);
  if (std::isinf(r) || std::isnan(r)) return got == r || (std::isnan(got) && std::isnan(r)) ? 0 : 1e9;
  double ulp = double(std::nextafter(std::fabs(r), INFINITY)) - std::fabs(r);
  return std::fabs(double(got) - ref) / ulp;
}

std::vector<float> samples() {
  std::mt19937 gen(20);
  std::vector<float> xs;
  for (int i = 0; i < 20000; ++i) xs.push_back(std::uniform_real_distribution<float>(-30, 30)(gen));
  for (int i = 0; i < 20000; ++i) xs.push_back(std::uniform_real_distribution<float>(-1, 1)(gen));
  for (int i = 0; i < 20000; ++i) {
    uint32_t b = gen();
    float f;
    std::memcpy(&f, &b, 4);
    xs.push_back(f);  // every exponent, NaNs and infinities included
  }
  for (float f : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 88.7f, -103.9f, 1e-30f})
    xs.push_back(f);
  return xs;
}

}  // namespace

TEST_CASE("vector math: arrays equal the scalar function bit for bit, every length") {
  std::vector<float> xs = samples(), ys = samples();
  std::reverse(ys.begin(), ys.end());
  for (int f = 0; f < int(vmath::Fn::NumFns); ++f) {
    auto fn = vmath::Fn(f);
    bool binary = fn == vmath::Fn::Pow;
    // Lengths around the vector widths exercise the padded last vector.
    for (int64_t n : {int64_t(1), int64_t(7), int64_t(17), int64_t(33), int64_t(xs.size())}) {
      std::vector<float> out(static_cast<size_t>(n));
      if (binary) vmath::apply2(fn, xs.data(), ys.data(), out.data(), n);
      else vmath::apply(fn, xs.data(), out.data(), n);
      int64_t mismatches = 0;
      for (int64_t i = 0; i < n; ++i) {
        float s = binary ? vmath::scalar2(fn, xs[size_t(i)], ys[size_t(i)]) : vmath::scalar(fn, xs[size_t(i)]);
        mismatches += bits(s) != bits(out[size_t(i)]);
        if (std::isnan(out[size_t(i)])) mismatches += bits(out[size_t(i)]) != 0x7fc00000u;
      }
      CAPTURE(f);
      CAPTURE(n);
      CHECK(mismatches == 0);
    }
  }
}

TEST_CASE("vector math: within the documented ULP bound of the correctly rounded result") {
  std::vector<float> xs = samples();
  struct Case {
    vmath::Fn fn;
    double (*ref)(double);
    float limit;  // |x| beyond which the function is not sampled
    double bound = 1.0;  // ULPs (vector_math.h, Note [Vector math])
  };
  // sin/cos: SLEEF's 1-ULP bound holds for |x| up to 1e7 or so; tfs
  // samples arguments where float32 trigonometry is meaningful.
  for (Case c : {Case{vmath::Fn::Exp, [](double x) { return std::exp(x); }, INFINITY},
                 Case{vmath::Fn::Log, [](double x) { return std::log(x); }, INFINITY},
                 Case{vmath::Fn::Sin, [](double x) { return std::sin(x); }, 1e5f},
                 Case{vmath::Fn::Cos, [](double x) { return std::cos(x); }, 1e5f}}) {
    double worst = 0;
    for (float x : xs) {
      if (!(std::fabs(x) <= c.limit)) continue;
      float r = float(c.ref(double(x)));
      if (r != 0 && std::fabs(r) < 1.1754944e-38f) continue;  // subnormal results
      worst = std::max(worst, ulpError(vmath::scalar(c.fn, x), c.ref(double(x))));
    }
    CAPTURE(int(c.fn));
    // The double-precision reference itself errs by ~1e-8 float ULPs.
    CAPTURE(worst);
    CHECK(worst <= c.bound + 1e-6);
  }
}
