// numpy's array constructors: array / asarray / copy, zeros / ones / empty /
// full and their *_like forms, arange, linspace, eye / identity, diag,
// tril / triu. Values are computed the way numpy computes them (arange as
// start + i * delta with delta taken from the first two values, linspace as
// arange(num) * step + start with the last value set to stop) so floats
// print identically.
#include "ir/element_types.h"
#include "lib/numpy/ndarray.h"
#include "lib/numpy/ndarray_text.h"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

Tensor filled(Interpreter &in, const Shape &shape, DType d, const Tensor &value) {
  checkedCount(in, shape, d);
  return broadcastTo(cast(value, d).reshaped({}), shape);
}

void checkOrder(Interpreter &in, const Bound &a) {
  if (a.isNone("order")) return;
  std::string o = in.str(a["order"]);
  if (o != "C" && o != "K" && o != "A" && o != "F")
    in.raise("ValueError", "order must be one of 'C', 'F', 'A', or 'K' (got '" + o + "')");
  // Memory order does not change any value tfs computes or prints.
}

Value array(Interpreter &in, const Bound &a) {
  checkOrder(in, a);
  const Value &obj = a["object"];
  std::optional<DType> d = dtypeParam(in, a["dtype"]);
  TensorObject *src = ndarrayOf(obj);
  if (src && !in.truth(a["copy"]) && (!d || *d == src->eager.dtype()) && in.toInt(a["ndmin"]) <= int64_t(src->eager.rank()))
    return obj;
  int64_t ndmin = in.toInt(a["ndmin"]);
  if (std::optional<Value> mixed = mixedTextArray(in, obj, d)) {
    if (ndmin > int64_t(mixed->as<TensorObject>()->eager.rank()))
      in.raise("NotImplementedError", "np.array() argument 'ndmin' with strings mixed with numbers is not supported by tfs");
    return *mixed;
  }
  Tensor t = asTensor(in, obj, d);
  if (obj.as<TensorObject>() || obj.as<VariableObject>()) t = t.copy();  // never share the source's buffer
  if (int64_t(t.rank()) < ndmin) {
    Shape s(size_t(ndmin - int64_t(t.rank())), 1);
    s.insert(s.end(), t.shape().begin(), t.shape().end());
    t = t.reshaped(s);
  }
  return newArray(t);
}

Value asarray(Interpreter &in, const Bound &a) {
  checkOrder(in, a);
  std::optional<DType> d = dtypeParam(in, a["dtype"]);
  if (TensorObject *src = ndarrayOf(a["a"]); src && (!d || *d == src->eager.dtype()) &&
                                              (src->eager.rank() > 0 || src->zeroDimArray))
    return a["a"];
  if (std::optional<Value> mixed = mixedTextArray(in, a["a"], d)) return *mixed;
  return newArray(asTensor(in, a["a"], d));
}

Value constantArray(Interpreter &in, const Bound &a, double value) {
  checkOrder(in, a);
  Shape shape = shapeParam(in, a["shape"]);
  DType d = dtypeParam(in, a["dtype"]).value_or(DType::Float64);
  return newArray(filled(in, shape, d, Tensor::fromDoubles(DType::Float64, {}, {value})));
}

Value full(Interpreter &in, const Bound &a) {
  checkOrder(in, a);
  Shape shape = shapeParam(in, a["shape"]);
  Tensor v = asTensor(in, a["fill_value"]);
  DType d = dtypeParam(in, a["dtype"]).value_or(v.dtype());
  if (v.rank() > 0) {
    if (broadcastShapes(in, {v.shape(), shape}) != shape)
      in.raise("ValueError", fmt::format("could not broadcast input array from shape {} into shape {}",
                                         shapeText(v.shape()), shapeText(shape)));
    checkedCount(in, shape, d);
    return newArray(broadcastTo(cast(v, d), shape));
  }
  return newArray(filled(in, shape, d, v));
}

Value likeArray(Interpreter &in, const Bound &a, std::optional<Tensor> value) {
  checkOrder(in, a);
  Tensor proto = asTensor(in, a["a"]);
  Shape shape = a.isNone("shape") ? proto.shape() : shapeParam(in, a["shape"]);
  DType d = dtypeParam(in, a["dtype"]).value_or(proto.dtype());
  Tensor v = value ? *value : asTensor(in, a["fill_value"]);
  if (v.dtype() == DType::String && d != DType::String) in.raise("ValueError", "could not convert string to float");
  return newArray(filled(in, shape, d, v));
}

