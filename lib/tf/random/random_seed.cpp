// TF 2.15's seeding of the stateful random ops (python/framework/
// random_seed.py get_seed, eager context seeds), so a seeded script draws
// TF's numbers:
//  * global seed and op seed: (global, op) -- each truncated mod 2^31 - 1;
//  * op seed only: (87654321, op);
//  * global seed only: eagerly the op seed is the next
//    random.Random(global_seed).randint(0, 2**31 - 1) of the context (a
//    CPython Mersenne Twister, reset by tf.random.set_seed); in a traced
//    function it is TF 2.15's per-graph counter (random_seed.py's
//    _graph_to_seed_dict: 0, 1, 2, ... per get_seed call in that graph,
//    each cond branch and loop body being a graph of its own), which
//    GraphScope::nextOpSeed keeps per region;
//  * neither: (0, 0), a nondeterministic stream.
// Eagerly, calls of one op with the same seeds and dtypes share one kernel
// whose generator moves on by what each call reserved (TF's kernel cache);
// set_seed empties that cache.
#include "lib/mt19937.h"
#include "lib/tf/tf_lib.h"
#include "lib/tf/random/seed_hook.h"
#include "runtime/kernels/philox.h"

#include <fmt/format.h>
#include <map>
#include <random>
#include <sstream>
#include <tuple>

