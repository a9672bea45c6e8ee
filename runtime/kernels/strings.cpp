// String kernels: strings_join (elementwise join with broadcasting, attr
// separator) and as_string (numbers formatted like TF's AsString).
#include "runtime/kernels/kernel_util.h"

namespace tfs::runtime::kernels {

namespace {

std::vector<Tensor> stringJoin(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::StringJoin, in, attrs);
  std::string sep = ir::attrString(attrs, "separator", "");
  Tensor &o = out[0];
  std::string *q = o.data<std::string>();
  for (int64_t i = 0; i < o.numElements(); ++i) q[i].clear();
  for (size_t k = 0; k < in.size(); ++k) {
    const std::string *p = in[k].data<std::string>();
    forEachBroadcast<1>(o.shape(), {&in[k].shape()}, [&](int64_t i, const std::array<int64_t, 1> &off) {
      if (k) q[i] += sep;
      q[i] += p[off[0]];
    });
  }
  return out;
}

std::vector<Tensor> asString(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::AsString, in, attrs);
  const Tensor &x = in[0];
  std::string *q = out[0].data<std::string>();
  for (int64_t i = 0; i < x.numElements(); ++i) {
    switch (x.dtype()) {
    case DType::String: q[i] = x.data<std::string>()[i]; break;
    case DType::Bool: q[i] = x.data<bool>()[i] ? "true" : "false"; break;
    case DType::UInt64: q[i] = std::to_string(x.data<uint64_t>()[i]); break;
    default:
      if (ir::isInteger(x.dtype())) q[i] = std::to_string(x.elementAsInt(i));
      else if (ir::isComplex(x.dtype())) fail(OpKind::AsString, "complex as_string is not supported by tfs", "UnimplementedError");
      else q[i] = fmt::format("{:f}", x.elementAsDouble(i));
      break;
    }
  }
  return out;
}

}  // namespace

void registerStrings(KernelTable &t) {
  t[size_t(OpKind::StringJoin)] = stringJoin;
  t[size_t(OpKind::AsString)] = asString;
}

}  // namespace tfs::runtime::kernels