// numpy's arange: length ceil((stop - start) / step); element i is
// start + i * delta, delta being (start + step) - start in the result type.
Value arange(Interpreter &in, const Bound &a) {
  Value start = a["start"], stop = a["stop"], step = a["step"];
  if (stop.isNone()) {
    stop = start;
    start = Value::integer(0);
  }
  if (step.isNone()) step = Value::integer(1);
  std::optional<DType> requested = dtypeParam(in, a["dtype"]);
  DType d = requested.value_or(resultType(in, {start, stop, step}));
  if (d == DType::String) in.raise("TypeError", "arange() not supported for inputs with DType <class 'numpy.dtype[str_]'>");
  bool integral = ir::isInteger(d) || d == DType::Bool;
  bool intInputs = !ir::isFloating(resultType(in, {start, stop, step}));
  int64_t n;
  if (intInputs) {
    int64_t b = in.toInt(start), e = in.toInt(stop), s = in.toInt(step);
    if (s == 0) in.raise("ZeroDivisionError", "division by zero");
    __int128 len = s > 0 ? (__int128(e) - b + s - 1) / s : (__int128(b) - e - s - 1) / (-s);
    n = len > 0 ? int64_t(len) : 0;
    checkedCount(in, {n}, d);
    Tensor t = Tensor::empty(d, {n});
    numpy::visitElementType(d, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (!std::is_same_v<T, std::string>)
        for (int64_t i = 0; i < n; ++i) t.data<T>()[i] = T(b + i * s);
    });
    return newArray(t);
  }
  double b = in.toFloat(start), e = in.toFloat(stop), s = in.toFloat(step);
  if (s == 0) in.raise("ZeroDivisionError", "division by zero");
  double len = std::ceil((e - b) / s);
  if (std::isnan(len)) in.raise("ValueError", "arange: cannot compute length");
  if (len > 9.2e18) in.raise("ValueError", "Maximum allowed size exceeded");
  n = len > 0 ? int64_t(len) : 0;
  checkedCount(in, {n}, d);
  Tensor t = Tensor::empty(d, {n});
  numpy::visitElementType(d, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, std::string>) {
      if (integral) {
        T first = ir::numericCast<double, T>(b), second = ir::numericCast<double, T>(b + s);
        T delta = T(second - first);
        for (int64_t i = 0; i < n; ++i) t.data<T>()[i] = T(first + T(i) * delta);
      } else {
        T first = T(b), second = T(T(b) + T(s));
        T delta = T(second - first);
        for (int64_t i = 0; i < n; ++i) t.data<T>()[i] = T(first + T(i) * delta);
      }
    }
  });
  return newArray(t);
}

// numpy computes linspace in result_type(start * 1.0, stop * 1.0, float):
// float64, or float32 / float16 when an array (not a scalar) of that type
// is given.
DType linspaceDType(const Value &start, const Value &stop, const Tensor &s, const Tensor &e) {
  std::optional<DType> d;
  for (auto [v, t] : {std::pair<const Value *, const Tensor *>{&start, &s}, {&stop, &e}}) {
    TensorObject *arr = ndarrayOf(*v);
    if (!arr || t->rank() == 0) continue;  // scalars do not decide the type
    DType k = ir::isFloating(t->dtype()) || ir::isComplex(t->dtype()) ? t->dtype() : DType::Float64;
    d = d ? promoteTypes(*d, k) : k;
  }
  if (!d || (*d != DType::Float32 && *d != DType::Float16)) return DType::Float64;
  return *d;
}

// y[i, ...] = i * step + start (or i / div * delta + start when a step is
// 0), the last row set to stop, as numpy's linspace does elementwise.
template <class T> double asDouble(T v) { return double(static_cast<float>(v)); }
template <> double asDouble<double>(double v) { return v; }

