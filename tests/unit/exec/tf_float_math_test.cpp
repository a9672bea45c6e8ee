// TF's float32 tanh and sigmoid (runtime/kernels/tf_float_math.h, Note
// [TF's float32 tanh and sigmoid]):
//  * tanh equals Eigen's own (eigen_tanh_oracle.cpp: Debian's Eigen 3.4
//    compiled without FMA, as TF's wheels are) bit for bit over a sweep of
//    every 127th float and the edge cases, in arrays (the host's widest
//    vectors) and one value at a time;
//  * sigmoid's vector code equals its scalar form, the last n % 8 elements
//    of an array take Eigen's scalar path, and known results of the Eigen
//    TF 2.15 builds (its 2023 logistic, which Debian's 3.4 lacks) match;
//  * both stay within their error bounds against float64.
#include <doctest/doctest.h>

#include "runtime/kernels/tf_float_math.h"
#include "runtime/kernels/vector_math.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace tfs_test {
void eigenTanh(const float *x, float *out, int64_t n);
float eigenTanhScalar(float x);
}  // namespace tfs_test

using namespace tfs::runtime;
namespace tfmath = tfs::runtime::vmath::tfmath;

namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

float fromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// Equal bits, any two NaNs equal (tfs's are the canonical one).
bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b); }

// |got - ref| in units of the last place of the float nearest ref.
double ulpError(float got, double ref) {
  float r = float(ref);
  double ulp = double(std::nextafter(std::fabs(r), INFINITY)) - std::fabs(r);
  return std::fabs(double(got) - ref) / ulp;
}

// Edge cases: zeros, denormals, infinities, NaNs (quiet, signaling,
// negative), and the floats around tanh's clamp and small-argument cut-off
// and sigmoid's exp limits.
std::vector<float> edgeCases() {
  std::vector<float> xs = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, fromBits(0x7f800001), fromBits(0xffc12345),
                           fromBits(1), fromBits(0x80000001), fromBits(0x007fffff), fromBits(0x807fffff),
                           1.17549435e-38f, -1.17549435e-38f, 3.4028235e38f, -3.4028235e38f};
  for (float c : {tfmath::kTanhClamp, tfmath::kTanhTiny, tfmath::kExpHi, tfmath::kExpLo, 8.0f, 9.0f, 16.0f,
                  18.0f, 87.0f}) {
    for (float s : {c, -c}) {
      float lo = s, hi = s;
      for (int i = 0; i < 2000; ++i) {
        lo = std::nextafter(lo, -INFINITY);
        hi = std::nextafter(hi, INFINITY);
        xs.push_back(lo);
        xs.push_back(hi);
      }
      xs.push_back(s);
    }
  }
  return xs;
}

// Every 127th bit pattern (33.8M floats: every binade, both signs, NaNs).
std::vector<float> sweep() {
  std::vector<float> xs;
  xs.reserve((uint64_t(1) << 32) / 127 + 1);
  for (uint64_t b = 0; b < (uint64_t(1) << 32); b += 127)
    xs.push_back(fromBits(uint32_t(b)));
  return xs;
}

}  // namespace

TEST_CASE("tf float math: tanh equals Eigen's bit for bit, arrays and scalars") {
  for (const std::vector<float> &xs : {edgeCases(), sweep()}) {
    int64_t n = int64_t(xs.size());
    std::vector<float> ours(xs.size()), eigen(xs.size());
    vmath::tanhArray(xs.data(), ours.data(), n);
    tfs_test::eigenTanh(xs.data(), eigen.data(), n);
    int64_t mismatches = 0, scalarMismatches = 0, nonCanonicalNaN = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      mismatches += !same(ours[i], eigen[i]);
      nonCanonicalNaN += std::isnan(ours[i]) && bits(ours[i]) != 0x7fc00000u;
      if (i % 8 == 0) {
        float s = vmath::tanhScalar(xs[i]);
        scalarMismatches += !same(s, ours[i]) || !same(s, tfs_test::eigenTanhScalar(xs[i]));
      }
    }
    CAPTURE(n);
    CHECK(mismatches == 0);
    CHECK(scalarMismatches == 0);
    CHECK(nonCanonicalNaN == 0);
  }
  // Signed zeros and denormals come back as they are (|x| < 0.0004).
  for (uint32_t b : {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu})
    CHECK(bits(vmath::tanhScalar(fromBits(b))) == b);
  CHECK(vmath::tanhScalar(INFINITY) == 1.0f);
  CHECK(vmath::tanhScalar(-INFINITY) == -1.0f);
  CHECK(vmath::tanhScalar(tfmath::kTanhClamp) == 1.0f);
  CHECK(vmath::tanhScalar(std::nextafter(tfmath::kTanhClamp, 0.0f)) < 1.0f);
  CHECK(bits(vmath::tanhScalar(NAN)) == 0x7fc00000u);
}

TEST_CASE("tf float math: tanh error against float64 (Note [TF's float32 tanh and sigmoid])") {
  std::vector<float> xs = sweep();
  double worst = 0;
  float worstAt = 0;
  for (float x : xs) {
    if (!std::isfinite(x)) continue;
    double e = ulpError(vmath::tanhScalar(x), std::tanh(double(x)));
    if (e > worst) worst = e, worstAt = x;
  }
  MESSAGE("tanh: max ", worst, " ULP at ", worstAt);
  CHECK(worst <= 6.5);
}