namespace tfs::runtime::tf {

namespace {

constexpr int64_t kMaxInt32 = 2147483647;
constexpr int64_t kDefaultGraphSeed = 87654321;

using KernelKey = std::tuple<int, int64_t, int64_t, int, int>;

struct SeedState {
  std::mt19937 rng;
  std::map<KernelKey, int64_t> kernelBlocks;
  // The tf.map_fn / scan / fold calls running their function once per
  // element (innermost last); see enterUnrolledLoop.
  std::vector<std::string> unrolled;
  // DeterministicRandomTestTool's get_seed (seed_hook.h), or None.
  Value getSeedHook;
};

SeedState &seedState(Interpreter &in) {
  static std::map<const TfContext *, SeedState> states;
  return states[&ctx(in)];
}

// CPython's random.Random(seed) for an int seed: init_by_array over the
// 32-bit words of |seed|, low word first.
std::mt19937 cpythonRandom(int64_t seed) {
  uint64_t mag = seed < 0 ? uint64_t(0) - uint64_t(seed) : uint64_t(seed);
  std::vector<uint32_t> key;
  do {
    key.push_back(uint32_t(mag));
    mag >>= 32;
  } while (mag);
  lib::Mt19937 mt;
  mt.seedByArray(key.data(), int(key.size()));
  // std::mt19937 reads a full state (and regenerates before its first
  // draw, as CPython's generator does after seeding).
  std::stringstream text;
  for (uint32_t w : mt.key) text << w << ' ';
  std::mt19937 gen;
  text >> gen;
  return gen;
}

// random.Random.randint(0, 2**31 - 1): getrandbits(32) until below 2^31.
int64_t internalOperationSeed(SeedState &s) {
  for (;;) {
    uint32_t r = uint32_t(s.rng());
    if (r < 0x80000000u) return int64_t(r);
  }
}

int64_t truncateSeed(int64_t seed) {
  int64_t r = seed % kMaxInt32;
  return r < 0 ? r + kMaxInt32 : r;
}

}  // namespace

std::pair<int64_t, int64_t> seeds(Interpreter &in, const Value &opSeed) {
  TfContext &c = ctx(in);
  if (Value hook = seedState(in).getSeedHook; !hook.isNone()) {
    // The patched get_seed's pair is used as it is (no truncation).
    std::vector<Value> pair = in.toList(in.call(hook, std::vector<Value>{opSeed}));
    if (pair.size() != 2) in.raise("TypeError", "get_seed must return a pair of seeds");
    return {in.toInt(pair[0]), in.toInt(pair[1])};
  }
  std::pair<int64_t, int64_t> pair;
  if (c.globalSeed >= 0) {
    int64_t op;
    if (!opSeed.isNone()) op = in.toInt(opSeed);
    else if (GraphScope *g = currentGraph(in)) op = g->nextOpSeed();
    else op = internalOperationSeed(seedState(in));
    pair = {truncateSeed(c.globalSeed), truncateSeed(op)};
  } else if (!opSeed.isNone()) {
    pair = {kDefaultGraphSeed, truncateSeed(in.toInt(opSeed))};
  } else {
    return {0, 0};
  }
  // TF never hands the kernels (0, 0) for a seeded op: that pair means
  // "nondeterministic".
  if (pair.first == 0 && pair.second == 0) pair.second = kMaxInt32;
  return pair;
}

Value setGetSeedHook(Interpreter &in, const Value &hook) {
  SeedState &s = seedState(in);
  Value previous = s.getSeedHook;
  s.getSeedHook = hook;
  return previous;
}

void setGlobalSeed(Interpreter &in, const Value &seed) {
  TfContext &c = ctx(in);
  SeedState &s = seedState(in);
  s.kernelBlocks.clear();
  if (seed.isNone()) {
    c.globalSeed = -1;
    return;
  }
  c.globalSeed = in.toInt(seed);
  s.rng = cpythonRandom(c.globalSeed);
}

Ref<TensorObject> statefulRandomOp(Interpreter &in, ir::OpKind kind, std::vector<Ref<TensorObject>> xs,
                                   ir::Attrs attrs, const Value &opSeed, const char *name) {
  // Gamma and Poisson draw their half-precision samples in double and
  // round once (TF); tfs's half kernels run in float32, a second rounding.
  if (std::optional<ir::DType> d = ir::attrDType(attrs, "dtype");
      d && ir::isHalfFloat(*d) && (kind == ir::OpKind::RandomGamma || kind == ir::OpKind::RandomPoisson))
    raiseTf(in, "NotImplementedError",
            fmt::format("random draws of dtype tf.{} are not supported by tfs", ir::dtypeName(*d)));
  SeedState &state = seedState(in);
  if (!state.unrolled.empty() && currentGraph(in))
    raiseTf(in, "NotImplementedError",
            fmt::format("a stateful random op inside {} in a tf.function is not supported by tfs: TensorFlow stages "
                        "the function once in a while_loop body, one op drawing on every iteration, where tfs calls "
                        "it once per element",
                        state.unrolled.back()));
  auto [s1, s2] = seeds(in, opSeed);
  attrs["seed"] = s1;
  attrs["seed2"] = s2;
  attrs["stateful"] = int64_t(1);
  if (currentGraph(in)) return callOp1(in, kind, xs, attrs, name);
  // Eagerly: the kernel of these attributes continues its stream.
  ir::DType out = ir::attrDType(attrs, "dtype").value_or(ir::attrDType(attrs, "output_dtype").value_or(ir::DType::Float32));
  int operand = xs.empty() ? -1 : int(xs[0]->dtype());
  KernelKey key{int(kind), s1, s2, int(out), operand};
  SeedState &s = seedState(in);
  int64_t &blocks = s.kernelBlocks[key];
  attrs["counter"] = blocks;
  Ref<TensorObject> result = callOp1(in, kind, xs, attrs, name);
  std::vector<Tensor> operands;
  for (auto &x : xs) operands.push_back(x->eager);
  blocks += kernels::randomBlocksReserved(kind, operands, result->eager);
  return result;
}

void enterUnrolledLoop(Interpreter &in, std::string what) { seedState(in).unrolled.push_back(std::move(what)); }

void exitUnrolledLoop(Interpreter &in) {
  SeedState &s = seedState(in);
  if (!s.unrolled.empty()) s.unrolled.pop_back();
}

Value generatorDraw(Interpreter &in, const std::string &kind, const Value &shape, const Value &state, ir::DType d,
                    const Value &a, const Value &b) {
  std::vector<int64_t> words;
  for (auto &v : in.toList(state)) words.push_back(in.toInt(v));
  if (words.size() != 3)
    raiseTf(in, "InvalidArgumentError", fmt::format("For the Philox algorithm, the size of state must be 3; got {}",
                                                    words.size()));
  ir::Attrs attrs{{"dtype", d},
                  {"rng", kernels::kRngState},
                  {"state0", words[0]},
                  {"state1", words[1]},
                  {"state2", words[2]}};
  ir::OpKind op = ir::OpKind::RandomUniform;
  if (kind == "normal" || kind == "truncated_normal") {
    op = kind == "normal" ? ir::OpKind::RandomNormal : ir::OpKind::RandomTruncatedNormal;
    attrs["mean"] = in.toFloat(a);
    attrs["stddev"] = in.toFloat(b);
  } else if (ir::isInteger(d)) {
    if (!a.isNone()) {
      attrs["minval"] = in.toInt(a);
      attrs["maxval"] = in.toInt(b);
    }
  } else {
    attrs["minval"] = in.toFloat(a);
    attrs["maxval"] = in.toFloat(b);
  }
  std::vector<Ref<TensorObject>> xs;
  addShapeArg(xs, attrs, "shape", shapeArg(in, shape, "shape"));
  Ref<TensorObject> result = callOp1(in, op, xs, attrs, "stateful_random");
  // The state moves on 256 blocks per element (TF's RngReadAndSkip).
  kernels::Philox p = kernels::philoxFor(attrs);
  p.skip(uint64_t(result->eager.numElements()) * 256);
  auto word = [](uint32_t lo, uint32_t hi) { return Value::integer(int64_t(uint64_t(lo) | uint64_t(hi) << 32)); };
  std::vector<Value> next{word(p.counter[0], p.counter[1]), word(p.counter[2], p.counter[3]), word(p.key[0], p.key[1])};
  return Value(make<TupleObject>(std::vector<Value>{Value(result), Value(make<ListObject>(std::move(next)))}));
}

Value philoxBlocks(Interpreter &in, int64_t rng, int64_t a, int64_t b, int64_t c, int64_t skip, int64_t count) {
  ir::Attrs attrs{{"rng", rng}};
  if (rng == kernels::kRngState) {
    attrs["state0"] = a;
    attrs["state1"] = b;
    attrs["state2"] = c;
  } else {
    attrs["seed"] = a;
    attrs["seed2"] = b;
  }
  kernels::Philox p = kernels::philoxFor(attrs);
  p.skip(uint64_t(skip));
  std::vector<Value> words;
  for (int64_t i = 0; i < count; ++i)
    for (uint32_t w : p.next()) words.push_back(Value::integer(int64_t(w)));
  (void)in;
  return Value(make<ListObject>(std::move(words)));
}

Value philoxWords(Interpreter &in, int64_t seed, int64_t seed2, int64_t start, int64_t count) {
  kernels::Philox p = kernels::Philox::fromSeeds(uint64_t(seed), uint64_t(seed2));
  p.skip(uint64_t(start) / 4);
  std::array<uint32_t, 4> block = p.next();
  std::vector<Value> words;
  for (int64_t i = 0, at = start % 4; i < count; ++i, ++at) {
    if (at == 4) {
      block = p.next();
      at = 0;
    }
    words.push_back(Value::integer(int64_t(block[size_t(at)])));
  }
  (void)in;
  return Value(make<ListObject>(std::move(words)));
}

}  // namespace tfs::runtime::tf
