// Shape arguments: see shape_args.h, Note [Shape arguments].
#include "ir/shape_args.h"

#include "ir/graph.h"
#include "ir/slicing.h"

#include <fmt/format.h>

namespace tfs::ir {

std::vector<DynamicShapeArg> dynamicShapeArgs(const OpDef &def, const Attrs &attrs,
                                              size_t numOperands) {
  std::vector<DynamicShapeArg> out;
  if (!def.hasShapeArgs() || numOperands <= size_t(def.dataOperands))
    return out;
  size_t next = size_t(def.dataOperands);
  for (const char *name : def.shapeArgs) {
    if (next == numOperands)
      break;
    if (attrs.count(name) && !isDynamicArg(attrs, name))
      continue;
    out.push_back({name, next++});
  }
  if (next != numOperands)
    throw OpError{"InternalError",
                  fmt::format("'{}' has {} operands but only {} shape arguments to bind",
                              def.name, numOperands, out.size())};
  return out;
}

Attrs bindShapeArgs(const OpDef &def, const Attrs &attrs, size_t numOperands,
                    std::span<const ShapeArgValue> values) {
  Attrs bound = attrs;
  auto args = dynamicShapeArgs(def, attrs, numOperands);
  for (size_t i = 0; i < args.size() && i < values.size(); ++i) {
    if (auto *v = std::get_if<int64_t>(&values[i]))
      bound[args[i].attr] = *v;
    else
      bound[args[i].attr] = std::get<std::vector<int64_t>>(values[i]);
  }
  return bound;
}

bool isDynamicArg(const Attrs &attrs, const std::string &key) {
  auto it = attrs.find(key);
  return it != attrs.end() && std::holds_alternative<Shape>(it->second);
}

std::optional<Shape> attrShape(const Attrs &attrs, const std::string &key) {
  auto it = attrs.find(key);
  if (it == attrs.end())
    return std::nullopt;
  if (auto *s = std::get_if<Shape>(&it->second))
    return *s;
  if (auto *v = std::get_if<std::vector<int64_t>>(&it->second))
    return Shape(*v);
  if (auto *i = std::get_if<int64_t>(&it->second))
    return Shape({*i});
  return std::nullopt;
}

namespace {

bool isIntType(const TensorType &t) { return isInteger(t.dtype); }

// The elements of `v` as far as known: one optional per element (nullopt:
// unknown), or nullopt when even the length is unknown. ShapeOf contributes
// its input's dims, so `tf.shape(x)` of a partially known x is partially
// known (constant_value_as_shape), and knownInts is the fully known case.
std::optional<std::vector<std::optional<int64_t>>> partialInts(const Value *v, int depth);

std::optional<int64_t> scalarOf(const Value *v, int depth) {
  auto p = partialInts(v, depth);
  if (!p || p->size() != 1 || !v->type.shape.ranked || v->type.shape.rank() != 0)
    return std::nullopt;
  return (*p)[0];
}

std::optional<int64_t> arithmetic(OpKind k, int64_t a, int64_t b) {
  int64_t r;
  switch (k) {
  case OpKind::Add: if (__builtin_add_overflow(a, b, &r)) return std::nullopt; return r;
  case OpKind::Sub: if (__builtin_sub_overflow(a, b, &r)) return std::nullopt; return r;
  case OpKind::Mul: if (__builtin_mul_overflow(a, b, &r)) return std::nullopt; return r;
  case OpKind::Maximum: return std::max(a, b);
  case OpKind::Minimum: return std::min(a, b);
  case OpKind::FloorDiv:
    if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
    r = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --r;
    return r;
  default: return std::nullopt;
  }
}

std::optional<std::vector<std::optional<int64_t>>> partialInts(const Value *v, int depth) {
  using Partial = std::vector<std::optional<int64_t>>;
  if (!v || !isIntType(v->type) || depth > 16)
    return std::nullopt;
  const Shape &vs = v->type.shape;
  if (!vs.ranked || vs.rank() > 1)
    return std::nullopt;
  // Elements of unknown value but known count.
  auto unknownOfType = [&]() -> std::optional<Partial> {
    if (vs.rank() == 0) return Partial(1);
    if (vs.dims[0] >= 0 && vs.dims[0] <= 64) return Partial(size_t(vs.dims[0]));
    return std::nullopt;
  };
  const Node *n = v->definingNode();
  if (!n)
    return unknownOfType();
  switch (n->kind()) {
  case OpKind::Const: {
    const DenseElements &d = *n->constValue;
    if (d.numElements() > 64) return std::nullopt;
    Partial p;
    for (int64_t i = 0; i < d.numElements(); ++i) p.push_back(d.intAt(i));
    return p;
  }
  case OpKind::ShapeOf: {
    const Shape &s = n->operand(0)->type.shape;
    if (!s.ranked) return unknownOfType();
    Partial p;
    for (int64_t d : s.dims) p.push_back(d >= 0 ? std::optional<int64_t>(d) : std::nullopt);
    return p;
  }
  case OpKind::SizeOf: {
    int64_t e = n->operand(0)->type.shape.numElements();
    return Partial{e >= 0 ? std::optional<int64_t>(e) : std::nullopt};
  }
  case OpKind::Cast:
  case OpKind::Identity: {
    if (!isIntType(n->operand(0)->type)) return unknownOfType();
    auto p = partialInts(n->operand(0), depth + 1);
    return p ? p : unknownOfType();
  }
  case OpKind::Stack: {
    if (attrInt(n->attrs, "axis", 0) != 0 || vs.rank() != 1) return unknownOfType();
    Partial p;
    for (const Value *x : n->operands()) p.push_back(scalarOf(x, depth + 1));
    return p;
  }
  case OpKind::Concat: {
    if (vs.rank() != 1) return unknownOfType();
    Partial p;
    for (const Value *x : n->operands()) {
      auto q = partialInts(x, depth + 1);
      if (!q) return unknownOfType();
      p.insert(p.end(), q->begin(), q->end());
    }
    return p;
  }
  case OpKind::StridedSlice: {
    if (n->numOperands() != 1) return unknownOfType();
    auto in = partialInts(n->operand(0), depth + 1);
    if (!in || n->operand(0)->type.shape.rank() != 1) return unknownOfType();
    try {
      SlicePlan plan = planStridedSlice({int64_t(in->size())}, n->attrs);
      if (plan.dims.size() != 1) return unknownOfType();
      Partial p;
      for (int64_t k = 0; k < plan.dims[0].size; ++k) {
        int64_t at = plan.dims[0].start + k * plan.dims[0].step;
        if (at < 0 || at >= int64_t(in->size())) return unknownOfType();
        p.push_back((*in)[size_t(at)]);
      }
      return p;
    } catch (const OpError &) {
      return unknownOfType();
    }
  }
  case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Maximum:
  case OpKind::Minimum: case OpKind::FloorDiv: {
    // Scalar arithmetic on known values (TF's shape refiner evaluates such
    // small constant subgraphs).
    if (vs.rank() != 0) return unknownOfType();
    auto a = scalarOf(n->operand(0), depth + 1), b = scalarOf(n->operand(1), depth + 1);
    if (!a || !b) return Partial(1);
    return Partial{arithmetic(n->kind(), *a, *b)};
  }
  default:
    return unknownOfType();
  }
}

}  // namespace

std::optional<std::vector<int64_t>> knownInts(const Value *v) {
  auto p = partialInts(v, 0);
  if (!p) return std::nullopt;
  std::vector<int64_t> out;
  for (const auto &x : *p) {
    if (!x) return std::nullopt;
    out.push_back(*x);
  }
  return out;
}

std::optional<int64_t> knownScalar(const Value *v) { return scalarOf(v, 0); }

Shape knownShape(const Value *v) {
  if (v && v->type.shape.ranked && v->type.shape.rank() == 0)
    return Shape::unranked();  // a scalar shape argument: rank unknown
  auto p = partialInts(v, 0);
  if (!p) return Shape::unranked();
  std::vector<int64_t> dims;
  for (const auto &x : *p) dims.push_back(x && *x >= 0 ? *x : kUnknownDim);
  return Shape(dims);
}

void foldKnownShapeArgs(OpKind kind, std::vector<Value *> &operands, Attrs &attrs) {
  const OpDef &d = opDef(kind);
  if (!d.hasShapeArgs()) return;
  auto args = dynamicShapeArgs(d, attrs, operands.size());
  std::vector<bool> drop(operands.size(), false);
  for (const auto &a : args) {
    const Value *v = operands[a.operand];
    if (!v->type.shape.ranked || v->type.shape.rank() > 1) continue;
    auto known = knownInts(v);
    if (!known) continue;
    if (v->type.shape.rank() == 0) attrs[a.attr] = (*known)[0];
    else attrs[a.attr] = *known;
    drop[a.operand] = true;
  }
  std::vector<Value *> kept;
  for (size_t i = 0; i < operands.size(); ++i)
    if (!drop[i]) kept.push_back(operands[i]);
  operands = std::move(kept);
}

std::vector<TensorType> inferNodeTypes(OpKind kind, std::span<Value *const> operands,
                                       const Attrs &attrs) {
  const OpDef &d = opDef(kind);
  std::vector<TensorType> in;
  in.reserve(operands.size());
  for (const Value *v : operands) in.push_back(v->type);
  if (!d.hasShapeArgs() || operands.size() <= size_t(d.dataOperands))
    return d.inferTypes(in, attrs);
  Attrs partial = attrs;
  for (const auto &a : dynamicShapeArgs(d, attrs, operands.size())) {
    const Value *v = operands[a.operand];
    if (!isIntType(v->type))
      throw OpError{"InvalidArgumentError",
                    fmt::format("{} must be an int32 or int64 tensor, got {} [Op:{}]", a.attr,
                                dtypeName(v->type.dtype), tfOpType(kind))};
    if (v->type.shape.ranked && v->type.shape.rank() == 0)
      partial[a.attr] = Shape();
    else
      partial[a.attr] = knownShape(v);
  }
  return d.inferTypes(in, partial);
}

}  // namespace tfs::ir
