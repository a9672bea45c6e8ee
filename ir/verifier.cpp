// The IR verifier (ir/verifier.h).
//
// Algorithm:
//  1. Seed the visible set with the function's parameters and tensor
//     captures.
//  2. Walk the body in program order. For each node: every operand must be
//     visible; check the node's own structure (by kind); recurse into its
//     regions with the current visible set (implicit capture) plus the
//     region's block arguments; then make the node's results visible.
//     Values defined inside a region are removed again when the walk leaves
//     it, so they are invisible after the region op.
//  3. Stop at the first violation and describe it with the node's printed
//     line.
#include "ir/verifier.h"
#include "ir/builder.h"
#include "ir/shape_args.h"
#include "ir/text.h"
#include "ir/text_common.h"

#include <fmt/format.h>
#include <unordered_set>

namespace tfs::ir {

std::string IrError::str() const {
  if (!loc.known())
    return message;
  return fmt::format("{}:{}:{}: error: {}", loc.path(), loc.span.line,
                     loc.span.col, message);
}

namespace {

struct VerifyFailure {
  IrError error;
};

// Dims that both know must agree; ranks too when both are ranked.
bool consistent(const TensorType &a, const TensorType &b) {
  if (a.dtype != b.dtype)
    return false;
  if (!a.shape.ranked || !b.shape.ranked)
    return true;
  if (a.shape.rank() != b.shape.rank())
    return false;
  for (size_t i = 0; i < a.shape.rank(); ++i) {
    int64_t x = a.shape.dims[i], y = b.shape.dims[i];
    if (x >= 0 && y >= 0 && x != y)
      return false;
  }
  return true;
}

bool isBoolScalar(const TensorType &t) {
  return t.dtype == DType::Bool && (!t.shape.ranked || t.shape.rank() == 0);
}

class Verifier {
public:
  Verifier(const Function &fn, const VerifyOptions &opts)
      : fn_(fn), opts_(opts) {}

  void run() {
    for (Value *p : fn_.params())
      visible_.insert(p);
    for (const Capture &c : fn_.captures()) {
      if (c.kind == Capture::Kind::Tensor) {
        if (!c.value)
          fail(nullptr,
               fmt::format("tensor capture '{}' has no value", c.name));
        if (!(c.value->type == c.type))
          fail(nullptr, fmt::format("tensor capture '{}' has type {} but its "
                                    "value has type {}",
                                    c.name, formatType(c.type),
                                    formatType(c.value->type)));
        visible_.insert(c.value);
      }
    }
    region(fn_.body(), OpKind::Return);
    const Node *ret = fn_.body().terminator();
    if (ret->numOperands() != fn_.resultTypes.size())
      fail(ret, fmt::format("returns {} values but the function declares {} "
                            "results",
                            ret->numOperands(), fn_.resultTypes.size()));
    for (size_t i = 0; i < fn_.resultTypes.size(); ++i)
      if (!typeFits(fn_.resultTypes[i], ret->operand(unsigned(i))->type))
        fail(ret, fmt::format("result {} has type {} but the function "
                              "declares {}",
                              i, formatType(ret->operand(unsigned(i))->type),
                              formatType(fn_.resultTypes[i])));
  }

private:
  [[noreturn]] void fail(const Node *n, std::string what) {
    std::string where = fmt::format("in @{}", fn_.name());
    if (n)
      where += fmt::format(": '{}'", text_detail::nodeHeadline(fn_, *n));
    std::string msg = opts_.afterPass.empty()
                          ? fmt::format("{}: {}", where, what)
                          : fmt::format("after pass '{}': {}: {}",
                                        opts_.afterPass, where, what);
    throw VerifyFailure{IrError{std::move(msg), n ? n->loc : Location{}}};
  }

  // Step 2 for one region: its nodes in order, `term` ends it.
  void region(const Region &r, OpKind term) {
    if (r.empty() || !r.nodes().back()->isTerminator())
      fail(r.parentNode(),
           fmt::format("a region must end in '{}'", opName(term)));
    std::vector<const Value *> defined;
    for (Value *a : r.args()) {
      visible_.insert(a);
      defined.push_back(a);
    }
    for (const auto &n : r.nodes()) {
      if (n->parentRegion() != &r)
        fail(n.get(), "node's parent link is wrong");
      if (n->isTerminator()) {
        if (n.get() != r.nodes().back().get())
          fail(n.get(), "terminator in the middle of a region");
        if (n->kind() != term)
          fail(n.get(),
               fmt::format("expected '{}' to end this region", opName(term)));
      }
      for (size_t i = 0; i < n->numOperands(); ++i) {
        const Value *v = n->operand(unsigned(i));
        if (!v)
          fail(n.get(), fmt::format("operand {} is null", i));
        if (!visible_.count(v))
          fail(n.get(), fmt::format("operand {} is not visible here (it is "
                                    "defined later, in another region, or "
                                    "in another function)",
                                    i));
      }
      node(*n);
      for (Value *res : n->results()) {
        visible_.insert(res);
        defined.push_back(res);
      }
    }
    for (const Value *v : defined)
      visible_.erase(v);
  }

