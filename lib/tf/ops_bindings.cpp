// tf.* functions that map onto ops of the op table: argument binding by
// TF's parameter names, Python value conversion, attrs, and the TF node
// name each creates in a graph ("Square", "Mean", ...).
#include "ir/shape_args.h"
#include "frontend/library_span.h"
#include "lib/tf/tf_lib.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/tape_slices.h"

#include <algorithm>
#include <optional>
#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

using Binder = std::vector<std::string>;


Value opt(const Kwargs &kw, const std::string &name) {
  for (const auto &[k, v] : kw) if (k == name) return v;
  return Value();
}

std::string nameArg(Interpreter &in, const Value &v, const std::string &dflt) {
  return v.isNone() ? dflt : in.str(v);
}

// Static int lists (axes, perms, conv strides): a symbolic tensor must have
// a value the trace knows (a constant, tf.shape of a static shape). Shape
// arguments go through shapeArg instead, which accepts run-time values.
std::vector<int64_t> intList(Interpreter &in, const Value &v) {
  std::vector<int64_t> out;
  if (auto *t = v.as<TensorObject>()) {
    std::optional<Tensor> value = staticValue(*t);
    if (!value)
      raiseTf(in, "NotImplementedError",
              fmt::format("a shape computed at run time ({}) is not supported by tfs here: the shape must be "
                          "known when the function is traced", t->tensorName()));
    for (int64_t i = 0; i < value->numElements(); ++i) out.push_back(value->elementAsInt(i));
    return out;
  }
  if (auto *s = v.as<TensorShapeObject>()) return s->shape.dims;
  if (v.isInt()) return {v.asInt()};
  for (auto &x : in.toList(v)) out.push_back(x.isNone() ? -1 : in.toIndex(x));
  return out;
}

// Unary elementwise ops: f(x, name=None).
void unaryOp(Interpreter &in, ModuleObject &m, const std::string &name, OpKind k) {
  def(in, m, name, [k](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs(ir::opName(k), a, kw, {"x", "name"}, {std::nullopt, Value()});
    auto x = toTensor(in, args[0]);
    return Value(callOp1(in, k, {x}, {}, nameArg(in, args[1], ir::tfOpType(k))));
  });
}

// Binary elementwise ops: f(x, y, name=None). A Python operand adopts the
// tensor operand's dtype; with no tensor operand, y adopts the dtype x
// converted to (TF's args_to_matching_eager: tf.maximum(0., [1, -1]) is
// float32, tf.add(1, 2.5) a TypeError).
void binaryOp(Interpreter &in, ModuleObject &m, const std::string &name, OpKind k, const std::string &node) {
  def(in, m, name, [k, node](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs(ir::opName(k), a, kw, {"x", "y", "name"}, {std::nullopt, std::nullopt, Value()});
    std::optional<DType> like;
    if (auto *t = args[0].as<TensorObject>()) like = t->dtype();
    else if (auto *v = args[0].as<VariableObject>()) like = v->dtype;
    else if (auto *t2 = args[1].as<TensorObject>()) like = t2->dtype();
    else if (auto *v2 = args[1].as<VariableObject>()) like = v2->dtype;
    auto x = toTensor(in, args[0], std::nullopt, like);
    auto y = toTensor(in, args[1], std::nullopt, like ? like : std::optional<DType>(x->dtype()));
    return Value(callOp1(in, k, {x, y}, {}, nameArg(in, args[2], node)));
  });
}

void reduceOp(Interpreter &in, ModuleObject &m, const std::string &name, OpKind k) {
  def(in, m, name, [k](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs(ir::opName(k), a, kw, {"input_tensor", "axis", "keepdims", "name"},
                            {std::nullopt, Value(), Value::boolean(false), Value()});
    auto x = toTensor(in, args[0]);
    ir::Attrs attrs{{"keepdims", in.truth(args[2])}};
    if (!args[1].isNone()) attrs["axis"] = intList(in, args[1]);
    return Value(callOp1(in, k, {x}, attrs, nameArg(in, args[3], ir::tfOpType(k))));
  });
}

}  // namespace

void defSig(Interpreter &in, ModuleObject &m, std::string_view signature, SignedFn fn) {
  Value f = nativeWithSignature(in, signature, std::move(fn));
  m.scope->vars[std::string(signature.substr(0, signature.find('(')))] = f;
}

