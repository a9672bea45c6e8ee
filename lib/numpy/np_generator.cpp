// numpy.random.default_rng: numpy 1.24's Generator over PCG64, draw for draw.
//
// Seeding is numpy's SeedSequence: the seed's 32-bit words hashed into a
// pool of four words, four 64-bit words generated from the pool, and
// PCG64's 128-bit state and increment set from them (pcg_setseq_128 with
// its two steps). PCG64 outputs XSL-RR of the stepped state; 32-bit draws
// use both halves of a 64-bit draw (low first). On that stream: random()
// is (u64 >> 11) / 2**53; integers() is Lemire's multiply-and-reject on
// 32-bit draws when the range fits 32 bits (64-bit draws otherwise);
// shuffle/permutation swap from the end with masked rejection draws;
// choice without replacement uses Floyd's algorithm or a tail shuffle as
// numpy picks them. The non-uniform distributions are bound in
// np_generator_distributions.cpp; those tfs lacks raise NotImplementedError.
#include "lib/numpy/np_generator.h"
#include "lib/numpy/ndarray_text.h"
#include "lib/numpy/np_random_integers.h"
#include "lib/numpy/np_random_multivariate.h"
#include "lib/numpy/np_random_params.h"
#include "lib/numpy/numpy_lib.h"

#include <cmath>
#include <fmt/format.h>
#include <random>

namespace tfs::runtime::tf::numpy {

namespace {

// numpy's SeedSequence(entropy).generate_state(4, uint64) for PCG64.
void seedFromEntropy(Pcg64 &rng, const std::vector<uint32_t> &entropy) {
  constexpr uint32_t initA = 0x43b0d7e5, multA = 0x931e8875, initB = 0x8b51f9dd, multB = 0x58f38ded;
  constexpr uint32_t mixL = 0xca01f9dd, mixR = 0x4973f715;
  uint32_t hashConst = initA;
  auto hashmix = [&](uint32_t v) {
    v ^= hashConst;
    hashConst *= multA;
    v *= hashConst;
    return v ^ (v >> 16);
  };
  auto mix = [](uint32_t x, uint32_t y) {
    uint32_t r = mixL * x - mixR * y;
    return r ^ (r >> 16);
  };
  uint32_t pool[4];
  for (size_t i = 0; i < 4; ++i) pool[i] = hashmix(i < entropy.size() ? entropy[i] : 0);
  for (size_t src = 0; src < 4; ++src)
    for (size_t dst = 0; dst < 4; ++dst)
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
  for (size_t src = 4; src < entropy.size(); ++src)
    for (size_t dst = 0; dst < 4; ++dst) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
  uint32_t words[8];
  uint32_t h = initB;
  for (size_t i = 0; i < 8; ++i) {
    uint32_t v = pool[i % 4] ^ h;
    h *= multB;
    v *= h;
    words[i] = v ^ (v >> 16);
  }
  uint64_t w[4];
  for (size_t i = 0; i < 4; ++i) w[i] = uint64_t(words[2 * i]) | uint64_t(words[2 * i + 1]) << 32;
  rng.seed((u128(w[0]) << 64) | w[1], (u128(w[2]) << 64) | w[3]);
}

// An int seed (or a sequence of them) as SeedSequence's 32-bit words.
void appendWords(Interpreter &in, const Value &v, std::vector<uint32_t> &out) {
  if (!v.isInt() && !v.isBool()) {
    if (auto *t = ndarrayOf(v); t && t->eager.rank() == 0 && ir::isInteger(t->eager.dtype())) {
      appendWords(in, Value::integer(t->eager.elementAsInt(0)), out);
      return;
    }
    if (v.as<ListObject>() || v.as<TupleObject>() || ndarrayOf(v)) {
      for (auto &item : in.toList(v)) appendWords(in, item, out);
      return;
    }
    in.raise("TypeError", fmt::format("SeedSequence expects int or sequence of ints for entropy not {}", in.repr(v)));
  }
  int64_t s = v.asInt();
  if (s < 0) in.raise("ValueError", "expected non-negative integer");
  uint64_t u = uint64_t(s);
  out.push_back(uint32_t(u));
  if (u >> 32) out.push_back(uint32_t(u >> 32));
}

// numpy.random.PCG64: the bit generator a Generator draws from (shared,
// as numpy's Generator keeps a reference to its bit generator).
struct Pcg64Object : Object {
  std::shared_ptr<Pcg64> rng = std::make_shared<Pcg64>();
  Ref<ClassObject> klass;
  const char *typeName() const override { return "PCG64"; }
  ClassObject *cls() const override { return klass.get(); }
  std::optional<std::string> repr(Interpreter &) override {
    return fmt::format("<numpy.random._pcg64.PCG64 object at 0x{:x}>", reinterpret_cast<uintptr_t>(this));
  }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    for (const char *missing : {"state", "advance", "jumped", "random_raw", "seed_seq", "lock", "ctypes", "cffi"})
      if (name == missing) in.raise("NotImplementedError", fmt::format("numpy.random.PCG64.{} is not supported by tfs", name));
    return std::nullopt;
  }
};

struct GeneratorObject : MethodTableObject {
  Ref<Pcg64Object> bitGenerator;
  Ref<ClassObject> klass;
  const char *typeName() const override { return "Generator"; }
  ClassObject *cls() const override { return klass.get(); }
  std::optional<std::string> repr(Interpreter &) override {
    return fmt::format("Generator(PCG64) at 0x{:X}", reinterpret_cast<uintptr_t>(this));
  }
  std::optional<std::string> str(Interpreter &) override { return "Generator(PCG64)"; }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "bit_generator") return Value(Ref<Object>(bitGenerator));
    return MethodTableObject::getAttr(in, name);
  }
};

