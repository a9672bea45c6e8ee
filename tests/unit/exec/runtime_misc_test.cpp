// Tensor basics, the caching allocator (reuse, hugepage alignment, memory
// limit), Philox random ops (deterministic per seed pair, moments), and the
// nn kernels (softmax, cross entropies, conv2d and its backprops).
#include "kernel_test_util.h"

#include "runtime/kernels/philox.h"
#include "runtime/tensor/allocator.h"

#include <cmath>
#include <cstdint>
#include <doctest/doctest.h>

using namespace tfs::test;
using Ints = std::vector<int64_t>;

TEST_CASE("tensor basics: scalars, inline data, copies") {
  Tensor s = Tensor::scalar(2.5f);
  CHECK(s.valid());
  CHECK(s.rank() == 0);
  CHECK(s.numElements() == 1);
  CHECK(s.scalarValue<float>() == 2.5f);
  CHECK(!Tensor().valid());
  Tensor a = F({2, 2}, {1, 2, 3, 4});
  Tensor r = a.reshaped({4});
  CHECK(r.shape() == Ints{4});
  CHECK(vals(r) == vals(a));
  Tensor c = a.copy();
  c.data<float>()[0] = 9;
  CHECK(a.data<float>()[0] == 1);
  CHECK(Tensor::scalar(std::string("x")).scalarValue<std::string>() == "x");
  CHECK(Tensor::scalar(int64_t(1) << 40).elementAsInt(0) == int64_t(1) << 40);
}

TEST_CASE("allocator reuses freed buffers of a size class") {
  void *p = tfs::runtime::allocateBuffer(1000);
  CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
  tfs::runtime::releaseBuffer(p, 1000);
  void *q = tfs::runtime::allocateBuffer(900);  // same 1 KiB class
  CHECK(q == p);
  tfs::runtime::releaseBuffer(q, 900);
  // big buffers are 2 MiB aligned and recycled too
  size_t big = size_t(3) << 20;
  void *b = tfs::runtime::allocateBuffer(big);
  CHECK(reinterpret_cast<uintptr_t>(b) % (size_t(2) << 20) == 0);
  int64_t used = tfs::runtime::bytesInUse();
  tfs::runtime::releaseBuffer(b, big);
  CHECK(tfs::runtime::bytesInUse() < used);
  CHECK(tfs::runtime::allocateBuffer(big) == b);
  tfs::runtime::releaseBuffer(b, big);
  // tensors recycle through it: a freed 4 KiB tensor's buffer comes back
  const void *first;
  {
    Tensor t = Tensor::empty(DType::Float32, {1024});
    first = t.rawData();
  }
  Tensor t2 = Tensor::empty(DType::Float32, {1000});
  CHECK(t2.rawData() == first);
}

TEST_CASE("memory limit raises ResourceExhaustedError") {
  tfs::runtime::setMemoryLimit(tfs::runtime::bytesInUse() + (int64_t(1) << 20));
  std::string e = errorOf([] { Tensor::empty(DType::Float32, {1 << 20}); });
  tfs::runtime::setMemoryLimit(0);
  CHECK(e.find("ResourceExhaustedError") == 0);
  CHECK(errorOf([] { Tensor::empty(DType::Float32, {1 << 20}); }).empty());
}

TEST_CASE("random ops: deterministic per seed pair, plausible moments") {
  Attrs a{{"shape", Ints{10000}}, {"seed", int64_t(1)}, {"seed2", int64_t(2)}, {"dtype", DType::Float32}};
  Tensor x = run(OpKind::RandomNormal, {}, a), y = run(OpKind::RandomNormal, {}, a);
  CHECK(x.shape() == Ints{10000});
  CHECK(vals(x) == vals(y));
  Attrs b = a;
  b["seed2"] = int64_t(3);
  CHECK(vals(run(OpKind::RandomNormal, {}, b)) != vals(x));
  double mean = 0, var = 0;
  for (double v : vals(x)) mean += v;
  mean /= 10000;
  for (double v : vals(x)) var += (v - mean) * (v - mean);
  var /= 10000;
  CHECK(std::abs(mean) < 0.05);
  CHECK(std::abs(var - 1) < 0.05);
  Attrs u{{"shape", Ints{1000}}, {"seed", int64_t(5)}, {"minval", 2.0}, {"maxval", 3.0}};
  Tensor r = run(OpKind::RandomUniform, {}, u);
  for (double v : vals(r)) {
    CHECK(v >= 2.0);
    CHECK(v < 3.0);
  }
}

