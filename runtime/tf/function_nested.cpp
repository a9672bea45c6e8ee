// A tf.function called while another is traced: its own trace (function.cpp
// makes it, through the inner function's cache) copied into the outer graph.
#include "runtime/tf/function_nested.h"

#include "runtime/tf/concrete_function.h"
#include "runtime/tf/function_args.h"
#include "runtime/tf/function_key.h"
#include "runtime/tf/graph_scope.h"
#include "runtime/autodiff/graph_gradients.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace tfs::runtime::tf {

namespace {

bool hasCustomTraceType(Interpreter &in, const Value &v) {
  if (v.as<TensorObject>() || v.as<VariableObject>()) return false;
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    for (const Value &x : in.toList(v))
      if (hasCustomTraceType(in, x)) return true;
    return false;
  }
  if (auto *d = v.as<DictObject>()) {
    for (auto &[k, x] : d->items())
      if (hasCustomTraceType(in, x)) return true;
    return false;
  }
  if (isComposite(v)) return false;
  return hasTracingType(v);
}

// The call's tensors in the order symbolize made the trace's parameters.
void tensorObjects(Interpreter &in, const Value &v, std::vector<TensorObject *> &out) {
  if (auto *t = v.as<TensorObject>()) {
    out.push_back(t);
  } else if (v.as<ListObject>() || v.as<TupleObject>()) {
    for (const Value &x : in.toList(v)) tensorObjects(in, x, out);
  } else if (auto *d = v.as<DictObject>()) {
    for (auto &[k, x] : nestItems(*d)) tensorObjects(in, x, out);
  } else if (isComposite(v)) {
    tensorObjects(in, compositeComponents(in, v), out);
  }
}

// The copy of one trace in another graph: values, variable capture names
// and node names mapped from the inner graph to the outer one.
struct NestedCopy {
  Interpreter &in;
  GraphScope &outer;
  const GraphScope &inner;
  std::string namePrefix;  // the call site's name scopes
  std::string callee;      // the inner function's name
  std::unordered_map<const ir::Value *, ir::Value *> values;
  std::unordered_map<std::string, std::string> variables;

  ir::Value *mapped(ir::Value *v) const {
    auto it = values.find(v);
    return it == values.end() ? v : it->second;
  }

  // Clones the nodes of `src` into `b` (regions recursively, terminators of
  // nested regions included); returns the mapped operands of a function
  // body's return.
  std::vector<ir::Value *> cloneRegion(ir::Builder &b, const ir::Region &src,
                                      std::vector<ir::Node *> *topLevel = nullptr) {
    for (const auto &np : src.nodes()) {
      const ir::Node &n = *np;
      std::vector<ir::Value *> ops;
      for (ir::Value *v : n.operands()) ops.push_back(mapped(v));
      if (n.kind() == ir::OpKind::Return) return ops;
      ir::Attrs attrs = n.attrs;
      if (topLevel) attrs[kNestedCallAttr] = callee;
      if (auto it = attrs.find(ir::kVarAttr); it != attrs.end()) {
        auto renamed = variables.find(ir::attrVar(n));
        if (renamed != variables.end()) it->second = renamed->second;
      }
      std::vector<ir::TensorType> types = n.resultTypes();
      ir::Node *c = b.createTyped(n.kind(), ops, std::move(attrs), types, n.loc.span);
      c->constValue = n.constValue;
      c->callee = n.callee;
      c->loc = n.loc;
      for (const auto &r : n.regions()) {
        ir::Region &nr = c->addRegion();
        for (ir::Value *a : r->args()) values[a] = nr.addArg(a->type, a->name);
        ir::Builder rb(nr);
        cloneRegion(rb, *r);
      }
      if (topLevel) topLevel->push_back(c);
      for (size_t i = 0; i < n.numResults(); ++i) {
        values[n.result(unsigned(i))] = c->result(unsigned(i));
        const std::string &name = inner.nameOf(n.result(unsigned(i)));
        if (!name.empty()) outer.setName(c->result(unsigned(i)), outer.uniqueName(namePrefix + name));
      }
    }
    return {};
  }
};

