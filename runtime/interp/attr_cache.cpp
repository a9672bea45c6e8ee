// Filling the per-site attribute caches (attr_cache.h): the facts
// Interpreter::getAttrOpt and setAttr look up on an instance's class, worked
// out once for a class and epoch.
#include "runtime/interp/attr_cache.h"
#include "runtime/interp/slots.h"

namespace tfs::runtime {

namespace {
const Value *findInMro(const ClassObject *cls, const std::string &name) {
  for (const ClassObject *c : cls->mro) {
    auto it = c->dict.find(name);
    if (it != c->dict.end()) return &it->second;
  }
  return nullptr;
}

}  // namespace

void fillAttrCache(const ast::Attribute &a, ClassObject *cls) {
  a.cacheClass = cls;
  a.cacheEpoch = currentClassEpoch();
  a.cacheValue = nullptr;
  a.cacheLoad = kLoadGeneral;
  a.cacheStore = kStoreGeneral;
  if (a.attr == "__class__" || a.attr == "__dict__") return;
  // A user __getattribute__ answers every read.
  if (const Value *gab = findInMro(cls, "__getattribute__"); gab && !gab->as<NativeFunction>()) return;
  const Value *cattr = findInMro(cls, a.attr);
  if (!cattr) {
    a.cacheLoad = kLoadInstance;
  } else if (auto *fn = cattr->as<FunctionObject>()) {
    a.cacheLoad = kLoadMethod;
    a.cacheValue = fn;  // alive while the class's namespace holds it, i.e. while the epoch does
  }
  // Stores: no data descriptor of that name (a property, an instance with
  // __set__), no __slots__ restriction, no user __setattr__.
  if (cattr) {
    if (cattr->as<PropertyObject>() || cattr->as<MemberDescriptor>()) return;
    if (auto *d = cattr->as<InstanceObject>();
        d && (findInMro(d->klass.get(), "__set__") || findInMro(d->klass.get(), "__delete__")))
      return;
  }
  if (!instancesHaveDict(cls)) return;
  if (const Value *sa = findInMro(cls, "__setattr__"); sa && !sa->as<NativeFunction>()) return;
  a.cacheStore = kStoreDirect;
}

}  // namespace tfs::runtime