// y[i, ...] = i * step + start (or i / div * delta + start when a step is
// 0), the last row set to stop, as numpy's linspace does elementwise, each
// operation rounded to T.
template <class T>
std::vector<double> linspaceValues(const Tensor &s, const Tensor &e, int64_t num, bool endpoint,
                                   std::vector<double> &stepsOut) {
  int64_t m = s.numElements(), div = endpoint ? num - 1 : num;
  auto at = [](const Tensor &t, int64_t k) { return T(t.elementAsDouble(k)); };
  std::vector<T> delta(size_t(m), T(0.0)), steps(size_t(m), T(NAN));
  bool anyZero = false;
  for (int64_t k = 0; k < m; ++k) {
    delta[size_t(k)] = T(at(e, k) - at(s, k));
    if (div > 0) steps[size_t(k)] = T(delta[size_t(k)] / T(double(div)));
    anyZero |= div > 0 && steps[size_t(k)] == T(0.0);
  }
  std::vector<double> y(size_t(num * m));
  for (int64_t i = 0; i < num; ++i)
    for (int64_t k = 0; k < m; ++k) {
      T v = T(double(i));
      if (div > 0) v = anyZero ? T(T(v / T(double(div))) * delta[size_t(k)]) : T(v * steps[size_t(k)]);
      else v = T(v * delta[size_t(k)]);
      y[size_t(i * m + k)] = asDouble<T>(T(v + at(s, k)));
    }
  if (endpoint && num > 1)
    for (int64_t k = 0; k < m; ++k) y[size_t((num - 1) * m + k)] = asDouble<T>(at(e, k));
  for (const T &v : steps) stepsOut.push_back(asDouble<T>(v));
  return y;
}

Value linspace(Interpreter &in, const Bound &a) {
  int64_t num = in.toIndex(a["num"]);
  if (num < 0) in.raise("ValueError", fmt::format("Number of samples, {}, must be non-negative.", num));
  Tensor start = asTensor(in, a["start"]), stop = asTensor(in, a["stop"]);
  if (ir::isComplex(start.dtype()) || ir::isComplex(stop.dtype()))
    in.raise("NotImplementedError", "linspace() of complex start/stop is not supported by tfs");
  // Array ends broadcast together; the samples run along a new axis `axis`.
  Shape shape = broadcastShapes(in, {start.shape(), stop.shape()});
  start = broadcastTo(start, shape).copy();
  stop = broadcastTo(stop, shape).copy();
  int64_t nd = int64_t(shape.size()) + 1;
  int64_t axis = in.toInt(a["axis"]);
  if (axis < -nd || axis >= nd)
    in.raiseValue(in.newException(axisErrorClass(in), fmt::format("destination: axis {} is out of bounds for array of "
                                                                  "dimension {}", axis, nd)));  // numpy's moveaxis says so
  if (axis < 0) axis += nd;
  bool endpoint = in.truth(a["endpoint"]);
  DType work = linspaceDType(a["start"], a["stop"], start, stop);
  std::vector<double> steps;
  std::vector<double> y = work == DType::Float32   ? linspaceValues<float>(start, stop, num, endpoint, steps)
                          : work == DType::Float16 ? linspaceValues<ir::half>(start, stop, num, endpoint, steps)
                                                   : linspaceValues<double>(start, stop, num, endpoint, steps);
  DType d = dtypeParam(in, a["dtype"]).value_or(work);
  if (ir::isInteger(d))
    for (double &v : y) v = std::floor(v);
  Shape full{num};
  full.insert(full.end(), shape.begin(), shape.end());
  Tensor t = cast(Tensor::fromDoubles(work, full, y), d);
  if (axis != 0) {
    std::vector<int64_t> perm;
    for (int64_t k = 1; k <= axis; ++k) perm.push_back(k);
    perm.push_back(0);
    for (int64_t k = axis + 1; k < nd; ++k) perm.push_back(k);
    t = transposed(t, perm);
  }
  if (!in.truth(a["retstep"])) return newArray(t);
  Value step = shape.empty() ? Value::real(steps[0]) : newArray(Tensor::fromDoubles(work, shape, steps));
  return in.tuple({newArray(t), step});
}

Value eye(Interpreter &in, const Bound &a) {
  checkOrder(in, a);
  int64_t n = in.toIndex(a["N"]), m = a.isNone("M") ? n : in.toIndex(a["M"]), k = in.toIndex(a["k"]);
  if (n < 0 || m < 0) in.raise("ValueError", "negative dimensions are not allowed");
  DType d = dtypeParam(in, a["dtype"]).value_or(DType::Float64);
  checkedCount(in, {n, m}, d);
  std::vector<double> v(size_t(n * m), 0.0);
  for (int64_t i = 0; i < n; ++i)
    if (i + k >= 0 && i + k < m) v[size_t(i * m + i + k)] = 1.0;
  return newArray(Tensor::fromDoubles(d, {n, m}, v));
}

