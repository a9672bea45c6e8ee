// Per-site caches of instance attribute access. An ast::Attribute remembers
// what its name is on the class of the last instance read or written there
// (absent, a plain function, another class attribute), so `self.x`,
// `self.x = v` and `obj.method(...)` skip the walk of the class's MRO
// (a string hash per class) and the checks for data descriptors, __slots__
// and __setattr__ while that class and the class epoch (value.h) hold.
// What a hit does is exactly what Interpreter::getAttrOpt / setAttr would
// do for that class; anything else takes the general path.
#pragma once

#include "runtime/interp/value.h"

#include <cstring>

namespace tfs::runtime {

// What reading `inst.attr` is for the cached class.
enum AttrLoad : uint8_t {
  kLoadUnknown = 0,  // not filled
  kLoadGeneral,      // the general path decides
  kLoadInstance,     // the class has no such name: the instance's own attribute, if any
  kLoadMethod,       // a plain function of the class (cacheValue): the instance's own, else bound
};
// What writing `inst.attr = v` is for the cached class.
enum AttrStore : uint8_t {
  kStoreUnknown = 0,
  kStoreGeneral,
  kStoreDirect,  // into the instance's attributes (no property, __set__, __slots__ or __setattr__)
};

// inst.attrs.find(name), comparing the first bytes inline before calling
// memcmp (attribute names of one length often differ in their first byte).
inline AttrTable::iterator findOwnAttr(InstanceObject &inst, const std::string &name) {
  size_t n = name.size();
  for (auto it = inst.attrs.begin(), end = inst.attrs.end(); it != end; ++it)
    if (it->first.size() == n && (n == 0 || (it->first[0] == name[0] && std::memcmp(it->first.data(), name.data(), n) == 0)))
      return it;
  return inst.attrs.end();
}

// Fills the cache of `a` for instances of `cls` at the current epoch.
void fillAttrCache(const ast::Attribute &a, ClassObject *cls);

// The cache of `a` for instances of `cls`, filled when stale.
inline const ast::Attribute &attrCacheFor(const ast::Attribute &a, ClassObject *cls) {
  if (a.cacheClass != cls || a.cacheEpoch != currentClassEpoch()) [[unlikely]]
    fillAttrCache(a, cls);
  return a;
}

// The plain function `a` names on the class of `inst` when reading it makes
// a bound method (the instance has no attribute of that name); null otherwise.
inline FunctionObject *cachedMethod(const ast::Attribute &a, InstanceObject *inst) {
  auto &c = attrCacheFor(a, inst->klass.get());
  if (c.cacheLoad != kLoadMethod || findOwnAttr(*inst, a.attr) != inst->attrs.end()) return nullptr;
  return static_cast<FunctionObject *>(const_cast<void *>(c.cacheValue));
}

}  // namespace tfs::runtime