std::string captureHint(const VariableObject &var) {
  std::string hint = var.name.substr(0, var.name.find(':'));
  for (char &c : hint)
    if (c == '/') c = '_';
  return hint;
}

std::unordered_map<const GraphScope *, std::vector<EnclosingCapture>> &pendingCaptures() {
  static std::unordered_map<const GraphScope *, std::vector<EnclosingCapture>> table;
  return table;
}

// GradientTapes recording in `g` see the copied nodes as they would have
// seen the inner function's ops traced inline: variable reads watch
// trainable variables and are Identity(variable -> value) records; other
// nodes (region ops with their reads hoisted) are recorded as staged.
void recordCopiedNodes(Interpreter &in, GraphScope &g, const std::vector<ir::Node *> &nodes) {
  std::vector<TapeObject *> tapes;
  for (TapeObject *t : ctx(in).tapes)
    if (t->graph == &g) tapes.push_back(t);
  if (tapes.empty()) return;
  auto watch = [&](const ir::Node &read) {
    auto *v = static_cast<VariableObject *>(g.variableOfCapture(ir::attrVar(read)));
    if (v && v->trainable)
      for (TapeObject *t : tapes)
        if (t->watchAccessed) {
          t->tape.watch(v->id);
          t->noteWatched(*v);
        }
    return v;
  };
  for (ir::Node *n : nodes) {
    for (unsigned r = 0; r < n->numRegions(); ++r)
      n->region(r).walk([&](ir::Node &x) {
        if (x.kind() == ir::OpKind::ReadVariable) watch(x);
      });
    if (n->kind() != ir::OpKind::ReadVariable) {
      recordNodeOnTapes(in, g, *n);
      continue;
    }
    VariableObject *v = watch(*n);
    if (!v) continue;
    int64_t inId = v->id, outId = valueId(n->result());
    for (TapeObject *t : tapes) {
      if (t->region != n->parentRegion() || !t->tape.shouldRecord(std::span<const int64_t>(&inId, 1))) continue;
      TapeValue iv = n->result(), ov = n->result();
      t->tape.record(ir::OpKind::Identity, {}, std::span<const int64_t>(&inId, 1), std::span<const TapeValue>(&iv, 1),
                     std::span<const int64_t>(&outId, 1), std::span<const TapeValue>(&ov, 1));
    }
  }
}

}  // namespace

ir::Value *captureEnclosingTensor(Interpreter &in, GraphScope &g, GraphScope &enclosing, ir::Value *v,
                                  const std::string &name) {
  if (g.kind() != GraphScope::Kind::Function)
    in.raise("NotImplementedError", fmt::format("a graph capturing tensor '{}' of the enclosing function's graph is "
                                                "not supported by tfs; pass it as an argument",
                                                name));
  std::vector<EnclosingCapture> &caps = pendingCaptures()[&g];
  for (const EnclosingCapture &c : caps)
    if (c.outerValue == v) return c.param;
  ir::Value *p = g.function().addParam(v->type, name.empty() ? std::string("capture") : name);
  g.setName(p, g.uniqueName(name.empty() ? std::string("capture") : name));
  caps.push_back({&enclosing, v, p, name});
  return p;
}

std::vector<EnclosingCapture> takeEnclosingCaptures(const GraphScope *g) {
  auto it = pendingCaptures().find(g);
  if (it == pendingCaptures().end()) return {};
  std::vector<EnclosingCapture> caps = std::move(it->second);
  pendingCaptures().erase(it);
  return caps;
}

bool canTraceNestedApart(Interpreter &in, std::span<const Value> args, const Kwargs &kwargs) {
  for (const Value &a : args)
    if (hasCustomTraceType(in, a)) return false;
  for (const auto &[k, v] : kwargs)
    if (hasCustomTraceType(in, v)) return false;
  return true;
}

