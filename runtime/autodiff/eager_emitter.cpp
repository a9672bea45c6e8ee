// EagerEmitter: gradient ops run immediately on the eager kernels.
#include "runtime/autodiff/eager_emitter.h"

#include "runtime/kernels/kernels.h"

#include <variant>

namespace tfs::runtime {

Tensor scalarTensor(double v, ir::DType dtype) {
  if (dtype == ir::DType::String)
    throw ir::OpError{"InvalidArgumentError", "no numeric constant of dtype string"};
  return Tensor::fromDoubles(dtype, {}, {v});
}

Handle EagerEmitter::push(Tensor t, int64_t id) {
  values_.push_back(std::move(t));
  ids_.push_back(id);
  return static_cast<Handle>(values_.size() - 1);
}

Handle EagerEmitter::emit(ir::OpKind kind, std::span<const Handle> operands,
                          const ir::Attrs &attrs) {
  std::vector<Tensor> ins;
  std::vector<int64_t> inIds;
  ins.reserve(operands.size());
  for (Handle h : operands) {
    ins.push_back(values_[h]);
    inIds.push_back(ids_[h]);
  }
  std::vector<Tensor> outs = runKernel(kind, ins, attrs);
  int64_t id = observer_ ? observer_(kind, attrs, inIds, ins, outs.at(0)) : -1;
  return push(std::move(outs.at(0)), id);
}

std::vector<Handle> EagerEmitter::adoptCallResults(std::span<const Handle> inputs, std::span<const Tensor> outputs,
                                                   CustomGradFn callGradient) {
  std::vector<int64_t> ids(outputs.size(), -1);
  if (callObserver_) {
    std::vector<int64_t> inIds;
    std::vector<Tensor> ins;
    for (Handle h : inputs) {
      inIds.push_back(ids_[h]);
      ins.push_back(values_[h]);
    }
    ids = callObserver_(inIds, ins, outputs, std::move(callGradient));
  }
  std::vector<Handle> out;
  for (size_t i = 0; i < outputs.size(); ++i)
    out.push_back(push(outputs[i], i < ids.size() ? ids[i] : -1));
  return out;
}

ir::TensorType EagerEmitter::typeOf(Handle h) {
  const Tensor &t = values_[h];
  return ir::TensorType{t.dtype(), ir::Shape(t.shape())};
}

Handle EagerEmitter::constant(double v, ir::DType dtype) {
  return constantTensor(scalarTensor(v, dtype));
}

Handle EagerEmitter::constantTensor(const Tensor &t) {
  int64_t id = observer_ ? observer_(ir::OpKind::Const, {}, {}, {}, t) : -1;
  return push(t, id);
}

Handle EagerEmitter::adopt(const TapeValue &v, int64_t id) {
  const Tensor *t = std::get_if<Tensor>(&v);
  if (!t)
    throw ir::OpError{"InternalError", "eager gradient given a symbolic tensor"};
  return push(*t, id);
}

}  // namespace tfs::runtime
