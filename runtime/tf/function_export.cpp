// A concrete function as a SavedModel signature (function_wrappers.h):
// its graph, the variables it captures and, for a dict of outputs, the
// output keys in the order of the traced results.
#include "runtime/tf/concrete_function.h"
#include "runtime/tf/function_wrappers.h"

#include <algorithm>

namespace tfs::runtime::tf {

TracedSignature tracedSignatureOf(Interpreter &in, const ConcreteFunction &cf) {
  TracedSignature sig{cf.scope, cf.variables, {}};
  // A dict of tensors is ("dict", ((key, index), ...)); see collectOutputs.
  if (auto *t = cf.outputStructure.as<TupleObject>(); t && t->items.size() == 2 && in.str(t->items[0]) == "dict") {
    std::vector<std::pair<int64_t, std::string>> keyed;
    for (auto &kv : in.toList(t->items[1])) {
      auto *p = kv.as<TupleObject>();
      if (!p || !p->items[1].isInt()) return sig;
      keyed.emplace_back(p->items[1].asInt(), in.str(p->items[0]));
    }
    std::sort(keyed.begin(), keyed.end());
    for (auto &[index, key] : keyed) sig.outputKeys.push_back(key);
  }
  return sig;
}

}  // namespace tfs::runtime::tf
