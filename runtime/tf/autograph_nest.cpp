// Lists and tuples in AutoGraph state: see autograph_nest.h.
#include "runtime/tf/autograph_nest.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

namespace {

const std::vector<Value> *sequenceItems(const Value &v, StateNest::Kind &kind) {
  if (auto *l = v.as<ListObject>()) {
    kind = StateNest::Kind::List;
    return &l->items;
  }
  if (auto *t = v.as<TupleObject>()) {
    kind = StateNest::Kind::Tuple;
    return &t->items;
  }
  return nullptr;
}

}  // namespace

bool isCarriableLeaf(const Value &v) {
  return v.as<TensorObject>() || v.as<VariableObject>() || v.isInt() || v.isFloat() || v.isBool();
}

StateNest nestOf(const Value &v) {
  StateNest n;
  StateNest::Kind kind;
  const std::vector<Value> *items = sequenceItems(v, kind);
  if (!items || items->empty()) return n;
  std::vector<StateNest> sub;
  for (const Value &x : *items) {
    StateNest s = nestOf(x);
    if (s.kind == StateNest::Kind::Leaf && !isCarriableLeaf(x)) return n;
    sub.push_back(std::move(s));
  }
  n.kind = kind;
  n.items = std::move(sub);
  return n;
}

void flattenState(Interpreter &in, const Value &v, const StateNest &n, const std::string &name,
                  std::vector<Value> &leaves, std::vector<std::string> *names, const char *mismatch) {
  if (n.kind == StateNest::Kind::Leaf) {
    leaves.push_back(v);
    if (names) names->push_back(name);
    return;
  }
  StateNest::Kind kind;
  const std::vector<Value> *items = sequenceItems(v, kind);
  if (!items || kind != n.kind || items->size() != n.items.size())
    in.raise("ValueError", fmt::format(fmt::runtime(mismatch), name));
  for (size_t i = 0; i < items->size(); ++i)
    flattenState(in, (*items)[i], n.items[i], fmt::format("{}[{}]", name, i), leaves, names, mismatch);
}

Value rebuildState(Interpreter &in, const StateNest &n, const std::vector<Value> &leaves, size_t &pos) {
  if (n.kind == StateNest::Kind::Leaf) return leaves[pos++];
  std::vector<Value> items;
  for (const StateNest &s : n.items) items.push_back(rebuildState(in, s, leaves, pos));
  return n.kind == StateNest::Kind::List ? in.list(std::move(items)) : in.tuple(std::move(items));
}

}  // namespace tfs::runtime::tf
