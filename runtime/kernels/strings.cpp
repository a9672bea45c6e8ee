// String kernels: strings_join (elementwise join with broadcasting, attr
// separator) and as_string (numbers formatted like TF's AsString).
#include "runtime/kernels/kernel_util.h"

#include <cstdio>

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

// TF's AsString builds a printf format from its attributes: fill (one of
// " +-0#"), width, precision, then d for integers and e / g / f for floats
// (scientific / shortest / neither).
std::vector<Tensor> asString(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::AsString, in, attrs);
  const Tensor &x = in[0];
  std::string fill = ir::attrString(attrs, "fill", "");
  int64_t width = ir::attrInt(attrs, "width", -1), precision = ir::attrInt(attrs, "precision", -1);
  bool scientific = ir::attrBool(attrs, "scientific", false), shortest = ir::attrBool(attrs, "shortest", false);
  if (fill.size() > 1) fail(OpKind::AsString, "Fill string must be one or fewer characters");
  if (scientific && shortest) fail(OpKind::AsString, "Cannot select both scientific and shortest notation");
  if (!fill.empty() && std::string(" +-0#").find(fill[0]) == std::string::npos)
    fail(OpKind::AsString, "Fill argument not supported: \"" + fill + "\"");
  bool integral = ir::isInteger(x.dtype());
  if (precision > -1 && integral) fail(OpKind::AsString, "Cannot select precision for an integer type");
  std::string spec = "%" + fill;
  if (width > -1) spec += std::to_string(width);
  if (precision > -1) spec += "." + std::to_string(precision);
  std::string *q = out[0].data<std::string>();
  char buf[512];
  for (int64_t i = 0; i < x.numElements(); ++i) {
    switch (x.dtype()) {
    case DType::String: q[i] = x.data<std::string>()[i]; break;
    case DType::Bool: q[i] = x.data<bool>()[i] ? "true" : "false"; break;
    case DType::UInt64:
      std::snprintf(buf, sizeof buf, (spec + "llu").c_str(), static_cast<unsigned long long>(x.data<uint64_t>()[i]));
      q[i] = buf;
      break;
    default:
      if (integral) {
        std::snprintf(buf, sizeof buf, (spec + "lld").c_str(), static_cast<long long>(x.elementAsInt(i)));
      } else if (ir::isComplex(x.dtype())) {
        fail(OpKind::AsString, "complex as_string is not supported by tfs", "UnimplementedError");
      } else {
        std::snprintf(buf, sizeof buf, (spec + (scientific ? "e" : shortest ? "g" : "f")).c_str(), x.elementAsDouble(i));
      }
      q[i] = buf;
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
