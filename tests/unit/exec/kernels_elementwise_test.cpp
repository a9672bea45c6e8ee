// Eager kernels, elementwise part: arithmetic with broadcasting (fast paths
// and the strided path), TF's integer division semantics and errors,
// comparisons, logical ops, select, unary math and casts.
#include "kernel_test_util.h"

#include <cmath>
#include <doctest/doctest.h>

using namespace tfs::test;

TEST_CASE("binary arithmetic: same shape, scalar and strided broadcasting") {
  Tensor a = F({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(vals(run(OpKind::Add, {a, a})) == std::vector<double>{2, 4, 6, 8, 10, 12});
  CHECK(vals(run(OpKind::Mul, {a, F({}, {2})})) == std::vector<double>{2, 4, 6, 8, 10, 12});
  CHECK(vals(run(OpKind::Sub, {F({}, {10}), a})) == std::vector<double>{9, 8, 7, 6, 5, 4});
  Tensor row = F({3}, {10, 20, 30}), col = F({2, 1}, {100, 200});
  CHECK(vals(run(OpKind::Add, {a, row})) == std::vector<double>{11, 22, 33, 14, 25, 36});
  Tensor outer = run(OpKind::Add, {col, row});
  CHECK(outer.shape() == std::vector<int64_t>{2, 3});
  CHECK(vals(outer) == std::vector<double>{110, 120, 130, 210, 220, 230});
  // [1] broadcasts like a scalar but keeps the rank.
  Tensor r = run(OpKind::Mul, {F({1}, {3}), a});
  CHECK(r.shape() == std::vector<int64_t>{2, 3});
  CHECK(vals(r)[5] == 18);
  CHECK(vals(run(OpKind::Maximum, {a, F({}, {3.5})})) == std::vector<double>{3.5, 3.5, 3.5, 4, 5, 6});
  CHECK(vals(run(OpKind::Minimum, {a, F({}, {3.5})})) == std::vector<double>{1, 2, 3, 3.5, 3.5, 3.5});
  CHECK(vals(run(OpKind::SquaredDifference, {F({2}, {1, 5}), F({2}, {4, 1})})) == std::vector<double>{9, 16});
  CHECK(vals(run(OpKind::Pow, {F({2}, {2, 9}), F({2}, {3, 0.5})})) == std::vector<double>{8, 3});
  CHECK(vals(run(OpKind::Pow, {I({3}, {2, -3, 5}), I({3}, {10, 3, 0})})) == std::vector<double>{1024, -27, 1});
}

TEST_CASE("empty tensors broadcast to empty results") {
  Tensor e = F({0, 3}, {});
  Tensor r = run(OpKind::Add, {e, F({3}, {1, 2, 3})});
  CHECK(r.shape() == std::vector<int64_t>{0, 3});
  CHECK(r.numElements() == 0);
}

TEST_CASE("division: TF Div truncates ints, floordiv/mod floor like Python") {
  CHECK(vals(run(OpKind::Div, {I({4}, {7, -7, 7, -7}), I({4}, {2, 2, -2, -2})})) ==
        std::vector<double>{3, -3, -3, 3});
  CHECK(vals(run(OpKind::FloorDiv, {I({4}, {7, -7, 7, -7}), I({4}, {2, 2, -2, -2})})) ==
        std::vector<double>{3, -4, -4, 3});
  CHECK(vals(run(OpKind::FloorMod, {I({4}, {7, -7, 7, -7}), I({4}, {2, 2, -2, -2})})) ==
        std::vector<double>{1, 1, -1, -1});
  CHECK(vals(run(OpKind::FloorDiv, {F({2}, {7.5, -7.5}), F({}, {2})})) == std::vector<double>{3, -4});
  CHECK(vals(run(OpKind::FloorMod, {F({2}, {7.5, -7.5}), F({}, {2})})) == std::vector<double>{1.5, 0.5});
  CHECK(vals(run(OpKind::FloorMod, {F({1}, {7.5}), F({}, {-2})})) == std::vector<double>{-0.5});
  CHECK(vals(run(OpKind::Div, {F({1}, {1}), F({}, {4})})) == std::vector<double>{0.25});
  // int64 too
  CHECK(vals(run(OpKind::FloorDiv, {T(DType::Int64, {1}, {-1}), T(DType::Int64, {}, {3})})) ==
        std::vector<double>{-1});
}

TEST_CASE("integer division by zero raises; float division gives inf/nan") {
  for (OpKind k : {OpKind::Div, OpKind::FloorDiv, OpKind::FloorMod}) {
    std::string e = errorOf([&] { run(k, {I({2}, {1, 2}), I({}, {0})}); });
    CHECK(e.rfind("InvalidArgumentError: Integer division by zero", 0) == 0);
  }
  std::vector<double> r = vals(run(OpKind::Div, {F({3}, {1, -1, 0}), F({}, {0})}));
  CHECK(std::isinf(r[0]));
  CHECK(r[0] > 0);
  CHECK(std::isinf(r[1]));
  CHECK(r[1] < 0);
  CHECK(std::isnan(r[2]));
}

TEST_CASE("comparisons and logical ops produce bool") {
  Tensor a = I({3}, {1, 2, 3}), b = I({}, {2});
  Tensor lt = run(OpKind::Less, {a, b});
  CHECK(lt.dtype() == DType::Bool);
  CHECK(vals(lt) == std::vector<double>{1, 0, 0});
  CHECK(vals(run(OpKind::LessEqual, {a, b})) == std::vector<double>{1, 1, 0});
  CHECK(vals(run(OpKind::Greater, {a, b})) == std::vector<double>{0, 0, 1});
  CHECK(vals(run(OpKind::GreaterEqual, {a, b})) == std::vector<double>{0, 1, 1});
  CHECK(vals(run(OpKind::Equal, {a, b})) == std::vector<double>{0, 1, 0});
  CHECK(vals(run(OpKind::NotEqual, {a, b})) == std::vector<double>{1, 0, 1});
  CHECK(vals(run(OpKind::Equal, {S({2}, {"a", "b"}), S({}, {"b"})})) == std::vector<double>{0, 1});
  Tensor t = T(DType::Bool, {4}, {1, 1, 0, 0}), u = T(DType::Bool, {4}, {1, 0, 1, 0});
  CHECK(vals(run(OpKind::LogicalAnd, {t, u})) == std::vector<double>{1, 0, 0, 0});
  CHECK(vals(run(OpKind::LogicalOr, {t, u})) == std::vector<double>{1, 1, 1, 0});
  CHECK(vals(run(OpKind::LogicalNot, {t})) == std::vector<double>{0, 0, 1, 1});
}

TEST_CASE("where/select broadcasts the condition") {
  Tensor c = T(DType::Bool, {3}, {1, 0, 1});
  CHECK(vals(run(OpKind::Select, {c, F({3}, {1, 2, 3}), F({3}, {-1, -2, -3})})) ==
        std::vector<double>{1, -2, 3});
  CHECK(vals(run(OpKind::Select, {c, F({3}, {1, 2, 3}), F({}, {0})})) == std::vector<double>{1, 0, 3});
}

TEST_CASE("unary math") {
  Tensor x = F({4}, {-2, -0.5, 0, 4});
  CHECK(vals(run(OpKind::Neg, {x})) == std::vector<double>{2, 0.5, 0, -4});
  CHECK(vals(run(OpKind::Abs, {x})) == std::vector<double>{2, 0.5, 0, 4});
  CHECK(vals(run(OpKind::Sign, {x})) == std::vector<double>{-1, -1, 0, 1});
  CHECK(vals(run(OpKind::Square, {x})) == std::vector<double>{4, 0.25, 0, 16});
  CHECK(vals(run(OpKind::Relu, {x})) == std::vector<double>{0, 0, 0, 4});
  CHECK(vals(run(OpKind::Sqrt, {F({2}, {4, 9})})) == std::vector<double>{2, 3});
  CHECK(vals(run(OpKind::Rsqrt, {F({2}, {4, 0.25})})) == std::vector<double>{0.5, 2});
  CHECK(vals(run(OpKind::Exp, {F({1}, {0})})) == std::vector<double>{1});
  CHECK(vals(run(OpKind::Log, {F({1}, {1})})) == std::vector<double>{0});
  CHECK(vals(run(OpKind::Sigmoid, {F({1}, {0})})) == std::vector<double>{0.5});
  CHECK(vals(run(OpKind::Tanh, {F({1}, {0})})) == std::vector<double>{0});
  CHECK(vals(run(OpKind::Erf, {F({1}, {0})})) == std::vector<double>{0});
  CHECK(vals(run(OpKind::Sin, {F({1}, {0})})) == std::vector<double>{0});
  CHECK(vals(run(OpKind::Cos, {F({1}, {0})})) == std::vector<double>{1});
  CHECK(vals(run(OpKind::Neg, {I({2}, {3, -4})})) == std::vector<double>{-3, 4});
  CHECK(vals(run(OpKind::ZerosLike, {x})) == std::vector<double>{0, 0, 0, 0});
  CHECK(vals(run(OpKind::OnesLike, {I({2}, {5, 6})})) == std::vector<double>{1, 1});
  CHECK(vals(run(OpKind::ReluGrad, {F({3}, {1, 2, 3}), F({3}, {-1, 0, 5})})) == std::vector<double>{0, 0, 3});
}

TEST_CASE("cast: float->int truncates toward zero, bool both ways") {
  Tensor x = F({4}, {-1.7, -0.2, 0.9, 2.5});
  Tensor i = run(OpKind::Cast, {x}, {{"dtype", DType::Int32}});
  CHECK(i.dtype() == DType::Int32);
  CHECK(vals(i) == std::vector<double>{-1, 0, 0, 2});
  Tensor b = run(OpKind::Cast, {x}, {{"dtype", DType::Bool}});
  CHECK(vals(b) == std::vector<double>{1, 1, 1, 1});
  Tensor back = run(OpKind::Cast, {T(DType::Bool, {2}, {1, 0})}, {{"dtype", DType::Float64}});
  CHECK(back.dtype() == DType::Float64);
  CHECK(vals(back) == std::vector<double>{1, 0});
  Tensor wide = run(OpKind::Cast, {I({1}, {7})}, {{"dtype", DType::Int64}});
  CHECK(wide.dtype() == DType::Int64);
  CHECK(wide.data<int64_t>()[0] == 7);
}

TEST_CASE("string add concatenates, as_string and strings_join") {
  Tensor r = run(OpKind::Add, {S({2}, {"a", "b"}), S({}, {"!"})});
  CHECK(r.data<std::string>()[0] == "a!");
  CHECK(r.data<std::string>()[1] == "b!");
  Tensor s = run(OpKind::AsString, {I({2}, {3, -4})});
  CHECK(s.dtype() == DType::String);
  CHECK(s.data<std::string>()[1] == "-4");
  Tensor j = run(OpKind::StringJoin, {S({2}, {"a", "b"}), S({}, {"x"})}, {{"separator", std::string("-")}});
  CHECK(j.data<std::string>()[0] == "a-x");
  CHECK(j.data<std::string>()[1] == "b-x");
}
