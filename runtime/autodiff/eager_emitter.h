// EagerEmitter: a GradEmitter that runs every gradient op at once through
// the eager kernels (runKernel). Handles index a list of tensors.
//
// Nested tapes (a gradient computed under an outer GradientTape) need the
// gradient's own ops recorded on the outer tape: give the emitter an
// observer; it is called after each op with the input ids (as adopted) and
// the output tensor, records wherever it likes, and returns the id of the
// output (-1 if it does not track it).
//
//   EagerEmitter em;
//   auto grads = tape.gradient(em, targets, sources);
//   if (grads[0]) Tensor dx = em.tensor(*grads[0]);
#pragma once

#include "runtime/autodiff/backprop.h"

#include <functional>

namespace tfs::runtime {

using EagerOpObserver = std::function<int64_t(
    ir::OpKind kind, const ir::Attrs &attrs, std::span<const int64_t> inputIds,
    std::span<const Tensor> inputs, const Tensor &output)>;

// Observes a gradient op that is a whole function call (the gradient of an
// eagerly called tf.function): inputs as adopted, its outputs, and the
// call's own gradient; returns one id per output.
using EagerCallObserver = std::function<std::vector<int64_t>(
    std::span<const int64_t> inputIds, std::span<const Tensor> inputs,
    std::span<const Tensor> outputs, CustomGradFn callGradient)>;

class EagerEmitter final : public GradEmitter {
public:
  explicit EagerEmitter(EagerOpObserver observer = {}, EagerCallObserver callObserver = {})
      : observer_(std::move(observer)), callObserver_(std::move(callObserver)) {}

  Handle emit(ir::OpKind kind, std::span<const Handle> operands,
              const ir::Attrs &attrs) override;
  ir::TensorType typeOf(Handle h) override;
  Handle constant(double v, ir::DType dtype) override;
  Handle constantTensor(const Tensor &t) override;
  Handle adopt(const TapeValue &v, int64_t id = -1) override;
  TapeValue value(Handle h) override { return values_[h]; }

  // Results of a function call made by a custom gradient: adopted with the
  // ids the call observer gives them (recorded as one op whose gradient is
  // `callGradient`), or untracked without an observer.
  std::vector<Handle> adoptCallResults(std::span<const Handle> inputs, std::span<const Tensor> outputs,
                                       CustomGradFn callGradient);
  bool observesCalls() const { return bool(callObserver_); }

  const Tensor &tensor(Handle h) const { return values_[h]; }
  // The id the observer gave the value (or the id it was adopted with).
  int64_t idOf(Handle h) const { return ids_[h]; }

private:
  Handle push(Tensor t, int64_t id);
  EagerOpObserver observer_;
  EagerCallObserver callObserver_;
  std::vector<Tensor> values_;
  std::vector<int64_t> ids_;
};

// A scalar tensor of any numeric/bool dtype holding `v` (converted).
Tensor scalarTensor(double v, ir::DType dtype);

}  // namespace tfs::runtime
