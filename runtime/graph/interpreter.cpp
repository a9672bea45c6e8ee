// The reference graph interpreter (see interpreter.h for the semantics).
//
// Values live in one environment per function activation, keyed by
// ir::Value*: SSA values are defined once, so nested regions simply see
// their enclosing values; a while_loop rebinds its block arguments each
// iteration.
#include "runtime/graph/interpreter.h"
#include "runtime/kernels/philox.h"

#include "runtime/graph/dense_convert.h"
#include "runtime/graph/profile.h"
#include "runtime/graph/variable_update.h"
#include "runtime/kernels/kernels.h"

#include <algorithm>
#include <fmt/format.h>
#include <mutex>
#include <unordered_set>

namespace tfs::runtime {
namespace {

using ir::OpKind;

void collectUses(const ir::Node &node, std::vector<const ir::Value *> &out);

class Activation {
public:
  Activation(const ir::Function &fn, RunContext &ctx) : fn_(fn), ctx_(ctx) {}

  void bindArgs(std::span<const Tensor> args) {
    auto params = fn_.params();
    size_t numTensorCaptures = 0;
    for (const auto &c : fn_.captures())
      numTensorCaptures += c.kind == ir::Capture::Kind::Tensor;
    bool capturesInArgs = args.size() == params.size() + numTensorCaptures &&
                          numTensorCaptures > 0;
    if (args.size() < params.size() && !allowUnboundParams_)
      throw GraphRunError{"InvalidArgumentError",
                          fmt::format("function {} expects {} arguments, got {}",
                                      fn_.name(), params.size(), args.size()),
                          {},
                          {}};
    for (size_t i = 0; i < params.size() && i < args.size(); ++i)
      env_[params[i]] = args[i];
    size_t next = params.size();
    for (const auto &c : fn_.captures()) {
      if (c.kind != ir::Capture::Kind::Tensor || !c.value)
        continue;
      if (capturesInArgs)
        env_[c.value] = args[next++];
      else
        lazyCaptures_.insert(c.value);
    }
  }

  void allowUnboundParams() { allowUnboundParams_ = true; }

  const Tensor &get(const ir::Value *v) {
    auto it = env_.find(v);
    if (it != env_.end())
      return it->second;
    if (lazyCaptures_.count(v)) {
      for (const auto &c : fn_.captures())
        if (c.value == v)
          return env_[v] = ctx_.captureValue(fn_, c);
    }
    throw GraphRunError{"InternalError",
                        fmt::format("graph value used before it was computed in {}",
                                    fn_.name()),
                        {},
                        {}};
  }

  // Runs the nodes of `region` (binding `blockArgs` first, moved) and returns
  // the operands of its terminator. A value defined in the region leaves the
  // environment after its last use (moved into that node's operands), so a
  // loop-carried buffer reaches the node that consumes it as its only
  // reference: tensor_array_write then updates it in place.
  std::vector<Tensor> runRegion(const ir::Region &region, std::vector<Tensor> blockArgs) {
    const RegionPlan &plan = planOf(region);
    for (size_t i = 0; i < region.numArgs() && i < blockArgs.size(); ++i)
      env_[region.arg(i)] = std::move(blockArgs[i]);
    release(plan.unusedArgs);
    size_t index = 0;
    for (const auto &n : region.nodes()) {
      const std::vector<const ir::Value *> &dying = plan.releaseAfter[index++];
      if (n->isTerminator())
        return terminatorValues(*n, dying);
      dying_ = &dying;
      runNode(*n);
      dying_ = nullptr;
      release(dying);
    }
    return {};
  }

  void runNode(const ir::Node &node) {
    try {
      if (ctx_.profiler && ctx_.profiler->timingOps() && !isStructural(node.kind())) {
        int64_t start = Profiler::nowNs();
        execute(node);
        ctx_.profiler->recordNode(fn_, node, start, Profiler::nowNs() - start);
        return;
      }
      execute(node);
    } catch (const ir::OpError &e) {
      throw GraphRunError{e.errorClass, e.message, node.loc, {}};
    } catch (GraphRunError &e) {
      if (node.kind() == OpKind::Call)
        e.callSites.push_back(node.loc);
      else if (!e.loc.known())
        e.loc = node.loc;
      throw;
    }
  }

private:
  // Per region: the values defined in it (block arguments and node results)
  // to drop after each node, at their last use (uses inside nested regions
  // count at the node holding the region); unused ones right away.
  struct RegionPlan {
    std::vector<const ir::Value *> unusedArgs;
    std::vector<std::vector<const ir::Value *>> releaseAfter;  // per node
  };

