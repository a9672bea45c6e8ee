// The host's SLEEF variants (vector_math.h, Note [Vector math]), chosen once
// from the CPU's features, and the array loops for hosts without AVX2/AVX-512
// (the wider loops are in vector_math_avx2.cpp / vector_math_avx512.cpp,
// compiled for those instruction sets).
#include "runtime/kernels/vector_math.h"

#include "runtime/kernels/tf_float_math.h"
#include "runtime/kernels/vector_math_isa.h"

#include <sleef.h>

#include <limits>

namespace tfs::runtime::vmath {

namespace {

using Unary = float (*)(float);
using Binary = float (*)(float, float);

// Scalar variants without FMA ("cinz", purec); with FMA see fmaScalar.
#define TFS_SLEEF_SCALAR(fn, u) \
  Named{"Sleef_cinz_" #fn "f1_" #u "purec", reinterpret_cast<void *>(&Sleef_cinz_##fn##f1_##u##purec)}
const Named kScalarPlain[] = {TFS_SLEEF_SCALAR(exp, u10), TFS_SLEEF_SCALAR(log, u10), TFS_SLEEF_SCALAR(sin, u10),
                              TFS_SLEEF_SCALAR(cos, u10), TFS_SLEEF_SCALAR(pow, u10)};
#undef TFS_SLEEF_SCALAR

struct Host {
  Isa isa;
  Symbols symbols[size_t(Fn::NumFns)];
};

Host detect() {
  __builtin_cpu_init();
  Host h;
  bool fma = __builtin_cpu_supports("fma");
  if (__builtin_cpu_supports("avx512f") && fma) h.isa = Isa::Avx512;
  else if (__builtin_cpu_supports("avx2") && fma) h.isa = Isa::Avx2;
  else h.isa = Isa::Scalar;
  for (size_t i = 0; i < size_t(Fn::NumFns); ++i) {
    Named s = fma ? fmaScalar(Fn(i)) : kScalarPlain[i];
    Named v = h.isa == Isa::Avx512 ? avx512Vector(Fn(i))
              : h.isa == Isa::Avx2 ? avx2Vector(Fn(i))
                                   : Named{nullptr, nullptr};
    h.symbols[i] = {s.name, s.address, v.name, v.address,
                    h.isa == Isa::Avx512 ? 16 : h.isa == Isa::Avx2 ? 8 : 1};
  }
  return h;
}

const Host &host() {
  static const Host h = detect();
  return h;
}

}  // namespace

const Symbols &symbols(Fn f) { return host().symbols[size_t(f)]; }
int vectorWidth() { return host().symbols[0].width; }

namespace {
// The one quiet NaN for every NaN result (the variants differ in its sign).
float canonical(float r) { return r != r ? std::numeric_limits<float>::quiet_NaN() : r; }
}  // namespace

float scalar(Fn f, float x) { return canonical(reinterpret_cast<Unary>(symbols(f).scalarAddress)(x)); }
float scalar2(Fn f, float x, float y) {
  return canonical(reinterpret_cast<Binary>(symbols(f).scalarAddress)(x, y));
}

void apply(Fn f, const float *x, float *out, int64_t n) {
  switch (host().isa) {
  case Isa::Avx512: avx512Apply(f, x, nullptr, out, n); return;
  case Isa::Avx2: avx2Apply(f, x, nullptr, out, n); return;
  case Isa::Scalar: break;
  }
  for (int64_t i = 0; i < n; ++i) out[i] = scalar(f, x[i]);
}

void apply2(Fn f, const float *x, const float *y, float *out, int64_t n) {
  switch (host().isa) {
  case Isa::Avx512: avx512Apply(f, x, y, out, n); return;
  case Isa::Avx2: avx2Apply(f, x, y, out, n); return;
  case Isa::Scalar: break;
  }
  for (int64_t i = 0; i < n; ++i) out[i] = scalar2(f, x[i], y[i]);
}

namespace {
// TF's functions on whole arrays: the host's widest vectors (SSE2's 4 lanes
// without AVX2 + FMA).
void tfApply(TfFn f, const float *x, float *out, int64_t n) {
  switch (host().isa) {
  case Isa::Avx512: avx512TfApply(f, x, out, n); return;
  case Isa::Avx2: avx2TfApply(f, x, out, n); return;
  case Isa::Scalar: break;
  }
  if (f == TfFn::Tanh) tfmath::mapLanes<4>([](auto v) { return tfmath::tanhOf(v); }, x, out, n);
  else tfmath::mapLanes<4>([](auto v) { return tfmath::sigmoidPacketOf(v); }, x, out, n);
}
}  // namespace

void tanhArray(const float *x, float *out, int64_t n) { tfApply(TfFn::Tanh, x, out, n); }

void sigmoidArray(const float *x, float *out, int64_t n) {
  // Eigen's executor: whole packets of 8, then the rest one by one (Note
  // [TF's float32 tanh and sigmoid]).
  int64_t packets = n - n % tfmath::kPacketFloats;
  tfApply(TfFn::SigmoidPacket, x, out, packets);
  for (int64_t i = packets; i < n; ++i) out[i] = sigmoidScalar(x[i]);
}

float tanhScalar(float x) { return canonical(tfmath::tanhOf(x)); }
float sigmoidPacketScalar(float x) { return canonical(tfmath::sigmoidPacketOf(x)); }
float sigmoidScalar(float x) { return canonical(tfmath::sigmoidScalarOf(x)); }

}  // namespace tfs::runtime::vmath
