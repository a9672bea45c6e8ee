// numpy.random: numpy's legacy global RandomState, draw for draw.
//
// Scripts seed numpy (`np.random.seed(42)`) to make their data and initial
// weights reproducible, and what they print then depends on the exact
// numbers numpy draws. So this follows numpy's legacy generator rather than
// any random numbers: MT19937 seeded with init_genrand (np_legacy_state.h),
// doubles from two 32-bit words
// (a>>5, b>>6), normals by the polar Box-Muller method with one cached value,
// bounded integers by masked rejection, shuffles by Fisher-Yates from the
// end. (numpy/random/_mt19937.pyx, mtrand.pyx, src/legacy/legacy-distributions.c
// and src/distributions/distributions.c describe these.)
//
// np.random.RandomState(seed) is the same generator with its own state.
// default_rng / Generator (PCG64) live in np_generator.cpp.
// Distribution parameters may be arrays, broadcast as numpy does
// (np_random_params.h). seed / get_state / set_state: np_random_state.cpp.
#include "lib/numpy/ndarray.h"
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/np_generator.h"
#include "lib/numpy/np_random_integers.h"
#include "lib/numpy/np_random_multivariate.h"
#include "lib/numpy/np_random_params.h"
#include "lib/numpy/np_random_state.h"
#include "lib/numpy/random_algorithms.h"
#include "lib/numpy/numpy_lib.h"
#include "runtime/kernels/kernels.h"

#include <cmath>
#include <fmt/format.h>
#include <random>
#include <cstring>