  const RegionPlan &planOf(const ir::Region &region) {
    auto [it, fresh] = plans_.try_emplace(&region);
    if (!fresh)
      return it->second;
    RegionPlan &plan = it->second;
    std::unordered_map<const ir::Value *, size_t> lastUse;
    std::vector<const ir::Value *> uses;
    size_t index = 0;
    for (const auto &n : region.nodes()) {
      uses.clear();
      collectUses(*n, uses);
      for (const ir::Value *v : uses)
        lastUse[v] = index;
      ++index;
    }
    plan.releaseAfter.resize(index);
    for (size_t i = 0; i < region.numArgs(); ++i) {
      auto u = lastUse.find(region.arg(i));
      if (u == lastUse.end())
        plan.unusedArgs.push_back(region.arg(i));
      else
        plan.releaseAfter[u->second].push_back(region.arg(i));
    }
    index = 0;
    for (const auto &n : region.nodes()) {
      for (const ir::Value *r : n->results()) {
        auto u = lastUse.find(r);
        plan.releaseAfter[u == lastUse.end() ? index : u->second].push_back(r);
      }
      ++index;
    }
    return plan;
  }

  void release(const std::vector<const ir::Value *> &values) {
    for (const ir::Value *v : values)
      env_.erase(v);
  }

  // The value of operand `v` for a node: moved out of the environment when
  // this node is its last use and it appears once among `all`.
  static ir::Attrs withReuse(const ir::Attrs &attrs) {
    ir::Attrs a = attrs;
    a[kReuseFirstOperand] = true;
    return a;
  }

  Tensor take(const ir::Value *v, std::span<const ir::Value *const> all, bool *moved = nullptr) {
    if (dying_ && std::count(all.begin(), all.end(), v) == 1 &&
        std::find(dying_->begin(), dying_->end(), v) != dying_->end()) {
      auto it = env_.find(v);
      if (it != env_.end()) {
        Tensor t = std::move(it->second);
        env_.erase(it);
        if (moved)
          *moved = true;
        return t;
      }
    }
    return get(v);
  }

  std::vector<Tensor> terminatorValues(const ir::Node &node, const std::vector<const ir::Value *> &dying) {
    dying_ = &dying;
    std::vector<Tensor> xs;
    xs.reserve(node.numOperands());
    for (const ir::Value *v : node.operands())
      xs.push_back(take(v, node.operands()));
    dying_ = nullptr;
    release(dying);
    return xs;
  }

  // Nodes whose time is that of the nodes (or function) they run: the
  // profiler times what is inside them instead.
  static bool isStructural(OpKind k) {
    return k == OpKind::Cond || k == OpKind::WhileLoop || k == OpKind::Call;
  }

  std::vector<Tensor> operandValues(const ir::Node &node) {
    std::vector<Tensor> xs;
    xs.reserve(node.numOperands());
    for (const ir::Value *v : node.operands())
      xs.push_back(get(v));
    return xs;
  }

  void bindResults(const ir::Node &node, std::vector<Tensor> values) {
    if (values.size() < node.numResults())
      throw ir::OpError{"InternalError",
                        fmt::format("{} produced {} values for {} results", node.name(),
                                    values.size(), node.numResults())};
    for (size_t i = 0; i < node.numResults(); ++i)
      env_[node.result(i)] = std::move(values[i]);
  }

  static bool truth(const Tensor &t) {
    if (t.numElements() != 1)
      throw ir::OpError{"InvalidArgumentError",
                        fmt::format("The predicate must be a scalar, got shape with {} "
                                    "elements",
                                    t.numElements())};
    if (t.dtype() == ir::DType::Bool)
      return t.data<bool>()[0];
    return t.elementAsDouble(0) != 0;
  }

  const ir::Capture &variable(const ir::Node &node) {
    std::string name = ir::attrVar(node);
    int i = fn_.findCapture(name);
    if (i < 0)
      throw ir::OpError{"InternalError",
                        fmt::format("{} names unknown variable '{}'", node.name(), name)};
    return fn_.captures()[i];
  }