TEST_CASE("tf float math: sigmoid arrays: packets as the scalar form, the last n % 8 as Eigen's scalar path") {
  std::vector<float> xs = edgeCases();
  std::vector<float> big = sweep();
  xs.insert(xs.end(), big.begin(), big.end());
  xs.resize(xs.size() - xs.size() % 8);
  std::vector<float> out(xs.size());
  vmath::sigmoidArray(xs.data(), out.data(), int64_t(xs.size()));
  int64_t mismatches = 0;
  for (size_t i = 0; i < xs.size(); ++i)
    mismatches += !same(out[i], vmath::sigmoidPacketScalar(xs[i])) ||
                  (std::isnan(out[i]) && bits(out[i]) != 0x7fc00000u);
  CHECK(mismatches == 0);
  // Every length from 1 to 40: the tail of n % 8 elements, one at a time.
  for (int64_t n = 1; n <= 40; ++n) {
    std::vector<float> o(static_cast<size_t>(n));
    vmath::sigmoidArray(xs.data() + 1000, o.data(), n);
    int64_t tailStart = n - n % 8, bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      float x = xs[size_t(1000 + i)];
      bad += !same(o[size_t(i)], i < tailStart ? vmath::sigmoidPacketScalar(x) : vmath::sigmoidScalar(x));
    }
    CAPTURE(n);
    CHECK(bad == 0);
  }
  CHECK(vmath::sigmoidPacketScalar(0.0f) == 0.5f);
  CHECK(vmath::sigmoidScalar(0.0f) == 0.5f);
  for (float x : {INFINITY, 100.0f, 17.0f}) {
    CHECK(vmath::sigmoidPacketScalar(x) == 1.0f);
    CHECK(vmath::sigmoidScalar(x) == 1.0f);
  }
  CHECK(bits(vmath::sigmoidPacketScalar(-INFINITY)) == 0u);
  CHECK(bits(vmath::sigmoidPacketScalar(-104.5f)) == 0u);
  CHECK(bits(vmath::sigmoidPacketScalar(NAN)) == 0x7fc00000u);
  CHECK(bits(vmath::sigmoidScalar(NAN)) == 0x7fc00000u);
}

TEST_CASE("tf float math: sigmoid equals the results of TF 2.15's Eigen") {
  // Inputs and results (float bits) of Eigen's logistic at the 2023 commit
  // TF 2.15's era pins, through its tensor executor as TF's Sigmoid kernel
  // runs it, compiled with -mavx -mno-fma: 29 elements, so 24 in packets of
  // 8 and the last 5 one at a time. The last six inputs are ones where the
  // two paths differ in the last bit (the 24th in a packet).
  const uint32_t in[29] = {0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x3dcccccd, 0xbdcccccd, 0x41200000,
                           0xc1200000, 0x42c80000, 0xc2c80000, 0x3e99999a, 0xbf400000, 0x40a00000, 0xc0a00000,
                           0x42b00000, 0xc2d00000, 0x3a83126f, 0xba83126f, 0x41a00000, 0xc1a00000, 0x3f000000,
                           0xbf000000, 0x40490fdb, 0xc11c5d4f, 0xc11c8abf, 0xc0f0f3c1, 0xc1357bb1, 0xc10a1767,
                           0xc08f4a4d};
  const uint32_t expected[29] = {0x3f3b26a8, 0x3e89b2b1, 0x3f617beb, 0x3df420a9, 0x3f066509, 0x3ef335ed,
                                 0x3f7ffd06, 0x383e6997, 0x3f800000, 0x0000001b, 0x3f130eaa, 0x3ea442b0,
                                 0x3f7e4961, 0x3bdb4fb4, 0x3f800000, 0x00000000, 0x3f001063, 0x3effdf3b,
                                 0x3f800000, 0x310da433, 0x3f1f597f, 0x3ec14d03, 0x3f75653f, 0x386efc27,
                                 0x386c5941, 0x3a0ca961, 0x3746e76e, 0x393b2d29, 0x3c380081};
  std::vector<float> xs, out(29);
  for (uint32_t b : in) xs.push_back(fromBits(b));
  vmath::sigmoidArray(xs.data(), out.data(), 29);
  for (int i = 0; i < 29; ++i) {
    CAPTURE(i);
    CHECK(bits(out[size_t(i)]) == expected[i]);
  }
}

TEST_CASE("tf float math: sigmoid error against float64") {
  std::vector<float> xs = sweep();
  double worstPacket = 0, worstScalar = 0;
  for (float x : xs) {
    if (!std::isfinite(x)) continue;
    double ref = 1.0 / (1.0 + std::exp(-double(x)));
    if (float(ref) < 1.17549435e-38f) continue;  // subnormal results
    worstPacket = std::max(worstPacket, ulpError(vmath::sigmoidPacketScalar(x), ref));
    worstScalar = std::max(worstScalar, ulpError(vmath::sigmoidScalar(x), ref));
  }
  MESSAGE("sigmoid: max ", worstPacket, " ULP in packets, ", worstScalar, " ULP one at a time");
  CHECK(worstPacket <= 3);
  CHECK(worstScalar <= 3);
}
