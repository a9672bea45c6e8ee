// Finite-difference gradient checker over the whole op table.
//
// For every differentiable op (not marked notDifferentiable, not a
// structural/region op) the test requires (1) a gradient rule and (2) at
// least one sample invocation below. Each sample draws float64 inputs, runs
// the kernel, and compares the rule's vector-Jacobian product (through the
// EagerEmitter) for a random cotangent w with central differences of
// L(x) = sum(w * op(x)).
#include "autodiff_test_util.h"

#include "runtime/autodiff/eager_emitter.h"
#include "runtime/autodiff/gradients.h"
#include "runtime/kernels/kernels.h"

#include <fmt/format.h>
#include <map>
#include <set>

using namespace tfs;
using namespace tfs::runtime;
using namespace tfs::testutil;
using ir::Attrs;
using ir::OpKind;

namespace {

struct InputSpec {
  std::vector<int64_t> shape;
  DType dtype = DType::Float64;
  double lo = -2, hi = 2;
  bool awayFromZero = false;        // |x| >= 0.2 (kinks of abs, relu, ...)
  std::vector<int32_t> intValues;  // int inputs (indices, labels)
  bool shapeOnly = false;          // only its shape matters: no gradient
  bool tfNoGradient = false;       // TF defines no gradient for it (betainc's a, b)
  bool rowsSumToOne = false;       // probability rows (xent labels)
  bool wellConditioned = false;    // square matrices with 4 added on the diagonal
};

struct FdCase {
  OpKind kind;
  std::vector<InputSpec> inputs;
  Attrs attrs = {};
  double tol = 2e-6;
  double h = 1e-6;
};

using V = std::vector<int64_t>;
InputSpec spec(V s, DType d = DType::Float64, double lo = -2, double hi = 2) {
  InputSpec i;
  i.shape = std::move(s);
  i.dtype = d;
  i.lo = lo;
  i.hi = hi;
  return i;
}
InputSpec F(V s) { return spec(std::move(s)); }
InputSpec Pos(V s) { return spec(std::move(s), DType::Float64, 0.5, 2.0); }
InputSpec NZ(V s) {
  InputSpec i = spec(std::move(s));
  i.awayFromZero = true;
  return i;
}
InputSpec I32(V s, std::vector<int32_t> v) {
  InputSpec i = spec(std::move(s), DType::Int32);
  i.intValues = std::move(v);
  return i;
}
InputSpec B(V s) { return spec(std::move(s), DType::Bool); }
InputSpec Probs(V s) {
  InputSpec i = spec(std::move(s), DType::Float64, 0.1, 1.0);
  i.rowsSumToOne = true;
  return i;
}
// Square matrices far from singular (inverse, determinant, solves).
InputSpec WC(V s) {
  InputSpec i = spec(std::move(s), DType::Float64, -1, 1);
  i.wellConditioned = true;
  return i;
}
InputSpec NoGrad(InputSpec i) {
  i.tfNoGradient = true;
  return i;
}
InputSpec ShapeOnly(V s) {
  InputSpec i = spec(std::move(s));
  i.shapeOnly = true;
  return i;
}

std::vector<FdCase> allCases() {
  std::vector<FdCase> cs;
  auto binary = [&](OpKind k, InputSpec a, InputSpec b) {
    cs.push_back({k, {a, b}});
  };
  for (OpKind k : {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Maximum, OpKind::Minimum,
                   OpKind::SquaredDifference}) {
    binary(k, F({2, 3}), F({2, 3}));
    binary(k, F({2, 3}), F({3}));
    binary(k, F({2, 1}), F({1, 3}));
    binary(k, F({}), F({2, 2}));
  }
  binary(OpKind::Div, F({2, 3}), Pos({2, 3}));
  binary(OpKind::Div, F({2, 3}), Pos({3}));
  binary(OpKind::Div, F({}), Pos({2}));
  binary(OpKind::Pow, Pos({2, 3}), F({2, 3}));
  binary(OpKind::Pow, Pos({2, 3}), F({}));
  binary(OpKind::FloorMod, Pos({2, 3}), spec({2, 3}, DType::Float64, 0.7, 0.9));
  cs.push_back({OpKind::Select, {B({2, 3}), F({2, 3}), F({2, 3})}});
  cs.push_back({OpKind::Select, {B({2, 3}), F({3}), F({2, 1})}});
  cs.push_back({OpKind::Identity, {F({2, 3})}});

  for (OpKind k : {OpKind::Neg, OpKind::Square, OpKind::Exp, OpKind::Sin, OpKind::Cos,
                   OpKind::Tanh, OpKind::Sigmoid, OpKind::Erf, OpKind::Sign})
    cs.push_back({k, {F({2, 3})}});
  for (OpKind k : {OpKind::Abs, OpKind::Relu})
    cs.push_back({k, {NZ({2, 3})}});
  for (OpKind k : {OpKind::Sqrt, OpKind::Rsqrt, OpKind::Log})
    cs.push_back({k, {Pos({2, 3})}});
  cs.push_back({OpKind::ReluGrad, {F({2, 3}), NZ({2, 3})}});
  // Inverse trigonometric/hyperbolic functions inside their domains.
  for (OpKind k : {OpKind::Acos, OpKind::Asin, OpKind::Atanh})
    cs.push_back({k, {spec({2, 3}, DType::Float64, -0.8, 0.8)}});
  for (OpKind k : {OpKind::Atan, OpKind::Asinh})
    cs.push_back({k, {F({2, 3})}});
  cs.push_back({OpKind::Acosh, {spec({2, 3}, DType::Float64, 1.2, 3.0)}});
  binary(OpKind::Atan2, NZ({2, 3}), NZ({2, 3}));
  binary(OpKind::Atan2, NZ({2, 3}), NZ({3}));
  cs.push_back({OpKind::Cast, {F({2, 3})}, {{"dtype", DType::Float32}}, 2e-3, 1e-3});
  cs.push_back({OpKind::Cast, {F({3})}, {{"dtype", DType::Float64}}});

  for (OpKind k : {OpKind::ReduceSum, OpKind::ReduceMean, OpKind::ReduceMax,
                   OpKind::ReduceMin, OpKind::ReduceProd}) {
    cs.push_back({k, {F({2, 3, 4})}});
    cs.push_back({k, {F({2, 3, 4})}, {{"axis", V{1}}}});
    cs.push_back({k, {F({2, 3, 4})}, {{"axis", V{0, 2}}, {"keepdims", true}}});
    cs.push_back({k, {F({2, 3})}, {{"axis", V{-1}}}});
  }

  for (bool ta : {false, true})
    for (bool tb : {false, true})
      cs.push_back({OpKind::MatMul,
                    {F(ta ? V{3, 2} : V{2, 3}), F(tb ? V{4, 3} : V{3, 4})},
                    {{"transpose_a", ta}, {"transpose_b", tb}}});
  cs.push_back({OpKind::MatMul, {F({2, 2, 3}), F({2, 3, 4})}});
  cs.push_back({OpKind::MatMul, {F({2, 2, 3}), F({3, 4})}});

  cs.push_back({OpKind::Transpose, {F({2, 3, 4})}, {{"perm", V{2, 0, 1}}}});
  cs.push_back({OpKind::Transpose, {F({2, 3})}});
  cs.push_back({OpKind::Reshape, {F({2, 3})}, {{"shape", V{3, 2}}}});
  cs.push_back({OpKind::Reshape, {F({2, 3})}, {{"shape", V{-1}}}});
  cs.push_back({OpKind::ExpandDims, {F({2, 3})}, {{"axis", int64_t(1)}}});
  cs.push_back({OpKind::ExpandDims, {F({2, 3})}, {{"axis", int64_t(-1)}}});
  cs.push_back({OpKind::Squeeze, {F({2, 1, 3})}, {{"axis", V{1}}}});
  cs.push_back({OpKind::Squeeze, {F({1, 2, 1})}});
  cs.push_back({OpKind::Concat, {F({2, 3}), F({2, 2})}, {{"axis", int64_t(1)}}});
  cs.push_back({OpKind::Concat, {F({1, 3}), F({2, 3}), F({1, 3})}, {{"axis", int64_t(0)}}});
  cs.push_back({OpKind::Stack, {F({2, 3}), F({2, 3})}, {{"axis", int64_t(0)}}});
  cs.push_back({OpKind::Stack, {F({2}), F({2}), F({2})}, {{"axis", int64_t(1)}}});
  cs.push_back({OpKind::Gather, {F({4, 3}), I32({2, 2}, {0, 3, 3, 1})}, {{"axis", int64_t(0)}}});
  cs.push_back({OpKind::Gather, {F({2, 4}), I32({3}, {1, 1, 2})}, {{"axis", int64_t(1)}}});
  cs.push_back({OpKind::StridedSlice,
                {F({4, 5})},
                {{"begin", V{1, 0}}, {"end", V{3, 5}}, {"strides", V{1, 2}}}});
  cs.push_back({OpKind::StridedSlice,
                {F({4, 5})},
                {{"begin", V{2, 0}}, {"end", V{3, 0}}, {"strides", V{1, 1}},
                 {"shrink_axis_mask", int64_t(1)}, {"end_mask", int64_t(2)}}});
  cs.push_back({OpKind::StridedSlice,
                {F({4, 3})},
                {{"begin", V{-1}}, {"end", V{0}}, {"strides", V{-1}},
                 {"end_mask", int64_t(1)}}});
  cs.push_back({OpKind::BroadcastTo, {F({1, 3})}, {{"shape", V{2, 3}}}});
  cs.push_back({OpKind::BroadcastTo, {F({})}, {{"shape", V{2, 2}}}});
  cs.push_back({OpKind::Tile, {F({2, 3})}, {{"multiples", V{2, 1}}}});
  cs.push_back({OpKind::Tile, {F({2})}, {{"multiples", V{3}}}});
  cs.push_back({OpKind::Unbroadcast, {F({2, 3}), ShapeOnly({3})}});
  cs.push_back({OpKind::Unbroadcast, {F({2, 3}), ShapeOnly({2, 1})}});
  cs.push_back({OpKind::Fill, {F({})}, {{"shape", V{2, 3}}}});

  cs.push_back({OpKind::Softmax, {F({2, 4})}});
  cs.push_back({OpKind::Softmax, {F({3, 2})}, {{"axis", int64_t(0)}}});
  cs.push_back({OpKind::LogSoftmax, {F({2, 4})}});
  // TF's gradient w.r.t. logits is softmax - labels: exact for labels whose
  // rows sum to one (the op's contract).
  cs.push_back({OpKind::SoftmaxCrossEntropy, {Probs({2, 4}), F({2, 4})}});
  cs.push_back({OpKind::SparseSoftmaxCrossEntropy, {I32({2}, {3, 0}), F({2, 4})}});
  cs.push_back({OpKind::SigmoidCrossEntropy,
                {spec({2, 3}, DType::Float64, 0, 1), F({2, 3})}});

  Attrs same{{"strides", V{1, 1, 1, 1}}, {"padding", std::string("SAME")}};
  Attrs valid2{{"strides", V{1, 2, 2, 1}}, {"padding", std::string("VALID")}};
  cs.push_back({OpKind::Conv2D, {F({1, 5, 5, 2}), F({3, 3, 2, 3})}, same});
  cs.push_back({OpKind::Conv2D, {F({2, 5, 5, 1}), F({2, 2, 1, 2})}, valid2});
  Attrs bi = same;
  bi["input_sizes"] = V{1, 4, 4, 2};
  cs.push_back({OpKind::Conv2DBackpropInput, {F({3, 3, 2, 3}), F({1, 4, 4, 3})}, bi});
  Attrs bf = same;
  bf["filter_sizes"] = V{3, 3, 2, 3};
  cs.push_back({OpKind::Conv2DBackpropFilter, {F({1, 4, 4, 2}), F({1, 4, 4, 3})}, bf});
  Attrs dilated{{"strides", V{1, 1}}, {"dilations", V{2, 2}}, {"padding", std::string("SAME")}};
  cs.push_back({OpKind::Conv2D, {F({1, 5, 6, 2}), F({2, 3, 2, 2})}, dilated});
  // 1x1 stride-1: the pointwise GEMM path of the kernels.
  cs.push_back({OpKind::Conv2D, {F({2, 3, 3, 3}), F({1, 1, 3, 2})}, same});

  Attrs dw = same;
  cs.push_back({OpKind::DepthwiseConv2D, {F({1, 4, 5, 2}), F({3, 3, 2, 2})}, dw});
  cs.push_back({OpKind::DepthwiseConv2D, {F({2, 5, 5, 3}), F({2, 2, 3, 1})}, valid2});
  Attrs dwi = same;
  dwi["input_sizes"] = V{1, 4, 4, 2};
  cs.push_back({OpKind::DepthwiseConv2DBackpropInput, {F({3, 3, 2, 2}), F({1, 4, 4, 4})}, dwi});
  Attrs dwf = same;
  dwf["filter_sizes"] = V{3, 3, 2, 2};
  cs.push_back({OpKind::DepthwiseConv2DBackpropFilter, {F({1, 4, 4, 2}), F({1, 4, 4, 4})}, dwf});

  Attrs pool2{{"ksize", V{2, 2}}, {"strides", V{2, 2}}, {"padding", std::string("VALID")}};
  Attrs pool3s{{"ksize", V{1, 3, 3, 1}}, {"strides", V{1, 2, 2, 1}}, {"padding", std::string("SAME")}};
  cs.push_back({OpKind::MaxPool, {F({1, 4, 4, 2})}, pool2});
  cs.push_back({OpKind::MaxPool, {F({2, 5, 5, 1})}, pool3s});
  cs.push_back({OpKind::MaxPoolGrad, {F({1, 4, 4, 2}), F({1, 2, 2, 2})}, pool2});
  cs.push_back({OpKind::MaxPoolGradGrad, {F({1, 5, 5, 1}), F({1, 5, 5, 1})}, pool3s});
  cs.push_back({OpKind::MaxPoolWithArgmax, {F({2, 4, 4, 2})}, pool2});
  Attrs pool3sBatch = pool3s;
  pool3sBatch["include_batch_in_index"] = true;
  cs.push_back({OpKind::MaxPoolWithArgmax, {F({2, 5, 5, 1})}, pool3sBatch});
  cs.push_back({OpKind::AvgPool, {F({1, 4, 4, 2})}, pool2});
  cs.push_back({OpKind::AvgPool, {F({2, 5, 5, 1})}, pool3s});
  Attrs avgGrad = pool3s;
  avgGrad["orig_input_shape"] = V{2, 5, 5, 1};
  cs.push_back({OpKind::AvgPoolGrad, {F({2, 3, 3, 1})}, avgGrad});

  // Indexing, scans, sorting.
  cs.push_back({OpKind::Cumsum, {F({2, 4})}, {{"axis", int64_t(1)}}});
  cs.push_back({OpKind::Cumsum, {F({3, 2})}, {{"axis", int64_t(0)}, {"exclusive", true}, {"reverse", true}}});
  cs.push_back({OpKind::Cumprod, {Pos({2, 4})}, {{"axis", int64_t(1)}}});
  cs.push_back({OpKind::Cumprod, {Pos({3, 2})}, {{"axis", int64_t(0)}, {"exclusive", true}, {"reverse", true}}});
  cs.push_back({OpKind::Reverse, {F({2, 3, 2})}, {{"axis", V{0, 2}}}});
  cs.push_back({OpKind::TopK, {F({2, 5})}, {{"k", int64_t(3)}}});
  cs.push_back({OpKind::TopK, {F({4})}, {{"k", int64_t(4)}}});
  cs.push_back({OpKind::UnsortedSegmentSum, {F({4, 3}), I32({4}, {0, 2, 0, -1})}, {{"num_segments", int64_t(3)}}});
  cs.push_back({OpKind::UnsortedSegmentSum, {F({2, 2}), I32({2, 2}, {1, 1, 0, 3})}, {{"num_segments", int64_t(4)}}});
  for (OpKind k : {OpKind::UnsortedSegmentMax, OpKind::UnsortedSegmentMin, OpKind::UnsortedSegmentProd}) {
    // (No empty segment: unsorted max/min fill one with +-1.8e308.)
    cs.push_back({k, {F({4, 3}), I32({4}, {0, 2, 1, -1})}, {{"num_segments", int64_t(3)}}});
    cs.push_back({k, {F({5}), I32({5}, {0, 0, 1, 1, 1})}, {{"num_segments", int64_t(2)}, {"sorted", true}}});
  }
  cs.push_back({OpKind::StridedSliceGrad, {F({2, 3})},
                {{"shape", V{4, 5}}, {"begin", V{1, 0}}, {"end", V{3, 5}}, {"strides", V{1, 2}}}});
  cs.push_back({OpKind::Pad, {F({2, 3}), ShapeOnly({})}, {{"paddings", V{1, 0, 2, 1}}}});
  // A TensorArray write (ready is random: a written buffer or the placeholder).
  cs.push_back({OpKind::TensorArrayWrite, {F({3, 2}), B({}), I32({}, {1}), F({2})}, {{"dynamic_size", false}}});
  cs.push_back({OpKind::TensorArrayWrite, {F({2, 2}), B({}), I32({}, {3}), F({2})}, {{"dynamic_size", true}}});
  cs.push_back({OpKind::TensorArrayWrite, {F({2}), B({}), I32({}, {0}), F({})}, {{"dynamic_size", false}}});
  // Shape arguments given as run-time operands.
  cs.push_back({OpKind::Reshape, {F({2, 3}), I32({2}, {3, 2})}});
  cs.push_back({OpKind::StridedSlice, {F({4, 3}), I32({2}, {1, 0}), I32({2}, {3, 0})},
                {{"strides", V{1, 1}}, {"end_mask", int64_t(2)}}});
  cs.push_back({OpKind::StridedSlice, {F({4, 3}), I32({1}, {-2}), I32({1}, {-1})},
                {{"strides", V{1}}, {"shrink_axis_mask", int64_t(1)}}});
  cs.push_back({OpKind::Tile, {F({2, 3}), I32({2}, {2, 1})}});
  cs.push_back({OpKind::Fill, {F({}), I32({2}, {2, 3})}});
  cs.push_back({OpKind::BroadcastTo, {F({1, 3}), I32({2}, {2, 3})}});
  cs.push_back({OpKind::Pad, {F({2, 3}), ShapeOnly({}), I32({4}, {0, 1, 1, 1})}});

  // Matrix ops (og[0] only: sign of slogdet, q of qr, s of svd, e of eigh;
  // the other outputs in tests/programs/linalg_gradients.tfs).
  cs.push_back({OpKind::MatrixInverse, {WC({2, 3, 3})}});
  cs.push_back({OpKind::MatrixInverse, {WC({3, 3})}, {{"adjoint", true}}});
  cs.push_back({OpKind::MatrixDeterminant, {WC({2, 3, 3})}});
  cs.push_back({OpKind::LogMatrixDeterminant, {WC({3, 3})}});
  cs.push_back({OpKind::MatrixSolve, {WC({2, 3, 3}), F({2, 3, 2})}});
  cs.push_back({OpKind::MatrixSolve, {WC({3, 3}), F({3, 1})}, {{"adjoint", true}}});
  cs.push_back({OpKind::MatrixTriangularSolve, {WC({3, 3}), F({2, 3, 2})}});
  cs.push_back({OpKind::MatrixTriangularSolve, {WC({2, 3, 3}), F({3, 2})}, {{"lower", false}, {"adjoint", true}}});
  cs.push_back({OpKind::Qr, {F({4, 3})}});
  cs.push_back({OpKind::Qr, {F({2, 3, 4})}});
  cs.push_back({OpKind::Qr, {F({3, 3})}, {{"full_matrices", true}}});
  cs.push_back({OpKind::Svd, {F({4, 3})}});
  cs.push_back({OpKind::Svd, {F({2, 3, 4})}});
  cs.push_back({OpKind::SelfAdjointEig, {F({2, 3, 3})}});
  cs.push_back({OpKind::Lu, {WC({2, 3, 3})}});
  cs.push_back({OpKind::Lu, {F({4, 4})}});  // row swaps (partial pivoting)
  cs.push_back({OpKind::MatrixBandPart, {F({2, 3, 4})}, {{"num_lower", int64_t(1)}, {"num_upper", int64_t(0)}}});
  cs.push_back({OpKind::MatrixBandPart, {F({4, 3}), I32({}, {0}), I32({}, {-1})}});
  cs.push_back({OpKind::MatrixDiag, {F({2, 3})}});
  cs.push_back({OpKind::MatrixDiagPart, {F({3, 4})}});
  cs.push_back({OpKind::MatrixSetDiag, {F({2, 4, 3}), F({2, 3})}});
  // Index tuples and slices.
  cs.push_back({OpKind::GatherNd, {F({4, 3}), I32({2, 2}, {1, 0, 3, 2})}});
  cs.push_back({OpKind::GatherNd, {F({4, 3}), I32({3, 1}, {3, 0, 3})}});
  cs.push_back({OpKind::ScatterNd, {I32({3, 1}, {0, 2, 0}), F({3, 2})}, {{"shape", V{4, 2}}}});
  for (OpKind k : {OpKind::TensorScatterUpdate, OpKind::TensorScatterAdd, OpKind::TensorScatterSub,
                   OpKind::TensorScatterMax, OpKind::TensorScatterMin})
    cs.push_back({k, {F({4, 2}), I32({2, 1}, {1, 3}), F({2, 2})}});
  cs.push_back({OpKind::Slice, {F({3, 4})}, {{"begin", V{1, 0}}, {"size", V{2, -1}}}});
  cs.push_back({OpKind::Slice, {F({3, 4}), I32({2}, {0, 1}), I32({2}, {2, 2})}});
  cs.push_back({OpKind::EnsureShape, {F({2, 3})}, {{"shape", V{-1, 3}}}});
  // Special functions inside their domains (Bessel K and Y need x > 0).
  for (OpKind k : {OpKind::Lgamma, OpKind::Digamma, OpKind::BesselK0, OpKind::BesselK0e, OpKind::BesselK1,
                   OpKind::BesselK1e, OpKind::BesselY0, OpKind::BesselY1})
    cs.push_back({k, {Pos({2, 3})}});
  for (OpKind k : {OpKind::Erfc, OpKind::BesselI0, OpKind::BesselI0e, OpKind::BesselI1, OpKind::BesselI1e,
                   OpKind::BesselJ0, OpKind::BesselJ1})
    cs.push_back({k, {NZ({2, 3})}});
  cs.push_back({OpKind::Erfinv, {spec({2, 3}, DType::Float64, -0.8, 0.8)}});
  cs.push_back({OpKind::Ndtri, {spec({2, 3}, DType::Float64, 0.1, 0.9)}});
  binary(OpKind::Igamma, Pos({2, 3}), Pos({3}));
  binary(OpKind::Igammac, Pos({2, 1}), Pos({2, 3}));
  binary(OpKind::Zeta, NoGrad(spec({2, 3}, DType::Float64, 2.0, 4.0)), Pos({3}));
  binary(OpKind::Polygamma, NoGrad(spec({}, DType::Float64, 1.0, 1.0)), Pos({2, 3}));
  cs.push_back({OpKind::Betainc, {NoGrad(Pos({2, 3})), NoGrad(Pos({2, 3})), spec({2, 3}, DType::Float64, 0.1, 0.9)}});
  binary(OpKind::MulNoNan, F({2, 3}), NZ({3}));
  cs.push_back({OpKind::CumulativeLogsumexp, {F({2, 4})}, {{"axis", int64_t(1)}}});
  cs.push_back({OpKind::CumulativeLogsumexp, {F({3, 2})}, {{"reverse", true}}});
  return cs;
}

Tensor makeInput(const InputSpec &s, Lcg &rng) {
  Tensor t = Tensor::empty(s.dtype, s.shape);
  for (int64_t i = 0; i < t.numElements(); ++i) {
    switch (s.dtype) {
    case DType::Float64: {
      double v = rng.uniform(s.lo, s.hi);
      if (s.awayFromZero && std::fabs(v) < 0.2)
        v = v < 0 ? v - 0.2 : v + 0.2;
      t.data<double>()[i] = v;
      break;
    }
    case DType::Int32:
      t.data<int32_t>()[i] = s.intValues.at(i);
      break;
    case DType::Bool:
      t.data<bool>()[i] = rng.uniform(0, 1) < 0.5;
      break;
    default:
      FAIL("unsupported input dtype in test spec");
    }
  }
  if (s.wellConditioned) {
    int64_t n = s.shape.back();
    for (int64_t m = 0; m < t.numElements() / (n * n); ++m)
      for (int64_t i = 0; i < n; ++i)
        t.data<double>()[(m * n + i) * n + i] += 4.0;
  }
  if (s.rowsSumToOne) {
    int64_t c = s.shape.back();
    for (int64_t r = 0; r < t.numElements() / c; ++r) {
      double sum = 0;
      for (int64_t k = 0; k < c; ++k)
        sum += t.data<double>()[r * c + k];
      for (int64_t k = 0; k < c; ++k)
        t.data<double>()[r * c + k] /= sum;
    }
  }
  return t;
}

// L = sum(w * op(inputs)) in double.
double objective(const FdCase &c, const std::vector<Tensor> &inputs, const Tensor &w) {
  Tensor y = runKernel(c.kind, inputs, c.attrs).at(0);
  double s = 0;
  for (int64_t i = 0; i < y.numElements(); ++i)
    s += w.elementAsDouble(i) * y.elementAsDouble(i);
  return s;
}

std::string describe(const FdCase &c) {
  std::string s = ir::opName(c.kind);
  s += "(";
  for (auto &in : c.inputs)
    s += ir::TensorType{in.dtype, ir::Shape(in.shape)}.str() + " ";
  return s + ")";
}

void checkCaseImpl(const FdCase &c, uint64_t seed) {
  Lcg rng(seed);
  std::vector<Tensor> inputs;
  for (auto &s : c.inputs)
    inputs.push_back(makeInput(s, rng));
  Tensor y = runKernel(c.kind, inputs, c.attrs).at(0);
  Tensor w = Tensor::empty(y.dtype(), y.shape());
  for (int64_t i = 0; i < w.numElements(); ++i) {
    double v = rng.uniform(-1, 1);
    if (y.dtype() == DType::Float32)
      w.data<float>()[i] = static_cast<float>(v);
    else
      w.data<double>()[i] = v;
  }

  GradRule rule = gradRuleFor(c.kind);
  if (!rule) {
    FAIL_CHECK("no gradient rule");
    return;
  }
  EagerEmitter em;
  std::vector<Handle> ins, outs;
  for (auto &r : runKernel(c.kind, inputs, c.attrs))
    outs.push_back(em.adopt(r));
  for (auto &t : inputs)
    ins.push_back(em.adopt(t));
  std::vector<OptHandle> og(outs.size());
  og[0] = em.adopt(w);
  GradOpInfo info{c.kind, c.attrs, ins, outs};
  auto grads = rule(em, info, og);
  // Rules may leave out trailing inputs without a gradient (shape operands).
  if (grads.size() > inputs.size()) {
    FAIL_CHECK("rule returned " << grads.size() << " gradients");
    return;
  }
  grads.resize(inputs.size());

  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!ir::isFloating(inputs[i].dtype()) || c.inputs[i].shapeOnly || c.inputs[i].tfNoGradient) {
      CHECK_MESSAGE(!grads[i], "gradient for a non-float input " << i);
      continue;
    }
    INFO("input " << i);
    if (!grads[i]) {
      FAIL_CHECK("no gradient for float input " << i);
      continue;
    }
    Tensor g = em.tensor(*grads[i]);
    if (g.shape() != inputs[i].shape()) {
      FAIL_CHECK("gradient shape " << ir::Shape(g.shape()).tfString() << " for input "
                                   << ir::Shape(inputs[i].shape()).tfString());
      continue;
    }
    for (int64_t e = 0; e < inputs[i].numElements(); ++e) {
      std::vector<Tensor> plus = inputs, minus = inputs;
      plus[i] = inputs[i].copy();
      minus[i] = inputs[i].copy();
      plus[i].data<double>()[e] += c.h;
      minus[i].data<double>()[e] -= c.h;
      double numeric = (objective(c, plus, w) - objective(c, minus, w)) / (2 * c.h);
      double analytic = g.elementAsDouble(e);
      INFO("element " << e << " analytic " << analytic << " numeric " << numeric);
      CHECK(std::fabs(analytic - numeric) <= c.tol * (1 + std::fabs(numeric)));
    }
  }
}

