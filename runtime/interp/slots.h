// __slots__ (CPython 3.11): a class that declares them gets one member
// descriptor per name in its namespace; its instances have no __dict__
// unless some class of the MRO lacks __slots__ or lists "__dict__".
// A slot's value lives in the instance's attribute table under its
// (mangled) name and is reached only through the descriptor, which
// InstanceDictObject hides from __dict__/vars().
#pragma once

#include "runtime/interp/interpreter.h"

namespace tfs::runtime {

// `<member 'x' of 'P' objects>`: the data descriptor of one slot.
struct MemberDescriptor final : Object {
  std::string name;   // the mangled slot name: the instance attribute it reads
  std::string owner;  // the declaring class's name (repr and messages)
  const char *typeName() const override { return "member_descriptor"; }
  std::optional<std::string> repr(Interpreter &) override;
  std::optional<Value> bind(Interpreter &in, const Value &self) override;
  void set(Interpreter &in, const Value &self, const Value &v);
  void erase(Interpreter &in, const Value &self);
};

// Validates the class's __slots__ (identifiers, no clash with a class
// variable) and installs its member descriptors; at class creation.
void installSlots(Interpreter &in, ClassObject &cls);

// Whether instances of `cls` have a __dict__ (take any attribute name).
bool instancesHaveDict(const ClassObject *cls);

// `a` mangled as a private name of class `cls` (`__x` in class P: `_P__x`).
std::string manglePrivateName(const std::string &cls, const std::string &a);

}  // namespace tfs::runtime
