// tf.GradientTape: a context manager that records ops on an autodiff Tape
// (eager kernels or graph nodes, see dispatch.cpp / variable.cpp) and
// computes gradients of targets with respect to tensors and variables,
// nested structures in, the same structure out (None when unconnected).
#include "runtime/autodiff/eager_emitter.h"
#include "runtime/autodiff/graph_emitter.h"
#include "runtime/autodiff/graph_gradients.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/tape_slices.h"
#include "runtime/tf/tf.h"
#include "runtime/interp/native_context_managers.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

TFS_NATIVE_CONTEXT_MANAGER(TapeObject);

namespace {
// An eager tensor watched by a tape inside a tf.function is captured into
// the graph (as TF's watch converts it to the function's capture), so the
// ops that use it in the trace read that capture and reach the tape; an
// existing capture is the source's id (dispatch reuses it for later uses).
ir::Value *graphCaptureOf(GraphScope &g, const TensorObject &t, bool add) {
  if (ir::Value *c = g.findTensorCapture(t.eager.bufferId())) return c;
  if (!add) return nullptr;
  return g.addTensorCapture(t.eager.bufferId(), "capture", t.eager.type(), std::make_shared<Tensor>(t.eager));
}

int64_t sourceId(Interpreter &in, const Value &v) {
  if (auto *var = v.as<VariableObject>()) return var->id;
  if (auto *t = v.as<TensorObject>(); t && !t->symbolic() && !t->numpy)
    if (GraphScope *g = currentGraph(in))
      if (ir::Value *c = graphCaptureOf(*g, *t, false)) return valueId(c);
  if (auto *t = v.as<TensorObject>()) return t->symbolic() ? valueId(t->sym) : t->id;
  raiseTf(in, "ValueError", fmt::format("Passed in object {} of type '{}', not tf.Tensor or tf.Variable", in.repr(v), in.typeName(v)));
}

}  // namespace

// Flattens nested lists/tuples/dicts of sources, remembering the structure.
void flatten(Interpreter &in, const Value &v, std::vector<Value> &out) {
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    for (auto &x : in.toList(v)) flatten(in, x, out);
  } else if (auto *d = v.as<DictObject>()) {
    for (auto &[k, x] : d->items()) flatten(in, x, out);
  } else {
    out.push_back(v);
  }
}
Value unflatten(Interpreter &in, const Value &structure, const std::vector<Value> &flat, size_t &pos) {
  if (structure.as<ListObject>() || structure.as<TupleObject>()) {
    std::vector<Value> items;
    for (auto &x : in.toList(structure)) items.push_back(unflatten(in, x, flat, pos));
    return structure.as<ListObject>() ? in.list(items) : in.tuple(items);
  }
  if (auto *d = structure.as<DictObject>()) {
    auto out = make<DictObject>();
    for (auto &[k, x] : d->items()) out->set(in, k, unflatten(in, x, flat, pos));
    return out;
  }
  return flat[pos++];
}

namespace {

// tf.UnconnectedGradients.NONE / ZERO (or their string values).
bool zeroForUnconnected(Interpreter &in, const Value &v) {
  std::string s = v.as<StrObject>() ? in.str(v) : in.str(in.getAttr(v, "value"));
  if (s == "none") return false;
  if (s == "zero") return true;
  in.raise("ValueError", fmt::format("Unknown value for unconnected_gradients: '{}'", s));
}

// The gradient ops of an eager tape.gradient, recorded on the other active
// eager tapes (nested tapes: second derivatives).
EagerOpObserver recordOnOuterTapes(std::vector<TapeObject *> outer) {
  return [outer](ir::OpKind kind, const ir::Attrs &attrs, std::span<const int64_t> inIds,
                 std::span<const Tensor> ins, const Tensor &out) -> int64_t {
    int64_t id = newTensorId();
    for (TapeObject *t : outer) {
      if (!t->tape.shouldRecord(inIds)) continue;
      std::vector<TapeValue> inVals(ins.begin(), ins.end());
      TapeValue ov = out;
      t->tape.record(kind, attrs, inIds, inVals, std::span<const int64_t>(&id, 1), std::span<const TapeValue>(&ov, 1));
    }
    return id;
  };
}

EagerCallObserver recordCallsOnOuterTapes(std::vector<TapeObject *> outer) {
  return [outer](std::span<const int64_t> inIds, std::span<const Tensor> ins, std::span<const Tensor> outs,
                 CustomGradFn callGradient) {
    std::vector<int64_t> ids;
    for (size_t i = 0; i < outs.size(); ++i) ids.push_back(newTensorId());
    std::vector<TapeValue> inVals(ins.begin(), ins.end()), outVals(outs.begin(), outs.end());
    for (TapeObject *t : outer)
      if (t->tape.shouldRecord(inIds))
        t->tape.record(ir::OpKind::Call, {}, inIds, inVals, ids, outVals, callGradient);
    return ids;
  };
}

}  // namespace

