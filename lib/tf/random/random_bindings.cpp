// tf.random's stateful draws beyond normal / uniform: truncated_normal,
// shuffle, categorical, gamma, poisson (TF 2.15's random_ops.py parameter
// lists and argument checks), and tf.timestamp. Each is one op of
// ir/ops.def drawing from its Philox stream: eagerly a new draw per call of
// the seed pair, in a graph a new draw per run of the node.
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"

#include <fmt/format.h>
#include <limits>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

Value statefulDraw(Interpreter &in, OpKind kind, std::vector<Ref<TensorObject>> xs, ir::Attrs attrs,
                   const Value &seed, const char *name) {
  return Value(statefulRandomOp(in, kind, std::move(xs), std::move(attrs), seed, name));
}

DType floatDType(Interpreter &in, const Value &v, const char *fn) {
  DType d = dtypeArg(in, v).value_or(DType::Float32);
  if (!ir::isFloating(d))
    raiseTf(in, "ValueError", fmt::format("Argument `dtype` of {} got invalid value tf.{}: a floating point dtype "
                                          "is required.", fn, ir::dtypeName(d)));
  return d;
}

}  // namespace

void installRandomDraws(Interpreter &in, ModuleObject &tf, ModuleObject &random) {
  random.scope->vars["truncated_normal"] = nativeWithSignature(
      in, "truncated_normal(shape, mean=0.0, stddev=1.0, dtype='float32', seed=None, name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        ir::Attrs attrs{{"dtype", floatDType(in, a["dtype"], "truncated_normal")},
                        {"mean", in.toFloat(a["mean"])}, {"stddev", in.toFloat(a["stddev"])}};
        std::vector<Ref<TensorObject>> xs;
        addShapeArg(xs, attrs, "shape", shapeArg(in, a["shape"], "shape"));
        return statefulDraw(in, OpKind::RandomTruncatedNormal, xs, attrs, a["seed"], "truncated_normal");
      });
  random.scope->vars["shuffle"] = nativeWithSignature(
      in, "shuffle(value, seed=None, name=None)", [](Interpreter &in, const Bound &a) -> Value {
        auto x = toTensor(in, a["value"]);
        if (x->shape().ranked && x->shape().rank() == 0)
          raiseTf(in, "InvalidArgumentError",
                  eagerOpErrorMessage("value must be at least 1-D, got a scalar [Op:RandomShuffle]"));
        return statefulDraw(in, OpKind::RandomShuffle, {x}, {}, a["seed"], "RandomShuffle");
      });
  random.scope->vars["categorical"] = nativeWithSignature(
      in, "categorical(logits, num_samples, dtype=None, seed=None, name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        std::vector<Ref<TensorObject>> xs{toTensor(in, a["logits"])};
        DType d = dtypeArg(in, a["dtype"]).value_or(DType::Int64);
        if (d != DType::Int32 && d != DType::Int64)
          raiseTf(in, "TypeError", fmt::format("Value for attr 'output_dtype' of {} is not in the list of allowed "
                                               "values: int32, int64", ir::dtypeName(d)));
        ir::Attrs attrs{{"output_dtype", d}};
        addShapeArg(xs, attrs, "num_samples", scalarArg(in, a["num_samples"], "num_samples"));
        return statefulDraw(in, OpKind::Multinomial, xs, attrs, a["seed"], "Multinomial");
      });
  random.scope->vars["gamma"] = nativeWithSignature(
      in, "gamma(shape, alpha, beta=None, dtype='float32', seed=None, name=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        DType d = floatDType(in, a["dtype"], "gamma");
        auto alpha = toTensor(in, a["alpha"], d);
        auto beta = toTensor(in, a["beta"].isNone() ? Value::integer(1) : a["beta"], d);
        // TF broadcasts alpha against beta, draws Gamma(alpha, 1) and divides
        // by beta, never returning less than the dtype's smallest normal.
        auto alphaB = callOp1(in, OpKind::Add, {alpha, callOp1(in, OpKind::ZerosLike, {beta}, {}, "zeros_like")}, {},
                              "BroadcastTo");
        ir::Attrs attrs{{"dtype", d}};
        std::vector<Ref<TensorObject>> xs{alphaB};
        addShapeArg(xs, attrs, "shape", shapeArg(in, a["shape"], "shape"));
        Value draw = statefulDraw(in, OpKind::RandomGamma, xs, attrs, a["seed"], "RandomGamma");
        auto scaled = callOp1(in, OpKind::Div, {draw.as<TensorObject>(), beta}, {}, "truediv");
        double tiny = d == DType::Float64 ? std::numeric_limits<double>::min()
                      : d == DType::Float16 ? 6.103515625e-05 : double(std::numeric_limits<float>::min());
        return Value(callOp1(in, OpKind::Maximum, {scaled, toTensor(in, Value::real(tiny), d)}, {}, "Maximum"));
      });
  random.scope->vars["poisson"] = nativeWithSignature(
      in, "poisson(shape, lam, dtype='float32', seed=None, name=None)", [](Interpreter &in, const Bound &a) -> Value {
        DType d = dtypeArg(in, a["dtype"]).value_or(DType::Float32);
        if (!ir::isFloating(d) && d != DType::Int32 && d != DType::Int64)
          raiseTf(in, "TypeError", fmt::format("Value for attr 'dtype' of {} is not in the list of allowed values: "
                                               "half, float, double, int32, int64", ir::dtypeName(d)));
        auto lam = toTensor(in, a["lam"], DType::Float32);
        ir::Attrs attrs{{"dtype", d}};
        std::vector<Ref<TensorObject>> xs{lam};
        addShapeArg(xs, attrs, "shape", shapeArg(in, a["shape"], "shape"));
        return statefulDraw(in, OpKind::RandomPoisson, xs, attrs, a["seed"], "RandomPoissonV2");
      });
  tf.scope->vars["timestamp"] = nativeWithSignature(in, "timestamp(name=None)", [](Interpreter &in, const Bound &) {
    return Value(callOp1(in, OpKind::Timestamp, {}, {}, "Timestamp"));
  });
}

}  // namespace tfs::runtime::tf