void checkCase(const FdCase &c, uint64_t seed) {
  INFO(describe(c));
  try {
    checkCaseImpl(c, seed);
  } catch (const ir::OpError &e) {
    FAIL_CHECK(e.errorClass << ": " << e.message);
  }
}

bool isStructural(OpKind k) {
  const ir::OpDef &d = ir::opDef(k);
  return d.has(ir::OpTrait::Region) || d.has(ir::OpTrait::Terminator) ||
         k == OpKind::Call || (d.minOperands == 0 && d.maxOperands == 0);
}

}  // namespace

TEST_CASE("autodiff: every differentiable op has a gradient rule and a checked sample") {
  registerGradientTraits();
  std::set<OpKind> sampled;
  for (auto &c : allCases())
    sampled.insert(c.kind);
  for (int i = 0; i < static_cast<int>(OpKind::NumOps); ++i) {
    auto k = static_cast<OpKind>(i);
    if (isNotDifferentiable(k) || isStructural(k))
      continue;
    // Complex-valued ops: their gradients are checked against the analytic
    // derivatives in tests/programs/complex_gradients.tfs (float64 central
    // differences here need real outputs).
    if (k == OpKind::Complex || k == OpKind::Real || k == OpKind::Imag || k == OpKind::Conj ||
        k == OpKind::Angle)
      continue;
    // Ops whose gradient rule refuses by name (TF differentiates them and
    // tfs raises rather than return None; TF has no gradient of
    // TruncateMod or IgammaGradA and raises LookupError): nothing to sample.
    if (k == OpKind::RandomGamma || k == OpKind::RandomShuffle || k == OpKind::PyFunction ||
        k == OpKind::TruncateMod || k == OpKind::IgammaGradA || k == OpKind::Unique)
      continue;
    // The image colour ops TF has no gradient for (LookupError, as TF), and
    // RGBToHSV, whose gradient is TF's float32-only formula: checked against
    // float32 central differences in tests/programs/image_color_ops.tfs.
    if (k == OpKind::AdjustContrastv2 || k == OpKind::AdjustSaturation || k == OpKind::AdjustHue ||
        k == OpKind::HsvToRgb || k == OpKind::RgbToHsvGrad || k == OpKind::RgbToHsv)
      continue;
    // Cholesky's gradient (TF's) is for symmetric perturbations, which
    // single-element differences are not: tests/programs/linalg_gradients
    // checks it through a symmetrization.
    if (k == OpKind::Cholesky)
      continue;
    // The spectral ops take or give complex tensors: their gradients are
    // checked as real functions of real and imaginary parts in
    // tests/programs/spectral_gradients.tfs. max_pool_grad_with_argmax's
    // gradient reads g at the argmax the forward op computed from the same
    // input (max_pool_grad_grad, sampled above), which a random argmax
    // sample would not be; the program checks it as the gradient of
    // max_pool_with_argmax's backprop with respect to the incoming gradient.
    if (k == OpKind::Fft || k == OpKind::Ifft || k == OpKind::Fft2d || k == OpKind::Ifft2d ||
        k == OpKind::Fft3d || k == OpKind::Ifft3d || k == OpKind::Rfft || k == OpKind::Irfft ||
        k == OpKind::Rfft2d || k == OpKind::Irfft2d || k == OpKind::Rfft3d || k == OpKind::Irfft3d ||
        k == OpKind::MaxPoolGradWithArgmax)
      continue;
    INFO("op " << ir::opName(k));
    CHECK_MESSAGE(static_cast<bool>(gradRuleFor(k)), "differentiable op without gradient rule");
    CHECK_MESSAGE(sampled.count(k), "differentiable op without finite-difference sample");
  }
  for (OpKind k : {OpKind::Cond, OpKind::WhileLoop, OpKind::Call})
    CHECK(hasGradient(k));
}

TEST_CASE("autodiff: analytic gradients match central differences (float64)") {
  auto cases = allCases();
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case #" << i);
    checkCase(cases[i], 1000 + i);
  }
}