// The first-axis order after numpy's shuffle of n rows.
std::vector<int64_t> shuffledOrder(Pcg64 &rng, int64_t n) {
  std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) order[size_t(i)] = i;
  for (int64_t i = n - 1; i >= 1; --i) std::swap(order[size_t(i)], order[size_t(rng.interval(uint64_t(i)))]);
  return order;
}

// The slices of `src` along `axis` picked by `idx` (of shape `idxShape`,
// which takes that axis's place): numpy's a.take(idx, axis=axis).
Tensor takeAlong(const Tensor &src, int64_t axis, const std::vector<int64_t> &idx, const Shape &idxShape) {
  const Shape &shape = src.shape();
  int64_t outer = 1, inner = 1, n = shape[size_t(axis)];
  for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  Shape result(shape.begin(), shape.begin() + axis);
  result.insert(result.end(), idxShape.begin(), idxShape.end());
  result.insert(result.end(), shape.begin() + axis + 1, shape.end());
  std::vector<int64_t> pos;
  pos.reserve(size_t(outer) * idx.size() * size_t(inner));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k : idx)
      for (int64_t i = 0; i < inner; ++i) pos.push_back((o * n + k) * inner + i);
  return gather(src, result, pos);
}

// numpy's choice(replace=False) without p: `size` distinct indices of [0, pop).
std::vector<int64_t> distinctIndices(Pcg64 &rng, int64_t pop, int64_t size, bool shuffle) {
  std::vector<int64_t> idx;
  int64_t cutoff = shuffle ? 50 : 20;
  if (pop > 10000 && size > pop / cutoff) {
    // a shuffle of the tail `size` positions of arange(pop)
    std::vector<int64_t> all(static_cast<size_t>(pop));
    for (int64_t i = 0; i < pop; ++i) all[size_t(i)] = i;
    for (int64_t i = pop - 1; i >= std::max<int64_t>(pop - size, 1); --i)
      std::swap(all[size_t(i)], all[size_t(rng.bounded(uint64_t(i)))]);
    return std::vector<int64_t>(all.end() - size, all.end());
  }
  // Floyd's algorithm with an open-addressing set
  uint64_t mask = uint64_t(1.2 * double(size));
  for (int s : {1, 2, 4, 8, 16, 32}) mask |= mask >> s;
  std::vector<uint64_t> set(mask + 1, ~uint64_t(0));
  idx.resize(size_t(size));
  for (int64_t j = pop - size; j < pop; ++j) {
    uint64_t val = rng.bounded(uint64_t(j)), loc = val & mask;
    while (set[loc] != ~uint64_t(0) && set[loc] != val) loc = (loc + 1) & mask;
    if (set[loc] == ~uint64_t(0)) {
      set[loc] = val;
      idx[size_t(j - pop + size)] = int64_t(val);
    } else {
      loc = uint64_t(j) & mask;
      while (set[loc] != ~uint64_t(0)) loc = (loc + 1) & mask;
      set[loc] = uint64_t(j);
      idx[size_t(j - pop + size)] = j;
    }
  }
  if (shuffle)
    for (int64_t i = size - 1; i >= 1; --i) std::swap(idx[size_t(i)], idx[size_t(rng.bounded(uint64_t(i)))]);
  return idx;
}

