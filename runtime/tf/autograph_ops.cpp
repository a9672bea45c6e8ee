// The runtime of AutoGraph (module `ag`, see autograph/autograph.h): each
// operator runs plain Python on Python values and stages a cond /
// while_loop node when its condition or iterable is a symbolic tensor,
// with TF's error messages naming the variables involved. Also
// tf.autograph.to_graph / to_code; the conversion of called user functions
// is autograph_convert.cpp.
#include "autograph/autograph.h"
#include "runtime/interp/signature.h"
#include "runtime/kernels/kernels.h"
#include "runtime/tf/autograph_nest.h"
#include "runtime/tf/autograph_convert.h"
#include "runtime/tf/autograph_support.h"
#include "runtime/tf/shape_relations.h"
#include "runtime/tf/tf.h"
#include "runtime/tf/wrapped_functions.h"

#include <fmt/format.h>

#include <unordered_map>

namespace tfs::runtime::tf {

using ir::OpKind;
using namespace ag;

#include "runtime/tf/function_wrappers.h"

namespace {

constexpr const char *kLimitationsUrl =
    "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
    "limitations.md#consistency-of-control-flow-types";

}  // namespace

namespace ag {

bool isSymbolic(const Value &v) {
  auto *t = v.as<TensorObject>();
  return t && t->symbolic();
}

// Converts one branch/loop output to a graph value, `like` giving the
// dtype a Python scalar should take.
ir::Value *toGraphValue(Interpreter &in, GraphScope &g, const Value &v, std::optional<DType> like) {
  auto t = toTensor(in, v, std::nullopt, like);
  if (t->symbolic()) return t->sym;
  return g.builder().constant(denseFromTensor(t->eager), in.currentSpan());
}

std::optional<DType> dtypeOf(const Value &v) {
  if (auto *t = v.as<TensorObject>()) return t->dtype();
  if (auto *var = v.as<VariableObject>()) return var->dtype;
  return std::nullopt;
}

std::vector<std::string> namesOf(Interpreter &in, const Value &names) {
  std::vector<std::string> out;
  for (auto &n : in.toList(names)) out.push_back(in.str(n));
  return out;
}

// TF's _verify_tf_condition: a staged condition must be a bool scalar (a
// bool tensor with more than one element is refused too).
void verifyCondition(Interpreter &in, const Value &cond, const char *tag) {
  auto t = toTensor(in, cond);
  const char *hint = "to check for None, use `is not None`";
  if (t->dtype() != DType::Bool)
    in.raise("ValueError", fmt::format("condition of {} expected to be `tf.bool` scalar, got {}; to use as boolean "
                                       "Tensor, use `tf.cast`; {}", tag, in.str(cond), hint));
  ir::Shape s = t->shape();
  int64_t known = 1;
  if (s.ranked)
    for (int64_t d : s.dims) known *= d >= 0 ? d : 1;
  if (known > 1)
    in.raise("ValueError", fmt::format("condition of {} expected to be `tf.bool` scalar, got {}; {}", tag, in.str(cond), hint));
}

// The dtype TF gives a branch or loop output: a tensor's own, or what
// convert_to_tensor makes of a Python scalar (no promotion between them).
std::optional<DType> convertedDtype(const Value &v) {
  if (auto d = dtypeOf(v)) return d;
  if (v.isBool()) return DType::Bool;
  if (v.isInt()) return DType::Int32;
  if (v.isFloat()) return DType::Float32;
  return std::nullopt;
}

}  // namespace ag

namespace {

// Shape invariants that tf.autograph.experimental.set_loop_options asks for
// while a loop body is being staged: the loop variable (the body region's
// argument) and its shape. A stack: loops nest, the innermost is last.
struct LoopOptions {
  std::vector<std::pair<ir::Value *, ir::Shape>> invariants;
};
// Set while a dataset loop is staged: its carried shapes are weakened until
// one iteration keeps them (TF stages `for x in dataset` as Dataset.reduce,
// which relaxes its state's shapes to a fixed point).
bool &relaxCarriedShapes() {
  static bool relax = false;
  return relax;
}
std::vector<LoopOptions *> &loopOptionsStack() {
  static std::vector<LoopOptions *> stack;
  return stack;
}

// TF's check that a shape invariant admits the value entering the loop.
void checkInvariantFits(Interpreter &in, const std::string &name, const ir::Shape &entry, const ir::Shape &invariant) {
  if (!invariant.isCompatibleWith(entry))
    in.raise("ValueError", fmt::format("The shape invariant specified for {} is not compatible with the initial shape "
                                       "of the loop variable. It enters the loop with shape {}, but the specified "
                                       "shape invariant is {}.",
                                       name, entry.tfString(), invariant.tfString()));
}

// Stages a while_loop over `state` (converted to tensors; lists and tuples
// are flattened by stageWhile below). `invariants` (by state index, may be
// shorter) relaxes the shapes loop variables carry, as tf.while_loop's
// shape_invariants do.
Value stageWhileFlat(Interpreter &in, GraphScope &g, const std::function<Value(const std::vector<Value> &)> &test,
                     const std::function<std::vector<Value>(const std::vector<Value> &)> &rawBody,
                     std::vector<Value> state, const std::vector<std::string> &names,
                     const std::vector<std::optional<ir::Shape>> &invariants, bool trial = false) {
  // The body must return one value per loop variable (tf.while_loop's
  // user body may not).
  auto body = [&](const std::vector<Value> &s) {
    std::vector<Value> out = rawBody(s);
    if (out.size() != s.size())
      in.raise("ValueError", fmt::format("the loop body returns {} values for {} loop variables", out.size(), s.size()));
    return out;
  };
  std::vector<ir::Value *> inits;
  std::vector<ir::TensorType> carriedTypes;
  std::vector<size_t> carried;
  bool anyUndefined = false;
  auto isCarriable = isCarriableLeaf;
  for (size_t i = 0; i < state.size(); ++i) {
    if (state[i].as<UndefinedObject>()) {
      anyUndefined = true;
      continue;
    }
    if (!isCarriable(state[i])) continue;  // Python objects stay Python (not loop-carried)
    inits.push_back(toGraphValue(in, g, state[i], dtypeOf(state[i])));
    carriedTypes.push_back(inits.back()->type);
    carried.push_back(i);
  }
  auto nameOf = [&](size_t i) { return i < names.size() ? names[i] : std::string("v"); };
  const std::vector<Value> originalState = state;
  auto originalUndefined = [&](size_t i) { return originalState[i].as<UndefinedObject>(); };
  if (anyUndefined) {
    // A variable first assigned in the body (or the return value of a
    // `return` inside the loop) has no value before the loop. Like TF, stage
    // one iteration of the body in a scratch loop node to learn its type, and
    // let it enter the loop as zeros of that type (TF's placeholder value:
    // unknown dims become 0 and stay unknown in the carried type). The scratch
    // node is detached from the graph afterwards.
    std::vector<std::string> trialNames;
    for (size_t i : carried) trialNames.push_back(nameOf(i));
    ir::Node *trial;
    try {
      trial = g.builder().beginWhileLoop(inits, in.currentSpan(), {}, trialNames);
    } catch (const ir::OpError &e) {
      raiseOpError(in, e);
    }
    std::vector<Value> trialState = state;
    for (size_t k = 0; k < carried.size(); ++k)
      trialState[carried[k]] = Value(wrapSym(trial->region(1).arg(unsigned(k)), &g, trialNames[k]));
    g.pushRegion(trial->region(1));
    std::vector<Value> firstIter;
    try {
      firstIter = body(trialState);
    } catch (...) {
      g.popRegion();
      g.discard(trial);
      throw;
    }
    g.popRegion();
    g.discard(trial);
    for (size_t i = 0; i < state.size(); ++i) {
      auto *u = state[i].as<UndefinedObject>();
      if (!u) continue;
      const Value &like = firstIter[i];
      if (like.as<UndefinedObject>() || !isCarriable(like)) {
        if (u->returnValue)
          raiseTf(in, "NotImplementedError",
                  "a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                  "statement depends on a static Python condition such as a hyperparameter");
        in.raise("ValueError", fmt::format("'{}' must be defined before the loop.", nameOf(i)));
      }
      ir::Value *zero;
      ir::TensorType type;
      if (auto t = like.as<TensorObject>(); t || like.as<VariableObject>()) {
        type.dtype = *dtypeOf(like);
        type.shape = t ? t->shape() : ir::Shape{};
        if (!t) type.shape = like.as<VariableObject>()->shape;
        std::vector<int64_t> dims;
        if (type.shape.ranked)
          for (int64_t d : type.shape.dims) dims.push_back(d < 0 ? 0 : d);
        // (An unknown rank gets a scalar zero and stays unranked, as in TF.)
        if (type.dtype == DType::String)
          in.raise("ValueError", fmt::format("'{}' must be defined before the loop.", nameOf(i)));
        zero = g.builder().constant(denseFromTensor(filledTensor(type.dtype, dims, 0.0)),
                                    in.currentSpan());
      } else {
        Value pyZero = like.isFloat() ? Value::real(0.0) : like.isBool() ? Value::boolean(false) : Value::integer(0);
        zero = toGraphValue(in, g, pyZero, std::nullopt);
        type = zero->type;
      }
      // Keep the carried order equal to the state order.
      size_t pos = 0;
      while (pos < carried.size() && carried[pos] < i) ++pos;
      carried.insert(carried.begin() + long(pos), i);
      inits.insert(inits.begin() + long(pos), zero);
      carriedTypes.insert(carriedTypes.begin() + long(pos), type);
      state[i] = Value(wrapSym(zero, &g, nameOf(i)));
    }
  }
  std::vector<std::string> carriedNames;
  for (size_t i : carried) carriedNames.push_back(nameOf(i));
  // With placeholder zeros standing in for undefined values, the loop must
  // run at least once for its results to mean anything: like TF, count the
  // iterations (an extra carried value) and assert the count after the loop.
  std::string zeroTripNames;
  for (size_t i = 0; i < state.size(); ++i)
    if (auto *u = originalUndefined(i)) {
      if (!zeroTripNames.empty()) zeroTripNames += ", ";
      zeroTripNames += u->returnValue ? "the function return value" : nameOf(i);
    }
  for (size_t k = 0; k < carried.size(); ++k)
    if (carried[k] < invariants.size() && invariants[carried[k]]) {
      checkInvariantFits(in, carriedNames[k], carriedTypes[k].shape, *invariants[carried[k]]);
      carriedTypes[k].shape = *invariants[carried[k]];
    }
  const size_t counterSlot = carried.size();
  if (anyUndefined) {
    inits.push_back(g.builder().constant(ir::DenseElements::scalarInt(DType::Int32, 0), in.currentSpan()));
    carriedTypes.push_back(inits.back()->type);
    carriedNames.push_back("iterations");
  }
  ir::Node *loop;
  // The body is staged again when a set_loop_options call inside it relaxes
  // a carried shape (the first staging learns the invariants).
  int stagings = 0;
  // This loop's own relaxing (loops nested in its body keep TF's check).
  struct RelaxHere {
    bool on = relaxCarriedShapes();
    RelaxHere() { relaxCarriedShapes() = false; }
    ~RelaxHere() { relaxCarriedShapes() = on; }
  } relaxHere;
  for (bool restaged = false;; restaged = true, ++stagings) {
  try {
    loop = g.builder().beginWhileLoop(inits, in.currentSpan(), carriedTypes, carriedNames);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
  auto argState = [&](ir::Region &r) {
    std::vector<Value> s = state;
    for (size_t k = 0; k < carried.size(); ++k)
      s[carried[k]] = Value(wrapSym(r.arg(unsigned(k)), &g, carriedNames[k]));
    return s;
  };
  g.pushRegion(loop->region(0));
  try {
    Value t = test(argState(loop->region(0)));
    if (isSymbolic(t)) verifyCondition(in, t, "while loop");
    auto pt = toTensor(in, t);
    ir::Value *p = pt->symbolic() ? pt->sym : g.builder().constant(denseFromTensor(pt->eager), in.currentSpan());
    g.builder().yield(std::vector<ir::Value *>{p}, in.currentSpan());
  } catch (...) {
    g.popRegion();
    throw;
  }
  g.popRegion();
  g.pushRegion(loop->region(1));
  LoopOptions options;
  loopOptionsStack().push_back(&options);
  try {
    std::vector<Value> next;
    try {
      next = body(argState(loop->region(1)));
    } catch (...) {
      loopOptionsStack().pop_back();
      throw;
    }
    loopOptionsStack().pop_back();
    bool relaxed = false;
    for (auto &[arg, shape] : options.invariants)
      for (size_t k = 0; k < carried.size(); ++k)
        if (loop->region(1).arg(unsigned(k)) == arg) {
          checkInvariantFits(in, carriedNames[k], inits[k]->type.shape, shape);
          relaxed |= !(carriedTypes[k].shape == shape);
          carriedTypes[k].shape = shape;
        }
    if (relaxHere.on)
      for (size_t k = 0; k < carried.size(); ++k)
        if (auto *t = next[carried[k]].as<TensorObject>()) {
          ir::Shape common = commonSupertype(carriedTypes[k].shape, t->shape());
          if (!(common == carriedTypes[k].shape)) {
            carriedTypes[k].shape = common;
            relaxed = true;
          }
        }
    if (relaxed && (!restaged || (relaxHere.on && stagings < 8))) {
      g.popRegion();
      g.discard(loop);
      continue;
    }
    if (trial) {  // stageNestedWhile's trial staging: only the body's lessons count
      g.popRegion();
      g.discard(loop);
      return Value();
    }
    std::vector<ir::Value *> ys;
    for (size_t k = 0; k < carried.size(); ++k) {
      const Value &v = next[carried[k]];
      if (v.as<UndefinedObject>()) in.raise("ValueError", fmt::format("'{}' must be defined before the loop.", carriedNames[k]));
      // TF's _verify_single_loop_var: the value after one iteration keeps
      // the dtype it entered with and a shape at least as specific.
      if (v.isNone()) in.raise("ValueError", fmt::format("'{}' is None at the end of the iteration.", carriedNames[k]));
      const ir::TensorType &entry = carriedTypes[k];
      if (auto d = convertedDtype(v); d && *d != entry.dtype)
        raiseTf(in, "TypeError", fmt::format("'{}' has dtype {} before the loop, but dtype {} after one iteration",
                                             carriedNames[k], ir::dtypeName(entry.dtype), ir::dtypeName(*d)));
      if (auto *t = v.as<TensorObject>(); t && entry.shape.ranked) {
        ir::Shape exit = t->shape();
        bool sub = exit.ranked && exit.rank() == entry.shape.rank();
        for (size_t d = 0; sub && d < entry.shape.dims.size(); ++d)
          sub = entry.shape.dims[d] < 0 || exit.dims[d] < 0 || exit.dims[d] == entry.shape.dims[d];
        if (!sub && exit.ranked)
          in.raise("ValueError", fmt::format("'{}' has shape {} before the loop, but shape {} after one iteration. Use "
                                             "tf.autograph.experimental.set_loop_options to set shape invariants.",
                                             carriedNames[k], entry.shape.tfString(), exit.tfString()));
      }
      ys.push_back(toGraphValue(in, g, v, inits[k]->type.dtype));
    }
    if (anyUndefined) {
      ir::Value *one = g.builder().constant(ir::DenseElements::scalarInt(DType::Int32, 1), in.currentSpan());
      std::vector<ir::Value *> ops{loop->region(1).arg(unsigned(counterSlot)), one};
      ys.push_back(g.builder().createNode(OpKind::Add, ops, {}, in.currentSpan())->result(0));
    }
    g.builder().yield(ys, in.currentSpan());
  } catch (...) {
    g.popRegion();
    throw;
  }
  g.popRegion();
  break;
  }
  std::vector<ir::Value *> results;
  try {
    results = g.builder().finishWhileLoop(loop);
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
  recordNodeOnTapes(in, g, *loop);
  if (anyUndefined) {
    try {
      ir::Value *zero = g.builder().constant(ir::DenseElements::scalarInt(DType::Int32, 0), in.currentSpan());
      std::vector<ir::Value *> cmp{results[counterSlot], zero};
      ir::Value *ran = g.builder().createNode(OpKind::Greater, cmp, {}, in.currentSpan())->result(0);
      std::vector<ir::Value *> check{ran};
      g.builder().createNode(OpKind::Assert, check,
                             {{"message", "loop must iterate at least once to initialize " + zeroTripNames}},
                             in.currentSpan());
    } catch (const ir::OpError &e) {
      raiseOpError(in, e);
    }
  }
  std::vector<Value> out = state;
  std::string base = g.uniqueName("while");
  for (size_t k = 0; k < carried.size(); ++k)
    out[carried[k]] = Value(wrapSym(results[k], &g, k ? fmt::format("{}:{}", base, k) : base));
  return in.tuple(out);
}

// Stages a while_loop over `state`: the leaves of lists and tuples in it are
// loop variables of their own (autograph_nest.h), rebuilt after the loop.
Value stageWhile(Interpreter &in, GraphScope &g, const std::function<Value(const std::vector<Value> &)> &test,
                 const std::function<std::vector<Value>(const std::vector<Value> &)> &rawBody,
                 const std::vector<Value> &state, const std::vector<std::string> &names,
                 const std::vector<std::optional<ir::Shape>> &invariants = {}) {
  return stageNestedWhile(in, test, rawBody, state, names, invariants,
                          [&](const LoopTest &t, const LoopBody &b, const std::vector<Value> &flat,
                              const std::vector<std::string> &flatNames,
                              const std::vector<std::optional<ir::Shape>> &flatInvariants, bool trial) {
                            return stageWhileFlat(in, g, t, b, flat, flatNames, flatInvariants, trial);
                          });
}

Value whileStmt(Interpreter &in, Args a, const Kwargs &kw) {
  Value test = a[0], body = a[1];
  std::vector<Value> state = in.toList(a[2]);
  std::vector<std::string> names = namesOf(in, a[3]);
  Value first = in.call(test, state);
  if (!isSymbolic(first)) {
    // Python loop, re-checked each iteration. A condition that becomes a
    // tensor later (e.g. `while True:` whose `break` depends on a tensor) is
    // TF's NotImplementedError: the loop cannot turn into a while_loop midway.
    while (in.truth(first)) {
      state = in.toList(in.call(body, state));
      in.step();
      first = in.call(test, state);
      if (isSymbolic(first))
        raiseTf(in, "NotImplementedError",
                "The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either "
                "because variables changed type, or when a break or return statement inside the loop depends on a "
                "Tensor condition. In both cases, changing to a TF loop should remove the error.\nSee " +
                    std::string(kLimitationsUrl) + " for more info.");
    }
    return in.tuple(state);
  }
  GraphScope &g = *first.as<TensorObject>()->scope;
  // tf.while_loop's shape_invariants: one TensorShape (or None) per loop
  // variable, flattened like them.
  std::vector<std::optional<ir::Shape>> invariants;
  for (auto &[k, v] : kw)
    if (k == "shape_invariants")
      for (auto &s : in.toList(v)) {
        if (auto *ts = s.as<TensorShapeObject>()) invariants.push_back(ts->shape);
        else invariants.push_back(std::nullopt);
      }
  return stageWhile(
      in, g, [&](const std::vector<Value> &s) { return in.call(test, s); },
      [&](const std::vector<Value> &s) { return in.toList(in.call(body, s)); }, state, names, invariants);
}

Value forStmt(Interpreter &in, Args a, const Kwargs &) {
  Value iter = a[0], extra = a[1], body = a[2];
  std::vector<Value> state = in.toList(a[3]);
  std::vector<std::string> names = namesOf(in, a[4]);
  if (auto *t = iter.as<TensorObject>(); t && t->symbolic()) {
    GraphScope &g = *t->scope;
    Ref<TensorObject> seq(t);
    ir::Shape s = t->shape();
    Ref<TensorObject> n;
    const ir::Node *rangeDef = t->sym->definingNode();
    if (rangeDef && rangeDef->kind() != OpKind::Range) rangeDef = nullptr;
    if (s.ranked && s.rank() > 0 && s.dims[0] >= 0) {
      auto c = make<TensorObject>();
      c->eager = Tensor::scalar(int32_t(s.dims[0]));
      n = c;
    } else if (rangeDef && (rangeDef->operand(0)->type.dtype == DType::Int32 ||
                            rangeDef->operand(0)->type.dtype == DType::Int64)) {
      // An integer tf.range of unknown length: its length is
      // ceil((limit - start) / delta) = -((start - limit) // delta) (at most
      // 0 when the range is empty), computed without materializing the
      // range, which is then dead code (as TF's AutoGraph iterates a range
      // without running the range op).
      auto start = wrapSym(rangeDef->operand(0), &g, "start");
      auto limit = wrapSym(rangeDef->operand(1), &g, "limit");
      auto delta = wrapSym(rangeDef->operand(2), &g, "delta");
      auto diff = callOp1(in, OpKind::Sub, {start, limit}, {}, "sub");
      auto steps = callOp1(in, OpKind::FloorDiv, {diff, delta}, {}, "floordiv");
      n = callOp1(in, OpKind::Neg, {steps}, {}, "Neg");
      if (n->dtype() != DType::Int32) n = callOp1(in, OpKind::Cast, {n}, {{"dtype", DType::Int32}}, "Cast");
    } else {
      auto shape = callOp1(in, OpKind::ShapeOf, {seq});
      n = callOp1(in, OpKind::StridedSlice, {shape}, {{"begin", std::vector<int64_t>{0}}, {"end", std::vector<int64_t>{1}},
                                                     {"strides", std::vector<int64_t>{1}}, {"shrink_axis_mask", int64_t(1)}});
    }
    // Iterating a tf.range: element i is start + i * delta, computed as the
    // range kernel does (the loop reads no materialized range, as TF's
    // AutoGraph iterates a range directly).
    std::function<Value(const Ref<TensorObject> &)> rangeItem;
    if (const ir::Node *def = rangeDef) {
      auto start = wrapSym(def->operand(0), &g, "start");
      auto delta = wrapSym(def->operand(2), &g, "delta");
      rangeItem = [&in, start, delta](const Ref<TensorObject> &i) {
        auto index = callOp1(in, OpKind::Cast, {i}, {{"dtype", start->dtype()}}, "Cast");
        auto offset = callOp1(in, OpKind::Mul, {index, delta}, {}, "mul");
        return Value(callOp1(in, OpKind::Add, {start, offset}, {}, "add"));
      };
    }
    std::vector<Value> full{Value::integer(0)};
    full.insert(full.end(), state.begin(), state.end());
    std::vector<std::string> fullNames{"itr"};
    fullNames.insert(fullNames.end(), names.begin(), names.end());
    full[0] = Value(toTensor(in, Value::integer(0), DType::Int32));
    return [&]() -> Value {
      Value r = stageWhile(
          in, g,
          [&](const std::vector<Value> &s) -> Value {
            Value less = Value(callOp1(in, OpKind::Less, {toTensor(in, s[0]), n}, {}, "Less"));
            if (extra.isNone()) return less;
            std::vector<Value> rest(s.begin() + 1, s.end());
            Value e = in.call(extra, rest);
            return Value(callOp1(in, OpKind::LogicalAnd, {toTensor(in, less), toTensor(in, e)}));
          },
          [&](const std::vector<Value> &s) -> std::vector<Value> {
            auto i = toTensor(in, s[0]);
            Value item = rangeItem ? rangeItem(i)
                                   : Value(callOp1(in, OpKind::Gather, {seq, i}, {{"axis", int64_t(0)}}, "GatherV2"));
            std::vector<Value> args{item};
            args.insert(args.end(), s.begin() + 1, s.end());
            std::vector<Value> next = in.toList(in.call(body, args));
            auto one = make<TensorObject>();
            one->eager = Tensor::scalar(int32_t(1));
            std::vector<Value> out{Value(callOp1(in, OpKind::Add, {i, one}, {}, "add"))};
            out.insert(out.end(), next.begin(), next.end());
            return out;
          },
          full, fullNames);
      auto items = in.toList(r);
      return in.tuple(std::vector<Value>(items.begin() + 1, items.end()));
    }();
  }
  // A tf.data.Dataset in a trace: a staged loop over an iterator made each
  // time the graph runs (lib/tf/data/_tf_data_graph_loop.tfs), not the
  // elements read once at trace time.
  std::optional<Value> loopReader;
  if (!ctx(in).graphs.empty() && iter.as<InstanceObject>()) loopReader = in.getAttrOpt(iter, "_tfs_graph_loop");
  if (loopReader) {
    std::vector<Value> reader = in.toList(in.call(*loopReader, {}));
    std::vector<Value> full = in.toList(reader[0]);
    Value read = reader[1], pack = reader[2], finish = reader[3];
    size_t n = full.size() - 1;
    std::vector<std::string> fullNames{"has_element"};
    for (size_t i = 0; i < n; ++i) fullNames.push_back(fmt::format("element_{}", i));
    full.insert(full.end(), state.begin(), state.end());
    fullNames.insert(fullNames.end(), names.begin(), names.end());
    GraphScope &g = *ctx(in).graphs.back();
    struct Relax {
      bool saved = relaxCarriedShapes();
      Relax() { relaxCarriedShapes() = true; }
      ~Relax() { relaxCarriedShapes() = saved; }
    } relax;
    Value r = stageWhile(
        in, g,
        [&](const std::vector<Value> &s) -> Value {
          if (extra.isNone()) return s[0];
          Value more = in.call(extra, std::vector<Value>(s.begin() + 1 + long(n), s.end()));
          return Value(callOp1(in, OpKind::LogicalAnd, {toTensor(in, s[0]), toTensor(in, more)}));
        },
        [&](const std::vector<Value> &s) -> std::vector<Value> {
          std::vector<Value> args{in.call(pack, std::vector<Value>{in.list(std::vector<Value>(s.begin() + 1, s.begin() + 1 + long(n)))})};
          args.insert(args.end(), s.begin() + 1 + long(n), s.end());
          std::vector<Value> next = in.toList(in.call(body, args));
          std::vector<Value> out = in.toList(in.call(read, {}));
          out.insert(out.end(), next.begin(), next.end());
          return out;
        },
        full, fullNames);
    in.call(finish, {});
    auto items = in.toList(r);
    return in.tuple(std::vector<Value>(items.begin() + 1 + long(n), items.end()));
  }
  Value it = in.iter(iter);
  for (;;) {
    if (!extra.isNone()) {
      // The break/return flag of a Python loop became a tensor: TF refuses.
      Value more = in.call(extra, state);
      if (isSymbolic(more))
        raiseTf(in, "NotImplementedError",
                "break and return statements which depend on a TF condition are not supported in Python for loops. "
                "Did you intend to make it a TF loop?\nSee " +
                    std::string(kLimitationsUrl) + " for more info.");
      if (!in.truth(more)) break;
    }
    auto item = in.next(it);
    if (!item) break;
    std::vector<Value> args{*item};
    args.insert(args.end(), state.begin(), state.end());
    state = in.toList(in.call(body, args));
    in.step();
  }
  return in.tuple(state);
}

Value logicalOp(Interpreter &in, Args a, bool isAnd) {
  Value x = in.call(a[0], {});
  if (isSymbolic(x)) {
    Value y = in.call(a[1], {});
    return Value(callOp1(in, isAnd ? OpKind::LogicalAnd : OpKind::LogicalOr, {toTensor(in, x), toTensor(in, y)}));
  }
  bool t = in.truth(x);
  if (isAnd ? !t : t) return x;
  return in.call(a[1], {});
}

}  // namespace

Value makeAgModule(Interpreter &in) {
  auto ag = make<ModuleObject>("ag__");
  auto def = [&](const std::string &name, NativeFn fn) { ag->scope->vars[name] = in.native(name, std::move(fn)); };
  def("if_stmt", ifStmt);
  def("while_stmt", whileStmt);
  def("for_stmt", forStmt);
  def("and_", [](Interpreter &in, Args a, const Kwargs &) { return logicalOp(in, a, true); });
  def("or_", [](Interpreter &in, Args a, const Kwargs &) { return logicalOp(in, a, false); });
  def("not_", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    if (isSymbolic(a[0])) return Value(callOp1(in, OpKind::LogicalNot, {toTensor(in, a[0])}));
    return Value::boolean(!in.truth(a[0]));
  });
  // The test of a while loop left to Python for its assignment expression
  // (autograph/control_flow.cpp, pythonWhile).
  def("walrus_loop_test", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    if (isSymbolic(a[0]))
      in.raise("NotImplementedError", "a while loop whose condition has an assignment expression (':=') is not "
                                      "supported by tfs when the condition is a tf.Tensor");
    return a[0];
  });
  def("if_exp", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    if (!isSymbolic(a[0])) return in.truth(a[0]) ? in.call(a[1], {}) : in.call(a[2], {});
    Value t = in.native("t", [f = a[1]](Interpreter &in, Args, const Kwargs &) { return in.tuple({in.call(f, {})}); });
    Value e = in.native("e", [f = a[2]](Interpreter &in, Args, const Kwargs &) { return in.tuple({in.call(f, {})}); });
    Value args[] = {a[0], t, e, in.tuple({Value()}), in.tuple({in.str("<expr>")})};
    return in.toList(ifStmt(in, args, {}))[0];
  });
  def("converted_call", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    const Value &f = a[0];
    std::vector<Value> args = in.toList(a[1]);
    Kwargs kwargs;
    if (auto *d = a[2].as<DictObject>())
      for (auto &[k, v] : d->items()) kwargs.emplace_back(in.str(k), v);
    // Builtins that dispatch on tensors.
    if (auto *nf = f.as<NativeFunction>()) {
      bool sym = false;
      for (auto &x : args) sym |= isSymbolic(x);
      if (sym && nf->name == "range") {
        Value tf = in.importModule("tensorflow");
        return in.call(in.getAttr(tf, "range"), args, kwargs);
      }
      if (sym && nf->name == "len") {
        auto t = toTensor(in, args[0]);
        ir::Shape s = t->shape();
        if (s.ranked && s.rank() > 0 && s.dims[0] >= 0) return Value::integer(s.dims[0]);
        auto shape = callOp1(in, OpKind::ShapeOf, {t});
        return Value(callOp1(in, OpKind::StridedSlice, {shape}, {{"begin", std::vector<int64_t>{0}}, {"end", std::vector<int64_t>{1}},
                                                                 {"strides", std::vector<int64_t>{1}}, {"shrink_axis_mask", int64_t(1)}}));
      }
      if (sym && (nf->name == "int" || nf->name == "float")) {
        DType d = nf->name == "int" ? DType::Int32 : DType::Float32;
        return Value(callOp1(in, OpKind::Cast, {toTensor(in, args[0])}, {{"dtype", d}}, "Cast"));
      }
      if (sym && nf->name == "abs") return Value(callOp1(in, OpKind::Abs, {toTensor(in, args[0])}, {}, "Abs"));
    }
    if (auto *c = f.as<ClassObject>(); c && (c->name == "int" || c->name == "float") && !args.empty() && isSymbolic(args[0])) {
      DType d = c->name == "int" ? DType::Int32 : DType::Float32;
      return Value(callOp1(in, OpKind::Cast, {toTensor(in, args[0])}, {{"dtype", d}}, "Cast"));
    }
    if (auto *c = f.as<ClassObject>(); c && c->name == "range" && !args.empty()) {
      bool sym = false;
      for (auto &x : args) sym |= isSymbolic(x);
      if (sym) return in.call(in.getAttr(in.importModule("tensorflow"), "range"), args, kwargs);
    }
    return callConverted(in, f, args, kwargs);
  });
  def("Undefined", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    auto u = make<UndefinedObject>();
    u->name = in.str(a[0]);
    return u;
  });
  def("UndefinedReturnValue", [](Interpreter &, Args, const Kwargs &) -> Value {
    auto u = make<UndefinedObject>();
    u->returnValue = true;
    return u;
  });
  def("retval", [](Interpreter &, Args a, const Kwargs &) -> Value {
    if (a[0].as<UndefinedObject>()) return Value();
    return a[0];
  });
  return ag;
}

