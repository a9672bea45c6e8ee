// TF's DecodeRaw and DecodePaddedRaw (one op here, attr fixed_length): the
// bytes of each string read as numbers of attr out_type, one row per
// string. Without fixed_length every string must have the same length, a
// multiple of the element size; with it each string is cut or zero-padded
// to fixed_length bytes. little_endian=False reverses the bytes of each
// element (each half of a complex number), as TF does on a little-endian
// host.
#include "runtime/kernels/kernel_util.h"

#include <algorithm>

namespace tfs::runtime::kernels {

namespace {

// TF's two ops report errors under their own names.
[[noreturn]] void failAs(const char *op, const std::string &msg) {
  throw ir::OpError{"InvalidArgumentError", fmt::format("{} [Op:{}]", msg, op)};
}

std::vector<Tensor> decodeRaw(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &x = in[0];
  DType d = ir::attrDType(attrs, "out_type").value_or(DType::UInt8);
  bool little = ir::attrBool(attrs, "little_endian", true);
  bool padded = attrs.count("fixed_length") > 0;
  int64_t fixed = ir::attrInt(attrs, "fixed_length", 0);
  int64_t size = int64_t(ir::dtypeSize(d));
  const std::string *p = x.data<std::string>();
  int64_t n = x.numElements();
  int64_t bytes;  // per string
  if (padded) {
    if (fixed % size != 0)
      failAs("DecodePaddedRaw", fmt::format("fixed_length ({}) must be a multiple of the size of out_type ({})",
                                          fixed, size));
    if (fixed <= 0) failAs("DecodePaddedRaw", fmt::format("fixed_length ({}) must be positive", fixed));
    bytes = fixed;
  } else {
    bytes = n == 0 ? 0 : int64_t(p[0].size());
    if (bytes % size != 0)
      fail(OpKind::DecodeRaw, fmt::format("Input to DecodeRaw has length {} that is not a multiple of {}, the "
                                          "size of {}", bytes, size, ir::dtypeName(d)));
    for (int64_t i = 1; i < n; ++i)
      if (int64_t(p[i].size()) != bytes)
        fail(OpKind::DecodeRaw, fmt::format("DecodeRaw requires input strings to all be the same size, but "
                                            "element {} has size {} != {}", i, p[i].size(), bytes));
  }
  std::vector<int64_t> shape = x.shape();
  shape.push_back(bytes / size);
  Tensor out = Tensor::empty(d, shape);
  char *q = static_cast<char *>(out.rawData());
  int64_t part = (d == DType::Complex64 || d == DType::Complex128) ? size / 2 : size;
  for (int64_t i = 0; i < n; ++i, q += bytes) {
    int64_t copied = std::min<int64_t>(bytes, int64_t(p[i].size()));
    std::copy_n(p[i].data(), copied, q);
    std::fill(q + copied, q + bytes, char(0));
    if (!little)
      for (int64_t k = 0; k + part <= bytes; k += part) std::reverse(q + k, q + k + part);
    // tfs's bools are 0 or 1 (any nonzero byte reads as True, as in TF).
    if (d == DType::Bool)
      for (int64_t k = 0; k < bytes; ++k) q[k] = q[k] != 0;
  }
  return {out};
}

}  // namespace

void registerDecodeRaw(KernelTable &t) { t[size_t(OpKind::DecodeRaw)] = decodeRaw; }

}  // namespace tfs::runtime::kernels
