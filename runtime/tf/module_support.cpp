// Helpers the engine's objects and the library's module bindings share:
// building module namespaces, and running a kernel with numpy's errors
// (ndarray operators live in the engine's tensor object).
#include "runtime/kernels/kernels.h"
#include "runtime/tf/tf.h"

namespace tfs::runtime::tf {

using ir::OpKind;

void def(Interpreter &in, ModuleObject &m, const std::string &name, NativeFn fn) {
  m.scope->vars[name] = in.native(name, std::move(fn));
}

Ref<ModuleObject> submodule(Interpreter &in, ModuleObject &parent, const std::string &name) {
  auto it = parent.scope->vars.find(name);
  if (it != parent.scope->vars.end()) return Ref<ModuleObject>(it->second.as<ModuleObject>());
  auto m = make<ModuleObject>(parent.name + "." + name);
  parent.scope->vars[name] = m;
  return m;
}

// numpy's class for a kernel's or the allocator's error: MemoryError for an
// array past the budget, TypeError for a dtype problem, else ValueError.
const char *numpyErrorClass(const ir::OpError &e) {
  if (e.errorClass == "ResourceExhaustedError") return "MemoryError";
  if (e.errorClass == "NotImplementedError") return "NotImplementedError";  // what tfs's numpy lacks, by name
  return e.errorClass == "TypeError" ? "TypeError" : "ValueError";
}

Tensor numpyKernel(Interpreter &in, OpKind k, std::vector<Tensor> inputs, const ir::Attrs &attrs) {
  try {
    return runKernel(k, inputs, attrs)[0];
  } catch (const ir::OpError &e) {
    in.raise(numpyErrorClass(e), e.message);
  }
}

}  // namespace tfs::runtime::tf