// tf.autograph.to_code and experimental.do_not_convert (autograph_api.cpp).
void installAutographApi(Interpreter &in, ModuleObject &autograph, ModuleObject &experimental);

void installAutograph(Interpreter &in, ModuleObject &tf) {
  auto autograph = make<ModuleObject>("tensorflow.autograph");
  tf.scope->vars["autograph"] = autograph;
  auto experimental = make<ModuleObject>("tensorflow.autograph.experimental");
  autograph->scope->vars["experimental"] = experimental;
  autograph->scope->vars["to_graph"] = in.native("to_graph", [](Interpreter &in, Args a, const Kwargs &) -> Value {
    Value f = a[0];
    return in.native("converted", [f](Interpreter &in, Args args, const Kwargs &kw) { return callConverted(in, f, args, kw); });
  });
  installAutographApi(in, *autograph, *experimental);
  // AutoGraph's own debug logging: level 0 (TF's default, no logs) is all
  // tfs has.
  autograph->scope->vars["set_verbosity"] = nativeWithSignature(
      in, "set_verbosity(level, alsologtostdout=False)", [](Interpreter &in, const Bound &b) -> Value {
        if (in.toInt(b["level"]) != 0 || in.truth(b["alsologtostdout"]))
          in.raise("NotImplementedError", "tf.autograph.set_verbosity with a level above 0 (AutoGraph's debug "
                                          "logs) is not supported by tfs");
        return Value();
      });
  // Inside a loop over a tensor, records the shape invariants for the loop
  // being staged (stageWhile stages the body again with them); elsewhere,
  // as in TF, it does nothing. parallel_iterations and swap_memory only tune
  // TF's executor.
  experimental->scope->vars["set_loop_options"] = nativeWithSignature(
      in,
      "set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=!None, "
      "shape_invariants=None)",
      [](Interpreter &in, const Bound &a) -> Value {
        if (loopOptionsStack().empty() || a["shape_invariants"].isNone()) return Value();
        LoopOptions &options = *loopOptionsStack().back();
        for (auto &pair : in.toList(a["shape_invariants"])) {
          std::vector<Value> items = in.toList(pair);
          if (items.size() != 2) in.raise("ValueError", "shape_invariants must be a list of (tensor, shape) pairs");
          auto *t = items[0].as<TensorObject>();
          if (!t || !t->symbolic()) continue;  // not a loop variable: nothing to relax
          Value shape = in.call(in.getAttr(in.importModule("tensorflow"), "TensorShape"), std::vector<Value>{items[1]});
          options.invariants.emplace_back(t->sym, shape.as<TensorShapeObject>()->shape);
        }
        return Value();
      });
}

}  // namespace tfs::runtime::tf
