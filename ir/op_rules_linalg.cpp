// Type rules of the matrix ops (inverse, determinants, solves, cholesky,
// qr, svd, eigh, band_part, diag / diag_part / set_diag): every one works
// on the trailing two dims of a [..., M, N] tensor, batch dims leading.
// Decompositions take float32 / float64 (the kernels are Eigen's, as TF's
// CPU kernels are); the band and diagonal ops take any dtype. Unknown dims
// stay unknown; errors are TF's kernel messages (eager TF runs the kernel
// without its shape function).
#include "ir/op_rules.h"
#include "ir/shape_args.h"

#include <fmt/format.h>

namespace tfs::ir {

namespace {
using Types = std::vector<TensorType>;
using In = std::span<const TensorType>;

OpError linalgError(OpKind kind, const std::string &msg) {
  return OpError{"InvalidArgumentError", fmt::format("{} [Op:{}]", msg, tfOpType(kind))};
}

void requireFloat(OpKind k, const TensorType &t) {
  if (t.dtype != DType::Float32 && t.dtype != DType::Float64)
    throw linalgError(k, fmt::format("Value for attr 'T' of {} is not in the list of allowed values: double, float",
                                     dtypeName(t.dtype)));
}

// Rank >= 2 when ranked (TF's LinearAlgebraOp message).
void requireMatrix(OpKind k, const Shape &s, int input = 0) {
  if (s.ranked && s.rank() < 2)
    throw linalgError(k, fmt::format("Input tensor {} must have rank >= 2, got {}", input, s.rank()));
}

void requireSquare(OpKind k, const Shape &s) {
  requireMatrix(k, s);
  if (!s.ranked) return;
  int64_t m = s.dims[s.rank() - 2], n = s.dims.back();
  if (m >= 0 && n >= 0 && m != n) throw linalgError(k, "Input matrix must be square.");
}

// The dims before the trailing two, plus `tail`.
Shape batchPlus(const Shape &s, std::vector<int64_t> tail) {
  if (!s.ranked) return Shape::unranked();
  std::vector<int64_t> d(s.dims.begin(), s.dims.end() - 2);
  d.insert(d.end(), tail.begin(), tail.end());
  return Shape(d);
}

int64_t rows(const Shape &s) { return s.ranked ? s.dims[s.rank() - 2] : kUnknownDim; }
int64_t cols(const Shape &s) { return s.ranked ? s.dims.back() : kUnknownDim; }
int64_t minDim(int64_t a, int64_t b) {
  if (a >= 0 && b >= 0) return std::min(a, b);
  return a == 0 || b == 0 ? 0 : kUnknownDim;
}
int64_t pick(bool full, int64_t fullDim, int64_t reduced) { return full ? fullDim : reduced; }

Types squareSameType(OpKind k, In in) {
  requireFloat(k, in[0]);
  requireSquare(k, in[0].shape);
  return {in[0]};
}

template <OpKind K> Types squareUnary(In in, const Attrs &) { return squareSameType(K, in); }

Types determinant(In in, const Attrs &) {
  requireFloat(OpKind::MatrixDeterminant, in[0]);
  requireSquare(OpKind::MatrixDeterminant, in[0].shape);
  return {TensorType{in[0].dtype, batchPlus(in[0].shape, {})}};
}

Types logDeterminant(In in, const Attrs &) {
  requireFloat(OpKind::LogMatrixDeterminant, in[0]);
  requireSquare(OpKind::LogMatrixDeterminant, in[0].shape);
  TensorType t{in[0].dtype, batchPlus(in[0].shape, {})};
  return {t, t};
}

// matrix_solve(matrix [..., N, N], rhs [..., N, K]): batch dims equal.
Types solve(In in, const Attrs &) {
  OpKind k = OpKind::MatrixSolve;
  requireFloat(k, in[0]);
  if (in[1].dtype != in[0].dtype) throw dtypeMismatch(k, 1, in[0].dtype, in[1].dtype);
  requireSquare(k, in[0].shape);
  requireMatrix(k, in[1].shape, 1);
  const Shape &a = in[0].shape, &b = in[1].shape;
  if (!a.ranked || !b.ranked) return {TensorType{in[1].dtype, b}};
  if (a.rank() != b.rank())
    throw linalgError(k, fmt::format("Input matrix and right-hand side must have the same rank, got {} != {}",
                                     a.rank(), b.rank()));
  for (size_t i = 0; i + 2 < a.rank(); ++i)
    if (a.dims[i] >= 0 && b.dims[i] >= 0 && a.dims[i] != b.dims[i])
      throw linalgError(k, "All input tensors must have the same outer dimensions.");
  if (rows(a) >= 0 && rows(b) >= 0 && rows(a) != rows(b))
    throw linalgError(k, "Input matrix and right-hand side must have the same number of rows.");
  std::vector<int64_t> d = b.dims;
  for (size_t i = 0; i + 2 < a.rank(); ++i)
    if (d[i] < 0) d[i] = a.dims[i];
  return {TensorType{in[1].dtype, Shape(d)}};
}

// matrix_triangular_solve: the batch dims broadcast (TF 2.x).
Types triangularSolve(In in, const Attrs &) {
  OpKind k = OpKind::MatrixTriangularSolve;
  requireFloat(k, in[0]);
  if (in[1].dtype != in[0].dtype) throw dtypeMismatch(k, 1, in[0].dtype, in[1].dtype);
  requireSquare(k, in[0].shape);
  requireMatrix(k, in[1].shape, 1);
  const Shape &a = in[0].shape, &b = in[1].shape;
  if (!a.ranked || !b.ranked) return {TensorType{in[1].dtype, Shape::unranked()}};
  if (rows(a) >= 0 && rows(b) >= 0 && rows(a) != rows(b))
    throw linalgError(k, fmt::format("Incompatible shapes: {} vs. {}", a.debugString(), b.debugString()));
  Shape batch = broadcastShapes(batchPlus(a, {}), batchPlus(b, {}), k);
  batch.dims.push_back(rows(a) >= 0 ? rows(a) : rows(b));
  batch.dims.push_back(cols(b));
  return {TensorType{in[1].dtype, batch}};
}

Types qr(In in, const Attrs &attrs) {
  requireFloat(OpKind::Qr, in[0]);
  requireMatrix(OpKind::Qr, in[0].shape);
  const Shape &s = in[0].shape;
  bool full = attrBool(attrs, "full_matrices", false);
  int64_t m = rows(s), n = cols(s), p = minDim(m, n);
  return {TensorType{in[0].dtype, batchPlus(s, {m, pick(full, m, p)})},
          TensorType{in[0].dtype, batchPlus(s, {pick(full, m, p), n})}};
}

Types svd(In in, const Attrs &attrs) {
  requireFloat(OpKind::Svd, in[0]);
  requireMatrix(OpKind::Svd, in[0].shape);
  const Shape &s = in[0].shape;
  bool full = attrBool(attrs, "full_matrices", false);
  int64_t m = rows(s), n = cols(s), p = minDim(m, n);
  TensorType sv{in[0].dtype, batchPlus(s, {p})};
  if (!attrBool(attrs, "compute_uv", true)) {
    TensorType empty{in[0].dtype, Shape({0})};
    return {sv, empty, empty};
  }
  return {sv, TensorType{in[0].dtype, batchPlus(s, {m, pick(full, m, p)})},
          TensorType{in[0].dtype, batchPlus(s, {n, pick(full, n, p)})}};
}

Types selfAdjointEig(In in, const Attrs &attrs) {
  requireFloat(OpKind::SelfAdjointEig, in[0]);
  requireSquare(OpKind::SelfAdjointEig, in[0].shape);
  const Shape &s = in[0].shape;
  int64_t n = rows(s) >= 0 ? rows(s) : cols(s);
  TensorType e{in[0].dtype, batchPlus(s, {n})};
  if (!attrBool(attrs, "compute_v", true)) return {e, TensorType{in[0].dtype, Shape({0})}};
  return {e, TensorType{in[0].dtype, batchPlus(s, {n, n})}};
}

// lu(input [..., N, N]) -> (lu [..., N, N], p [..., N] of output_idx_type).
Types lu(In in, const Attrs &attrs) {
  requireFloat(OpKind::Lu, in[0]);
  requireSquare(OpKind::Lu, in[0].shape);
  DType idx = attrDType(attrs, "output_idx_type").value_or(DType::Int32);
  if (idx != DType::Int32 && idx != DType::Int64)
    throw linalgError(OpKind::Lu, fmt::format("Value for attr 'output_idx_type' of {} is not in the list of "
                                              "allowed values: int32, int64", dtypeTfTypeName(idx)));
  const Shape &s = in[0].shape;
  return {in[0], TensorType{idx, batchPlus(s, {rows(s) >= 0 ? rows(s) : cols(s)})}};
}

Types bandPart(In in, const Attrs &) {
  const Shape &s = in[0].shape;
  if (s.ranked && s.rank() < 2)
    throw linalgError(OpKind::MatrixBandPart,
                      fmt::format("input must be at least 2-dim, received shape: {}", s.debugString()));
  return {in[0]};
}

Types matrixDiag(In in, const Attrs &) {
  const Shape &s = in[0].shape;
  if (!s.ranked) return {TensorType{in[0].dtype, Shape::unranked()}};
  if (s.rank() < 1)
    throw linalgError(OpKind::MatrixDiag, fmt::format("diagonal must be at least 1-dim, received shape: {}",
                                                      s.debugString()));
  std::vector<int64_t> d = s.dims;
  d.push_back(s.dims.back());
  return {TensorType{in[0].dtype, Shape(d)}};
}

Types matrixDiagPart(In in, const Attrs &) {
  const Shape &s = in[0].shape;
  if (s.ranked && s.rank() < 2)
    throw linalgError(OpKind::MatrixDiagPart, fmt::format("input must be at least 2-dim, received shape: {}",
                                                          s.debugString()));
  return {TensorType{in[0].dtype, batchPlus(s, {minDim(rows(s), cols(s))})}};
}

Types matrixSetDiag(In in, const Attrs &) {
  OpKind k = OpKind::MatrixSetDiag;
  if (in[1].dtype != in[0].dtype) throw dtypeMismatch(k, 1, in[0].dtype, in[1].dtype);
  const Shape &s = in[0].shape, &d = in[1].shape;
  if (s.ranked && s.rank() < 2)
    throw linalgError(k, fmt::format("input must be at least 2-dim, received shape: {}", s.debugString()));
  if (s.ranked && d.ranked) {
    Shape want = batchPlus(s, {minDim(rows(s), cols(s))});
    bool ok = want.rank() == d.rank();
    for (size_t i = 0; ok && i < d.rank(); ++i)
      ok = want.dims[i] < 0 || d.dims[i] < 0 || want.dims[i] == d.dims[i];
    if (!ok)
      throw linalgError(k, fmt::format("diagonal must have shape {}, received shape: {}", want.debugString(),
                                       d.debugString()));
  }
  return {in[0]};
}
}  // namespace

TypeRule linalgTypeRule(OpKind k) {
  switch (k) {
  case OpKind::MatrixInverse: return squareUnary<OpKind::MatrixInverse>;
  case OpKind::Cholesky: return squareUnary<OpKind::Cholesky>;
  case OpKind::MatrixDeterminant: return determinant;
  case OpKind::LogMatrixDeterminant: return logDeterminant;
  case OpKind::MatrixSolve: return solve;
  case OpKind::MatrixTriangularSolve: return triangularSolve;
  case OpKind::Qr: return qr;
  case OpKind::Svd: return svd;
  case OpKind::SelfAdjointEig: return selfAdjointEig;
  case OpKind::Lu: return lu;
  case OpKind::MatrixBandPart: return bandPart;
  case OpKind::MatrixDiag: return matrixDiag;
  case OpKind::MatrixDiagPart: return matrixDiagPart;
  case OpKind::MatrixSetDiag: return matrixSetDiag;
  default: return scatterTypeRule(k);
  }
}

const char *linalgOpType(OpKind k) {
  switch (k) {
  case OpKind::MatrixInverse: return "MatrixInverse";
  case OpKind::Cholesky: return "Cholesky";
  case OpKind::MatrixDeterminant: return "MatrixDeterminant";
  case OpKind::LogMatrixDeterminant: return "LogMatrixDeterminant";
  case OpKind::MatrixSolve: return "MatrixSolve";
  case OpKind::MatrixTriangularSolve: return "MatrixTriangularSolve";
  case OpKind::Qr: return "Qr";
  case OpKind::Svd: return "Svd";
  case OpKind::SelfAdjointEig: return "SelfAdjointEigV2";
  case OpKind::Lu: return "Lu";
  case OpKind::MatrixBandPart: return "MatrixBandPart";
  case OpKind::MatrixDiag: return "MatrixDiagV3";
  case OpKind::MatrixDiagPart: return "MatrixDiagPartV3";
  case OpKind::MatrixSetDiag: return "MatrixSetDiagV3";
  default: return scatterOpType(k);
  }
}

}  // namespace tfs::ir
