// Recording graph nodes on GradientTapes entered while tracing (the custom
// training step: a tape inside a tf.function). A tape records the nodes of
// the region it was entered in; a cond / while_loop built there is one
// recorded op whose gradient is built structurally (graph_gradients.h), with
// the values its branches use from outside as extra inputs.
#include "runtime/autodiff/graph_gradients.h"
#include "runtime/tf/tf.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

namespace {

bool recordsIn(const TapeObject &tape, const GraphScope &g, const ir::Region *region) {
  return tape.graph == &g && tape.region == region;
}

// Region gradients differentiate with respect to values from outside the
// region, so a read of a watched variable inside a branch or loop body
// becomes one read just before the region op (recorded like any read). A
// variable also assigned inside cannot be hoisted that way.
void hoistWatchedReads(Interpreter &in, GraphScope &g, ir::Node &node, const std::vector<TapeObject *> &tapes) {
  std::vector<ir::Node *> reads;
  std::vector<std::string> assigned;
  for (unsigned r = 0; r < node.numRegions(); ++r)
    node.region(r).walk([&](ir::Node &x) {
      if (x.kind() == ir::OpKind::ReadVariable) reads.push_back(&x);
      if (x.kind() == ir::OpKind::AssignVariable || x.kind() == ir::OpKind::AssignAddVariable ||
          x.kind() == ir::OpKind::AssignSubVariable)
        assigned.push_back(ir::attrVar(x));
    });
  std::unordered_map<std::string, ir::Value *> hoisted;
  ir::Region &parent = *node.parentRegion();
  for (ir::Node *read : reads) {
    std::string cap = ir::attrVar(*read);
    auto *var = dynamic_cast<VariableObject *>(g.variableOfCapture(cap));
    if (!var) continue;
    bool watched = false;
    for (TapeObject *t : tapes) watched |= t->tape.isTracked(var->id);
    if (!watched) continue;
    if (std::find(assigned.begin(), assigned.end(), cap) != assigned.end())
      raiseTf(in, "NotImplementedError",
              fmt::format("tfs cannot yet differentiate a variable ('{}') that is both read and assigned inside a "
                          "cond or loop of a tf.function under a GradientTape", var->name));
    auto it = hoisted.find(cap);
    if (it == hoisted.end()) {
      ir::Builder pre(parent, parent.positionOf(&node));
      ir::Value *r = pre.readVariable(cap, read->loc.span);
      it = hoisted.emplace(cap, r).first;
      for (TapeObject *t : tapes) {
        int64_t inId = var->id, outId = valueId(r);
        if (!t->tape.shouldRecord(std::span<const int64_t>(&inId, 1))) continue;
        TapeValue v = r;
        t->tape.record(ir::OpKind::Identity, {}, std::span<const int64_t>(&inId, 1), std::span<const TapeValue>(&v, 1),
                       std::span<const int64_t>(&outId, 1), std::span<const TapeValue>(&v, 1));
      }
    }
    g.function().replaceAllUsesWith(read->result(), it->second);
  }
}

// The values a while_loop saved for its gradient (its iteration count and
// stacks) are not differentiable: a gradient of a gradient through a loop
// is refused when it is computed.
bool usesSavedLoopValues(const OpRecord &r) {
  for (const TapeValue &v : r.inputs) {
    auto *x = std::get_if<ir::Value *>(&v);
    const ir::Node *n = x ? (*x)->definingNode() : nullptr;
    if (!n || n->kind() != ir::OpKind::WhileLoop) continue;
    auto it = n->attrs.find("_grad_saved");
    if (it == n->attrs.end()) continue;
    for (size_t i = size_t(std::get<int64_t>(it->second)); i < n->numResults(); ++i)
      if (n->result(unsigned(i)) == *x) return true;
  }
  return false;
}

std::vector<OptHandle> refuseLoopSecondOrder(GradEmitter &, const GradOpInfo &, std::span<const OptHandle>) {
  throw ir::OpError{"NotImplementedError",
                    "tfs cannot yet differentiate a gradient computed through a while loop (a second derivative "
                    "through tf.while_loop or a converted loop)"};
}

}  // namespace

void recordNodeOnTapes(Interpreter &in, GraphScope &g, ir::Node &node) {
  std::vector<TapeObject *> tapes;
  for (TapeObject *t : ctx(in).tapes)
    if (recordsIn(*t, g, node.parentRegion())) tapes.push_back(t);
  if (tapes.empty()) return;
  if (node.numRegions() > 0) hoistWatchedReads(in, g, node, tapes);
  OpRecord r = recordOf(node);
  CustomGradFn refuse = usesSavedLoopValues(r) ? CustomGradFn(refuseLoopSecondOrder) : CustomGradFn();
  for (TapeObject *t : tapes)
    if (t->tape.shouldRecord(r.inputIds)) t->tape.recordNode(node, refuse);
}

}  // namespace tfs::runtime::tf