  void arity(const Node &n) {
    const OpDef &d = n.def();
    size_t k = n.numOperands();
    if (int(k) < d.minOperands ||
        (d.maxOperands >= 0 && int(k) > d.maxOperands))
      fail(&n, fmt::format("'{}' has {} operands", d.name, k));
  }

  void node(const Node &n) {
    arity(n);
    if (n.kind() != OpKind::Cond && n.kind() != OpKind::WhileLoop &&
        n.numRegions() != 0)
      fail(&n, "only cond and while_loop own regions");
    if (n.kind() == OpKind::Const && !n.constValue)
      fail(&n, "const without a value");
    if (n.kind() != OpKind::Const && n.constValue)
      fail(&n, "only const nodes carry a value");
    switch (n.kind()) {
    case OpKind::Const:
      if (n.numResults() != 1 || !(n.result()->type == n.constValue->type()))
        fail(&n, "const result type differs from its value's type");
      return;
    case OpKind::Yield:
    case OpKind::Return:
      if (n.numResults() != 0)
        fail(&n, "terminators have no results");
      return; // their operands are checked by the region's owner
    case OpKind::Cond:
      return condNode(n);
    case OpKind::WhileLoop:
      return whileNode(n);
    case OpKind::Call:
      return callNode(n);
    case OpKind::ReadVariable:
    case OpKind::AssignVariable:
    case OpKind::AssignAddVariable:
    case OpKind::AssignSubVariable:
      return variableNode(n);
    default:
      return typeRule(n);
    }
  }

  // Result types must agree with what the op's type rule derives from the
  // operand types (same count and dtypes; known dims may not contradict).
  void typeRule(const Node &n) {
    const OpDef &d = n.def();
    if (!d.inferTypes)
      return;
    std::vector<TensorType> out;
    try {
      out = inferNodeTypes(n.kind(), n.operands(), n.attrs);
    } catch (const OpError &e) {
      fail(&n, fmt::format("the type rule rejects this node: {}: {}",
                           e.errorClass, e.message));
    }
    if (out.size() != n.numResults())
      fail(&n, fmt::format("has {} results but its type rule gives {}",
                           n.numResults(), out.size()));
    for (size_t i = 0; i < out.size(); ++i)
      if (!consistent(out[i], n.result(unsigned(i))->type))
        fail(&n, fmt::format("result {} has type {} but its type rule gives "
                             "{}",
                             i, formatType(n.result(unsigned(i))->type),
                             formatType(out[i])));
  }

  void yieldFits(const Node &owner, const Region &r,
                 const std::vector<TensorType> &types, const char *what) {
    const Node *y = r.terminator();
    if (y->numOperands() != types.size())
      fail(&owner, fmt::format("{} yields {} values, expected {}", what,
                               y->numOperands(), types.size()));
    for (size_t i = 0; i < types.size(); ++i)
      if (!typeFits(types[i], y->operand(unsigned(i))->type))
        fail(&owner, fmt::format("{} yields {} as value {}, expected {}", what,
                                 formatType(y->operand(unsigned(i))->type), i,
                                 formatType(types[i])));
  }

  void condNode(const Node &n) {
    if (n.numOperands() != 1 || !isBoolScalar(n.operand(0)->type))
      fail(&n, "cond takes one bool[] predicate");
    if (n.numRegions() != 2)
      fail(&n, "cond has a then and an else region");
    for (int i = 0; i < 2; ++i) {
      if (n.region(i).numArgs() != 0)
        fail(&n, "cond regions take no block arguments");
      region(n.region(i), OpKind::Yield);
    }
    auto types = n.resultTypes();
    yieldFits(n, n.region(0), types, "the then branch");
    yieldFits(n, n.region(1), types, "the else branch");
  }

