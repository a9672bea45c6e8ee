// object's own slot methods, the defaults every class inherits: reached as
// `object.__repr__(x)`, `super().__repr__()` when no class of the MRO
// before object defines the name, and `x.__eq__` on an instance whose class
// does not. They are not entries of object's namespace (the interpreter's
// protocols look a user class's dunders up by name and would find these
// first); attributes.cpp falls back to them where the MRO walk ends.
#include "runtime/interp/builtins.h"
#include "runtime/interp/interpreter.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {
const Value &selfArg(Interpreter &in, const char *name, Args a, size_t arity) {
  if (a.empty()) in.raise("TypeError", fmt::format("descriptor '{}' of 'object' object needs an argument", name));
  if (a.size() != arity)
    in.raise("TypeError", fmt::format("expected {} argument{}, got {}", arity - 1, arity == 2 ? "" : "s", a.size() - 1));
  return a[0];
}

bool isExceptionInstance(const Value &v) {
  auto *inst = v.as<InstanceObject>();
  return inst && inst->klass->isException;
}

// The user's __eq__ of `self`'s class, if any (object.__ne__ inverts it).
Value equalsViaClass(Interpreter &in, const Value &self, const Value &other) {
  if (auto *inst = self.as<InstanceObject>()) {
    if (auto eq = inst->klass->lookup("__eq__"); eq && !eq->as<NativeFunction>()) {
      Value args[] = {other};
      return in.call(Value(make<BoundMethod>(self, *eq)), args);
    }
    if (!builtinPart(self)) return self.is(other) ? Value::boolean(true) : in.builtin("NotImplemented");
  }
  return in.compare(CmpOp::Eq, self, other);
}
}  // namespace

std::optional<Value> objectSlot(Interpreter &in, const std::string &name) {
  if (name.size() < 5 || name[0] != '_' || name[1] != '_') return std::nullopt;
  if (name == "__repr__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) {
      const Value &self = selfArg(in, "__repr__", a, 1);
      return in.str(isExceptionInstance(self) ? exceptionRepr(in, self) : defaultObjectRepr(in, self));
    });
  if (name == "__str__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) {
      const Value &self = selfArg(in, "__str__", a, 1);
      // object.__str__ is type(self).__repr__(self): the class's own repr.
      return in.str(isExceptionInstance(self) ? in.exceptionMessage(self) : in.repr(self));
    });
  if (name == "__format__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) {
      const Value &self = selfArg(in, "__format__", a, 2);
      auto *spec = a[1].as<StrObject>();
      if (!spec) in.raise("TypeError", fmt::format("argument 1 must be str, not {}", in.typeName(a[1])));
      if (!spec->s.empty())
        in.raise("TypeError", fmt::format("unsupported format string passed to {}.__format__", in.typeName(self)));
      return in.str(in.str(self));
    });
  if (name == "__eq__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) {
      const Value &self = selfArg(in, "__eq__", a, 2);
      return self.is(a[1]) ? Value::boolean(true) : in.builtin("NotImplemented");
    });
  if (name == "__ne__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) {
      const Value &self = selfArg(in, "__ne__", a, 2);
      Value r = equalsViaClass(in, self, a[1]);
      if (r.is(in.builtin("NotImplemented"))) return r;
      return Value::boolean(!in.truth(r));
    });
  if (name == "__lt__" || name == "__le__" || name == "__gt__" || name == "__ge__") {
    std::string n = name;
    return in.native(name, [n](Interpreter &in, Args a, const Kwargs &) {
      selfArg(in, n.c_str(), a, 2);
      return in.builtin("NotImplemented");
    });
  }
  if (name == "__hash__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) {
      const Value &self = selfArg(in, "__hash__", a, 1);
      if (self.as<InstanceObject>()) return Value::integer(int64_t(reinterpret_cast<intptr_t>(self.obj())));
      return Value::integer(in.hash(self));
    });
  if (name == "__getattribute__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) -> Value {
      const Value &self = selfArg(in, "__getattribute__", a, 2);
      auto *n = a[1].as<StrObject>();
      if (!n) in.raise("TypeError", fmt::format("attribute name must be string, not '{}'", in.typeName(a[1])));
      if (!self.as<InstanceObject>()) return in.getAttr(self, n->s);
      if (auto v = genericInstanceAttr(in, self, n->s)) return *v;
      in.raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", in.typeName(self), n->s));
    });
  if (name == "__dir__")
    return in.native(name, [](Interpreter &in, Args a, const Kwargs &) {
      const Value &self = selfArg(in, "__dir__", a, 1);
      Value args[] = {self};
      return in.call(in.builtin("dir"), args);
    });
  return std::nullopt;
}

}  // namespace tfs::runtime
