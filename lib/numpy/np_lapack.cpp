// np.linalg: inv, solve, det, slogdet, norm, cholesky, eigh, eigvalsh, svd,
// pinv, matrix_rank, matrix_power.
//
// numpy 1.24 computes these with LAPACK on a column-major copy of each
// matrix: inv and solve with ?gesv, det and slogdet from ?getrf's factors
// (det = sign * exp(sum(log|u_ii|)), which is why numpy's
// det([[1, 2], [3, 4]]) is -2.0000000000000004), cholesky with ?potrf,
// eigh with ?syevd, svd with ?gesdd. tfs calls the same LAPACK (OpenBLAS's)
// the same way, so results agree with numpy's to the last bit.
#include "lib/numpy/np_shape.h"
#include "lib/numpy/numpy_lib.h"
#include "lib/numpy/reduce_engine.h"
#include "lib/tf/tf_lib.h"

#include <cmath>
#include <cstring>
#include <set>
#include <fmt/format.h>

extern "C" {
void sgesv_(int *, int *, float *, int *, int *, float *, int *, int *);
void dgesv_(int *, int *, double *, int *, int *, double *, int *, int *);
void sgetrf_(int *, int *, float *, int *, int *, int *);
void dgetrf_(int *, int *, double *, int *, int *, int *);
void spotrf_(char *, int *, float *, int *, int *);
void dpotrf_(char *, int *, double *, int *, int *);
void ssyevd_(char *, char *, int *, float *, int *, float *, float *, int *, int *, int *, int *);
void dsyevd_(char *, char *, int *, double *, int *, double *, double *, int *, int *, int *, int *);
void sgesdd_(char *, int *, int *, float *, int *, float *, float *, int *, float *, int *, float *, int *, int *, int *);
void dgesdd_(char *, int *, int *, double *, int *, double *, double *, int *, double *, int *, double *, int *, int *,
             int *);
}

namespace tfs::runtime::tf::numpy {

Value matmulValues(Interpreter &in, const Value &a, const Value &b);

namespace {

template <class T> struct Lapack;
template <> struct Lapack<float> {
  static void gesv(int n, int nrhs, float *a, int *ipiv, float *b, int *info) { sgesv_(&n, &nrhs, a, &n, ipiv, b, &n, info); }
  static void getrf(int n, float *a, int *ipiv, int *info) { sgetrf_(&n, &n, a, &n, ipiv, info); }
  static void potrf(int n, float *a, int *info) {
    char lo = 'L';
    spotrf_(&lo, &n, a, &n, info);
  }
  static void syevd(char jobz, int n, float *a, float *w, int *info) {
    char lo = 'L';
    int lwork = -1, liwork = -1, iq;
    float q;
    ssyevd_(&jobz, &lo, &n, a, &n, w, &q, &lwork, &iq, &liwork, info);
    lwork = int(q);
    liwork = iq;
    std::vector<float> work(size_t(std::max(lwork, 1)));
    std::vector<int> iwork(size_t(std::max(liwork, 1)));
    ssyevd_(&jobz, &lo, &n, a, &n, w, work.data(), &lwork, iwork.data(), &liwork, info);
  }
  static void gesdd(char jobz, int m, int n, float *a, float *s, float *u, int ldu, float *vt, int ldvt, int *info) {
    int lwork = -1;
    float q;
    std::vector<int> iwork(size_t(8 * std::min(m, n)));
    sgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &q, &lwork, iwork.data(), info);
    lwork = int(q);
    std::vector<float> work(size_t(std::max(lwork, 1)));
    sgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work.data(), &lwork, iwork.data(), info);
  }
};
template <> struct Lapack<double> {
  static void gesv(int n, int nrhs, double *a, int *ipiv, double *b, int *info) { dgesv_(&n, &nrhs, a, &n, ipiv, b, &n, info); }
  static void getrf(int n, double *a, int *ipiv, int *info) { dgetrf_(&n, &n, a, &n, ipiv, info); }
  static void potrf(int n, double *a, int *info) {
    char lo = 'L';
    dpotrf_(&lo, &n, a, &n, info);
  }
  static void syevd(char jobz, int n, double *a, double *w, int *info) {
    char lo = 'L';
    int lwork = -1, liwork = -1, iq;
    double q;
    dsyevd_(&jobz, &lo, &n, a, &n, w, &q, &lwork, &iq, &liwork, info);
    lwork = int(q);
    liwork = iq;
    std::vector<double> work(size_t(std::max(lwork, 1)));
    std::vector<int> iwork(size_t(std::max(liwork, 1)));
    dsyevd_(&jobz, &lo, &n, a, &n, w, work.data(), &lwork, iwork.data(), &liwork, info);
  }
  static void gesdd(char jobz, int m, int n, double *a, double *s, double *u, int ldu, double *vt, int ldvt, int *info) {
    int lwork = -1;
    double q;
    std::vector<int> iwork(size_t(8 * std::min(m, n)));
    dgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, &q, &lwork, iwork.data(), info);
    lwork = int(q);
    std::vector<double> work(size_t(std::max(lwork, 1)));
    dgesdd_(&jobz, &m, &n, a, &m, s, u, &ldu, vt, &ldvt, work.data(), &lwork, iwork.data(), info);
  }
};

