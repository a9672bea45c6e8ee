#include "runtime/interp/native_context_managers.h"

#include <unordered_set>

#include "runtime/interp/value.h"

namespace tfs::runtime {
namespace {
// Filled during static initialization, read-only afterwards.
std::unordered_set<std::type_index> &registry() {
  static std::unordered_set<std::type_index> types;
  return types;
}
}  // namespace

void registerNativeContextManager(std::type_index type) { registry().insert(type); }

bool isNativeContextManager(const Object &o) { return registry().count(std::type_index(typeid(o))) != 0; }

}  // namespace tfs::runtime
