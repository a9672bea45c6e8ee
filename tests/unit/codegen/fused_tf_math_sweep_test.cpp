// TF's float32 tanh and sigmoid inline in compiled fused loops
// (codegen/lower_tf_math.cpp) against the eager kernels the graph
// interpreter runs (runtime/kernels/tf_float_math.h, vectorized for the
// host): bit for bit over a sweep of the float bit patterns (every binade,
// both signs, denormals, infinities and NaNs) and the edge cases around
// tanh's clamp and small-argument cut-off and sigmoid's exp limits, at two
// lengths so that each value sits at different vector lanes and the last
// n % 8 elements (sigmoid's scalar path) are different ones.
#include "codegen/codegen.h"
#include "ir/text.h"
#include "runtime/graph/interpreter.h"
#include "runtime/kernels/tf_float_math.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <vector>

using namespace tfs;
using runtime::Tensor;
namespace tfmath = runtime::vmath::tfmath;

namespace {

float fromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::vector<float> sweepAndEdges() {
  std::vector<float> xs;
  // Every 1021st bit pattern: 4.2M floats.
  for (uint64_t b = 0; b < (uint64_t(1) << 32); b += 1021)
    xs.push_back(fromBits(uint32_t(b)));
  for (uint32_t b : {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x7f800000u,
                     0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xffc12345u, 0x7f7fffffu, 0xff7fffffu})
    xs.push_back(fromBits(b));
  for (float c : {tfmath::kTanhClamp, tfmath::kTanhTiny, tfmath::kExpHi, tfmath::kExpLo, 1.0f, 9.0f, 88.0f}) {
    for (float s : {c, -c}) {
      float lo = s, hi = s;
      xs.push_back(s);
      for (int i = 0; i < 300; ++i) {
        lo = std::nextafter(lo, -INFINITY);
        hi = std::nextafter(hi, INFINITY);
        xs.push_back(lo);
        xs.push_back(hi);
      }
    }
  }
  return xs;
}

}  // namespace

TEST_CASE("fused codegen: TF's tanh and sigmoid equal the eager kernels bit for bit over a float sweep") {
  std::vector<float> all = sweepAndEdges();
  for (size_t n : {all.size(), all.size() - 5}) {
    // Two ops of one fusion group (one loop nest) and a third so that the
    // loop also carries an ordinary op: the JIT's vector tanh and sigmoid.
    auto parsed = ir::parseModule(fmt::format(R"(func @f(%a: f32[{0}]) -> (f32[{0}], f32[{0}], f32[{0}]) {{
  %0 = tanh %a : f32[{0}]
  %1 = sigmoid %a : f32[{0}]
  %2 = add %0, %1 : f32[{0}]
  return %0, %1, %2
}}
)",
                                              n));
    REQUIRE_MESSAGE(parsed.ok(), (parsed.error ? parsed.error->str() : ""));
    const ir::Function &f = *parsed.module->lookup("f");
    CHECK(codegen::printLlvmIr(f).find("call i32 @tfs_cg_node") == std::string::npos);
    Tensor a = Tensor::empty(ir::DType::Float32, {int64_t(n)});
    std::memcpy(a.rawData(), all.data(), n * sizeof(float));
    std::vector<Tensor> args = {a};
    runtime::RunContext c1, c2;
    std::vector<Tensor> want = runtime::runFunction(f, args, c1);
    std::vector<Tensor> got = codegen::runCompiled(f, args, c2);
    REQUIRE(want.size() == 3);
    REQUIRE(got.size() == 3);
    for (size_t k = 0; k < 3; ++k) {
      const auto *w = static_cast<const uint32_t *>(want[k].rawData());
      const auto *g = static_cast<const uint32_t *>(got[k].rawData());
      int64_t mismatches = 0, firstAt = -1;
      for (size_t i = 0; i < n; ++i)
        if (w[i] != g[i]) {
          if (firstAt < 0) firstAt = int64_t(i);
          ++mismatches;
        }
      CAPTURE(n);
      CAPTURE(k);
      CAPTURE(firstAt);
      CHECK(mismatches == 0);
    }
  }
}