namespace tfs::runtime::tf {

using numpy::newArray;

namespace {

using numpy::LegacyState;

LegacyState &globalState() {
  static LegacyState s;
  return s;
}

// `size`: None (one value), an int, or a tuple/list of ints.
std::optional<std::vector<int64_t>> sizeArg(Interpreter &in, const Value &size) {
  if (size.isNone()) return std::nullopt;
  return numpy::shapeParam(in, size);
}

// rand(d0, d1, ...): dimensions as positional arguments (none: one value).
std::optional<std::vector<int64_t>> positionalDims(Interpreter &in, const std::vector<Value> &a) {
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
  return newArray(std::move(t));
}

// numpy's legacy shuffle: Fisher-Yates from the end with masked bounded draws;
// the permutation of the first-axis positions.
std::vector<int64_t> shuffledOrder(LegacyState &st, int64_t n) {
  std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) order[size_t(i)] = i;
  for (int64_t i = n - 1; i >= 1; --i) std::swap(order[size_t(i)], order[st.bounded(uint64_t(i))]);
  return order;
}

// The rows of src (first axis) in a shuffled order.
Tensor shuffledRows(LegacyState &st, const Tensor &src) {
  if (src.rank() == 0) return src.copy();
  int64_t n = src.shape()[0], row = n ? src.numElements() / n : 0;
  std::vector<int64_t> order = shuffledOrder(st, n), pos;
  pos.reserve(size_t(src.numElements()));
  for (int64_t r : order)
    for (int64_t k = 0; k < row; ++k) pos.push_back(r * row + k);
  return numpy::gather(src, src.shape(), pos);
}

// The draws random_algorithms.h's samplers take, from the legacy stream.
struct LegacyDraws {
  LegacyState &st;
  double uniform() { return st.nextDouble(); }
  double normal() { return st.nextGauss(); }
  double exponential() { return st.nextExponential(); }
};

using StateRef = std::shared_ptr<LegacyState>;

// RandomState's gamma, beta, poisson, binomial & co: numpy's algorithms on
// the MT19937 stream with polar Box-Muller normals and -log(1-U)
// exponentials (legacy-distributions.c), parameters checked as mtrand does.
void defineLegacyDistributions(Interpreter &in, ModuleObject &m, const StateRef &st) {
  auto def = [&](const char *sig, std::function<Value(Interpreter &, const Bound &, LegacyDraws &)> fn) {
    Value f = nativeWithSignature(in, sig, [st, fn](Interpreter &in, const Bound &b) {
      LegacyDraws draws{*st};
      return fn(in, b, draws);
    });
    m.scope->vars[f.as<NativeFunction>()->name] = f;
  };
  using C = numpy::Constraint;
  using numpy::drawFloats, numpy::drawInts;
  namespace sampling = numpy::sampling;
  def("standard_exponential(size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return doubles(sizeArg(in, b["size"]), [&d] { return d.exponential(); });
  });
  def("standard_gamma(shape, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"shape", C::NonNegative}}, [&d](const double *v) { return sampling::standardGamma(d, v[0]); });
  });
  def("gamma(shape, scale=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"shape", C::NonNegative}, {"scale", C::NonNegative}},
                      [&d](const double *v) { return v[1] * sampling::standardGamma(d, v[0]); });
  });
  def("beta(a, b, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"a", C::Positive}, {"b", C::Positive}},
                      [&d](const double *v) { return sampling::beta(d, v[0], v[1], /*legacy=*/true); });
  });
  def("chisquare(df, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"df", C::Positive}}, [&d](const double *v) { return 2.0 * sampling::standardGamma(d, v[0] / 2.0); });
  });
  def("lognormal(mean=0.0, sigma=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"mean"}, {"sigma", C::NonNegative}}, [&d](const double *v) { return std::exp(v[0] + v[1] * d.normal()); });
  });
  def("poisson(lam=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawInts(in, b, {{"lam", C::Poisson}}, [&d](const double *v) { return sampling::poisson(d, v[0]); });
  });
  def("binomial(n, p, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawInts(in, b, {{"p", C::Bounded01}, {"n", C::NonNegative, true}},
                    [&d](const double *v) { return sampling::binomialNoShortcut(d, v[0], int64_t(v[1])); });
  });
  def("negative_binomial(n, p, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawInts(in, b, {{"n", C::Positive}, {"p", C::Bounded01}}, [&d](const double *v) {
      return sampling::poisson(d, (1 - v[1]) / v[1] * sampling::standardGamma(d, v[0]));
    });
  });
  def("laplace(loc=0.0, scale=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"loc"}, {"scale", C::NonNegative}}, [&d](const double *v) { return sampling::laplace(d, v[0], v[1]); });
  });
  def("logistic(loc=0.0, scale=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"loc"}, {"scale", C::NonNegative}}, [&d](const double *v) { return sampling::logistic(d, v[0], v[1]); });
  });
  def("gumbel(loc=0.0, scale=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"loc"}, {"scale", C::NonNegative}}, [&d](const double *v) { return sampling::gumbel(d, v[0], v[1]); });
  });
  // The legacy forms (legacy-distributions.c), which differ from the Generator's.
  def("rayleigh(scale=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"scale", C::NonNegative}},
                      [&d](const double *v) { return v[0] * std::sqrt(-2.0 * std::log1p(-d.uniform())); });
  });
  def("weibull(a, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"a", C::NonNegative}},
                      [&d](const double *v) { return v[0] == 0.0 ? 0.0 : std::pow(d.exponential(), 1. / v[0]); });
  });
  def("pareto(a, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"a", C::Positive}}, [&d](const double *v) { return std::exp(d.exponential() / v[0]) - 1; });
  });
  def("power(a, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"a", C::Positive}}, [&d](const double *v) { return std::pow(1 - std::exp(-d.exponential()), 1. / v[0]); });
  });
  def("standard_t(df, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"df", C::Positive}}, [&d](const double *v) {
      double df = v[0], num = d.normal(), denom = sampling::standardGamma(d, df / 2);
      return std::sqrt(df / 2) * num / std::sqrt(denom);
    });
  });
  def("standard_cauchy(size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return doubles(sizeArg(in, b["size"]), [&d] {
      double num = d.normal();
      return num / d.normal();
    });
  });
  def("f(dfnum, dfden, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"dfnum", C::Positive}, {"dfden", C::Positive}}, [&d](const double *v) {
      double numerator = 2.0 * sampling::standardGamma(d, v[0] / 2.0) * v[1];
      return numerator / (2.0 * sampling::standardGamma(d, v[1] / 2.0) * v[0]);
    });
  });
  def("triangular(left, mode, right, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawFloats(in, b, {{"left"}, {"mode"}, {"right"}},
                      [&d](const double *v) { return sampling::triangular(d, v[0], v[1], v[2]); }, numpy::triangularChecks());
  });
  def("geometric(p, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawInts(in, b, {{"p", C::BoundedGt01}}, [&d](const double *v) {
      double p = v[0];
      if (p >= 0.333333333333333333333333) return sampling::geometricSearch(d, p);
      return sampling::truncateToInt64(std::ceil(std::log1p(-d.uniform()) / std::log(1 - p)));
    });
  });
  // legacy_random_zipf: rejection from X = floor(U**(-1/(a-1))), U = 1 - u,
  // retrying an X outside [1, 2**63-1] (numpy's int64 range).
  def("zipf(a, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return drawInts(in, b, {{"a", C::Gt1}}, [&in, &d](const double *v) {
      double am1 = v[0] - 1.0, base = std::pow(2.0, am1);
      // Past a = 1025, 2**(a-1) is inf, every acceptance test is NaN and
      // numpy's loop never ends: an error instead of numpy's hang.
      if (!std::isfinite(base))
        in.raise("ValueError", "a is too large: numpy's zipf sampler never returns for a >= 1025 (tfs refuses instead "
                               "of hanging)");
      while (true) {
        double u = 1.0 - d.uniform(), w = d.uniform();
        double x = std::floor(std::pow(u, -1.0 / am1));
        if (x > 9223372036854775807.0 || x < 1.0) continue;
        double t = std::pow(1.0 + 1.0 / x, am1);
        if (w * x * (t - 1.0) / (base - 1.0) <= t / base) return int64_t(x);
      }
    });
  });
  def("multinomial(n, pvals, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return numpy::multinomial(in, b["n"], b["pvals"], b["size"], /*legacy=*/true,
                              // numpy 1.24's legacy multinomial calls the Generator's binomial,
                              // which returns 0 for n == 0 or p == 0 without a draw
                              [&d](double p, int64_t n) { return n == 0 || p == 0.0 ? 0 : sampling::binomialNoShortcut(d, p, n); });
  });
  def("dirichlet(alpha, size=None)", [](Interpreter &in, const Bound &b, LegacyDraws &d) {
    return numpy::dirichlet(in, b["alpha"], b["size"], [&d](double a) { return sampling::standardGamma(d, a); }, nullptr);
  });
  for (const char *name : {"hypergeometric", "logseries", "noncentral_chisquare",
                           "noncentral_f", "vonmises", "wald"}) {
    std::string n = name;
    m.scope->vars[n] = in.native(n, [n](Interpreter &in, Args, const Kwargs &) -> Value {
      in.raise("NotImplementedError", fmt::format("numpy.random.{} is not supported by tfs", n));
    });
  }
}