Value diag(Interpreter &in, const Bound &a) {
  Tensor v = asTensor(in, a["v"]);
  int64_t k = in.toIndex(a["k"]);
  if (v.rank() == 1) {
    int64_t n = v.shape()[0] + std::llabs(k);
    Tensor out = Tensor::empty(v.dtype(), {n, n});
    Tensor zero = cast(Tensor::scalar(int64_t(0)), v.dtype());
    std::vector<int64_t> pos(size_t(n * n), -1);
    for (int64_t i = 0; i < v.shape()[0]; ++i) pos[size_t((k >= 0 ? i : i - k) * n + (k >= 0 ? i + k : i))] = i;
    numpy::visitElementType(v.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for (size_t i = 0; i < pos.size(); ++i) out.data<T>()[i] = pos[i] < 0 ? zero.data<T>()[0] : v.data<T>()[pos[i]];
    });
    return newArray(out);
  }
  if (v.rank() != 2) in.raise("ValueError", "Input must be 1- or 2-d.");
  int64_t rows = v.shape()[0], cols = v.shape()[1];
  std::vector<int64_t> pos;
  for (int64_t i = 0; i < rows; ++i)
    if (i + k >= 0 && i + k < cols) pos.push_back(i * cols + i + k);
  return newArray(gather(v, {int64_t(pos.size())}, pos));
}

// tril / triu: elements above (below) the k-th diagonal set to zero.
Value triangle(Interpreter &in, const Bound &a, bool lower) {
  Tensor m = asTensor(in, a["m"]);
  int64_t k = in.toIndex(a["k"]);
  // numpy masks with tri(*m.shape[-2:]): a 1-d m of n elements broadcasts
  // against the n x n mask (each row is m); a 0-d one leaves tri() no N.
  if (m.rank() == 0) in.raise("TypeError", "tri() missing 1 required positional argument: 'N'");
  if (m.rank() == 1) m = broadcastTo(m, {m.shape()[0], m.shape()[0]});
  Tensor out = m.copy();
  int64_t rows = m.shape()[m.rank() - 2], cols = m.shape()[m.rank() - 1];
  numpy::visitNumeric(in, m.dtype(), "tril", [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < out.numElements(); ++i) {
      int64_t c = i % cols, r = (i / cols) % rows;
      bool keep = lower ? c - r <= k : c - r >= k;
      if (!keep) out.data<T>()[i] = T(0);
    }
  });
  return newArray(out);
}

// np.frombuffer: the bytes of a bytes-like object read as elements of dtype
// (a read-only array, as numpy's shares the immutable buffer).
Value frombuffer(Interpreter &in, const Bound &a) {
  auto *b = a["buffer"].as<BytesObject>();
  if (!b) in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(a["buffer"])));
  DType d = dtypeParam(in, a["dtype"]).value_or(DType::Float64);
  if (d == DType::String) in.raise("NotImplementedError", "np.frombuffer of string dtypes is not supported by tfs");
  int64_t size = int64_t(ir::dtypeSize(d)), offset = in.toInt(a["offset"]), count = in.toInt(a["count"]);
  int64_t total = int64_t(b->s.size());
  if (offset < 0 || offset > total)
    in.raise("ValueError", fmt::format("offset must be non-negative and no greater than buffer length ({})", total));
  int64_t avail = total - offset;
  if (count < 0) {
    if (avail % size != 0) in.raise("ValueError", "buffer size must be a multiple of element size");
    count = avail / size;
  } else if (count * size > avail) {
    in.raise("ValueError", "buffer is smaller than requested size");
  }
  Tensor t = Tensor::empty(d, {count});
  if (count > 0) std::memcpy(t.rawData(), b->s.data() + offset, size_t(count * size));
  if (d == DType::Bool)
    for (int64_t i = 0; i < count; ++i) t.data<bool>()[i] = b->s[size_t(offset + i)] != 0;
  Value arr = newArray(t);
  Value view = makeView(*arr.as<TensorObject>(), {count}, 0, {1});
  view.as<TensorObject>()->view->writeable = false;
  return view;
}

}  // namespace