Ref<ClassObject> linAlgErrorClass(Interpreter &in) {
  if (auto it = in.builtins()->vars.find("LinAlgError"); it != in.builtins()->vars.end())
    if (auto *c = it->second.as<ClassObject>()) return Ref<ClassObject>(c);
  Ref<ClassObject> c = in.newExceptionClass("LinAlgError", "Exception");
  c->module = "numpy.linalg";
  return c;
}

// The input as a stack of square float matrices (numpy's _assert_stacked_square).
Tensor squareStack(Interpreter &in, const Value &v, int64_t &n, int64_t &count) {
  Tensor a = asTensor(in, v);
  if (a.rank() < 2)
    linAlgError(in, fmt::format("{}-dimensional array given. Array must be at least two-dimensional", a.rank()));
  n = a.shape().back();
  if (a.shape()[a.rank() - 2] != n) linAlgError(in, "Last 2 dimensions of the array must be square");
  if (a.dtype() == DType::String) in.raise("TypeError", "array type dtype('S') is unsupported in linalg");
  if (a.dtype() == DType::Float16) in.raise("TypeError", "array type float16 is unsupported in linalg");
  // numpy computes every real type in double (its _commonType); float32
  // results are cast back by linalgModuleFunctions' wrapper.
  if (a.dtype() != DType::Float64) a = cast(a, DType::Float64);
  count = n ? a.numElements() / (n * n) : 0;
  return a;
}

// Column-major copies in and out of a row-major (rows, cols) matrix.
template <class T> std::vector<T> toColumnMajor(const T *p, int64_t rows, int64_t cols) {
  std::vector<T> out(size_t(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) out[size_t(j * rows + i)] = p[i * cols + j];
  return out;
}
template <class T> void fromColumnMajor(const std::vector<T> &c, T *p, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) p[i * cols + j] = c[size_t(j * rows + i)];
}

Value invValue(Interpreter &in, const Value &av) {
  int64_t n, count;
  Tensor a = squareStack(in, av, n, count);
  Tensor out = Tensor::empty(a.dtype(), a.shape());
  if (n == 0) return newArray(out);
  visitElementType(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>)
      for (int64_t k = 0; k < count; ++k) {
        std::vector<T> m = toColumnMajor(a.data<T>() + k * n * n, n, n), id(size_t(n * n), T(0));
        for (int64_t i = 0; i < n; ++i) id[size_t(i * n + i)] = T(1);
        std::vector<int> piv(static_cast<size_t>(n));
        int info = 0;
        Lapack<T>::gesv(int(n), int(n), m.data(), piv.data(), id.data(), &info);
        if (info > 0) linAlgError(in, "Singular matrix");
        fromColumnMajor(id, out.data<T>() + k * n * n, n, n);
      }
  });
  return newArray(out);
}

Value inv(Interpreter &in, const Bound &b) { return invValue(in, b["a"]); }

