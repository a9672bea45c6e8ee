// Tape: recording and the gradient entry point (see tape.h).
#include "runtime/autodiff/tape.h"

#include "runtime/autodiff/gradient_extras.h"
#include "runtime/autodiff/graph_gradients.h"

namespace tfs::runtime {

namespace {
thread_local ExtraSourcesFn nextExtraSources;
}  // namespace

void setNextGradientExtraSources(ExtraSourcesFn fn) { nextExtraSources = std::move(fn); }

ExtraSourcesFn takeNextGradientExtraSources() {
  ExtraSourcesFn fn = std::move(nextExtraSources);
  nextExtraSources = nullptr;
  return fn;
}

bool Tape::shouldRecord(std::span<const int64_t> inputIds) const {
  if (computing_)
    return false;
  for (int64_t id : inputIds)
    if (tracked_.count(id))
      return true;
  return false;
}

void Tape::record(ir::OpKind kind, const ir::Attrs &attrs,
                  std::span<const int64_t> inputIds, std::span<const TapeValue> inputs,
                  std::span<const int64_t> outputIds, std::span<const TapeValue> outputs,
                  CustomGradFn customGrad) {
  if (computing_)
    return;
  OpRecord r{kind,
             attrs,
             {inputIds.begin(), inputIds.end()},
             {outputIds.begin(), outputIds.end()},
             {inputs.begin(), inputs.end()},
             {outputs.begin(), outputs.end()},
             nullptr,
             std::move(customGrad)};
  tracked_.insert(outputIds.begin(), outputIds.end());
  ops_.push_back(std::move(r));
}

void Tape::recordNode(const ir::Node &node, CustomGradFn customGrad) {
  if (computing_)
    return;
  OpRecord r = recordOf(node);
  r.customGrad = std::move(customGrad);
  tracked_.insert(r.outputIds.begin(), r.outputIds.end());
  ops_.push_back(std::move(r));
}

std::vector<OptHandle> Tape::gradient(GradEmitter &em, std::span<const TapeTarget> targets,
                                      std::span<const int64_t> requested) {
  // Sources a caller added after seeing the records (gradient_extras.h).
  std::vector<int64_t> sources(requested.begin(), requested.end());
  if (ExtraSourcesFn extra = takeNextGradientExtraSources()) {
    std::vector<int64_t> more = extra(ops_);
    sources.insert(sources.end(), more.begin(), more.end());
  }
  if (used_ && !persistent_)
    throw ir::OpError{"RuntimeError",
                      "A non-persistent GradientTape can only be used to compute one "
                      "set of gradients (or jacobians)"};
  used_ = true;
  std::vector<BackpropTarget> ts;
  for (const auto &t : targets)
    ts.push_back({t.id, t.value, t.outputGradient, t.outputGradientId});
  BackpropOptions opts{regionOpGradient};
  computing_ = true;
  std::vector<OptHandle> result;
  try {
    // Sources never watched nor produced on this tape have no gradient.
    std::vector<int64_t> tracked;
    std::vector<size_t> where;
    for (size_t i = 0; i < sources.size(); ++i)
      if (tracked_.count(sources[i])) {
        tracked.push_back(sources[i]);
        where.push_back(i);
      }
    auto partial = backprop(em, ops_, ts, tracked, opts);
    result.assign(sources.size(), std::nullopt);
    for (size_t i = 0; i < where.size(); ++i)
      result[where[i]] = partial[i];
  } catch (...) {
    computing_ = false;
    throw;
  }
  computing_ = false;
  if (!persistent_)
    ops_.clear();  // free the recorded tensors early, like TF
  return result;
}

bool Tape::beginSeveral() {
  if (used_ && !persistent_)
    throw ir::OpError{"RuntimeError",
                      "A non-persistent GradientTape can only be used to compute one "
                      "set of gradients (or jacobians)"};
  bool was = persistent_;
  persistent_ = true;
  return was;
}

void Tape::endSeveral(bool wasPersistent) {
  persistent_ = wasPersistent;
  if (!persistent_) {
    used_ = true;
    ops_.clear();
  }
}

void Tape::clear() {
  ops_.clear();
  tracked_.clear();
  watched_.clear();
  used_ = false;
}

}  // namespace tfs::runtime