  void whileNode(const Node &n) {
    if (n.numRegions() != 2)
      fail(&n, "while_loop has a cond and a body region");
    auto types = n.resultTypes();
    if (n.numOperands() != types.size())
      fail(&n, fmt::format("while_loop has {} operands but {} results",
                           n.numOperands(), types.size()));
    for (size_t i = 0; i < types.size(); ++i)
      if (!typeFits(types[i], n.operand(unsigned(i))->type))
        fail(&n, fmt::format("initial value {} has type {}, which does not "
                             "fit the loop-carried type {}",
                             i, formatType(n.operand(unsigned(i))->type),
                             formatType(types[i])));
    const char *names[] = {"the loop cond region", "the loop body"};
    for (int r = 0; r < 2; ++r) {
      const Region &reg = n.region(r);
      if (reg.numArgs() != types.size())
        fail(&n, fmt::format("{} has {} block arguments for {} loop-carried "
                             "values",
                             names[r], reg.numArgs(), types.size()));
      for (size_t i = 0; i < types.size(); ++i)
        if (!(reg.arg(unsigned(i))->type == types[i]))
          fail(&n,
               fmt::format("{} argument {} has type {} but the loop "
                           "carries {}",
                           names[r], i, formatType(reg.arg(unsigned(i))->type),
                           formatType(types[i])));
      region(reg, OpKind::Yield);
    }
    const Node *cy = n.region(0).terminator();
    if (cy->numOperands() != 1 || !isBoolScalar(cy->operand(0)->type))
      fail(&n, "the loop cond region must yield one bool[] value");
    yieldFits(n, n.region(1), types, "the loop body");
  }

  void callNode(const Node &n) {
    if (n.callee.empty())
      fail(&n, "call without a callee");
    const Module *m = fn_.module();
    if (!m)
      return; // a detached function: the callee cannot be checked
    const Function *callee = m->lookup(n.callee);
    if (!callee)
      fail(&n, fmt::format("calls unknown function '@{}'", n.callee));
    if (callee->params().size() != n.numOperands())
      fail(&n, fmt::format("passes {} arguments to '@{}', which takes {}",
                           n.numOperands(), n.callee, callee->params().size()));
    for (size_t i = 0; i < n.numOperands(); ++i)
      if (!typeFits(callee->param(unsigned(i))->type,
                    n.operand(unsigned(i))->type))
        fail(&n, fmt::format("argument {} has type {} but '@{}' takes {}", i,
                             formatType(n.operand(unsigned(i))->type), n.callee,
                             formatType(callee->param(unsigned(i))->type)));
    if (callee->resultTypes.size() != n.numResults())
      fail(&n,
           fmt::format("has {} results but '@{}' returns {}", n.numResults(),
                       n.callee, callee->resultTypes.size()));
    for (size_t i = 0; i < n.numResults(); ++i)
      if (!consistent(callee->resultTypes[i], n.result(unsigned(i))->type))
        fail(&n, fmt::format("result {} has type {} but '@{}' returns {}", i,
                             formatType(n.result(unsigned(i))->type), n.callee,
                             formatType(callee->resultTypes[i])));
  }

  void variableNode(const Node &n) {
    std::string var = attrVar(n);
    int idx = fn_.findCapture(var);
    if (var.empty() || idx < 0 ||
        fn_.captures()[size_t(idx)].kind != Capture::Kind::Variable)
      fail(&n, fmt::format("the 'var' attribute must name a variable capture "
                           "of @{}",
                           fn_.name()));
    const TensorType &vt = fn_.captures()[size_t(idx)].type;
    if (n.kind() == OpKind::ReadVariable) {
      if (n.numResults() != 1 || !consistent(vt, n.result()->type))
        fail(&n, fmt::format("reads variable '{}' of type {} as a different "
                             "type",
                             var, formatType(vt)));
      return;
    }
    if (n.numResults() != 0)
      fail(&n, "assignments have no results");
    if (n.operand(0)->type.dtype != vt.dtype)
      fail(&n,
           fmt::format("assigns a {} value to variable '{}' of type {}",
                       formatType(n.operand(0)->type), var, formatType(vt)));
  }

  const Function &fn_;
  const VerifyOptions &opts_;
  std::unordered_set<const Value *> visible_;
};

} // namespace

std::optional<IrError> verifyFunction(const Function &fn,
                                      const VerifyOptions &opts) {
  try {
    Verifier(fn, opts).run();
  } catch (const VerifyFailure &f) {
    return f.error;
  }
  return std::nullopt;
}

std::optional<IrError> verifyModule(const Module &module,
                                    const VerifyOptions &opts) {
  for (const auto &fn : module.functions())
    if (auto err = verifyFunction(*fn, opts))
      return err;
  return std::nullopt;
}

} // namespace tfs::ir
