// Native context managers (files, tf.GradientTape, tf.name_scope, sessions,
// ...) implement Object::enter/exit for the `with` statement. Registering
// their C++ type also gives their objects `__enter__` and `__exit__`
// attributes, as CPython's and TF's have: contextlib.ExitStack and code
// that enters a manager by hand use them. Other native objects (tensors,
// lists) have no such attributes, so hasattr(x, "__enter__") stays False.
#pragma once

#include <typeindex>
#include <typeinfo>

namespace tfs::runtime {

struct Object;

void registerNativeContextManager(std::type_index type);
bool isNativeContextManager(const Object &o);

// At namespace scope after the class: TFS_NATIVE_CONTEXT_MANAGER(TapeObject);
#define TFS_NATIVE_CONTEXT_MANAGER(Type)                                                     \
  [[maybe_unused]] static const bool tfsContextManager_##Type = [] {                         \
    ::tfs::runtime::registerNativeContextManager(std::type_index(typeid(Type)));             \
    return true;                                                                             \
  }()

}  // namespace tfs::runtime
