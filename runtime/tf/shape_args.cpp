// Shape arguments from Python values (ir/shape_args.h, Note [Shape
// arguments]): what the tf.* bindings pass for reshape's shape, fill's dims,
// one_hot's depth, slice bounds, ... Values known while tracing (Python
// ints, eager tensors, TensorShapes, symbolic tensors whose value the graph
// knows, like tf.shape of a static shape) become attributes; the rest is
// one int32/int64 tensor computed at run time, packed from a list the way
// TF auto-packs `[tf.shape(x)[0], -1]`.
#include "ir/shape_args.h"
#include "runtime/tf/tf.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

using ir::OpKind;

namespace {

// The value of an integer tensor when known while tracing.
std::optional<std::vector<int64_t>> knownValue(const TensorObject &t) {
  std::optional<Tensor> v = staticValue(t);
  if (!v) return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t i = 0; i < v->numElements(); ++i) out.push_back(v->elementAsInt(i));
  return out;
}

void requireInteger(Interpreter &in, const TensorObject &t, const char *what) {
  if (!ir::isInteger(t.dtype()))
    raiseTf(in, "TypeError", fmt::format("{} must be an int32 or int64 tensor, got {}", what, ir::dtypeName(t.dtype())));
}

}  // namespace

ShapeArg shapeArg(Interpreter &in, const Value &v, const char *what) {
  ShapeArg out;
  if (auto *t = v.as<TensorObject>()) {
    requireInteger(in, *t, what);
    ir::Shape s = t->shape();
    if (s.ranked && s.rank() > 1)
      raiseTf(in, "ValueError", fmt::format("{} must be a vector, got shape {}", what, s.tfString()));
    if (auto known = knownValue(*t)) {
      out.ints = std::move(*known);
      return out;
    }
    out.tensor = Ref<TensorObject>(t);
    // A scalar stands for a one-dim shape, as a Python int does.
    if (s.ranked && s.rank() == 0) out.tensor = callOp1(in, OpKind::Stack, {out.tensor}, {{"axis", int64_t(0)}}, "stack");
    return out;
  }
  if (auto *s = v.as<TensorShapeObject>()) {
    if (!s->shape.ranked) raiseTf(in, "ValueError", fmt::format("{} of unknown rank", what));
    out.ints = s->shape.dims;
    return out;
  }
  if (v.isInt() || v.isBool()) {
    out.ints = std::vector<int64_t>{in.toIndex(v)};
    return out;
  }
  if (!v.as<ListObject>() && !v.as<TupleObject>())
    return shapeArg(in, Value(toTensor(in, v)), what);
  std::vector<Value> items = in.toList(v);
  bool dynamic = false, wide = false;
  for (const Value &x : items) {
    if (auto *t = x.as<TensorObject>()) {
      requireInteger(in, *t, what);
      if (t->dtype() == ir::DType::Int64) wide = true;
      if (t->symbolic() && !knownValue(*t)) dynamic = true;
    }
  }
  if (!dynamic) {
    std::vector<int64_t> ints;
    for (const Value &x : items) {
      if (x.isNone()) {
        ints.push_back(-1);
      } else if (auto *t = x.as<TensorObject>()) {
        auto known = knownValue(*t);
        if (known->size() != 1)
          raiseTf(in, "ValueError", fmt::format("{}: a list entry must be a scalar", what));
        ints.push_back((*known)[0]);
      } else {
        ints.push_back(in.toIndex(x));
      }
    }
    out.ints = std::move(ints);
    return out;
  }
  // Pack the entries into one vector (TF's auto-packing of lists holding
  // tensors): Python ints take the tensors' dtype.
  ir::DType dt = wide ? ir::DType::Int64 : ir::DType::Int32;
  std::vector<Ref<TensorObject>> parts;
  for (const Value &x : items) {
    Ref<TensorObject> t = toTensor(in, x.isNone() ? Value::integer(-1) : x, std::nullopt, dt);
    if (t->shape().ranked && t->shape().rank() != 0)
      raiseTf(in, "ValueError", fmt::format("{}: a list entry must be a scalar, got shape {}", what, t->shape().tfString()));
    if (t->dtype() != dt) t = callOp1(in, OpKind::Cast, {t}, {{"dtype", dt}}, "Cast");
    parts.push_back(t);
  }
  out.tensor = callOp1(in, OpKind::Stack, parts, {{"axis", int64_t(0)}}, "stack");
  return out;
}

ShapeArg scalarArg(Interpreter &in, const Value &v, const char *what) {
  if (v.as<ListObject>() || v.as<TupleObject>() || v.as<TensorShapeObject>())
    raiseTf(in, "TypeError", fmt::format("{} must be a scalar", what));
  ShapeArg a;
  a.scalar = true;
  if (auto *t = v.as<TensorObject>(); t && t->symbolic()) {
    requireInteger(in, *t, what);
    if (t->shape().ranked && t->shape().rank() != 0)
      raiseTf(in, "ValueError", fmt::format("{} must be a scalar, got shape {}", what, t->shape().tfString()));
    if (auto known = knownValue(*t)) a.ints = std::move(known);
    else a.tensor = Ref<TensorObject>(t);
    return a;
  }
  a.ints = std::vector<int64_t>{in.toIndex(v)};
  return a;
}

void addShapeArg(std::vector<Ref<TensorObject>> &inputs, ir::Attrs &attrs, const std::string &attr,
                 const ShapeArg &arg) {
  if (arg.ints) {
    if (arg.scalar && arg.ints->size() == 1) attrs[attr] = (*arg.ints)[0];
    else attrs[attr] = *arg.ints;
    return;
  }
  inputs.push_back(arg.tensor);
}

Ref<TensorObject> shapeTensor(Interpreter &in, const ShapeArg &arg) {
  if (arg.tensor) return arg.tensor;
  bool wide = false;
  for (int64_t v : *arg.ints) wide |= v > INT32_MAX || v < INT32_MIN;
  ir::DType dt = wide ? ir::DType::Int64 : ir::DType::Int32;
  std::vector<int64_t> shape;
  if (!(arg.scalar && arg.ints->size() == 1)) shape.push_back(int64_t(arg.ints->size()));
  auto t = make<TensorObject>();
  t->eager = Tensor::empty(dt, shape);
  for (size_t i = 0; i < arg.ints->size(); ++i) {
    if (wide) t->eager.data<int64_t>()[i] = (*arg.ints)[i];
    else t->eager.data<int32_t>()[i] = int32_t((*arg.ints)[i]);
  }
  (void)in;
  return t;
}

}  // namespace tfs::runtime::tf