Value solve(Interpreter &in, const Bound &b) {
  int64_t n, count;
  Tensor a = squareStack(in, b["a"], n, count);
  Tensor rhs = asTensor(in, b["b"]);
  DType t = promoteTypes(a.dtype(), ir::isFloating(rhs.dtype()) ? rhs.dtype() : DType::Float64);
  a = cast(a, t);
  rhs = cast(rhs, t);
  bool vector = rhs.rank() == a.rank() - 1;
  if (count != 1 || (rhs.rank() != 1 && rhs.rank() != 2))
    in.raise("NotImplementedError", "solve() of stacked matrices is not supported by tfs");
  int64_t nrhs = vector ? 1 : rhs.shape()[1];
  if (rhs.shape()[0] != n)
    in.raise("ValueError", fmt::format("solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                                       "signature (m,m),(m,n)->(m,n) (size {} is different from {})",
                                       rhs.shape()[0], n));
  Tensor out = Tensor::empty(t, rhs.shape());
  if (n == 0 || nrhs == 0) return newArray(out);
  visitElementType(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      std::vector<T> m = toColumnMajor(a.data<T>(), n, n), x = toColumnMajor(rhs.data<T>(), n, nrhs);
      std::vector<int> piv(static_cast<size_t>(n));
      int info = 0;
      Lapack<T>::gesv(int(n), int(nrhs), m.data(), piv.data(), x.data(), &info);
      if (info > 0) linAlgError(in, "Singular matrix");
      fromColumnMajor(x, out.data<T>(), n, nrhs);
    }
  });
  return newArray(out);
}

// sign and log|det| of each matrix from its LU factors (numpy's
// slogdet_from_factored_diagonal); a singular matrix has sign 0, log -inf.
void slogdetStack(Interpreter &in, const Value &v, Tensor &sign, Tensor &logdet) {
  int64_t n, count;
  Tensor a = squareStack(in, v, n, count);
  Shape batch(a.shape().begin(), a.shape().end() - 2);
  sign = Tensor::empty(a.dtype(), batch);
  logdet = Tensor::empty(a.dtype(), batch);
  visitElementType(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>)
      for (int64_t k = 0; k < count; ++k) {
        std::vector<T> m = toColumnMajor(a.data<T>() + k * n * n, n, n);
        std::vector<int> piv(size_t(std::max<int64_t>(n, 1)));
        int info = 0;
        if (n > 0) Lapack<T>::getrf(int(n), m.data(), piv.data(), &info);
        T s = T(1), l = T(0);
        if (info > 0) {
          s = T(0);
          l = -std::numeric_limits<T>::infinity();
        } else {
          int changes = 0;
          for (int64_t i = 0; i < n; ++i) changes += piv[size_t(i)] != int(i + 1);
          if (changes % 2) s = T(-1);
          for (int64_t i = 0; i < n; ++i) {
            T e = m[size_t(i * n + i)];
            if (e < 0) {
              s = -s;
              e = -e;
            }
            l += std::log(e);
          }
        }
        sign.data<T>()[k] = s;
        logdet.data<T>()[k] = l;
      }
  });
}

Value det(Interpreter &in, const Bound &b) {
  Tensor sign, logdet;
  slogdetStack(in, b["a"], sign, logdet);
  Tensor out = Tensor::empty(sign.dtype(), sign.shape());
  visitElementType(sign.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>)
      for (int64_t i = 0; i < out.numElements(); ++i) out.data<T>()[i] = sign.data<T>()[i] * std::exp(logdet.data<T>()[i]);
  });
  return scalarOrArray(out);
}

Value cholesky(Interpreter &in, const Bound &b) {
  int64_t n, count;
  Tensor a = squareStack(in, b["a"], n, count);
  Tensor out = Tensor::empty(a.dtype(), a.shape());
  if (n == 0) return newArray(out);
  visitElementType(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>)
      for (int64_t k = 0; k < count; ++k) {
        std::vector<T> m = toColumnMajor(a.data<T>() + k * n * n, n, n);
        int info = 0;
        Lapack<T>::potrf(int(n), m.data(), &info);
        if (info > 0) linAlgError(in, "Matrix is not positive definite");
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = i + 1; j < n; ++j) m[size_t(j * n + i)] = T(0);  // upper part of the column-major copy
        fromColumnMajor(m, out.data<T>() + k * n * n, n, n);
      }
  });
  return newArray(out);
}