void installOps(Interpreter &in, ModuleObject &tf, ModuleObject &math, ModuleObject &nn, ModuleObject &linalg) {
  for (ModuleObject *m : {&tf, &math}) {
    binaryOp(in, *m, "add", OpKind::Add, "Add");
    binaryOp(in, *m, "subtract", OpKind::Sub, "Sub");
    binaryOp(in, *m, "multiply", OpKind::Mul, "Mul");
    binaryOp(in, *m, "floordiv", OpKind::FloorDiv, "FloorDiv");
    binaryOp(in, *m, "floormod", OpKind::FloorMod, "FloorMod");
    binaryOp(in, *m, "pow", OpKind::Pow, "Pow");
    binaryOp(in, *m, "maximum", OpKind::Maximum, "Maximum");
    binaryOp(in, *m, "minimum", OpKind::Minimum, "Minimum");
    binaryOp(in, *m, "squared_difference", OpKind::SquaredDifference, "SquaredDifference");
    binaryOp(in, *m, "equal", OpKind::Equal, "Equal");
    binaryOp(in, *m, "not_equal", OpKind::NotEqual, "NotEqual");
    binaryOp(in, *m, "less", OpKind::Less, "Less");
    binaryOp(in, *m, "less_equal", OpKind::LessEqual, "LessEqual");
    binaryOp(in, *m, "greater", OpKind::Greater, "Greater");
    binaryOp(in, *m, "greater_equal", OpKind::GreaterEqual, "GreaterEqual");
    binaryOp(in, *m, "logical_and", OpKind::LogicalAnd, "LogicalAnd");
    binaryOp(in, *m, "logical_or", OpKind::LogicalOr, "LogicalOr");
    unaryOp(in, *m, "square", OpKind::Square);
    unaryOp(in, *m, "sqrt", OpKind::Sqrt);
    unaryOp(in, *m, "rsqrt", OpKind::Rsqrt);
    unaryOp(in, *m, "exp", OpKind::Exp);
    unaryOp(in, *m, "log", OpKind::Log);
    unaryOp(in, *m, "sin", OpKind::Sin);
    unaryOp(in, *m, "cos", OpKind::Cos);
    unaryOp(in, *m, "tanh", OpKind::Tanh);
    unaryOp(in, *m, "sigmoid", OpKind::Sigmoid);
    if (m == &math) unaryOp(in, *m, "erf", OpKind::Erf);
    unaryOp(in, *m, "abs", OpKind::Abs);
    unaryOp(in, *m, "negative", OpKind::Neg);
    unaryOp(in, *m, "sign", OpKind::Sign);
    unaryOp(in, *m, "logical_not", OpKind::LogicalNot);
    reduceOp(in, *m, "reduce_sum", OpKind::ReduceSum);
    reduceOp(in, *m, "reduce_mean", OpKind::ReduceMean);
    reduceOp(in, *m, "reduce_max", OpKind::ReduceMax);
    reduceOp(in, *m, "reduce_min", OpKind::ReduceMin);
    reduceOp(in, *m, "reduce_prod", OpKind::ReduceProd);
    reduceOp(in, *m, "reduce_any", OpKind::ReduceAny);
    reduceOp(in, *m, "reduce_all", OpKind::ReduceAll);
    // `x / y` as TF's math_ops.divide/truediv (the graph op keeps the
    // operator's name; `name` names no separate scope in tfs).
    for (const char *n : {"divide", "truediv"})
      defSig(in, *m, std::string(n) + "(x, y, name=None)", [](Interpreter &in, const Bound &a) {
        return tensorBinary(in, BinOp::Div, a["x"], a["y"], false);
      });
    for (const char *n : {"argmax", "argmin"}) {
      OpKind k = std::string(n) == "argmax" ? OpKind::ArgMax : OpKind::ArgMin;
      def(in, *m, n, [k](Interpreter &in, Args a, const Kwargs &kw) -> Value {
        auto args = in.bindArgs(ir::opName(k), a, kw, {"input", "axis", "output_type", "name"},
                                {std::nullopt, Value(), Value(), Value()});
        ir::Attrs attrs{{"axis", args[1].isNone() ? int64_t(0) : in.toInt(args[1])}};
        if (auto d = dtypeArg(in, args[2])) attrs["output_type"] = *d;
        return Value(callOp1(in, k, {toTensor(in, args[0])}, attrs, nameArg(in, args[3], ir::tfOpType(k))));
      });
    }
  }
  unaryOp(in, nn, "relu", OpKind::Relu);
  unaryOp(in, nn, "sigmoid", OpKind::Sigmoid);
  unaryOp(in, nn, "tanh", OpKind::Tanh);
  for (const char *n : {"softmax", "log_softmax"}) {
    OpKind k = std::string(n) == "softmax" ? OpKind::Softmax : OpKind::LogSoftmax;
    def(in, nn, n, [k](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs(ir::opName(k), a, kw, {"logits", "axis", "name"}, {std::nullopt, Value(), Value()});
      ir::Attrs attrs;
      if (!args[1].isNone()) attrs["axis"] = in.toInt(args[1]);
      return Value(callOp1(in, k, {toTensor(in, args[0])}, attrs, nameArg(in, args[2], ir::tfOpType(k))));
    });
  }
  auto xent = [&](const char *n, OpKind k) {
    def(in, nn, n, [k](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs(ir::opName(k), a, kw, {"labels", "logits", "name"}, {std::nullopt, std::nullopt, Value()});
      auto logits = toTensor(in, args[1]);
      auto labels = k == OpKind::SparseSoftmaxCrossEntropy ? toTensor(in, args[0]) : toTensor(in, args[0], std::nullopt, logits->dtype());
      return Value(callOp1(in, k, {labels, logits}, {}, nameArg(in, args[2], ir::tfOpType(k))));
    });
  };
  xent("softmax_cross_entropy_with_logits", OpKind::SoftmaxCrossEntropy);
  xent("sparse_softmax_cross_entropy_with_logits", OpKind::SparseSoftmaxCrossEntropy);
  xent("sigmoid_cross_entropy_with_logits", OpKind::SigmoidCrossEntropy);
  for (ModuleObject *m : {&tf, &linalg}) {
    def(in, *m, "matmul", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      // TF 2.15's signature; a_is_sparse / b_is_sparse / grad_a / grad_b
      // only choose TF's kernel (the product is the same).
      Value no = Value::boolean(false);
      auto args = in.bindArgs("matmul", a, kw,
                              {"a", "b", "transpose_a", "transpose_b", "adjoint_a", "adjoint_b", "a_is_sparse",
                               "b_is_sparse", "output_type", "grad_a", "grad_b", "name"},
                              {std::nullopt, std::nullopt, no, no, no, no, no, no, Value(), no, no, Value()});
      auto x = toTensor(in, args[0]);
      auto y = toTensor(in, args[1], std::nullopt, x->dtype());
      if (auto *t = args[1].as<TensorObject>(); t && t->numpy) y = toTensor(in, args[1], x->dtype());
      bool ta = in.truth(args[2]), tb = in.truth(args[3]), ja = in.truth(args[4]), jb = in.truth(args[5]);
      if (ta && ja) raiseTf(in, "ValueError", "Only one of transpose_a and adjoint_a can be True.");
      if (tb && jb) raiseTf(in, "ValueError", "Only one of transpose_b and adjoint_b can be True.");
      // The adjoint of a real matrix is its transpose.
      if ((ja || jb) && ir::isComplex(x->dtype()))
        in.raise("NotImplementedError", "tf.matmul(adjoint_a/adjoint_b=True) of complex matrices is not supported by tfs");
      if (!args[8].isNone() && dtypeArg(in, args[8]) != x->dtype())
        in.raise("NotImplementedError", "tf.matmul(output_type=...) other than the inputs' dtype is not supported by tfs");
      return Value(callOp1(in, OpKind::MatMul, {x, y}, {{"transpose_a", ta || ja}, {"transpose_b", tb || jb}},
                           nameArg(in, args[11], "MatMul")));
    });
  }
  def(in, tf, "transpose", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("transpose", a, kw, {"a", "perm", "name"}, {std::nullopt, Value(), Value()});
    ir::Attrs attrs;
    if (!args[1].isNone()) attrs["perm"] = intList(in, args[1]);
    return Value(callOp1(in, OpKind::Transpose, {toTensor(in, args[0])}, attrs, nameArg(in, args[2], "transpose")));
  });
  defSig(in, tf, "reshape(tensor, shape, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    std::vector<Ref<TensorObject>> xs{toTensor(in, a["tensor"])};
    ir::Attrs attrs;
    addShapeArg(xs, attrs, "shape", shapeArg(in, a["shape"], "shape"));
    return Value(callOp1(in, OpKind::Reshape, xs, attrs, nameArg(in, a["name"], "Reshape")));
  });
  def(in, tf, "expand_dims", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("expand_dims", a, kw, {"input", "axis", "name"}, {std::nullopt, std::nullopt, Value()});
    return Value(callOp1(in, OpKind::ExpandDims, {toTensor(in, args[0])}, {{"axis", in.toInt(args[1])}}, nameArg(in, args[2], "ExpandDims")));
  });
  def(in, tf, "squeeze", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("squeeze", a, kw, {"input", "axis", "name"}, {std::nullopt, Value(), Value()});
    ir::Attrs attrs;
    if (!args[1].isNone()) attrs["axis"] = intList(in, args[1]);
    return Value(callOp1(in, OpKind::Squeeze, {toTensor(in, args[0])}, attrs, nameArg(in, args[2], "Squeeze")));
  });
  for (const char *n : {"concat", "stack"}) {
    OpKind k = std::string(n) == "concat" ? OpKind::Concat : OpKind::Stack;
    def(in, tf, n, [k](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      auto args = in.bindArgs(ir::opName(k), a, kw, {"values", "axis", "name"}, {std::nullopt, Value::integer(0), Value()});
      std::vector<Value> items = in.toList(args[0]);
      // TF's stack along axis 0 first tries converting the whole list as one
      // constant (so tf.stack([1, 2.0]) is float32, not a dtype error).
      if (k == OpKind::Stack && in.toInt(args[1]) == 0 && !items.empty() &&
          std::all_of(items.begin(), items.end(), [](const Value &v) {
            return v.isInt() || v.isFloat() || v.isBool() || v.as<ListObject>() || v.as<TupleObject>();
          }))
        return Value(toTensor(in, args[0]));
      // Python values take the first tensor's dtype (TF's args_to_matching_eager);
      // tensors of different dtypes stay an error of the op.
      std::optional<DType> like;
      for (auto &v : items)
        if (auto *t = v.as<TensorObject>(); t && !t->numpy && !like) like = t->dtype();
        else if (auto *var = v.as<VariableObject>(); var && !like) like = var->dtype;
      std::vector<Ref<TensorObject>> xs;
      for (auto &v : items) xs.push_back(toTensor(in, v, std::nullopt, like));
      return Value(callOp1(in, k, xs, {{"axis", in.toInt(args[1])}}, nameArg(in, args[2], k == OpKind::Concat ? "concat" : "stack")));
    });
  }
  // batch_dims != 0 is the prelude's batch_gather (lib/tf/_tf_scatter.tfs).
  // A script's gather is TF's GatherV2, whose gradient may be an
  // IndexedSlices (runtime/tf/tape_slices.h); the library's compositions
  // call it too, for TF kernels with dense gradients, and stay unmarked
  // unless they go through `_slicing_gather` (embedding_lookup, Embedding).
  auto gather = [](Interpreter &in, const Bound &a, bool slicing) -> Value {
    if (in.toInt(a["batch_dims"]) != 0)
      return in.call(in.getAttr(importPreludeModule(in, "_tf_scatter"), "batch_gather"),
                     std::vector<Value>{a["params"], a["indices"], a["axis"], a["batch_dims"], a["name"]});
    int64_t axis = a.isNone("axis") ? 0 : in.toInt(a["axis"]);
    auto params = toTensor(in, a["params"]), indices = toTensor(in, a["indices"]);
    std::optional<SlicingGatherScope> mark;
    if (slicing) mark.emplace();
    return Value(callOp1(in, OpKind::Gather, {params, indices}, {{"axis", axis}}, nameArg(in, a["name"], "GatherV2")));
  };
  defSig(in, tf, "gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None)",
         [gather](Interpreter &in, const Bound &a) -> Value {
           return gather(in, a, !frontend::isLibrary(in.currentSpan()));
         });
  defSig(in, tf, "_slicing_gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None)",
         [gather](Interpreter &in, const Bound &a) -> Value { return gather(in, a, true); });
  def(in, tf, "cast", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("cast", a, kw, {"x", "dtype", "name"}, {std::nullopt, std::nullopt, Value()});
    DType d = *dtypeArg(in, args[1]);
    auto x = toTensor(in, args[0]);
    if (x->dtype() == d) return Value(x);
    return Value(callOp1(in, OpKind::Cast, {x}, {{"dtype", d}}, nameArg(in, args[2], "Cast")));
  });
  for (const char *n : {"zeros", "ones"}) {
    double v = std::string(n) == "ones" ? 1 : 0;
    defSig(in, tf, fmt::format("{}(shape, dtype=None, name=None, layout=!None)", n), [v, n](Interpreter &in, const Bound &a) -> Value {
      DType d = dtypeArg(in, a["dtype"]).value_or(DType::Float32);
      auto scalar = make<TensorObject>();
      scalar->eager = Tensor::fromDoubles(d, {}, {v});
      std::vector<Ref<TensorObject>> xs{scalar};
      ir::Attrs attrs;
      addShapeArg(xs, attrs, "shape", shapeArg(in, a["shape"], "shape"));
      return Value(callOp1(in, OpKind::Fill, xs, attrs, nameArg(in, a["name"], n)));
    });
  }
  for (const char *n : {"zeros_like", "ones_like"}) {
    OpKind k = std::string(n) == "zeros_like" ? OpKind::ZerosLike : OpKind::OnesLike;
    std::string sig = std::string(n) + "(input, dtype=None, name=None, layout=!None)";
    defSig(in, tf, sig.c_str(), [k](Interpreter &in, const Bound &a) -> Value {
      auto x = toTensor(in, a["input"]);
      if (auto d = dtypeArg(in, a["dtype"]); d && *d != x->dtype())
        x = callOp1(in, OpKind::Cast, {x}, {{"dtype", *d}}, "Cast");
      return Value(callOp1(in, k, {x}, {}, nameArg(in, a["name"], k == OpKind::ZerosLike ? "zeros_like" : "ones_like")));
    });
  }
  defSig(in, tf, "fill(dims, value, name=None, layout=!None)", [](Interpreter &in, const Bound &a) -> Value {
    std::vector<Ref<TensorObject>> xs{toTensor(in, a["value"])};
    ir::Attrs attrs;
    addShapeArg(xs, attrs, "shape", shapeArg(in, a["dims"], "dims"));
    return Value(callOp1(in, OpKind::Fill, xs, attrs, nameArg(in, a["name"], "Fill")));
  });
  defSig(in, tf, "range(start, limit=None, delta=1, dtype=None, name='range')", [](Interpreter &in, const Bound &a) -> Value {
    // A lone start is the limit, counting from 0 (TF). limit= and start=
    // by keyword bind by name (tf.range(1, limit=7) was range(0, 1)).
    Value start = a["start"], limit = a["limit"], delta = a["delta"];
    if (limit.isNone()) {
      limit = start;
      start = Value::integer(0);
    }
    // Without dtype, the widest of the arguments' dtypes in TF's hierarchy
    // int32 < int64 < float32 < float64 (a Python int is int32, a float
    // float32): tf.range(float64 tensor) counts in float64.
    std::optional<DType> d = dtypeArg(in, a["dtype"]);
    static const DType kHierarchy[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64};
    auto rank = [](DType t) {
      for (int i = 0; i < 4; ++i)
        if (kHierarchy[i] == t) return i;
      return -1;
    };
    DType dt = DType::Int32;
    std::optional<DType> other;
    for (auto *v : {&start, &limit, &delta}) {
      DType t = v->isFloat() ? DType::Float32 : DType::Int32;
      if (auto *x = v->as<TensorObject>()) t = x->dtype();
      if (rank(t) < 0) other = t;
      else if (rank(t) > rank(dt)) dt = t;
    }
    if (other && rank(dt) <= 1) dt = *other;
    if (d) dt = *d;
    auto s = toTensor(in, start, std::nullopt, dt), l = toTensor(in, limit, std::nullopt, dt), dl = toTensor(in, delta, std::nullopt, dt);
    if (s->dtype() != dt) s = callOp1(in, OpKind::Cast, {s}, {{"dtype", dt}});
    if (l->dtype() != dt) l = callOp1(in, OpKind::Cast, {l}, {{"dtype", dt}});
    if (dl->dtype() != dt) dl = callOp1(in, OpKind::Cast, {dl}, {{"dtype", dt}});
    Ref<TensorObject> r = callOp1(in, OpKind::Range, {s, l, dl}, {}, "range");
    // Staged with known bounds: the length is static, as TF's shape
    // inference finds from constant inputs (map_fn and `for` unroll by it).
    if (r->symbolic() && !s->symbolic() && !l->symbolic() && !dl->symbolic()) {
      double a0 = s->eager.elementAsDouble(0), a1 = l->eager.elementAsDouble(0), step = dl->eager.elementAsDouble(0);
      if (step != 0 && std::isfinite(a0) && std::isfinite(a1) && std::isfinite(step)) {
        double n = std::ceil((a1 - a0) / step);
        if (n >= 0 && n < 9e15) r->sym->type.shape = ir::Shape({int64_t(n)});
        else if (n < 0) r->sym->type.shape = ir::Shape({int64_t(0)});
      }
    }
    return Value(r);
  });
  defSig(in, tf, "linspace(start, stop, num, name=None, axis=!0)", [](Interpreter &in, const Bound &a) -> Value {
    // TF 2.15's linspace_nd divides (stop - start) by the step count with
    // truediv: integer endpoints give float64 (int32, int64) or float32.
    auto s = toTensor(in, a["start"]);
    if (!ir::isFloating(s->dtype())) {
      DType wide = s->dtype() == DType::Int32 || s->dtype() == DType::Int64 ? DType::Float64 : DType::Float32;
      s = callOp1(in, OpKind::Cast, {s}, {{"dtype", wide}});
    }
    auto e = toTensor(in, a["stop"], std::nullopt, s->dtype());
    std::vector<Ref<TensorObject>> xs{s, e};
    ir::Attrs attrs;
    addShapeArg(xs, attrs, "num", scalarArg(in, a["num"], "num"));
    return Value(callOp1(in, OpKind::Linspace, xs, attrs, nameArg(in, a["name"], "LinSpace")));
  });
  defSig(in, tf, "one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None)",
         [](Interpreter &in, const Bound &a) -> Value {
    // TF: without dtype, on_value's (else off_value's) dtype, else float32.
    std::optional<DType> d = dtypeArg(in, a["dtype"]);
    for (const char *v : {"on_value", "off_value"})
      if (!d && !a.isNone(v)) d = toTensor(in, a[v])->dtype();
    ir::Attrs attrs{{"dtype", d.value_or(DType::Float32)}};
    if (!a.isNone("on_value")) attrs["on_value"] = in.toFloat(a["on_value"]);
    if (!a.isNone("off_value")) attrs["off_value"] = in.toFloat(a["off_value"]);
    std::vector<Ref<TensorObject>> xs{toTensor(in, a["indices"])};
    addShapeArg(xs, attrs, "depth", scalarArg(in, a["depth"], "depth"));
    auto hot = callOp1(in, OpKind::OneHot, xs, attrs, nameArg(in, a["name"], "one_hot"));
    int64_t axis = a.isNone("axis") ? -1 : in.toInt(a["axis"]);
    if (axis == -1) return Value(hot);
    // The new axis made last, then moved to `axis` (TF's OneHot kernel's check).
    ir::Shape shape = hot->sym ? hot->sym->type.shape : ir::Shape(hot->eager.shape());
    if (!shape.ranked)
      raiseTf(in, "NotImplementedError", "one_hot with an axis of indices of unknown rank is not supported by tfs");
    int64_t rank = int64_t(shape.rank());
    if (axis < 0 || axis >= rank)
      raiseTf(in, "InvalidArgumentError",
              fmt::format("Expected axis to be -1 or between [0, {}).  But received: {} [Op:OneHot]", rank, axis));
    std::vector<int64_t> perm;
    for (int64_t d = 0; d < rank - 1; ++d) {
      if (d == axis) perm.push_back(rank - 1);
      perm.push_back(d);
    }
    if (axis == rank - 1) perm.push_back(rank - 1);
    return Value(callOp1(in, OpKind::Transpose, {hot}, {{"perm", perm}}, "transpose"));
  });
  defSig(in, tf, "where(condition, x=None, y=None, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    auto c = toTensor(in, a["condition"]);
    if (a.isNone("x") && a.isNone("y")) {
      // The coordinates of the true elements: [num_true, rank], int64 (a
      // shape known only at run time).
      return Value(callOp1(in, OpKind::WhereIndices, {c}, {}, nameArg(in, a["name"], "Where")));
    }
    if (a.isNone("x") || a.isNone("y")) raiseTf(in, "ValueError", "x and y must both be non-None or both be None.");
    auto x = toTensor(in, a["x"]);
    auto y = toTensor(in, a["y"], std::nullopt, x->dtype());
    return Value(callOp1(in, OpKind::Select, {c, x, y}, {}, nameArg(in, a["name"], "SelectV2")));
  });
  def(in, tf, "shape", [](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    auto args = in.bindArgs("shape", a, kw, {"input", "out_type", "name"}, {std::nullopt, Value(), Value()});
    ir::Attrs attrs;
    if (auto d = dtypeArg(in, args[1])) attrs["out_type"] = *d;
    // TF's array_ops.shape: a SparseTensor's is its dense_shape (cast to
    // out_type); a RaggedTensor's is a tf.experimental.DynamicRaggedShape
    // (lib/tf/ragged/_ragged_shape.tfs).
    if (auto *inst = args[0].as<InstanceObject>()) {
      std::string_view cls = inst->klass->name;
      if (cls == "SparseTensor") {
        auto dense = toTensor(in, in.getAttr(args[0], "dense_shape"));
        DType out = attrs.count("out_type") ? std::get<DType>(attrs["out_type"]) : DType::Int32;
        return Value(callOp1(in, OpKind::Cast, {dense}, {{"dtype", out}}, "Cast"));
      }
      if (cls == "RaggedTensor")
        return in.call(in.getAttr(importPreludeModule(in, "_ragged_shape"), "shape_of_ragged"),
                       std::vector<Value>{args[0], args[1]});
    }
    return Value(callOp1(in, OpKind::ShapeOf, {toTensor(in, args[0])}, attrs, "Shape"));
  });
  defSig(in, tf, "size(input, out_type=None, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    auto n = callOp1(in, OpKind::SizeOf, {toTensor(in, a["input"])}, {}, nameArg(in, a["name"], "Size"));
    if (auto d = dtypeArg(in, a["out_type"]); d && *d != n->dtype()) n = callOp1(in, OpKind::Cast, {n}, {{"dtype", *d}}, "Cast");
    return Value(n);
  });
  defSig(in, tf, "identity(input, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    return Value(callOp1(in, OpKind::Identity, {toTensor(in, a["input"])}, {}, nameArg(in, a["name"], "Identity")));
  });
  defSig(in, tf, "stop_gradient(input, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    return Value(callOp1(in, OpKind::Identity, {toTensor(in, a["input"])}, {{"stop_gradient", true}},
                         nameArg(in, a["name"], "StopGradient")));
  });
  defSig(in, tf, "broadcast_to(input, shape, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    std::vector<Ref<TensorObject>> xs{toTensor(in, a["input"])};
    ir::Attrs attrs;
    addShapeArg(xs, attrs, "shape", shapeArg(in, a["shape"], "shape"));
    return Value(callOp1(in, OpKind::BroadcastTo, xs, attrs, nameArg(in, a["name"], "BroadcastTo")));
  });
  defSig(in, tf, "tile(input, multiples, name=None)", [](Interpreter &in, const Bound &a) -> Value {
    std::vector<Ref<TensorObject>> xs{toTensor(in, a["input"])};
    ir::Attrs attrs;
    addShapeArg(xs, attrs, "multiples", shapeArg(in, a["multiples"], "multiples"));
    return Value(callOp1(in, OpKind::Tile, xs, attrs, nameArg(in, a["name"], "Tile")));
  });
}

}  // namespace tfs::runtime::tf
