// tf.random.stateless_uniform / stateless_normal: the random ops keyed by
// an explicit seed pair, so the same seed gives the same numbers on every
// call (Keras's seeded initializers rely on this).
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

std::pair<int64_t, int64_t> seedPair(Interpreter &in, const Value &seed) {
  std::vector<int64_t> s;
  if (auto *t = seed.as<TensorObject>()) {
    if (t->symbolic()) raiseTf(in, "NotImplementedError", "a stateless random seed computed in a tf.function is not supported by tfs");
    for (int64_t i = 0; i < t->eager.numElements(); ++i) s.push_back(t->eager.elementAsInt(i));
  } else {
    for (auto &v : in.toList(seed)) s.push_back(in.toInt(v));
  }
  if (s.size() != 2)
    raiseTf(in, "InvalidArgumentError", fmt::format("seed must have shape [2], not [{}]", s.size()));
  return {s[0], s[1]};
}

std::vector<int64_t> shapeOf(Interpreter &in, const Value &v) {
  std::vector<int64_t> out;
  if (auto *s = v.as<TensorShapeObject>()) return s->shape.dims;
  if (auto *t = v.as<TensorObject>(); t && !t->symbolic()) {
    for (int64_t i = 0; i < t->eager.numElements(); ++i) out.push_back(t->eager.elementAsInt(i));
    return out;
  }
  if (v.isInt()) return {v.asInt()};
  for (auto &x : in.toList(v)) out.push_back(in.toInt(x));
  return out;
}

}  // namespace

void installStatelessRandom(Interpreter &in, ModuleObject &random) {
  random.scope->vars["stateless_uniform"] = nativeWithSignature(
      in, "stateless_uniform(shape, seed, minval=0, maxval=None, dtype='float32', name=None, alg=!'auto_select')",
      [](Interpreter &in, const Bound &a) -> Value {
        auto [s1, s2] = seedPair(in, a["seed"]);
        DType d = dtypeArg(in, a["dtype"]).value_or(DType::Float32);
        if (!ir::isFloating(d))
          raiseTf(in, "NotImplementedError", "stateless_uniform of an integer dtype is not supported by tfs");
        ir::Attrs attrs{{"shape", shapeOf(in, a["shape"])}, {"dtype", d}, {"seed", s1}, {"seed2", s2},
                        {"minval", in.toFloat(a["minval"])},
                        {"maxval", a["maxval"].isNone() ? 1.0 : in.toFloat(a["maxval"])}};
        return Value(callOp1(in, OpKind::RandomUniform, {}, attrs, "stateless_random_uniform"));
      });
  random.scope->vars["stateless_normal"] = nativeWithSignature(
      in, "stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype='float32', name=None, alg=!'auto_select')",
      [](Interpreter &in, const Bound &a) -> Value {
        auto [s1, s2] = seedPair(in, a["seed"]);
        DType d = dtypeArg(in, a["dtype"]).value_or(DType::Float32);
        ir::Attrs attrs{{"shape", shapeOf(in, a["shape"])}, {"dtype", d}, {"seed", s1}, {"seed2", s2},
                        {"mean", in.toFloat(a["mean"])}, {"stddev", in.toFloat(a["stddev"])}};
        return Value(callOp1(in, OpKind::RandomNormal, {}, attrs, "stateless_random_normal"));
      });
}

}  // namespace tfs::runtime::tf