Value eigh(Interpreter &in, const Bound &b, bool vectors) {
  std::string uplo = in.str(b["UPLO"]);
  if (uplo != "L") in.raise("NotImplementedError", "eigh() argument 'UPLO' other than 'L' is not supported by tfs");
  int64_t n, count;
  Tensor a = squareStack(in, b["a"], n, count);
  if (count != 1) in.raise("NotImplementedError", "eigh() of stacked matrices is not supported by tfs");
  Tensor w = Tensor::empty(a.dtype(), {n}), v = Tensor::empty(a.dtype(), {n, n});
  if (n > 0) visitElementType(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      std::vector<T> m = toColumnMajor(a.data<T>(), n, n);
      int info = 0;
      Lapack<T>::syevd(vectors ? 'V' : 'N', int(n), m.data(), w.data<T>(), &info);
      if (info > 0) linAlgError(in, "Eigenvalues did not converge");
      fromColumnMajor(m, v.data<T>(), n, n);
    }
  });
  if (!vectors) return newArray(w);
  return in.tuple({newArray(w), newArray(v)});
}

// svd through ?gesdd: u, s, vh (reduced when full_matrices is False).
void svdFloat64(Interpreter &in, const Tensor &a0, bool full, bool uv, Tensor &u, Tensor &s, Tensor &vh);

// numpy's svd computes in double and returns float32 factors for float32
// input (pinv and matrix_rank then work on those, as numpy's do).
void svdTensors(Interpreter &in, const Tensor &a0, bool full, bool uv, Tensor &u, Tensor &s, Tensor &vh) {
  if (a0.dtype() == DType::Float16) in.raise("TypeError", "array type float16 is unsupported in linalg");
  svdFloat64(in, a0.dtype() == DType::Float64 ? a0 : cast(a0, DType::Float64), full, uv, u, s, vh);
  if (a0.dtype() == DType::Float32) {
    u = cast(u, DType::Float32);
    s = cast(s, DType::Float32);
    vh = cast(vh, DType::Float32);
  }
}

void svdFloat64(Interpreter &in, const Tensor &a0, bool full, bool uv, Tensor &u, Tensor &s, Tensor &vh) {
  Tensor a = a0;
  if (a.rank() != 2) in.raise("NotImplementedError", "svd() of arrays other than 2-d is not supported by tfs");
  int64_t m = a.shape()[0], n = a.shape()[1], k = std::min(m, n);
  int64_t ucols = full ? m : k, vrows = full ? n : k;
  s = Tensor::empty(a.dtype(), {k});
  u = Tensor::empty(a.dtype(), {m, ucols});
  vh = Tensor::empty(a.dtype(), {vrows, n});
  if (m == 0 || n == 0) {
    // Nothing to factor: numpy returns identity-shaped u / vh factors.
    Tensor ue = Tensor::empty(a.dtype(), {m, ucols}), ve = Tensor::empty(a.dtype(), {vrows, n});
    u = cast(runKernel(ir::OpKind::ZerosLike, std::vector<Tensor>{ue}, {})[0], a.dtype());
    vh = cast(runKernel(ir::OpKind::ZerosLike, std::vector<Tensor>{ve}, {})[0], a.dtype());
    for (int64_t i = 0; i < std::min(m, ucols); ++i) visitElementType(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) u.data<T>()[i * ucols + i] = T(1);
      });
    for (int64_t i = 0; i < std::min(vrows, n); ++i) visitElementType(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) vh.data<T>()[i * n + i] = T(1);
      });
    return;
  }
  visitElementType(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      std::vector<T> c = toColumnMajor(a.data<T>(), m, n);
      std::vector<T> uc(size_t(std::max<int64_t>(m * ucols, 1))), vc(size_t(std::max<int64_t>(vrows * n, 1)));
      int info = 0;
      char job = uv ? (full ? 'A' : 'S') : 'N';
      Lapack<T>::gesdd(job, int(m), int(n), c.data(), s.data<T>(), uc.data(), int(std::max<int64_t>(m, 1)), vc.data(),
                       int(std::max<int64_t>(vrows, 1)), &info);
      if (info > 0) linAlgError(in, "SVD did not converge");
      if (uv) {
        fromColumnMajor(uc, u.data<T>(), m, ucols);
        fromColumnMajor(vc, vh.data<T>(), vrows, n);
      }
    }
  });
}

