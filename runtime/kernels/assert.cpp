// The assert kernel: TF's Assert op (tf.debugging.Assert, AutoGraph's
// "loop must iterate at least once" check). It has no results; a false
// condition fails the run with TF's "assertion failed: [message]".
#include "runtime/kernels/kernel_util.h"

namespace tfs::runtime::kernels {

namespace {

std::vector<Tensor> assertion(std::span<const Tensor> in, const ir::Attrs &attrs) {
  bool ok = true;
  for (int64_t i = 0; i < in[0].numElements(); ++i) ok = ok && in[0].data<bool>()[i];
  if (!ok)
    throw ir::OpError{"InvalidArgumentError",
                      "assertion failed: [" + ir::attrString(attrs, "message", "") + "]"};
  return {};
}

}  // namespace

void registerAssert(KernelTable &t) { t[size_t(OpKind::Assert)] = assertion; }

}  // namespace tfs::runtime::kernels
