// numpy.random: numpy's legacy global RandomState, draw for draw.
//
// Scripts seed numpy (`np.random.seed(42)`) to make their data and initial
// weights reproducible, and what they print then depends on the exact
// numbers numpy draws. So this follows numpy's legacy generator rather than
// any random numbers: MT19937 seeded with init_genrand (std::mt19937 is the
// same generator with the same seeding), doubles from two 32-bit words
// (a>>5, b>>6), normals by the polar Box-Muller method with one cached value,
// bounded integers by masked rejection, shuffles by Fisher-Yates from the
// end. (numpy/random/_mt19937.pyx, mtrand.pyx, src/legacy/legacy-distributions.c
// and src/distributions/distributions.c describe these.)
//
// Not provided: default_rng / Generator (PCG64), array-valued distribution
// parameters, seeding with a sequence.
#include "runtime/kernels/kernels.h"
#include "lib/tf/tf_lib.h"

#include <cmath>
#include <fmt/format.h>
#include <random>
#include <cstring>

namespace tfs::runtime::tf {

namespace {

struct LegacyState {
  std::mt19937 mt{std::random_device{}()};
  bool hasGauss = false;
  double gauss = 0.0;

  void seed(uint32_t s) {
    mt.seed(s);
    hasGauss = false;
    gauss = 0.0;
  }
  uint32_t next32() { return uint32_t(mt()); }
  uint64_t next64() {
    uint64_t hi = next32();
    return hi << 32 | next32();
  }
  double nextDouble() {
    int32_t a = int32_t(next32() >> 5), b = int32_t(next32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  double nextGauss() {
    if (hasGauss) {
      hasGauss = false;
      return gauss;
    }
    double x1, x2, r2;
    do {
      x1 = 2.0 * nextDouble() - 1.0;
      x2 = 2.0 * nextDouble() - 1.0;
      r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);
    gauss = f * x1;
    hasGauss = true;
    return f * x2;
  }
  static uint64_t maskFor(uint64_t max) {
    uint64_t m = max;
    for (int s : {1, 2, 4, 8, 16, 32}) m |= m >> s;
    return m;
  }
  // A uniform integer in [0, max]: randint's masked rejection sampling.
  uint64_t bounded(uint64_t max) {
    if (max == 0) return 0;
    uint64_t mask = maskFor(max), v;
    if (max <= 0xFFFFFFFFull) {
      if (max == 0xFFFFFFFFull) return next32();
      while ((v = (next32() & mask)) > max) {}
    } else {
      if (max == ~uint64_t(0)) return next64();
      while ((v = (next64() & mask)) > max) {}
    }
    return v;
  }
};

LegacyState &state() {
  static LegacyState s;
  return s;
}

// `size`: None (one value), an int, or a tuple/list of ints.
std::optional<std::vector<int64_t>> sizeArg(Interpreter &in, const Value &size) {
  if (size.isNone()) return std::nullopt;
  std::vector<int64_t> dims;
  if (size.as<TupleObject>() || size.as<ListObject>())
    for (auto &d : in.toList(size)) dims.push_back(in.toIndex(d));
  else
    dims.push_back(in.toIndex(size));
  for (int64_t d : dims)
    if (d < 0) in.raise("ValueError", "negative dimensions are not allowed");
  return dims;
}

// rand(d0, d1, ...): dimensions as positional arguments (none: one value).
std::optional<std::vector<int64_t>> positionalDims(Interpreter &in, Args a) {
  if (a.empty()) return std::nullopt;
  std::vector<int64_t> dims;
  for (auto &d : a) {
    dims.push_back(in.toIndex(d));
    if (dims.back() < 0) in.raise("ValueError", "negative dimensions are not allowed");
  }
  return dims;
}

// Fills `count` doubles (a Python float when `dims` is absent).
Value doubles(const std::optional<std::vector<int64_t>> &dims, const std::function<double()> &draw) {
  if (!dims) return Value::real(draw());
  Tensor t = Tensor::empty(DType::Float64, *dims);
  double *p = t.data<double>();
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) p[i] = draw();
  return wrap(std::move(t), true);
}

double scalarParam(Interpreter &in, const Value &v, const char *fn, const char *param) {
  if (v.as<TensorObject>() || v.as<ListObject>() || v.as<TupleObject>())
    in.raise("NotImplementedError",
             fmt::format("numpy.random.{}: an array for '{}' is not supported by tfs (pass a number)", fn, param));
  return in.toFloat(v);
}

void shuffleInPlace(std::vector<Value> &items) {
  for (size_t i = items.size(); i-- > 1;) std::swap(items[i], items[state().bounded(i)]);
}

// Shuffles an array along its first axis (numpy permutes whole rows).
Tensor shuffledRows(const Tensor &src) {
  Tensor t = src.copy();
  if (t.rank() == 0 || t.shape()[0] < 2) return t;
  int64_t n = t.shape()[0];
  size_t row = size_t(t.numElements() / n) * ir::dtypeSize(t.dtype());
  auto *base = static_cast<uint8_t *>(t.rawData());
  std::vector<uint8_t> tmp(row);
  for (int64_t i = n - 1; i >= 1; --i) {
    int64_t j = int64_t(state().bounded(uint64_t(i)));
    if (j == i) continue;
    std::memcpy(tmp.data(), base + i * row, row);
    std::memcpy(base + i * row, base + j * row, row);
    std::memcpy(base + j * row, tmp.data(), row);
  }
  return t;
}

}  // namespace

void installNumpyRandom(Interpreter &in, ModuleObject &random) {
  auto def = [&](const char *name, NativeFn fn) { random.scope->vars[name] = in.native(name, std::move(fn)); };
  def("seed", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("seed", a, kw, {"seed"}, {Value()});
    if (args[0].isNone()) {
      state().seed(std::random_device{}());
      return Value();
    }
    if (!args[0].isInt() && !args[0].isBool())
      in.raise("TypeError", fmt::format("Cannot cast scalar from dtype('{}') to dtype('int64') according to the rule 'safe'",
                                        in.typeName(args[0]) == "float" ? "float64" : in.typeName(args[0])));
    int64_t s = args[0].asInt();
    if (s < 0 || s > 0xFFFFFFFFll) in.raise("ValueError", "Seed must be between 0 and 2**32 - 1");
    state().seed(uint32_t(s));
    return Value();
  });
  def("rand", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    return doubles(positionalDims(in, a), [] { return state().nextDouble(); });
  });
  def("randn", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    return doubles(positionalDims(in, a), [] { return state().nextGauss(); });
  });
  for (const char *name : {"random", "random_sample", "sample", "ranf"})
    def(name, [name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs(name, a, kw, {"size"}, {Value()});
      return doubles(sizeArg(in, args[0]), [] { return state().nextDouble(); });
    });
  def("standard_normal", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("standard_normal", a, kw, {"size"}, {Value()});
    return doubles(sizeArg(in, args[0]), [] { return state().nextGauss(); });
  });
  def("uniform", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("uniform", a, kw, {"low", "high", "size"}, {Value::real(0), Value::real(1), Value()});
    double low = scalarParam(in, args[0], "uniform", "low"), high = scalarParam(in, args[1], "uniform", "high");
    if (!std::isfinite(high - low)) in.raise("OverflowError", "Range exceeds valid bounds");
    return doubles(sizeArg(in, args[2]), [low, high] { return low + (high - low) * state().nextDouble(); });
  });
  def("normal", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("normal", a, kw, {"loc", "scale", "size"}, {Value::real(0), Value::real(1), Value()});
    double loc = scalarParam(in, args[0], "normal", "loc"), scale = scalarParam(in, args[1], "normal", "scale");
    if (scale < 0) in.raise("ValueError", "scale < 0");
    return doubles(sizeArg(in, args[2]), [loc, scale] { return loc + scale * state().nextGauss(); });
  });
  def("randint", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("randint", a, kw, {"low", "high", "size", "dtype"}, {std::nullopt, Value(), Value(), Value()});
    int64_t low = in.toInt(args[0]), high;
    if (args[1].isNone()) {
      high = low;
      low = 0;
    } else {
      high = in.toInt(args[1]);
    }
    if (low >= high) in.raise("ValueError", "low >= high");
    uint64_t range = uint64_t(high) - uint64_t(low) - 1;
    auto dims = sizeArg(in, args[2]);
    if (!dims) return Value::integer(int64_t(uint64_t(low) + state().bounded(range)));
    DType d = dtypeArg(in, args[3]).value_or(DType::Int64);
    if (d != DType::Int64 && d != DType::Int32)
      in.raise("TypeError", fmt::format("Unsupported dtype {} for randint", ir::dtypeName(d)));
    Tensor t = Tensor::empty(DType::Int64, *dims);
    int64_t *p = t.data<int64_t>();
    for (int64_t i = 0, n = t.numElements(); i < n; ++i) p[i] = int64_t(uint64_t(low) + state().bounded(range));
    if (d == DType::Int32) t = runKernel(ir::OpKind::Cast, std::vector<Tensor>{t}, ir::Attrs{{"dtype", DType::Int32}})[0];
    return wrap(std::move(t), true);
  });
  def("shuffle", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("shuffle", a, kw, {"x"}, {std::nullopt});
    if (auto *l = args[0].as<ListObject>()) {
      shuffleInPlace(l->items);
      return Value();
    }
    auto *t = args[0].as<TensorObject>();
    if (!t || !t->numpy || t->symbolic())
      in.raise("TypeError", fmt::format("numpy.random.shuffle: a list or numpy array is required, not {}", in.typeName(args[0])));
    t->eager = shuffledRows(t->eager);
    return Value();
  });
  def("permutation", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("permutation", a, kw, {"x"}, {std::nullopt});
    if (args[0].isInt()) {
      int64_t n = args[0].asInt();
      if (n < 0) in.raise("ValueError", "negative dimensions are not allowed");
      Tensor t = Tensor::empty(DType::Int64, {n});
      for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = i;
      return wrap(shuffledRows(t), true);
    }
    Tensor src = tensorFromPython(in, args[0], std::nullopt, true);
    if (auto *t = args[0].as<TensorObject>()) src = t->eager;
    if (src.rank() == 0) in.raise("IndexError", "x must be an integer or at least 1-dimensional");
    return wrap(shuffledRows(src), true);
  });
  def("choice", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("choice", a, kw, {"a", "size", "replace", "p"}, {std::nullopt, Value(), Value::boolean(true), Value()});
    if (!args[3].isNone()) in.raise("NotImplementedError", "numpy.random.choice with p= is not supported by tfs");
    Tensor pool;
    int64_t n;
    if (args[0].isInt()) {
      n = args[0].asInt();
      if (n <= 0) in.raise("ValueError", "a must be greater than 0 unless no samples are taken");
    } else {
      pool = args[0].as<TensorObject>() ? args[0].as<TensorObject>()->eager : tensorFromPython(in, args[0], std::nullopt, true);
      if (pool.rank() != 1) in.raise("ValueError", "a must be 1-dimensional");
      n = pool.shape()[0];
      if (n == 0) in.raise("ValueError", "'a' cannot be empty unless no samples are taken");
    }
    auto dims = sizeArg(in, args[1]);
    // The result tensor first: its allocation applies the memory budget
    // before anything of `size` elements is built.
    Tensor ids = Tensor::empty(DType::Int64, dims ? *dims : std::vector<int64_t>{});
    int64_t count = ids.numElements();
    int64_t *idx = ids.data<int64_t>();
    if (in.truth(args[2])) {
      for (int64_t i = 0; i < count; ++i) idx[i] = int64_t(state().bounded(uint64_t(n - 1)));
    } else {
      if (count > n) in.raise("ValueError", "Cannot take a larger sample than population when 'replace=False'");
      Tensor perm = Tensor::empty(DType::Int64, {n});
      for (int64_t i = 0; i < n; ++i) perm.data<int64_t>()[i] = i;
      perm = shuffledRows(perm);
      for (int64_t i = 0; i < count; ++i) idx[i] = perm.data<int64_t>()[i];
    }
    if (args[0].isInt()) return dims ? wrap(std::move(ids), true) : Value::integer(idx[0]);
    Tensor out = runKernel(ir::OpKind::Gather, std::vector<Tensor>{pool, ids}, ir::Attrs{{"axis", int64_t(0)}})[0];
    return wrap(std::move(out), true);
  });
}

}  // namespace tfs::runtime::tf