// A stack of matrices: each one's factors, stacked along the leading dims.
Value svdStack(Interpreter &in, const Tensor &a, bool full, bool uv) {
  Shape lead(a.shape().begin(), a.shape().end() - 2);
  int64_t m = a.shape()[a.rank() - 2], n = a.shape().back(), count = elementCount(lead);
  std::vector<Tensor> us, ss, vhs;
  for (int64_t k = 0; k < count; ++k) {
    Tensor one = Tensor::empty(a.dtype(), {m, n}), u, s, vh;
    std::memcpy(one.rawData(), static_cast<const char *>(a.rawData()) + k * m * n * int64_t(ir::dtypeSize(a.dtype())),
                size_t(m * n) * ir::dtypeSize(a.dtype()));
    svdTensors(in, one, full, uv, u, s, vh);
    us.push_back(u);
    ss.push_back(s);
    vhs.push_back(vh);
  }
  auto stacked = [&](const std::vector<Tensor> &parts, Shape inner, DType d) {
    Shape shape = lead;
    shape.insert(shape.end(), inner.begin(), inner.end());
    Tensor out = Tensor::empty(d, shape);
    int64_t bytes = elementCount(inner) * int64_t(ir::dtypeSize(d));
    for (size_t k = 0; k < parts.size(); ++k)
      std::memcpy(static_cast<char *>(out.rawData()) + int64_t(k) * bytes, parts[k].rawData(), size_t(bytes));
    return newArray(out);
  };
  DType d = ir::isFloating(a.dtype()) ? a.dtype() : DType::Float64;
  int64_t k = std::min(m, n);
  Value s = stacked(ss, {k}, d);
  if (!uv) return s;
  return in.tuple({stacked(us, {m, full ? m : k}, d), s, stacked(vhs, {full ? n : k, n}, d)});
}

Value svd(Interpreter &in, const Bound &b) {
  Tensor u, s, vh;
  bool uv = in.truth(b["compute_uv"]);
  Tensor a = asTensor(in, b["a"]);
  if (a.rank() > 2 && a.dtype() != DType::String) return svdStack(in, a, in.truth(b["full_matrices"]), uv);
  svdTensors(in, a, in.truth(b["full_matrices"]), uv, u, s, vh);
  if (!uv) return newArray(s);
  return in.tuple({newArray(u), newArray(s), newArray(vh)});
}

// numpy's norm of a complex array, for the 2-norm / Frobenius orders:
// sqrt(re . re + im . im) of the raveled array when no axis is given (two
// BLAS dots), else sqrt of the sum of |x|^2 (re*re + im*im) over the axes.
Value complexNorm(Interpreter &in, const Bound &b, const Tensor &x) {
  const Value &ord = b["ord"];
  bool keep = in.truth(b["keepdims"]);
  bool fro = ord.as<StrObject>() && (in.str(ord) == "fro" || in.str(ord) == "f");
  bool two = (ord.isInt() && ord.asInt() == 2) || (ord.isFloat() && ord.asFloat() == 2.0);
  Tensor re = runKernel(ir::OpKind::Real, std::vector<Tensor>{x}, {})[0];
  Tensor im = runKernel(ir::OpKind::Imag, std::vector<Tensor>{x}, {})[0];
  auto sqrtOf = [](Tensor t) {
    visitElementType(t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>)
        for (int64_t i = 0; i < t.numElements(); ++i) t.data<T>()[i] = std::sqrt(t.data<T>()[i]);
    });
    return t;
  };
  if (b.isNone("axis") && (ord.isNone() || (fro && x.rank() == 2) || (two && x.rank() == 1))) {
    Tensor fr = re.reshaped({x.numElements()}), fi = im.reshaped({x.numElements()});
    Tensor rr = asTensor(in, matmulValues(in, newArray(fr), newArray(fr)));
    Tensor ii = asTensor(in, matmulValues(in, newArray(fi), newArray(fi)));
    Tensor r = rr.copy();
    visitElementType(r.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) r.data<T>()[0] = std::sqrt(T(rr.data<T>()[0] + ii.data<T>()[0]));
    });
    if (keep) r = r.reshaped(Shape(x.rank(), 1));
    return scalarOrArray(r);
  }
  if (auto *pair = b["axis"].as<TupleObject>(); pair && pair->items.size() == 2) {
    int64_t r = int64_t(x.rank()), p = in.toIndex(pair->items[0]), q = in.toIndex(pair->items[1]);
    if (p >= -r && p < r && q >= -r && q < r && (p + r) % r == (q + r) % r) in.raise("ValueError", "Duplicate axes given.");
  }
  std::vector<bool> mask = axisMask(in, b["axis"], x.rank());
  int64_t nAxes = 0;
  for (bool m : mask) nAxes += m;
  if (!b.isNone("axis") && ((nAxes == 1 && (ord.isNone() || two)) || (nAxes == 2 && (ord.isNone() || fro)))) {
    Tensor sq = Tensor::empty(re.dtype(), re.shape());
    visitElementType(re.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>)
        for (int64_t i = 0; i < sq.numElements(); ++i) {
          T r = re.data<T>()[i], m = im.data<T>()[i];
          sq.data<T>()[i] = r * r + m * m;
        }
    });
    return scalarOrArray(sqrtOf(reduceArray(sq, mask, ReduceOp::Sum, cStrides(x.shape()), keep)));
  }
  in.raise("NotImplementedError", fmt::format("norm() of a complex array with ord={} is not supported by tfs", in.repr(ord)));
}

