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

Value stageNestedWhile(Interpreter &in, const LoopTest &test, const LoopBody &rawBody, const std::vector<Value> &state,
                       const std::vector<std::string> &names, const std::vector<std::optional<ir::Shape>> &invariants,
                       const FlatLoopStager &stageFlat) {
  std::vector<StateNest> nests;
  bool nested = false;
  for (const Value &v : state) {
    nests.push_back(nestOf(v));
    nested |= nests.back().kind != StateNest::Kind::Leaf;
  }
  if (!nested) return stageFlat(test, rawBody, state, names, invariants);
  auto nameOf = [&](size_t i) { return i < names.size() ? names[i] : std::string("v"); };
  auto flatten = [&](const std::vector<Value> &s, std::vector<std::string> *flatNames) {
    if (s.size() != nests.size())
      in.raise("ValueError", fmt::format("the loop body returns {} values for {} loop variables", s.size(), nests.size()));
    std::vector<Value> leaves;
    for (size_t i = 0; i < s.size(); ++i)
      flattenState(in, s[i], nests[i], nameOf(i), leaves, flatNames,
                   "'{}' does not have the same nested structure after one iteration.");
    return leaves;
  };
  auto rebuild = [&](const std::vector<Value> &leaves) {
    std::vector<Value> s;
    size_t pos = 0;
    for (const StateNest &n : nests) s.push_back(rebuildState(in, n, leaves, pos));
    return s;
  };
  std::vector<std::string> flatNames;
  std::vector<Value> flat = flatten(state, &flatNames);
  // A shape invariant names a whole loop variable: it applies to a leaf one.
  std::vector<std::optional<ir::Shape>> flatInvariants;
  for (size_t i = 0; i < nests.size(); ++i) {
    std::vector<Value> leaves;
    flattenState(in, state[i], nests[i], "", leaves, nullptr, "");
    for (size_t k = 0; k < leaves.size(); ++k)
      flatInvariants.push_back(nests[i].kind == StateNest::Kind::Leaf && i < invariants.size() ? invariants[i]
                                                                                                : std::nullopt);
  }
  Value r = stageFlat(
      [&](const std::vector<Value> &f) { return test(rebuild(f)); },
      [&](const std::vector<Value> &f) { return flatten(rawBody(rebuild(f)), nullptr); }, flat, flatNames,
      flatInvariants);
  return in.tuple(rebuild(in.toList(r)));
}

}  // namespace tfs::runtime::tf
