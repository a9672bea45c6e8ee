// numpy.random's distribution parameters: conversion, constraints and
// broadcasting as numpy 1.24's cont() / disc() do them (np_random_params.h).
#include "lib/numpy/np_random_params.h"
#include "lib/numpy/np_generator.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace tfs::runtime::tf::numpy {

namespace {

// A shape as Python prints the tuple: numpy formats these messages from
// tuple objects ("(2, 3)", "(3,)"), not with its C shape text.
std::string tupleText(const Shape &shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

// A constraint as numpy tests it: conditions in order, each with its
// message. On an array each condition is tested over every element before
// the next one (numpy's np.any / np.all), which decides the message when
// elements break different conditions.
struct Violation {
  bool (*breaks)(double);
  std::string message;
};

std::vector<Violation> violations(const RandomParam &p, bool arrayPath) {
  std::string n = p.name;
  const char *nan = arrayPath ? "contains NaNs" : "is NaN";
  switch (p.constraint) {
  case Constraint::None: return {};
  case Constraint::NonNegative: return {{[](double v) { return !std::isnan(v) && std::signbit(v); }, n + " < 0"}};
  case Constraint::Positive: return {{[](double v) { return v <= 0; }, n + " <= 0"}};
  case Constraint::PositiveNotNan:
    return {{[](double v) { return std::isnan(v); }, n + " must not be NaN"}, {[](double v) { return v <= 0; }, n + " <= 0"}};
  case Constraint::Bounded01:
    return {{[](double v) { return !(v >= 0) || !(v <= 1); }, fmt::format("{0} < 0, {0} > 1 or {0} {1}", n, nan)}};
  case Constraint::BoundedGt01:
    return {{[](double v) { return !(v > 0) || !(v <= 1); }, fmt::format("{0} <= 0, {0} > 1 or {0} contains NaNs", n)}};
  case Constraint::BoundedLt01:
    return {{[](double v) { return !(v >= 0) || !(v < 1); }, fmt::format("{0} < 0, {0} >= 1 or {0} {1}", n, nan)}};
  case Constraint::Gt1: return {{[](double v) { return !(v > 1); }, fmt::format("{0} <= 1 or {0} {1}", n, nan)}};
  case Constraint::Gte1: return {{[](double v) { return !(v >= 1); }, fmt::format("{0} < 1 or {0} {1}", n, nan)}};
  case Constraint::Poisson: {
    auto tooLarge = [](double v) {
      const double maxInt = double(std::numeric_limits<int64_t>::max());
      return !(v <= maxInt - std::sqrt(maxInt) * 10);
    };
    Violation negative{[](double v) { return !(v >= 0); }, fmt::format("{0} < 0 or {0} {1}", n, nan)};
    Violation large{tooLarge, n + " value too large"};
    // numpy tests the bound first on arrays (so NaN is "too large" there)
    if (arrayPath) return {large, negative};
    return {negative, large};
  }
  }
  return {};
}

}  // namespace

void checkConstraint(Interpreter &in, double v, const RandomParam &p) {
  for (auto &violation : violations(p, false))
    if (violation.breaks(v)) in.raise("ValueError", violation.message);
}

void checkArrayConstraint(Interpreter &in, const Tensor &values, const RandomParam &p) {
  int64_t count = values.numElements();
  for (auto &violation : violations(p, true))
    for (int64_t k = 0; k < count; ++k) {
      double v = values.dtype() == DType::Int64 ? double(values.data<int64_t>()[k]) : values.data<double>()[k];
      if (violation.breaks(v)) in.raise("ValueError", violation.message);
    }
}

// The element of `t` at each position of `shape`, `t` broadcast to it.
std::vector<int64_t> broadcastPositions(const Tensor &t, const Shape &shape) {
  Shape strides(shape.size(), 0), own = cStrides(t.shape());
  for (size_t i = 0; i < t.rank(); ++i)
    if (t.shape()[i] != 1) strides[shape.size() - t.rank() + i] = own[i];
  return stridedPositions(shape, 0, strides);
}

Shape broadcastArgShapes(Interpreter &in, const std::vector<Shape> &shapes) {
  size_t nd = 0;
  for (auto &s : shapes) nd = std::max(nd, s.size());
  Shape out(nd, 1);
  for (size_t i = 0; i < nd; ++i) {
    size_t source = 0;
    for (size_t j = 0; j < shapes.size(); ++j) {
      int64_t k = int64_t(i) + int64_t(shapes[j].size()) - int64_t(nd);
      if (k < 0) continue;
      int64_t d = shapes[j][size_t(k)];
      if (d == 1) continue;
      if (out[i] == 1) {
        out[i] = d;
        source = j;
      } else if (out[i] != d) {
        in.raise("ValueError", fmt::format("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                           "between arg {} with shape {} and arg {} with shape {}.",
                                           source, tupleText(shapes[source]), j, tupleText(shapes[j])));
      }
    }
  }
  return out;
}

// triangular's checks, each over every element in turn as numpy's np.any.
std::vector<ParamCheck> triangularChecks() {
  return {[](Interpreter &in, const double *v) {
            if (v[0] > v[1]) in.raise("ValueError", "left > mode");
          },
          [](Interpreter &in, const double *v) {
            if (v[1] > v[2]) in.raise("ValueError", "mode > right");
          },
          [](Interpreter &in, const double *v) {
            if (v[0] == v[2]) in.raise("ValueError", "left == right");
          }};
}

namespace {

Tensor paramArray(Interpreter &in, const Value &v, const RandomParam &p) {
  return cast(asTensor(in, v), p.integer ? DType::Int64 : DType::Float64);
}

double elementAt(const Tensor &t, int64_t i) {
  return t.dtype() == DType::Int64 ? double(t.data<int64_t>()[i]) : t.data<double>()[i];
}

// Fills a tensor of `out` type through `store(i, values)`; returns the
// Python number for a scalar draw without size.
template <class T>
Value drawAll(Interpreter &in, const Bound &b, const std::vector<RandomParam> &params,
              const std::function<T(const double *)> &draw, const std::vector<ParamCheck> &checks, DType outType) {
  size_t n = params.size();
  std::vector<Tensor> arrays(n);
  bool scalar = true;
  for (size_t i = 0; i < n; ++i) {
    arrays[i] = paramArray(in, b[params[i].name], params[i]);
    scalar = scalar && arrays[i].rank() == 0;
  }
  auto dims = sizeOf(in, b["size"]);
  std::vector<double> values(n);
  if (scalar) {
    for (size_t i = 0; i < n; ++i) {
      values[i] = elementAt(arrays[i], 0);
      checkConstraint(in, values[i], params[i]);
    }
    for (auto &check : checks) check(in, values.data());
    if (!dims) return outType == DType::Int64 ? Value::integer(int64_t(draw(values.data()))) : Value::real(double(draw(values.data())));
    Tensor t = Tensor::empty(outType, *dims);
    T *p = t.data<T>();
    for (int64_t k = 0, count = t.numElements(); k < count; ++k) p[k] = draw(values.data());
    return newArray(std::move(t));
  }
  for (size_t i = 0; i < n; ++i) checkArrayConstraint(in, arrays[i], params[i]);
  std::vector<Shape> shapes;
  if (dims) shapes.push_back(*dims);
  for (auto &a : arrays) shapes.push_back(a.shape());
  Shape shape = broadcastArgShapes(in, shapes);
  if (dims && shape != *dims)
    in.raise("ValueError", fmt::format("Output size {} is not compatible with broadcast dimensions of inputs {}.",
                                       tupleText(*dims), tupleText(shape)));
  Tensor out = Tensor::empty(outType, shape);
  int64_t count = out.numElements();
  // each parameter's element offset for every output position
  std::vector<std::vector<int64_t>> offsets(n);
  for (size_t i = 0; i < n; ++i) offsets[i] = broadcastPositions(arrays[i], shape);
  auto load = [&](int64_t k) {
    for (size_t i = 0; i < n; ++i) values[i] = elementAt(arrays[i], offsets[i][size_t(k)]);
  };
  for (auto &check : checks)
    for (int64_t k = 0; k < count; ++k) {
      load(k);
      check(in, values.data());
    }
  T *p = out.data<T>();
  for (int64_t k = 0; k < count; ++k) {
    load(k);
    p[k] = draw(values.data());
  }
  return newArray(std::move(out));
}

}  // namespace

Value drawFloats(Interpreter &in, const Bound &b, const std::vector<RandomParam> &params,
                 const std::function<double(const double *)> &draw, const std::vector<ParamCheck> &checks) {
  return drawAll<double>(in, b, params, draw, checks, DType::Float64);
}

Value drawInts(Interpreter &in, const Bound &b, const std::vector<RandomParam> &params,
               const std::function<int64_t(const double *)> &draw, const std::vector<ParamCheck> &checks) {
  return drawAll<int64_t>(in, b, params, draw, checks, DType::Int64);
}

Value drawFloat32s(Interpreter &in, const Bound &b, const std::vector<RandomParam> &params,
                   const std::function<float(const double *)> &draw) {
  Value v = drawAll<float>(in, b, params, draw, {}, DType::Float32);
  // One draw (no size=, scalar parameters) is a Python float, as numpy's
  // float32 draws hand it out.
  if (auto *t = v.as<TensorObject>(); t && t->eager.rank() == 0 && !t->zeroDimArray)
    return Value::real(t->eager.elementAsDouble(0));
  return v;
}

}  // namespace tfs::runtime::tf::numpy