Value norm(Interpreter &in, const Bound &b) {
  Tensor x = asTensor(in, b["x"]);
  if (x.dtype() == DType::String) in.raise("TypeError", "norm of a string array is not supported");
  const Value &ord = b["ord"];
  bool keep = in.truth(b["keepdims"]);
  if (ir::isComplex(x.dtype())) return complexNorm(in, b, x);
  if (!ir::isFloating(x.dtype())) x = cast(x, DType::Float64);
  auto absolute = [&](const Tensor &t) { return runKernel(ir::OpKind::Abs, std::vector<Tensor>{t}, {})[0]; };
  auto square = [&](const Tensor &t) { return runKernel(ir::OpKind::Mul, std::vector<Tensor>{t, t}, {})[0]; };
  auto sqrtOf = [&](Tensor t) {
    visitElementType(t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>)
        for (int64_t i = 0; i < t.numElements(); ++i) t.data<T>()[i] = std::sqrt(t.data<T>()[i]);
    });
    return t;
  };
  Shape mem = cStrides(x.shape());
  if (b.isNone("axis")) {
    bool fro = ord.as<StrObject>() && (in.str(ord) == "fro" || in.str(ord) == "f");
    bool two = (ord.isInt() && ord.asInt() == 2) || (ord.isFloat() && ord.asFloat() == 2.0);
    if (ord.isNone() || (fro && x.rank() == 2) || (two && x.rank() == 1)) {
      // numpy's shortcut for these orders: ravel, then sqrt(x . x) through
      // BLAS ?dot (its rounding, not a pairwise sum's).
      Tensor flat = x.reshaped({x.numElements()});
      Value dot = matmulValues(in, newArray(flat), newArray(flat));
      Tensor r = sqrtOf(asTensor(in, dot).copy());
      if (keep) r = r.reshaped(Shape(x.rank(), 1));
      return scalarOrArray(r);
    }
  }
  if (auto *pair = b["axis"].as<TupleObject>(); pair && pair->items.size() == 2) {
    int64_t r = int64_t(x.rank()), p = in.toIndex(pair->items[0]), q = in.toIndex(pair->items[1]);
    if (p >= -r && p < r && q >= -r && q < r && (p + r) % r == (q + r) % r) in.raise("ValueError", "Duplicate axes given.");
  }
  std::vector<bool> mask = axisMask(in, b["axis"], x.rank());
  int64_t nAxes = 0;
  for (bool m : mask) nAxes += m;
  if (b.isNone("axis") && x.rank() > 2) in.raise("ValueError", "Improper number of dimensions to norm.");
  if (nAxes == 1 || (b.isNone("axis") && x.rank() == 1)) {
    if (ord.isNone() || (ord.isInt() && ord.asInt() == 2) || (ord.isFloat() && ord.asFloat() == 2.0))
      return scalarOrArray(sqrtOf(reduceArray(square(x), mask, ReduceOp::Sum, mem, keep)));
    if (ord.as<StrObject>()) in.raise("ValueError", fmt::format("Invalid norm order '{}' for vectors", in.str(ord)));
    double p = in.toFloat(ord);
    if (std::isinf(p)) return scalarOrArray(reduceArray(absolute(x), mask, p > 0 ? ReduceOp::Max : ReduceOp::Min, mem, keep));
    if (p == 1) return scalarOrArray(reduceArray(absolute(x), mask, ReduceOp::Sum, mem, keep));
    if (p == 0) {
      Tensor nz = cast(cast(x, DType::Bool), x.dtype());
      return scalarOrArray(reduceArray(nz, mask, ReduceOp::Sum, mem, keep));
    }
    // The general p-norm (sum |x|**p) ** (1/p): lib/numpy/_np_norm.tfs.
    Value axis = b.isNone("axis") ? in.tuple({Value::integer(0)}) : b["axis"];
    std::vector<Value> args{newArray(x), ord, axis, Value::boolean(keep)};
    return in.call(in.getAttr(importPreludeModule(in, "_np_norm"), "vector_norm"), args);
  }
  if (nAxes == 2) {
    if (ord.isNone() || (ord.as<StrObject>() && (in.str(ord) == "fro" || in.str(ord) == "f")))
      return scalarOrArray(sqrtOf(reduceArray(square(x), mask, ReduceOp::Sum, mem, keep)));
    // 1 / -1 / inf / -inf / 2 / -2 / 'nuc' (lib/numpy/_np_norm.tfs), with the
    // axes in the caller's order: (row, col).
    Value axis = b.isNone("axis") ? in.tuple({Value::integer(0), Value::integer(1)}) : b["axis"];
    std::vector<Value> args{newArray(x), ord, axis, Value::boolean(keep)};
    return in.call(in.getAttr(importPreludeModule(in, "_np_norm"), "matrix_norm"), args);
  }
  in.raise("ValueError", "Improper number of dimensions to norm.");
}

