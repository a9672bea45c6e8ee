// The kernel registry and runKernel (see kernels.h): every file of
// runtime/kernels registers its kernels into one table indexed by OpKind.
#include "ir/shape_args.h"
#include "runtime/kernels/kernel_util.h"

namespace tfs::runtime {

namespace kernels {
namespace {
const KernelTable &table() {
  static const KernelTable t = [] {
    KernelTable t{};
    registerElementwise(t);
    registerReductions(t);
    registerShapeOps(t);
    registerLinalg(t);
    registerNN(t);
    registerConv(t);
    registerPooling(t);
    registerRandom(t);
    registerStrings(t);
    registerAssert(t);
    registerIndexOps(t);
    return t;
  }();
  return t;
}
}  // namespace

std::vector<Tensor> allocateOutputs(OpKind k, std::span<const Tensor> inputs,
                                    const ir::Attrs &attrs) {
  std::vector<ir::TensorType> in;
  in.reserve(inputs.size());
  for (const Tensor &t : inputs) in.push_back(t.type());
  std::vector<ir::TensorType> outTypes = ir::opDef(k).inferTypes(in, attrs);
  std::vector<Tensor> out;
  for (const auto &t : outTypes) out.push_back(Tensor::empty(t.dtype, t.shape.dims));
  return out;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &shape,
                                      const std::vector<int64_t> &out) {
  std::vector<int64_t> strides(out.size(), 0);
  std::vector<int64_t> own = contiguousStrides(shape);
  size_t off = out.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    strides[off + i] = shape[i] == 1 ? 0 : own[i];
  return strides;
}
}  // namespace kernels

Kernel kernelFor(ir::OpKind kind) { return kernels::table()[size_t(kind)]; }

std::vector<Tensor> runKernel(ir::OpKind kind, std::span<const Tensor> inputs,
                              const ir::Attrs &attrs) {
  const ir::OpDef &def = ir::opDef(kind);
  if (int(inputs.size()) < def.minOperands ||
      (def.maxOperands >= 0 && int(inputs.size()) > def.maxOperands))
    throw ir::OpError{"InvalidArgumentError",
                      fmt::format("{} expects {} operands, got {}", def.name, def.minOperands,
                                  inputs.size())};
  Kernel k = kernelFor(kind);
  if (!k)
    throw ir::OpError{"UnimplementedError", fmt::format("op '{}' has no eager kernel", def.name)};
  if (def.hasShapeArgs() && inputs.size() > size_t(def.dataOperands)) {
    // Shape operands bind into the attributes the kernel reads
    // (ir/shape_args.h, Note [Shape arguments]).
    std::vector<ir::ShapeArgValue> values;
    for (size_t i = size_t(def.dataOperands); i < inputs.size(); ++i) {
      const Tensor &t = inputs[i];
      if (!ir::isInteger(t.dtype()) || t.rank() > 1)
        throw ir::OpError{"InvalidArgumentError",
                          fmt::format("shape arguments must be int32/int64 scalars or vectors, got {} [Op:{}]",
                                      t.type().str(), ir::tfOpType(kind))};
      if (t.rank() == 0) {
        values.emplace_back(t.elementAsInt(0));
      } else {
        std::vector<int64_t> v(size_t(t.numElements()));
        for (int64_t j = 0; j < t.numElements(); ++j) v[size_t(j)] = t.elementAsInt(j);
        values.emplace_back(std::move(v));
      }
    }
    ir::Attrs bound = ir::bindShapeArgs(def, attrs, inputs.size(), values);
    return k(inputs.first(size_t(def.dataOperands)), bound);
  }
  return k(inputs, attrs);
}

}  // namespace tfs::runtime
