// isinstance() and issubclass() against a class, a (nested) tuple of
// classes or a union, with a metaclass's __instancecheck__ /
// __subclasscheck__ deciding for its classes, as CPython 3.11 does.
#include "runtime/interp/builtins.h"
#include "runtime/interp/interpreter.h"

#include <fmt/format.h>

namespace tfs::runtime {

// isinstance(v, info) / issubclass(v, info): info a class, a (nested)
// tuple of them or a union; a metaclass's __instancecheck__ /
// __subclasscheck__ decides for its classes (not for an exact type match).
bool classInfoCheck(Interpreter &in, const Value &v, const Value &info, bool subclass) {
  if (auto *t = info.as<TupleObject>()) {
    for (auto &x : t->items)
      if (classInfoCheck(in, v, x, subclass)) return true;
    return false;
  }
  auto *c = info.as<ClassObject>();
  if (!c) {
    if (auto args = in.getAttrOpt(info, "__args__"); args && in.typeName(info) == "types.UnionType")
      return classInfoCheck(in, v, *args, subclass);
    in.raise("TypeError", subclass ? "issubclass() arg 2 must be a class, a tuple of classes, or a union"
                                   : "isinstance() arg 2 must be a type, a tuple of types, or a union");
  }
  if (!subclass && in.typeOf(v).get() == c) return true;
  if (c->metaclass)
    if (auto m = c->metaclass->lookup(subclass ? "__subclasscheck__" : "__instancecheck__");
        m && !m->as<NativeFunction>()) {
      Value args[] = {v};
      return in.truth(in.call(Value(make<BoundMethod>(info, *m)), args));
    }
  if (subclass) return v.as<ClassObject>()->isSubclassOf(c);
  return in.isInstance(v, c);
}

}  // namespace tfs::runtime