std::vector<Value> tapeGradientFlat(Interpreter &in, TapeObject &self, const std::vector<Value> &targets,
                                    const std::vector<Value> &sources, const std::vector<Value> &seeds, bool zeros) {
  std::vector<int64_t> srcIds;
  for (auto &s : sources) srcIds.push_back(sourceId(in, s));
  GraphScope *g = currentGraph(in);
  bool graph = g != nullptr;
  for (auto &t : targets)
    if (auto *to = t.as<TensorObject>(); to && to->symbolic()) {
      graph = true;
      if (!g) g = to->scope;
    }
  // Ops the gradient builds are not recorded on this tape (it is in use),
  // but on the other active tapes (nested tapes).
  auto &tapes = ctx(in).tapes;
  std::vector<TapeObject *> saved = tapes;
  tapes.erase(std::remove(tapes.begin(), tapes.end(), &self), tapes.end());
  struct Restore {
    std::vector<TapeObject *> &tapes, saved;
    ~Restore() { tapes = saved; }
  } restore{tapes, saved};
  // A target that is a variable is the variable itself (d v / d v = 1).
  auto targetOf = [&](const Value &t, size_t i) {
    TapeTarget tt;
    std::optional<Ref<TensorObject>> seed;
    if (i < seeds.size() && !seeds[i].isNone()) seed = toTensor(in, seeds[i]);
    if (auto *var = t.as<VariableObject>(); var && !graph) {
      tt.id = var->id;
      tt.value = *var->value;
    } else {
      auto to = toTensor(in, t);
      if (graph && !to->symbolic()) return std::optional<TapeTarget>();
      tt.id = graph ? valueId(to->sym) : to->id;
      tt.value = graph ? TapeValue(to->sym) : TapeValue(to->eager);
    }
    if (seed) {
      if (graph) {
        auto &sv = *seed;
        tt.outputGradient = sv->symbolic() ? TapeValue(sv->sym)
                                           : TapeValue(g->builder().constant(denseFromTensor(sv->eager), in.currentSpan()));
      } else {
        if ((*seed)->symbolic()) raiseTf(in, "ValueError", "output_gradients of an eager gradient must be eager tensors");
        tt.outputGradient = (*seed)->eager;
        tt.outputGradientId = (*seed)->id;
      }
    }
    return std::optional<TapeTarget>(tt);
  };
  std::vector<TapeTarget> tt;
  for (size_t i = 0; i < targets.size(); ++i)
    if (auto t = targetOf(targets[i], i)) tt.push_back(*t);
  std::vector<Value> results;
  std::vector<int64_t> targetIds;
  for (const TapeTarget &t : tt) targetIds.push_back(t.id);
  std::shared_ptr<SlicesPlan> slices;
  try {
    if (graph) {
      ir::Region &region = g->builder().region();
      auto last = region.nodes().empty() ? region.nodes().end() : std::prev(region.nodes().end());
      GraphEmitter em(g->builder(), in.currentSpan());
      slices = planIndexedSlices(srcIds, targetIds);
      auto grads = self.tape.gradient(em, tt, srcIds);
      // Record the gradient's nodes on outer tapes entered in this region.
      auto it = last == region.nodes().end() ? region.nodes().begin() : std::next(last);
      std::vector<ir::Node *> built;
      for (; it != region.nodes().end(); ++it) built.push_back(it->get());
      for (ir::Node *n : built) recordNodeOnTapes(in, *g, *n);
      for (auto &h : grads)
        results.push_back(h ? Value(wrapSym(em.valueOf(*h), g, g->uniqueName("gradient"))) : Value());
    } else {
      std::vector<TapeObject *> outer;
      for (TapeObject *t : tapes)
        if (!t->graph) outer.push_back(t);
      EagerEmitter em(outer.empty() ? EagerOpObserver() : recordOnOuterTapes(outer),
                      outer.empty() ? EagerCallObserver() : recordCallsOnOuterTapes(outer));
      slices = planIndexedSlices(srcIds, targetIds);
      auto grads = self.tape.gradient(em, tt, srcIds);
      for (auto &h : grads) {
        if (!h) { results.push_back(Value()); continue; }
        auto o = make<TensorObject>();
        o->eager = em.tensor(*h);
        if (em.idOf(*h) >= 0) o->id = em.idOf(*h);
        results.push_back(Value(o));
      }
    }
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
  // Gathers' gradients as TF's IndexedSlices (tape_slices.h).
  if (slices) finishIndexedSlices(in, *slices, graph ? g : nullptr, results, sources.size());
  if (zeros)
    for (size_t i = 0; i < results.size(); ++i)
      if (results[i].isNone()) {
        Value like = sources[i].as<VariableObject>() ? readVariable(in, *sources[i].as<VariableObject>()) : sources[i];
        results[i] = Value(callOp1(in, ir::OpKind::ZerosLike, {toTensor(in, like)}));
      }
  return results;
}

namespace {

Value tapeGradient(Interpreter &in, TapeObject &self, const Bound &a) {
  std::vector<Value> targets, sources, seeds;
  flatten(in, a["target"], targets);
  flatten(in, a["sources"], sources);
  if (!a.isNone("output_gradients")) {
    flatten(in, a["output_gradients"], seeds);
    if (seeds.size() != targets.size())
      in.raise("ValueError", fmt::format("Length of output_gradients ({}) must match the number of targets ({})",
                                         seeds.size(), targets.size()));
  }
  std::vector<Value> results =
      tapeGradientFlat(in, self, targets, sources, seeds, zeroForUnconnected(in, a["unconnected_gradients"]));
  size_t pos = 0;
  return unflatten(in, a["sources"], results, pos);
}

}  // namespace

std::optional<Value> TapeObject::enter(Interpreter &in) {
  ctx(in).tapes.push_back(this);
  active = true;
  graph = currentGraph(in);
  region = graph ? &graph->builder().region() : nullptr;
  return Value(Ref<Object>(this));
}

bool TapeObject::exit(Interpreter &in, bool) {
  auto &tapes = ctx(in).tapes;
  for (size_t i = tapes.size(); i-- > 0;)
    if (tapes[i] == this) { tapes.erase(tapes.begin() + long(i)); break; }
  active = false;
  return false;
}

std::optional<Value> TapeObject::getAttr(Interpreter &in, const std::string &name) {
  Ref<TapeObject> self(this);
  if (name == "watch")
    return in.native(name, [self](Interpreter &in, Args a, const Kwargs &) {
      std::vector<Value> flat;
      flatten(in, a[0], flat);
      for (auto &v : flat) {
        if (auto *t = v.as<TensorObject>(); t && self->graph && !t->symbolic() && !t->numpy)
          if (GraphScope *g = currentGraph(in)) graphCaptureOf(*g, *t, true);
        self->tape.watch(sourceId(in, v));
        if (auto *var = v.as<VariableObject>()) self->noteWatched(*var);
      }
      return Value();
    });
  if (name == "reset")
    return in.native(name, [self](Interpreter &, Args, const Kwargs &) {
      self->tape.clear();
      self->watchedVariables.clear();
      return Value();
    });
  if (auto extra = tapeExtraAttr(in, *self, name)) return extra;
  if (name != "gradient") return std::nullopt;
  static const char *sig =
      "gradient(target, sources, output_gradients=None, unconnected_gradients='none')";
  return nativeWithSignature(in, sig, [self](Interpreter &in, const Bound &a) { return tapeGradient(in, *self, a); });
}

}  // namespace tfs::runtime::tf