void defineGenerator(Interpreter &in, ModuleObject &m, std::shared_ptr<Pcg64> state) {
  auto def = [&](const char *sig, GeneratorMethod fn) { defineGeneratorMethod(in, m, state, sig, std::move(fn)); };
  def("random(size=None, dtype=None, out=!None)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    DType d = dtypeParam(in, b["dtype"]).value_or(DType::Float64);
    auto dims = sizeOf(in, b["size"]);
    if (d == DType::Float32) {
      Tensor t = Tensor::empty(DType::Float32, dims.value_or(Shape{}));
      for (int64_t i = 0, n = t.numElements(); i < n; ++i) t.data<float>()[i] = rng.nextFloat();
      // One draw is a Python float (numpy's float32 random() without size=).
      return dims ? newArray(std::move(t)) : Value::real(double(t.data<float>()[0]));
    }
    if (d != DType::Float64) in.raise("TypeError", fmt::format("Unsupported dtype dtype('{}') for random", numpyDTypeName(d)));
    return doubles(dims, [&rng] { return rng.nextDouble(); });
  });
  def("integers(low, high=None, size=None, dtype=None, endpoint=False)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    WordSource words{[&rng] { return rng.next32(); }, [&rng] { return rng.next64(); }};
    return boundedIntegers(in, words, /*masked=*/false, b["low"], b["high"], b["size"], b["dtype"], in.truth(b["endpoint"]),
                           /*noneIsPythonInt=*/false, "integers");
  });
  def("uniform(low=0.0, high=1.0, size=None)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    // numpy checks the range's finiteness, then its sign (with its own
    // message for numbers and for arrays)
    bool scalar = asTensor(in, b["low"]).rank() == 0 && asTensor(in, b["high"]).rank() == 0;
    ParamCheck finite = [scalar](Interpreter &in, const double *v) {
      if (!std::isfinite(v[1] - v[0]))
        in.raise("OverflowError", scalar ? "high - low range exceeds valid bounds" : "Range exceeds valid bounds");
    };
    ParamCheck ordered = [](Interpreter &in, const double *v) {
      double range = v[1] - v[0];
      if (!std::isnan(range) && std::signbit(range)) in.raise("ValueError", "high - low < 0");
    };
    return drawFloats(in, b, {{"low"}, {"high"}}, [&rng](const double *v) { return v[0] + (v[1] - v[0]) * rng.nextDouble(); },
                      {finite, ordered});
  });
  def("shuffle(x, axis=0)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    if (auto *l = b["x"].as<ListObject>()) {
      if (in.toInt(b["axis"]) != 0) in.raise("NotImplementedError", "Axis argument is only supported on ndarray objects");
      for (size_t i = l->items.size(); i-- > 1;) std::swap(l->items[i], l->items[size_t(rng.interval(i))]);
      return Value();
    }
    auto *t = ndarrayOf(b["x"]);
    if (!t) in.raise("TypeError", fmt::format("Generator.shuffle: a list or numpy array is required, not {}", in.typeName(b["x"])));
    if (t->eager.numElements() == 0) return Value();
    int64_t axis = normalizeAxis(in, in.toInt(b["axis"]), int64_t(t->eager.rank()));
    int64_t n = t->eager.shape()[size_t(axis)];
    std::vector<int64_t> order = shuffledOrder(rng, n);
    assignAll(in, *t, takeAlong(t->eager, axis, order, {n}));
    return Value();
  });
  def("permutation(x, axis=0)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    const Value &x = b["x"];
    Tensor src;
    if (x.isInt()) {
      int64_t n = x.asInt();
      if (n < 0) in.raise("ValueError", "negative dimensions are not allowed");
      src = Tensor::empty(DType::Int64, {n});
      for (int64_t i = 0; i < n; ++i) src.data<int64_t>()[i] = i;
    } else {
      src = asTensor(in, x);
    }
    int64_t axis = normalizeAxis(in, in.toInt(b["axis"]), int64_t(src.rank()));
    int64_t n = src.shape()[size_t(axis)];
    if (src.rank() == 1 && src.numElements() == 0) return newArray(src.copy());
    return finishText(in, newArray(takeAlong(src, axis, shuffledOrder(rng, n), {n})), {textSource(in, x, src)});
  });
  def("permuted(x, *, axis=None, out=!None)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    Tensor src = asTensor(in, b["x"]);
    if (b.isNone("axis")) {
      // the flattened elements shuffled in C order
      int64_t n = src.numElements();
      if (n == 0) return newArray(src.copy());
      Tensor flat = gather(src, {n}, [&] {
        std::vector<int64_t> all(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) all[size_t(k)] = k;
        return all;
      }());
      std::vector<int64_t> order = shuffledOrder(rng, n);
      return newArray(gather(flat, src.shape(), order));
    }
    int64_t axis = normalizeAxis(in, in.toInt(b["axis"]), int64_t(src.rank()));
    const Shape &shape = src.shape();
    int64_t n = shape[size_t(axis)], inner = 1, outer = 1;
    for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) inner *= shape[d];
    for (int64_t d = 0; d < axis; ++d) outer *= shape[size_t(d)];
    // each fiber along `axis` shuffled on its own, fibers in C order
    std::vector<int64_t> pos(static_cast<size_t>(src.numElements()));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        std::vector<int64_t> order = n ? shuffledOrder(rng, n) : std::vector<int64_t>{};
        for (int64_t k = 0; k < n; ++k) pos[size_t((o * n + k) * inner + i)] = (o * n + order[size_t(k)]) * inner + i;
      }
    return newArray(gather(src, shape, pos));
  });
  def("choice(a, size=None, replace=True, p=None, axis=0, shuffle=True)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    const Value &a = b["a"];
    Tensor pool = asTensor(in, a);
    auto dims = sizeOf(in, b["size"]);
    int64_t count = dims ? elementCount(*dims) : 1;
    bool fromInt = pool.rank() == 0;
    int64_t pop, axis = 0;
    if (fromInt) {
      if (!ir::isInteger(pool.dtype()))
        in.raise("ValueError", fmt::format("a must be a sequence or an integer, not <class '{}'>", in.typeName(a)));
      pop = pool.elementAsInt(0);
      if (pop <= 0 && count != 0) in.raise("ValueError", "a must be a positive integer unless no samples are taken");
    } else {
      // numpy reads a.shape[axis] as a Python tuple index first
      axis = in.toInt(b["axis"]);
      int64_t rank = int64_t(pool.rank());
      if (axis < -rank || axis >= rank) in.raise("IndexError", "tuple index out of range");
      if (axis < 0) axis += rank;
      pop = pool.shape()[size_t(axis)];
      if (pop == 0 && count != 0) in.raise("ValueError", "a cannot be empty unless no samples are taken");
    }
    std::optional<std::vector<double>> p;
    if (!b.isNone("p")) p = choiceProbabilities(in, b["p"], pop, /*legacy=*/false);
    std::vector<int64_t> idx;
    if (in.truth(b["replace"])) {
      idx.resize(size_t(count));
      if (p) {
        std::vector<double> cdf = normalizedCdf(*p);
        for (auto &i : idx) i = searchRight(cdf, rng.nextDouble());
      } else {
        for (auto &i : idx) i = int64_t(rng.bounded(uint64_t(pop - 1)));
      }
    } else {
      if (count > pop) in.raise("ValueError", "Cannot take a larger sample than population when replace is False");
      idx = p ? distinctWeighted(in, [&rng] { return rng.nextDouble(); }, *p, count)
              : distinctIndices(rng, pop, count, in.truth(b["shuffle"]));
    }
    if (fromInt) {
      if (!dims) return Value::integer(idx[0]);
      Tensor t = Tensor::empty(DType::Int64, *dims);
      std::copy(idx.begin(), idx.end(), t.data<int64_t>());
      return newArray(std::move(t));
    }
    Tensor out = takeAlong(pool, axis, idx, dims.value_or(Shape{}));
    return finishText(in, dims || pool.rank() > 1 ? newArray(std::move(out)) : scalarOrArray(std::move(out)), {textSource(in, a, pool)});
  });
  def("multinomial(n, pvals, size=None)", [](Interpreter &in, const Bound &b, Pcg64 &rng) {
    return multinomial(in, b["n"], b["pvals"], b["size"], /*legacy=*/false,
                       [&rng](double p, int64_t n) { return binomialDraw(rng, p, n); });
  });
  def("dirichlet(alpha, size=None)", [](Interpreter &in, const Bound &b, Pcg64 &rng) {
    return dirichlet(in, b["alpha"], b["size"], [&rng](double a) { return standardGamma(rng, a); },
                     [&rng](double a, double b) { return betaDraw(rng, a, b); });
  });
  def("hypergeometric(ngood, nbad, nsample, size=None)", [](Interpreter &in, const Bound &b, Pcg64 &rng) {
    // numpy's own checks come first: the population bound, then the sample
    // against the population (over the broadcast parameters)
    std::vector<Tensor> counts;
    for (const char *name : {"ngood", "nbad", "nsample"}) counts.push_back(cast(asTensor(in, b[name]), DType::Int64));
    for (int i = 0; i < 2; ++i)
      for (int64_t k = 0; k < counts[size_t(i)].numElements(); ++k)
        if (counts[size_t(i)].data<int64_t>()[k] >= 1000000000)
          in.raise("ValueError", "both ngood and nbad must be less than 1000000000");
    Shape shape = broadcastArgShapes(in, {counts[0].shape(), counts[1].shape(), counts[2].shape()});
    std::vector<int64_t> g = broadcastPositions(counts[0], shape), bad = broadcastPositions(counts[1], shape),
                         n = broadcastPositions(counts[2], shape);
    for (size_t k = 0; k < g.size(); ++k)
      if (counts[0].data<int64_t>()[g[k]] + counts[1].data<int64_t>()[bad[k]] < counts[2].data<int64_t>()[n[k]])
        in.raise("ValueError", "ngood + nbad < nsample");
    return drawInts(in, b, {{"ngood", Constraint::NonNegative, true}, {"nbad", Constraint::NonNegative, true},
                            {"nsample", Constraint::NonNegative, true}},
                    [&rng](const double *v) { return hypergeometricDraw(rng, int64_t(v[0]), int64_t(v[1]), int64_t(v[2])); });
  });
  defineDistributions(in, m, state);
  // multivariate_normal is numpy's Python over np.linalg (_np_random_mvn.tfs)
  Value standardNormal = m.scope->vars["standard_normal"];
  m.scope->vars["multivariate_normal"] = nativeWithSignature(
      in, "multivariate_normal(mean, cov, size=None, check_valid='warn', tol=1e-8, *, method='svd')",
      [standardNormal](Interpreter &in, const Bound &b) {
        Value helper = in.getAttr(importPreludeModule(in, "_np_random_mvn"), "generator");
        return in.call(helper, std::vector<Value>{standardNormal, b["mean"], b["cov"], b["size"], b["check_valid"], b["tol"],
                                                  b["method"]});
      });
  // numpy: integers(0, 2**32, ceil(length / 4), uint32) as little-endian bytes, cut to length
  defineGeneratorMethod(in, m, state, "bytes(length)", [](Interpreter &in, const Bound &b, Pcg64 &rng) -> Value {
    int64_t length = in.toIndex(b["length"]);
    if (length < 0) in.raise("ValueError", "negative dimensions are not allowed");
    std::string out;
    // numpy's ((length - 1) // 4 + 1) words in C division: bytes(0) draws one
    for (int64_t i = 0, words = length == 0 ? 1 : (length - 1) / 4 + 1; i < words; ++i) {
      uint32_t word = rng.next32();
      for (int k = 0; k < 4; ++k) out += char((word >> (8 * k)) & 0xFF);
    }
    out.resize(size_t(length));
    return Value(make<BytesObject>(std::move(out)));
  });
  for (const char *name : {"vonmises", "wald", "zipf",
                           "noncentral_chisquare", "noncentral_f", "multivariate_hypergeometric",
                           "logseries", "spawn"}) {
    std::string n = name;
    m.scope->vars[n] = in.native(n, [n](Interpreter &in, Args, const Kwargs &) -> Value {
      in.raise("NotImplementedError", fmt::format("numpy.random.Generator.{} is not supported by tfs", n));
    });
  }
}

}  // namespace

