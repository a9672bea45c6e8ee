// __slots__: validation at class creation, member descriptors, and whether
// instances have a __dict__ (see slots.h).
#include "runtime/interp/slots.h"

#include <fmt/format.h>

namespace tfs::runtime {

std::string manglePrivateName(const std::string &cls, const std::string &a) {
  if (a.size() < 3 || a.compare(0, 2, "__") != 0 || (a.size() >= 4 && a.compare(a.size() - 2, 2, "__") == 0) ||
      a.find('.') != std::string::npos)
    return a;
  size_t lead = cls.find_first_not_of('_');
  if (lead == std::string::npos) return a;  // a class named only of underscores mangles nothing
  return "_" + cls.substr(lead) + a;
}

std::optional<std::string> MemberDescriptor::repr(Interpreter &) {
  return fmt::format("<member '{}' of '{}' objects>", name, owner);
}

std::optional<Value> MemberDescriptor::bind(Interpreter &in, const Value &self) {
  auto *inst = self.as<InstanceObject>();
  if (!inst) return std::nullopt;
  auto it = inst->attrs.find(name);
  if (it == inst->attrs.end())
    in.raise("AttributeError", fmt::format("'{}' object has no attribute '{}'", inst->klass->name, name));
  return it->second;
}

void MemberDescriptor::set(Interpreter &in, const Value &self, const Value &v) {
  auto *inst = self.as<InstanceObject>();
  if (!inst)
    in.raise("TypeError", fmt::format("descriptor '{}' for '{}' objects doesn't apply to a '{}' object", name, owner,
                                      in.typeName(self)));
  inst->set(name, v);
}

void MemberDescriptor::erase(Interpreter &in, const Value &self) {
  auto *inst = self.as<InstanceObject>();
  if (!inst || !inst->attrs.erase(name)) in.raise("AttributeError", name);
}

namespace {
bool isIdentifier(const std::string &s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (unsigned char c : s)
    if (!(std::isalnum(c) || c == '_' || c >= 0x80)) return false;
  return true;
}

// The names a class's __slots__ lists (a string is one name).
std::vector<Value> slotItems(Interpreter &in, const Value &slots) {
  if (slots.as<StrObject>()) return {slots};
  return in.toList(slots);
}
}  // namespace

void installSlots(Interpreter &in, ClassObject &cls) {
  auto it = cls.dict.find("__slots__");
  if (it == cls.dict.end()) return;
  Value slots = it->second;
  std::vector<std::string> names;
  for (auto &item : slotItems(in, slots)) {
    auto *s = item.as<StrObject>();
    if (!s) in.raise("TypeError", fmt::format("__slots__ items must be strings, not '{}'", in.typeName(item)));
    if (!isIdentifier(s->s)) in.raise("TypeError", "__slots__ must be identifiers");
    if (s->s == "__dict__" || s->s == "__weakref__") continue;
    names.push_back(manglePrivateName(cls.name, s->s));
  }
  for (auto &n : names)
    if (cls.dict.count(n)) in.raise("ValueError", fmt::format("'{}' in __slots__ conflicts with class variable", n));
  for (auto &n : names) {
    auto d = make<MemberDescriptor>();
    d->name = n;
    d->owner = cls.name;
    cls.setAttr(n, Value(d));
  }
}

bool instancesHaveDict(const ClassObject *cls) {
  // BaseException has a __dict__: every exception takes any attribute
  // (e.__context__ = ..., e.note = ...), __slots__ or not.
  if (cls->isException) return true;
  for (const ClassObject *c : cls->mro) {
    if (c->construct || (c->isException && c->dict.count("__builtin__"))) continue;
    auto it = c->dict.find("__slots__");
    if (it == c->dict.end()) return true;
    const Value &slots = it->second;
    if (auto *s = slots.as<StrObject>()) {
      if (s->s == "__dict__") return true;
    } else if (auto *t = slots.as<TupleObject>()) {
      for (auto &x : t->items)
        if (auto *xs = x.as<StrObject>(); xs && xs->s == "__dict__") return true;
    } else if (auto *l = slots.as<ListObject>()) {
      for (auto &x : l->items)
        if (auto *xs = x.as<StrObject>(); xs && xs->s == "__dict__") return true;
    }
  }
  return false;
}

}  // namespace tfs::runtime