  void execute(const ir::Node &node) {
    switch (node.kind()) {
    case OpKind::Const:
      env_[node.result()] = ctx_.constTensor(node.constValue);
      return;
    case OpKind::Cond: {
      bool p = truth(get(node.operand(0)));
      const std::vector<const ir::Value *> *outer = dying_;
      bindResults(node, runRegion(node.region(p ? 0 : 1), {}));
      dying_ = outer;
      return;
    }
    case OpKind::WhileLoop: {
      std::vector<Tensor> carried = operandValues(node);
      const std::vector<const ir::Value *> *outer = dying_;
      while (true) {
        auto c = runRegion(node.region(0), carried);
        if (c.empty() || !truth(c[0]))
          break;
        ctx_.loopIteration();
        carried = runRegion(node.region(1), std::move(carried));
      }
      dying_ = outer;
      bindResults(node, std::move(carried));
      return;
    }
    case OpKind::Call: {
      const ir::Module *m = fn_.module();
      const ir::Function *callee = m ? m->lookup(node.callee) : nullptr;
      if (!callee)
        throw ir::OpError{"InternalError",
                          fmt::format("call of unknown function @{}", node.callee)};
      auto args = operandValues(node);
      bindResults(node, runFunction(*callee, args, ctx_));
      return;
    }
    case OpKind::ReadVariable:
      env_[node.result()] = ctx_.readVariable(fn_, variable(node));
      return;
    case OpKind::AssignVariable:
    case OpKind::AssignAddVariable:
    case OpKind::AssignSubVariable: {
      const ir::Capture &var = variable(node);
      Tensor value = get(node.operand(0));
      if (node.kind() != OpKind::AssignVariable)
        value = updatedVariable(ctx_, fn_, var, node.kind(), value);
      ctx_.assignVariable(fn_, var, value);
      if (node.numResults() > 0)
        env_[node.result()] = value;
      return;
    }
    case OpKind::Print:
      ctx_.print(node, operandValues(node));
      return;
    case OpKind::WriteSummary:
      ctx_.writeSummary(node, operandValues(node));
      return;
    case OpKind::Placeholder:
      env_[node.result()] = ctx_.feedPlaceholder(node);
      return;
    case OpKind::RandomNormal:
    case OpKind::RandomUniform:
    case OpKind::RandomTruncatedNormal:
    case OpKind::RandomShuffle:
    case OpKind::Multinomial:
    case OpKind::RandomGamma:
    case OpKind::RandomPoisson:
      bindResults(node, ctx_.runRandom(node, operandValues(node)));
      return;
    case OpKind::Yield:
    case OpKind::Return:
      return;  // handled by runRegion
    default: {
      // Kernels never re-enter the interpreter, so one scratch operand list
      // per activation saves an allocation per node.
      scratch_.clear();
      bool handedOver = false;
      for (const ir::Value *v : node.operands()) {
        bool moved = false;
        scratch_.push_back(take(v, node.operands(), &moved));
        handedOver = handedOver || (scratch_.size() == 1 && moved);
      }
      bool reuse = handedOver && mayReuseFirstOperand(node.kind());
      auto results = reuse ? runKernel(node.kind(), scratch_, withReuse(node.attrs))
                           : runKernel(node.kind(), scratch_, node.attrs);
      scratch_.clear();
      bindResults(node, std::move(results));
      return;
    }
    }
  }

