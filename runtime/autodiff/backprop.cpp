// Reverse accumulation (see backprop.h for the algorithm).
#include "runtime/autodiff/backprop.h"

#include <fmt/format.h>
#include <unordered_map>
#include <unordered_set>

namespace tfs::runtime {
namespace {

// Gradients that reached one value, summed lazily (one add per extra term).
struct Pending {
  std::vector<Handle> terms;
};

// tf.stop_gradient is `identity {stop_gradient = true}`.
bool stopsGradient(ir::OpKind kind, const ir::Attrs &attrs) {
  return kind == ir::OpKind::Identity && ir::attrBool(attrs, "stop_gradient", false);
}

Handle sumTerms(GradEmitter &em, const std::vector<Handle> &terms) {
  Handle acc = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) {
    Handle xs[2] = {acc, terms[i]};
    acc = em.emit(ir::OpKind::Add, xs, {});
  }
  return acc;
}

}  // namespace

std::vector<OptHandle> backprop(GradEmitter &em, std::span<const OpRecord> ops,
                                std::span<const BackpropTarget> targets,
                                std::span<const int64_t> sources,
                                const BackpropOptions &options) {
  registerGradientTraits();
  const size_t n = ops.size();

  // 1a. Values that depend on a source (forward sweep in recorded order).
  std::unordered_set<int64_t> fromSource(sources.begin(), sources.end());
  std::vector<bool> forward(n, false);
  for (size_t i = 0; i < n; ++i) {
    for (int64_t id : ops[i].inputIds)
      if (fromSource.count(id)) {
        forward[i] = true;
        break;
      }
    if (forward[i])
      fromSource.insert(ops[i].outputIds.begin(), ops[i].outputIds.end());
  }

  // 1b. Ops a target depends on (backward sweep through producers).
  std::unordered_map<int64_t, size_t> producer;
  for (size_t i = 0; i < n; ++i)
    for (int64_t id : ops[i].outputIds)
      producer[id] = i;
  std::vector<bool> keep(n, false);
  std::vector<int64_t> stack;
  for (const auto &t : targets)
    stack.push_back(t.id);
  std::unordered_set<int64_t> visited;
  while (!stack.empty()) {
    int64_t id = stack.back();
    stack.pop_back();
    if (!visited.insert(id).second)
      continue;
    auto it = producer.find(id);
    if (it == producer.end() || !forward[it->second] || keep[it->second])
      continue;
    keep[it->second] = true;
    for (int64_t in : ops[it->second].inputIds)
      stack.push_back(in);
  }

  // 2. Seeds.
  std::unordered_map<int64_t, Pending> pending;
  for (const auto &t : targets) {
    if (!fromSource.count(t.id))
      continue;
    Handle seed;
    if (t.seed) {
      seed = em.adopt(*t.seed, t.seedId);
    } else {
      Handle v = em.adopt(t.value, t.id);
      seed = em.emit(ir::OpKind::OnesLike, std::span<const Handle>(&v, 1), {});
    }
    pending[t.id].terms.push_back(seed);
  }

  // 3. Reverse sweep.
  for (size_t i = n; i-- > 0;) {
    if (!keep[i])
      continue;
    const OpRecord &op = ops[i];
    std::vector<OptHandle> outGrads(op.outputIds.size());
    bool any = false;
    for (size_t k = 0; k < op.outputIds.size(); ++k) {
      auto it = pending.find(op.outputIds[k]);
      if (it == pending.end() || it->second.terms.empty())
        continue;
      outGrads[k] = sumTerms(em, it->second.terms);
      any = true;
    }
    if (!any || isNotDifferentiable(op.kind) || stopsGradient(op.kind, op.attrs))
      continue;
    GradRule rule = op.customGrad ? nullptr : gradRuleFor(op.kind);
    if (!rule && !op.customGrad && !options.custom)
      throw ir::OpError{"LookupError",
                        fmt::format("No gradient defined for operation of type '{}'",
                                    ir::opName(op.kind))};
    std::vector<Handle> ins, outs;
    for (size_t k = 0; k < op.inputs.size(); ++k)
      ins.push_back(em.adopt(op.inputs[k], op.inputIds[k]));
    for (size_t k = 0; k < op.outputs.size(); ++k)
      outs.push_back(em.adopt(op.outputs[k], op.outputIds[k]));
    // Single-result rules expect a gradient for their result.
    for (size_t k = 0; k < outGrads.size(); ++k)
      if (!outGrads[k] && outGrads.size() == 1)
        outGrads[k] = em.emit(ir::OpKind::ZerosLike, std::span<const Handle>(&outs[k], 1), {});
    GradOpInfo info{op.kind, op.attrs, ins, outs, op.node};
    std::vector<OptHandle> inGrads = op.customGrad ? op.customGrad(em, info, outGrads)
                                     : rule        ? rule(em, info, outGrads)
                                                   : options.custom(em, info, outGrads);
    for (size_t k = 0; k < inGrads.size() && k < op.inputIds.size(); ++k)
      if (inGrads[k] && fromSource.count(op.inputIds[k]))
        pending[op.inputIds[k]].terms.push_back(*inGrads[k]);
  }

  // 4. Results.
  std::vector<OptHandle> result;
  for (int64_t s : sources) {
    auto it = pending.find(s);
    if (it == pending.end() || it->second.terms.empty())
      result.push_back(std::nullopt);
    else
      result.push_back(sumTerms(em, it->second.terms));
  }
  return result;
}

}  // namespace tfs::runtime