void defineLegacy(Interpreter &in, ModuleObject &m, StateRef st) {
  auto def = [&](const char *sig, std::function<Value(Interpreter &, const Bound &, LegacyState &)> fn) {
    Value f = nativeWithSignature(in, sig, [st, fn](Interpreter &in, const Bound &b) { return fn(in, b, *st); });
    m.scope->vars[f.as<NativeFunction>()->name] = f;
  };
  numpy::defineLegacyStateMethods(in, m, st);
  def("rand(*args)", [](Interpreter &in, const Bound &b, LegacyState &st) {
    return doubles(positionalDims(in, b.varArgs()), [&st] { return st.nextDouble(); });
  });
  def("randn(*args)", [](Interpreter &in, const Bound &b, LegacyState &st) {
    return doubles(positionalDims(in, b.varArgs()), [&st] { return st.nextGauss(); });
  });
  for (const char *sig : {"random(size=None)", "random_sample(size=None)", "sample(size=None)", "ranf(size=None)"})
    def(sig, [](Interpreter &in, const Bound &b, LegacyState &st) {
      return doubles(sizeArg(in, b["size"]), [&st] { return st.nextDouble(); });
    });
  def("standard_normal(size=None)", [](Interpreter &in, const Bound &b, LegacyState &st) {
    return doubles(sizeArg(in, b["size"]), [&st] { return st.nextGauss(); });
  });
  def("uniform(low=0.0, high=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyState &st) {
    return numpy::drawFloats(in, b, {{"low"}, {"high"}}, [&st](const double *v) { return v[0] + (v[1] - v[0]) * st.nextDouble(); },
                             {[](Interpreter &in, const double *v) {
                               if (!std::isfinite(v[1] - v[0])) in.raise("OverflowError", "Range exceeds valid bounds");
                             }});
  });
  def("normal(loc=0.0, scale=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyState &st) {
    return numpy::drawFloats(in, b, {{"loc"}, {"scale", numpy::Constraint::NonNegative}},
                             [&st](const double *v) { return v[0] + v[1] * st.nextGauss(); });
  });
  def("exponential(scale=1.0, size=None)", [](Interpreter &in, const Bound &b, LegacyState &st) {
    return numpy::drawFloats(in, b, {{"scale", numpy::Constraint::NonNegative}},
                             [&st](const double *v) { return v[0] * st.nextExponential(); });
  });
  defineLegacyDistributions(in, m, st);
  def("randint(low, high=None, size=None, dtype=None)", [](Interpreter &in, const Bound &b, LegacyState &st) -> Value {
    numpy::WordSource words{[&st] { return st.next32(); }, [&st] { return st.next64(); }};
    return numpy::boundedIntegers(in, words, /*masked=*/true, b["low"], b["high"], b["size"], b["dtype"], /*endpoint=*/false,
                                  /*noneIsPythonInt=*/true, "randint");
  });
  // numpy: randint(0, 2**32, ceil(length / 4), uint32) as little-endian bytes, cut to length
  def("bytes(length)", [](Interpreter &in, const Bound &b, LegacyState &st) -> Value {
    int64_t length = in.toIndex(b["length"]);
    if (length < 0) in.raise("ValueError", "negative dimensions are not allowed");
    std::string out;
    // numpy's ((length - 1) // 4 + 1) words in C division: bytes(0) draws one
    for (int64_t i = 0, words = length == 0 ? 1 : (length - 1) / 4 + 1; i < words; ++i) {
      uint32_t word = st.next32();
      for (int k = 0; k < 4; ++k) out += char((word >> (8 * k)) & 0xFF);
    }
    out.resize(size_t(length));
    return Value(make<BytesObject>(std::move(out)));
  });
  def("shuffle(x)", [](Interpreter &in, const Bound &b, LegacyState &st) -> Value {
    if (auto *l = b["x"].as<ListObject>()) {
      for (size_t i = l->items.size(); i-- > 1;) std::swap(l->items[i], l->items[st.bounded(i)]);
      return Value();
    }
    auto *t = numpy::ndarrayOf(b["x"]);
    if (!t) in.raise("TypeError", fmt::format("numpy.random.shuffle: a list or numpy array is required, not {}",
                                              in.typeName(b["x"])));
    if (t->eager.rank() == 0) in.raise("TypeError", "object of type 'numpy.ndarray' has no len()");
    numpy::assignAll(in, *t, shuffledRows(st, t->eager));
    return Value();
  });
  def("permutation(x)", [](Interpreter &in, const Bound &b, LegacyState &st) -> Value {
    const Value &x = b["x"];
    if (x.isInt()) {
      int64_t n = x.asInt();
      if (n < 0) in.raise("ValueError", "negative dimensions are not allowed");
      Tensor t = Tensor::empty(DType::Int64, {n});
      for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = i;
      return newArray(shuffledRows(st, t));
    }
    Tensor src = numpy::asTensor(in, x);
    if (src.rank() == 0) in.raise("IndexError", "x must be an integer or at least 1-dimensional");
    // A str/bytes array stays one ('<U1', not object).
    return numpy::finishText(in, newArray(shuffledRows(st, src)), {numpy::textSource(in, x, src)});
  });
  def("choice(a, size=None, replace=True, p=None)", [](Interpreter &in, const Bound &b, LegacyState &st) -> Value {
    Tensor pool;
    int64_t n;
    const Value &a = b["a"];
    if (a.isInt()) {
      n = a.asInt();
      if (n <= 0) in.raise("ValueError", "a must be greater than 0 unless no samples are taken");
    } else {
      pool = numpy::asTensor(in, a);
      if (pool.rank() != 1) in.raise("ValueError", "a must be 1-dimensional");
      n = pool.shape()[0];
      if (n == 0) in.raise("ValueError", "'a' cannot be empty unless no samples are taken");
    }
    auto dims = sizeArg(in, b["size"]);
    // The result tensor first: its allocation applies the memory budget
    // before anything of `size` elements is built.
    Tensor ids = Tensor::empty(DType::Int64, dims ? *dims : std::vector<int64_t>{});
    int64_t count = ids.numElements();
    int64_t *idx = ids.data<int64_t>();
    bool replace = in.truth(b["replace"]);
    std::optional<std::vector<double>> weights;
    if (!b.isNone("p")) weights = numpy::choiceProbabilities(in, b["p"], n, /*legacy=*/true);
    if (weights && replace) {
      std::vector<double> cdf = numpy::normalizedCdf(*weights);
      for (int64_t i = 0; i < count; ++i) idx[i] = numpy::searchRight(cdf, st.nextDouble());
    } else if (weights) {
      if (count > n) in.raise("ValueError", "Cannot take a larger sample than population when 'replace=False'");
      std::vector<int64_t> found = numpy::distinctWeighted(in, [&st] { return st.nextDouble(); }, *weights, count);
      std::copy(found.begin(), found.end(), idx);
    } else if (replace) {
      for (int64_t i = 0; i < count; ++i) idx[i] = int64_t(st.bounded(uint64_t(n - 1)));
    } else {
      if (count > n) in.raise("ValueError", "Cannot take a larger sample than population when 'replace=False'");
      std::vector<int64_t> perm = shuffledOrder(st, n);
      for (int64_t i = 0; i < count; ++i) idx[i] = perm[size_t(i)];
    }
    if (a.isInt()) return dims ? newArray(std::move(ids)) : Value::integer(idx[0]);
    Tensor out = numpy::gather(pool, ids.shape(), std::vector<int64_t>(idx, idx + count));
    return numpy::finishText(in, dims ? newArray(std::move(out)) : wrap(std::move(out), true), {numpy::textSource(in, a, pool)});
  });
  numpy::defineLegacyIntegerExtras(in, m, st);
  // multivariate_normal is numpy's Python over np.linalg (_np_random_mvn.tfs)
  Value standardNormal = m.scope->vars["standard_normal"];
  m.scope->vars["multivariate_normal"] = nativeWithSignature(
      in, "multivariate_normal(mean, cov, size=None, check_valid='warn', tol=1e-8)",
      [standardNormal](Interpreter &in, const Bound &b) {
        Value helper = in.getAttr(importPreludeModule(in, "_np_random_mvn"), "legacy");
        return in.call(helper, std::vector<Value>{standardNormal, b["mean"], b["cov"], b["size"], b["check_valid"], b["tol"]});
      });
}