  const ir::Function &fn_;
  RunContext &ctx_;
  std::unordered_map<const ir::Value *, Tensor> env_;
  std::unordered_set<const ir::Value *> lazyCaptures_;
  std::vector<Tensor> scratch_;
  std::unordered_map<const ir::Region *, RegionPlan> plans_;
  const std::vector<const ir::Value *> *dying_ = nullptr;  // the running node's last uses
  bool allowUnboundParams_ = false;
};

// Outer values used by `node` at any depth (operands of the node and of
// every node nested in its regions).
void collectUses(const ir::Node &node, std::vector<const ir::Value *> &out) {
  for (const ir::Value *v : node.operands())
    out.push_back(v);
  for (const auto &r : node.regions())
    for (const auto &n : r->nodes())
      collectUses(*n, out);
}

}  // namespace

Tensor RunContext::captureValue(const ir::Function &fn, const ir::Capture &cap) {
  throw ir::OpError{"InternalError",
                    fmt::format("no value supplied for capture '{}' of {}", cap.name,
                                fn.name())};
}

Tensor RunContext::readVariable(const ir::Function &fn, const ir::Capture &var) {
  throw ir::OpError{"InternalError",
                    fmt::format("no variable storage for '{}' of {}", var.name, fn.name())};
}

void RunContext::assignVariable(const ir::Function &fn, const ir::Capture &var,
                                const Tensor &) {
  throw ir::OpError{"InternalError",
                    fmt::format("no variable storage for '{}' of {}", var.name, fn.name())};
}

void RunContext::writeSummary(const ir::Node &, std::span<const Tensor>) {
  throw ir::OpError{"FailedPreconditionError", "no summary writer is available to this graph"};
}

Tensor RunContext::feedPlaceholder(const ir::Node &placeholder) {
  std::string name = ir::attrString(placeholder.attrs, "name", "Placeholder");
  throw ir::OpError{"InvalidArgumentError",
                    fmt::format("You must feed a value for placeholder tensor '{}'", name)};
}

std::vector<Tensor> RunContext::runRandom(const ir::Node &node,
                                          std::span<const Tensor> operands) {
  if (ir::attrInt(node.attrs, "stateful", 0) == 0) return runKernel(node.kind(), operands, node.attrs);
  // A stateful random node draws new numbers on every run, as TF's kernel
  // of the node does: its generator (kept per node for the process; a
  // concrete function keeps its nodes) moves on by what each run reserved
  // (256 blocks per element for the Philox samplers).
  static std::mutex mutex;
  static std::unordered_map<const ir::Node *, int64_t> blocks;
  int64_t counter;
  {
    std::lock_guard<std::mutex> lock(mutex);
    counter = blocks[&node];
  }
  ir::Attrs attrs = node.attrs;
  attrs["counter"] = counter;
  std::vector<Tensor> out = runKernel(node.kind(), operands, attrs);
  int64_t reserved = kernels::randomBlocksReserved(node.kind(), operands, out[0]);
  {
    std::lock_guard<std::mutex> lock(mutex);
    blocks[&node] += reserved;
  }
  return out;
}

const Tensor &RunContext::constTensor(const std::shared_ptr<const ir::DenseElements> &d) {
  auto it = constCache_.find(d.get());
  if (it != constCache_.end())
    return it->second.tensor;
  auto &slot = constCache_[d.get()];
  slot.payload = d;
  slot.tensor = tensorFromDense(*d);
  return slot.tensor;
}

std::vector<Tensor> runFunction(const ir::Function &fn, std::span<const Tensor> args,
                                RunContext &ctx) {
  CallTimer timer(ctx.profiler, fn, /*compiled=*/false);
  Activation act(fn, ctx);
  act.bindArgs(args);
  return act.runRegion(fn.body(), {});
}

std::vector<Tensor> runFetches(const ir::Function &fn, const FetchList &fetches,
                               std::span<const Tensor> args, RunContext &ctx) {
  // 1. Top-level producers of values; 2. mark needed nodes from the fetches;
  // 3. run the needed nodes in program order.
  std::unordered_map<const ir::Value *, const ir::Node *> producer;
  for (const auto &n : fn.body().nodes())
    for (const ir::Value *r : n->results())
      producer[r] = n.get();
  std::unordered_set<const ir::Node *> needed;
  std::vector<const ir::Node *> work(fetches.nodes.begin(), fetches.nodes.end());
  for (const ir::Value *v : fetches.values)
    if (auto it = producer.find(v); it != producer.end())
      work.push_back(it->second);
  while (!work.empty()) {
    const ir::Node *n = work.back();
    work.pop_back();
    if (!needed.insert(n).second)
      continue;
    std::vector<const ir::Value *> uses;
    collectUses(*n, uses);
    for (const ir::Value *v : uses)
      if (auto it = producer.find(v); it != producer.end())
        work.push_back(it->second);
  }
  CallTimer timer(ctx.profiler, fn, /*compiled=*/false);
  Activation act(fn, ctx);
  act.allowUnboundParams();
  act.bindArgs(args);
  for (const auto &n : fn.body().nodes())
    if (needed.count(n.get()) && !n->isTerminator())
      act.runNode(*n);
  std::vector<Tensor> out;
  for (const ir::Value *v : fetches.values)
    out.push_back(act.get(v));
  return out;
}

}  // namespace tfs::runtime