// Random123's known-answer vectors for Philox-4x32-10 (kat_vectors), and
// TF's Skip carrying from the low 64 counter bits into the high half.
TEST_CASE("Philox-4x32-10 matches Random123's known answers") {
  using tfs::runtime::kernels::Philox;
  const std::array<uint32_t, 4> want[3] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                           {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                           {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
  const std::array<uint32_t, 4> counters[3] = {{0, 0, 0, 0},
                                               {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                                               {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
  const std::array<uint32_t, 2> keys[3] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
  for (int i = 0; i < 3; ++i) {
    Philox p;
    p.counter = counters[i];
    p.key = keys[i];
    CHECK(p.next() == want[i]);
  }
  Philox p;
  p.counter = {0xffffffffu, 0xffffffffu, 5, 0};
  p.skip(1);
  CHECK(p.counter == std::array<uint32_t, 4>{0, 0, 6, 0});
  p.skip(0x100000002ull);
  CHECK(p.counter == std::array<uint32_t, 4>{2, 1, 6, 0});
}

TEST_CASE("softmax, log_softmax and cross entropies") {
  Tensor x = F({2, 2}, {0, 0, 0, std::log(3.0)});
  std::vector<double> s = vals(run(OpKind::Softmax, {x}));
  CHECK(s[0] == doctest::Approx(0.5));
  CHECK(s[3] == doctest::Approx(0.75));
  std::vector<double> ls = vals(run(OpKind::LogSoftmax, {x}));
  CHECK(ls[1] == doctest::Approx(std::log(0.5)));
  // large logits stay finite
  CHECK(vals(run(OpKind::Softmax, {F({2}, {1000, 1000})}))[0] == doctest::Approx(0.5));
  std::vector<Tensor> xe = runAll(OpKind::SoftmaxCrossEntropy, {F({2, 2}, {1, 0, 0, 1}), x});  // (labels, logits)
  CHECK(xe[0].shape() == Ints{2});
  CHECK(vals(xe[0])[0] == doctest::Approx(std::log(2.0)));
  CHECK(vals(xe[0])[1] == doctest::Approx(-std::log(0.75)));
  std::vector<Tensor> sp = runAll(OpKind::SparseSoftmaxCrossEntropy, {I({2}, {0, 1}), x});
  CHECK(vals(sp[0])[1] == doctest::Approx(-std::log(0.75)));
  std::vector<double> sg = vals(run(OpKind::SigmoidCrossEntropy, {F({1}, {1}), F({1}, {0})}));
  CHECK(sg[0] == doctest::Approx(std::log(2.0)));  // labels, logits: -log(1 - sigmoid(0))
}

TEST_CASE("conv2d NHWC with VALID/SAME padding and strides, and its backprops") {
  // 1x3x3x1 input 1..9, 2x2x1x1 filter of ones
  Tensor x = F({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor w = F({2, 2, 1, 1}, {1, 1, 1, 1});
  Tensor v = run(OpKind::Conv2D, {x, w}, {{"padding", std::string("VALID")}});
  CHECK(v.shape() == Ints{1, 2, 2, 1});
  CHECK(vals(v) == std::vector<double>{12, 16, 24, 28});
  Tensor s = run(OpKind::Conv2D, {x, w}, {{"padding", std::string("SAME")}});
  CHECK(s.shape() == Ints{1, 3, 3, 1});
  CHECK(vals(s) == std::vector<double>{12, 16, 9, 24, 28, 15, 15, 17, 9});
  Tensor st = run(OpKind::Conv2D, {x, w}, {{"padding", std::string("SAME")}, {"strides", Ints{1, 2, 2, 1}}});
  CHECK(st.shape() == Ints{1, 2, 2, 1});
  CHECK(vals(st) == std::vector<double>{12, 9, 15, 9});
  // backprop input of an all-ones gradient counts filter overlaps
  Tensor g = F({1, 2, 2, 1}, {1, 1, 1, 1});
  Tensor dx = run(OpKind::Conv2DBackpropInput, {w, g},
                  {{"padding", std::string("VALID")}, {"input_sizes", Ints{1, 3, 3, 1}}});
  CHECK(dx.shape() == Ints{1, 3, 3, 1});
  CHECK(vals(dx) == std::vector<double>{1, 2, 1, 2, 4, 2, 1, 2, 1});
  Tensor dw = run(OpKind::Conv2DBackpropFilter, {x, g},
                  {{"padding", std::string("VALID")}, {"filter_sizes", Ints{2, 2, 1, 1}}});
  CHECK(dw.shape() == Ints{2, 2, 1, 1});
  CHECK(vals(dw) == std::vector<double>{12, 16, 24, 28});
}