std::optional<Shape> sizeOf(Interpreter &in, const Value &size) {
  if (size.isNone()) return std::nullopt;
  return shapeParam(in, size);
}

Value doubles(const std::optional<Shape> &dims, const std::function<double()> &draw) {
  if (!dims) return Value::real(draw());
  Tensor t = Tensor::empty(DType::Float64, *dims);
  double *p = t.data<double>();
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) p[i] = draw();
  return newArray(std::move(t));
}

void defineGeneratorMethod(Interpreter &in, ModuleObject &m, const std::shared_ptr<Pcg64> &state, const char *signature,
                           GeneratorMethod fn) {
  Value f = nativeWithSignature(in, signature, [state, fn](Interpreter &in, const Bound &b) { return fn(in, b, *state); });
  m.scope->vars[f.as<NativeFunction>()->name] = f;
}

namespace {

Ref<ClassObject> libraryClass(Interpreter &in, const char *name, const char *module) {
  auto klass = make<ClassObject>();
  klass->name = name;
  klass->module = module;
  auto *object = in.builtin("object").as<ClassObject>();
  klass->bases = {Ref<ClassObject>(object)};
  klass->mro = {klass.get(), object};
  return klass;
}

}  // namespace

void installRandomGenerator(Interpreter &in, ModuleObject &random) {
  // The classes own their constructors, which hold them weakly.
  Ref<ClassObject> pcgClass = libraryClass(in, "PCG64", "numpy.random._pcg64");
  Ref<ClassObject> genClass = libraryClass(in, "Generator", "numpy.random._generator");
  ClassObject *pcgWeak = pcgClass.get(), *genWeak = genClass.get();
  auto newBitGenerator = [pcgWeak](Interpreter &in, const Value &seed) {
    auto bits = make<Pcg64Object>();
    bits->klass = Ref<ClassObject>(pcgWeak);
    std::vector<uint32_t> entropy;
    if (seed.isNone()) {
      std::random_device rd;
      for (int i = 0; i < 4; ++i) entropy.push_back(rd());
    } else {
      appendWords(in, seed, entropy);
      if (entropy.empty()) entropy.push_back(0);
    }
    seedFromEntropy(*bits->rng, entropy);
    return bits;
  };
  auto newGenerator = [genWeak](Interpreter &in, Ref<Pcg64Object> bits) {
    auto gen = make<GeneratorObject>();
    gen->klass = Ref<ClassObject>(genWeak);
    gen->bitGenerator = bits;
    gen->methods = make<ModuleObject>("Generator");
    defineGenerator(in, *gen->methods, bits->rng);
    return Value(gen);
  };
  Value pcgCtor = nativeWithSignature(in, "__init__(seed=None)", [newBitGenerator](Interpreter &in, const Bound &b) {
    return Value(Ref<Object>(newBitGenerator(in, b["seed"])));
  });
  pcgClass->construct = [pcgCtor](Interpreter &in, Args a, const Kwargs &kw) { return in.call(pcgCtor, a, kw); };
  Value genCtor = nativeWithSignature(in, "__init__(bit_generator)", [newGenerator](Interpreter &in, const Bound &b) -> Value {
    auto *bits = dynamic_cast<Pcg64Object *>(b["bit_generator"].as<Object>());
    if (!bits) {
      std::string type = in.typeName(b["bit_generator"]);
      if (type == "MT19937" || type == "Philox" || type == "SFC64" || type == "PCG64DXSM")
        in.raise("NotImplementedError", fmt::format("numpy.random.Generator({}) is not supported by tfs", type));
      in.raise("TypeError", "Invalid bit generator. The bit generator must be instantiated.");
    }
    return newGenerator(in, Ref<Pcg64Object>(bits));
  });
  genClass->construct = [genCtor](Interpreter &in, Args a, const Kwargs &kw) { return in.call(genCtor, a, kw); };
  random.scope->vars["PCG64"] = Value(Ref<Object>(pcgClass));
  random.scope->vars["Generator"] = Value(Ref<Object>(genClass));
  random.scope->vars["default_rng"] = nativeWithSignature(
      in, "default_rng(seed=None)", [newBitGenerator, newGenerator](Interpreter &in, const Bound &b) -> Value {
        if (b["seed"].as<GeneratorObject>()) return b["seed"];
        if (auto *bits = dynamic_cast<Pcg64Object *>(b["seed"].as<Object>())) return newGenerator(in, Ref<Pcg64Object>(bits));
        return newGenerator(in, newBitGenerator(in, b["seed"]));
      });
}

}  // namespace tfs::runtime::tf::numpy
