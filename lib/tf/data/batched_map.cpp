// _tf_data_native.batched_map: a dataset map function run once on a whole
// batch instead of once per element, when that computes the same values.
//
// Note [Batched map]
// `ds.map(lambda x, y: (tf.cast(x, tf.float32) / 255.0, y)).batch(32)` calls
// the traced function once per element (~tens of microseconds each, the
// call machinery and a small kernel per op), then stacks the results. When
// every op of the function works element by element with IEEE-exact (or
// integer) arithmetic, and its only other operands are scalars, the
// function applied to the stacked rows is the stack of the function applied
// to each row, bit for bit: each output element is computed by the same
// operation on the same operand values. batch() over such a map (of rows of
// a from_tensor_slices source, see _tf_data.tfs) then gathers the batch's
// input rows and runs the function once, as a copy whose parameters and
// values have an unknown leading (batch) dimension.
//
// The function qualifies when: it has no nested regions, calls or variable
// reads; every node is a rank-0 constant or one of the ops below; each op's
// operands derived from the parameters ("row values") all have the same
// fully known shape, which is also its result's, and its other operands are
// rank 0; every output is a row value. Transcendental ops (exp, tanh, ...)
// are left out: their vector and scalar code paths need not round alike.
// Integer division is left out too (its error is per element).
#include "lib/tf/tf_lib.h"
#include "runtime/tf/concrete_function.h"
#include "runtime/tf/executable.h"

#include <unordered_set>

namespace tfs::runtime::tf {

namespace {

using ir::OpKind;

bool exactElementwise(const ir::Node &n) {
  switch (n.kind()) {
  case OpKind::Identity: case OpKind::Cast: case OpKind::Add: case OpKind::Sub: case OpKind::Mul:
  case OpKind::Maximum: case OpKind::Minimum: case OpKind::Equal: case OpKind::NotEqual:
  case OpKind::Less: case OpKind::LessEqual: case OpKind::Greater: case OpKind::GreaterEqual:
  case OpKind::LogicalAnd: case OpKind::LogicalOr: case OpKind::LogicalNot: case OpKind::Select:
  case OpKind::Neg: case OpKind::Abs: case OpKind::Sign: case OpKind::Square: case OpKind::Sqrt:
  case OpKind::Relu:
    return true;
  case OpKind::Div:
    return n.numResults() == 1 && ir::isFloating(n.result()->type.dtype);
  default:
    return false;
  }
}

bool isScalar(const ir::Value *v) { return v->type.shape.ranked && v->type.shape.rank() == 0; }

// The row values of `fn` (Note [Batched map]), or nullopt when it does not
// qualify.
std::optional<std::unordered_set<const ir::Value *>> rowValues(const ir::Function &fn) {
  std::unordered_set<const ir::Value *> rows;
  for (const ir::Value *p : fn.params()) {
    if (!p->type.shape.ranked || !p->type.shape.fullyDefined()) return std::nullopt;
    rows.insert(p);
  }
  for (const ir::Capture &c : fn.captures())
    if (c.kind != ir::Capture::Kind::Tensor || !c.type.shape.ranked || c.type.shape.rank() != 0)
      return std::nullopt;
  bool ok = true;
  for (const auto &node : fn.body().nodes()) {
    const ir::Node &n = *node;
    if (n.kind() == OpKind::Return) {
      for (const ir::Value *v : n.operands())
        if (!rows.count(v)) ok = false;
      continue;
    }
    if (n.kind() == OpKind::Const) {
      if (n.numResults() != 1 || !isScalar(n.result())) ok = false;
      continue;
    }
    if (!exactElementwise(n) || n.numResults() != 1 || n.numRegions() != 0) return std::nullopt;
    const ir::Shape *rowShape = nullptr;
    for (const ir::Value *v : n.operands()) {
      if (rows.count(v)) {
        if (rowShape && !(*rowShape == v->type.shape)) return std::nullopt;
        rowShape = &v->type.shape;
      } else if (!isScalar(v)) {
        return std::nullopt;
      }
    }
    const ir::Value *r = n.result();
    if (rowShape) {
      if (!(r->type.shape == *rowShape)) return std::nullopt;
      rows.insert(r);
    } else if (!isScalar(r)) {
      return std::nullopt;
    }
  }
  if (!ok) return std::nullopt;
  return rows;
}

ir::Shape withBatchDim(const ir::Shape &s) {
  std::vector<int64_t> dims{-1};
  dims.insert(dims.end(), s.dims.begin(), s.dims.end());
  return ir::Shape(dims);
}

// The copy of a qualifying function whose row values have a leading
// unknown dimension, or null.
std::unique_ptr<ir::Function> batchedCopy(const ir::Function &fn) {
  if (!rowValues(fn)) return nullptr;
  std::unique_ptr<ir::Function> copy = fn.clone(fn.name() + "_batched");
  auto rows = rowValues(*copy);
  if (!rows) return nullptr;
  for (const ir::Value *v : *rows) const_cast<ir::Value *>(v)->type.shape = withBatchDim(v->type.shape);
  for (ir::TensorType &t : copy->resultTypes) t.shape = withBatchDim(t.shape);
  return copy;
}

// batched_map(concrete_function): None, or a function of the batched flat
// inputs returning the tuple of batched flat outputs.
Value batchedMap(Interpreter &in, const Bound &a) {
  auto *cf = a["concrete_function"].as<ConcreteFunction>();
  if (!cf) in.raise("TypeError", "batched_map: expected a ConcreteFunction");
  std::unique_ptr<ir::Function> copy = batchedCopy(cf->executable(in.profiler()).function());
  if (!copy) return Value();
  auto exec = std::make_shared<Executable>(*copy, in.profiler());
  size_t params = copy->params().size();
  return in.native("batched_map_fn", [exec, params](Interpreter &in, Args args, const Kwargs &) -> Value {
    if (args.size() != params) in.raise("TypeError", "batched_map_fn: wrong number of inputs");
    std::vector<Tensor> tensors;
    for (const Value &v : args) tensors.push_back(toTensor(in, v)->eager);
    std::vector<Tensor> results = exec->run(in, std::move(tensors));
    std::vector<Value> outs;
    for (Tensor &t : results) outs.push_back(wrap(std::move(t)));
    return Value(make<TupleObject>(std::move(outs)));
  });
}

}  // namespace

void addBatchedMap(Interpreter &in, ModuleObject &m) {
  m.scope->vars["batched_map"] = nativeWithSignature(in, "batched_map(concrete_function)", batchedMap);
}

}  // namespace tfs::runtime::tf
