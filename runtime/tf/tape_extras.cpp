// GradientTape's methods beyond watch / gradient / reset (TF 2.15's
// backprop.py): stop_recording(), watched_variables(), jacobian() and
// batch_jacobian(). Jacobians are built row by row from tape.gradient with
// one-hot output gradients (TF vectorizes the same loop with pfor), so they
// work eagerly and while tracing (the rows unrolled into the graph).
#include "runtime/interp/signature.h"
#include "runtime/tf/tf.h"
#include "runtime/interp/native_context_managers.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime::tf {

void TapeObject::noteWatched(VariableObject &v) {
  for (auto &w : watchedVariables)
    if (w.get() == &v) return;
  watchedVariables.push_back(Ref<VariableObject>(&v));
}

namespace {

using ir::OpKind;

// `with tape.stop_recording():` takes the tape off the active list.
struct StopRecordingObject : Object {
  Ref<TapeObject> tape;
  size_t position = 0;
  const char *typeName() const override { return "_GeneratorContextManager"; }
  std::optional<Value> enter(Interpreter &in) override {
    auto &tapes = ctx(in).tapes;
    auto it = std::find(tapes.begin(), tapes.end(), tape.get());
    if (it == tapes.end())
      in.raise("RuntimeError", "Trying to stop recording a tape which is not recording.");
    position = size_t(it - tapes.begin());
    tapes.erase(it);
    return Value();
  }
  bool exit(Interpreter &in, bool) override {
    auto &tapes = ctx(in).tapes;
    tapes.insert(tapes.begin() + long(std::min(position, tapes.size())), tape.get());
    return false;
  }
};
TFS_NATIVE_CONTEXT_MANAGER(StopRecordingObject);

bool zerosWanted(Interpreter &in, const Value &v) {
  std::string s = v.as<StrObject>() ? in.str(v) : in.str(in.getAttr(v, "value"));
  if (s != "none" && s != "zero") in.raise("ValueError", fmt::format("Unknown value for unconnected_gradients: '{}'", s));
  return s == "zero";
}

std::vector<int64_t> staticDims(Interpreter &in, const Ref<TensorObject> &t, const char *what) {
  ir::Shape s = t->shape();
  if (!s.ranked || !s.fullyDefined())
    raiseTf(in, "NotImplementedError",
            fmt::format("GradientTape.{} of a {} whose shape is not fully known while tracing is not supported by "
                        "tfs (shape {})", what, "tensor", s.tfString()));
  return s.dims;
}

int64_t product(const std::vector<int64_t> &dims, size_t from = 0) {
  int64_t n = 1;
  for (size_t i = from; i < dims.size(); ++i) n *= dims[i];
  return n;
}

Ref<TensorObject> reshaped(Interpreter &in, const Ref<TensorObject> &t, std::vector<int64_t> shape) {
  return callOp1(in, OpKind::Reshape, {t}, {{"shape", shape}}, "Reshape");
}

std::vector<int64_t> sourceDims(Interpreter &in, const Value &s) {
  if (auto *v = s.as<VariableObject>()) {
    if (!v->shape.ranked || !v->shape.fullyDefined())
      raiseTf(in, "NotImplementedError",
              "GradientTape.jacobian with respect to a variable of unknown shape is not supported by tfs");
    return v->shape.dims;
  }
  return staticDims(in, toTensor(in, s), "jacobian");
}

DType sourceDType(Interpreter &in, const Value &s) {
  if (auto *v = s.as<VariableObject>()) return v->dtype;
  return toTensor(in, s)->dtype();
}

// gradient k of the target seeded with ones at elements base + k for every
// base that is a multiple of `stride` (jacobian: stride n, one element;
// batch_jacobian: one element per batch row). The tape is kept for all.
std::vector<std::vector<Value>> seededGradients(Interpreter &in, TapeObject &self, const Ref<TensorObject> &target,
                                                const std::vector<int64_t> &targetDims, int64_t count, int64_t stride,
                                                const std::vector<Value> &sources) {
  bool was = false;
  try {
    was = self.tape.beginSeveral();
  } catch (const ir::OpError &e) {
    raiseOpError(in, e);
  }
  struct End {
    TapeObject &t;
    bool was;
    ~End() { t.tape.endSeveral(was); }
  } end{self, was};
  int64_t n = product(targetDims);
  std::vector<std::vector<Value>> grads;
  for (int64_t k = 0; k < count; ++k) {
    std::vector<double> onehot(static_cast<size_t>(n), 0.0);
    for (int64_t base = 0; base + k < n; base += stride) onehot[size_t(base + k)] = 1.0;
    Value seed = wrap(Tensor::fromDoubles(target->dtype(), targetDims, onehot));
    grads.push_back(tapeGradientFlat(in, self, {Value(target)}, sources, {seed}, false));
  }
  return grads;
}

Ref<TensorObject> zerosOf(Interpreter &in, DType d, const std::vector<int64_t> &dims) {
  return toTensor(in, wrap(filledTensor(d, dims, 0.0)));
}

std::vector<int64_t> concatDims(std::vector<int64_t> a, const std::vector<int64_t> &b, size_t from = 0) {
  a.insert(a.end(), b.begin() + long(from), b.end());
  return a;
}

Value jacobian(Interpreter &in, TapeObject &self, const Bound &a) {
  if (!in.truth(a["experimental_use_pfor"]) && !self.tape.persistent())
    in.raise("ValueError", "GradientTape must be created with persistent=True to compute the jacobian with "
                           "experimental_use_pfor set to False.");
  bool zeros = zerosWanted(in, a["unconnected_gradients"]);
  auto target = toTensor(in, a["target"]);
  std::vector<int64_t> targetDims = staticDims(in, target, "jacobian");
  std::vector<Value> sources;
  flatten(in, a["sources"], sources);
  int64_t n = product(targetDims);
  auto grads = seededGradients(in, self, target, targetDims, n, n ? n : 1, sources);
  std::vector<Value> results;
  for (size_t j = 0; j < sources.size(); ++j) {
    std::vector<int64_t> sd = sourceDims(in, sources[j]);
    DType d = sourceDType(in, sources[j]);
    bool connected = false;
    std::vector<Ref<TensorObject>> rows;
    for (auto &g : grads) {
      connected = connected || !g[j].isNone();
      rows.push_back(g[j].isNone() ? zerosOf(in, d, sd) : toTensor(in, g[j]));
    }
    std::vector<int64_t> outDims = concatDims(targetDims, sd);
    if (!connected && !zeros) results.push_back(Value());
    else if (rows.empty()) results.push_back(Value(zerosOf(in, d, outDims)));
    else results.push_back(Value(reshaped(in, callOp1(in, OpKind::Stack, rows, {{"axis", int64_t(0)}}, "stack"),
                                          outDims)));
  }
  size_t pos = 0;
  return unflatten(in, a["sources"], results, pos);
}

Value batchJacobian(Interpreter &in, TapeObject &self, const Bound &a) {
  if (!in.truth(a["experimental_use_pfor"]) && !self.tape.persistent())
    in.raise("ValueError", "GradientTape must be created with persistent=True to compute the batch_jacobian with "
                           "experimental_use_pfor set to False.");
  bool zeros = zerosWanted(in, a["unconnected_gradients"]);
  auto target = toTensor(in, a["target"]);
  std::vector<int64_t> targetDims = staticDims(in, target, "batch_jacobian");
  const Value &source = a["source"];
  std::vector<int64_t> sd = sourceDims(in, source);
  if (targetDims.empty()) in.raise("ValueError", "Need first dimension of `target` shape to be defined, got ()");
  if (sd.empty() || sd[0] != targetDims[0])
    in.raise("ValueError", fmt::format("Need first dimension of target shape ({}) and source shape ({}) to match.",
                                       ir::Shape(targetDims).tfString(), ir::Shape(sd).tfString()));
  int64_t batch = targetDims[0], m = batch ? product(targetDims) / batch : 0;
  auto grads = seededGradients(in, self, target, targetDims, m, m ? m : 1, {source});
  DType d = sourceDType(in, source);
  std::vector<int64_t> outDims = concatDims(targetDims, sd, 1);
  bool connected = false;
  std::vector<Ref<TensorObject>> cols;
  for (auto &g : grads) {
    connected = connected || !g[0].isNone();
    cols.push_back(g[0].isNone() ? zerosOf(in, d, sd) : toTensor(in, g[0]));
  }
  if (!connected && !zeros) return Value();
  if (cols.empty()) return Value(zerosOf(in, d, outDims));
  return Value(reshaped(in, callOp1(in, OpKind::Stack, cols, {{"axis", int64_t(1)}}, "stack"), outDims));
}

}  // namespace

