// Shape inference (runShapeInference in ir/passes/passes.h): refines value
// types by re-running the op type rules, like Toy's ShapeInference pass but
// over structured regions.
//
// Expects verified input. Types only become more specific: a new type is
// the meet of the stored type and what the rule derives, so a rule that
// knows less than the tracer never loses information. A rule that throws
// leaves the node alone (the verifier reports it).
//
// Algorithm:
//  1. Walk the body in program order. For an op with a type rule, set each
//     result to meet(stored, rule(operand types)).
//  2. cond: infer both regions, then results = meet(stored, relax(then
//     yield, else yield)).
//  3. while_loop: the carried types must hold for the initial values and for
//     every body result. Start from candidate = meet(stored, init types);
//     repeat: restore the loop's original types, set the block arguments to
//     the candidate, infer both regions, relax the candidate with the body's
//     yields, until it is stable (relaxing only loses information, so this
//     terminates; after kMaxLoopRounds the original types are kept). The
//     results take the final candidate.
//  4. call: results = meet(stored, callee's result types).
//  5. The function's result types become meet(declared, return operands).
#include "ir/builder.h"
#include "ir/passes/passes.h"
#include "ir/shape_args.h"

#include <unordered_map>

namespace tfs::ir {

namespace {

constexpr int kMaxLoopRounds = 16;
// Nested loops multiply the rounds; past this many node visits, loops are
// left with their stored types (still correct, just less refined).
constexpr int64_t kMaxNodeVisits = 1 << 20;

// The most specific type consistent with both (a and b must not conflict;
// when they do, `stored` wins and the verifier reports the conflict).
TensorType meet(const TensorType &stored, const TensorType &derived) {
  if (stored.dtype != derived.dtype)
    return stored;
  if (!derived.shape.ranked)
    return stored;
  if (!stored.shape.ranked)
    return derived;
  if (stored.shape.rank() != derived.shape.rank())
    return stored;
  TensorType t = stored;
  for (size_t i = 0; i < t.shape.rank(); ++i) {
    int64_t s = stored.shape.dims[i], d = derived.shape.dims[i];
    if (s < 0)
      t.shape.dims[i] = d;
    else if (d >= 0 && d != s)
      return stored;
  }
  return t;
}

class ShapeInference {
public:
  explicit ShapeInference(Function &fn) : fn_(fn) {}

  bool run() {
    region(fn_.body());
    if (Node *ret = fn_.body().terminator())
      if (ret->numOperands() == fn_.resultTypes.size())
        for (size_t i = 0; i < fn_.resultTypes.size(); ++i)
          setType(fn_.resultTypes[i],
                  meet(fn_.resultTypes[i], ret->operand(unsigned(i))->type));
    return changed_;
  }

private:
  void setType(TensorType &slot, const TensorType &t) {
    if (!(slot == t)) {
      slot = t;
      changed_ = true;
    }
  }
  void refine(Value *v, const TensorType &derived) {
    setType(v->type, meet(v->type, derived));
  }

  void region(Region &r) {
    for (auto &n : r.nodes()) {
      ++visits_;
      node(*n);
    }
  }

  void node(Node &n) {
    switch (n.kind()) {
    case OpKind::Const:
    case OpKind::Yield:
    case OpKind::Return:
      return;
    case OpKind::Cond:
      return condNode(n);
    case OpKind::WhileLoop:
      return whileNode(n);
    case OpKind::Call:
      return callNode(n);
    default:
      break;
    }
    const OpDef &d = n.def();
    if (!d.inferTypes || n.numRegions())
      return;
    std::vector<TensorType> out;
    try {
      out = inferNodeTypes(n.kind(), n.operands(), n.attrs);
    } catch (const OpError &) {
      return;
    }
    if (out.size() != n.numResults())
      return;
    for (size_t i = 0; i < out.size(); ++i)
      refine(n.result(unsigned(i)), out[i]);
  }

  void condNode(Node &n) {
    if (n.numRegions() != 2)
      return;
    region(n.region(0));
    region(n.region(1));
    Node *a = n.region(0).terminator(), *b = n.region(1).terminator();
    if (!a || !b || a->numOperands() != n.numResults() ||
        b->numOperands() != n.numResults())
      return;
    for (unsigned i = 0; i < n.numResults(); ++i) {
      const TensorType &ta = a->operand(i)->type, &tb = b->operand(i)->type;
      if (ta.dtype == tb.dtype)
        refine(n.result(i), relaxType(ta, tb));
    }
  }

  // Every value typed inside `n`'s regions (block args and results).
  static void collectInnerValues(Node &n, std::vector<Value *> &out) {
    for (const auto &r : n.regions()) {
      for (Value *a : r->args())
        out.push_back(a);
      for (auto &inner : r->nodes()) {
        for (Value *v : inner->results())
          out.push_back(v);
        collectInnerValues(*inner, out);
      }
    }
  }

  void whileNode(Node &n) {
    if (n.numRegions() != 2 || n.numOperands() != n.numResults())
      return;
    Region &condR = n.region(0), &bodyR = n.region(1);
    size_t k = n.numResults();
    if (condR.numArgs() != k || bodyR.numArgs() != k ||
        visits_ > kMaxNodeVisits)
      return;
    // Step 3: snapshot, then iterate the candidate to its fixpoint.
    std::vector<Value *> inner;
    collectInnerValues(n, inner);
    std::vector<TensorType> original;
    for (Value *v : inner)
      original.push_back(v->type);
    bool changedBefore = changed_;
    std::vector<TensorType> candidate;
    for (size_t i = 0; i < k; ++i)
      candidate.push_back(
          meet(n.result(unsigned(i))->type, n.operand(unsigned(i))->type));
    bool stable = false;
    for (int round = 0; round < kMaxLoopRounds && !stable; ++round) {
      for (size_t i = 0; i < inner.size(); ++i)
        inner[i]->type = original[i];
      for (size_t i = 0; i < k; ++i) {
        condR.arg(unsigned(i))->type = candidate[i];
        bodyR.arg(unsigned(i))->type = candidate[i];
      }
      region(condR);
      region(bodyR);
      Node *y = bodyR.terminator();
      if (!y || y->numOperands() != k)
        break;
      stable = true;
      for (size_t i = 0; i < k; ++i) {
        const TensorType &next = y->operand(unsigned(i))->type;
        if (next.dtype != candidate[i].dtype)
          break;
        TensorType relaxed = relaxType(candidate[i], next);
        if (!(relaxed == candidate[i])) {
          candidate[i] = relaxed;
          stable = false;
        }
      }
    }
    // Compare against the snapshot to report change precisely.
    changed_ = changedBefore;
    if (!stable) {
      for (size_t i = 0; i < inner.size(); ++i)
        inner[i]->type = original[i];
      return;
    }
    for (size_t i = 0; i < inner.size(); ++i)
      if (!(inner[i]->type == original[i]))
        changed_ = true;
    for (size_t i = 0; i < k; ++i)
      setType(n.result(unsigned(i))->type, candidate[i]);
  }

  void callNode(Node &n) {
    Module *m = fn_.module();
    const Function *callee = m ? m->lookup(n.callee) : nullptr;
    if (!callee || callee->resultTypes.size() != n.numResults())
      return;
    for (size_t i = 0; i < n.numResults(); ++i)
      refine(n.result(unsigned(i)), callee->resultTypes[i]);
  }

  Function &fn_;
  bool changed_ = false;
  int64_t visits_ = 0;
};

} // namespace

bool runShapeInference(Function &fn) { return ShapeInference(fn).run(); }

} // namespace tfs::ir