Value inlineNestedCall(Interpreter &in, GraphScope &outer, const ConcreteFunction &cf, std::span<const Value> args,
                       const Kwargs &kwargs) {
  TfContext &c = ctx(in);
  const ir::Function &fn = cf.scope->function();
  std::string prefix;
  for (const std::string &s : c.nameScopes) prefix += s;
  NestedCopy copy{in, outer, *cf.scope, prefix, cf.info.function, {}, {}};

  // Parameters: the call's tensors, as values of the outer graph (eager ones
  // captured or made constants, as any op's inputs are).
  std::vector<TensorObject *> tensors;
  for (const Value &a : args) tensorObjects(in, a, tensors);
  for (const auto &[k, v] : kwargs) tensorObjects(in, v, tensors);
  if (tensors.size() + cf.enclosingCaptures.size() != fn.params().size())
    in.raise("NotImplementedError",
             fmt::format("calling tf.function '{}' inside another tf.function with these arguments is not supported "
                         "by tfs ({} tensors for {} parameters)",
                         cf.info.function, tensors.size(), fn.params().size()));
  for (size_t i = 0; i < tensors.size(); ++i) {
    TensorObject *t = tensors[i];
    ir::Value *v;
    if (t->symbolic() && t->scope == &outer) {
      checkAccessible(in, outer, *t);
      v = t->sym;
    } else {
      v = callOp1(in, ir::OpKind::Identity, {Ref<TensorObject>(t)})->sym;
    }
    copy.values[fn.param(unsigned(i))] = v;
  }
  // Tensors of enclosing graphs the inner trace used: this graph's own, or
  // captured in turn from further out.
  const std::vector<GraphScope *> &active = c.graphs;
  for (const EnclosingCapture &cap : cf.enclosingCaptures) {
    if (std::find(active.begin(), active.end(), cap.scope) == active.end())
      in.raise("TypeError", fmt::format("tf.function '{}' captured tensor '{}' of a graph that is no longer being "
                                        "built; pass it as an argument",
                                        cf.info.function, cap.name));
    copy.values[cap.param] = cap.scope == &outer ? cap.outerValue
                                                 : captureEnclosingTensor(in, outer, *cap.scope, cap.outerValue, cap.name);
  }

  // Captures: the outer graph captures the same tensors and variables; a
  // variable argument's capture is the variable this call passes.
  std::vector<VariableObject *> passed;
  for (const Value &a : args) variableArgs(in, a, passed);
  for (const auto &[k, v] : kwargs) variableArgs(in, v, passed);
  for (const ir::Capture &cap : fn.captures()) {
    if (cap.kind == ir::Capture::Kind::Tensor) {
      int i = outer.function().findCaptureByHandle(cap.handle.get());
      copy.values[cap.value] = i >= 0 ? outer.function().captures()[size_t(i)].value
                                      : outer.addTensorCapture(cap.handle.get(), cap.name, cap.type, cap.handle);
      continue;
    }
    VariableObject *var = nullptr;
    for (size_t k = 0; k < cf.argVariables.size() && k < passed.size(); ++k)
      if (cf.argVariables[k].variable->value.get() == cap.handle.get()) var = passed[k];
    if (!var) var = static_cast<VariableObject *>(cf.scope->variableOfCapture(cap.name));
    if (!var)
      in.raise("NotImplementedError", fmt::format("calling tf.function '{}' inside another tf.function: its capture "
                                                  "'{}' is not supported by tfs",
                                                  cf.info.function, cap.name));
    const std::string *name = outer.findVariableCapture(var);
    copy.variables[cap.name] =
        name ? *name
             : outer.addVariableCapture(var, captureHint(*var), ir::TensorType{var->dtype, cap.type.shape},
                                        std::shared_ptr<void>(var->value, var->value.get()));
  }

  std::vector<ir::Node *> copied;
  std::vector<ir::Value *> results = copy.cloneRegion(outer.builder(), fn.body(), &copied);
  recordCopiedNodes(in, outer, copied);
  std::vector<Value> outs;
  outs.reserve(results.size());
  for (ir::Value *r : results) {
    std::string name = outer.nameOf(r);
    outs.push_back(Value(wrapSym(r, &outer, name)));
  }
  return rebuildOutputs(in, cf.outputStructure, outs);
}

}  // namespace tfs::runtime::tf
