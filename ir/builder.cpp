// ir::Builder: node creation with type rules, constants, terminators,
// variables, calls, and the region ops cond / while_loop (ir/builder.h).
#include "ir/builder.h"
#include "ir/shape_args.h"

#include <cassert>
#include <fmt/format.h>

namespace tfs::ir {

namespace {

Location locOf(frontend::SourceSpan span) { return Location{span, nullptr}; }

std::vector<TensorType> typesOf(std::span<Value *const> values) {
  std::vector<TensorType> t;
  t.reserve(values.size());
  for (Value *v : values)
    t.push_back(v->type);
  return t;
}

void checkArity(OpKind kind, size_t n) {
  const OpDef &d = opDef(kind);
  if (int(n) < d.minOperands || (d.maxOperands >= 0 && int(n) > d.maxOperands))
    throw OpError{
        "InvalidArgumentError",
        fmt::format("op '{}' takes {} operands but was given {}", d.name,
                    d.maxOperands < 0
                        ? fmt::format("at least {}", d.minOperands)
                    : d.minOperands == d.maxOperands
                        ? fmt::format("{}", d.minOperands)
                        : fmt::format("{} to {}", d.minOperands, d.maxOperands),
                    n)};
}

// TF's text for a shape in loop errors: "(2, 3)".
std::string tfShape(const TensorType &t) { return t.shape.tfString(); }

} // namespace

TensorType relaxType(const TensorType &a, const TensorType &b) {
  TensorType r{a.dtype, a.shape};
  if (!a.shape.ranked || !b.shape.ranked || a.shape.rank() != b.shape.rank()) {
    r.shape = Shape::unranked();
    return r;
  }
  for (size_t i = 0; i < a.shape.rank(); ++i)
    if (a.shape.dims[i] != b.shape.dims[i])
      r.shape.dims[i] = kUnknownDim;
  return r;
}

bool typeFits(const TensorType &declared, const TensorType &actual) {
  if (declared.dtype != actual.dtype)
    return false;
  if (!declared.shape.ranked)
    return true;
  if (!actual.shape.ranked || actual.shape.rank() != declared.shape.rank())
    return false;
  for (size_t i = 0; i < declared.shape.rank(); ++i) {
    int64_t d = declared.shape.dims[i];
    if (d != kUnknownDim && actual.shape.dims[i] != d)
      return false;
  }
  return true;
}

void Builder::setInsertionPoint(Node *before) {
  region_ = before->parentRegion();
  pos_ = region_->positionOf(before);
}

void Builder::setInsertionPointAfter(Node *node) {
  region_ = node->parentRegion();
  pos_ = std::next(region_->positionOf(node));
}

Node *Builder::insert(std::unique_ptr<Node> node) {
  return region_->insert(pos_, std::move(node));
}

Node *Builder::createNode(OpKind kind, std::span<Value *const> operands,
                          Attrs attrs, Span span) {
  checkArity(kind, operands.size());
  const OpDef &d = opDef(kind);
  if (!d.inferTypes)
    throw OpError{"InternalError",
                  fmt::format("op '{}' has no type rule; build it with its "
                              "dedicated Builder helper",
                              d.name)};
  if (d.hasShapeArgs()) {
    // Statically known shape operands become attributes (ir/shape_args.h).
    std::vector<Value *> ops(operands.begin(), operands.end());
    foldKnownShapeArgs(kind, ops, attrs);
    std::vector<TensorType> out = inferNodeTypes(kind, ops, attrs);
    return createTyped(kind, ops, std::move(attrs), out, span);
  }
  std::vector<TensorType> in = typesOf(operands);
  std::vector<TensorType> out = d.inferTypes(in, attrs);
  return createTyped(kind, operands, std::move(attrs), out, span);
}

Value *Builder::create(OpKind kind, std::span<Value *const> operands,
                       Attrs attrs, Span span) {
  Node *n = createNode(kind, operands, std::move(attrs), span);
  assert(n->numResults() == 1 && "create() is for single-result ops");
  return n->result(0);
}

Node *Builder::createTyped(OpKind kind, std::span<Value *const> operands,
                           Attrs attrs, std::span<const TensorType> resultTypes,
                           Span span) {
  return insert(
      Node::create(kind, operands, std::move(attrs), resultTypes, locOf(span)));
}

Value *Builder::constant(DenseElements value, Span span) {
  return constant(std::make_shared<const DenseElements>(std::move(value)),
                  span);
}

Value *Builder::constant(std::shared_ptr<const DenseElements> value,
                         Span span) {
  TensorType t = value->type();
  Node *n = createTyped(OpKind::Const, {}, {}, std::span(&t, 1), span);
  n->constValue = std::move(value);
  return n->result(0);
}

Value *Builder::scalar(DType dtype, double v, Span span) {
  return constant(DenseElements::scalar(dtype, v), span);
}

Value *Builder::scalarInt(DType dtype, int64_t v, Span span) {
  return constant(DenseElements::scalarInt(dtype, v), span);
}

void Builder::yield(std::span<Value *const> values, Span span) {
  createTyped(OpKind::Yield, values, {}, {}, span);
}

void Builder::ret(std::span<Value *const> values, Span span) {
  Function *fn = region_->function();
  assert(fn && &fn->body() == region_ && "return outside a function body");
  fn->resultTypes = typesOf(values);
  createTyped(OpKind::Return, values, {}, {}, span);
}

Value *Builder::readVariable(const std::string &var, Span span) {
  Function *fn = function();
  assert(fn);
  int idx = fn->findCapture(var);
  assert(idx >= 0 && fn->captures()[idx].kind == Capture::Kind::Variable &&
         "readVariable of an unknown variable capture");
  TensorType t = fn->captures()[idx].type;
  Attrs attrs{{kVarAttr, var}};
  return createTyped(OpKind::ReadVariable, {}, std::move(attrs),
                     std::span(&t, 1), span)
      ->result(0);
}

Node *Builder::assignVariable(OpKind kind, const std::string &var, Value *value,
                              Span span) {
  assert(kind == OpKind::AssignVariable || kind == OpKind::AssignAddVariable ||
         kind == OpKind::AssignSubVariable);
  Function *fn = function();
  assert(fn && fn->findCapture(var) >= 0);
  const Capture &c = fn->captures()[fn->findCapture(var)];
  if (value->type.dtype != c.type.dtype)
    throw OpError{"InvalidArgumentError",
                  fmt::format("cannot assign a {} value to variable '{}' of "
                              "dtype {}",
                              dtypeName(value->type.dtype), var,
                              dtypeName(c.type.dtype))};
  Attrs attrs{{kVarAttr, var}};
  return createTyped(kind, std::span(&value, 1), std::move(attrs), {}, span);
}

std::vector<Value *> Builder::call(const Function &callee,
                                   std::span<Value *const> args, Span span) {
  Node *n = createTyped(OpKind::Call, args, {}, callee.resultTypes, span);
  n->callee = callee.name();
  return {n->results().begin(), n->results().end()};
}

// --- cond -------------------------------------------------------------------

Node *Builder::beginCond(Value *pred, Span span) {
  if (pred->type.dtype != DType::Bool)
    throw OpError{"TypeError",
                  fmt::format("cond predicate must be a bool tensor, got {}",
                              dtypeName(pred->type.dtype))};
  Node *n = createTyped(OpKind::Cond, std::span(&pred, 1), {}, {}, span);
  n->addRegion();
  n->addRegion();
  return n;
}

std::vector<Value *> Builder::finishCond(Node *c) {
  assert(c->kind() == OpKind::Cond && c->numResults() == 0);
  Node *thenY = c->region(0).terminator();
  Node *elseY = c->region(1).terminator();
  assert(thenY && elseY && thenY->kind() == OpKind::Yield &&
         elseY->kind() == OpKind::Yield && "cond branches must end in yield");
  if (thenY->numOperands() != elseY->numOperands())
    throw OpError{"TypeError",
                  fmt::format("true_fn and false_fn arguments to tf.cond must "
                              "have the same number, type, and overall "
                              "structure of return values (true_fn returns "
                              "{} values, false_fn returns {})",
                              thenY->numOperands(), elseY->numOperands())};
  for (unsigned i = 0; i < thenY->numOperands(); ++i) {
    const TensorType &a = thenY->operand(i)->type;
    const TensorType &b = elseY->operand(i)->type;
    if (a.dtype != b.dtype)
      throw OpError{"TypeError",
                    fmt::format("true_fn and false_fn arguments to tf.cond "
                                "must have the same number, type, and overall "
                                "structure of return values: output {} is {} "
                                "in true_fn but {} in false_fn",
                                i, dtypeName(a.dtype), dtypeName(b.dtype))};
    c->addResult(relaxType(a, b));
  }
  return {c->results().begin(), c->results().end()};
}

std::vector<Value *> Builder::cond(Value *pred, const BranchFn &thenFn,
                                   const BranchFn &elseFn, Span span) {
  Node *c = beginCond(pred, span);
  for (unsigned i = 0; i < 2; ++i) {
    Builder rb(c->region(i));
    std::vector<Value *> ys = (i == 0 ? thenFn : elseFn)(rb);
    rb.yield(ys, span);
  }
  return finishCond(c);
}

// --- while_loop
// ---------------------------------------------------------------

Node *Builder::beginWhileLoop(std::span<Value *const> inits, Span span,
                              std::span<const TensorType> carriedTypes,
                              std::span<const std::string> names) {
  assert(carriedTypes.empty() || carriedTypes.size() == inits.size());
  assert(names.empty() || names.size() == inits.size());
  std::vector<TensorType> types =
      carriedTypes.empty()
          ? typesOf(inits)
          : std::vector<TensorType>(carriedTypes.begin(), carriedTypes.end());
  for (size_t i = 0; i < inits.size(); ++i)
    if (!typeFits(types[i], inits[i]->type))
      throw OpError{"ValueError",
                    fmt::format("loop variable {} has initial type {} which "
                                "does not fit its shape invariant {}",
                                i, inits[i]->type.str(), types[i].str())};
  Node *n = createTyped(OpKind::WhileLoop, inits, {}, types, span);
  for (int r = 0; r < 2; ++r) {
    Region &region = n->addRegion();
    for (size_t i = 0; i < types.size(); ++i)
      region.addArg(types[i], names.empty() ? std::string() : names[i]);
  }
  return n;
}

std::vector<Value *> Builder::finishWhileLoop(Node *loop) {
  assert(loop->kind() == OpKind::WhileLoop);
  Node *condY = loop->region(0).terminator();
  Node *bodyY = loop->region(1).terminator();
  assert(condY && bodyY && condY->kind() == OpKind::Yield &&
         bodyY->kind() == OpKind::Yield && "loop regions must end in yield");
  if (condY->numOperands() != 1 ||
      condY->operand(0)->type.dtype != DType::Bool ||
      (condY->operand(0)->type.shape.ranked &&
       condY->operand(0)->type.shape.rank() != 0))
    throw OpError{"TypeError",
                  "the while_loop condition must return a scalar bool tensor"};
  if (bodyY->numOperands() != loop->numResults())
    throw OpError{"ValueError",
                  fmt::format("the while_loop body returns {} values but the "
                              "loop has {} loop variables",
                              bodyY->numOperands(), loop->numResults())};
  for (unsigned i = 0; i < loop->numResults(); ++i) {
    const TensorType &carried = loop->result(i)->type;
    const TensorType &next = bodyY->operand(i)->type;
    const std::string &name = loop->region(1).arg(i)->name;
    std::string what = name.empty() ? fmt::format("loop variable {}", i)
                                    : fmt::format("'{}'", name);
    if (carried.dtype != next.dtype)
      throw OpError{"TypeError",
                    fmt::format("{} enters the loop with type {}, but has "
                                "type {} after one iteration",
                                what, dtypeName(carried.dtype),
                                dtypeName(next.dtype))};
    if (!typeFits(carried, next))
      throw OpError{"ValueError",
                    fmt::format("{} enters the loop with shape {}, but has "
                                "shape {} after one iteration. To allow the "
                                "shape to vary across iterations, use the "
                                "`shape_invariants` argument of "
                                "tf.while_loop to specify a less-specific "
                                "shape.",
                                what, tfShape(carried), tfShape(next))};
  }
  return {loop->results().begin(), loop->results().end()};
}

std::vector<Value *>
Builder::whileLoop(std::span<Value *const> inits, const LoopCondFn &condFn,
                   const LoopBodyFn &bodyFn, Span span,
                   std::span<const TensorType> carriedTypes,
                   std::span<const std::string> names) {
  Node *loop = beginWhileLoop(inits, span, carriedTypes, names);
  {
    Builder cb(loop->region(0));
    Value *pred = condFn(cb, loop->region(0).args());
    cb.yield(std::span(&pred, 1), span);
  }
  {
    Builder bb(loop->region(1));
    std::vector<Value *> next = bodyFn(bb, loop->region(1).args());
    bb.yield(next, span);
  }
  return finishWhileLoop(loop);
}

} // namespace tfs::ir