std::optional<Value> tapeExtraAttr(Interpreter &in, TapeObject &self, const std::string &name) {
  Ref<TapeObject> ref(&self);
  if (name == "stop_recording")
    return in.native(name, [ref](Interpreter &, Args, const Kwargs &) -> Value {
      auto s = make<StopRecordingObject>();
      s->tape = ref;
      return s;
    });
  if (name == "jacobian")
    return nativeWithSignature(in,
                               "jacobian(target, sources, unconnected_gradients='none', parallel_iterations=None, "
                               "experimental_use_pfor=True)",
                               [ref](Interpreter &in, const Bound &a) { return jacobian(in, *ref, a); });
  if (name == "batch_jacobian")
    return nativeWithSignature(in,
                               "batch_jacobian(target, source, unconnected_gradients='none', parallel_iterations=None, "
                               "experimental_use_pfor=True)",
                               [ref](Interpreter &in, const Bound &a) { return batchJacobian(in, *ref, a); });
  if (name == "watched_variables")
    return in.native(name, [ref](Interpreter &in, Args, const Kwargs &) -> Value {
      std::vector<Ref<VariableObject>> vars = ref->watchedVariables;
      std::sort(vars.begin(), vars.end(), [](const auto &x, const auto &y) { return x->id < y->id; });
      std::vector<Value> out(vars.begin(), vars.end());
      return in.tuple(out);
    });
  return std::nullopt;
}

}  // namespace tfs::runtime::tf