// np.random.RandomState(seed): the legacy generator with its own state; an
// instance of the class numpy.random.mtrand.RandomState.
struct RandomStateObject : numpy::MethodTableObject {
  Ref<ClassObject> klass;
  const char *typeName() const override { return "RandomState"; }
  ClassObject *cls() const override { return klass.get(); }
  std::optional<std::string> repr(Interpreter &) override {
    return fmt::format("RandomState(MT19937) at 0x{:X}", reinterpret_cast<uintptr_t>(this));
  }
  std::optional<std::string> str(Interpreter &) override { return "RandomState(MT19937)"; }
};

}  // namespace

void installNumpyRandom(Interpreter &in, ModuleObject &random) {
  // The global state is shared by every run of the process, as numpy's is.
  defineLegacy(in, random, StateRef(&globalState(), [](LegacyState *) {}));
  auto klass = make<ClassObject>();
  klass->name = "RandomState";
  klass->module = "numpy.random.mtrand";
  auto *object = in.builtin("object").as<ClassObject>();
  klass->bases = {Ref<ClassObject>(object)};
  klass->mro = {klass.get(), object};
  ClassObject *weak = klass.get();  // the class owns its constructor
  Value ctor = nativeWithSignature(in, "__init__(seed=None)", [weak](Interpreter &in, const Bound &b) {
    auto obj = make<RandomStateObject>();
    obj->klass = Ref<ClassObject>(weak);
    obj->methods = make<ModuleObject>("RandomState");
    defineLegacy(in, *obj->methods, std::make_shared<LegacyState>());
    in.call(obj->methods->scope->vars["seed"], std::vector<Value>{b["seed"]});
    return Value(obj);
  });
  klass->construct = [ctor](Interpreter &in, Args a, const Kwargs &kw) { return in.call(ctor, a, kw); };
  random.scope->vars["RandomState"] = Value(Ref<Object>(klass));
}

}  // namespace tfs::runtime::tf
