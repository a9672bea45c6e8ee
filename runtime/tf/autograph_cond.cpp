// ag.if_stmt: an `if` whose condition is a Python value runs one branch;
// one on a symbolic tensor stages a cond node over both branches, with
// TF's errors for outputs a branch leaves undefined or gives another type.
#include "runtime/tf/autograph_support.h"

#include "runtime/interp/signature.h"
#include "runtime/kernels/kernels.h"
#include "runtime/tf/autograph_nest.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::ag {

using ir::OpKind;

Value ifStmt(Interpreter &in, Args a, const Kwargs &) {
  const Value &cond = a[0];
  std::vector<Value> state = in.toList(a[3]);
  if (!isSymbolic(cond)) {
    return in.truth(cond) ? in.call(a[1], state) : in.call(a[2], state);
  }
  std::vector<std::string> names = namesOf(in, a[4]);
  auto *pred = cond.as<TensorObject>();
  GraphScope &g = *pred->scope;
  verifyCondition(in, cond, "if statement");
  ir::Node *node = g.builder().beginCond(pred->sym, in.currentSpan());
  // Each branch gets its own copies of the lists and tuples in the state:
  // an element assigned in one branch (`x[1] = 1`) must not reach the other.
  auto freshState = [&]() {
    std::vector<Value> copy = state;
    for (Value &v : copy) {
      StateNest n = nestOf(in, v);
      if (n.kind == StateNest::Kind::Leaf) continue;
      std::vector<Value> leaves;
      flattenState(in, v, n, "", leaves, nullptr, "");
      size_t pos = 0;
      v = rebuildState(in, n, leaves, pos);
    }
    return copy;
  };
  auto runBranch = [&](unsigned region, const Value &fn) {
    g.pushRegion(node->region(region));
    std::vector<Value> outs;
    try {
      outs = in.toList(in.call(fn, freshState()));
    } catch (...) {
      g.popRegion();
      throw;
    }
    g.popRegion();
    return outs;
  };
  // TF checks each branch right after tracing it (`main`, then `else`), and
  // the pair after the second.
  auto checkBranch = [&](const std::vector<Value> &outs, const char *branch) {
    for (size_t i = 0; i < outs.size() && i < names.size(); ++i)
      if (auto *u = outs[i].as<UndefinedObject>(); u && !u->returnValue)
        in.raise("ValueError", fmt::format("'{}' must also be initialized in the {} branch", names[i], branch));
  };
  std::vector<Value> thenOuts = runBranch(0, a[1]);
  checkBranch(thenOuts, "main");
  std::vector<Value> elseOuts = runBranch(1, a[2]);
  if (elseOuts.size() != thenOuts.size())
    in.raise("ValueError", fmt::format("the branches of a conditional produce {} and {} values", thenOuts.size(), elseOuts.size()));
  checkBranch(elseOuts, "else");
  // Lists and tuples among the outputs are staged leaf by leaf.
  std::vector<StateNest> outNests;
  bool nested = false;
  for (size_t i = 0; i < thenOuts.size(); ++i) {
    outNests.push_back(nestOf(in, thenOuts[i].as<UndefinedObject>() ? elseOuts[i] : thenOuts[i]));
    nested |= outNests.back().kind != StateNest::Kind::Leaf;
  }
  if (nested) {
    std::vector<Value> thenFlat, elseFlat;
    std::vector<std::string> flatNames;
    for (size_t i = 0; i < thenOuts.size(); ++i) {
      std::string name = i < names.size() ? names[i] : std::string("v");
      const char *mismatch = "'{}' must have the same nested structure in the main and else branches";
      // (The nest comes from a defined side; an undefined side stands for
      // each of its leaves.)
      bool thenDefined = !thenOuts[i].as<UndefinedObject>();
      std::vector<Value> defined;
      flattenState(in, thenDefined ? thenOuts[i] : elseOuts[i], outNests[i], name, defined, &flatNames, mismatch);
      std::vector<Value> other;
      const Value &otherOut = thenDefined ? elseOuts[i] : thenOuts[i];
      if (otherOut.as<UndefinedObject>()) other.assign(defined.size(), otherOut);
      else flattenState(in, otherOut, outNests[i], name, other, nullptr, mismatch);
      std::vector<Value> &thenLeaves = thenDefined ? defined : other, &elseLeaves = thenDefined ? other : defined;
      thenFlat.insert(thenFlat.end(), thenLeaves.begin(), thenLeaves.end());
      elseFlat.insert(elseFlat.end(), elseLeaves.begin(), elseLeaves.end());
    }
    thenOuts = std::move(thenFlat);
    elseOuts = std::move(elseFlat);
    names = std::move(flatNames);
  }
  for (size_t i = 0; i < thenOuts.size() && i < names.size(); ++i) {
    if (thenOuts[i].as<UndefinedObject>() || elseOuts[i].as<UndefinedObject>()) continue;
    if (thenOuts[i].isNone()) in.raise("ValueError", fmt::format("'{}' is None at the end of the main branch.", names[i]));
    if (elseOuts[i].isNone()) in.raise("ValueError", fmt::format("'{}' is None at the end of the else branch.", names[i]));
    auto dt = convertedDtype(thenOuts[i]), de = convertedDtype(elseOuts[i]);
    if (dt && de && *dt != *de)
      raiseTf(in, "TypeError", fmt::format("'{}' has dtype {} in the main branch, but dtype {} in the else branch",
                                           names[i], ir::dtypeName(*dt), ir::dtypeName(*de)));
  }
  // Decide each output's treatment: undefined in one branch only is TF's error.
  std::vector<ir::Value *> thenVals, elseVals;
  std::vector<size_t> staged;
  for (size_t i = 0; i < thenOuts.size(); ++i) {
    auto *ut = thenOuts[i].as<UndefinedObject>(), *ue = elseOuts[i].as<UndefinedObject>();
    if (ut && ue) continue;
    // A Python object both branches return as is (a dict an element was
    // stored in) stays Python.
    if (!ut && !ue && thenOuts[i].obj() && thenOuts[i].is(elseOuts[i]) && !isCarriableLeaf(thenOuts[i])) continue;
    std::optional<DType> like = convertedDtype(ut ? elseOuts[i] : thenOuts[i]);
    g.pushRegion(node->region(0));
    ir::Value *tv = ut ? nullptr : toGraphValue(in, g, thenOuts[i], like);
    g.popRegion();
    g.pushRegion(node->region(1));
    ir::Value *ev = ue ? nullptr : toGraphValue(in, g, elseOuts[i], like);
    g.popRegion();
    // An undefined return value mirrors the other branch with zeros.
    if (!tv) { g.pushRegion(node->region(0)); tv = g.builder().create(OpKind::ZerosLike, {ev}); g.popRegion(); }
    if (!ev) { g.pushRegion(node->region(1)); ev = g.builder().create(OpKind::ZerosLike, {tv}); g.popRegion(); }
    thenVals.push_back(tv);
    elseVals.push_back(ev);
    staged.push_back(i);
  }
  ir::Builder(node->region(0)).yield(thenVals, in.currentSpan());
  ir::Builder(node->region(1)).yield(elseVals, in.currentSpan());
  std::vector<ir::Value *> results;
  try {
    results = g.builder().finishCond(node);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
  recordNodeOnTapes(in, g, *node);
  std::vector<Value> out = thenOuts;
  std::string base = g.uniqueName("cond");
  for (size_t k = 0; k < staged.size(); ++k)
    out[staged[k]] = Value(wrapSym(results[k], &g, k ? fmt::format("{}:{}", base, k) : base));
  if (nested) {
    std::vector<Value> rebuilt;
    size_t pos = 0;
    for (const StateNest &n : outNests) rebuilt.push_back(rebuildState(in, n, out, pos));
    out = std::move(rebuilt);
  }
  return in.tuple(out);
}

}  // namespace tfs::runtime::tf::ag
