// tf.random.stateless_*: the random ops keyed by an explicit seed pair, so
// the same seed gives the same numbers on every call (Keras's seeded
// initializers rely on this, tf.random.Generator draws through them).
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

std::pair<int64_t, int64_t> statelessSeedPair(Interpreter &in, const Value &seed) {
  std::vector<int64_t> s;
  if (auto *t = seed.as<TensorObject>()) {
    std::optional<Tensor> value = staticValue(*t);
    if (!value)
      raiseTf(in, "NotImplementedError", "a stateless random seed computed in a tf.function is not supported by tfs");
    for (int64_t i = 0; i < value->numElements(); ++i) s.push_back(value->elementAsInt(i));
  } else if (auto *v = seed.as<VariableObject>()) {
    for (int64_t i = 0; i < v->value->numElements(); ++i) s.push_back(v->value->elementAsInt(i));
  } else {
    for (auto &v : in.toList(seed)) s.push_back(in.toInt(v));
  }
  if (s.size() != 2)
    raiseTf(in, "InvalidArgumentError", fmt::format("seed must have shape [2], not [{}]", s.size()));
  return {s[0], s[1]};
}

namespace {

Value statelessDraw(Interpreter &in, OpKind kind, std::vector<Ref<TensorObject>> xs, ir::Attrs attrs,
                    const Value &seed, const Value &shape, const char *name) {
  auto [s1, s2] = statelessSeedPair(in, seed);
  attrs["seed"] = s1;
  attrs["seed2"] = s2;
  if (!shape.isNone()) addShapeArg(xs, attrs, "shape", shapeArg(in, shape, "shape"));
  return Value(callOp1(in, kind, xs, attrs, name));
}

}  // namespace

void installStatelessRandom(Interpreter &in, ModuleObject &random) {
  random.scope->vars["stateless_uniform"] = nativeWithSignature(
      in, "stateless_uniform(shape, seed, minval=0, maxval=None, dtype='float32', name=None, alg=!'auto_select')",
      [](Interpreter &in, const Bound &a) -> Value {
        DType d = dtypeArg(in, a["dtype"]).value_or(DType::Float32);
        if (!ir::isFloating(d) && d != DType::Int32 && d != DType::Int64)
          raiseTf(in, "ValueError", fmt::format("Argument `dtype` got invalid value tf.{}.", ir::dtypeName(d)));
        if (ir::isInteger(d) && a.isNone("maxval"))
          raiseTf(in, "NotImplementedError",
                  "stateless_uniform of an integer dtype over its full range (maxval=None) is not supported by tfs");
        ir::Attrs attrs{{"dtype", d}, {"minval", in.toFloat(a["minval"])},
                        {"maxval", a["maxval"].isNone() ? 1.0 : in.toFloat(a["maxval"])}};
        return statelessDraw(in, OpKind::RandomUniform, {}, attrs, a["seed"], a["shape"], "stateless_random_uniform");
      });
  random.scope->vars["stateless_normal"] = nativeWithSignature(
      in, "stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype='float32', name=None, alg=!'auto_select')",
      [](Interpreter &in, const Bound &a) -> Value {
        ir::Attrs attrs{{"dtype", dtypeArg(in, a["dtype"]).value_or(DType::Float32)},
                        {"mean", in.toFloat(a["mean"])}, {"stddev", in.toFloat(a["stddev"])}};
        return statelessDraw(in, OpKind::RandomNormal, {}, attrs, a["seed"], a["shape"], "stateless_random_normal");
      });
  random.scope->vars["stateless_truncated_normal"] = nativeWithSignature(
      in, "stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype='float32', name=None, alg=!'auto_select')",
      [](Interpreter &in, const Bound &a) -> Value {
        ir::Attrs attrs{{"dtype", dtypeArg(in, a["dtype"]).value_or(DType::Float32)},
                        {"mean", in.toFloat(a["mean"])}, {"stddev", in.toFloat(a["stddev"])}};
        return statelessDraw(in, OpKind::RandomTruncatedNormal, {}, attrs, a["seed"], a["shape"],
                             "stateless_truncated_normal");
      });
  random.scope->vars["stateless_categorical"] = nativeWithSignature(
      in, "stateless_categorical(logits, num_samples, seed, dtype='int64', name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        std::vector<Ref<TensorObject>> xs{toTensor(in, a["logits"])};
        ir::Attrs attrs{{"output_dtype", dtypeArg(in, a["dtype"]).value_or(DType::Int64)}};
        addShapeArg(xs, attrs, "num_samples", scalarArg(in, a["num_samples"], "num_samples"));
        return statelessDraw(in, OpKind::Multinomial, xs, attrs, a["seed"], Value(), "stateless_categorical");
      });
}

}  // namespace tfs::runtime::tf
