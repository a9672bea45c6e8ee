// np.linalg.qr (all four modes) and np.linalg.eig of real matrices, through
// the LAPACK routines numpy 1.24's umath_linalg calls: dgeqrf for the
// Householder factorization (mode 'raw' returns it as numpy does, 'r' its
// upper triangle), dorgqr to form Q ('reduced', 'complete'); dgeev with
// right eigenvectors for eig, complex pairs of eigenvectors assembled from
// LAPACK's (re, im) column pairs as numpy's mk_geev_complex_eigenvectors
// does. numpy computes in float64 and casts back to float32 for float32
// input (its _commonType), as here. Stacks of matrices loop over the
// leading dims. Complex input is refused by name.
#include "lib/numpy/numpy_lib.h"

#include <cmath>
#include <fmt/format.h>

extern "C" {
void dgeqrf_(int *, int *, double *, int *, double *, double *, int *, int *);
void dorgqr_(int *, int *, int *, double *, int *, double *, double *, int *, int *);
void dgeev_(char *, char *, int *, double *, int *, double *, double *, double *, int *, double *, int *, double *,
            int *, int *);
}

namespace tfs::runtime::tf::numpy {

namespace {

// The stack of matrices as float64 and the dtype numpy returns (float32
// stays float32, everything else float64).
Tensor stackedMatrices(Interpreter &in, const Value &v, const char *fn, DType &resultType) {
  Tensor a = asTensor(in, v);
  if (a.rank() < 2)
    linAlgError(in, fmt::format("{}-dimensional array given. Array must be at least two-dimensional", a.rank()));
  if (a.dtype() == DType::String) in.raise("TypeError", "array type dtype('<U') is unsupported in linalg");
  if (a.dtype() == DType::Float16) in.raise("TypeError", "array type float16 is unsupported in linalg");
  if (ir::isComplex(a.dtype()))
    in.raise("NotImplementedError", fmt::format("np.linalg.{} of a complex array is not supported by tfs", fn));
  resultType = a.dtype() == DType::Float32 ? DType::Float32 : DType::Float64;
  return cast(a, DType::Float64);
}

Shape withLast2(const Tensor &a, int64_t rows, int64_t cols) {
  Shape s(a.shape().begin(), a.shape().end() - 2);
  s.push_back(rows);
  s.push_back(cols);
  return s;
}

std::vector<double> columnMajor(const double *p, int64_t rows, int64_t cols) {
  std::vector<double> out(size_t(std::max<int64_t>(rows * cols, 1)), 0.0);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) out[size_t(j * rows + i)] = p[i * cols + j];
  return out;
}

Value qr(Interpreter &in, const Bound &b) {
  std::string mode = in.str(b["mode"]);
  if (mode == "f" || mode == "full" || mode == "e" || mode == "economic")
    in.raise("NotImplementedError", fmt::format("np.linalg.qr() mode '{}' (deprecated) is not supported by tfs", mode));
  if (mode != "reduced" && mode != "complete" && mode != "r" && mode != "raw")
    in.raise("ValueError", fmt::format("Unrecognized mode '{}'", mode));
  DType rt;
  Tensor a = stackedMatrices(in, b["a"], "qr", rt);
  int64_t m = a.shape()[a.rank() - 2], n = a.shape().back(), k = std::min(m, n);
  int64_t count = m * n ? a.numElements() / (m * n) : elementCount(withLast2(a, 1, 1));
  int64_t mc = mode == "complete" && m > n ? m : k;
  // Outputs: h (raw: the geqrf matrix transposed, (n, m)) and tau; r (mc or
  // k rows, n columns); q (m, mc).
  Tensor h = Tensor::empty(DType::Float64, withLast2(a, n, m));
  Shape tauShape(a.shape().begin(), a.shape().end() - 2);
  tauShape.push_back(k);
  Tensor tau = Tensor::empty(DType::Float64, tauShape);
  int64_t rRows = mode == "r" ? k : mc;
  Tensor r = Tensor::empty(DType::Float64, withLast2(a, rRows, n));
  Tensor q = Tensor::empty(DType::Float64, withLast2(a, m, mc));
  for (int64_t s = 0; s < count; ++s) {
    const double *src = a.data<double>() + s * m * n;
    int M = int(m), N = int(n), lda = int(std::max<int64_t>(m, 1)), info = 0, lwork = -1;
    std::vector<double> A = columnMajor(src, m, n), t(size_t(std::max<int64_t>(k, 1)));
    if (k > 0) {
      double query = 0;
      dgeqrf_(&M, &N, A.data(), &lda, t.data(), &query, &lwork, &info);
      lwork = std::max(int(query), 1);
      std::vector<double> work(static_cast<size_t>(lwork));
      dgeqrf_(&M, &N, A.data(), &lda, t.data(), work.data(), &lwork, &info);
      if (info < 0) linAlgError(in, "Incorrect argument found while performing LAPACK routine");
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) h.data<double>()[s * n * m + i * m + j] = A[size_t(i * m + j)];
    for (int64_t i = 0; i < k; ++i) tau.data<double>()[s * k + i] = t[size_t(i)];
    for (int64_t i = 0; i < rRows; ++i)
      for (int64_t j = 0; j < n; ++j) r.data<double>()[(s * rRows + i) * n + j] = j >= i ? A[size_t(j * m + i)] : 0.0;
    if (mode != "reduced" && mode != "complete") continue;
    // dorgqr on an (m, mc) copy whose first min(n, mc) columns are geqrf's.
    std::vector<double> Q(size_t(std::max<int64_t>(m * mc, 1)), 0.0);
    for (int64_t j = 0; j < std::min(n, mc); ++j)
      for (int64_t i = 0; i < m; ++i) Q[size_t(j * m + i)] = A[size_t(j * m + i)];
    if (m > 0 && mc > 0) {
      int MC = int(mc), K = int(k);
      double query = 0;
      lwork = -1;
      dorgqr_(&M, &MC, &K, Q.data(), &lda, t.data(), &query, &lwork, &info);
      lwork = std::max(int(query), 1);
      std::vector<double> work(static_cast<size_t>(lwork));
      dorgqr_(&M, &MC, &K, Q.data(), &lda, t.data(), work.data(), &lwork, &info);
      if (info < 0) linAlgError(in, "Incorrect argument found while performing LAPACK routine");
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < mc; ++j) q.data<double>()[(s * m + i) * mc + j] = Q[size_t(j * m + i)];
  }
  auto out = [&](const Tensor &t) { return newArray(rt == DType::Float64 ? t : cast(t, rt)); };
  if (mode == "r") return out(r);
  if (mode == "raw") return in.tuple({out(h), out(tau)});
  return in.tuple({out(q), out(r)});
}

// np.linalg.eig: eigenvalues and right eigenvectors (columns).
Value eig(Interpreter &in, const Bound &b) {
  DType rt;
  Tensor a = stackedMatrices(in, b["a"], "eig", rt);
  int64_t n = a.shape().back();
  if (a.shape()[a.rank() - 2] != n) linAlgError(in, "Last 2 dimensions of the array must be square");
  for (int64_t i = 0; i < a.numElements(); ++i)
    if (!std::isfinite(a.data<double>()[i])) linAlgError(in, "Array must not contain infs or NaNs");
  int64_t count = n ? a.numElements() / (n * n) : elementCount(withLast2(a, 1, 1));
  Shape wShape(a.shape().begin(), a.shape().end() - 1);
  Tensor w = Tensor::empty(DType::Complex128, wShape), v = Tensor::empty(DType::Complex128, a.shape());
  bool allReal = true;
  for (int64_t s = 0; s < count && n > 0; ++s) {
    int N = int(n), lda = N, ldvr = N, one = 1, info = 0, lwork = -1;
    char no = 'N', yes = 'V';
    std::vector<double> A = columnMajor(a.data<double>() + s * n * n, n, n), wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n)),
                        vr(static_cast<size_t>(n * n));
    double vl = 0, query = 0;
    dgeev_(&no, &yes, &N, A.data(), &lda, wr.data(), wi.data(), &vl, &one, vr.data(), &ldvr, &query, &lwork, &info);
    lwork = std::max(int(query), 1);
    std::vector<double> work(static_cast<size_t>(lwork));
    dgeev_(&no, &yes, &N, A.data(), &lda, wr.data(), wi.data(), &vl, &one, vr.data(), &ldvr, work.data(), &lwork,
           &info);
    if (info > 0) linAlgError(in, "Eigenvalues did not converge");
    auto *W = w.data<ir::complex128>() + s * n;
    auto *V = v.data<ir::complex128>() + s * n * n;
    for (int64_t j = 0; j < n; ++j) {
      W[j] = {wr[size_t(j)], wi[size_t(j)]};
      allReal = allReal && wi[size_t(j)] == 0;
    }
    for (int64_t j = 0; j < n; ++j) {
      if (wi[size_t(j)] != 0 && j + 1 < n) {
        // A conjugate pair: columns j (re) and j+1 (im) of vr.
        for (int64_t i = 0; i < n; ++i) {
          double re = vr[size_t(j * n + i)], im = vr[size_t((j + 1) * n + i)];
          V[i * n + j] = {re, im};
          V[i * n + j + 1] = {re, -im};
        }
        ++j;
      } else {
        for (int64_t i = 0; i < n; ++i) V[i * n + j] = {vr[size_t(j * n + i)], 0.0};
      }
    }
  }
  if (allReal) {
    DType real = rt;
    Tensor wr = cast(runKernel(ir::OpKind::Real, std::vector<Tensor>{w}, {})[0], real);
    Tensor vr = cast(runKernel(ir::OpKind::Real, std::vector<Tensor>{v}, {})[0], real);
    return in.tuple({newArray(wr), newArray(vr)});
  }
  DType complexType = rt == DType::Float32 ? DType::Complex64 : DType::Complex128;
  return in.tuple({newArray(cast(w, complexType)), newArray(cast(v, complexType))});
}

}  // namespace

void addQrEigFunctions(Defs &defs) {
  defs.push_back({"qr(a, mode='reduced')", qr});
  defs.push_back({"eig(a)", eig});
}

}  // namespace tfs::runtime::tf::numpy
