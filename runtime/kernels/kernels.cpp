// The kernel registry and runKernel (see kernels.h): every file of
// runtime/kernels registers its kernels into one table indexed by OpKind.
#include "ir/shape_args.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/image_codec.h"

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
    registerRandomDraws(t);
    registerHostCallbacks(t);
    registerStringText(t);
    registerStringRegex(t);
    registerStringHashes(t);
    registerStrings(t);
    registerAssert(t);
    registerIndexOps(t);
    registerLinalgDecompositions(t);
    registerMatrixIndexOps(t);
    registerTensorArrayOps(t);
    registerComplex(t);
    registerIoOps(t);
    registerDecodeRaw(t);
    registerImageColor(t);
    registerAudioWav(t);
    registerImageDecode(t);
    registerImageEncode(t);
    registerExampleParsing(t);
    registerCollectives(t);
    registerSpecialMath(t);
    registerSpectral(t);
    registerBitwise(t);
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

namespace {
// float16 and bfloat16 are storage types: as TF's CPU kernels do through
// Eigen, each op computes in float32 and rounds its results back to the
// half type once (exact for data movement, one rounding for arithmetic).
// Kernels see only float32; ops that convert dtypes themselves (Cast) are
// the exceptions.
bool computesInFloat32(ir::OpKind kind, std::span<const Tensor> inputs, const ir::Attrs &attrs) {
  // Fingerprint hashes the half floats' own bytes; DecodeRaw writes them;
  // Bitcast reinterprets them; the random draws read TF's half-precision
  // bit layouts from the Philox words (random.cpp).
  if (kind == ir::OpKind::Cast || kind == ir::OpKind::Fingerprint || kind == ir::OpKind::DecodeRaw ||
      kind == ir::OpKind::Bitcast || kind == ir::OpKind::RandomUniform || kind == ir::OpKind::RandomNormal ||
      kind == ir::OpKind::RandomTruncatedNormal)
    return false;
  for (const Tensor &t : inputs)
    if (ir::isHalfFloat(t.dtype())) return true;
  for (const auto &[key, value] : attrs)
    if (auto *d = std::get_if<ir::DType>(&value); d && ir::isHalfFloat(*d)) return true;
  return false;
}

Tensor castTensor(const Tensor &t, ir::DType to) {
  return kernelFor(ir::OpKind::Cast)(std::span<const Tensor>(&t, 1), ir::Attrs{{"dtype", to}})[0];
}

std::vector<Tensor> runInFloat32(ir::OpKind kind, Kernel k, std::span<const Tensor> inputs,
                                 const ir::Attrs &attrs) {
  std::vector<ir::TensorType> types;
  for (const Tensor &t : inputs) types.push_back(t.type());
  // The type rule checks the real operands (TF's dtype errors name float16).
  std::vector<ir::TensorType> want = ir::opDef(kind).inferTypes(types, attrs);
  std::vector<Tensor> wide;
  for (const Tensor &t : inputs)
    wide.push_back(ir::isHalfFloat(t.dtype()) ? castTensor(t, ir::DType::Float32) : t);
  ir::Attrs wideAttrs = attrs;
  for (auto &[key, value] : wideAttrs)
    if (auto *d = std::get_if<ir::DType>(&value); d && ir::isHalfFloat(*d)) value = ir::DType::Float32;
  std::vector<Tensor> out = k(wide, wideAttrs);
  for (size_t i = 0; i < out.size() && i < want.size(); ++i)
    if (out[i].dtype() != want[i].dtype) out[i] = castTensor(out[i], want[i].dtype);
  return out;
}
}  // namespace

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
    std::span<const Tensor> data = inputs.first(size_t(def.dataOperands));
    if (computesInFloat32(kind, data, bound)) return runInFloat32(kind, k, data, bound);
    return k(data, bound);
  }
  if (computesInFloat32(kind, inputs, attrs)) return runInFloat32(kind, k, inputs, attrs);
  return k(inputs, attrs);
}

}  // namespace tfs::runtime
