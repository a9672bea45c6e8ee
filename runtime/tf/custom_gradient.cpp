// tf.custom_gradient (TF 2.15's custom_gradient.py): `f(*args)` returns
// (result, grad_fn); the result's tensors are recorded on the active tapes
// as one op whose gradient is grad_fn, eagerly and while tracing. Variables
// f reads that are not among its arguments are inputs too: grad_fn must then
// take `variables=` and return (input grads, variable grads), as in TF.
#include "frontend/ast.h"
#include "runtime/autodiff/graph_gradients.h"
#include "runtime/interp/signature.h"
#include "runtime/tf/tf.h"

#include <fmt/format.h>

namespace tfs::runtime::tf {

namespace {

using ir::OpKind;

// Tapes paused for the scope (ops built here are not differentiated through).
struct PausedTapes {
  std::vector<TapeObject *> &tapes, saved;
  explicit PausedTapes(std::vector<TapeObject *> &t) : tapes(t), saved(t) { tapes.clear(); }
  ~PausedTapes() { tapes = saved; }
};

int64_t tapeId(const TensorObject &t) { return t.symbolic() ? valueId(t.sym) : t.id; }
TapeValue tapeValue(const TensorObject &t) { return t.symbolic() ? TapeValue(t.sym) : TapeValue(t.eager); }

bool acceptsVariables(const Value &gradFn) {
  auto *fn = gradFn.as<FunctionObject>();
  if (!fn) return true;  // a native or bound callable: let the call decide
  const std::vector<ast::Param> &params = fn->def ? fn->def->params : fn->lambda->params;
  for (const auto &p : params)
    if (p.name == "variables" || p.kind == ast::Param::Kind::VarKeywords) return true;
  return false;
}

Value callWithCustomGradient(Interpreter &in, const Value &f, Args args, const Kwargs &kw) {
  TfContext &c = ctx(in);
  GraphScope *g = currentGraph(in);
  // TF's VariableWatcher: the variables f reads.
  auto watcher = make<TapeObject>(true);
  watcher->graph = g;
  watcher->region = g ? &g->builder().region() : nullptr;
  c.tapes.push_back(watcher.get());
  Value out;
  frontend::SourceSpan callSite = in.currentSpan();
  try {
    out = in.call(f, std::vector<Value>(args.begin(), args.end()), kw);
    in.restoreSpan(callSite);  // errors below belong to the call, not f's last line
  } catch (...) {
    c.tapes.erase(std::find(c.tapes.begin(), c.tapes.end(), watcher.get()));
    throw;
  }
  c.tapes.erase(std::find(c.tapes.begin(), c.tapes.end(), watcher.get()));
  auto *pair = out.as<TupleObject>();
  if (!pair || pair->items.size() != 2)
    in.raise("ValueError", "a function decorated with @tf.custom_gradient must return a pair (result, grad_fn)");
  Value result = pair->items[0], gradFn = pair->items[1];

  std::vector<Value> flatArgs, flatResult;
  for (auto &a : args) flatten(in, a, flatArgs);
  for (auto &[k, v] : kw) flatten(in, v, flatArgs);
  flatten(in, result, flatResult);
  std::vector<Ref<VariableObject>> variables;
  for (auto &v : watcher->watchedVariables) {
    bool isArg = false;
    for (auto &a : flatArgs) isArg = isArg || a.as<VariableObject>() == v.get();
    if (!isArg) variables.push_back(v);
  }
  if (!variables.empty() && !acceptsVariables(gradFn)) {
    std::string names;
    for (size_t i = 0; i < variables.size(); ++i) names += (i ? ", " : "") + in.repr(Value(variables[i]));
    in.raise("TypeError", fmt::format("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since "
                                      "function uses variables: [{}]", names));
  }

  // Inputs: the tensor (and variable) arguments, then the variables read.
  std::vector<int64_t> inIds;
  std::vector<TapeValue> inVals;
  std::vector<int64_t> argSlots;  // position in flatArgs of each recorded argument input
  {
    PausedTapes paused(c.tapes);
    auto addVariable = [&](VariableObject &v) {
      inIds.push_back(v.id);
      if (g) inVals.push_back(TapeValue(toTensor(in, readVariable(in, v))->sym));
      else inVals.push_back(TapeValue(*v.value));
    };
    for (size_t i = 0; i < flatArgs.size(); ++i) {
      if (auto *v = flatArgs[i].as<VariableObject>()) addVariable(*v);
      else if (auto *t = flatArgs[i].as<TensorObject>(); t && !t->numpy) {
        inIds.push_back(tapeId(*t));
        inVals.push_back(tapeValue(*t));
      } else {
        continue;
      }
      argSlots.push_back(int64_t(i));
    }
    for (auto &v : variables) addVariable(*v);
    // The results become new tensors whose only producer is the custom op.
    for (auto &r : flatResult) {
      if (!r.as<TensorObject>() && !r.as<VariableObject>()) continue;
      r = Value(callOp1(in, OpKind::Identity, {toTensor(in, r)}, {}, "Identity"));
    }
  }
  std::vector<int64_t> outIds;
  std::vector<TapeValue> outVals;
  for (auto &r : flatResult)
    if (auto *t = r.as<TensorObject>()) {
      outIds.push_back(tapeId(*t));
      outVals.push_back(tapeValue(*t));
    }
  size_t numArgs = flatArgs.size();
  Interpreter *ip = &in;
  CustomGradFn grad = [ip, g, gradFn, variables, argSlots, numArgs](GradEmitter &em, const GradOpInfo &op,
                                                                     std::span<const OptHandle> dys) {
    Interpreter &in = *ip;
    std::vector<Value> dyVals;
    for (size_t k = 0; k < op.outputs.size(); ++k) {
      GradEmitter::Handle h = k < dys.size() && dys[k] ? *dys[k] : em.emit(OpKind::ZerosLike, {&op.outputs[k], 1}, {});
      TapeValue v = em.value(h);
      if (auto *t = std::get_if<Tensor>(&v)) dyVals.push_back(wrap(*t));
      else dyVals.push_back(Value(wrapSym(std::get<ir::Value *>(v), g, g->uniqueName("gradient"))));
    }
    Kwargs kw;
    if (!variables.empty()) {
      std::vector<Value> vars(variables.begin(), variables.end());
      kw.emplace_back("variables", in.list(vars));
    }
    Value r = in.call(gradFn, dyVals, kw);
    Value inputGrads = r, varGrads;
    if (!variables.empty()) {
      auto *p = r.as<TupleObject>();
      if (!p || p->items.size() != 2)
        in.raise("ValueError", "a custom_gradient grad_fn called with variables must return (input gradients, "
                               "variable gradients)");
      inputGrads = p->items[0];
      varGrads = p->items[1];
    }
    std::vector<Value> flatIn, flatVar;
    if (auto *l = inputGrads.as<ListObject>()) flatIn = l->items;
    else if (auto *t = inputGrads.as<TupleObject>()) flatIn = t->items;
    else flatIn = {inputGrads};
    if (!variables.empty()) flatVar = in.toList(varGrads);
    if (flatIn.size() != numArgs)
      in.raise("ValueError", fmt::format("custom_gradient function expected to return {} gradients, but returned {} "
                                         "instead.", numArgs, flatIn.size()));
    if (flatVar.size() != variables.size())
      in.raise("ValueError", "Must return gradient for each variable from @custom_gradient grad_fn.");
    auto handleOf = [&](const Value &v) -> OptHandle {
      if (v.isNone()) return std::nullopt;
      auto t = toTensor(in, v);
      return em.adopt(t->symbolic() ? TapeValue(t->sym) : TapeValue(t->eager));
    };
    std::vector<OptHandle> out;
    for (int64_t slot : argSlots) out.push_back(handleOf(flatIn[size_t(slot)]));
    for (auto &v : flatVar) out.push_back(handleOf(v));
    return out;
  };
  for (TapeObject *t : c.tapes) {
    if (t->graph != g || !t->tape.shouldRecord(inIds)) continue;
    t->tape.record(OpKind::Identity, {}, inIds, inVals, outIds, outVals, grad);
  }
  // The result's structure with the recorded tensors in place.
  size_t pos = 0;
  return unflatten(in, result, flatResult, pos);
}

}  // namespace

void installCustomGradient(Interpreter &in, ModuleObject &tf) {
  auto decorate = [](Interpreter &in, const Value &f) {
    return in.native(in.str(in.getAttr(f, "__name__")), [f](Interpreter &in, Args args, const Kwargs &kw) {
      return callWithCustomGradient(in, f, args, kw);
    });
  };
  tf.scope->vars["custom_gradient"] =
      nativeWithSignature(in, "custom_gradient(f=None)", [decorate](Interpreter &in, const Bound &a) -> Value {
        if (a.isNone("f"))
          return in.native("custom_gradient", [decorate](Interpreter &in, Args f, const Kwargs &) {
            return decorate(in, f[0]);
          });
        return decorate(in, a["f"]);
      });
}

}  // namespace tfs::runtime::tf