Value matrixPower(Interpreter &in, const Bound &b) {
  int64_t n, count;
  Tensor a = asTensor(in, b["a"]);
  squareStack(in, b["a"], n, count);
  int64_t p = in.toIndex(b["n"]);
  Value base = newArray(a);
  if (p < 0) {
    base = invValue(in, base);
    p = -p;
  }
  if (p == 0) {
    Tensor id = Tensor::empty(a.dtype(), a.shape());
    Tensor z = cast(Tensor::scalar(int64_t(0)), a.dtype()), one = cast(Tensor::scalar(int64_t(1)), a.dtype());
    for (int64_t i = 0; i < id.numElements(); ++i) {
      int64_t r = (i / n) % n, c = i % n;
      visitElementType(a.dtype(), [&](auto tag) {
        using T = decltype(tag);
        id.data<T>()[i] = r == c ? one.data<T>()[0] : z.data<T>()[0];
      });
    }
    return newArray(id);
  }
  // numpy's binary decomposition: result = z^(bits) products in order.
  Value result, z;
  bool first = true;
  while (p > 0) {
    z = z.isNone() ? base : matmulValues(in, z, z);
    int64_t bit = p & 1;
    p >>= 1;
    if (bit) {
      result = first ? z : matmulValues(in, result, z);
      first = false;
    }
  }
  return result;
}

// A result computed in double for float32 input, cast back (arrays, numpy
// scalars, tuples of them).
Value asFloat32(Interpreter &in, const Value &r) {
  if (auto *t = r.as<TupleObject>()) {
    std::vector<Value> items;
    for (const Value &x : t->items) items.push_back(asFloat32(in, x));
    return in.tuple(std::move(items));
  }
  TensorObject *a = ndarrayOf(r);
  if (!a || a->eager.dtype() != DType::Float64) return r;
  Tensor narrow = cast(a->eager, DType::Float32);
  return a->eager.rank() == 0 && !a->zeroDimArray ? scalarOrArray(narrow) : newArray(narrow);
}

}  // namespace

