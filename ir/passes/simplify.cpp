// Algebraic simplification (runSimplify in ir/passes/passes.h).
//
// Expects verified input. One pattern per function below; each looks at one
// node (operands already remapped) and either leaves it or replaces its
// results through the Rewriter. A pattern fires only when the replacement
// has exactly the node's result type, so broadcasting ops that change a
// shape (`x + zeros([3])` with scalar x) stay.
//
// Algorithm:
//  1. Walk the function in program order (Rewriter::walk).
//  2. Try the patterns in order on each node; the first that applies wins.
//  3. Rewriter::finish remaps remaining uses and erases replaced nodes; DCE
//     removes operands that became dead.
#include "ir/builder.h"
#include "ir/passes/passes.h"
#include "ir/passes/rewrite.h"
#include "ir/shape_args.h"

#include <cmath>
#include <numeric>

namespace tfs::ir {

using passes_detail::Rewriter;

namespace passes_detail {

Value *insertConstBefore(Node &before, DenseElements value) {
  Builder b(*before.parentRegion(), before.parentRegion()->positionOf(&before));
  return b.constant(std::move(value), before.loc.span);
}

} // namespace passes_detail

namespace {

// Is `v` a constant whose every element equals `x` (numeric/bool dtypes)?
bool isSplatOf(const Value *v, double x) {
  const DenseElements *d = constValueOf(v);
  // Complex constants never match: doubleAt reads only the real part, and
  // x * (1+1j) is not x.
  if (!d || d->dtype() == DType::String || isComplex(d->dtype()) ||
      d->numElements() == 0 || !d->isSplat())
    return false;
  return d->doubleAt(0) == x;
}

bool sameType(const Value *a, const Value *b) { return a->type == b->type; }

// Replaces n's single result with `v` when the types agree exactly.
bool forwardIfSameType(Rewriter &rw, Node &n, Value *v) {
  if (!sameType(n.result(), v))
    return false;
  rw.replaceNode(n, std::span(&v, 1));
  return true;
}

// Is `v` a constant zero that leaves x unchanged when added (subtracted,
// for `subtracting`) to every x? For floats only one zero does: -0.0 + 0.0
// is +0.0, so x + 0.0 is not x, while x + -0.0 and x - 0.0 are.
bool isNeutralZero(const Value *v, bool subtracting) {
  if (!isSplatOf(v, 0))
    return false;
  if (!isFloating(v->type.dtype))
    return true;
  return std::signbit(constValueOf(v)->doubleAt(0)) != subtracting;
}

// x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1 -> x (float zeros: see
// isNeutralZero).
bool identityOperand(Rewriter &rw, Node &n) {
  Value *a = n.operand(0), *b = n.operand(1);
  switch (n.kind()) {
  case OpKind::Add:
    if (isNeutralZero(b, false) && forwardIfSameType(rw, n, a))
      return true;
    return isNeutralZero(a, false) && forwardIfSameType(rw, n, b);
  case OpKind::Sub:
    return isNeutralZero(b, true) && forwardIfSameType(rw, n, a);
  case OpKind::Mul:
    if (isSplatOf(b, 1) && forwardIfSameType(rw, n, a))
      return true;
    return isSplatOf(a, 1) && forwardIfSameType(rw, n, b);
  case OpKind::Div:
    return isSplatOf(b, 1) && forwardIfSameType(rw, n, a);
  default:
    return false;
  }
}

// x * 0 -> zeros, integers only (for floats 0 * inf is nan).
bool multiplyByZero(Rewriter &rw, Node &n) {
  if (n.kind() != OpKind::Mul || !isInteger(n.result()->type.dtype))
    return false;
  for (Value *z : n.operands())
    if (isSplatOf(z, 0)) {
      if (sameType(n.result(), z))
        return forwardIfSameType(rw, n, z);
      const TensorType &t = n.result()->type;
      if (!t.shape.fullyDefined() || t.shape.numElements() > 1024)
        return false;
      Value *zeros = passes_detail::insertConstBefore(
          n, DenseElements::splat(t.dtype, t.shape, 0));
      rw.replaceNode(n, std::span(&zeros, 1));
      return true;
    }
  return false;
}

// f(f(x)) -> x for involutions.
bool involution(Rewriter &rw, Node &n) {
  if (n.kind() != OpKind::Neg && n.kind() != OpKind::LogicalNot)
    return false;
  Node *inner = n.operand(0)->definingNode();
  if (!inner || inner->kind() != n.kind())
    return false;
  return forwardIfSameType(rw, n, inner->operand(0));
}

// identity x, cast x to its own dtype, reshape x to its own static shape.
bool noOp(Rewriter &rw, Node &n) {
  switch (n.kind()) {
  case OpKind::Identity:
  case OpKind::Cast:
    return forwardIfSameType(rw, n, n.operand(0));
  case OpKind::Reshape:
  case OpKind::BroadcastTo:
  case OpKind::ExpandDims:
  case OpKind::Squeeze:
    return n.result()->type.shape.fullyDefined() &&
           forwardIfSameType(rw, n, n.operand(0));
  default:
    return false;
  }
}

// The permutation of a transpose node (absent attr: reversed axes).
std::optional<std::vector<int64_t>> permOf(const Node &t) {
  if (const auto *p = attrInts(t.attrs, "perm"))
    return *p;
  const Shape &s = t.operand(0)->type.shape;
  if (!s.ranked)
    return std::nullopt;
  std::vector<int64_t> p(s.rank());
  for (size_t i = 0; i < p.size(); ++i)
    p[i] = int64_t(p.size() - 1 - i);
  return p;
}

// transpose(transpose(x, p1), p2) -> transpose(x, q), q[i] = p1[p2[i]];
// x itself when q is the identity.
bool transposeOfTranspose(Rewriter &rw, Node &n) {
  if (n.kind() != OpKind::Transpose)
    return false;
  Node *inner = n.operand(0)->definingNode();
  if (!inner || inner->kind() != OpKind::Transpose)
    return false;
  auto p1 = permOf(*inner), p2 = permOf(n);
  if (!p1 || !p2 || p1->size() != p2->size())
    return false;
  std::vector<int64_t> q(p2->size());
  for (size_t i = 0; i < q.size(); ++i) {
    int64_t k = (*p2)[i];
    if (k < 0 || size_t(k) >= p1->size())
      return false;
    q[i] = (*p1)[size_t(k)];
  }
  std::vector<int64_t> iota(q.size());
  std::iota(iota.begin(), iota.end(), 0);
  Value *x = inner->operand(0);
  if (q == iota)
    return forwardIfSameType(rw, n, x);
  Builder b(*n.parentRegion(), n.parentRegion()->positionOf(&n));
  Attrs attrs = n.attrs;
  attrs["perm"] = q;
  try {
    Value *t = b.create(OpKind::Transpose, {x}, std::move(attrs), n.loc.span);
    if (!sameType(t, n.result())) {
      // Keep the original (the new node is unused; DCE removes it).
      return false;
    }
    rw.replaceNode(n, std::span(&t, 1));
    return true;
  } catch (const OpError &) {
    return false;
  }
}

// shape(x) / size(x) of a static shape -> constant.
bool staticShape(Rewriter &rw, Node &n) {
  if (n.kind() != OpKind::ShapeOf && n.kind() != OpKind::SizeOf)
    return false;
  const TensorType &in = n.operand(0)->type;
  const TensorType &out = n.result()->type;
  if (!in.shape.fullyDefined() || !isInteger(out.dtype))
    return false;
  DenseElements value;
  if (n.kind() == OpKind::ShapeOf)
    value = DenseElements::fromInts(
        out.dtype, Shape({int64_t(in.shape.rank())}), in.shape.dims);
  else
    value = DenseElements::scalarInt(out.dtype, in.shape.numElements());
  if (!(value.type() == out))
    return false;
  Value *c = passes_detail::insertConstBefore(n, std::move(value));
  rw.replaceNode(n, std::span(&c, 1));
  return true;
}

// cond on a constant predicate -> the taken branch, inlined before the cond.
// Regions capture outer values implicitly, so the branch's nodes stay valid
// in the enclosing region; side-effecting nodes keep their order.
bool constantCond(Rewriter &rw, Node &n) {
  if (n.kind() != OpKind::Cond)
    return false;
  const DenseElements *p = constValueOf(n.operand(0));
  if (!p || p->numElements() != 1)
    return false;
  Region &taken = n.region(p->intAt(0) ? 0 : 1);
  Node *yield = taken.terminator();
  std::vector<Value *> values(yield->operands().begin(),
                              yield->operands().end());
  for (size_t i = 0; i < values.size(); ++i)
    if (!typeFits(n.result(unsigned(i))->type, values[i]->type))
      return false;
  Region &outer = *n.parentRegion();
  auto pos = outer.positionOf(&n);
  while (taken.nodes().front().get() != yield)
    outer.insert(pos, taken.take(taken.nodes().front().get()));
  rw.replaceNode(n, values);
  return true;
}

// Is `v` defined inside one of `op`'s regions (at any depth)?
bool definedInside(const Value *v, const Node &op) {
  const Region *r = v->kind() == Value::Kind::Result
                        ? v->definingNode()->parentRegion()
                    : v->kind() == Value::Kind::BlockArg ? v->ownerRegion()
                                                         : nullptr;
  for (; r && r->parentNode(); r = r->parentNode()->parentRegion())
    if (r->parentNode() == &op)
      return true;
  return false;
}

// Values that flow through control flow unchanged:
//   cond: both branches yield the same outer value -> the result is it;
//   while_loop: the body yields its own argument i -> the loop-carried
//   value i is invariant, and its block arguments and result are the
//   initial value (defined before the loop, so visible inside it). DCE then
//   prunes the unused result / carried value.
bool passThrough(Rewriter &rw, Node &n) {
  bool changed = false;
  if (n.kind() == OpKind::Cond) {
    Node *a = n.region(0).terminator(), *b = n.region(1).terminator();
    for (unsigned i = 0; i < n.numResults(); ++i) {
      Value *v = rw.resolve(a->operand(i));
      if (v == rw.resolve(b->operand(i)) && !definedInside(v, n)) {
        rw.replace(n.result(i), v);
        changed = true;
      }
    }
  } else if (n.kind() == OpKind::WhileLoop) {
    Region &body = n.region(1);
    Node *y = body.terminator();
    for (unsigned i = 0; i < n.numResults(); ++i) {
      if (y->operand(i) != body.arg(i))
        continue;
      Value *init = n.operand(i);
      rw.replace(n.result(i), init);
      rw.replace(n.region(0).arg(i), init);
      rw.replace(body.arg(i), init); // the yield then passes `init` on
      changed = true;
    }
  }
  return changed;
}

// Shape operands that became known (constant folding, refined input
// shapes) move into their attributes: the static path of Note [Shape
// arguments] (ir/shape_args.h). The result type can only get more precise.
bool knownShapeOperands(Rewriter &rw, Node &n) {
  const OpDef &d = n.def();
  if (!d.hasShapeArgs() || n.numOperands() <= size_t(d.dataOperands))
    return false;
  std::vector<Value *> ops(n.operands().begin(), n.operands().end());
  Attrs attrs = n.attrs;
  foldKnownShapeArgs(n.kind(), ops, attrs);
  if (ops.size() == n.numOperands())
    return false;
  n.setOperands(std::move(ops));
  n.attrs = std::move(attrs);
  rw.noteChange();
  return true;
}

} // namespace

bool runSimplify(Function &fn) {
  Rewriter rw;
  rw.walk(fn.body(), [&rw](Node &n) {
    if (n.numResults() == 0 && n.kind() != OpKind::Cond)
      return;
    knownShapeOperands(rw, n);
    if (n.numOperands() == 2 && n.numResults() == 1 &&
        (identityOperand(rw, n) || multiplyByZero(rw, n)))
      return;
    if (n.numOperands() == 1 && n.numResults() == 1 &&
        (involution(rw, n) || noOp(rw, n) || transposeOfTranspose(rw, n) ||
         staticShape(rw, n)))
      return;
    if (!constantCond(rw, n))
      passThrough(rw, n);
  });
  return rw.finish(fn);
}

} // namespace tfs::ir
