// np.linalg.lstsq and np.linalg.eigvals of one float64 matrix, through the
// LAPACK routines numpy 1.24's umath_linalg calls (dgelsd: SVD-based least
// squares; dgeev without eigenvectors) on column-major copies, so results
// agree with numpy's to the bit. np.polyfit and np.roots
// (lib/numpy/_np_poly.tfs) are built on them. Stacks of matrices and
// float32 / complex inputs are refused by name.
#include "lib/numpy/numpy_lib.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>

extern "C" {
void dgelsd_(int *, int *, int *, double *, int *, double *, int *, double *, double *, int *, double *, int *, int *,
             int *);
void dgeev_(char *, char *, int *, double *, int *, double *, double *, double *, int *, double *, int *, double *,
            int *, int *);
}

namespace tfs::runtime::tf::numpy {

namespace {

// A 2-d float64 matrix (ints and bools cast, as numpy's _commonType does).
Tensor matrixArg(Interpreter &in, const Value &v, const char *fn) {
  Tensor a = asTensor(in, v);
  if (a.rank() < 2)
    linAlgError(in, fmt::format("{}-dimensional array given. Array must be at least two-dimensional", a.rank()));
  if (a.rank() > 2) in.raise("NotImplementedError", fmt::format("np.linalg.{}() of a stack of matrices is not supported by tfs", fn));
  if (a.dtype() == DType::String) in.raise("TypeError", "array type dtype('S') is unsupported in linalg");
  if (a.dtype() == DType::Float32 || a.dtype() == DType::Float16 || ir::isComplex(a.dtype()))
    in.raise("NotImplementedError", fmt::format("np.linalg.{}() of a {} array is not supported by tfs", fn, dtypeName(a.dtype())));
  return cast(a, DType::Float64);
}

std::vector<double> columnMajor(const Tensor &a, int64_t rows, int64_t cols, int64_t ld) {
  std::vector<double> out(size_t(std::max<int64_t>(ld * cols, 1)), 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) out[size_t(j * ld + i)] = a.data<double>()[i * cols + j];
  return out;
}

Value lstsq(Interpreter &in, const Bound &bd) {
  Tensor a = matrixArg(in, bd["a"], "lstsq");
  Tensor b = asTensor(in, bd["b"]);
  bool is1d = b.rank() == 1;
  if (is1d) b = b.reshaped({b.shape()[0], 1});
  if (b.rank() != 2)
    linAlgError(in, fmt::format("{}-dimensional array given. Array must be two-dimensional", b.rank()));
  b = cast(b, DType::Float64);
  int m = int(a.shape()[0]), n = int(a.shape()[1]), nrhs = int(b.shape()[1]);
  if (b.shape()[0] != m) linAlgError(in, "Incompatible dimensions");
  double rcond;
  const Value &rv = bd["rcond"];
  if (rv.as<StrObject>() && in.str(rv) == "warn") {
    // numpy's transitional default: a FutureWarning, then the old rcond=-1
    // (machine precision).
    frontend::SourceSpan here = in.currentSpan();
    Value module = in.importModule("warnings");
    in.restoreSpan(here);
    std::vector<Value> args{in.str("`rcond` parameter will change to the default of machine precision times ``max(M, "
                                   "N)`` where M and N are the input matrix dimensions.\nTo use the future default "
                                   "and silence this warning we advise to pass `rcond=None`, to keep using the old, "
                                   "explicitly pass `rcond=-1`."),
                            in.builtins()->vars["FutureWarning"]};
    in.call(in.getAttr(module, "warn"), args);
    in.restoreSpan(here);
    rcond = -1;
  } else {
    rcond = rv.isNone() ? std::numeric_limits<double>::epsilon() * std::max(m, n) : in.toFloat(rv);
  }
  if (nrhs == 0 || m == 0 || n == 0)
    in.raise("NotImplementedError", "np.linalg.lstsq() of an empty matrix is not supported by tfs");
  int lda = std::max(m, 1), ldb = std::max(std::max(m, n), 1), minmn = std::min(m, n), rank = 0, info = 0;
  std::vector<double> A = columnMajor(a, m, n, lda), B = columnMajor(b, m, nrhs, ldb), S(size_t(std::max(minmn, 1)));
  double workQuery = 0;
  int iworkQuery = 0, lwork = -1;
  dgelsd_(&m, &n, &nrhs, A.data(), &lda, B.data(), &ldb, S.data(), &rcond, &rank, &workQuery, &lwork, &iworkQuery, &info);
  lwork = int(workQuery);
  std::vector<double> work(size_t(std::max(lwork, 1)));
  std::vector<int> iwork(size_t(std::max(iworkQuery, 1)));
  dgelsd_(&m, &n, &nrhs, A.data(), &lda, B.data(), &ldb, S.data(), &rcond, &rank, work.data(), &lwork, iwork.data(), &info);
  if (info > 0) linAlgError(in, "SVD did not converge in Linear Least Squares");
  Tensor x = Tensor::empty(DType::Float64, is1d ? Shape{n} : Shape{n, nrhs});
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < nrhs; ++j) x.data<double>()[i * nrhs + j] = B[size_t(j * ldb + i)];
  // Residuals (sum of squares of each column's rows n..m-1) only for a
  // full-rank overdetermined system; numpy returns an empty array otherwise.
  bool resid = rank == n && m > n;
  Tensor r = Tensor::empty(DType::Float64, resid ? (is1d ? Shape{1} : Shape{nrhs}) : Shape{0});
  if (resid)
    for (int j = 0; j < nrhs; ++j) {
      double acc = 0;
      for (int i = n; i < m; ++i) acc += B[size_t(j * ldb + i)] * B[size_t(j * ldb + i)];
      r.data<double>()[j] = acc;
    }
  Tensor s = Tensor::empty(DType::Float64, {minmn});
  for (int i = 0; i < minmn; ++i) s.data<double>()[i] = S[size_t(i)];
  return in.tuple({newArray(x), newArray(r), Value::integer(rank), newArray(s)});
}

Value eigvals(Interpreter &in, const Bound &bd) {
  Tensor a = matrixArg(in, bd["a"], "eigvals");
  int n = int(a.shape()[1]);
  if (a.shape()[0] != n) linAlgError(in, "Last 2 dimensions of the array must be square");
  for (int64_t i = 0; i < a.numElements(); ++i)
    if (!std::isfinite(a.data<double>()[i])) linAlgError(in, "Array must not contain infs or NaNs");
  if (n == 0) return newArray(Tensor::empty(DType::Float64, {0}));
  char no = 'N';
  int lda = std::max(n, 1), one = 1, info = 0, lwork = -1;
  std::vector<double> A = columnMajor(a, n, n, lda), wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n));
  double vl = 0, vr = 0, workQuery = 0;
  dgeev_(&no, &no, &n, A.data(), &lda, wr.data(), wi.data(), &vl, &one, &vr, &one, &workQuery, &lwork, &info);
  lwork = int(workQuery);
  std::vector<double> work(size_t(std::max(lwork, 1)));
  dgeev_(&no, &no, &n, A.data(), &lda, wr.data(), wi.data(), &vl, &one, &vr, &one, work.data(), &lwork, &info);
  if (info > 0) linAlgError(in, "Eigenvalues did not converge");
  bool real = true;
  for (double v : wi) real = real && v == 0;
  if (real) {
    Tensor w = Tensor::empty(DType::Float64, {n});
    for (int i = 0; i < n; ++i) w.data<double>()[i] = wr[size_t(i)];
    return newArray(w);
  }
  Tensor w = Tensor::empty(DType::Complex128, {n});
  for (int i = 0; i < n; ++i) w.data<ir::complex128>()[i] = {wr[size_t(i)], wi[size_t(i)]};
  return newArray(w);
}

}  // namespace

void addLstsqFunctions(Defs &defs) {
  defs.push_back({"lstsq(a, b, rcond='warn')", lstsq});
  defs.push_back({"eigvals(a)", eigvals});
}

}  // namespace tfs::runtime::tf::numpy
