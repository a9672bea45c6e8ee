// Plan construction: the deterministic slot and node numbering of plan.h.
#include "codegen/plan.h"

namespace tfs::codegen {

bool isNativeType(const ir::TensorType &type) {
  // Registers for the dtypes the scalar lowering knows; scalars of the other
  // dtypes (int8..uint64, float16, bfloat16, complex, string) live in slots
  // and their ops run the eager kernels through the trampoline.
  if (!type.shape.ranked || type.shape.rank() != 0) return false;
  switch (type.dtype) {
  case ir::DType::Bool: case ir::DType::Int32: case ir::DType::Int64:
  case ir::DType::Float32: case ir::DType::Float64:
    return true;
  default:
    return false;
  }
}

namespace {

class PlanBuilder {
public:
  explicit PlanBuilder(Plan &p) : plan_(p) {}

  int32_t addValue(const ir::Value *v) {
    auto [it, inserted] = plan_.slotOf.emplace(v, plan_.numSlots);
    if (inserted)
      ++plan_.numSlots;
    return it->second;
  }

  void region(const ir::Region &r) {
    for (const ir::Value *a : r.args())
      addValue(a);
    for (const auto &n : r.nodes())
      node(*n);
  }

  void node(const ir::Node &n) {
    int32_t id = int32_t(plan_.nodes.size());
    plan_.idOf[&n] = id;
    plan_.nodes.push_back({&n, {}, {}});
    std::vector<int32_t> results;
    for (const ir::Value *r : n.results())
      results.push_back(addValue(r));
    if (n.kind() == ir::OpKind::Const)
      plan_.constSlots.emplace_back(results.at(0), &n);
    for (const auto &r : n.regions())
      region(*r);
    // Operands are defined earlier (SSA), so their slots exist now.
    std::vector<int32_t> operands;
    for (const ir::Value *v : n.operands())
      operands.push_back(plan_.slot(v));
    plan_.nodes[id].operandSlots = std::move(operands);
    plan_.nodes[id].resultSlots = std::move(results);
  }

private:
  Plan &plan_;
};

}  // namespace

Plan buildPlan(const ir::Function &fn) {
  Plan plan;
  plan.fn = &fn;
  PlanBuilder b(plan);
  for (const ir::Value *p : fn.params())
    plan.paramSlots.push_back(b.addValue(p));
  const auto &caps = fn.captures();
  for (size_t i = 0; i < caps.size(); ++i)
    if (caps[i].kind == ir::Capture::Kind::Tensor && caps[i].value)
      plan.tensorCaptures.emplace_back(b.addValue(caps[i].value), i);
  for (const auto &n : fn.body().nodes())
    b.node(*n);
  if (const ir::Node *ret = fn.body().terminator())
    plan.returnSlots = plan.nodes[plan.nodeId(ret)].operandSlots;
  return plan;
}

}  // namespace tfs::codegen
