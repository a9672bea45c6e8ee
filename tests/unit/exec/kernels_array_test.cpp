// Eager kernels, array part: reductions (axis/keepdims, integer mean),
// argmax/argmin, matmul / batch matmul (BLAS and integer loops), shape ops,
// strided slice with TF's masks, gather, tile, one_hot, creation ops.
#include "kernel_test_util.h"

#include <doctest/doctest.h>

using namespace tfs::test;
using Ints = std::vector<int64_t>;

TEST_CASE("reductions with axis and keepdims") {
  Tensor x = F({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(vals(run(OpKind::ReduceSum, {x})) == std::vector<double>{21});
  Tensor s0 = run(OpKind::ReduceSum, {x}, {{"axis", Ints{0}}});
  CHECK(s0.shape() == Ints{3});
  CHECK(vals(s0) == std::vector<double>{5, 7, 9});
  Tensor s1 = run(OpKind::ReduceSum, {x}, {{"axis", Ints{-1}}, {"keepdims", true}});
  CHECK(s1.shape() == Ints{2, 1});
  CHECK(vals(s1) == std::vector<double>{6, 15});
  CHECK(vals(run(OpKind::ReduceMean, {x}, {{"axis", Ints{1}}})) == std::vector<double>{2, 5});
  CHECK(vals(run(OpKind::ReduceMax, {x}, {{"axis", Ints{0}}})) == std::vector<double>{4, 5, 6});
  CHECK(vals(run(OpKind::ReduceMin, {x}, {{"axis", Ints{1}}})) == std::vector<double>{1, 4});
  CHECK(vals(run(OpKind::ReduceProd, {x})) == std::vector<double>{720});
  // integer mean truncates like TF
  CHECK(vals(run(OpKind::ReduceMean, {I({3}, {1, 2, 2})})) == std::vector<double>{1});
  CHECK(vals(run(OpKind::ReduceMean, {I({2}, {-1, -2})})) == std::vector<double>{-1});
  Tensor b = T(DType::Bool, {2, 2}, {1, 0, 1, 1});
  CHECK(vals(run(OpKind::ReduceAny, {b}, {{"axis", Ints{1}}})) == std::vector<double>{1, 1});
  CHECK(vals(run(OpKind::ReduceAll, {b}, {{"axis", Ints{1}}})) == std::vector<double>{0, 1});
  // empty sum is 0
  CHECK(vals(run(OpKind::ReduceSum, {F({0}, {})})) == std::vector<double>{0});
}

TEST_CASE("argmax/argmin return int64, first index on ties") {
  Tensor x = F({2, 3}, {1, 9, 9, 7, 0, 7});
  Tensor a = run(OpKind::ArgMax, {x}, {{"axis", int64_t(1)}});
  CHECK(a.dtype() == DType::Int64);
  CHECK(vals(a) == std::vector<double>{1, 0});
  CHECK(vals(run(OpKind::ArgMin, {x}, {{"axis", int64_t(0)}})) == std::vector<double>{0, 1, 1});
}

TEST_CASE("matmul: float BLAS, transposes, integers, batches") {
  Tensor a = F({2, 3}, {1, 2, 3, 4, 5, 6}), b = F({3, 2}, {1, 0, 0, 1, 1, 1});
  Tensor c = run(OpKind::MatMul, {a, b});
  CHECK(c.shape() == Ints{2, 2});
  CHECK(vals(c) == std::vector<double>{4, 5, 10, 11});
  CHECK(vals(run(OpKind::MatMul, {a, a}, {{"transpose_b", true}})) == std::vector<double>{14, 32, 32, 77});
  CHECK(vals(run(OpKind::MatMul, {a, a}, {{"transpose_a", true}}))[0] == 17);
  Tensor ai = I({2, 2}, {1, 2, 3, 4});
  CHECK(vals(run(OpKind::MatMul, {ai, ai})) == std::vector<double>{7, 10, 15, 22});
  Tensor d = T(DType::Float64, {2, 2}, {1, 2, 3, 4});
  CHECK(vals(run(OpKind::MatMul, {d, d})) == std::vector<double>{7, 10, 15, 22});
  // batch with broadcasting of the batch dim
  Tensor batch = F({2, 2, 2}, {1, 0, 0, 1, 2, 0, 0, 2});
  Tensor r = run(OpKind::MatMul, {batch, F({2, 2}, {1, 2, 3, 4})});
  CHECK(r.shape() == Ints{2, 2, 2});
  CHECK(vals(r) == std::vector<double>{1, 2, 3, 4, 2, 4, 6, 8});
  std::string e = errorOf([&] { run(OpKind::MatMul, {a, a}); });
  CHECK(e.find("InvalidArgumentError") == 0);
}

TEST_CASE("transpose, reshape, expand_dims, squeeze") {
  Tensor x = F({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor t = run(OpKind::Transpose, {x});
  CHECK(t.shape() == Ints{3, 2});
  CHECK(vals(t) == std::vector<double>{1, 4, 2, 5, 3, 6});
  Tensor y = F({2, 1, 3}, {1, 2, 3, 4, 5, 6});
  Tensor p = run(OpKind::Transpose, {y}, {{"perm", Ints{2, 0, 1}}});
  CHECK(p.shape() == Ints{3, 2, 1});
  CHECK(vals(p) == std::vector<double>{1, 4, 2, 5, 3, 6});
  Tensor r = run(OpKind::Reshape, {x}, {{"shape", Ints{3, -1}}});
  CHECK(r.shape() == Ints{3, 2});
  CHECK(vals(r) == vals(x));
  CHECK(!errorOf([&] { run(OpKind::Reshape, {x}, {{"shape", Ints{4, -1}}}); }).empty());
  CHECK(run(OpKind::ExpandDims, {x}, {{"axis", int64_t(-1)}}).shape() == Ints{2, 3, 1});
  CHECK(run(OpKind::ExpandDims, {x}, {{"axis", int64_t(0)}}).shape() == Ints{1, 2, 3});
  CHECK(run(OpKind::Squeeze, {y}).shape() == Ints{2, 3});
  CHECK(run(OpKind::Squeeze, {F({1, 2, 1}, {1, 2})}, {{"axis", Ints{0}}}).shape() == Ints{2, 1});
}

TEST_CASE("concat and stack") {
  Tensor a = F({1, 2}, {1, 2}), b = F({2, 2}, {3, 4, 5, 6});
  Tensor c = run(OpKind::Concat, {a, b}, {{"axis", int64_t(0)}});
  CHECK(c.shape() == Ints{3, 2});
  CHECK(vals(c) == std::vector<double>{1, 2, 3, 4, 5, 6});
  Tensor c1 = run(OpKind::Concat, {b, b}, {{"axis", int64_t(1)}});
  CHECK(vals(c1) == std::vector<double>{3, 4, 3, 4, 5, 6, 5, 6});
  Tensor s = run(OpKind::Stack, {F({2}, {1, 2}), F({2}, {3, 4})}, {{"axis", int64_t(1)}});
  CHECK(s.shape() == Ints{2, 2});
  CHECK(vals(s) == std::vector<double>{1, 3, 2, 4});
  CHECK(errorOf([&] { run(OpKind::Concat, {a, F({1, 3}, {1, 2, 3})}, {{"axis", int64_t(0)}}); })
            .find("InvalidArgumentError") == 0);
}

TEST_CASE("gather along an axis") {
  Tensor x = F({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor g = run(OpKind::Gather, {x, I({2}, {2, 0})});
  CHECK(g.shape() == Ints{2, 2});
  CHECK(vals(g) == std::vector<double>{5, 6, 1, 2});
  Tensor g1 = run(OpKind::Gather, {x, I({2, 1}, {1, 1})}, {{"axis", int64_t(1)}});
  CHECK(g1.shape() == Ints{3, 2, 1});
  CHECK(vals(g1) == std::vector<double>{2, 2, 4, 4, 6, 6});
  CHECK(errorOf([&] { run(OpKind::Gather, {x, I({1}, {3})}); }).find("InvalidArgumentError") == 0);
}

TEST_CASE("strided_slice: begin/end/strides and the masks") {
  Tensor x = I({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // x[1:, ::2]
  Tensor a = run(OpKind::StridedSlice, {x},
                 {{"begin", Ints{1, 0}}, {"end", Ints{0, 0}}, {"strides", Ints{1, 2}},
                  {"end_mask", int64_t(3)}, {"begin_mask", int64_t(2)}});
  CHECK(a.shape() == Ints{2, 2});
  CHECK(vals(a) == std::vector<double>{4, 6, 8, 10});
  // x[-1] (shrink axis 0)
  Tensor b = run(OpKind::StridedSlice, {x},
                 {{"begin", Ints{-1}}, {"end", Ints{0}}, {"strides", Ints{1}}, {"shrink_axis_mask", int64_t(1)}});
  CHECK(b.shape() == Ints{4});
  CHECK(vals(b) == std::vector<double>{8, 9, 10, 11});
  // x[::-1, 1]
  Tensor c = run(OpKind::StridedSlice, {x},
                 {{"begin", Ints{0, 1}}, {"end", Ints{0, 0}}, {"strides", Ints{-1, 1}},
                  {"begin_mask", int64_t(1)}, {"end_mask", int64_t(1)}, {"shrink_axis_mask", int64_t(2)}});
  CHECK(vals(c) == std::vector<double>{9, 5, 1});
  // x[..., None, 0]  (ellipsis then new axis then shrink)
  Tensor d = run(OpKind::StridedSlice, {x},
                 {{"begin", Ints{0, 0, 0}}, {"end", Ints{0, 0, 1}}, {"strides", Ints{1, 1, 1}},
                  {"ellipsis_mask", int64_t(1)}, {"new_axis_mask", int64_t(2)}, {"shrink_axis_mask", int64_t(4)}});
  CHECK(d.shape() == Ints{3, 1});
  CHECK(vals(d) == std::vector<double>{0, 4, 8});
  // out-of-range ends clamp
  Tensor e = run(OpKind::StridedSlice, {I({3}, {1, 2, 3})},
                 {{"begin", Ints{1}}, {"end", Ints{100}}, {"strides", Ints{1}}});
  CHECK(vals(e) == std::vector<double>{2, 3});
}

TEST_CASE("broadcast_to, tile, shape, size, unbroadcast") {
  Tensor b = run(OpKind::BroadcastTo, {F({3}, {1, 2, 3})}, {{"shape", Ints{2, 3}}});
  CHECK(vals(b) == std::vector<double>{1, 2, 3, 1, 2, 3});
  Tensor t = run(OpKind::Tile, {F({1, 2}, {1, 2})}, {{"multiples", Ints{2, 2}}});
  CHECK(t.shape() == Ints{2, 4});
  CHECK(vals(t) == std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2});
  Tensor s = run(OpKind::ShapeOf, {F({2, 3}, {1, 2, 3, 4, 5, 6})});
  CHECK(s.dtype() == DType::Int32);
  CHECK(vals(s) == std::vector<double>{2, 3});
  CHECK(vals(run(OpKind::SizeOf, {F({2, 3}, {1, 2, 3, 4, 5, 6})})) == std::vector<double>{6});
  Tensor g = F({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor u = run(OpKind::Unbroadcast, {g, F({3}, {0, 0, 0})});
  CHECK(u.shape() == Ints{3});
  CHECK(vals(u) == std::vector<double>{5, 7, 9});
  Tensor u2 = run(OpKind::Unbroadcast, {g, F({2, 1}, {0, 0})});
  CHECK(vals(u2) == std::vector<double>{6, 15});
  CHECK(vals(run(OpKind::Unbroadcast, {g, F({}, {0})})) == std::vector<double>{21});
  // Summed and kept dims alternating (runs of either kind), int and float.
  std::vector<double> v24(24);
  for (size_t i = 0; i < 24; ++i) v24[i] = double(i);
  Tensor g3 = F({2, 3, 4}, v24);
  CHECK(vals(run(OpKind::Unbroadcast, {g3, F({3, 1}, {0, 0, 0})})) == std::vector<double>{60, 92, 124});
  CHECK(vals(run(OpKind::Unbroadcast, {g3, F({2, 1, 4}, std::vector<double>(8))})) ==
        std::vector<double>{12, 15, 18, 21, 48, 51, 54, 57});
  CHECK(vals(run(OpKind::Unbroadcast, {I({2, 3, 4}, v24), I({1, 3, 1}, {0, 0, 0})})) ==
        std::vector<double>{60, 92, 124});
}

TEST_CASE("one_hot, fill, range, linspace") {
  Tensor o = run(OpKind::OneHot, {I({3}, {0, 2, -1})}, {{"depth", int64_t(3)}});
  CHECK(o.shape() == Ints{3, 3});
  CHECK(o.dtype() == DType::Float32);
  CHECK(vals(o) == std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0});
  Tensor f = run(OpKind::Fill, {F({}, {7})}, {{"shape", Ints{2, 2}}});
  CHECK(vals(f) == std::vector<double>{7, 7, 7, 7});
  Tensor r = run(OpKind::Range, {I({}, {1}), I({}, {10}), I({}, {3})});
  CHECK(vals(r) == std::vector<double>{1, 4, 7});
  CHECK(vals(run(OpKind::Range, {I({}, {5}), I({}, {0}), I({}, {-2})})) == std::vector<double>{5, 3, 1});
  CHECK(vals(run(OpKind::Range, {F({}, {0}), F({}, {1}), F({}, {0.25})})) == std::vector<double>{0, 0.25, 0.5, 0.75});
  Tensor l = run(OpKind::Linspace, {F({}, {0}), F({}, {1})}, {{"num", int64_t(5)}});
  CHECK(vals(l) == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
}