Defs linalgModuleFunctions() {
  Defs defs;
  auto add = [&](const char *sig, SignedFn fn) { defs.push_back({sig, std::move(fn)}); };
  addLstsqFunctions(defs);
  addQrEigFunctions(defs);
  add("inv(a)", inv);
  add("solve(a, b)", solve);
  add("det(a)", det);
  add("slogdet(a)", [](Interpreter &in, const Bound &b) {
    Tensor sign, logdet;
    slogdetStack(in, b["a"], sign, logdet);
    return in.tuple({scalarOrArray(sign), scalarOrArray(logdet)});
  });
  add("norm(x, ord=None, axis=None, keepdims=False)", norm);
  add("cholesky(a)", cholesky);
  add("eigh(a, UPLO='L')", [](Interpreter &in, const Bound &b) { return eigh(in, b, true); });
  add("eigvalsh(a, UPLO='L')", [](Interpreter &in, const Bound &b) { return eigh(in, b, false); });
  add("svd(a, full_matrices=True, compute_uv=True, hermitian=!False)", svd);
  add("matrix_power(a, n)", matrixPower);
  add("matrix_rank(A, tol=None, hermitian=!False)", [](Interpreter &in, const Bound &b) {
    Tensor a = asTensor(in, b["A"]);
    if (a.rank() < 2) {
      bool any = false;
      for (int64_t i = 0; i < a.numElements(); ++i) any |= a.elementAsDouble(i) != 0;
      return Value::integer(any);
    }
    Tensor u, s, vh;
    svdTensors(in, a, false, false, u, s, vh);
    double smax = 0;
    for (int64_t i = 0; i < s.numElements(); ++i) smax = std::max(smax, s.elementAsDouble(i));
    double eps = s.dtype() == DType::Float32 ? double(std::numeric_limits<float>::epsilon())
                                             : std::numeric_limits<double>::epsilon();
    double tol = b.isNone("tol") ? smax * double(std::max(a.shape()[0], a.shape()[1])) * eps : in.toFloat(b["tol"]);
    int64_t rank = 0;
    for (int64_t i = 0; i < s.numElements(); ++i) rank += s.elementAsDouble(i) > tol;
    return Value::integer(rank);
  });
  add("pinv(a, rcond=1e-15, hermitian=!False)", [](Interpreter &in, const Bound &b) {
    Tensor a = asTensor(in, b["a"]);
    Tensor u, s, vh;
    svdTensors(in, a, false, true, u, s, vh);
    double rcond = in.toFloat(b["rcond"]), smax = 0;
    for (int64_t i = 0; i < s.numElements(); ++i) smax = std::max(smax, s.elementAsDouble(i));
    Tensor sinv = s.copy();
    visitElementType(s.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        T cutoff = T(rcond) * T(smax);
        for (int64_t i = 0; i < s.numElements(); ++i) sinv.data<T>()[i] = s.data<T>()[i] > cutoff ? T(1) / s.data<T>()[i] : T(0);
      }
    });
    // matmul(vh.T, sinv[:, None] * u.T)
    Tensor ut = transposed(u, {1, 0});
    Tensor scaled = runKernel(ir::OpKind::Mul, std::vector<Tensor>{broadcastTo(sinv.reshaped({sinv.numElements(), 1}), ut.shape()), ut}, {})[0];
    return matmulValues(in, newArray(transposed(vh, {1, 0})), newArray(scaled));
  });
  // The LAPACK routines here are the real ones: a complex matrix is refused
  // by name (norm, built on products, takes complex arrays). The routines
  // that compute float32 input in double give float32 results, as numpy's
  // result_t.
  static const std::set<std::string> narrowed = {"inv", "solve", "det", "slogdet", "cholesky", "eigh", "eigvalsh"};
  for (Def &d : defs) {
    std::string sig = d.signature, name = sig.substr(0, sig.find('('));
    if (name == "norm") continue;
    std::string first = sig.substr(sig.find('(') + 1);
    first = first.substr(0, first.find_first_of(",)"));
    d.fn = [fn = d.fn, name, first](Interpreter &in, const Bound &b) {
      bool single = narrowed.count(name) > 0;
      for (const std::string &p : {first, std::string(name == "solve" ? "b" : "")}) {
        if (p.empty()) continue;
        DType t = asTensor(in, b[p]).dtype();
        if (ir::isComplex(t))
          in.raise("NotImplementedError", fmt::format("np.linalg.{} of a complex array is not supported by tfs", name));
        single = single && t == DType::Float32;
      }
      Value r = fn(in, b);
      return single ? asFloat32(in, r) : r;
    };
  }
  return defs;
}

Ref<ClassObject> numpyLinAlgError(Interpreter &in) { return linAlgErrorClass(in); }

void linAlgError(Interpreter &in, const std::string &msg) {
  in.raiseValue(in.newException(linAlgErrorClass(in), msg));
}

}  // namespace tfs::runtime::tf::numpy
