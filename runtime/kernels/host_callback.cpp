// The host callback registry and the py_function kernel that calls one.
#include "runtime/kernels/host_callback.h"

#include "runtime/kernels/kernel_util.h"

#include <mutex>

namespace tfs::runtime {

namespace {
struct Registry {
  std::mutex mutex;
  std::vector<HostCallback> callbacks;
};
Registry &registry() {
  static Registry r;
  return r;
}
}  // namespace

int64_t registerHostCallback(HostCallback callback) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.callbacks.push_back(std::move(callback));
  return int64_t(r.callbacks.size()) - 1;
}

HostCallback hostCallback(int64_t id) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (id < 0 || id >= int64_t(r.callbacks.size()))
    throw ir::OpError{"InternalError", fmt::format("py_function callback {} is not registered", id)};
  return r.callbacks[size_t(id)];
}

namespace kernels {
namespace {
std::vector<Tensor> pyFunction(std::span<const Tensor> in, const ir::Attrs &attrs) {
  return hostCallback(ir::attrInt(attrs, "callback", -1))(in);
}
}  // namespace

void registerHostCallbacks(KernelTable &t) { t[size_t(OpKind::PyFunction)] = pyFunction; }
}  // namespace kernels

}  // namespace tfs::runtime