void addCreationFunctions(Defs &defs) {
  defs.push_back({"frombuffer(buffer, dtype=None, count=-1, offset=0, *, like=!None)", frombuffer});
  auto add = [&](const char *sig, SignedFn fn) { defs.push_back({sig, std::move(fn)}); };
  add("array(object, dtype=None, *, copy=True, order='K', subok=!False, ndmin=0, like=!None)", array);
  add("asarray(a, dtype=None, order=None, *, like=!None)", asarray);
  add("asanyarray(a, dtype=None, order=None, *, like=!None)", asarray);
  add("ascontiguousarray(a, dtype=None, *, like=!None)", [](Interpreter &in, const Bound &a) {
    std::optional<DType> d = dtypeParam(in, a["dtype"]);
    TensorObject *src = ndarrayOf(a["a"]);
    if (src && (!d || *d == src->eager.dtype()) && isCContiguous(*src) && src->eager.rank() > 0) return a["a"];
    Tensor t = asTensor(in, a["a"], d);
    return newArray(t.rank() == 0 ? t.reshaped({1}) : t.copy());
  });
  add("copy(a, order='K', subok=!False)", [](Interpreter &in, const Bound &a) {
    checkOrder(in, a);
    return newArray(asTensor(in, a["a"]).copy());
  });
  add("zeros(shape, dtype=None, order='C', *, like=!None)",
      [](Interpreter &in, const Bound &a) { return constantArray(in, a, 0.0); });
  add("ones(shape, dtype=None, order='C', *, like=!None)",
      [](Interpreter &in, const Bound &a) { return constantArray(in, a, 1.0); });
  // numpy leaves empty() uninitialized; tfs gives zeros (no garbage to print).
  add("empty(shape, dtype=None, order='C', *, like=!None)",
      [](Interpreter &in, const Bound &a) { return constantArray(in, a, 0.0); });
  add("full(shape, fill_value, dtype=None, order='C', *, like=!None)", full);
  add("zeros_like(a, dtype=None, order='K', subok=!True, shape=None)",
      [](Interpreter &in, const Bound &a) { return likeArray(in, a, Tensor::scalar(int64_t(0))); });
  add("ones_like(a, dtype=None, order='K', subok=!True, shape=None)",
      [](Interpreter &in, const Bound &a) { return likeArray(in, a, Tensor::scalar(int64_t(1))); });
  add("empty_like(prototype, dtype=None, order='K', subok=!True, shape=None)", [](Interpreter &in, const Bound &a) {
    checkOrder(in, a);
    Tensor proto = asTensor(in, a["prototype"]);
    Shape shape = a.isNone("shape") ? proto.shape() : shapeParam(in, a["shape"]);
    DType d = dtypeParam(in, a["dtype"]).value_or(proto.dtype());
    return newArray(filled(in, shape, d, Tensor::scalar(int64_t(0))));
  });
  add("full_like(a, fill_value, dtype=None, order='K', subok=!True, shape=None)",
      [](Interpreter &in, const Bound &a) { return likeArray(in, a, std::nullopt); });
  add("arange(start, stop=None, step=None, dtype=None, *, like=!None)", arange);
  add("linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0)", linspace);
  add("eye(N, M=None, k=0, dtype=None, order='C', *, like=!None)", eye);
  add("identity(n, dtype=None, *, like=!None)", [](Interpreter &in, const Bound &a) {
    int64_t n = in.toIndex(a["n"]);
    if (n < 0) in.raise("ValueError", "negative dimensions are not allowed");
    DType d = dtypeParam(in, a["dtype"]).value_or(DType::Float64);
    checkedCount(in, {n, n}, d);
    std::vector<double> v(size_t(n * n), 0.0);
    for (int64_t i = 0; i < n; ++i) v[size_t(i * n + i)] = 1.0;
    return newArray(Tensor::fromDoubles(d, {n, n}, v));
  });
  add("diag(v, k=0)", diag);
  add("tril(m, k=0)", [](Interpreter &in, const Bound &a) { return triangle(in, a, true); });
  add("triu(m, k=0)", [](Interpreter &in, const Bound &a) { return triangle(in, a, false); });
}

}  // namespace tfs::runtime::tf::numpy
